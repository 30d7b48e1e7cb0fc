// The interface every machine model implements (spec section 7): prices messages, collectives
// and compute blocks; the DVM model's queries go through dvm_pricing(). Knows nothing of traces.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/collective_kind.hpp"
#include "engine/sim_time.hpp"
#include "machines/dvm_pricing.hpp"
#include "machines/param.hpp"
#include "machines/roofline/roofline.hpp"

namespace augur::machines {

using engine::SimTime;

/// The price of one message.
struct Transfer {
  SimTime start = 0;          ///< when the payload starts to move (after waiting for a free medium)
  SimTime sender_free = 0;    ///< when the sender's CPU is free again (its send overhead done)
  SimTime arrival = 0;        ///< when the last byte is at the receiver
  SimTime recv_overhead = 0;  ///< CPU time the receiver spends taking the message
};

/// What one link (or one direction of a link with a capacity per direction) of a flow-level
/// network carried in a run, for the reports (docs/reports.md).
struct LinkUsage {
  std::string name;              ///< as the platform names it (Topology::link_name)
  std::string sharing;           ///< shared, splitduplex (this entry: one direction), fatpipe
  double bandwidth = 0;          ///< bytes per second of this capacity
  double bytes = 0;              ///< bytes the messages routed over it moved (cross-traffic not counted)
  SimTime busy = 0;              ///< time with at least one message moving data over it
  std::uint32_t peak_flows = 0;  ///< most messages moving over it at once
};

/// Messages priced as events (flow-level network models, docs/network.md): a message's arrival
/// depends on messages that start after it, so it is known only once simulated time reaches it.
class FlowEvents {
 public:
  virtual ~FlowEvents() = default;
  /// Starts a message of `bytes` bytes from `src` to `dst` at `ready` (non-decreasing over the
  /// calls, as `transfer`); returns its id, valid until it is reported finished.
  virtual std::uint32_t start_flow(int src, int dst, std::uint64_t bytes, SimTime ready) = 0;
  /// When the next message may finish (the earliest completion at the current rates); +∞ when
  /// none is in flight.
  virtual SimTime next_completion() = 0;
  /// Advances to `t`; appends the ids of the messages that finished by then to `finished`.
  virtual void complete_until(SimTime t, std::vector<std::uint32_t>& finished) = 0;
  static constexpr std::uint32_t no_flow = 0xffffffffU;
  /// Starts `flops` of computation of rank `rank` at `ready` when its host runs more ranks than
  /// it has cores (they share them: its end is an event, reported by complete_until as a
  /// message's); no_flow when the rank has a core to itself (compute_time prices it).
  virtual std::uint32_t start_compute([[maybe_unused]] int rank, [[maybe_unused]] double flops,
                                      [[maybe_unused]] SimTime ready) {
    return no_flow;
  }
};

/// A machine model instance for one run of `processors` processors. Stateful: contention
/// (busy buses, links) is tracked between calls, so calls must come in non-decreasing `ready`.
class MachineModel {
 public:
  virtual ~MachineModel() = default;
  // The default DVM pricing refers to this instance: a copy would price on the original.
  MachineModel(const MachineModel&) = delete;
  MachineModel& operator=(const MachineModel&) = delete;

  /// Registry name of the model ("loggp_smp").
  virtual std::string model_name() const = 0;

  /// Prices one message of `bytes` bytes from `src` to `dst` that is ready to go at `ready`.
  virtual Transfer transfer(int src, int dst, std::uint64_t bytes, SimTime ready) = 0;

  /// Analytic duration of a collective of `kind` over `processors` processors, each
  /// contributing `bytes` bytes, counted from the moment the last participant enters.
  virtual SimTime collective_time(engine::CollectiveKind kind, int processors, std::uint64_t bytes, int root) const = 0;

  /// Time of `flops` of computation on `proc`: flops / (cpu_speed · power[proc]).
  virtual SimTime compute_time(int proc, double flops) const;
  /// Time of a compute block that states its memory traffic and math-function calls (spec §7.5):
  /// on a machine with a roofline node, roofline_time(node, work, memory level, cores of proc's
  /// node that run a process) / power[proc]; without one, compute_time(proc, work.flops) — the
  /// bytes and calls are not priced.
  SimTime compute_time(int proc, const ComputeWork& work) const;
  /// The roofline node (spec §7.5), if the machine declares one, and the chosen memory level.
  const std::optional<NodeSpec>& node() const { return node_; }
  std::size_t memory_level() const { return memory_level_; }
  /// The flop rate of `proc`: the node's performance per core (with a node) or cpu_speed, times
  /// power[proc].
  double flop_rate(int proc) const;
  /// power[proc]: the speed of `proc` relative to the processor that recorded the trace.
  double relative_power(int proc) const { return power(proc); }
  /// A recorded duration replayed on `proc`: seconds / power[proc].
  virtual SimTime scaled_time(int proc, SimTime seconds) const;

  /// Time an MPI_Test call injects before testing (SimGrid's smpi/test; 0: none), multiplied by
  /// 1 + the tests failed since the last one that succeeded (program models count them).
  virtual SimTime test_time() const { return 0; }
  /// Messages larger than this use rendezvous (the sender waits for the receive).
  std::uint64_t eager_threshold() const { return eager_threshold_; }
  /// Number of processors this instance was built for.
  int processors() const { return processors_; }
  /// Forgets all contention state (a new run on the same instance).
  virtual void reset() {}
  /// The model's message events when it prices messages as flows whose arrival later messages
  /// change (program models then start messages with it and wait for their completions);
  /// nullptr (the default) when `transfer` is exact at call time.
  virtual FlowEvents* flow_events() { return nullptr; }
  /// Flow-level networks: start counting what each link carries (before the run; the models
  /// without links ignore it, so they pay nothing).
  virtual void record_link_usage() {}
  /// What each link carried so far, in link order (a splitduplex link: up, then down); empty
  /// for the models without links or when record_link_usage was not called.
  virtual std::vector<LinkUsage> link_usage() const { return {}; }
  /// The DVM model's queries (GetCost, StartR, srmem_, the processor grid) on this machine. The
  /// default simulates their messages with `transfer` (SimulatedDvmPricing); models with closed
  /// forms return their own. Valid as long as the machine.
  virtual DvmPricing& dvm_pricing() { return simulated_pricing_; }

 protected:
  /// Reads the parameters every model has: cpu_speed, power, eager_threshold.
  MachineModel(const ParamSet& params, int processors);
  double power(int proc) const;

  int processors_ = 1;
  double cpu_speed_ = 1e9;
  std::vector<double> power_;
  std::uint64_t eager_threshold_ = 65536;
  std::optional<NodeSpec> node_;
  std::size_t memory_level_ = 0;

 private:
  SimulatedDvmPricing simulated_pricing_{*this};
};

/// The parameters every model declares (cpu_speed, power, eager_threshold); models append theirs.
std::vector<ParamSpec> common_params();

}  // namespace augur::machines
