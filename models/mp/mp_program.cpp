// The message-passing model: MPI matching and protocols on top of the engine's LPs.
// Matching (MPI 3.1 section 3.5): a receive matches the first message in arrival order from the
// named source (or any) with the named tag (or any); messages of one sender never overtake.
// Protocols: eager (size <= threshold: the sender continues) and rendezvous (the sender waits until
// the message is delivered; the transfer starts when both sides are posted).
#include "models/mp/mp_program.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <stdexcept>

#include "engine/log.hpp"
#include "models/mp/collectives.hpp"
#include "traces/trace_error.hpp"

namespace augur::models::mp {

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

std::uint32_t MpProgram::new_request() {
  std::uint32_t id;
  if (free_requests_ != none) {
    id = free_requests_;
    free_requests_ = requests_[id].next;
    requests_[id] = Request{};
  } else {
    id = static_cast<std::uint32_t>(requests_.size());
    requests_.emplace_back();
  }
  return id;
}

void MpProgram::free_request(std::uint32_t id) {
  requests_[id].next = free_requests_;
  free_requests_ = id;
}

std::uint32_t MpProgram::new_message() {
  std::uint32_t id;
  if (free_messages_ != none) {
    id = free_messages_;
    free_messages_ = messages_[id].next;
    messages_[id] = Message{};
  } else {
    id = static_cast<std::uint32_t>(messages_.size());
    messages_.emplace_back();
  }
  return id;
}

void MpProgram::emit(engine::Scheduler& s, LpId lp, EventKind kind, SimTime before, SimTime after, SimTime waited,
                     std::int32_t peer, std::int32_t tag, std::uint64_t bytes, std::uint8_t detail) {
  if (!s.has_observers()) {
    ++s.lp(lp).events;
    return;
  }
  engine::Event e;
  e.clock_before = before;
  e.clock_after = after;
  e.waited = waited;
  e.bytes = bytes;
  e.lp = lp;
  e.peer = peer;
  e.tag = tag;
  e.kind = kind;
  e.detail = detail;
  e.internal = ranks_[lp].in_collective && kind != EventKind::collective_begin && kind != EventKind::collective_end;
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

StepResult MpProgram::start_record(LpId lp, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  bool has = false;
  try {
    has = trace_.next(static_cast<int>(lp), record_);
  } catch (const traces::TraceError& e) {
    s.fail(lp, e.what());
    return StepResult::blocked;
  }
  SimTime& clock = s.lp(lp).clock;
  if (!has) {
    if (r.region >= 0) {  // the last `location` region ends with the rank
      emit(s, lp, EventKind::interval_exit, clock, clock, 0, -1,
           static_cast<std::int32_t>(regions_[static_cast<std::size_t>(r.region)].line), 0, 0);
    }
    r.finished = true;
    if (!r.pending.empty()) {
      warn(fmt::format("rank {} finished with {} non-blocking request(s) never waited for (last line {})", lp,
                       r.pending.size(), where(lp)));
    }
    emit(s, lp, EventKind::finish, clock, clock, 0, -1, 0, 0, 0);
    return StepResult::done;
  }
  const traces::MpRecord& rec = record_;
  r.line = rec.line;
  switch (rec.kind) {
    case MpOpKind::init:
    case MpOpKind::finalize:
    case MpOpKind::comm_size:
    case MpOpKind::comm_split:
    case MpOpKind::comm_dup:
      return StepResult::advanced;
    case MpOpKind::location: {
      // A region lasts from one `location` to the next: leave the previous one, enter this one.
      if (r.region >= 0) {
        emit(s, lp, EventKind::interval_exit, clock, clock, 0, -1,
             static_cast<std::int32_t>(regions_[static_cast<std::size_t>(r.region)].line), 0, 0);
      }
      auto key = std::make_pair(std::string(rec.text), static_cast<std::int64_t>(rec.count));
      auto [it, added] = region_ids_.try_emplace(std::move(key), static_cast<std::int32_t>(regions_.size()));
      if (added) regions_.push_back(Region{it->first.first, it->first.second});
      r.region = it->second;
      emit(s, lp, EventKind::interval_enter, clock, clock, 0, -1, static_cast<std::int32_t>(rec.count), 0, 0);
      return StepResult::advanced;
    }
    case MpOpKind::compute:
      return run_op(lp, Op{OpKind::compute, -1, 0, 0, rec.amount}, s);
    case MpOpKind::sleep:
      return run_op(lp, Op{OpKind::sleep, -1, 0, 0, rec.amount}, s);
    case MpOpKind::send:
    case MpOpKind::recv:
    case MpOpKind::isend:
    case MpOpKind::irecv: {
      const OpKind k = rec.kind == MpOpKind::send    ? OpKind::send
                       : rec.kind == MpOpKind::recv  ? OpKind::recv
                       : rec.kind == MpOpKind::isend ? OpKind::trace_isend
                                                     : OpKind::trace_irecv;
      // Run as the op group of one it is (op_pos 1, ops empty); a deferred any-source receive
      // (run_op steps op_pos back to 0) is kept in the group to be retried.
      const Op op{k, rec.peer, rec.tag, rec.bytes, 0};
      r.op_pos = 1;
      const StepResult result = run_op(lp, op, s);
      if (r.op_pos == 0) {
        r.ops.push_back(op);
      } else {
        r.op_pos = 0;
      }
      return result;
    }
    case MpOpKind::wait:
    case MpOpKind::test: {
      // The oldest pending request with key (src, dst, tag): src == me means a send.
      const bool is_send = rec.peer == static_cast<std::int32_t>(lp);
      const std::int32_t other = is_send ? rec.peer2 : rec.peer;
      auto it = std::find_if(r.pending.begin(), r.pending.end(), [&](std::uint32_t id) {
        const Request& q = requests_[id];
        return q.is_send == is_send && q.peer == other && q.tag == rec.tag;
      });
      if (it == r.pending.end()) {
        warn(fmt::format("{}: warning: {} {} {} {} matches no pending request; ignored (as SimGrid does)", where(lp),
                         traces::to_string(rec.kind), rec.peer, rec.peer2, rec.tag));
        return StepResult::advanced;
      }
      if (rec.kind == MpOpKind::test) {
        const std::uint32_t id = *it;
        if (requests_[id].known && requests_[id].complete <= clock) {
          r.pending.erase(it);
          free_request(id);
        }
        emit(s, lp, EventKind::test, clock, clock, 0, other, rec.tag, 0, 0);
        return StepResult::advanced;
      }
      r.wait_req = *it;
      return block(lp, WaitMode::request, EventKind::wait, other, rec.tag, requests_[*it].bytes, 0, s);
    }
    case MpOpKind::waitall:
      if (r.pending.empty()) {
        emit(s, lp, EventKind::waitall, clock, clock, 0, -1, 0, 0, 0);
        return StepResult::advanced;
      }
      return block(lp, WaitMode::pending, EventKind::waitall, -1, 0, 0, 0, s);
    case MpOpKind::send_recv:
      r.ops.push_back(Op{OpKind::isend, rec.peer, 0, rec.bytes, 0});
      r.ops.push_back(Op{OpKind::irecv, rec.peer2, 0, rec.bytes2, 0});
      r.ops.push_back(Op{OpKind::waitall, -1, 0, 0, 0});
      return StepResult::advanced;
    default:
      break;
  }
  const auto kind = collective_of(rec.kind);
  if (!kind) {
    s.fail(lp, fmt::format("{}: error: action '{}' is not supported by the message-passing model", where(lp),
                           traces::to_string(rec.kind)));
    return StepResult::blocked;
  }
  r.coll_kind = *kind;
  r.coll_root = rec.root;
  r.coll_bytes = rec.bytes;
  if (analytic_[static_cast<std::size_t>(*kind)]) {
    return analytic_collective(lp, rec, s);
  }
  CollectiveCall call;
  call.kind = *kind;
  call.root = rec.root;
  call.send_bytes = rec.bytes;
  call.recv_bytes = rec.bytes2;
  call.comp_flops = rec.amount;
  const auto n = static_cast<std::size_t>(processors_);
  switch (*kind) {
    case engine::CollectiveKind::alltoallv:
      if (rec.counts.size() >= 2 * n) {
        call.send_counts = rec.counts.subspan(0, n);
        call.recv_counts = rec.counts.subspan(n, n);
      }
      break;
    case engine::CollectiveKind::scatterv:
      call.send_counts = rec.counts;
      break;
    case engine::CollectiveKind::gatherv:
    case engine::CollectiveKind::allgatherv:
    case engine::CollectiveKind::reduce_scatter:
      call.recv_counts = rec.counts;
      break;
    default:
      break;
  }
  try {
    expand_collective(call, static_cast<int>(lp), processors_, algorithms_[static_cast<std::size_t>(*kind)], r.ops);
  } catch (const std::exception& e) {
    s.fail(lp, fmt::format("{}: error: {}", where(lp), e.what()));
    return StepResult::blocked;
  }
  r.op_pos = 0;
  r.in_collective = true;
  r.coll_enter = clock;
  ++r.coll_seq;
  emit(s, lp, EventKind::collective_begin, clock, clock, 0, rec.root, static_cast<std::int32_t>(*kind), rec.bytes,
       static_cast<std::uint8_t>(static_cast<int>(*kind) + 1));
  return StepResult::advanced;
}

StepResult MpProgram::finish_collective(LpId lp, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  const SimTime clock = s.lp(lp).clock;
  r.in_collective = false;
  // A collective's expansion can be long (log P ops and more): give its memory back rather than
  // keep it per rank until the next collective (a trace's sendRecv needs 3 ops, kept).
  if (r.ops.capacity() > 4) {
    std::vector<Op>().swap(r.ops);
  } else {
    r.ops.clear();
  }
  if (r.group.empty() && r.group.capacity() > 4) std::vector<std::uint32_t>().swap(r.group);
  r.op_pos = 0;
  emit(s, lp, EventKind::collective_end, r.coll_enter, clock, 0, r.coll_root, static_cast<std::int32_t>(r.coll_kind),
       r.coll_bytes, static_cast<std::uint8_t>(static_cast<int>(r.coll_kind) + 1));
  return StepResult::advanced;
}

StepResult MpProgram::analytic_collective(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  SimTime& clock = s.lp(lp).clock;
  const std::uint64_t seq = r.coll_seq++;
  Collective& c = collectives_[seq];
  ++c.entered;
  c.max_enter = std::max(c.max_enter, clock);
  r.coll_enter = clock;
  // SimGrid's replay executes the reduction's flops after the operation: so do we.
  const bool reduces = r.coll_kind == engine::CollectiveKind::reduce ||
                       r.coll_kind == engine::CollectiveKind::allreduce ||
                       r.coll_kind == engine::CollectiveKind::scan || r.coll_kind == engine::CollectiveKind::exscan ||
                       r.coll_kind == engine::CollectiveKind::reduce_scatter;
  if (reduces && rec.amount > 0) {
    r.ops.push_back(Op{OpKind::compute, -1, 0, 0, rec.amount});
    r.op_pos = 0;
  }
  r.wait = WaitMode::collective;
  r.wait_since = clock;
  if (c.entered == static_cast<std::uint32_t>(processors_)) {
    c.end = c.max_enter + machine_.collective_time(r.coll_kind, processors_, rec.bytes, rec.root);
    for (LpId w : c.waiters) s.wake(w, c.end);
    c.waiters.clear();
    return resume(lp, s);
  }
  c.waiters.push_back(lp);
  return StepResult::blocked;
}

std::uint32_t MpProgram::post_send(LpId lp, std::int32_t dst, std::int32_t tag, std::uint64_t bytes,
                                   engine::Scheduler& s, SimTime& sender_free) {
  const SimTime now = s.lp(lp).clock;
  const std::uint32_t id = new_request();
  const bool rendezvous = bytes > machine_.eager_threshold();
  {
    Request& q = requests_[id];
    q.post = now;
    q.bytes = bytes;
    q.peer = dst;
    q.tag = tag;
    q.owner = lp;
    q.is_send = true;
    q.line = ranks_[lp].line;
  }
  const std::uint32_t mid = new_message();
  Message& m = messages_[mid];
  m.sent = now;
  m.bytes = bytes;
  m.src = static_cast<std::int32_t>(lp);
  m.tag = tag;
  m.send_req = rendezvous ? id : none;
  sender_free = now;
  if (!rendezvous) {
    if (!options_.eager_at_match) {
      const machines::Transfer t = machine_.transfer(static_cast<int>(lp), dst, bytes, now);
      m.priced = true;
      m.start = t.start;
      m.arrival = t.arrival;
      m.recv_overhead = t.recv_overhead;
      sender_free = t.sender_free;
    }
    Request& q = requests_[id];
    q.known = true;
    q.start = now;
    q.complete = sender_free;
  }
  // Match the earliest-posted receive of the destination that accepts (lp, tag): the first
  // acceptable one of its named-source queue for lp or of its any-source queue, by post order.
  Rank& d = ranks_[static_cast<std::size_t>(dst)];
  Fifo* named_fifo = nullptr;
  Found named;
  if (Fifo* f = posted_by_pair_.find(pair_key(dst, m.src)); f != nullptr) {
    named_fifo = f;
    named = first_accepting(*named_fifo, tag);
  }
  const Found wild = first_accepting(d.any_posted, tag);
  if (named.id != none || wild.id != none) {
    const bool take_named = named.id != none && (wild.id == none || requests_[named.id].seq < requests_[wild.id].seq);
    const Found& found = take_named ? named : wild;
    remove_request(take_named ? *named_fifo : d.any_posted, found);
    if (take_named && named_fifo->head == none) posted_by_pair_.erase(pair_key(dst, m.src));  // pairs in flight only
    --d.posted_count;
    deliver(mid, found.id, s);
    return id;
  }
  // Unexpected: append to the destination's arrival-order queue and to its (dst, src) queue.
  Message& um = messages_[mid];
  um.next = none;
  um.pnext = none;
  um.prev = d.unexpected_tail;
  if (d.unexpected_tail == none)
    d.unexpected_head = mid;
  else
    messages_[d.unexpected_tail].next = mid;
  d.unexpected_tail = mid;
  Fifo& pf = unexpected_by_pair_[pair_key(dst, um.src)];
  if (pf.tail == none)
    pf.head = mid;
  else
    messages_[pf.tail].pnext = mid;
  pf.tail = mid;
  return id;
}

MpProgram::Found MpProgram::first_accepting(const Fifo& f, std::int32_t tag) const {
  for (std::uint32_t cur = f.head, prev = none; cur != none; prev = cur, cur = requests_[cur].next) {
    const std::int32_t wanted = requests_[cur].tag;
    if (wanted == engine::any_tag || wanted == tag) return Found{cur, prev};
  }
  return Found{};
}

void MpProgram::push_request(Fifo& f, std::uint32_t id) {
  requests_[id].next = none;
  if (f.tail == none)
    f.head = id;
  else
    requests_[f.tail].next = id;
  f.tail = id;
}

void MpProgram::remove_request(Fifo& f, const Found& found) {
  const std::uint32_t nxt = requests_[found.id].next;
  if (found.prev == none)
    f.head = nxt;
  else
    requests_[found.prev].next = nxt;
  if (f.tail == found.id) f.tail = found.prev;
  requests_[found.id].next = none;
}

void MpProgram::unlink_unexpected(Rank& r, std::uint32_t mid) {
  Message& m = messages_[mid];
  if (m.prev == none)
    r.unexpected_head = m.next;
  else
    messages_[m.prev].next = m.next;
  if (m.next == none)
    r.unexpected_tail = m.prev;
  else
    messages_[m.next].prev = m.prev;
  m.next = none;
  m.prev = none;
}

void MpProgram::unlink_pair_message(std::uint64_t key, std::uint32_t mid) {
  Fifo* f = unexpected_by_pair_.find(key);
  if (f == nullptr) return;
  std::uint32_t prev = none;
  for (std::uint32_t cur = f->head; cur != none; prev = cur, cur = messages_[cur].pnext) {
    if (cur != mid) continue;
    if (prev == none)
      f->head = messages_[cur].pnext;
    else
      messages_[prev].pnext = messages_[cur].pnext;
    if (f->tail == cur) f->tail = prev;
    messages_[cur].pnext = none;
    if (f->head == none) unexpected_by_pair_.erase(key);  // pairs in flight only
    return;
  }
}

std::uint32_t MpProgram::post_recv(LpId lp, std::int32_t src, std::int32_t tag, std::uint64_t bytes,
                                   engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  // Search the unexpected queue. For a named source the first match in order (non-overtaking).
  // For any source, the ParJava safe rule: take the message that arrives first, and only when no
  // other LP could still send one arriving earlier (min arrival <= every other LP's clock; the
  // conservative scheduler guarantees that once global time reaches that arrival).
  std::uint32_t best = none;
  SimTime best_key = 0;
  if (src == engine::any_peer) {
    for (std::uint32_t cur = r.unexpected_head; cur != none; cur = messages_[cur].next) {
      const Message& m = messages_[cur];
      if (!(tag == engine::any_tag || m.tag == tag)) continue;
      const SimTime key = m.priced ? m.arrival : m.sent;
      if (best == none || key < best_key) {
        best = cur;
        best_key = key;
      }
    }
  } else if (const Fifo* f = unexpected_by_pair_.find(pair_key(static_cast<std::int32_t>(lp), src)); f != nullptr) {
    for (std::uint32_t cur = f->head; cur != none; cur = messages_[cur].pnext) {
      if (tag == engine::any_tag || messages_[cur].tag == tag) {
        best = cur;
        break;
      }
    }
  }
  if (best != none && src == engine::any_peer && best_key > s.now()) {
    bool others_active = false;
    for (LpId o = 0; o < ranks_.size() && !others_active; ++o) others_active = o != lp && !ranks_[o].finished;
    if (others_active) {
      defer_until_ = best_key;  // the caller retries at that time
      return none;
    }
  }
  const std::uint32_t id = new_request();
  {
    Request& q = requests_[id];
    q.post = s.lp(lp).clock;
    q.bytes = bytes;
    q.peer = src;
    q.tag = tag;
    q.owner = lp;
    q.is_send = false;
    q.line = r.line;
    q.seq = post_seq_++;
  }
  if (best != none) {
    unlink_unexpected(r, best);
    unlink_pair_message(pair_key(static_cast<std::int32_t>(lp), messages_[best].src), best);
    deliver(best, id, s);
    return id;
  }
  ++r.posted_count;
  push_request(src == engine::any_peer ? r.any_posted : posted_by_pair_[pair_key(static_cast<std::int32_t>(lp), src)],
               id);
  return id;
}

void MpProgram::deliver(std::uint32_t mid, std::uint32_t rid, engine::Scheduler& s) {
  Message& m = messages_[mid];
  Request& rq = requests_[rid];
  if (!m.priced) {
    // The transfer starts when both sides are posted (rendezvous; eager in SimGrid's replay).
    const SimTime ready = std::max(m.sent, rq.post);
    const machines::Transfer t = machine_.transfer(m.src, static_cast<int>(rq.owner), m.bytes, ready);
    m.start = t.start;
    m.arrival = t.arrival;
    m.recv_overhead = t.recv_overhead;
    m.priced = true;
  }
  if (m.bytes > rq.bytes && (warning_count_ < 100)) {
    warn(fmt::format("{}: warning: message of {} bytes from rank {} tag {} truncated to the {} bytes posted",
                     where(rq.owner), m.bytes, m.src, m.tag, rq.bytes));
  }
  rq.start = m.start;
  rq.sent = m.sent;
  rq.matched = m.src;
  rq.complete = std::max(m.arrival, rq.post) + m.recv_overhead;
  rq.known = true;
  rq.bytes = m.bytes;
  const std::uint32_t send_req = m.send_req;
  if (send_req != none) {
    Request& sq = requests_[send_req];
    sq.matched = static_cast<std::int32_t>(rq.owner);
    sq.start = m.start;
    sq.complete = m.arrival;
    sq.known = true;
  }
  m.next = free_messages_;
  free_messages_ = mid;
  if (send_req != none) on_known(send_req, s);
  on_known(rid, s);
}

// A request became complete-known. Only requests a blocked owner waits on are counted, so that a
// rank waiting on k requests costs O(k) in all, not O(k) per completion.
void MpProgram::on_known(std::uint32_t req, engine::Scheduler& s) {
  Request& q = requests_[req];
  if (!q.in_wait) return;
  q.in_wait = false;
  Rank& r = ranks_[q.owner];
  if (--r.unknown_left > 0) return;
  SimTime done = 0, started = 0;
  if (wait_satisfied(r, done, started)) s.wake(q.owner, done);
}

bool MpProgram::wait_satisfied(const Rank& r, SimTime& done, SimTime& started, std::uint32_t* last_req) const {
  // `last_req`: the request whose transfer started last (the one waited for).
  auto over = [&](const std::vector<std::uint32_t>& ids) {
    done = 0;
    started = 0;
    bool first = true;
    for (std::uint32_t id : ids) {
      const Request& q = requests_[id];
      if (!q.known) return false;
      done = std::max(done, q.complete);
      if (first || q.start > started) {
        started = q.start;
        if (last_req != nullptr) *last_req = id;
      }
      first = false;
    }
    return true;
  };
  switch (r.wait) {
    case WaitMode::request: {
      const Request& q = requests_[r.wait_req];
      if (!q.known) return false;
      done = q.complete;
      started = q.start;
      if (last_req != nullptr) *last_req = r.wait_req;
      return true;
    }
    case WaitMode::group:
      return over(r.group);
    case WaitMode::pending:
      return over(r.pending);
    default:
      return false;
  }
}

// Messages in the wrong order: was a point-to-point message sent to this rank before `sent` (the
// awaited message's send) already there to be received while the rank waited — unexpected (no
// receive posted for it), or matched by a non-blocking receive this wait does not cover? The
// scheduler runs the steps in clock order, so every send posted before `sent` has been made.
// Messages of expanded collectives (negative tags; their requests are not pending ones) do not
// count: no receive order of the program fetches them. At most wrong_order_scan_limit queued
// messages and requests are looked at (a rank with thousands queued would make every wait cost
// as many steps); a wait that reaches the limit undecided counts as in order and is counted in
// wrong_order_capped_, which check_end_state reports.
bool MpProgram::earlier_message_there(const Rank& r, SimTime sent, std::uint32_t awaited) {
  std::uint32_t looked = 0;
  for (std::uint32_t cur = r.unexpected_head; cur != none; cur = messages_[cur].next) {
    if (++looked > wrong_order_scan_limit) {
      ++wrong_order_capped_;
      return false;
    }
    const Message& m = messages_[cur];
    if (m.tag >= 0 && m.sent < sent) return true;
  }
  if (r.wait == WaitMode::pending) return false;  // a waitall covers every pending request
  for (std::uint32_t id : r.pending) {
    if (++looked > wrong_order_scan_limit) {
      ++wrong_order_capped_;
      return false;
    }
    const Request& q = requests_[id];
    if (id != awaited && id != r.wait_req && !q.is_send && q.known && q.sent < sent) return true;
  }
  return false;
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
  emit(s, lp, r.wait_event, before, clock, waited, waited_peer, r.wait_tag, r.wait_bytes, detail);
  return StepResult::advanced;
}

StepResult MpProgram::resume(LpId lp, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  if (r.wait == WaitMode::collective) {
    const std::uint64_t seq = r.coll_seq - 1;
    auto it = collectives_.find(seq);
    Collective& c = it->second;
    SimTime& clock = s.lp(lp).clock;
    const SimTime before = r.coll_enter;
    clock = std::max(clock, c.end);
    r.wait = WaitMode::none;
    emit(s, lp, EventKind::collective, before, clock, c.max_enter - before, r.coll_root,
         static_cast<std::int32_t>(r.coll_kind), r.coll_bytes,
         static_cast<std::uint8_t>(static_cast<int>(r.coll_kind) + 1));
    if (++c.left == static_cast<std::uint32_t>(processors_)) collectives_.erase(it);
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
      clock += machine_.compute_time(static_cast<int>(lp), op.amount);
      emit(s, lp, EventKind::compute, before, clock, 0, -1, 0, 0, 0);
      return StepResult::advanced;
    }
    case OpKind::sleep:
      clock += op.amount;
      emit(s, lp, EventKind::sleep, before, clock, 0, -1, 0, 0, 0);
      return StepResult::advanced;
    case OpKind::send: {
      SimTime sender_free = 0;
      r.wait_req = post_send(lp, op.peer, op.tag, op.bytes, s, sender_free);
      return block(lp, WaitMode::request, EventKind::send, op.peer, op.tag, op.bytes, 1, s);
    }
    case OpKind::recv: {
      const std::uint32_t id = post_recv(lp, op.peer, op.tag, op.bytes, s);
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
      const std::uint32_t id = post_send(lp, op.peer, op.tag, op.bytes, s, sender_free);
      (op.kind == OpKind::isend ? r.group : r.pending).push_back(id);
      clock = std::max(clock, sender_free);
      emit(s, lp, EventKind::send, before, clock, 0, op.peer, op.tag, op.bytes, 0);
      return StepResult::advanced;
    }
    case OpKind::irecv:
    case OpKind::trace_irecv: {
      const std::uint32_t id = post_recv(lp, op.peer, op.tag, op.bytes, s);
      if (id == none) {
        --r.op_pos;
        s.resume_at(lp, defer_until_);
        return StepResult::suspended;
      }
      (op.kind == OpKind::irecv ? r.group : r.pending).push_back(id);
      emit(s, lp, EventKind::recv, before, clock, 0, op.peer, op.tag, op.bytes, 0);
      return StepResult::advanced;
    }
    case OpKind::waitall:
      return block(lp, WaitMode::group, EventKind::waitall, -1, 0, 0, 0, s);
  }
  return StepResult::advanced;
}

std::vector<engine::PerLpRecords> MpProgram::per_lp_records() const {
  std::vector<engine::PerLpRecords> records{{ranks_.data(), sizeof(Rank)}};
  const traces::MpPrefetchHints hints = trace_.prefetch_hints();
  if (hints.records != nullptr) records.push_back({hints.records, hints.record_bytes});
  if (hints.text != nullptr) records.push_back({hints.text, sizeof(const char*), true});
  return records;
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
      const std::uint64_t seq = r.coll_seq - 1;
      w.kind = engine::WaitInfo::Kind::collective;
      std::string missing;
      for (LpId o = 0; o < ranks_.size(); ++o) {
        if (ranks_[o].coll_seq <= seq) {
          w.peers.push_back(static_cast<std::int32_t>(o));
          if (w.peers.size() <= 16) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", o);
        }
      }
      what = fmt::format("collective {} #{}: ranks not yet entered: {}", engine::to_string(r.coll_kind), seq + 1,
                         missing.empty() ? std::string("none") : missing);
      break;
    }
    case WaitMode::any_source:
      what = "an any-source message";
      break;
  }
  if (r.in_collective) what += fmt::format(" inside {} #{}", engine::to_string(r.coll_kind), r.coll_seq);
  w.what = fmt::format("{} (at {})", what, where(lp));
  return w;
}

std::string MpProgram::describe(LpId lp) const {
  const Rank& r = ranks_[lp];
  std::string out = fmt::format("  trace position: {}{}\n", where(lp), r.finished ? " (finished)" : "");
  if (r.in_collective) {
    out += fmt::format("  inside collective {} #{} (op {} of {})\n", engine::to_string(r.coll_kind), r.coll_seq,
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
