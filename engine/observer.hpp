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
  /// The run ended (normally, by deadlock, or by a limit) at simulated time `end`.
  virtual void on_finish(SimTime end) { (void)end; }
};

}  // namespace augur::engine
