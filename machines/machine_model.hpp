// The interface every machine model implements (spec section 7): prices messages, transfer
// matrices, collectives and compute blocks. Machine models know nothing of traces.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/collective_kind.hpp"
#include "engine/sim_time.hpp"
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

/// A group of this machine's processors arranged as a grid (a DVM processor system): row-major,
/// the last dimension fastest.
struct ProcessorGrid {
  std::vector<int> shape;       ///< extent of every dimension
  std::vector<int> processors;  ///< the machine processor at each grid position (Π shape of them)
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
};

/// A machine model instance for one run of `processors` processors. Stateful: contention
/// (busy buses, links) is tracked between calls, so calls must come in non-decreasing `ready`.
class MachineModel {
 public:
  virtual ~MachineModel() = default;

  /// Registry name of the model ("loggp_smp").
  virtual std::string model_name() const = 0;

  /// Prices one message of `bytes` bytes from `src` to `dst` that is ready to go at `ready`.
  virtual Transfer transfer(int src, int dst, std::uint64_t bytes, SimTime ready) = 0;

  /// Analytic duration of a collective of `kind` over `processors` processors, each
  /// contributing `bytes` bytes, counted from the moment the last participant enters.
  virtual SimTime collective_time(engine::CollectiveKind kind, int processors, std::uint64_t bytes, int root) const = 0;

  /// Price of a transfer matrix T[p][q] (bytes from p to q), spec section 6.3 GetCost. The
  /// default simulates the messages on this model, all ready at time 0, and returns the time
  /// the last one arrives (models with a closed form override it).
  virtual SimTime matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix);

  /// Price of a transfer matrix when each sender is ready at its own clock (Predictor 3.1's
  /// GetCost: messages sent one by one in row-major order). `ready[p]` = clock of processor p.
  /// Returns the cost (time from the first send to the last arrival); when `end_per_proc` is
  /// given, it receives for every processor the latest arrival among messages it sent or received
  /// (0 when none). The default ignores `ready` and returns matrix_cost(matrix); its
  /// `end_per_proc` holds that cost for every processor with traffic (arrivals counted from 0).
  virtual SimTime matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix,
                                 const std::vector<SimTime>& ready, std::vector<SimTime>* end_per_proc = nullptr);

  /// A reduction over `grid` (spec 6.2 StartR): the processors differ in their partial results
  /// only along the grid dimensions d with `split[d]` (the loop is split there and replicated
  /// along the others); the B = Π_{split d} shape[d] partial results of `bytes` bytes are
  /// combined on one processor and the result is sent to all L processors of the grid. 0 when no
  /// dimension is split. The default simulates those messages on this model (a pricing query:
  /// the contention state is cleared before and after): the B − 1 processors with coordinate 0
  /// on every unsplit dimension send to position 0 at time 0, then position 0 sends the result to
  /// the L − 1 others once the last partial result has arrived; the cost is the last arrival.
  /// The seed's bus and transputer grid override it with their closed forms.
  virtual SimTime grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split, std::uint64_t bytes);

  /// A broadcast of `bytes` bytes from `processors[0]` to every processor of the list, message
  /// after message (the DVM I/O processor's srmem_): for each position, the time from the start
  /// until that processor is done. The default simulates the messages on this model (reset
  /// before and after): position 0 → 0, position k → arrival of its message, all sent at time 0
  /// in list order. The seed's bus and transputer grid use its formula (seed_broadcast_times).
  virtual std::vector<SimTime> broadcast_times(const std::vector<int>& processors, std::uint64_t bytes);

  /// The grid the program lays its processors out on (DVM: the root processor system), row-major.
  /// Models whose topology was left unspecified adopt it (transputer_grid with grid []); the
  /// default ignores it. Call before the run; a shape of another processor count is ignored.
  virtual void arrange(const std::vector<int>& shape) { (void)shape; }

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
};

/// The seed's srmem_ broadcast (spec 6.2 I/O, Predictor 2.53 ModelIO srmem): position i of P is
/// done after Δ_i = σ · Σ_{j=0..i} (Ts + j·Tb·bytes), i.e. Δ_0 = σTs, Δ_i = Δ_{i−1} + σ(Ts + i·Tb·bytes).
std::vector<SimTime> seed_broadcast_times(int processors, SimTime start_time, SimTime byte_time, double scale,
                                          std::uint64_t bytes);

/// The parameters every model declares (cpu_speed, power, eager_threshold); models append theirs.
std::vector<ParamSpec> common_params();

}  // namespace augur::machines
