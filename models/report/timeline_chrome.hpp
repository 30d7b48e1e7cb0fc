// Timeline of a simulated run as Chrome trace-event JSON (opens in Perfetto and chrome://tracing),
// and the message matcher that both timeline writers (Chrome, Paraver) use to draw messages.
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "engine/observer.hpp"
#include "engine/output_file.hpp"

namespace augur::models::report {

/// Simulated seconds to integer nanoseconds (llround(t * 1e9)): the one time base of both timelines.
std::int64_t to_ns(engine::SimTime t);

/// A message whose two ends were both seen: what a timeline draws as an arrow.
struct MatchedMessage {
  std::uint64_t id = 0;  ///< 1, 2, … in the order the first half of each message was seen
  engine::LpId src = 0;
  engine::LpId dst = 0;
  std::int32_t tag = 0;
  std::uint64_t bytes = 0;
  engine::SimTime send_call = 0;   ///< the send was posted (its event's clock_before)
  engine::SimTime send_start = 0;  ///< the sender's transfer started (clock_before + waited)
  engine::SimTime recv_call = 0;   ///< the receive was posted
  engine::SimTime recv_start = 0;  ///< the completing event's transfer started (clock_before + waited)
  engine::SimTime recv_done = 0;   ///< the receive completed (the completing event's clock_after)
  bool internal = false;           ///< part of an expanded collective
};

/// Pairs sends with receive completions from the event stream alone (events carry no message id).
/// MPI's non-overtaking rule makes the k-th send from src to dst with tag t the message of the k-th
/// receive posted on dst naming (src, t); a receive completes at its blocking `recv` event, or at
/// the `wait` / `waitall` that finishes it. Limits, by construction of the event vocabulary:
/// * a wildcard receive (any source or any tag) hides which message it took, so from the first one
///   on, no new message into that rank is drawn (receives posted before it still are);
/// * a `wait` names (peer, tag) but not the direction: it finishes the oldest pending non-blocking
///   request of the rank with that key, receive or send; a `waitall` finishes every pending
///   request of its scope (trace level, or the current expanded collective), so the waitall of a
///   `sendRecv` also ends the trace-level receives still pending then (their arrow ends early);
/// * a non-blocking receive completed by `test` and never waited for is dropped when its rank ends.
/// Memory: one entry per message in flight, one per open channel, one per pending request.
class MessageMatcher {
 public:
  /// A matcher for LPs 0 … lp_count - 1.
  explicit MessageMatcher(std::uint32_t lp_count) : lps_(lp_count) {}
  /// Feeds one event; appends every message completed by it to `out`.
  void on_event(const engine::Event& e, std::vector<MatchedMessage>& out);
  /// The earliest send_call among messages whose send was seen but whose receive has not completed
  /// (infinite when none): a writer ordering messages by send time must hold back records from then on.
  engine::SimTime earliest_pending_send() const;
  /// Messages not drawn so far: wildcard receives, sends to ranks after their first wildcard
  /// receive, receives never waited for.
  std::uint64_t dropped() const { return dropped_; }

 private:
  struct Half {
    MatchedMessage m;
    bool has_send = false;
    bool has_post = false;
    bool has_done = false;
    bool dead = false;  ///< the receive will never complete: drop when the send arrives
  };
  struct Pending {
    std::uint64_t id;  ///< 0 when the request has no message to draw
    std::int32_t peer;
    std::int32_t tag;
    bool is_send;
    bool internal;
  };
  struct LpState {
    std::vector<Pending> pending;  ///< non-blocking requests posted and not yet finished
    bool wildcard = false;         ///< a wildcard receive was posted: stop drawing messages into here
  };
  struct ChannelKey {
    engine::LpId dst;
    engine::LpId src;
    std::int32_t tag;
    bool operator<(const ChannelKey& o) const {
      if (dst != o.dst) return dst < o.dst;
      if (src != o.src) return src < o.src;
      return tag < o.tag;
    }
  };
  struct Channel {
    std::deque<std::uint64_t> sends;  ///< sends seen before their receive was posted
    std::deque<std::uint64_t> posts;  ///< receives posted before their send was seen
  };

  void on_send(const engine::Event& e, std::vector<MatchedMessage>& out);
  std::uint64_t on_post(const engine::Event& e);
  void complete(std::uint64_t id, const engine::Event& e, std::vector<MatchedMessage>& out);
  void forget(std::uint64_t id);
  void make_wildcard(engine::LpId dst);
  void erase_if_empty(std::map<ChannelKey, Channel>::iterator it);

  std::vector<LpState> lps_;
  std::map<ChannelKey, Channel> channels_;  // ordered by destination: a wildcard drops one range
  std::unordered_map<std::uint64_t, Half> halves_;
  std::uint64_t next_id_ = 1;
  std::uint64_t dropped_ = 0;
};

/// Observer writing the Chrome trace-event JSON of a run, streamed as the events come:
/// {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}. One process (pid 0), one
/// thread per LP (tid = LP, named "rank N"); complete events ("X", ts/dur in µs with three
/// decimals, i.e. whole nanoseconds) named `computing`, `waiting` (the `waited` part of a
/// communication), `communicating` (the rest, zero-length ones included so that every operation
/// shows) and `sleeping`; collectives as an enclosing slice named after their kind ("B"/"E" around
/// an expanded collective, "X" for an analytic one); messages as flow events "s" (on the sender at
/// its transfer start) and "f" with "bp":"e" (on the receiver at the completing event's transfer),
/// matched by MessageMatcher. LPs still blocked when the run ends get a last `waiting` slice up to
/// the end. The array is closed at on_finish, however the run ends (deadlock, limits); a run that
/// throws before it leaves no file (output_file.hpp). Same events ⇒ byte-identical file.
class ChromeTrace final : public engine::Observer {
 public:
  /// Opens (truncates) `path`; throws std::runtime_error "path: error: …" when it cannot.
  /// `title` names the process track (e.g. the trace and machine); the LPs' tracks are
  /// "`track` N" ("rank 3"; DVM runs: "processor 3").
  ChromeTrace(const std::string& path, std::uint32_t lp_count, const std::string& title = "augur",
              const std::string& track = "rank");
  ~ChromeTrace() override;
  ChromeTrace(const ChromeTrace&) = delete;
  ChromeTrace& operator=(const ChromeTrace&) = delete;

  void on_event(const engine::Event& e) override;
  void on_status(engine::LpId lp, engine::LpStatus from, engine::LpStatus to, engine::SimTime at) override;
  void on_finish(engine::SimTime end) override;

 private:
  struct LpState {
    engine::SimTime last = 0;            ///< clock_after of the LP's last event
    engine::SimTime blocked_since = -1;  ///< when the LP blocked, -1 when it is not blocked
    std::vector<std::uint8_t> open;      ///< kinds (detail) of the "B" written without their "E"
  };
  void begin_event();
  void slice(const char* name, const char* cat, engine::LpId lp, std::int64_t begin_ns, std::int64_t end_ns,
             const std::string& args);
  void communication(const engine::Event& e, const std::string& args);
  void begin_collective(const engine::Event& e, std::int64_t at_ns);
  void end_collective(engine::LpId lp, std::int64_t at_ns);
  void region_mark(const engine::Event& e, std::int64_t at_ns);
  void flow(const MatchedMessage& m);
  void flush();
  void close(engine::SimTime end);

  std::string path_;
  engine::TemporaryFile temporary_;
  std::FILE* file_ = nullptr;
  fmt::memory_buffer buf_;
  bool first_ = true;
  bool closed_ = false;
  std::vector<LpState> lps_;
  MessageMatcher matcher_;
  std::vector<MatchedMessage> matched_;
  std::uint64_t events_ = 0;
  std::uint64_t flows_ = 0;
};

}  // namespace augur::models::report
