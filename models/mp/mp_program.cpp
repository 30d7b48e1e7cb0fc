// The message-passing model on the engine's LPs: stepping, executable ops, blocking and
// completion, deadlock descriptions. Trace records are replayed by mp_replay.cpp, messages
// posted and matched by mp_matching.cpp.
#include "models/mp/mp_program.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <stdexcept>

#include "engine/log.hpp"
#include "models/mp/collectives.hpp"
#include "traces/trace_error.hpp"

namespace augur::models::mp {

using engine::EventBuilder;
using engine::EventKind;
using engine::StepResult;
using traces::MpOpKind;

namespace {

std::string peer_name(std::int32_t peer) { return peer < 0 ? std::string("any source") : fmt::format("rank {}", peer); }
std::string tag_name(std::int32_t tag) {
  return tag == engine::any_tag ? std::string("any tag") : fmt::format("tag {}", tag);
}

}  // namespace

std::optional<engine::CollectiveKind> collective_of(MpOpKind kind) {
  using engine::CollectiveKind;
  switch (kind) {
    case MpOpKind::barrier:
      return CollectiveKind::barrier;
    case MpOpKind::bcast:
      return CollectiveKind::bcast;
    case MpOpKind::reduce:
      return CollectiveKind::reduce;
    case MpOpKind::allreduce:
      return CollectiveKind::allreduce;
    case MpOpKind::alltoall:
      return CollectiveKind::alltoall;
    case MpOpKind::alltoallv:
      return CollectiveKind::alltoallv;
    case MpOpKind::gather:
      return CollectiveKind::gather;
    case MpOpKind::gatherv:
      return CollectiveKind::gatherv;
    case MpOpKind::scatter:
      return CollectiveKind::scatter;
    case MpOpKind::scatterv:
      return CollectiveKind::scatterv;
    case MpOpKind::allgather:
      return CollectiveKind::allgather;
    case MpOpKind::allgatherv:
      return CollectiveKind::allgatherv;
    case MpOpKind::reduce_scatter:
      return CollectiveKind::reduce_scatter;
    case MpOpKind::scan:
      return CollectiveKind::scan;
    case MpOpKind::exscan:
      return CollectiveKind::exscan;
    default:
      return std::nullopt;
  }
}

MpProgram::MpProgram(traces::MpTraceSource& trace, machines::MachineModel& machine, MpOptions options)
    : trace_(trace),
      machine_(machine),
      options_(std::move(options)),
      processors_(trace.rank_count()),
      ranks_(static_cast<std::size_t>(trace.rank_count())) {
  flows_ = machine_.flow_events();
  set_communicators(trace.communicators());
  if (machine_.node()) {  // levels a skeleton names; an unknown one throws machines::NodeSpecError
    for (const std::string& level : trace.memory_levels())
      node_level_of_.push_back(machines::level_index(*machine_.node(), level));
  }
  // Each kind's algorithm and whether it is priced analytically, resolved once: the options do
  // not change during the run, and resolving per collective call allocated.
  for (std::size_t k = 0; k < algorithms_.size(); ++k) {
    const auto kind = static_cast<engine::CollectiveKind>(k);
    algorithms_[k] = algorithm_for(kind);
    analytic_[k] = options_.collectives == "analytic" && options_.algorithms.count(kind) == 0;
  }
  if (options_.collectives != "analytic" && options_.collectives != "default") {
    // A name no kind knows is a typo (a name some kinds know applies to those only).
    bool known = false;
    for (std::size_t k = 0; k < algorithms_.size() && !known; ++k)
      known = has_collective_algorithm(static_cast<engine::CollectiveKind>(k), options_.collectives);
    if (!known) {
      throw std::invalid_argument(fmt::format(
          "unknown model.collectives '{}': expected default, analytic or an algorithm of some collective kind "
          "(augur info collectives lists them)",
          options_.collectives));
    }
  }
  if (options_.collectives != "analytic") {
    // Validate every algorithm name now, not halfway through a run.
    for (std::size_t k = 0; k < algorithms_.size(); ++k) {
      const auto kind = static_cast<engine::CollectiveKind>(k);
      const std::string& algo = algorithms_[k];
      if (!has_collective_algorithm(kind, algo)) {
        if (options_.algorithms.count(kind) == 0 && options_.collectives != "default") continue;
        throw std::invalid_argument(fmt::format("unknown algorithm '{}' for {}; valid: {}", algo,
                                                engine::to_string(kind), fmt::join(collective_algorithms(kind), ", ")));
      }
    }
  }
  if (auto* lg = engine::logger_at(engine::Folder::models, spdlog::level::debug)) {
    std::string algorithms;
    for (std::size_t k = 0; k < algorithms_.size(); ++k) {
      algorithms += fmt::format("{}{}={}", algorithms.empty() ? "" : ", ",
                                engine::to_string(static_cast<engine::CollectiveKind>(k)),
                                analytic_[k] ? std::string("analytic") : algorithms_[k]);
    }
    lg->debug("message-passing model: {} ranks, eager messages move {}, collectives: {}", processors_,
              options_.eager_at_match ? "when the receive is posted" : "when sent", algorithms);
  }
}

std::string MpProgram::algorithm_for(engine::CollectiveKind kind) const {
  if (auto it = options_.algorithms.find(kind); it != options_.algorithms.end()) return it->second;
  if (options_.collectives == "analytic") return "default";
  // A global algorithm name applies where that algorithm exists; elsewhere the default.
  return has_collective_algorithm(kind, options_.collectives) ? options_.collectives : "default";
}

std::string MpProgram::where(LpId lp) const {
  return fmt::format("{}:{}", trace_.file_name(static_cast<int>(lp)), ranks_[lp].line);
}

void MpProgram::warn(std::string message) {
  if (auto* lg = engine::logger_at(engine::Folder::models, spdlog::level::info)) lg->info("warning: {}", message);
  ++warning_count_;
  if (warnings_.size() < 100) warnings_.push_back(std::move(message));
}

void MpProgram::emit_observed(engine::Scheduler& s, LpId lp, engine::Event e) {
  e.lp = lp;
  e.internal = ranks_[lp].in_collective && e.kind != EventKind::collective_begin && e.kind != EventKind::collective_end;
  e.status = s.lp(lp).status;
  s.emit(e);
}

StepResult MpProgram::step(LpId lp, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  if (r.wait != WaitMode::none) return resume(lp, s);
  if (r.op_pos < r.ops.size()) {
    const Op op = r.ops[r.op_pos++];
    return run_op(lp, op, s);
  }
  if (r.in_collective) return finish_collective(lp, s);
  r.ops.clear();
  r.op_pos = 0;
  return start_record(lp, s);
}

StepResult MpProgram::block(LpId lp, WaitMode mode, EventKind kind, std::int32_t peer, std::int32_t tag,
                            std::uint64_t bytes, std::uint8_t detail, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  r.wait = mode;
  r.wait_since = s.lp(lp).clock;
  r.wait_event = kind;
  r.wait_peer = peer;
  r.wait_tag = tag;
  r.wait_bytes = bytes;
  r.wait_detail = detail;
  // Count the requests still open and mark them: on_known wakes the rank when the count hits 0.
  r.unknown_left = 0;
  auto mark = [&](std::uint32_t id) {
    Request& q = requests_[id];
    if (!q.known) {
      q.in_wait = true;
      ++r.unknown_left;
    }
  };
  switch (mode) {
    case WaitMode::request:
      mark(r.wait_req);
      break;
    case WaitMode::group:
      for (std::uint32_t id : r.group) mark(id);
      break;
    case WaitMode::pending:
      for (std::uint32_t id : r.pending) mark(id);
      break;
    default:
      break;
  }
  if (r.unknown_left == 0) return complete_now(lp, s);
  return StepResult::blocked;
}

StepResult MpProgram::complete_now(LpId lp, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  SimTime done = 0, started = 0;
  std::uint32_t last = none;
  wait_satisfied(r, done, started, &last);
  std::int32_t waited_peer = r.wait_peer;
  bool last_is_send = false;
  SimTime last_sent = 0;
  if (last != none) {
    const Request& q = requests_[last];
    waited_peer = q.matched >= 0 ? q.matched : q.peer;
    last_is_send = q.is_send;
    last_sent = q.sent;
  }
  std::uint8_t detail = r.wait_detail;
  if ((r.wait_event == EventKind::wait || r.wait_event == EventKind::waitall) && last_is_send) detail = 2;
  SimTime& clock = s.lp(lp).clock;
  const SimTime before = r.wait_since;
  clock = std::max(clock, done);
  const SimTime waited = std::clamp(started - before, SimTime{0}, clock - before);
  if (options_.flag_wrong_order && waited > 0 && !last_is_send && !r.in_collective &&
      earlier_message_there(r, last_sent, last)) {
    detail = static_cast<std::uint8_t>(detail | engine::detail_wrong_order);
  }
  switch (r.wait) {
    case WaitMode::request: {
      if (r.wait_detail == 1) r.wait_bytes = requests_[r.wait_req].bytes;  // a blocking receive: the size delivered
      auto it = std::find(r.pending.begin(), r.pending.end(), r.wait_req);
      if (it != r.pending.end()) r.pending.erase(it);
      free_request(r.wait_req);
      r.wait_req = none;
      break;
    }
    case WaitMode::group:
      for (std::uint32_t id : r.group) free_request(id);
      r.group.clear();
      break;
    case WaitMode::pending:
      for (std::uint32_t id : r.pending) free_request(id);
      r.pending.clear();
      break;
    default:
      break;
  }
  r.wait = WaitMode::none;
  // The event names the peer actually waited for (the source an any-source receive matched, the
  // last partner of a waitall).
  emit(s, lp,
       EventBuilder(r.wait_event)
           .span(before, clock)
           .waited(waited)
           .peer(waited_peer)
           .tag(r.wait_tag)
           .bytes(r.wait_bytes)
           .detail(detail));
  return StepResult::advanced;
}

StepResult MpProgram::resume(LpId lp, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  if (r.wait == WaitMode::collective) {
    auto it = collectives_.find(collective_key(r));
    Collective& c = it->second;
    SimTime& clock = s.lp(lp).clock;
    const SimTime before = r.coll_enter;
    clock = std::max(clock, c.end);
    r.wait = WaitMode::none;
    emit(s, lp,
         EventBuilder(EventKind::collective)
             .span(before, clock)
             .waited(c.max_enter - before)
             .peer(r.coll_root)
             .tag(engine::collective_event_tag(r.coll_kind, r.coll_comm))
             .bytes(r.coll_bytes)
             .detail(static_cast<std::uint8_t>(static_cast<int>(r.coll_kind) + 1)));
    if (++c.left == collective_size(r)) collectives_.erase(it);
    return StepResult::advanced;
  }
  SimTime done = 0, started = 0;
  if (!wait_satisfied(r, done, started)) return StepResult::blocked;
  return complete_now(lp, s);
}

StepResult MpProgram::run_op(LpId lp, const Op& op, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  SimTime& clock = s.lp(lp).clock;
  const SimTime before = clock;
  switch (op.kind) {
    case OpKind::compute: {
      if (flows_ != nullptr) {
        const std::uint32_t flow = flows_->start_compute(static_cast<int>(lp), op.amount, clock);
        if (flow != machines::FlowEvents::no_flow) return wait_compute(lp, flow, s);
      }
      clock += machine_.compute_time(static_cast<int>(lp), op.amount);
      emit(s, lp, EventBuilder(EventKind::compute).span(before, clock));
      return StepResult::advanced;
    }
    case OpKind::timed:
      clock += op.amount;
      emit(s, lp, EventBuilder(EventKind::compute).span(before, clock));
      return StepResult::advanced;
    case OpKind::sleep:
      clock += op.amount;
      emit(s, lp, EventBuilder(EventKind::sleep).span(before, clock));
      return StepResult::advanced;
    case OpKind::send: {
      SimTime sender_free = 0;
      r.wait_req = post_send(lp, op.peer, op.tag, op.comm, op.bytes, s, sender_free);
      return block(lp, WaitMode::request, EventKind::send, op.peer, op.tag, op.bytes, 1, s);
    }
    case OpKind::recv: {
      const std::uint32_t id = post_recv(lp, op.peer, op.tag, op.comm, op.bytes, s);
      if (id == none) {
        --r.op_pos;
        s.resume_at(lp, defer_until_);
        return StepResult::suspended;
      }
      r.wait_req = id;
      return block(lp, WaitMode::request, EventKind::recv, op.peer, op.tag, op.bytes, 1, s);
    }
    case OpKind::isend:
    case OpKind::trace_isend: {
      SimTime sender_free = 0;
      const std::uint32_t id = post_send(lp, op.peer, op.tag, op.comm, op.bytes, s, sender_free);
      (op.kind == OpKind::isend ? r.group : r.pending).push_back(id);
      clock = std::max(clock, sender_free);
      emit(s, lp, EventBuilder(EventKind::send).span(before, clock).peer(op.peer).tag(op.tag).bytes(op.bytes));
      return StepResult::advanced;
    }
    case OpKind::irecv:
    case OpKind::trace_irecv: {
      const std::uint32_t id = post_recv(lp, op.peer, op.tag, op.comm, op.bytes, s);
      if (id == none) {
        --r.op_pos;
        s.resume_at(lp, defer_until_);
        return StepResult::suspended;
      }
      (op.kind == OpKind::irecv ? r.group : r.pending).push_back(id);
      emit(s, lp, EventBuilder(EventKind::recv).span(before, clock).peer(op.peer).tag(op.tag).bytes(op.bytes));
      return StepResult::advanced;
    }
    case OpKind::waitall:
      return block(lp, WaitMode::group, EventKind::waitall, -1, 0, 0, 0, s);
    case OpKind::test_pause:
      clock += op.amount;
      return StepResult::advanced;
    case OpKind::trace_test:
      return finish_test(lp, static_cast<std::uint32_t>(op.bytes), op.peer, op.tag, op.amount, s);
  }
  return StepResult::advanced;
}

StepResult MpProgram::wait_compute(LpId lp, std::uint32_t flow, engine::Scheduler& s) {
  // A request of no message that the flow's end completes (fire_events), waited for as a receive.
  Rank& r = ranks_[lp];
  const std::uint32_t id = new_request();
  Request& q = requests_[id];
  q.post = q.start = q.sent = s.lp(lp).clock;
  q.owner = lp;
  if (flow >= in_flight_.size()) in_flight_.resize(flow + 1);
  in_flight_[flow] = InFlight{none, id};
  r.wait_req = id;
  return block(lp, WaitMode::request, EventKind::compute, -1, 0, 0, 0, s);
}

void MpProgram::plan_prefetch(engine::PrefetchPlan& plan) const {
  plan.add_records(ranks_.data(), sizeof(Rank));
  if (const auto* source = dynamic_cast<const engine::Prefetching*>(&trace_)) source->plan_prefetch(plan);
}

engine::WaitInfo MpProgram::waits_for(LpId lp) const {
  const Rank& r = ranks_[lp];
  engine::WaitInfo w;
  auto describe_request = [&](std::uint32_t id) {
    const Request& q = requests_[id];
    w.peers.push_back(q.peer);
    w.tag = q.tag;
    if (q.is_send) {
      w.kind = engine::WaitInfo::Kind::send_match;
      return fmt::format("a receive by {} of its {}-byte rendezvous send ({})", peer_name(q.peer), q.bytes,
                         tag_name(q.tag));
    }
    w.kind = engine::WaitInfo::Kind::message;
    return fmt::format("a message from {} ({})", peer_name(q.peer), tag_name(q.tag));
  };
  std::string what;
  switch (r.wait) {
    case WaitMode::none:
      what = "nothing";
      break;
    case WaitMode::request:
      what = describe_request(r.wait_req);
      break;
    case WaitMode::group:
    case WaitMode::pending: {
      const auto& ids = r.wait == WaitMode::group ? r.group : r.pending;
      std::size_t open = 0;
      for (std::uint32_t id : ids) {
        if (requests_[id].known) continue;
        what += (open++ ? "; " : "") + describe_request(id);
      }
      w.kind = engine::WaitInfo::Kind::requests;
      what = fmt::format("{} of {} requests: {}", open, ids.size(), what);
      break;
    }
    case WaitMode::collective: {
      const std::uint64_t seq = r.coll_number - 1;
      w.kind = engine::WaitInfo::Kind::collective;
      std::string missing;
      const auto absent = [&](std::int32_t o, std::uint64_t entered) {
        if (entered > seq) return;
        w.peers.push_back(o);
        if (w.peers.size() <= 16) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", o);
      };
      if (r.coll_comm == 0) {
        for (LpId o = 0; o < ranks_.size(); ++o) absent(static_cast<std::int32_t>(o), ranks_[o].coll_seq);
      } else {
        const Communicator& comm = comms_[static_cast<std::size_t>(r.coll_comm)];
        for (std::size_t i = 0; i < comm.members.size(); ++i) absent(comm.members[i], comm.entered[i]);
      }
      what = fmt::format("collective {} #{}{}: ranks not yet entered: {}", engine::to_string(r.coll_kind), seq + 1,
                         r.coll_comm == 0 ? std::string() : fmt::format(" on communicator {}", r.coll_comm),
                         missing.empty() ? std::string("none") : missing);
      break;
    }
    case WaitMode::any_source:
      what = "an any-source message";
      break;
  }
  if (r.in_collective) what += fmt::format(" inside {} #{}", engine::to_string(r.coll_kind), r.coll_number);
  w.what = fmt::format("{} (at {})", what, where(lp));
  return w;
}

std::string MpProgram::describe(LpId lp) const {
  const Rank& r = ranks_[lp];
  std::string out = fmt::format("  trace position: {}{}\n", where(lp), r.finished ? " (finished)" : "");
  if (r.in_collective) {
    out += fmt::format("  inside collective {} #{} (op {} of {})\n", engine::to_string(r.coll_kind), r.coll_number,
                       r.op_pos, r.ops.size());
  }
  std::size_t n = 0;
  for (std::uint32_t m = r.unexpected_head; m != none; m = messages_[m].next) ++n;
  out += fmt::format("  incoming queue: {} message(s) not yet received\n", n);
  std::size_t shown = 0;
  for (std::uint32_t m = r.unexpected_head; m != none && shown < 8; m = messages_[m].next, ++shown) {
    const Message& msg = messages_[m];
    out += fmt::format("    from rank {} tag {} {} bytes sent at {:.9f}\n", msg.src, msg.tag, msg.bytes, msg.sent);
  }
  out += fmt::format("  posted receives: {}\n", r.posted_count);
  auto list = [&](const char* name, const std::vector<std::uint32_t>& ids) {
    out += fmt::format("  {}: {}\n", name, ids.size());
    for (std::size_t i = 0; i < ids.size() && i < 8; ++i) {
      const Request& q = requests_[ids[i]];
      out += fmt::format("    {} {} {} {} bytes posted at {:.9f}{}\n", q.is_send ? "send to" : "recv from",
                         peer_name(q.peer), tag_name(q.tag), q.bytes, q.post,
                         q.known ? fmt::format(", completes at {:.9f}", q.complete) : std::string(", not matched"));
    }
  };
  list("pending requests", r.pending);
  if (!r.group.empty()) list("requests of the current operation", r.group);
  return out;
}

void MpProgram::check_end_state() {
  if (wrong_order_capped_ > 0) {
    warn(
        fmt::format("wait states: {} late-sender wait(s) found more than {} messages and requests queued at the "
                    "receiver; only the first {} were checked for messages in the wrong order (that figure is a "
                    "lower bound)",
                    wrong_order_capped_, wrong_order_scan_limit, wrong_order_scan_limit));
  }
  for (LpId lp = 0; lp < ranks_.size(); ++lp) {
    const Rank& r = ranks_[lp];
    std::size_t n = 0;
    for (std::uint32_t m = r.unexpected_head; m != none; m = messages_[m].next) ++n;
    if (n > 0) {
      const Message& first = messages_[r.unexpected_head];
      warn(fmt::format("rank {} never received {} message(s) sent to it (first: from rank {} tag {}, {} bytes)", lp, n,
                       first.src, first.tag, first.bytes));
    }
  }
}

}  // namespace augur::models::mp
