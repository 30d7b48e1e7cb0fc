// The message-passing model's matching and protocols. Matching (MPI 3.1 section 3.5): a receive
// matches the first message in arrival order from the named source (or any) with the named tag
// (or any) on the same communicator; messages of one sender never overtake. Protocols: eager (size <= threshold: the
// sender continues) and rendezvous (the sender waits until the message is delivered; the
// transfer starts when both sides are posted).
#include <algorithm>
#include <numeric>
#include <fmt/format.h>

#include "models/mp/mp_program.hpp"

namespace augur::models::mp {

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

std::uint32_t MpProgram::post_send(LpId lp, std::int32_t dst, std::int32_t tag, std::int32_t comm, std::uint64_t bytes,
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
    q.comm = comm;
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
  m.comm = comm;
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
    named = first_accepting(*named_fifo, tag, comm);
  }
  const Found wild = first_accepting(d.any_posted, tag, comm);
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

std::uint32_t MpProgram::next_post_seq() {
  if (post_seq_ >= options_.post_order_limit) {
    // Only the order of posted receives matters, and it is kept: requests sorted by their number
    // (a stable sort) are numbered again from 0. There are far fewer requests than numbers.
    std::vector<std::uint32_t> order(requests_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return requests_[a].seq < requests_[b].seq; });
    for (std::uint32_t k = 0; k < order.size(); ++k) requests_[order[k]].seq = k;
    post_seq_ = static_cast<std::uint32_t>(order.size());
  }
  return post_seq_++;
}

MpProgram::Found MpProgram::first_accepting(const Fifo& f, std::int32_t tag, std::int32_t comm) const {
  for (std::uint32_t cur = f.head, prev = none; cur != none; prev = cur, cur = requests_[cur].next) {
    const std::int32_t wanted = requests_[cur].tag;
    if (requests_[cur].comm == comm && (wanted == engine::any_tag || wanted == tag)) return Found{cur, prev};
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

std::uint32_t MpProgram::post_recv(LpId lp, std::int32_t src, std::int32_t tag, std::int32_t comm, std::uint64_t bytes,
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
      if (m.comm != comm || !(tag == engine::any_tag || m.tag == tag)) continue;
      const SimTime key = m.priced ? m.arrival : m.sent;
      if (best == none || key < best_key) {
        best = cur;
        best_key = key;
      }
    }
  } else if (const Fifo* f = unexpected_by_pair_.find(pair_key(static_cast<std::int32_t>(lp), src)); f != nullptr) {
    for (std::uint32_t cur = f->head; cur != none; cur = messages_[cur].pnext) {
      if (messages_[cur].comm == comm && (tag == engine::any_tag || messages_[cur].tag == tag)) {
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
    q.comm = comm;
    q.owner = lp;
    q.is_send = false;
    q.line = r.line;
    q.seq = next_post_seq();
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
  // The transfer starts when both sides are posted (rendezvous; eager in SimGrid's replay).
  const SimTime ready = std::max(m.sent, rq.post);
  bool as_flow = false;
  if (!m.priced && flows_ != nullptr) {
    // A flow of the machine's network: its arrival is an event (fire_events completes it).
    const std::uint32_t flow = flows_->start_flow(m.src, static_cast<int>(rq.owner), m.bytes, ready);
    if (flow >= in_flight_.size()) in_flight_.resize(flow + 1);
    in_flight_[flow] = InFlight{m.send_req, rid};
    m.start = ready;
    m.recv_overhead = 0;
    as_flow = true;
  } else if (!m.priced) {
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
  rq.bytes = m.bytes;
  const std::uint32_t send_req = m.send_req;
  if (send_req != none) {
    Request& sq = requests_[send_req];
    sq.matched = static_cast<std::int32_t>(rq.owner);
    sq.start = m.start;
  }
  const SimTime arrival = m.arrival;
  const SimTime recv_overhead = m.recv_overhead;
  m.next = free_messages_;
  free_messages_ = mid;
  if (!as_flow) complete_transfer(send_req, rid, arrival, recv_overhead, s);
}

void MpProgram::complete_transfer(std::uint32_t send_req, std::uint32_t rid, SimTime arrival, SimTime recv_overhead,
                                  engine::Scheduler& s) {
  Request& rq = requests_[rid];
  rq.complete = std::max(arrival, rq.post) + recv_overhead;
  rq.known = true;
  if (send_req != none) {
    Request& sq = requests_[send_req];
    sq.complete = arrival;
    sq.known = true;
  }
  if (send_req != none) on_known(send_req, s);
  on_known(rid, s);
}

void MpProgram::fire_events(SimTime now, engine::Scheduler& s) {
  finished_flows_.clear();
  flows_->complete_until(now, finished_flows_);
  for (const std::uint32_t flow : finished_flows_) {
    if (flow >= in_flight_.size() || in_flight_[flow].recv == none) continue;  // priced by transfer()
    const InFlight done = in_flight_[flow];
    in_flight_[flow] = InFlight{};
    complete_transfer(done.send_req, done.recv, now, 0, s);
  }
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

}  // namespace augur::models::mp
