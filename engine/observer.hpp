// Observers watch the run: event log, statistics, stepping controller, (later) analysis.
#pragma once
#include <cstddef>

#include "engine/event.hpp"

namespace augur::engine {

/// Asks for the cache line holding `p` (a hint: never faults). Not __builtin_prefetch, which
/// g++ deletes together with a loop that does nothing else (loops without side effects are
/// assumed finite and removed, -ffinite-loops).
inline void prefetch_line(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

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

/// The second stage of that prefetch: when the scheduler starts stepping LP `lp` (whose
/// PerLpRecords it prefetched one step earlier, so reading them no longer stalls), it calls
/// `fn(self, lp)`, which prefetches what those records point to — say, the slots of per-LP rings
/// an observer writes next, found by counters in its record. A hint only: `fn` must not change
/// anything. Called only when the scheduler prefetches (large runs).
struct LpPrefetch {
  void (*fn)(const void* self, LpId lp) = nullptr;
  const void* self = nullptr;
};

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
  /// Its per-LP records, if any, for the scheduler's prefetch (asked once, when a run starts).
  virtual PerLpRecords per_lp_records() const { return {}; }
  /// Its second-stage prefetch, if any (asked once, when a run starts).
  virtual LpPrefetch lp_prefetch() const { return {}; }
};

}  // namespace augur::engine
