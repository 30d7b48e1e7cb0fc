// The central conservative scheduler (spec section 4.3): advances the runnable LP with the
// smallest clock; ties broken by LP id, so the order of every operation is total and fixed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/event.hpp"
#include "engine/logical_process.hpp"
#include "engine/observer.hpp"
#include "engine/program.hpp"

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
  SimTime end_time = 0;                ///< max clock over LPs
  std::uint64_t events = 0;            ///< events emitted
  std::uint64_t steps = 0;             ///< program steps executed
  std::vector<BlockedLp> blocked;      ///< deadlock: every blocked LP
  std::vector<LpId> cycle;             ///< deadlock: a wait-for cycle (first LP repeated at end)
  std::string message;                 ///< deadlock / error explanation, multi-line
};

/// Returns "completed", "deadlock", ...
const char* to_string(RunOutcome outcome);

/// The scheduler. Owns the LPs' clocks and statuses, the ready heap and the observer list.
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
  struct Ready {
    SimTime time;
    LpId lp;
  };
  static bool later(const Ready& a, const Ready& b) {
    return a.time > b.time || (a.time == b.time && a.lp > b.lp);
  }
  void push(LpId id, SimTime at);
  void set_status(LpId id, LpStatus to, SimTime at) {
    LogicalProcess& p = lps_[id];
    if (p.status == to) return;
    const LpStatus from = p.status;
    p.status = to;
    for (Observer* o : observers_) o->on_status(id, from, to, at);
  }
  void diagnose_deadlock(const Program& program, RunResult& result) const;

  std::vector<LogicalProcess> lps_;
  std::vector<Ready> heap_;
  std::vector<Observer*> observers_;
  SimTime now_ = 0;
  std::uint64_t events_ = 0;
  bool stop_requested_ = false;
  bool failed_ = false;
  LpId failed_lp_ = 0;
  std::string failure_;
};

}  // namespace augur::engine
