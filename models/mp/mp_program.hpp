// The message-passing program model (spec section 5): replays a message-passing trace on the
// engine with MPI matching (source, tag, non-overtaking, wildcards), blocking and non-blocking
// operations, eager / rendezvous protocols and collectives (expanded or analytic).
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/collective_kind.hpp"
#include "engine/event_builder.hpp"
#include "engine/event_source.hpp"
#include "engine/prefetch.hpp"
#include "engine/program.hpp"
#include "engine/scheduler.hpp"
#include "machines/machine_model.hpp"
#include "models/mp/mp_op.hpp"
#include "models/mp/pair_index.hpp"
#include "traces/mp_record.hpp"

namespace augur::models::mp {

using engine::LpId;
using engine::SimTime;

/// The collective kind of a trace action, or nothing for point-to-point and other actions.
std::optional<engine::CollectiveKind> collective_of(traces::MpOpKind kind);

/// Options of the message-passing model (the scenario's `model:` section).
struct MpOptions {
  /// "default" = SimGrid 3.32's algorithms expanded into messages; "analytic" = the machine
  /// model's formulas; any other name = that algorithm wherever it exists.
  std::string collectives = "default";
  /// Per-kind algorithm overrides.
  std::map<engine::CollectiveKind, std::string> algorithms;
  /// true: an eager message starts to move when the receive is posted (SimGrid's replay);
  /// false: at once when sent (classic eager).
  bool eager_at_match = true;
  /// true: a late-sender completion while an earlier message to the rank was already there is
  /// flagged `detail_wrong_order` (read by the wait-state analysis only; off with it).
  bool flag_wrong_order = true;
  /// Posted receives are numbered in post order from 0; at this number they are renumbered from
  /// 0 in the same order (a smaller one exercises that in tests).
  std::uint32_t post_order_limit = std::numeric_limits<std::uint32_t>::max();
};

/// The program model. One instance per run.
class MpProgram final : public engine::Program, public engine::Prefetching, public engine::EventSource {
 public:
  /// `trace` and `machine` must outlive the program. Throws std::invalid_argument for an unknown
  /// collective algorithm name.
  MpProgram(traces::MpTraceSource& trace, machines::MachineModel& machine, MpOptions options);

  engine::StepResult step(LpId lp, engine::Scheduler& scheduler) override;
  engine::WaitInfo waits_for(LpId lp) const override;
  std::string describe(LpId lp) const override;
  /// Its ranks' records, and its trace source's per-rank state if the source is Prefetching.
  void plan_prefetch(engine::PrefetchPlan& plan) const override;

  /// Messages are flows of the machine's network (its flow_events()): their completions are
  /// events the scheduler orders with the ranks' steps (docs/network.md).
  bool has_events() const override { return flows_ != nullptr; }
  SimTime next_event_time() override { return flows_->next_completion(); }
  void fire_events(SimTime now, engine::Scheduler& scheduler) override;

  /// Problems that did not stop the run (unmatched messages, waits on nothing, ...), in order.
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// Adds the end-of-run checks (messages never received, requests never waited) to warnings().
  void check_end_state();

  /// A code region marked by the trace's `location FILE LINE` actions: it lasts from one
  /// `location` of a rank to the next (or to the rank's end).
  struct Region {
    std::string file;
    std::int64_t line = 0;
  };
  /// The region `lp` is in (the one its interval_enter / interval_exit events, whose tag is the
  /// line, refer to), or nullptr before its first `location`. Valid while observers see its events.
  const Region* current_region(LpId lp) const {
    const std::int32_t r = ranks_[lp].region;
    return r < 0 ? nullptr : &regions_[static_cast<std::size_t>(r)];
  }
  /// The trace line of the record `lp` is executing (its last one once finished; 0 before its
  /// first). Valid while observers see its events.
  std::uint64_t current_line(LpId lp) const { return ranks_[lp].line; }

 private:
  static constexpr std::uint32_t none = 0xffffffffu;

  enum class WaitMode : std::uint8_t { none, request, group, pending, collective, any_source };

  // At most 80 bytes (a 32-bit `seq` for that): one is cleared per message, with five vector
  // stores; a larger one takes a loop.
  struct Request {
    SimTime post = 0;      ///< when posted
    SimTime start = 0;     ///< when its data started to move
    SimTime complete = 0;  ///< when it completes (valid when `known`)
    SimTime sent = 0;      ///< a matched receive: when its message was sent
    std::uint64_t bytes = 0;
    std::uint64_t line = 0;
    std::int32_t peer = -1;
    std::int32_t matched = -1;  ///< the peer it matched (the actual source of an any-source receive)
    std::int32_t tag = 0;
    std::int32_t comm = 0;  ///< matched with the tag (0 = the world, every collective's messages)
    std::uint32_t owner = 0;
    std::uint32_t seq = 0;      ///< post order of a posted receive (MPI matches the earliest)
    std::uint32_t next = none;  ///< link in a posted-receive queue / free list
    bool is_send = false;
    bool known = false;
    bool in_wait = false;  ///< its owner is blocked on it (counted in Rank::unknown_left)
  };
  static_assert(sizeof(Request) <= 80, "a request is cleared per message: keep it in 80 bytes");

  struct Message {
    SimTime sent = 0;
    SimTime start = 0;
    SimTime arrival = 0;
    SimTime recv_overhead = 0;
    std::uint64_t bytes = 0;
    std::int32_t src = 0;
    std::int32_t tag = 0;
    std::int32_t comm = 0;
    std::uint32_t send_req = none;  ///< the rendezvous send request, or none
    std::uint32_t next = none;      ///< link in the destination's unexpected queue / free list
    std::uint32_t prev = none;      ///< back link in the destination's unexpected queue
    std::uint32_t pnext = none;     ///< link in the (destination, source) queue
    bool priced = false;
  };

  struct Collective {
    std::uint32_t entered = 0;
    std::uint32_t left = 0;
    SimTime max_enter = 0;
    SimTime end = 0;
    std::vector<LpId> waiters;
  };

  /// A FIFO of messages or requests.
  struct Fifo {
    std::uint32_t head = none;
    std::uint32_t tail = none;
  };

  /// A queued request found by a search, with its predecessor (for unlinking).
  struct Found {
    std::uint32_t id = none;
    std::uint32_t prev = none;
  };

  struct Rank {
    std::vector<Op> ops;                 ///< the op group being executed (collective, sendRecv)
    std::vector<std::uint32_t> group;    ///< requests started by the op group
    std::vector<std::uint32_t> pending;  ///< trace-visible non-blocking requests, post order
    std::uint32_t op_pos = 0;
    std::uint32_t unexpected_head = none, unexpected_tail = none;
    Fifo any_posted;                 ///< any-source receives, post order
    std::uint32_t posted_count = 0;  ///< posted receives, named-source ones included
    std::uint32_t wait_req = none;   ///< WaitMode::request
    std::uint64_t line = 0;          ///< trace line of the current record
    std::uint64_t coll_seq = 0;      ///< collectives on the world entered so far
    std::uint64_t coll_number = 0;   ///< the current collective's number in its communicator (from 1)
    SimTime wait_since = 0;          ///< clock when the blocking operation began
    SimTime coll_enter = 0;
    engine::EventKind wait_event = engine::EventKind::wait;
    std::int32_t wait_peer = -1;
    std::int32_t wait_tag = 0;
    std::uint64_t wait_bytes = 0;
    std::uint8_t wait_detail = 0;
    WaitMode wait = WaitMode::none;
    std::uint32_t unknown_left = 0;  ///< requests of the current wait not yet complete
    bool in_collective = false;
    engine::CollectiveKind coll_kind = engine::CollectiveKind::barrier;
    std::int32_t coll_root = 0;  ///< a world rank
    std::int32_t coll_comm = 0;  ///< the current collective's communicator (0 = world)
    std::uint64_t coll_bytes = 0;
    std::int32_t region = -1;  ///< index in regions_ of the current `location` region
    bool finished = false;
  };

  /// Reads `lp`'s next record and replays it with the handler of its kind (mp_replay.cpp).
  engine::StepResult start_record(LpId lp, engine::Scheduler& s);
  /// The time of compute record `rec` on the machine's roofline node.
  SimTime node_time(LpId lp, const traces::MpRecord& rec);
  engine::StepResult finish_rank(LpId lp, engine::Scheduler& s);
  engine::StepResult replay_location(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s);
  /// send, recv, isend, irecv.
  engine::StepResult replay_point_to_point(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s);
  engine::StepResult replay_wait_or_test(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s);
  /// The test of pending request `id` at the clock (after the pause `paused` of SimGrid's
  /// MPI_Test): frees it when complete; counts the failures in a row.
  engine::StepResult finish_test(LpId lp, std::uint32_t id, std::int32_t peer, std::int32_t tag, SimTime paused,
                                 engine::Scheduler& s);
  engine::StepResult replay_waitall(LpId lp, engine::Scheduler& s);
  engine::StepResult replay_send_recv(LpId lp, const traces::MpRecord& rec);
  /// Every collective: expanded into ops, or priced analytically.
  engine::StepResult replay_collective(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s);
  engine::StepResult run_op(LpId lp, const Op& op, engine::Scheduler& s);
  /// A computation on a host whose cores are shared: flow `flow` of the machine; the rank waits
  /// for its end.
  engine::StepResult wait_compute(LpId lp, std::uint32_t flow, engine::Scheduler& s);
  engine::StepResult resume(LpId lp, engine::Scheduler& s);
  engine::StepResult finish_collective(LpId lp, engine::Scheduler& s);
  /// `size`: the communicator's size, `root`: the root's rank in it.
  engine::StepResult analytic_collective(LpId lp, const traces::MpRecord& rec, int size, int root,
                                         engine::Scheduler& s);

  /// A communicator other than the world (MpTraceSource::communicators()).
  struct Communicator {
    std::vector<std::int32_t> members;                            ///< the world rank of each comm rank
    std::vector<std::pair<std::int32_t, std::int32_t>> by_world;  ///< (world rank, comm rank), sorted
    std::vector<std::uint64_t> entered;                           ///< per comm rank: collectives entered
  };
  /// Index = communicator id; entry 0 (the world) stays empty.
  std::vector<Communicator> comms_;
  void set_communicators(traces::MpCommunicators table);
  /// The rank of world rank `world` in communicator `comm` (> 0), or -1 when not a member.
  std::int32_t comm_rank(std::int32_t comm, std::int32_t world) const;
  /// The key of a rank's current collective in collectives_ (communicator, number).
  static std::uint64_t collective_key(const Rank& r) {
    return (static_cast<std::uint64_t>(r.coll_comm) << 40) | (r.coll_number - 1);
  }
  /// The number of ranks in the current collective of `r`.
  std::uint32_t collective_size(const Rank& r) const {
    return static_cast<std::uint32_t>(r.coll_comm == 0 ? processors_
                                                       : comms_[static_cast<std::size_t>(r.coll_comm)].members.size());
  }

  std::uint32_t post_send(LpId lp, std::int32_t dst, std::int32_t tag, std::int32_t comm, std::uint64_t bytes,
                          engine::Scheduler& s, SimTime& sender_free);
  std::uint32_t post_recv(LpId lp, std::int32_t src, std::int32_t tag, std::int32_t comm, std::uint64_t bytes,
                          engine::Scheduler& s);
  void deliver(std::uint32_t msg, std::uint32_t recv, engine::Scheduler& s);
  /// The send request (or none) and the receive of a matched message arrive at `arrival`.
  void complete_transfer(std::uint32_t send_req, std::uint32_t recv, SimTime arrival, SimTime recv_overhead,
                         engine::Scheduler& s);
  /// A message in flight as a flow of the machine's network: its requests, by flow id.
  struct InFlight {
    std::uint32_t send_req = none;
    std::uint32_t recv = none;
  };
  machines::FlowEvents* flows_ = nullptr;
  std::vector<InFlight> in_flight_;
  std::vector<std::uint32_t> finished_flows_;
  void on_known(std::uint32_t req, engine::Scheduler& s);
  bool wait_satisfied(const Rank& r, SimTime& done, SimTime& started, std::uint32_t* last_req = nullptr) const;
  bool earlier_message_there(const Rank& r, SimTime sent, std::uint32_t awaited);
  /// Queued messages and requests a wrong-order check looks at, at most.
  static constexpr std::uint32_t wrong_order_scan_limit = 256;
  std::uint64_t wrong_order_capped_ = 0;  ///< waits whose check reached the limit undecided
  engine::StepResult block(LpId lp, WaitMode mode, engine::EventKind kind, std::int32_t peer, std::int32_t tag,
                           std::uint64_t bytes, std::uint8_t detail, engine::Scheduler& s);
  engine::StepResult complete_now(LpId lp, engine::Scheduler& s);
  /// Counts the event; hands it, with `lp`, its status and whether it belongs to an expanded
  /// collective, to the observers if there are any.
  void emit(engine::Scheduler& s, LpId lp, const engine::EventBuilder& event) {
    if (!s.has_observers()) {
      ++s.lp(lp).events;
      return;
    }
    emit_observed(s, lp, event.event());
  }
  void emit_observed(engine::Scheduler& s, LpId lp, engine::Event e);
  std::uint32_t new_request();
  std::uint32_t new_message();
  void free_request(std::uint32_t id) {
    requests_[id].next = free_requests_;
    free_requests_ = id;
  }
  std::string algorithm_for(engine::CollectiveKind kind) const;
  static constexpr std::size_t collective_kinds = static_cast<std::size_t>(engine::CollectiveKind::exscan) + 1;
  /// algorithm_for of every collective kind, resolved once (the per-call lookup allocated).
  std::array<std::string, collective_kinds> algorithms_;
  /// Per collective kind: priced analytically (model.collectives analytic, no algorithm named for it).
  std::array<bool, collective_kinds> analytic_{};
  std::string where(LpId lp) const;
  void warn(std::string message);

  traces::MpTraceSource& trace_;
  machines::MachineModel& machine_;
  MpOptions options_;
  int processors_;
  std::vector<Rank> ranks_;
  std::vector<Request> requests_;
  std::vector<Message> messages_;
  std::uint32_t free_requests_ = none;
  std::uint32_t free_messages_ = none;
  std::map<std::uint64_t, Collective> collectives_;
  static std::uint64_t pair_key(std::int32_t dst, std::int32_t src) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(dst)) << 32) | static_cast<std::uint32_t>(src);
  }
  void unlink_unexpected(Rank& r, std::uint32_t mid);
  Found first_accepting(const Fifo& f, std::int32_t tag, std::int32_t comm) const;
  void push_request(Fifo& f, std::uint32_t id);
  /// The next post-order number; renumbers every request in post order first at the limit.
  std::uint32_t next_post_seq();
  void remove_request(Fifo& f, const Found& found);
  void unlink_pair_message(std::uint64_t key, std::uint32_t mid);
  /// Per (destination, source): unexpected messages in arrival order (Message::pnext), so that a
  /// named-source receive finds its message without scanning everyone's.
  PairIndex<Fifo> unexpected_by_pair_;
  /// Per (destination, source): named-source posted receives in post order (Request::next).
  PairIndex<Fifo> posted_by_pair_;
  std::uint32_t post_seq_ = 0;
  /// SMPI's MPI_Test pauses test_time · tests_in_row_, one counter for all ranks (a static in
  /// SimGrid): 1 after a test that succeeded, + 1 after one that failed.
  std::uint64_t tests_in_row_ = 1;
  std::vector<Region> regions_;  ///< distinct (file, line) regions, in order of first entry
  std::map<std::pair<std::string, std::int64_t>, std::int32_t> region_ids_;
  traces::MpRecord record_;
  /// On a machine with a roofline node: the node level of each of the trace's memory_levels(), and
  /// the bytes per node level of the compute record being priced.
  std::vector<std::size_t> node_level_of_;
  std::vector<double> node_level_bytes_;
  std::vector<std::string> warnings_;
  std::uint64_t warning_count_ = 0;
  SimTime defer_until_ = 0;  ///< when a deferred any-source receive is retried
};

}  // namespace augur::models::mp
