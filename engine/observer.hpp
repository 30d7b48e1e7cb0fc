// Observers watch the run: event log, statistics, stepping controller, (later) analysis.
#pragma once
#include "engine/event.hpp"

namespace augur::engine {

/// Called by the scheduler for every event, in the deterministic global order.
class Observer {
 public:
  virtual ~Observer() = default;
  /// One event happened.
  virtual void on_event(const Event& event) = 0;
  /// LP `lp` changed status at simulated time `at` (blocked, running again, done, exception).
  virtual void on_status(LpId lp, LpStatus from, LpStatus to, SimTime at) { (void)lp, (void)from, (void)to, (void)at; }
  /// The run ended (normally, by deadlock, or by a limit) at simulated time `end`.
  virtual void on_finish(SimTime end) { (void)end; }
};

}  // namespace augur::engine
