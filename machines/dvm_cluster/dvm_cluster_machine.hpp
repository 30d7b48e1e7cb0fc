// The cluster cost model of the DVM Predictor 3.1 (spec 6.6; Rater/Src/CommCost.cpp: CommSend,
// GetCost): a tree of clusters, each with channels; a message uses the smallest common cluster.
#pragma once
#include <string>
#include <vector>

#include "machines/dvm_cluster/cluster_tree.hpp"
#include "machines/machine_model.hpp"

namespace augur::machines {

/// Every parameter of the dvm_cluster model: common_params() then clusters.
std::vector<ParamSpec> dvm_cluster_params();

class DvmClusterMachine;

/// The DVM queries on Predictor 3.1's machine: GetCost from the senders' clocks; matrix_cost,
/// the grid reduction and the broadcast simulated (SimulatedDvmPricing).
class DvmClusterPricing final : public SimulatedDvmPricing {
 public:
  explicit DvmClusterPricing(DvmClusterMachine& machine);

  /// 3.1's GetCost (formula and quirks in the .cpp). Does not reset: the channels stay busy.
  /// Throws std::invalid_argument when `ready` has fewer clocks than the matrix has rows.
  SimTime matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix, const std::vector<SimTime>& ready,
                         std::vector<SimTime>* end_per_proc = nullptr) override;

 private:
  DvmClusterMachine& machine_;
};

/// Predictor 3.1's machine: processors are the leaves of a cluster tree, numbered depth-first
/// (processor p of the run is leaf p; a run may use fewer processors than the tree has). A
/// message between two processors goes through the smallest cluster containing both, on that
/// cluster's least-busy channel (the first of equal ones): it starts at max(sender clock, channel
/// free) and ends TStart + bytes · TByte of that cluster later; the channel stays busy until
/// then. Channel occupancy persists between operations until reset(). The cluster's CommType is
/// not used for pricing (as in 3.1: ethernet and transputer files give identical figures).
class DvmClusterMachine final : public MachineModel {
 public:
  /// Reads the parameters; throws ParamError when the tree has fewer processors than the run.
  DvmClusterMachine(const ParamSet& params, int processors);

  std::string model_name() const override { return "dvm_cluster"; }
  /// 3.1's CommSend: the sender's clock `ready` is first rounded to a C float (3.1 passes it as
  /// one). start = max(float(ready), free channel), arrival = start + TStart + bytes · TByte.
  /// sender_free = ready (the sender's CPU is not held). A message to oneself costs nothing.
  Transfer transfer(int src, int dst, std::uint64_t bytes, SimTime ready) override;
  /// The bus formulas of the smallest cluster holding processors 0..P−1: m(n) = Ts + Tb·n and
  /// c = min(P, channels); barrier 2(P−1)·Ts/c; bcast, reduce, gather, scatter (P−1)·m(n)/c;
  /// allreduce, reduce_scatter 2(P−1)·m(n)/c; allgather, alltoall P(P−1)·m(n)/c; scan (P−1)·m(n).
  SimTime collective_time(engine::CollectiveKind kind, int processors, std::uint64_t bytes, int root) const override;
  /// 3.1's GetCost as `matrix_cost_at`, the other DVM queries simulated (DvmClusterPricing).
  DvmPricing& dvm_pricing() override { return pricing_; }
  /// Frees every channel.
  void reset() override;

  /// Name of the smallest cluster containing processors `a` and `b` (a ≠ b).
  const std::string& common_cluster(int a, int b) const;
  /// Number of processors of the whole tree (≥ processors()).
  std::int64_t tree_processors() const { return tree_processors_; }

 private:
  friend class DvmClusterPricing;
  /// One cluster instance of the tree (sub-clusters repeated K times are K instances).
  struct Node {
    std::size_t definition = 0;     ///< index in definitions_
    std::size_t first_channel = 0;  ///< its channels in channel_free_
  };
  /// What CommSend leaves behind: 3.1's BeginTime, WaitStart and EndTime.
  struct Send {
    SimTime begin = 0;
    SimTime wait = 0;
    SimTime end = 0;
  };
  Send send(SimTime clock, int src, int dst, std::uint64_t bytes);
  /// Index in nodes_ of the smallest cluster holding both processors.
  std::size_t common_node(int a, int b) const;
  const ClusterDefinition& cluster_of(const Node& node) const { return definitions_[node.definition]; }

  std::vector<ClusterDefinition> definitions_;
  std::int64_t tree_processors_ = 0;
  std::vector<Node> nodes_;
  std::vector<SimTime> channel_free_;  ///< per channel of every node: when it is free again
  /// Processor p's ancestors, root first: chain_[chain_start_[p] .. chain_start_[p + 1]).
  std::vector<std::size_t> chain_start_;
  std::vector<std::size_t> chain_;
  DvmClusterPricing pricing_{*this};
};

}  // namespace augur::machines
