// Wait-state classification on the simulated run. Point-to-point waits come from the `waited`
// part of send/recv/wait events (the program model names the peer waited for); collective waits
// from the entry times of all participants (k-th collective of every LP = the same operation,
// since TI collectives span COMM_WORLD). Messages inside expanded collectives are not counted as
// point-to-point waits: the collective's pattern accounts for them.
#include "models/analysis/wait_states.hpp"

#include <algorithm>

namespace augur::models::analysis {

using engine::CollectiveKind;
using engine::EventKind;

namespace {
constexpr std::size_t history_limit = 64;  // wait intervals kept per LP for indirect-wait queries
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
      collective_seq_(lp_count, 0) {}

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
  auto& h = history_[p];
  if (h.size() >= history_limit) h.erase(h.begin());
  h.push_back(Interval{enter_p, enter_q});
}

void WaitStateAnalyzer::on_event(const engine::Event& e) {
  switch (e.kind) {
    case EventKind::recv:
    case EventKind::wait:
    case EventKind::waitall:
    case EventKind::send: {
      if (e.internal || !(e.waited > 0) || e.peer < 0 || static_cast<std::uint32_t>(e.peer) >= lps_.size()) return;
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

LpWaits WaitStateAnalyzer::totals() const {
  LpWaits t;
  for (const LpWaits& l : lps_) {
    for (std::size_t i = 0; i < wait_pattern_count; ++i) {
      t.patterns[i].total_s += l.patterns[i].total_s;
      t.patterns[i].indirect_s += l.patterns[i].indirect_s;
      t.patterns[i].count += l.patterns[i].count;
    }
  }
  return t;
}

}  // namespace augur::models::analysis
