// The DVM runtime model (spec section 6) driving the engine: a Lib-DVM trace recorded on one
// processor, replayed on every processor of a grid. Each processor is an LP with its own cursor
// into the decoded calls; group operations (reductions, shadow starts, realign, copies) are
// barriers of the current processor system, executed in trace order by the last LP to arrive.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/program.hpp"
#include "machines/machine_model.hpp"
#include "models/analysis/characteristics.hpp"
#include "models/dvm/distributed_array.hpp"
#include "models/dvm/distribution.hpp"
#include "models/dvm/parallel_loop.hpp"
#include "models/dvm/processor_system.hpp"
#include "models/dvm/transfer_matrix.hpp"
#include "traces/libdvm/dvm_call.hpp"
#include "traces/libdvm/dvm_trace_reader.hpp"

namespace augur::models::dvm {

/// How group operations are priced.
enum class CostStyle : std::uint8_t {
  /// Predictor 3.1 (cluster machines): reductions are messages from every processor holding part
  /// of the loop's pattern to processor 0 and back; a shadow start synchronises and lasts
  /// GetCost / P; transfer matrices are priced message by message from the senders' clocks.
  predictor31,
  /// The seed's model (spec 6.2–6.3, Predictor 2.53; every machine but dvm_cluster): a shadow
  /// start lasts the whole GetCost; a reduction ends at t0 + the machine's grid_reduction_time
  /// (StartR); srmem_ adds the machine's broadcast_times; redis_ moves every array aligned on
  /// the template; matrices are priced from time 0 (their per-processor ends are durations).
  seed,
};

/// The documented differences between augur's DVM model and the original Predictor that a run
/// can meet (docs/dvm-model.md, "augur predict and augur run"; the id is `difference_id`).
enum class Difference : std::uint8_t {
  psview_overwrite,       ///< Q1: 3.1's psview_ overwrites the current system with the view
  remote_buffer_order,    ///< Q2: 2.53 fills remote-buffer matrices receiver by holder
  negative_write_region,  ///< Q3: 3.1 sizes an arrcpy_ region with a negative bound 0 (no user time split)
  across_pipeline_253,    ///< Q4: 2.53 runs 3.1's old-DVM ACROSS pipeline with its own pricing and booking
};
inline constexpr std::size_t difference_count = 4;
/// "Q1" …: the difference's id in docs/dvm-model.md.
const char* difference_id(Difference d);
/// One line: what the original does and what `augur run` does instead.
const char* difference_text(Difference d);

/// Options of a DVM run.
struct DvmOptions {
  std::vector<int> grid;  ///< the root processor system, e.g. {2, 2}
  Fidelity fidelity = Fidelity::predictor;
  CostStyle cost = CostStyle::predictor31;
  /// Reuse what a geometry gives (a mappl_'s loop and its dopl_ portions, an inssh_'s matrix,
  /// a waitrd_'s holders) until a call changes the geometry; false recomputes them every time
  /// (same results, for tests).
  bool memoise = true;
  /// `augur predict`: reproduce the original Predictor's quirks that augur's model corrects
  /// (docs/dvm-model.md, "augur predict and augur run"): 3.1's psview_ overwrite of the current
  /// system (Q1), its size 0 for arrcpy_ regions with a negative bound (Q3); 2.53's remote-buffer
  /// direction (Q2).
  bool quirks = false;
};

/// The engine-event contract of the DVM model (what the characteristics observer reads):
/// * compute: detail = ComputeCategory, tag = replication count c ≥ 1 (the same work done on c
///   processors: insufficient parallelism = duration·(c−1)/c), internal = 1 counts an I/O operation;
///   tag = 0: insufficient parallelism `waited` of the category (user or system) without time;
///   tag ≥ 1: `waited` = the duration as the model computed it (3.1's TimeDelta; the span's
///   clock_after − clock_before may differ from it in the last bits).
/// * loop_block: this LP's iterations of a parallel loop; tag = c (identical blocks); `waited` =
///   the duration as computed, as for compute.
/// * sync_all: detail = OpKind; clock_before → clock_after is the wait for the latest processor
///   `peer` (synchronization of that kind, counted as its communication); tag = 1: potential loss only
///   (waited, clock unchanged, no kind); tag = 2: synchronization of the kind only (waited, clock
///   unchanged: between biof_ and eiof_, and before an ACROSS pipeline); tag = 3: time variation
///   of the kind (waited, clock unchanged: the spread of an ACROSS pipeline's finishing times).
/// * collective_start: detail = OpKind, tag = operation id, clock = the operation's start t0;
///   internal = 1 (on one LP) counts the operation.
/// * collective_wait: detail = OpKind, tag = operation id (0: none), clock_before → clock_after
///   the communication time; the overlap is clock_before − t0 of the matching start, or `waited`
///   when internal bit 2 is set; internal bit 1 counts an operation. A completion that depended
///   on another processor's entry (Predictor 3.1's reduction: processor 0 sends the result) names
///   it in `peer`, and `waited` is then the part of the wait before that entry (not read by the
///   characteristics); every other collective_wait has peer −1. Events of other kinds have peer −1.
/// * interval_enter / interval_exit: tag = id of the interval the LP is in afterwards.
class DvmProgram final : public engine::Program {
 public:
  /// Reads the trace from `reader` (already opened), builds the interval structure in `tree`
  /// (its nodes; the per-processor figures are the observer's). `machine` prices transfers.
  DvmProgram(traces::libdvm::DvmTraceReader& reader, machines::MachineModel& machine, analysis::IntervalTree& tree,
             DvmOptions options);
  ~DvmProgram() override;

  engine::StepResult step(engine::LpId lp, engine::Scheduler& scheduler) override;
  engine::WaitInfo waits_for(engine::LpId lp) const override;
  std::string describe(engine::LpId lp) const override;

  /// After the run: Idle and Load imbalance of every interval over the processors current at
  /// its last exit (the root: at the end), as the original's Leave and final step compute them.
  void close_intervals();
  /// The interval the original's report starts from: the one current at the end of the trace.
  const analysis::Interval* report_root() const;
  /// The root system's extents at the end of the run: the grid, unless 3.1's psview_ overwrote
  /// it (`quirks`; the Processors cell of 3.1's report).
  const std::vector<int>& root_extents() const;
  /// The documented differences from the original this run met, in id order, one line each:
  /// "Q1 psview_: …" (difference_id, difference_text).
  std::vector<std::string> differences() const;
  /// Where each processor is in the program: the analysis::statement_key of the call it is replaying (0
  /// before its first call), set when it steps and kept while it waits in a group operation, so
  /// an observer can read it at any event. One entry per processor; the vector lives as long as
  /// the program and is never reallocated.
  const std::vector<std::uint64_t>& statements() const { return statements_; }
  /// The FILE= name of a statement's file id.
  std::string_view source_file(std::uint32_t id) const { return reader_.source_file(id); }
  /// Warnings (unknown functions, unsupported constructs), "file:line: warning: …".
  const std::vector<std::string>& warnings() const { return warnings_; }
  int processors() const { return root_count_; }

  /// What the model keeps of the trace: decoded calls not yet replayed by every processor, and
  /// group operations that something may still refer to (both bounded whatever the trace's
  /// length), now and at their largest so far.
  struct Footprint {
    std::size_t actions = 0;
    std::size_t operations = 0;
    std::size_t peak_actions = 0;
    std::size_t peak_operations = 0;
  };
  Footprint footprint() const;

  struct Action;
  struct Op;
  struct State;

 private:
  bool decode_next();
  const Action* action_at(std::uint64_t index) const;
  engine::StepResult run_action(engine::LpId lp, const Action& a, engine::Scheduler& s);
  void execute_ready_ops(engine::Scheduler& s);
  void execute_op(Op& op, engine::Scheduler& s);
  void release(std::uint64_t upto);

  std::unique_ptr<State> state_;
  traces::libdvm::DvmTraceReader& reader_;
  machines::MachineModel& machine_;
  analysis::IntervalTree& tree_;
  DvmOptions options_;
  int root_count_ = 1;
  std::vector<std::string> warnings_;
  std::vector<std::uint64_t> statements_;
};

}  // namespace augur::models::dvm
