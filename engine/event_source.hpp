// Timed events that are not steps of an LP: a program whose model also schedules events of its
// own (the completions of flows on a shared network, docs/network.md) implements EventSource.
#pragma once
#include "engine/sim_time.hpp"

namespace augur::engine {

class Scheduler;

/// The scheduler orders the source's next event with the LPs' steps: it fires the event at time
/// t before stepping any LP at a clock ≥ t (ties: the event first), and while LPs wait for it.
/// A program that implements EventSource and answers `has_events()` true is run by a separate
/// loop; every other program keeps the stepping loop without a test per step.
class EventSource {
 public:
  virtual ~EventSource() = default;
  /// Whether this run has such events at all (asked once, when the run starts).
  virtual bool has_events() const = 0;
  /// Time of the next event; +∞ when none is pending. It may change after any step.
  virtual SimTime next_event_time() = 0;
  /// Processes the events at `now` (the scheduler's clock is `now`); may wake LPs.
  virtual void fire_events(SimTime now, Scheduler& scheduler) = 0;
};

}  // namespace augur::engine
