// The central conservative scheduler (spec section 4.3): advances the runnable LP with the
// smallest clock; ties broken by LP id, so the order of every operation is total and fixed.
#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/event.hpp"
#include "engine/event_source.hpp"
#include "engine/logical_process.hpp"
#include "engine/observer.hpp"
#include "engine/prefetch.hpp"
#include "engine/program.hpp"
#include "engine/quaternary_heap.hpp"
#include "engine/radix_queue.hpp"
#include "engine/ready_queue.hpp"
#include "engine/sorted_ring.hpp"

namespace augur::engine {

/// Limits that stop a run early with a partial result.
struct RunLimits {
  std::uint64_t max_events = 0;  ///< 0 = unlimited
  SimTime max_time = 0;          ///< 0 = unlimited
};

/// How a run ended.
enum class RunOutcome : std::uint8_t { completed, deadlock, error, event_limit, time_limit, stopped };

/// A blocked LP in a deadlock report.
struct BlockedLp {
  LpId lp = 0;
  SimTime clock = 0;
  WaitInfo waits;
};

/// The result of Scheduler::run.
struct RunResult {
  RunOutcome outcome = RunOutcome::completed;
  SimTime end_time = 0;            ///< max clock over LPs
  std::uint64_t events = 0;        ///< events emitted
  std::uint64_t steps = 0;         ///< program steps executed
  std::vector<BlockedLp> blocked;  ///< deadlock: every blocked LP
  std::vector<LpId> cycle;         ///< deadlock: a wait-for cycle (first LP repeated at end)
  std::string message;             ///< deadlock / error explanation, multi-line
};

/// Returns "completed", "deadlock", ...
const char* to_string(RunOutcome outcome);

/// The scheduler. Owns the LPs' clocks and statuses, the ready queue and the observer list.
class Scheduler {
 public:
  explicit Scheduler(std::uint32_t lp_count);

  std::uint32_t lp_count() const { return static_cast<std::uint32_t>(lps_.size()); }
  LogicalProcess& lp(LpId id) { return lps_[id]; }
  const LogicalProcess& lp(LpId id) const { return lps_[id]; }

  /// Registers an observer (not owned). Observers are called in registration order.
  void add_observer(Observer* observer) { observers_.push_back(observer); }

  /// Hands an event to the observers (the program model calls this; `lp`'s event count grows).
  void emit(const Event& event) {
    ++lps_[event.lp].events;
    ++events_;
    for (Observer* o : observers_) o->on_event(event);
  }
  bool has_observers() const { return !observers_.empty(); }

  /// Makes a blocked LP runnable again; it will be stepped at max(its clock, `at`).
  void wake(LpId id, SimTime at);
  /// Asks that a suspended LP be stepped again at time `at` (its clock is unchanged).
  void resume_at(LpId id, SimTime at);
  /// Marks the run as failed (bad input, protocol violation) on `lp`; the run stops.
  void fail(LpId id, std::string message);
  /// Asks the run to stop after the current step (used by the stepper's "quit").
  void request_stop() { stop_requested_ = true; }

  /// Runs `program` until every LP is done, a deadlock, an error or a limit.
  RunResult run(Program& program, const RunLimits& limits = {});

  /// Simulated time of the step being executed (the global virtual time).
  SimTime now() const { return now_; }
  /// Total events emitted so far.
  std::uint64_t events() const { return events_; }

 private:
  /// The ready queue in the form picked by the LP count (engine/README.md): a sorted ring up to
  /// ring_max_lps (its exchange moves few entries while the ring is short; longer, the moves
  /// outweigh a heap's sift), a radix heap from radix_min_lps on (where a 4-ary heap's sift
  /// compares its way down six or more levels per step, each a dependent load), the 4-ary heap
  /// between.
  static constexpr std::size_t ring_max_lps = 64;
  static constexpr std::size_t radix_min_lps = 1024;
  using Queue = std::variant<SortedRing, QuaternaryHeap, RadixQueue>;
  static Queue make_queue(std::size_t lp_count);
  /// The stepping loop of run() with the queue in its form.
  template <ReadyQueue Q>
  void run_steps(Q& queue, Program& program, const RunLimits& limits, RunResult& result);
  /// The loop of a program that is also an EventSource: one step at a time, the source's next
  /// event fired before any LP step at or after its time.
  template <ReadyQueue Q>
  void run_with_events(Q& queue, Program& program, EventSource& source, const RunLimits& limits, RunResult& result);
  /// Steps `lp` (just taken from the queue) while it stays the first to run; false when the run
  /// ends (an error, a limit).
  template <ReadyQueue Q>
  bool step_while_first(Q& queue, Program& program, EventSource& source, LpId lp, const RunLimits& limits,
                        RunResult& result);
  void push(LpId id, SimTime at);
  void set_status(LpId id, LpStatus to, SimTime at) {
    LogicalProcess& p = lps_[id];
    if (p.status == to) return;
    const LpStatus from = p.status;
    p.status = to;
    for (Observer* o : observers_) o->on_status(id, from, to, at);
  }
  void diagnose_deadlock(const Program& program, RunResult& result) const;
  /// The plan of the scheduler's records, the program's and the observers' (Prefetching).
  void plan_prefetch(const Program& program);
  /// The plan's first stage for the LP at the top of the ready queue (stepped next unless the LP
  /// being stepped stays earlier).
  template <ReadyQueue Q>
  void prefetch_ahead(Q& queue) {
    if (prefetch_.active() && !queue.empty()) prefetch_.ahead(ready_lp(queue.top()));
  }

  std::vector<LogicalProcess> lps_;
  Queue queue_;
  std::vector<Observer*> observers_;
  PrefetchPlan prefetch_;
  SimTime now_ = 0;
  std::uint64_t events_ = 0;
  bool stop_requested_ = false;
  bool failed_ = false;
  LpId failed_lp_ = 0;
  std::string failure_;
};

}  // namespace augur::engine
