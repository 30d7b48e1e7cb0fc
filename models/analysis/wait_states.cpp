// Wait-state classification on the simulated run. Point-to-point waits come from the `waited`
// part of send/recv/wait events (the program model names the peer waited for); collective waits
// from the entry times of all participants (k-th collective of every LP = the same operation,
// since TI collectives span COMM_WORLD). Messages inside expanded collectives are not counted as
// point-to-point waits: the collective's pattern accounts for them.
#include "models/analysis/wait_states.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "models/analysis/wait_state_calls.hpp"

namespace augur::models::analysis {

using engine::CollectiveKind;
using engine::EventKind;
using wait_calls::call_code;

WaitStateAnalyzer::WaitStateAnalyzer(std::uint32_t lp_count, std::uint32_t history)
    : lps_(lp_count),
      by_operation_(2 + static_cast<std::size_t>(CollectiveKind::exscan)),
      collective_seq_(lp_count, 0),
      history_(history),
      mask_(history - 1),
      heads_(lp_count),
      explained_(by_operation_.size(), 0.0),
      site_(lp_count, 0) {
  slot_.fill(no_slot);
  if (history == 0 || (history & (history - 1)) != 0 || history > full_history) {
    throw std::invalid_argument(
        fmt::format("wait-state history of {} entries: not a power of two up to {}", history, full_history));
  }
  const std::size_t slots = std::size_t{lp_count} * history;
  // One block, widest elements first (each array's size keeps the next one aligned).
  const std::size_t bytes = slots * (2 * sizeof(Span) + sizeof(double) + sizeof(std::uint32_t) + sizeof(std::uint16_t));
  std::byte* block = nullptr;
  if (bytes >= ring_pages_min_bytes) {
    ring_pages_ = std::make_unique<support::PageArena>(bytes);
    block = reinterpret_cast<std::byte*>(ring_pages_->allocate(bytes));
  } else {
    ring_heap_ = std::make_unique_for_overwrite<std::byte[]>(bytes);
    block = ring_heap_.get();
  }
  phases_ = reinterpret_cast<Span*>(block);
  waits_ = phases_ + slots;
  sync_at_ = reinterpret_cast<double*>(waits_ + slots);
  sync_with_ = reinterpret_cast<std::uint32_t*>(sync_at_ + slots);
  phase_region_ = reinterpret_cast<std::uint16_t*>(sync_with_ + slots);
}

void WaitStateAnalyzer::release_history() {
  std::vector<LpHead>().swap(heads_);
  extra_ordinals_.reset();
  std::vector<std::uint16_t>().swap(site_);
  phases_ = waits_ = nullptr;
  phase_region_ = nullptr;
  sync_at_ = nullptr;
  sync_with_ = nullptr;
  ring_pages_.reset();
  ring_heap_.reset();
}

static_assert(WaitStateAnalyzer::region_limit <= 0x10000, "a phase keeps its region in 16 bits");
static_assert(WaitStateAnalyzer::region_limit + WaitStateAnalyzer::location_limit <= 0xffff,
              "with the `location` regions, an LP keeps its current region + 1 in 16 bits");
static_assert(WaitStateAnalyzer::history_bytes(16) == 800 && WaitStateAnalyzer::history_bytes(4) == 248,
              "the bytes per LP of docs/analysis.md");

// The region of the phases between a call of code `before` and one of code `after`: created the
// first time the pair is seen (no name is built before the report asks for it).

std::uint32_t WaitStateAnalyzer::region_of(std::uint8_t before, std::uint8_t after) {
  const std::uint32_t id = region_ids_[std::size_t{before} * call_code_count + after];
  return id != 0 ? id - 1 : new_region(before, after);
}

std::uint32_t WaitStateAnalyzer::new_region(std::uint8_t before, std::uint8_t after) {
  Region r;
  r.before = before;
  r.after = after;
  r.lp = std::numeric_limits<engine::LpId>::max();
  regions_.push_back(r);
  region_ids_[std::size_t{before} * call_code_count + after] = static_cast<std::uint32_t>(regions_.size());
  return static_cast<std::uint32_t>(regions_.size() - 1);
}

// Writes the open computation phase of `lp` into its ring as a phase of `region`.
void WaitStateAnalyzer::store_phase(engine::LpId lp, std::uint32_t region) {
  LpHead& t = heads_[lp];
  const std::size_t slot = std::size_t{lp} * history_ + (t.phase_count & mask_);
  phases_[slot] = Span{t.pending_begin, t.pending_end};
  phase_region_[slot] = static_cast<std::uint16_t>(region);
  ++t.phase_count;
  t.pending = false;
}

// The number of this call among `lp`'s calls of code `call` (from 1): its counter in the header, or
// beyond the seventh code a run uses in extra_ordinals_.
std::uint32_t WaitStateAnalyzer::next_ordinal(engine::LpId lp, LpHead& t, std::uint8_t call) {
  std::uint8_t slot = slot_[call];
  if (slot == no_slot) [[unlikely]]
    slot = assign_slot(call);
  if (slot < inline_ordinals) [[likely]]
    return ++t.ordinals[slot];
  constexpr std::size_t extra = call_code_count - inline_ordinals;
  return ++extra_ordinals_[std::size_t{lp} * extra + (slot - inline_ordinals)];
}

std::uint8_t WaitStateAnalyzer::assign_slot(std::uint8_t call) {
  const std::uint8_t slot = slots_used_++;
  slot_[call] = slot;
  if (slot == inline_ordinals) {  // the first code beyond the header's: counters for the rest
    extra_ordinals_ = std::make_unique<std::uint32_t[]>(heads_.size() * (call_code_count - inline_ordinals));
  }
  return slot;
}

// Ends the computation phase before a communication call (or a `location`): inside a marked
// region, its region is that one; otherwise the pair of calls that bracket it, which remembers
// where it first ran on the lowest rank.
void WaitStateAnalyzer::close_phase(engine::LpId lp, const engine::Event& e) {
  LpHead& t = heads_[lp];
  const std::uint8_t call = call_code(e);
  const std::uint32_t ordinal = next_ordinal(lp, t, call);
  // The pair (previous call, this call): the region of the phase between them and, outside a
  // marked region, the wait site of this call.
  const std::uint32_t site = t.location != 0 ? t.location - 1U : region_of(t.prev_call, call);
  if (t.pending) {
    store_phase(lp, site);
    Region& r = regions_[site];
    if (t.location == 0 && lp < r.lp) {  // a call pair remembers where it first ran
      r.lp = lp;
      r.before_ordinal = t.prev_ordinal;
      r.after_ordinal = ordinal;
    }
  }
  site_[lp] = static_cast<std::uint16_t>(site);
  Region& r = regions_[site];
  if (lp < r.site_lp) {
    r.site_lp = lp;
    r.site_ordinal = ordinal;
  }
  t.prev_call = call;
  t.prev_ordinal = ordinal;
}

// A `location` action (interval_enter; the previous region's interval_exit came first): ends the
// phase before it like a call, then finds the region by (line, file) in the sorted locations_
// (a binary search; a region is created, and its key inserted, the first time it is entered).
void WaitStateAnalyzer::enter_location(const engine::Event& e) {
  close_phase(e.lp, e);
  const std::string_view file = location_namer_ ? location_namer_(e.lp, e.tag) : std::string_view();
  const auto before = [&](const LocationKey& k, std::int32_t line) {
    return k.line < line || (k.line == line && std::string_view(regions_[k.region].file) < file);
  };
  auto it = std::lower_bound(locations_.begin(), locations_.end(), e.tag, before);
  std::uint32_t region = 0;
  if (it != locations_.end() && it->line == e.tag && regions_[it->region].file == file) {
    region = it->region;
  } else if (locations_.size() < location_limit) {
    Region r;
    r.location = true;
    r.line = e.tag;
    r.file = std::string(file);
    regions_.push_back(std::move(r));
    region = static_cast<std::uint32_t>(regions_.size() - 1);
    locations_.insert(it, LocationKey{e.tag, region});
  } else {
    heads_[e.lp].location = 0;  // too many regions: its computation counts in call-pair phases
    return;
  }
  heads_[e.lp].location = static_cast<std::uint16_t>(region + 1);
}

void WaitStateAnalyzer::prefetch_slots(const void* self, engine::LpId lp) {
  const auto& a = *static_cast<const WaitStateAnalyzer*>(self);
  const LpHead& t = a.heads_[lp];
  const std::size_t base = std::size_t{lp} * a.history_;
  const std::size_t phase = base + (t.phase_count & a.mask_);
  const std::size_t sync = base + (t.sync_count & a.mask_);
  engine::prefetch_line(&a.phases_[phase]);
  engine::prefetch_line(&a.phase_region_[phase]);
  engine::prefetch_line(&a.sync_at_[sync]);
  engine::prefetch_line(&a.sync_with_[sync]);
  engine::prefetch_line(&a.waits_[base + (t.wait_count & a.mask_)]);
  engine::prefetch_line(&a.lps_[lp]);
}

void WaitStateAnalyzer::add_sync(engine::LpId lp, double at, std::uint32_t with) {
  LpHead& t = heads_[lp];
  const std::size_t slot = std::size_t{lp} * history_ + (t.sync_count & mask_);
  sync_at_[slot] = at;
  sync_with_[slot] = with;
  ++t.sync_count;
}

// The last synchronisation point of `lp` with `peer` at or before `before`: a collective, or a
// completion of lp's that depended on peer; with `sends`, also a message lp sent to peer before
// `before` (the sender's side of the peer's completion). 0 when none is kept.
double WaitStateAnalyzer::last_sync(engine::LpId lp, engine::LpId peer, double before, bool sends) const {
  const LpHead& t = heads_[lp];
  const std::size_t base = std::size_t{lp} * history_;
  const std::uint32_t n = std::min<std::uint32_t>(t.sync_count, history_);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::size_t slot = base + ((t.sync_count - 1 - i) & mask_);
    const double at = sync_at_[slot];
    const std::uint32_t with = sync_with_[slot];
    // A message sent to peer counts before `before` only: at `before` it is the one waited for.
    const bool match = with == sync_all || (with >> 1 == peer && ((with & 1) == 0 || (sends && at < before)));
    if (match && at <= before) return at;
  }
  return 0;
}

// H-CWP-DM: in the synchronisation interval of p and q before the wait (each from its last sync
// point with the other: see last_sync), each region's excess time on the waited-for LP q over the
// waiting LP p, t(q,c) − t(p,c) when positive (computation only: own waits excluded), is that
// region's share of p's direct waiting time (scaled down when the excesses add up to more than
// the wait).
void WaitStateAnalyzer::attribute(engine::LpId p, engine::LpId q, std::size_t op, double enter_p, double enter_q,
                                  double direct) {
  if (!(direct > 0) || p == q) return;
  const double sp = last_sync(p, q, enter_p, false);
  const double sq = last_sync(q, p, enter_q, true);
  // Time per region; only the first `used` are set (a trivial struct: the array is not zeroed,
  // which std::pair's constructor did on every call).
  struct RegionTime {
    std::uint32_t region;
    double dt;
  };
  std::array<RegionTime, 2 * full_history + 1> time;
  std::size_t used = 0;
  auto add = [&](std::uint32_t region, double dt) {
    for (std::size_t i = 0; i < used; ++i) {
      if (time[i].region == region) {
        time[i].dt += dt;
        return;
      }
    }
    time[used++] = {region, dt};
  };
  auto scan = [&](engine::LpId lp, double from, double to, double sign) {
    const LpHead& t = heads_[lp];
    const std::size_t base = std::size_t{lp} * history_;
    const std::uint32_t n = std::min<std::uint32_t>(t.phase_count, history_);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t slot = base + ((t.phase_count - 1 - i) & mask_);
      const Span& ph = phases_[slot];
      if (ph.end <= from) break;  // phases are in time order: the older ones end earlier
      const double dt = std::min(ph.end, to) - std::max(ph.begin, from);
      if (dt > 0) add(phase_region_[slot], sign * dt);
    }
  };
  scan(q, sq, enter_q, 1.0);
  scan(p, sp, enter_p, -1.0);
  double excess = 0;
  for (std::size_t i = 0; i < used; ++i) excess += std::max(0.0, time[i].dt);
  if (!(excess > 0)) return;
  const double factor = std::min(1.0, direct / excess);
  for (std::size_t i = 0; i < used; ++i) {
    if (!(time[i].dt > 0)) continue;
    Region& c = regions_[time[i].region];
    c.caused_s += time[i].dt * factor;
    c.excess_s += time[i].dt;
    ++c.waits;
  }
  explained_[op] += std::min(direct, excess);
}

// The time q spent waiting inside [begin, end], from its last history_ waits (newest first,
// stopping at the first that ended by `begin`).
double WaitStateAnalyzer::waiting_within(engine::LpId q, double begin, double end) const {
  double sum = 0;
  const LpHead& t = heads_[q];
  const std::size_t base = std::size_t{q} * history_;
  const std::uint32_t n = std::min<std::uint32_t>(t.wait_count, history_);
  for (std::uint32_t i = 0; i < n; ++i) {
    const Span& w = waits_[base + ((t.wait_count - 1 - i) & mask_)];
    if (w.end <= begin) break;
    sum += std::max(0.0, std::min(w.end, end) - std::max(w.begin, begin));
  }
  return sum;
}

void WaitStateAnalyzer::record(engine::LpId p, WaitPattern pattern, std::size_t op, std::uint32_t site, double enter_p,
                               double enter_q, engine::LpId q, bool wrong_order) {
  const double w = enter_q - enter_p;
  if (!(w > 0)) return;
  const double indirect = q == p ? 0.0 : std::min(w, waiting_within(q, enter_p, enter_q));
  lps_[p].patterns[static_cast<std::size_t>(pattern)].add(w, indirect);
  regions_[site].waited[static_cast<std::size_t>(pattern)].add(w, indirect);
  if (wrong_order) lps_[p].wrong_order.add(w, indirect);
  if (q != p) lps_[q].caused_s += w - indirect;
  by_operation_[op].add(w, indirect);
  attribute(p, q, op, enter_p, enter_q, w - indirect);
  LpHead& t = heads_[p];
  waits_[std::size_t{p} * history_ + (t.wait_count & mask_)] = Span{enter_p, enter_q};
  ++t.wait_count;
}

void WaitStateAnalyzer::on_event(const engine::Event& e) {
  if (e.internal) return;  // messages of expanded collectives: the collective is the unit
  LpHead& t = heads_[e.lp];
  if (e.kind == EventKind::compute || e.kind == EventKind::sleep || e.kind == EventKind::loop_block) {
    if (!t.pending) {
      t.pending = true;
      t.pending_begin = e.clock_before;
    }
    t.pending_end = e.clock_after;
    return;
  }
  if (e.kind == EventKind::interval_enter) {
    enter_location(e);
    return;
  }
  if (e.kind == EventKind::interval_exit) {  // the region's computation ends with it
    if (t.pending && t.location != 0) store_phase(e.lp, t.location - 1U);
    t.location = 0;
    return;
  }
  if (e.kind != EventKind::collective_end) close_phase(e.lp, e);
  classify(e);
  // Synchronisation points, for the intervals of later waits.
  const bool peer = e.peer >= 0 && static_cast<std::uint32_t>(e.peer) < lps_.size();
  const auto with = peer ? 2 * static_cast<std::uint32_t>(e.peer) : 0U;
  switch (e.kind) {
    case EventKind::send:  // completed after waiting for its receiver, or just sent
      if (peer) add_sync(e.lp, e.clock_after, e.waited > 0 ? with : with + 1);
      break;
    case EventKind::recv:  // a blocking receive completed (an irecv only posts)
      if (peer && e.base_detail() == 1) add_sync(e.lp, e.clock_after, with);
      break;
    case EventKind::wait:
    case EventKind::waitall:  // the request waited for last; an eager send's completion depends on nobody
      if (peer && (e.base_detail() != 2 || e.waited > 0)) add_sync(e.lp, e.clock_after, with);
      break;
    case EventKind::collective:
    case EventKind::collective_end:  // a collective on a sub-communicator synchronises only its members
      if (engine::collective_event_comm(e.tag) == 0) add_sync(e.lp, e.clock_after, sync_all);
      break;
    default:
      break;
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
      const bool sender_side = e.kind == EventKind::send || e.base_detail() == 2;
      record(e.lp, sender_side ? WaitPattern::late_receiver : WaitPattern::late_sender, 0, site_[e.lp], e.clock_before,
             e.clock_before + e.waited, static_cast<engine::LpId>(e.peer),
             !sender_side && (e.detail & engine::detail_wrong_order) != 0);
      return;
    }
    case EventKind::collective_begin:
    case EventKind::collective: {
      // Collectives are matched by their order on their communicator (a communicator's number
      // in the high bits of the key); on one the table does not list, they are not analysed.
      const std::int32_t comm = engine::collective_event_comm(e.tag);
      std::uint64_t* entered = &collective_seq_[e.lp];
      if (comm != 0) {
        const auto c = static_cast<std::size_t>(comm);
        if (comm < 0 || c >= comms_.size()) return;
        const auto& m = comms_[c];
        const auto at = std::find(m.begin(), m.end(), static_cast<std::int32_t>(e.lp));
        if (at == m.end()) return;
        if (comm_seq_.size() <= c) comm_seq_.resize(comms_.size());
        if (comm_seq_[c].empty()) comm_seq_[c].assign(m.size(), 0);
        entered = &comm_seq_[c][static_cast<std::size_t>(at - m.begin())];
      }
      const std::uint64_t seq = (static_cast<std::uint64_t>(comm) << 40) | (*entered)++;
      auto it = std::find_if(open_.begin(), open_.end(), [&](const auto& x) { return x.first == seq; });
      if (it == open_.end()) {
        OpenCollective c;
        c.kind = static_cast<CollectiveKind>(e.detail - 1);
        c.root = e.peer;
        c.comm = comm;
        c.enter.assign(lps_.size(), 0.0);
        c.site.assign(lps_.size(), 0);
        open_.emplace_back(seq, std::move(c));
        it = std::prev(open_.end());
      }
      it->second.enter[e.lp] = e.clock_before;
      it->second.site[e.lp] = site_[e.lp];
      const std::size_t members = comm == 0 ? lps_.size() : comms_[static_cast<std::size_t>(comm)].size();
      if (++it->second.entered == members) {
        close_collective(it->second);
        open_.erase(it);
      }
      return;
    }
    default:
      return;
  }
}

void WaitStateAnalyzer::close_collective(OpenCollective& c) {
  // The participants: every LP, or the communicator's members (LPs indexed by member).
  const std::vector<std::int32_t>* members = c.comm == 0 ? nullptr : &comms_[static_cast<std::size_t>(c.comm)];
  const auto n = static_cast<engine::LpId>(members ? members->size() : lps_.size());
  const auto lp = [&](engine::LpId i) { return members ? static_cast<engine::LpId>((*members)[i]) : i; };
  engine::LpId last = lp(0);
  for (engine::LpId i = 1; i < n; ++i) {
    if (c.enter[lp(i)] > c.enter[last]) last = lp(i);
  }
  const std::size_t op = 1 + static_cast<std::size_t>(c.kind);
  const auto root =
      static_cast<engine::LpId>(std::clamp<std::int32_t>(c.root, 0, static_cast<std::int32_t>(lps_.size()) - 1));
  switch (c.kind) {
    case CollectiveKind::barrier:
      for (engine::LpId i = 0; i < n; ++i) {
        const engine::LpId p = lp(i);
        record(p, WaitPattern::wait_at_barrier, op, c.site[p], c.enter[p], c.enter[last], last);
      }
      break;
    case CollectiveKind::reduce:
    case CollectiveKind::gather:
    case CollectiveKind::gatherv: {
      // Only the root waits for the contributors: until the last non-root entry.
      engine::LpId latest = root;
      for (engine::LpId i = 0; i < n; ++i) {
        const engine::LpId p = lp(i);
        if (p != root && (latest == root || c.enter[p] > c.enter[latest])) latest = p;
      }
      if (latest != root) {
        record(root, WaitPattern::early_reduce, op, c.site[root], c.enter[root], c.enter[latest], latest);
      }
      break;
    }
    case CollectiveKind::bcast:
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv:
      for (engine::LpId i = 0; i < n; ++i) {
        const engine::LpId p = lp(i);
        if (p != root) record(p, WaitPattern::late_broadcast, op, c.site[p], c.enter[p], c.enter[root], root);
      }
      break;
    default:
      for (engine::LpId i = 0; i < n; ++i) {
        const engine::LpId p = lp(i);
        record(p, WaitPattern::wait_at_nxn, op, c.site[p], c.enter[p], c.enter[last], last);
      }
      break;
  }
}

}  // namespace augur::models::analysis
