// EventBuilder: an Event made by named fields, for the program models that emit events.
#pragma once
#include <cstdint>

#include "engine/event.hpp"
#include "engine/sim_time.hpp"

namespace augur::engine {

/// Builds an Event field by named field, the others at their defaults:
/// `EventBuilder(EventKind::send).span(t0, t1).peer(3).tag(7).bytes(n)`. Whoever emits it sets
/// what it knows itself (the LP; the message-passing model also the status). All inline, so an
/// event nobody observes costs nothing.
class EventBuilder {
 public:
  explicit EventBuilder(EventKind kind) { event_.kind = kind; }

  /// From `before` to `after` on the LP's clock.
  EventBuilder& span(SimTime before, SimTime after) {
    event_.clock_before = before;
    event_.clock_after = after;
    return *this;
  }
  /// An instant: `span(t, t)`.
  EventBuilder& at(SimTime t) { return span(t, t); }
  EventBuilder& waited(SimTime waited) {
    event_.waited = waited;
    return *this;
  }
  EventBuilder& peer(std::int32_t peer) {
    event_.peer = peer;
    return *this;
  }
  EventBuilder& tag(std::int32_t tag) {
    event_.tag = tag;
    return *this;
  }
  EventBuilder& bytes(std::uint64_t bytes) {
    event_.bytes = bytes;
    return *this;
  }
  EventBuilder& detail(std::uint8_t detail) {
    event_.detail = detail;
    return *this;
  }
  EventBuilder& internal(std::uint8_t internal) {
    event_.internal = internal;
    return *this;
  }

  const Event& event() const { return event_; }

 private:
  Event event_;
};

}  // namespace augur::engine
