// The engine's event record: what one LP did in one step, handed to every observer.
#pragma once
#include <cstdint>
#include <string_view>

#include "engine/collective_kind.hpp"
#include "engine/sim_time.hpp"

namespace augur::engine {

/// Status of a logical process (spec section 4.1).
enum class LpStatus : std::uint8_t { running, blocked, exception, done };

/// What happened (spec section 4.2). Program models emit these; observers consume them.
enum class EventKind : std::uint8_t {
  compute,           ///< local work; `category` says user / system / I/O
  sleep,             ///< idle time asked for by the program
  send,              ///< a send was posted (blocking or not: see `blocking`)
  recv,              ///< a receive was posted
  wait,              ///< completion of one request (includes blocking send/recv completion)
  waitall,           ///< completion of several requests
  test,              ///< a request was tested
  collective,        ///< a collective operation (analytic) from entry to exit
  collective_begin,  ///< an expanded collective starts (its messages follow)
  collective_end,    ///< an expanded collective ends
  collective_start,  ///< asynchronous group operation started (DVM)
  collective_wait,   ///< asynchronous group operation waited for (DVM)
  sync_all,          ///< all LPs of a processor system levelled to the max clock (DVM)
  loop_block,        ///< this LP's share of a parallel loop (DVM)
  interval_enter,    ///< code region entered
  interval_exit,     ///< code region left
  finish,            ///< the LP finished its program
};

/// Category of a compute event.
enum class ComputeCategory : std::uint8_t { user, system, io };

/// Flag in `detail` of a receive's completion (recv, wait, waitall) that waited for a late sender
/// while a message sent to the same LP before the awaited one (by another LP, or by the same LP
/// with another tag) was already there to be received: messages received in the wrong order
/// (Scalasca's "Late Sender, Wrong Order"). Event::base_detail() is `detail` without it.
inline constexpr std::uint8_t detail_wrong_order = 0x80;

/// One event. Small and trivially copyable: emitted on the hot path, never allocated.
struct Event {
  SimTime clock_before = 0;  ///< LP clock when the step began
  SimTime clock_after = 0;   ///< LP clock when the step ended
  SimTime waited = 0;        ///< part of [before, after] spent waiting for another LP
  std::uint64_t bytes = 0;   ///< payload bytes (messages, collectives)
  LpId lp = 0;               ///< the LP that acted
  std::int32_t peer = -1;    ///< peer LP (for a completion: the one waited for) or root; -1 none
  std::int32_t tag = 0;      ///< message tag, collective_event_tag, or region id
  EventKind kind = EventKind::compute;
  std::uint8_t detail = 0;              ///< ComputeCategory for compute, 1 = blocking for send/recv,
                                        ///< 2 for wait/waitall when the request waited for last was a send,
                                        ///< CollectiveKind + 1 for collective events; a receive's
                                        ///< completion may add detail_wrong_order
  std::uint8_t internal = 0;            ///< 1 when part of an expanded collective
  LpStatus status = LpStatus::running;  ///< LP status after the step

  /// `detail` without the detail_wrong_order flag.
  std::uint8_t base_detail() const { return static_cast<std::uint8_t>(detail & ~detail_wrong_order); }
};
static_assert(sizeof(Event) <= 48, "Event is copied on the hot path: keep it within 48 bytes");

/// The tag of a collective event (collective, collective_begin, collective_end): its kind plus 16 ×
/// its communicator (0 = the world, so that a world collective's tag is its kind).
inline std::int32_t collective_event_tag(CollectiveKind kind, std::int32_t comm) {
  return static_cast<std::int32_t>(kind) + 16 * comm;
}
/// The communicator of a collective event (of its tag).
inline std::int32_t collective_event_comm(std::int32_t tag) { return tag / 16; }

/// The snake_case name of an event kind ("collective_begin").
std::string_view to_string(EventKind kind);
/// The name of a status ("blocked").
std::string_view to_string(LpStatus status);

}  // namespace augur::engine
