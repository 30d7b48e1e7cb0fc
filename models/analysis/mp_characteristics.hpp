// Characteristics of a message-passing run (spec section 8): an engine observer that fills the
// shared IntervalTree (characteristics.hpp) from the events of MpProgram, so that message-passing
// and DVM runs give the same reports.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/collective_kind.hpp"
#include "engine/observer.hpp"
#include "engine/prefetch.hpp"
#include "models/analysis/characteristics.hpp"

namespace augur::models::analysis {

/// The analyzer's row of a collective kind (gatherv → gather, exscan → scan, …).
OpKind op_kind_of(engine::CollectiveKind kind);

/// Whether a collective synchronises every rank: no rank can leave it before every rank has
/// entered it (barrier, allreduce, allgather(v), alltoall(v), reduce_scatter). Phases end there;
/// rooted (bcast, reduce, gather, scatter) and prefix (scan, exscan) collectives do not.
bool synchronises_all(engine::CollectiveKind kind);

/// Names the code region an interval_enter event of `lp` with `tag` enters: (file, line).
/// MpProgram's regions come from TI `location FILE LINE` actions (see runner.cpp for the wiring).
using RegionNamer = std::function<std::pair<std::string, int>(engine::LpId lp, std::int32_t tag)>;

/// The trace line of the record `lp` is executing (0: unknown). Asked when rank 0 enters a
/// collective that bounds a phase, while its collective_begin event is being observed.
using CallLine = std::function<std::uint64_t(engine::LpId lp)>;

/// How MpCharacteristics names and bounds what it builds.
struct MpCharacteristicsOptions {
  std::string source;  ///< names the Main interval (the trace)
  RegionNamer namer;   ///< names TI `location` regions; empty: (no file, tag)
  /// Trace positions of rank 0's global synchronisations in phase names, "(call_file:line)";
  /// empty call_line: phases are named without them.
  CallLine call_line;
  std::string call_file;  ///< rank 0's trace file, without folders ("" : "(line N)")
  /// Phase intervals kept (those with the most lost time); the other phases are added up in one
  /// "other phases" interval. Fewer when the processors are many: phase intervals cost the tree
  /// one processor record (ProcessorTable: 120 bytes plus 56 per operation kind present) per
  /// processor each, and counted with "other phases" and the two phases being accumulated they
  /// stay within `phase_budget` of them; when none fits, phases are not tracked. (While the run
  /// goes, phases are accumulated in compact sheets of 40 bytes per processor plus 32 per
  /// operation kind with figures; the budget is still counted in processor records, so which
  /// phases are shown does not depend on that.)
  std::size_t max_phases = 8;
  std::size_t phase_budget = std::size_t{1} << 16;
};

/// Observer filling an IntervalTree from a message-passing run. Accounting per LP, in the
/// interval (code region or phase) the LP is in when the event happens:
/// * execution — the LP's clock advance;
/// * cpu_usr — compute events (including reduction flops inside collectives);
/// * communication per operation kind (point_to_point or the collective's kind; the messages of
///   an expanded collective count for the collective): communication = duration, waiting =
///   `waited` (= real_sync), transfer = the rest;
/// * overlap (point_to_point) — computation done while the LP had non-blocking requests posted
///   and not yet waited for (from an isend/irecv to the wait / waitall that completes it);
/// * synchronization / variation per collective kind — for the k-th collective, with entry times
///   E(j) and exit times X(j) of every LP j: synchronization(p) = max_j E(j) − E(p) (the loss
///   from unsimultaneous starts), variation(p) = max_j X(j) − X(p) (the spread of completions);
/// * operation counts — one per message sent (point_to_point) and one per collective call;
/// * idle and load imbalance — IntervalTree::close_interval over every LP at the end of the run.
/// Sleep events advance execution only (neither CPU nor communication).
///
/// Intervals under Main:
/// * **Regions** — interval_enter starts a User interval named by the RegionNamer (an enter while
///   a region is open leaves it first); interval_exit returns to Main. Ranks entering the same
///   (file, line) share one interval; EXE_COUNT = the most entries of one LP.
/// * **Phases**, when the trace marks no regions — phase k of an LP runs from its exit of the
///   (k−1)-th collective that synchronises every rank (synchronises_all) to its exit of the k-th
///   (the waiting in that collective is the phase's), the last one to the LP's end. Phases whose
///   calls are the same on every rank (kinds, peers and tags of every call, computations, the
///   opening and closing collective; not durations or sizes) — the same stretch of code in
///   different iterations — are one interval with EXE_COUNT = occurrences, named by the first:
///   "phase 3 (+199 alike): after allreduce #2 (rank0.txt:57), before barrier #1 (rank0.txt:80)"
///   (rank 0's calls, numbered per kind). Empty phases are left out; a run no global
///   synchronisation splits stays in Main. At most max_phases intervals, those with the most lost
///   time; the rest are one "other phases" interval.
/// Without regions or phases the whole run is the Main interval. Intervals are not synchronised
/// across ranks, so Main's integrated execution time (the sum over its intervals of their longest
/// processor) differs from the predicted time (by the spread of exits from the global
/// synchronisations, plus, for recurring phases, the imbalance that evens out between occurrences).
/// Memory: Main and the regions have their processor records (120 bytes per processor plus 56 per
/// operation kind with figures) in the tree from the start; phases, while the run goes, are
/// compact sheets (40 bytes per processor, plus 32 per operation kind that has figures) that
/// on_finish adds to the tree's records, the same sums in the same order as if they had been
/// records of the tree all along.
class MpCharacteristics final : public engine::Observer, public engine::Prefetching {
 public:
  /// `lp_count` processors.
  explicit MpCharacteristics(std::uint32_t lp_count, MpCharacteristicsOptions options = {});

  void on_event(const engine::Event& event) override;
  void plan_prefetch(engine::PrefetchPlan& plan) const override { plan.add_records(lps_.data(), sizeof(Lp)); }
  /// Closes every interval (idle, load imbalance) and integrates the tree.
  void on_finish(engine::SimTime end) override;

  /// The tree (complete and integrated once the run has finished).
  const IntervalTree& tree() const { return tree_; }
  IntervalTree& tree() { return tree_; }

 private:
  using Counts = std::array<std::uint64_t, op_kind_count>;

  /// Per processor, what the run accumulates of a phase besides the per-kind figures: the
  /// compact form of ProcessorTimes (40 bytes instead of 120), added to the tree's records once
  /// the run is over.
  struct Base {
    double execution = 0;
    double cpu_usr = 0;
    double cpu_sys = 0;
    double io = 0;
    double overlap = 0;  ///< point-to-point overlap (no other kind has any)
  };
  /// Per processor and operation kind: what the run accumulates (waiting = real_sync and transfer
  /// are derived at the end).
  struct KindFigures {
    double communication = 0;
    double real_sync = 0;
    double synchronization = 0;
    double variation = 0;
  };
  /// Where the figures of one interval or phase go, for every processor, and its operation counts.
  /// Main and the regions: straight into the tree's ProcessorTimes (`full`), which exist anyway.
  /// Phases, compact: a Base each and a column of KindFigures per operation kind (allocated when
  /// the kind first gets a figure; a kind without one has only zeros), added to the tree at the end.
  struct Sheet {
    ProcessorTable* full = nullptr;  ///< the interval's processor figures; nullptr: compact
    std::vector<Base> base;
    std::array<std::vector<KindFigures>, op_kind_count> kinds;
    Counts operations{};
    std::uint32_t used = 0;  ///< bit k: kinds[k] is allocated
  };

  /// A global synchronisation opening or closing a phase, as rank 0 called it.
  struct Boundary {
    bool known = false;  ///< false: the start of the run (opening) or its end (closing)
    engine::CollectiveKind kind = engine::CollectiveKind::barrier;
    std::uint64_t ordinal = 0;  ///< its number among rank 0's calls of that kind, from 1
    std::uint64_t line = 0;     ///< rank 0's trace line of that call (0: unknown)
  };
  /// A phase some LP has not left yet.
  struct Pending {
    std::unique_ptr<Sheet> figures;        ///< its address stays when it moves into a record
    std::vector<std::uint64_t> signature;  ///< per LP: hash of its calls in the phase
    std::uint32_t left = 0;                ///< LPs that left it
    Boundary opening;
    Boundary closing;
  };
  /// A distinct phase: every occurrence of the same calls, added up.
  struct Record {
    std::unique_ptr<Sheet> figures;
    std::uint64_t key = 0;
    std::uint64_t number = 0;  ///< the first occurrence's phase number, from 1
    std::uint64_t occurrences = 0;
    Boundary opening;
    Boundary closing;
  };
  /// Per LP; the figures most events touch are kept here, on the LP's first cache line, and
  /// added to its interval's (`sheet`) when it changes interval or the run ends (spill).
  struct alignas(64) Lp {
    double clock = 0;             ///< clock after the last event
    std::uint64_t signature = 0;  ///< hash of its calls in the current phase
    double execution = 0;
    double cpu_usr = 0;
    double communication = 0;  ///< of operation kind `comm_kind`
    double waiting = 0;        ///< of operation kind `comm_kind`
    double p2p_overlap = 0;
    std::uint32_t open_requests = 0;  ///< non-blocking requests posted and not yet waited for
    bool in_collective = false;       ///< between collective_begin and collective_end
    OpKind collective = OpKind::barrier;
    OpKind comm_kind = OpKind::point_to_point;
    engine::CollectiveKind collective_kind = engine::CollectiveKind::barrier;
    Sheet* sheet = nullptr;         ///< where its figures go (region, phase or Main)
    Interval* region = nullptr;     ///< the User interval it is in; nullptr outside regions
    std::uint64_t sends = 0;        ///< point-to-point messages sent, not yet added to `sheet`
    std::uint64_t collectives = 0;  ///< collectives entered so far
    std::uint64_t phase = 0;        ///< global synchronisations left so far
  };
  /// One LP's part of a collective call.
  struct Participant {
    double enter = 0;
    double exit = 0;
    Sheet* where = nullptr;  ///< nullptr: the LP has not entered
  };
  struct OpenCollective {
    OpKind kind = OpKind::barrier;
    std::uint32_t entered = 0;
    std::uint32_t exited = 0;
    std::vector<Participant> lps;
  };

  void enter_collective(engine::LpId lp, engine::CollectiveKind kind, double at);
  void exit_collective(engine::LpId lp, double at);
  void close_collective(OpenCollective& c);
  void communicate(Lp& l, engine::LpId lp, OpKind kind, const engine::Event& e);
  void switch_kind(Lp& l, engine::LpId lp, OpKind kind);
  void enter_region(const engine::Event& e);
  static void complete(ProcessorTable& t);
  void sign(Lp& l, const engine::Event& e);
  void spill(Lp& l, engine::LpId lp);
  void point_outside_regions(engine::LpId lp);
  std::unique_ptr<Sheet> new_sheet();
  KindFigures* column(Sheet& s, OpKind kind) const;
  /// Calls `f` on processor `p`'s figures of operation kind `kind` in `s`: its OpTimes when the
  /// sheet is full, else its KindFigures (the column allocated when first asked for). Both name
  /// what the run accumulates alike: communication, real_sync, synchronization, variation.
  template <typename F>
  void on_kind(Sheet& s, engine::LpId p, OpKind kind, F&& f) const {
    if (s.full != nullptr) {
      f(s.full->op(p, kind));
    } else {
      f(column(s, kind)[p]);
    }
  }
  static void clear(Sheet& s);
  Pending& pending(std::uint64_t phase);
  void end_phase(engine::LpId lp);
  void flush(std::uint64_t phase);
  void add_record(Pending& p, std::uint64_t number, std::uint64_t key);
  void add_to(Sheet& to, const Sheet& from) const;
  static void add_to(ProcessorTable& to, const Sheet& from);
  void add_communication(Sheet& s, engine::LpId p, OpKind kind, double comm, double wait) const;
  double lost(const Sheet& f) const;
  void build_phase_intervals();
  std::string phase_name(const Record& r, std::uint64_t& line) const;

  MpCharacteristicsOptions options_;
  IntervalTree tree_;
  std::vector<Lp> lps_;
  Sheet main_;                                         ///< Main's own figures (its ProcessorTimes)
  std::vector<std::unique_ptr<Sheet>> region_sheets_;  ///< per interval id − 1: a region's (its ProcessorTimes)
  std::map<std::uint64_t, OpenCollective> open_;       ///< by collective sequence number
  std::vector<std::vector<Participant>> spare_calls_;  ///< participants of closed collectives, reused
  std::vector<std::vector<std::uint32_t>> entries_;    ///< per interval id − 1: entries per LP
  bool phases_ = false;                                ///< phases tracked (max_phases ≥ 1 within the budget)
  std::size_t max_phases_ = 0;
  bool regions_seen_ = false;                 ///< some LP entered a region: phases fold into Main
  std::map<std::uint64_t, Pending> pending_;  ///< by phase index (from 0)
  std::vector<Record> records_;
  std::unordered_map<std::uint64_t, std::size_t> record_index_;  ///< key → records_ index
  std::unique_ptr<Sheet> other_;                                 ///< phases beyond max_phases, added up
  std::uint64_t other_occurrences_ = 0;
  std::vector<std::unique_ptr<Sheet>> spare_;  ///< zeroed sheets of flushed phases, reused
  std::array<std::uint64_t, static_cast<std::size_t>(engine::CollectiveKind::exscan) + 1> rank0_calls_{};
  bool finished_ = false;
};

}  // namespace augur::models::analysis
