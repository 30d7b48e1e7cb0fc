// Chrome trace-event JSON writer and the FIFO message matcher shared with the Paraver writer.
// Trace-event format: "X" complete events (ts, dur in µs), "B"/"E" duration events, "s"/"f" flow
// events with "bp":"e" (bind to the enclosing slice), "M" metadata (process and thread names).
#include "models/report/timeline_chrome.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/collective_kind.hpp"

namespace augur::models::report {

using engine::EventKind;
using engine::SimTime;

std::int64_t to_ns(SimTime t) { return std::llround(t * 1e9); }

// ---------------------------------------------------------------------------------------------
// MessageMatcher

void MessageMatcher::on_event(const engine::Event& e, std::vector<MatchedMessage>& out) {
  if (e.lp >= lps_.size()) return;
  const bool internal = e.internal != 0;
  switch (e.kind) {
    case EventKind::send: {
      on_send(e, out);
      if (e.base_detail() == 0) lps_[e.lp].pending.push_back(Pending{0, e.peer, e.tag, true, internal});
      break;
    }
    case EventKind::recv: {
      const std::uint64_t id = on_post(e);
      if (e.base_detail() == 1) {
        complete(id, e, out);
      } else {
        lps_[e.lp].pending.push_back(Pending{id, e.peer, e.tag, false, internal});
      }
      break;
    }
    case EventKind::wait: {
      auto& pending = lps_[e.lp].pending;
      auto it = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) {
        return p.peer == e.peer && p.tag == e.tag && p.internal == internal;
      });
      if (it == pending.end()) break;
      if (!it->is_send) complete(it->id, e, out);
      pending.erase(it);
      break;
    }
    case EventKind::waitall: {
      auto& pending = lps_[e.lp].pending;
      for (const Pending& p : pending) {
        if (p.internal == internal && !p.is_send) complete(p.id, e, out);
      }
      std::erase_if(pending, [&](const Pending& p) { return p.internal == internal; });
      break;
    }
    case EventKind::finish: {
      auto& pending = lps_[e.lp].pending;
      for (const Pending& p : pending) {
        if (!p.is_send) forget(p.id);
      }
      pending.clear();
      pending.shrink_to_fit();
      break;
    }
    default:
      break;
  }
}

void MessageMatcher::on_send(const engine::Event& e, std::vector<MatchedMessage>& out) {
  if (e.peer < 0 || static_cast<std::size_t>(e.peer) >= lps_.size()) return;
  const auto dst = static_cast<engine::LpId>(e.peer);
  const ChannelKey key{dst, e.lp, e.tag};
  auto fill = [&](MatchedMessage& m) {
    m.src = e.lp;
    m.dst = dst;
    m.tag = e.tag;
    m.bytes = e.bytes;
    m.send_call = e.clock_before;
    m.send_start = e.clock_before + e.waited;
    m.internal = e.internal != 0;
  };
  auto it = channels_.find(key);
  if (it != channels_.end() && !it->second.posts.empty()) {
    // The receive was posted first: this send is its message.
    const std::uint64_t id = it->second.posts.front();
    it->second.posts.pop_front();
    erase_if_empty(it);
    auto h = halves_.find(id);
    if (h->second.dead) {
      halves_.erase(h);
      ++dropped_;
      return;
    }
    fill(h->second.m);
    h->second.has_send = true;
    if (h->second.has_done) {
      out.push_back(h->second.m);
      halves_.erase(h);
    }
    return;
  }
  if (lps_[dst].wildcard) {
    ++dropped_;
    return;
  }
  const std::uint64_t id = next_id_++;
  Half& h = halves_[id];
  h.m.id = id;
  fill(h.m);
  h.has_send = true;
  channels_[key].sends.push_back(id);
}

std::uint64_t MessageMatcher::on_post(const engine::Event& e) {
  if (e.peer == engine::any_peer || e.tag == engine::any_tag) {
    make_wildcard(e.lp);
    return 0;
  }
  if (e.peer < 0 || static_cast<std::size_t>(e.peer) >= lps_.size() || lps_[e.lp].wildcard) return 0;
  const auto src = static_cast<engine::LpId>(e.peer);
  const ChannelKey key{e.lp, src, e.tag};
  auto it = channels_.find(key);
  if (it != channels_.end() && !it->second.sends.empty()) {
    const std::uint64_t id = it->second.sends.front();
    it->second.sends.pop_front();
    erase_if_empty(it);
    Half& h = halves_.at(id);
    h.m.recv_call = e.clock_before;
    h.has_post = true;
    return id;
  }
  const std::uint64_t id = next_id_++;
  Half& h = halves_[id];
  h.m.id = id;
  h.m.src = src;
  h.m.dst = e.lp;
  h.m.tag = e.tag;
  h.m.recv_call = e.clock_before;
  h.m.internal = e.internal != 0;
  h.has_post = true;
  channels_[key].posts.push_back(id);
  return id;
}

void MessageMatcher::complete(std::uint64_t id, const engine::Event& e, std::vector<MatchedMessage>& out) {
  if (id == 0) return;
  auto h = halves_.find(id);
  if (h == halves_.end()) return;
  h->second.m.recv_start = std::min(e.clock_before + e.waited, e.clock_after);
  h->second.m.recv_done = e.clock_after;
  h->second.has_done = true;
  if (h->second.has_send) {
    out.push_back(h->second.m);
    halves_.erase(h);
  }
}

void MessageMatcher::forget(std::uint64_t id) {
  if (id == 0) return;
  auto h = halves_.find(id);
  if (h == halves_.end()) return;
  if (h->second.has_send) {
    halves_.erase(h);
    ++dropped_;
  } else {
    h->second.dead = true;  // still queued as a post: the next send of its channel is consumed by it
  }
}

void MessageMatcher::make_wildcard(engine::LpId dst) {
  if (lps_[dst].wildcard) return;
  lps_[dst].wildcard = true;
  // Sends already queued for this rank may be the wildcard's message or a later receive's: the
  // k-th-send rule no longer tells, so they are dropped. Receives posted before keep their order.
  auto it = channels_.lower_bound(ChannelKey{dst, 0, std::numeric_limits<std::int32_t>::min()});
  while (it != channels_.end() && it->first.dst == dst) {
    for (std::uint64_t id : it->second.sends) {
      halves_.erase(id);
      ++dropped_;
    }
    it->second.sends.clear();
    auto next = std::next(it);
    erase_if_empty(it);
    it = next;
  }
}

void MessageMatcher::erase_if_empty(std::map<ChannelKey, Channel>::iterator it) {
  if (it->second.sends.empty() && it->second.posts.empty()) channels_.erase(it);
}

SimTime MessageMatcher::earliest_pending_send() const {
  SimTime t = engine::infinite_time;
  for (const auto& [id, h] : halves_) {
    if (h.has_send) t = std::min(t, h.m.send_call);
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// ChromeTrace

namespace {

// Appends `ns` as microseconds with exactly three decimals.
void append_us(fmt::memory_buffer& b, std::int64_t ns) {
  if (ns < 0) {
    b.push_back('-');
    ns = -ns;
  }
  fmt::format_to(std::back_inserter(b), "{}.{:03}", ns / 1000, ns % 1000);
}

const char* compute_category(std::uint8_t detail) {
  switch (static_cast<engine::ComputeCategory>(detail)) {
    case engine::ComputeCategory::system:
      return "system";
    case engine::ComputeCategory::io:
      return "io";
    default:
      return "user";
  }
}

// The kind of a collective event from its detail (CollectiveKind + 1; 0 = unknown).
std::string collective_name(std::uint8_t detail) {
  if (detail == 0 || detail > static_cast<int>(engine::CollectiveKind::exscan) + 1) return "collective";
  return std::string(engine::to_string(static_cast<engine::CollectiveKind>(detail - 1)));
}

// The "args" members describing a communication event (without braces).
std::string comm_args(const engine::Event& e, const char* op) {
  std::string a = fmt::format("\"op\":\"{}\"", op);
  const bool p2p =
      e.kind == EventKind::send || e.kind == EventKind::recv || e.kind == EventKind::wait || e.kind == EventKind::test;
  if (e.peer >= 0) {
    a += fmt::format(",\"{}\":{}", p2p ? "peer" : "root", e.peer);
  } else if (e.kind == EventKind::recv) {
    a += ",\"peer\":\"any\"";
  }
  if (p2p) {
    if (e.tag == engine::any_tag) {
      a += ",\"tag\":\"any\"";
    } else {
      a += fmt::format(",\"tag\":{}", e.tag);
    }
  }
  if (e.bytes != 0) a += fmt::format(",\"bytes\":{}", e.bytes);
  if (e.internal) a += ",\"in_collective\":1";
  return a;
}

}  // namespace

ChromeTrace::ChromeTrace(const std::string& path, std::uint32_t lp_count, const std::string& title,
                         const std::string& track)
    : path_(path), temporary_(path), lps_(lp_count), matcher_(lp_count) {
  file_ = std::fopen(temporary_.name().c_str(), "wb");
  if (file_ == nullptr) {
    throw std::runtime_error(fmt::format("{}: error: cannot write the Chrome trace: {}", path, std::strerror(errno)));
  }
  auto out = std::back_inserter(buf_);
  fmt::format_to(out, "{{\"traceEvents\":[\n");
  begin_event();
  fmt::format_to(out,
                 "{{\"name\":\"process_name\",\"ph\":\"M\",\"ts\":0,\"pid\":0,\"tid\":0,"
                 "\"args\":{{\"name\":{}}}}}",
                 nlohmann::json(title).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  for (std::uint32_t lp = 0; lp < lp_count; ++lp) {
    begin_event();
    fmt::format_to(out,
                   "{{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0,\"pid\":0,\"tid\":{0},"
                   "\"args\":{{\"name\":\"{1} {0}\"}}}}",
                   lp, track);
    begin_event();
    fmt::format_to(out,
                   "{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"ts\":0,\"pid\":0,\"tid\":{0},"
                   "\"args\":{{\"sort_index\":{0}}}}}",
                   lp);
  }
  flush();
}

// A run that did not finish (an exception, an interrupt) leaves no Chrome trace: the file is
// written whole at on_finish or not at all (the temporary's destructor removes it).
ChromeTrace::~ChromeTrace() {
  if (file_ != nullptr) std::fclose(file_);
}

void ChromeTrace::begin_event() {
  if (!first_) {
    buf_.push_back(',');
    buf_.push_back('\n');
  }
  first_ = false;
}

void ChromeTrace::slice(const char* name, const char* cat, engine::LpId lp, std::int64_t begin_ns, std::int64_t end_ns,
                        const std::string& args) {
  begin_event();
  auto out = std::back_inserter(buf_);
  fmt::format_to(out, "{{\"name\":\"{}\",\"cat\":\"{}\",\"ph\":\"X\",\"ts\":", name, cat);
  append_us(buf_, begin_ns);
  fmt::format_to(out, ",\"dur\":");
  append_us(buf_, std::max<std::int64_t>(0, end_ns - begin_ns));
  fmt::format_to(out, ",\"pid\":0,\"tid\":{}", lp);
  if (!args.empty()) fmt::format_to(out, ",\"args\":{{{}}}", args);
  buf_.push_back('}');
}

// A communication step: a `waiting` slice for its `waited` part, then a `communicating` slice for
// the rest (written even when empty, so that every operation and flow end has a slice).
void ChromeTrace::communication(const engine::Event& e, const std::string& args) {
  const std::int64_t b = to_ns(e.clock_before);
  const std::int64_t a = std::max(b, to_ns(e.clock_after));
  const std::int64_t w = std::clamp(to_ns(e.clock_before + e.waited), b, a);
  if (w > b) slice("waiting", "wait", e.lp, b, w, args);
  slice("communicating", "comm", e.lp, w, a, args);
}

// The "E" closing the innermost open collective of `lp` (named like its "B", as viewers match them).
void ChromeTrace::end_collective(engine::LpId lp, std::int64_t at_ns) {
  const std::uint8_t detail = lps_[lp].open.back();
  lps_[lp].open.pop_back();
  begin_event();
  auto out = std::back_inserter(buf_);
  fmt::format_to(out, "{{\"name\":\"{}\",\"cat\":\"collective\",\"ph\":\"E\",\"ts\":", collective_name(detail));
  append_us(buf_, at_ns);
  fmt::format_to(out, ",\"pid\":0,\"tid\":{}}}", lp);
}

void ChromeTrace::flow(const MatchedMessage& m) {
  ++flows_;
  auto out = std::back_inserter(buf_);
  begin_event();
  fmt::format_to(out, "{{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":{},\"ts\":", m.id);
  append_us(buf_, to_ns(m.send_start));
  fmt::format_to(out, ",\"pid\":0,\"tid\":{}}}", m.src);
  begin_event();
  fmt::format_to(out, "{{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":{},\"ts\":", m.id);
  append_us(buf_, to_ns(m.recv_start));
  fmt::format_to(out, ",\"pid\":0,\"tid\":{}}}", m.dst);
}

// The opening of a collective's slice on its LP (closed by end_collective).
void ChromeTrace::begin_collective(const engine::Event& e, std::int64_t at_ns) {
  const std::string name = collective_name(e.detail);
  auto out = std::back_inserter(buf_);
  begin_event();
  fmt::format_to(out, "{{\"name\":\"{}\",\"cat\":\"collective\",\"ph\":\"B\",\"ts\":", name);
  append_us(buf_, at_ns);
  fmt::format_to(out, ",\"pid\":0,\"tid\":{},\"args\":{{", e.lp);
  if (e.peer >= 0) fmt::format_to(out, "\"root\":{},", e.peer);
  fmt::format_to(out, "\"bytes\":{}}}}}", e.bytes);
  lps_[e.lp].open.push_back(e.detail);
}

// An instant event where an LP enters or leaves a region.
void ChromeTrace::region_mark(const engine::Event& e, std::int64_t at_ns) {
  auto out = std::back_inserter(buf_);
  begin_event();
  fmt::format_to(out, "{{\"name\":\"{} {}\",\"cat\":\"region\",\"ph\":\"i\",\"s\":\"t\",\"ts\":",
                 e.kind == EventKind::interval_enter ? "enter region" : "leave region", e.tag);
  append_us(buf_, at_ns);
  fmt::format_to(out, ",\"pid\":0,\"tid\":{}}}", e.lp);
}

void ChromeTrace::on_event(const engine::Event& e) {
  if (closed_ || e.lp >= lps_.size()) return;
  ++events_;
  LpState& s = lps_[e.lp];
  s.last = e.clock_after;
  const std::int64_t b = to_ns(e.clock_before);
  const std::int64_t a = to_ns(e.clock_after);
  switch (e.kind) {
    case EventKind::compute:
      if (a > b) {
        slice(
            "computing", "compute", e.lp, b, a,
            fmt::format("\"category\":\"{}\"{}", compute_category(e.detail), e.internal ? ",\"in_collective\":1" : ""));
      }
      break;
    case EventKind::loop_block:
      if (a > b) slice("computing", "compute", e.lp, b, a, "\"op\":\"loop_block\"");
      break;
    case EventKind::sleep:
      if (a > b) slice("sleeping", "sleep", e.lp, b, a, "\"op\":\"sleep\"");
      break;
    case EventKind::send: {
      const char* op = e.base_detail() == 1 ? "send" : "isend";
      communication(e, comm_args(e, op));
      break;
    }
    case EventKind::recv: {
      const char* op = e.base_detail() == 1 ? "recv" : "irecv";
      communication(e, comm_args(e, op));
      break;
    }
    case EventKind::wait:
    case EventKind::waitall:
    case EventKind::test:
    case EventKind::collective_start:
    case EventKind::collective_wait:
    case EventKind::sync_all: {
      const std::string op(engine::to_string(e.kind));
      communication(e, comm_args(e, op.c_str()));
      break;
    }
    case EventKind::collective: {
      const std::string name = collective_name(e.detail);
      std::string args = e.peer >= 0 ? fmt::format("\"root\":{}", e.peer) : std::string();
      if (e.bytes != 0) args += fmt::format("{}\"bytes\":{}", args.empty() ? "" : ",", e.bytes);
      slice(name.c_str(), "collective", e.lp, b, std::max(a, b), args);
      communication(e, comm_args(e, name.c_str()));
      break;
    }
    case EventKind::collective_begin:
      begin_collective(e, b);
      break;
    case EventKind::collective_end:
      if (!s.open.empty()) {
        end_collective(e.lp, a);
      }
      break;
    case EventKind::interval_enter:
    case EventKind::interval_exit:
      region_mark(e, b);
      break;
    case EventKind::finish:
      break;
  }
  matcher_.on_event(e, matched_);
  for (const MatchedMessage& m : matched_) flow(m);
  matched_.clear();
  if (buf_.size() >= (1u << 16)) flush();
}

void ChromeTrace::on_status(engine::LpId lp, engine::LpStatus from, engine::LpStatus to, SimTime at) {
  (void)from;
  if (lp >= lps_.size()) return;
  lps_[lp].blocked_since = to == engine::LpStatus::blocked ? at : -1;
}

void ChromeTrace::on_finish(SimTime end) {
  if (!closed_) close(end);
}

void ChromeTrace::close(SimTime end) {
  closed_ = true;
  const std::int64_t end_ns = to_ns(end);
  auto out = std::back_inserter(buf_);
  for (engine::LpId lp = 0; lp < lps_.size(); ++lp) {
    LpState& s = lps_[lp];
    if (s.blocked_since >= 0 && end_ns > to_ns(s.blocked_since)) {
      slice("waiting", "wait", lp, to_ns(s.blocked_since), end_ns,
            "\"op\":\"blocked\",\"note\":\"still waiting when the run ended\"");
    }
    while (!s.open.empty()) end_collective(lp, end_ns);
  }
  fmt::format_to(out,
                 "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{{\"generator\":\"augur\",\"lp_count\":{},"
                 "\"end_time_s\":{:.9f},\"events\":{},\"messages_drawn\":{},\"messages_not_drawn\":{}}}}}\n",
                 lps_.size(), end, events_, flows_, matcher_.dropped());
  flush();
  const bool failed = std::fflush(file_) != 0 || std::ferror(file_) != 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (failed || !closed) throw std::runtime_error(fmt::format("{}: error: writing the Chrome trace failed", path_));
  temporary_.commit();
}

void ChromeTrace::flush() {
  if (file_ != nullptr && buf_.size() > 0) std::fwrite(buf_.data(), 1, buf_.size(), file_);
  buf_.clear();
}

}  // namespace augur::models::report
