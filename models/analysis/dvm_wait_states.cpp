// Wait states and root causes of a DVM run (spec section 9), from DvmProgram's events.
#include "models/analysis/dvm_wait_states.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "models/analysis/statement_key.hpp"

namespace augur::models::analysis {

using engine::ComputeCategory;
using engine::Event;
using engine::EventKind;

namespace {

constexpr std::size_t dvm_kinds = dvm_op_kinds.size();

constexpr std::size_t loop_slot = 0, code_slot = 1, system_slot = 2, io_slot = 3, communication_slot = 4;

}  // namespace

DvmWaitStates::DvmWaitStates(std::uint32_t lp_count, const std::vector<std::uint64_t>& statements, FileNamer files)
    : statements_of_(statements),
      files_(std::move(files)),
      lp_(lp_count),
      lps_(lp_count),
      by_operation_(dvm_kinds),
      explained_(dvm_kinds, 0.0) {
  statement_cache_.fill({~std::uint64_t{0}, 0});
}

// Compute events (most of a run's) here, the others in on_other_event: the short path then
// saves no registers for the long one.
void DvmWaitStates::on_event(const Event& e) {
  if (e.kind != EventKind::compute) [[unlikely]] {
    on_other_event(e);
    return;
  }
  const double dt = e.clock_after - e.clock_before;
  if (e.tag == 0 || !(dt > 0)) return;  // tag 0: a loss without time (replicated assignment)
  const auto cat = static_cast<ComputeCategory>(e.detail);
  add(e.lp, cat == ComputeCategory::io ? io_slot : cat == ComputeCategory::system ? system_slot : code_slot, dt);
}

void DvmWaitStates::on_other_event(const Event& e) {
  const double dt = e.clock_after - e.clock_before;
  const auto kind = static_cast<OpKind>(e.detail);
  switch (e.kind) {
    case EventKind::loop_block:
      if (dt > 0) add(e.lp, loop_slot, dt);
      break;
    case EventKind::sync_all:
      // tag 0: the model levels the members of a processor system to the latest one, `peer`;
      // tags 1–3 are potential losses that move no clock.
      if (e.tag != 0 || e.peer < 0) break;
      if (static_cast<std::size_t>(e.detail) >= dvm_kinds) break;
      if (dt > 0 && static_cast<engine::LpId>(e.peer) != e.lp) {
        wait(e.lp, static_cast<engine::LpId>(e.peer),
             kind == OpKind::reduction ? WaitPattern::wait_at_nxn : WaitPattern::wait_at_barrier, kind, e.clock_before,
             e.clock_after);
      }
      synchronise(e.lp, e.clock_after);
      break;
    case EventKind::collective_wait:
      if (static_cast<std::size_t>(e.detail) >= dvm_kinds) break;
      if (e.peer >= 0) {
        // A completion that depended on processor `peer`'s entry (3.1's reduction): waiting
        // until then, transfer afterwards.
        const double waited = std::clamp(e.waited, 0.0, std::max(0.0, dt));
        if (waited > 0 && static_cast<engine::LpId>(e.peer) != e.lp) {
          wait(e.lp, static_cast<engine::LpId>(e.peer), WaitPattern::late_broadcast, kind, e.clock_before,
               e.clock_before + waited);
        }
        synchronise(e.lp, e.clock_before + waited);
        if (dt - waited > 0) add(e.lp, communication_slot + e.detail, dt - waited);
      } else if (dt > 0) {
        add(e.lp, communication_slot + e.detail, dt);
      }
      break;
    default:
      break;
  }
}

// Time of `lp` in a slot of the statement it is replaying. Consecutive events of a processor
// mostly stay in one statement: they add to `pending`; a new statement moves it into `open`.
void DvmWaitStates::add(engine::LpId lp, std::size_t slot, double dt) {
  Lp& l = lp_[lp];
  const std::uint64_t key = lp < statements_of_.size() ? statements_of_[lp] : 0;
  if (key != l.key) [[unlikely]]
    enter_statement(l, key);
  l.pending[slot] += dt;
  l.has_pending = true;
}

void DvmWaitStates::enter_statement(Lp& l, std::uint64_t key) {
  flush(l);
  l.key = key;
  l.statement = statement_index(key);
}

// The statement index of `key` (file, line): from the cache, else from statements_, creating the
// statement's regions the first time it is seen (so regions are numbered in order of first sight).
std::uint32_t DvmWaitStates::statement_index(std::uint64_t key) {
  auto& cached = statement_cache_[(key ^ (key >> 40)) & (statement_cache_size - 1)];
  if (cached.first == key) return cached.second;
  {
    auto [it, fresh] = statements_.try_emplace(key, static_cast<std::uint32_t>(regions_.size() / slots));
    if (fresh) {
      for (std::size_t k = 0; k < slots; ++k) {
        Region r;
        r.file = statement_file(key);
        r.line = statement_line(key);
        r.part = k == loop_slot     ? Part::loop
                 : k == code_slot   ? Part::code
                 : k == system_slot ? Part::system
                 : k == io_slot     ? Part::io
                                    : Part::communication;
        if (r.part == Part::communication) r.kind = dvm_op_kinds[k - communication_slot];
        regions_.push_back(r);
      }
    }
    if (key != ~std::uint64_t{0}) cached = {key, it->second};
    return it->second;
  }
}

// Adds `dt` to `region` in the open stretch (appended the first time: `open` keeps the order
// regions were first met in).
void DvmWaitStates::add_open(Lp& l, std::uint32_t region, double dt) {
  if (region >= l.open_at.size()) l.open_at.resize(std::max<std::size_t>(region + 1, regions_.size()), 0);
  std::uint32_t& at = l.open_at[region];
  if (at != 0) {
    l.open[at - 1].second += dt;
  } else {
    l.open.emplace_back(region, dt);
    at = static_cast<std::uint32_t>(l.open.size());
  }
}

double DvmWaitStates::open_time(const Lp& l, std::uint32_t region) {
  if (region >= l.open_at.size() || l.open_at[region] == 0) return 0;
  return l.open[l.open_at[region] - 1].second;
}

void DvmWaitStates::flush(Lp& l) {
  if (!l.has_pending) return;
  for (std::size_t k = 0; k < slots; ++k) {
    if (l.pending[k] != 0) {
      add_open(l, static_cast<std::uint32_t>(l.statement * slots + k), l.pending[k]);
      l.pending[k] = 0;
    }
  }
  l.has_pending = false;
}

// A synchronisation point of `lp` at `at`: the stretch since the previous one is closed (kept
// for the waits of this synchronisation that other processors have on it) and a new one opens.
void DvmWaitStates::synchronise(engine::LpId lp, double at) {
  Lp& l = lp_[lp];
  flush(l);
  for (const auto& entry : l.open) l.open_at[entry.first] = 0;
  l.closed.swap(l.open);
  l.open.clear();
  l.synced_at = at;
}

void DvmWaitStates::wait(engine::LpId p, engine::LpId q, WaitPattern pattern, OpKind kind, double begin, double end) {
  const double w = end - begin;
  const double indirect = std::min(w, waiting_within(q, begin, end));
  const auto op = static_cast<std::size_t>(kind);
  lps_[p].patterns[static_cast<std::size_t>(pattern)].add(w, indirect);
  by_operation_[op].add(w, indirect);
  if (q != p) lps_[q].caused_s += w - indirect;
  // The site: p's statement, the communication region of this kind.
  const std::uint64_t key = p < statements_of_.size() ? statements_of_[p] : 0;
  regions_[statement_index(key) * slots + communication_slot + op].waited[static_cast<std::size_t>(pattern)].add(
      w, indirect);

  // H-CWP-DM: q's stretch that ends at its entry `end` — closed already if q's own event of this
  // synchronisation came first (its synchronisation point is then after p's entry), else still
  // open — against p's open stretch.
  const double direct = w - indirect;
  Lp& lq = lp_[q];
  flush(lq);
  flush(lp_[p]);
  const Times& tq = lq.synced_at > begin ? lq.closed : lq.open;
  const Lp& lpp = lp_[p];
  double excess = 0;
  for (const auto& [r, t] : tq) excess += std::max(0.0, t - open_time(lpp, r));
  if (direct > 0 && excess > 0) {
    const double factor = std::min(1.0, direct / excess);
    for (const auto& [r, t] : tq) {
      const double x = t - open_time(lpp, r);
      if (!(x > 0)) continue;
      Region& c = regions_[r];
      c.caused_s += x * factor;
      c.excess_s += x;
      ++c.waits;
    }
    explained_[op] += std::min(direct, excess);
  }

  Lp& lp = lp_[p];
  lp.ring[lp.waits % wait_ring] = Span{begin, end};
  ++lp.waits;
}

// The time q spent waiting inside [begin, end], from its last wait_ring waits.
double DvmWaitStates::waiting_within(engine::LpId q, double begin, double end) const {
  const Lp& l = lp_[q];
  double sum = 0;
  const std::uint32_t n = std::min<std::uint32_t>(l.waits, wait_ring);
  for (std::uint32_t i = 0; i < n; ++i) {
    const Span& s = l.ring[(l.waits - 1 - i) % wait_ring];
    if (s.end <= begin) break;
    sum += std::max(0.0, std::min(s.end, end) - std::max(s.begin, begin));
  }
  return sum;
}

// "jac1d.cdv:40" ("line 40" without a file name).
std::string DvmWaitStates::statement_name(const Region& r) const {
  const std::string file = files_ ? files_(r.file) : std::string();
  return file.empty() ? fmt::format("line {}", r.line) : fmt::format("{}:{}", file, r.line);
}

// A communication region's kind as a sentence reads it: "reduction", "I/O".
std::string DvmWaitStates::kind_name(OpKind k) {
  std::string kind(title(k));
  if (k != OpKind::io) kind[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(kind[0])));
  return kind;
}

std::string DvmWaitStates::region_name(const Region& r) const {
  const std::string where = statement_name(r);
  switch (r.part) {
    case Part::loop:
      return "parallel loop at " + where;
    case Part::code:
      return "sequential code at " + where;
    case Part::system:
      return "run-time system at " + where;
    case Part::io:
      return "I/O at " + where;
    case Part::communication:
      return fmt::format("{} communication at {}", kind_name(r.kind), where);
  }
  return where;
}

std::vector<WaitSite> DvmWaitStates::sites() const {
  std::vector<WaitSite> out;
  for (const Region& r : regions_) {
    WaitSite site;
    site.patterns = r.waited;
    if (site.count() == 0) continue;
    site.name = fmt::format("{} at {}", kind_name(r.kind), statement_name(r));
    out.push_back(std::move(site));
  }
  sort_sites(out);
  return out;
}

std::vector<RegionCause> DvmWaitStates::causes() const {
  return causes_of(regions_, [this](const Region& r) { return region_name(r); });
}

}  // namespace augur::models::analysis
