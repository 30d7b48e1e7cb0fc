// Wait-state classification on the simulated run. Point-to-point waits come from the `waited`
// part of send/recv/wait events (the program model names the peer waited for); collective waits
// from the entry times of all participants (k-th collective of every LP = the same operation,
// since TI collectives span COMM_WORLD). Messages inside expanded collectives are not counted as
// point-to-point waits: the collective's pattern accounts for them.
#include "models/analysis/wait_states.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace augur::models::analysis {

using engine::CollectiveKind;
using engine::EventKind;

namespace {
constexpr std::size_t history_limit = 16;  // wait intervals kept per LP for indirect-wait queries

std::string call_signature(const engine::Event& e) {
  switch (e.kind) {
    case EventKind::send: return e.peer >= 0 ? fmt::format("send to {} tag {}", e.peer, e.tag) : "send";
    case EventKind::recv: return e.peer >= 0 ? fmt::format("recv from {} tag {}", e.peer, e.tag) : "recv";
    case EventKind::wait: return "wait";
    case EventKind::waitall: return "waitall";
    case EventKind::test: return "test";
    case EventKind::collective:
    case EventKind::collective_begin:
    case EventKind::collective_end:
      return std::string(engine::to_string(static_cast<CollectiveKind>(e.detail - 1)));
    case EventKind::finish: return "the end";
    default: return std::string(engine::to_string(e.kind));
  }
}
}

std::string_view to_string(WaitPattern pattern) {
  switch (pattern) {
    case WaitPattern::late_sender: return "late_sender";
    case WaitPattern::late_receiver: return "late_receiver";
    case WaitPattern::wait_at_barrier: return "wait_at_barrier";
    case WaitPattern::early_reduce: return "early_reduce";
    case WaitPattern::late_broadcast: return "late_broadcast";
    case WaitPattern::wait_at_nxn: return "wait_at_nxn";
  }
  return "?";
}

double LpWaits::total_s() const {
  double t = 0;
  for (const WaitAmount& a : patterns) t += a.total_s;
  return t;
}

WaitStateAnalyzer::WaitStateAnalyzer(std::uint32_t lp_count)
    : lps_(lp_count), by_operation_(2 + static_cast<std::size_t>(CollectiveKind::exscan)), history_(lp_count),
      collective_seq_(lp_count, 0), traces_(lp_count), explained_(by_operation_.size(), 0.0) {
  call_names_.push_back("the start");
  call_ids_.emplace("the start", 0);
}

std::uint32_t WaitStateAnalyzer::intern(std::map<std::string, std::uint32_t>& table, std::vector<std::string>& names,
                                        std::string name) {
  auto [it, inserted] = table.emplace(name, static_cast<std::uint32_t>(names.size()));
  if (inserted) names.push_back(std::move(name));
  return it->second;
}

// Ends the computation phase before a communication call: its region is named by the calls that
// bracket it. Completions of blocking operations are synchronisation points.
void WaitStateAnalyzer::close_phase(engine::LpId lp, const engine::Event& e) {
  LpTrace& t = traces_[lp];
  // The key holds exactly what call_signature prints, so equal keys are equal names.
  std::uint64_t kind = static_cast<std::uint64_t>(e.kind);
  std::uint64_t detail = 0, where = 0;
  if (e.kind == EventKind::send || e.kind == EventKind::recv) {
    where = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.peer)) << 32) |
            static_cast<std::uint32_t>(e.tag);
  } else if (e.kind == EventKind::collective || e.kind == EventKind::collective_begin ||
             e.kind == EventKind::collective_end) {
    kind = static_cast<std::uint64_t>(EventKind::collective);
    detail = e.detail;
  }
  const auto key = std::make_pair((kind << 8) | detail, where);
  auto cached = call_cache_.find(key);
  if (cached == call_cache_.end()) {
    cached = call_cache_.emplace(key, intern(call_ids_, call_names_, call_signature(e))).first;
  }
  const std::uint32_t call = cached->second;
  if (t.pending) {
    const std::uint64_t region_key = (static_cast<std::uint64_t>(t.prev_call) << 32) | call;
    auto found = region_cache_.find(region_key);
    if (found == region_cache_.end()) {
      const std::uint32_t id = intern(region_ids_, region_names_,
                                      fmt::format("compute between {} and {}", call_names_[t.prev_call], call_names_[call]));
      found = region_cache_.emplace(region_key, id).first;
    }
    const std::uint32_t region = found->second;
    if (regions_.size() < region_names_.size()) regions_.resize(region_names_.size());
    regions_[region].name = region_names_[region];
    t.phases[t.phase_count % phase_ring] = Phase{t.pending_begin, t.pending_end, region};
    ++t.phase_count;
    t.pending = false;
  }
  t.prev_call = call;
}

double WaitStateAnalyzer::last_sync(engine::LpId lp, double before) const {
  const LpTrace& t = traces_[lp];
  double best = 0;
  const std::uint32_t n = std::min<std::uint32_t>(t.sync_count, sync_ring);
  for (std::uint32_t i = 0; i < n; ++i) {
    const double s = t.syncs[(t.sync_count - 1 - i) % sync_ring];
    if (s <= before) best = std::max(best, s);
  }
  return best;
}

// H-CWP-DM: in the synchronisation interval before the wait, each region's excess time on the
// waited-for LP q over the waiting LP p, t(q,c) − t(p,c) when positive (computation only: own waits
// excluded), is that region's share of p's direct waiting time (scaled down when the excesses
// add up to more than the wait).
void WaitStateAnalyzer::attribute(engine::LpId p, engine::LpId q, std::size_t op, double enter_p, double enter_q,
                                  double direct) {
  if (!(direct > 0) || p == q) return;
  const double sp = last_sync(p, enter_p);
  const double sq = last_sync(q, enter_q);
  std::array<std::pair<std::uint32_t, double>, 2 * phase_ring> time{};
  std::size_t used = 0;
  auto add = [&](std::uint32_t region, double dt) {
    for (std::size_t i = 0; i < used; ++i) {
      if (time[i].first == region) {
        time[i].second += dt;
        return;
      }
    }
    time[used++] = {region, dt};
  };
  auto scan = [&](engine::LpId lp, double from, double to, double sign) {
    const LpTrace& t = traces_[lp];
    const std::uint32_t n = std::min<std::uint32_t>(t.phase_count, phase_ring);
    for (std::uint32_t i = 0; i < n; ++i) {
      const Phase& ph = t.phases[(t.phase_count - 1 - i) % phase_ring];
      const double dt = std::min(ph.end, to) - std::max(ph.begin, from);
      if (dt > 0) add(ph.region, sign * dt);
    }
  };
  scan(q, sq, enter_q, 1.0);
  scan(p, sp, enter_p, -1.0);
  double excess = 0;
  for (std::size_t i = 0; i < used; ++i) excess += std::max(0.0, time[i].second);
  if (!(excess > 0)) return;
  const double factor = std::min(1.0, direct / excess);
  for (std::size_t i = 0; i < used; ++i) {
    if (!(time[i].second > 0)) continue;
    RegionCause& c = regions_[time[i].first];
    c.caused_s += time[i].second * factor;
    c.excess_s += time[i].second;
    ++c.waits;
  }
  explained_[op] += std::min(direct, excess);
}

std::vector<RegionCause> WaitStateAnalyzer::causes() const {
  std::vector<RegionCause> out;
  for (const RegionCause& c : regions_) {
    if (c.caused_s > 0) out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const RegionCause& a, const RegionCause& b) {
    return a.caused_s > b.caused_s || (a.caused_s == b.caused_s && a.name < b.name);
  });
  return out;
}

double WaitStateAnalyzer::waiting_within(engine::LpId q, double begin, double end) const {
  double sum = 0;
  const auto& h = history_[q];
  for (auto it = h.rbegin(); it != h.rend(); ++it) {
    if (it->end <= begin) break;
    sum += std::max(0.0, std::min(it->end, end) - std::max(it->begin, begin));
  }
  return sum;
}

void WaitStateAnalyzer::record(engine::LpId p, WaitPattern pattern, std::size_t op, double enter_p, double enter_q,
                               engine::LpId q) {
  const double w = enter_q - enter_p;
  if (!(w > 0)) return;
  const double indirect = q == p ? 0.0 : std::min(w, waiting_within(q, enter_p, enter_q));
  WaitAmount& a = lps_[p].patterns[static_cast<std::size_t>(pattern)];
  a.total_s += w;
  a.indirect_s += indirect;
  ++a.count;
  WaitAmount& o = by_operation_[op];
  o.total_s += w;
  o.indirect_s += indirect;
  ++o.count;
  attribute(p, q, op, enter_p, enter_q, w - indirect);
  auto& h = history_[p];
  if (h.size() >= history_limit) h.erase(h.begin());
  h.push_back(Interval{enter_p, enter_q});
}

void WaitStateAnalyzer::on_event(const engine::Event& e) {
  if (e.internal) return;  // messages of expanded collectives: the collective is the unit
  LpTrace& t = traces_[e.lp];
  if (e.kind == EventKind::compute || e.kind == EventKind::sleep || e.kind == EventKind::loop_block) {
    if (!t.pending) {
      t.pending = true;
      t.pending_begin = e.clock_before;
    }
    t.pending_end = e.clock_after;
    return;
  }
  if (e.kind == EventKind::interval_enter || e.kind == EventKind::interval_exit) return;
  if (e.kind != EventKind::collective_end) close_phase(e.lp, e);
  const bool completes = e.kind == EventKind::recv || e.kind == EventKind::wait || e.kind == EventKind::waitall ||
                         e.kind == EventKind::collective || e.kind == EventKind::collective_end ||
                         (e.kind == EventKind::send && e.waited > 0);  // an eager send synchronises nothing
  classify(e);
  if (completes) {
    t.syncs[t.sync_count % sync_ring] = e.clock_after;
    ++t.sync_count;
  }
}

void WaitStateAnalyzer::classify(const engine::Event& e) {
  switch (e.kind) {
    case EventKind::recv:
    case EventKind::wait:
    case EventKind::waitall:
    case EventKind::send: {
      if (!(e.waited > 0) || e.peer < 0 || static_cast<std::uint32_t>(e.peer) >= lps_.size()) return;
      // A blocking send (detail 1) or a wait on a send request that waited: late receiver; any
      // other waiting completion of a receive: late sender.
      const bool sender_side = e.kind == EventKind::send || e.detail == 2;
      record(e.lp, sender_side ? WaitPattern::late_receiver : WaitPattern::late_sender, 0, e.clock_before,
             e.clock_before + e.waited, static_cast<engine::LpId>(e.peer));
      return;
    }
    case EventKind::collective_begin:
    case EventKind::collective: {
      const std::uint64_t seq = collective_seq_[e.lp]++;
      auto it = std::find_if(open_.begin(), open_.end(), [&](const auto& x) { return x.first == seq; });
      if (it == open_.end()) {
        OpenCollective c;
        c.kind = static_cast<CollectiveKind>(e.detail - 1);
        c.root = e.peer;
        c.enter.assign(lps_.size(), 0.0);
        open_.emplace_back(seq, std::move(c));
        it = std::prev(open_.end());
      }
      it->second.enter[e.lp] = e.clock_before;
      if (++it->second.entered == lps_.size()) {
        close_collective(seq, it->second);
        open_.erase(it);
      }
      return;
    }
    default:
      return;
  }
}

void WaitStateAnalyzer::close_collective(std::uint64_t, OpenCollective& c) {
  const auto n = static_cast<engine::LpId>(lps_.size());
  engine::LpId last = 0;
  for (engine::LpId i = 1; i < n; ++i) {
    if (c.enter[i] > c.enter[last]) last = i;
  }
  const std::size_t op = 1 + static_cast<std::size_t>(c.kind);
  const auto root = static_cast<engine::LpId>(std::clamp<std::int32_t>(c.root, 0, static_cast<std::int32_t>(n) - 1));
  switch (c.kind) {
    case CollectiveKind::barrier:
      for (engine::LpId p = 0; p < n; ++p) record(p, WaitPattern::wait_at_barrier, op, c.enter[p], c.enter[last], last);
      break;
    case CollectiveKind::reduce:
    case CollectiveKind::gather:
    case CollectiveKind::gatherv: {
      // Only the root waits for the contributors: until the last non-root entry.
      engine::LpId latest = root;
      for (engine::LpId i = 0; i < n; ++i) {
        if (i != root && (latest == root || c.enter[i] > c.enter[latest])) latest = i;
      }
      if (latest != root) record(root, WaitPattern::early_reduce, op, c.enter[root], c.enter[latest], latest);
      break;
    }
    case CollectiveKind::bcast:
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv:
      for (engine::LpId p = 0; p < n; ++p) {
        if (p != root) record(p, WaitPattern::late_broadcast, op, c.enter[p], c.enter[root], root);
      }
      break;
    default:
      for (engine::LpId p = 0; p < n; ++p) record(p, WaitPattern::wait_at_nxn, op, c.enter[p], c.enter[last], last);
      break;
  }
}

double LpWaits::indirect_s() const {
  double t = 0;
  for (const WaitAmount& a : patterns) t += a.indirect_s;
  return t;
}

LpWaits sum_waits(const std::vector<LpWaits>& lps) {
  LpWaits t;
  for (const LpWaits& l : lps) {
    for (std::size_t i = 0; i < wait_pattern_count; ++i) {
      t.patterns[i].total_s += l.patterns[i].total_s;
      t.patterns[i].indirect_s += l.patterns[i].indirect_s;
      t.patterns[i].count += l.patterns[i].count;
    }
  }
  return t;
}

LpWaits WaitStateAnalyzer::totals() const { return sum_waits(lps_); }

}  // namespace augur::models::analysis
