// The LogGP SMP cluster (spec 7.3, 5): nodes of several processes; LogGP between nodes
// (Alexandrov et al. 1995) with MTU fragmentation and link contention, shared memory inside.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "machines/machine_model.hpp"
#include "machines/network/flow_network.hpp"
#include "machines/network/topology.hpp"

namespace augur::machines {

/// Every parameter of the LogGP SMP model: common_params() then latency, overhead, gap,
/// bandwidth, mtu, processes_per_node, mapping, intra_node_latency, intra_node_bandwidth,
/// link_contention.
std::vector<ParamSpec> loggp_smp_params();

/// A cluster of SMP nodes. Between nodes a message of n bytes costs L + W(n), where the wire
/// time W(n) = n·G, or with an MTU m: ⌊n/m⌋·(L + m·G) + (n mod m > 0 ? L + (n mod m)·G : 0) − L
/// (spec 5: Time(Post(n)) = ⌊n/MTU⌋·Time(Post(MTU)) + Time(Post(n mod MTU)), Post(x) = L + x·G).
/// Inside a node (and to oneself) it costs intra_node_latency + n / intra_node_bandwidth.
/// Stateful: per node the up-link and down-link free times and the last injection (for g).
/// link_contention: off (no reservation), fifo (first come first served: the links' free times;
/// `true`, the default, as the boolean of earlier versions), fair (max-min sharing of the node
/// links: every message is a flow of a FlowNetwork, docs/network.md; `false` is off).
class LoggpSmpMachine final : public MachineModel, public FlowEvents {
 public:
  /// Reads the parameters; throws ParamError on a zero bandwidth or processes_per_node.
  LoggpSmpMachine(const ParamSet& params, int processors);

  std::string model_name() const override { return "loggp_smp"; }
  /// Between nodes: inject = max(ready + o, last injection of the source node + g) (g > 0);
  /// with link_contention start = max(inject, up[src node], down[dst node]) and both links stay
  /// busy for W(n), else start = inject; arrival = start + L + W(n); sender_free = inject (the
  /// gap stalls the sending CPU, as in LogGOPSim); recv_overhead = o. Inside a node:
  /// start = sender_free = ready + o, arrival = start + intra latency + n / intra bandwidth.
  Transfer transfer(int src, int dst, std::uint64_t bytes, SimTime ready) override;
  /// LogGP formulas of the usual algorithms (binomial trees, dissemination, rings; in the .cpp).
  SimTime collective_time(engine::CollectiveKind kind, int processors, std::uint64_t bytes, int root) const override;
  void reset() override;
  /// fair: messages are flows (their arrival an event); otherwise nullptr.
  FlowEvents* flow_events() override { return fair_ ? this : nullptr; }
  /// fair: a flow over the source node's up-link and the target node's down-link (each of
  /// bandwidth 1/G, half of L as latency: the route's is L), after the latencies of the further
  /// MTU fragments; inside a node a flow over no link that ends after L_intra + n / B_intra.
  std::uint32_t start_flow(int src, int dst, std::uint64_t bytes, SimTime ready) override;
  SimTime next_completion() override { return fair_->next_event(); }
  void complete_until(SimTime t, std::vector<std::uint32_t>& finished) override { fair_->advance_to(t, &finished); }
  /// fair: the node links (`node3-up`, `node3-down`); otherwise none.
  void record_link_usage() override;
  std::vector<LinkUsage> link_usage() const override;

  /// Node that holds rank `rank`: block → rank / ppn; round_robin → rank mod nodes.
  int node_of(int rank) const;
  /// Number of nodes: ⌈P / ppn⌉.
  int nodes() const { return nodes_; }
  /// Time a message of `bytes` holds a link between nodes, W(n) (see the class comment).
  SimTime wire_time(std::uint64_t bytes) const;
  /// Whole cost of a message between nodes once injected: L + W(n).
  SimTime network_time(std::uint64_t bytes) const;
  /// SimGrid SMPI's piecewise correction: the factor of the largest size threshold <= bytes.
  static double size_factor(const std::vector<double>& table, std::uint64_t bytes);

 private:
  /// link_contention fair: the node links as a cluster of nodes_ hosts, the FlowNetwork on them.
  void make_fair();
  SimTime latency_;    ///< L, s
  SimTime overhead_;   ///< o, s (send and receive each)
  SimTime gap_;        ///< g, s between two injections of one node
  double bandwidth_;   ///< 1/G, B/s
  std::uint64_t mtu_;  ///< bytes, 0 = unlimited
  int processes_per_node_;
  bool round_robin_;
  SimTime intra_latency_;
  double intra_bandwidth_;                 ///< B/s
  std::vector<double> latency_factors_;    ///< [size, factor, …] by decreasing size; empty = 1
  std::vector<double> bandwidth_factors_;  ///< same for the bandwidth
  bool link_contention_;                   ///< fifo
  int nodes_;
  std::optional<network::Topology> fair_topology_;  ///< fair: a cluster of the nodes' links
  std::optional<network::FlowNetwork> fair_;
  std::vector<SimTime> up_free_;      ///< per node: when its link to the network is free
  std::vector<SimTime> down_free_;    ///< per node: when its link from the network is free
  std::vector<SimTime> last_inject_;  ///< per node: last injection time (−∞ before the first)
};

}  // namespace augur::machines
