// Observers watch the run: event log, statistics, stepping controller, (later) analysis.
#pragma once
#include <cstddef>

#include "engine/event.hpp"

namespace augur::engine {

/// Where a program or an observer keeps one record per LP: LP `lp`'s record is the `bytes`
/// bytes at `base` + lp × `bytes`. The scheduler reads these once per run and, while it steps
/// one LP, prefetches the records of the LP it will most likely step next (the top of its ready
/// queue): at thousands of ranks those records are out of the caches, and each component
/// touching its own would otherwise stall on it. A hint only: a stale or null base is harmless.
struct PerLpRecords {
  const void* base = nullptr;
  std::size_t bytes = 0;
  /// The array holds one `const char*` per LP (bytes = its size): what is prefetched is the cache
  /// line each points at (a null pointer is skipped) — say, where a trace's next action is read.
  bool pointers = false;
};

/// Called by the scheduler for every event, in the deterministic global order.
class Observer {
 public:
  virtual ~Observer() = default;
  /// One event happened.
  virtual void on_event(const Event& event) = 0;
  /// LP `lp` changed status at simulated time `at` (blocked, running again, done, exception).
  virtual void on_status(LpId lp, LpStatus from, LpStatus to, SimTime at) {
    (void)lp, (void)from, (void)to, (void)at;
  }
  /// The run ended (normally, by deadlock, or by a limit) at simulated time `end`.
  virtual void on_finish(SimTime end) { (void)end; }
  /// Its per-LP records, if any, for the scheduler's prefetch (asked once, when a run starts).
  virtual PerLpRecords per_lp_records() const { return {}; }
};

}  // namespace augur::engine
