// Characteristics of a run per code region (interval) and per processor (spec section 8): the
// DVM analyzer's accumulators, their Integrate step, and the interval tree both program models fill.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace augur::models::analysis {

/// Kinds of collective (group) operation the characteristics are broken down by. The first five
/// are the DVM analyzer's rows; the rest are message-passing operation kinds.
enum class OpKind : std::uint8_t {
  io,
  reduction,
  shadow,
  remote_access,
  redistribution,
  point_to_point,
  barrier,
  bcast,
  reduce,
  allreduce,
  gather,
  scatter,
  allgather,
  alltoall,
  reduce_scatter,
  scan,
};
inline constexpr std::size_t op_kind_count = 16;
/// The five DVM rows, in the analyzer's order.
inline constexpr std::array<OpKind, 5> dvm_op_kinds = {OpKind::io, OpKind::reduction, OpKind::shadow,
                                                       OpKind::remote_access, OpKind::redistribution};
/// Every kind: the DVM rows in the analyzer's order, then point-to-point and the collectives.
inline constexpr std::array<OpKind, op_kind_count> all_op_kinds = {OpKind::io,
                                                                   OpKind::reduction,
                                                                   OpKind::shadow,
                                                                   OpKind::remote_access,
                                                                   OpKind::redistribution,
                                                                   OpKind::point_to_point,
                                                                   OpKind::barrier,
                                                                   OpKind::bcast,
                                                                   OpKind::reduce,
                                                                   OpKind::allreduce,
                                                                   OpKind::gather,
                                                                   OpKind::scatter,
                                                                   OpKind::allgather,
                                                                   OpKind::alltoall,
                                                                   OpKind::reduce_scatter,
                                                                   OpKind::scan};
/// snake_case key ("remote_access").
std::string_view to_string(OpKind kind);
/// The analyzer's row title ("Remote access").
std::string_view title(OpKind kind);

/// Per processor, per operation kind: the columns of the analyzer's collective table.
struct OpTimes {
  double communication = 0;    ///< time the operation costs (DVM "Communic"; MP: transfer + waiting)
  double real_sync = 0;        ///< real synchronisation (waiting for the partners)
  double synchronization = 0;  ///< potential loss from unsimultaneous starts
  double variation = 0;        ///< spread of completion times
  double overlap = 0;          ///< communication hidden behind computation
  double transfer = 0;         ///< MP: communication time while data moved
  double waiting = 0;          ///< MP: communication time spent waiting for a partner
};

/// Everything accumulated for one processor in one interval (the analyzer's "Processor").
struct ProcessorTimes {
  double execution = 0;        ///< Execution_time (the processor's clock advance in the interval)
  double cpu_usr = 0;          ///< CPU_time_usr
  double cpu_sys = 0;          ///< CPU_time_sys
  double io = 0;               ///< IO_time
  double insuff_usr = 0;       ///< Insuff_parallelism_usr (includes the parallel-loop part)
  double insuff_sys = 0;       ///< Insuff_parallelism_sys
  double insuff_par = 0;       ///< of insuff_usr: replicated parallel-loop iterations
  double communication = 0;    ///< sum of the operations' communication
  double real_sync = 0;        ///< Real_synchronization
  double synchronization = 0;  ///< Synchronization
  double variation = 0;        ///< Time variation
  double overlap = 0;          ///< Overlap
  double lost = 0;             ///< Lost time before Idle: insufficient parallelism + communication
  double idle = 0;             ///< Idle (set by close_interval: max execution − own execution)
  double load_imbalance = 0;   ///< Load imbalance (set by close_interval)
};
static_assert(sizeof(ProcessorTimes) == 120, "ProcessorTimes without its operation kinds (ProcessorTable keeps them)");

/// The figures of every processor in one interval: a ProcessorTimes per processor and, per
/// operation kind, a column of OpTimes with one per processor — allocated (zeroed) when the kind
/// first gets a figure, so that a run pays for the kinds it has (a message-passing run point-to-point
/// and a collective or two, a DVM run its five rows): 120 bytes per processor plus 56 per kind
/// present, instead of 1,016 with every kind. A kind without a column reads as zeros.
class ProcessorTable {
 public:
  ProcessorTable() = default;
  explicit ProcessorTable(std::size_t processors) : procs_(processors) {}

  std::size_t size() const { return procs_.size(); }
  bool empty() const { return procs_.empty(); }
  /// Resizes to `processors` (new processors and new column entries zero).
  void resize(std::size_t processors);

  ProcessorTimes& operator[](std::size_t p) { return procs_[p]; }
  const ProcessorTimes& operator[](std::size_t p) const { return procs_[p]; }
  auto begin() { return procs_.begin(); }
  auto end() { return procs_.end(); }
  auto begin() const { return procs_.begin(); }
  auto end() const { return procs_.end(); }

  /// Whether kind `k` has a column (it may still hold only zeros).
  bool has(OpKind k) const { return !ops_[static_cast<std::size_t>(k)].empty(); }
  /// Kind `k`'s column, one per processor; created (zeroed) when absent.
  OpTimes* add_column(OpKind k);
  /// Kind `k`'s column; empty when absent.
  const std::vector<OpTimes>& column(OpKind k) const { return ops_[static_cast<std::size_t>(k)]; }
  /// Processor `p`'s figures of kind `k` (the column created when absent).
  OpTimes& op(std::size_t p, OpKind k) {
    std::vector<OpTimes>& c = ops_[static_cast<std::size_t>(k)];
    if (c.empty()) [[unlikely]]
      return add_column(k)[p];
    return c[p];
  }
  /// Processor `p`'s figures of kind `k`; zeros when the kind has no column.
  const OpTimes& op(std::size_t p, OpKind k) const;
  /// Sum over the kinds (in OpKind order) of processor `p`'s transfer.
  double transfer(std::size_t p) const;

 private:
  std::vector<ProcessorTimes> procs_;
  std::array<std::vector<OpTimes>, op_kind_count> ops_;
};

/// Type of a code region: the analyzer's Main, Seq, Par, User, and Phase — a stretch of a
/// message-passing run between two global synchronisations (MpCharacteristics, when the trace
/// marks no regions).
enum class IntervalType : std::uint8_t { main, seq, par, user, phase };
/// "Main", "Seq", "Par", "User", "Phase".
std::string_view title(IntervalType type);

/// The totals of one interval after Integrate (spec section 8), including nested intervals.
struct IntervalTotals {
  double efficiency = 0;
  double execution = 0;
  double total = 0;
  double productive = 0;
  double productive_cpu = 0;
  double productive_sys = 0;
  double io = 0;
  double lost = 0;
  double insufficient = 0;
  double insuff_usr = 0;
  double insuff_sys = 0;
  double communication = 0;
  double real_sync = 0;
  double idle = 0;
  double load_imbalance = 0;
  double synchronization = 0;
  double variation = 0;
  double overlap = 0;
  double cpu_usr = 0;
  double cpu_sys = 0;
  double transfer = 0;  ///< MP: the transfer part of communication (sum over operation kinds)
  double waiting = 0;   ///< MP: the waiting part of communication (sum over operation kinds)
  std::array<OpTimes, op_kind_count> ops{};
  std::array<std::uint64_t, op_kind_count> operations{};

  const OpTimes& op(OpKind k) const { return ops[static_cast<std::size_t>(k)]; }
  std::uint64_t nop(OpKind k) const { return operations[static_cast<std::size_t>(k)]; }
};

/// One node of the interval tree.
struct Interval {
  int id = 0;  ///< 1 = root; numbered in creation order (HTML anchors)
  IntervalType type = IntervalType::main;
  int level = 0;
  std::uint64_t exe_count = 1;
  std::string source_file;
  int source_line = 0;
  std::optional<long> index;  ///< binter_'s optional expression value
  Interval* parent = nullptr;
  std::vector<std::unique_ptr<Interval>> children;
  ProcessorTable procs;                                   ///< one per processor of the root system
  std::array<std::uint64_t, op_kind_count> operations{};  ///< operation counts in this interval
  IntervalTotals totals;                                  ///< filled by IntervalTree::integrate

  ProcessorTimes& proc(int p) { return procs[static_cast<std::size_t>(p)]; }
  const ProcessorTimes& proc(int p) const { return procs[static_cast<std::size_t>(p)]; }
  /// Processor `p`'s figures of operation kind `k` (see ProcessorTable::op).
  OpTimes& op(int p, OpKind k) { return procs.op(static_cast<std::size_t>(p), k); }
  const OpTimes& op(int p, OpKind k) const { return procs.op(static_cast<std::size_t>(p), k); }
  void count_op(OpKind k) { ++operations[static_cast<std::size_t>(k)]; }
};

/// How Integrate propagates nested intervals' figures into their parent.
enum class IntegrateRule : std::uint8_t {
  /// Every component of every collective kind is added from nested intervals.
  complete,
  /// Predictor 3.1: of the collective rows other than I/O only communication, synchronization and
  /// overlap (and the operation counts) are added from nested intervals; real_sync and variation
  /// per kind are not (the interval-wide real_sync and variation are).
  predictor,
};

/// Adds `from` (figures of operation kind `kind`) to `to` as Integrate adds a nested interval's:
/// every column under IntegrateRule::complete and for I/O; under IntegrateRule::predictor the
/// other kinds' real_sync and variation are not added.
void add_nested(OpTimes& to, const OpTimes& from, IntegrateRule rule, OpKind kind);

/// The interval tree of a run: the root (whole program, level 0) and the current interval.
class IntervalTree {
 public:
  /// A tree for `processors` processors (of the root processor system) with a Main root.
  explicit IntervalTree(int processors, std::string source_file = {}, int source_line = 0);

  Interval& root() { return *root_; }
  const Interval& root() const { return *root_; }
  Interval& current() { return *current_; }
  const Interval& current() const { return *current_; }
  int processors() const { return processors_; }

  /// Enters the child of the current interval with this (type, file, line, index), creating it
  /// if needed (then EXE_count = 1), else EXE_count += 1.
  Interval& enter(IntervalType type, std::string_view file, int line, std::optional<long> index);
  /// Returns to the parent of the current interval without closing it (the caller closes
  /// intervals later with close_interval, once their figures are complete). No-op at the root.
  void exit_to_parent() {
    if (current_->parent != nullptr) current_ = current_->parent;
  }
  /// Every interval by id (index = id; entry 0 is null).
  Interval* by_id(int id) {
    return id > 0 && id < static_cast<int>(index_.size()) ? index_[static_cast<std::size_t>(id)] : nullptr;
  }
  /// Closes the current interval (computes its Idle and Load imbalance over `active`
  /// processors, the current processor system) and returns to its parent. No-op at the root.
  void leave(const std::vector<int>& active);
  /// Computes Idle and Load imbalance of `interval` over the processors in `active`:
  /// Idle_i = max_j Execution_j − Execution_i;
  /// Load_imbalance_i = (max_j CPU_sys_j + max_j CPU_usr_j) − (CPU_sys_i + CPU_usr_i).
  static void close_interval(Interval& interval, const std::vector<int>& active);

  /// Integrate (spec section 8) every interval bottom-up into its `totals`.
  void integrate(IntegrateRule rule);

  /// Visits intervals in pre-order (the HTML report's order).
  template <class F>
  void for_each(F&& f) const {
    visit(*root_, f);
  }

 private:
  template <class F>
  static void visit(const Interval& i, F& f) {
    f(i);
    for (const auto& c : i.children) visit(*c, f);
  }
  void integrate(Interval& interval, IntegrateRule rule);

  int processors_;
  int next_id_ = 1;
  std::vector<Interval*> index_;
  std::unique_ptr<Interval> root_;
  Interval* current_;
};

}  // namespace augur::models::analysis
