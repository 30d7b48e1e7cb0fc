// Characteristics of a message-passing run: the accounting rules, regions and phases are listed
// in the header.
#include "models/analysis/mp_characteristics.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "models/analysis/mp_phase_signature.hpp"

namespace augur::models::analysis {

using engine::CollectiveKind;
using engine::EventKind;

OpKind op_kind_of(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::barrier:
      return OpKind::barrier;
    case CollectiveKind::bcast:
      return OpKind::bcast;
    case CollectiveKind::reduce:
      return OpKind::reduce;
    case CollectiveKind::allreduce:
      return OpKind::allreduce;
    case CollectiveKind::gather:
    case CollectiveKind::gatherv:
      return OpKind::gather;
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv:
      return OpKind::scatter;
    case CollectiveKind::allgather:
    case CollectiveKind::allgatherv:
      return OpKind::allgather;
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoallv:
      return OpKind::alltoall;
    case CollectiveKind::reduce_scatter:
      return OpKind::reduce_scatter;
    case CollectiveKind::scan:
    case CollectiveKind::exscan:
      return OpKind::scan;
  }
  return OpKind::barrier;
}

bool synchronises_all(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::barrier:
    case CollectiveKind::allreduce:
    case CollectiveKind::allgather:
    case CollectiveKind::allgatherv:
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoallv:
    case CollectiveKind::reduce_scatter:
      return true;
    case CollectiveKind::bcast:
    case CollectiveKind::reduce:
    case CollectiveKind::gather:
    case CollectiveKind::gatherv:
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv:
    case CollectiveKind::scan:
    case CollectiveKind::exscan:
      return false;
  }
  return false;
}

namespace {

// Collective events carry CollectiveKind + 1 in `detail`.
CollectiveKind collective_kind(const engine::Event& e) {
  return static_cast<CollectiveKind>(e.detail > 0 ? e.detail - 1 : 0);
}

constexpr std::uint32_t bit(OpKind k) { return std::uint32_t{1} << static_cast<unsigned>(k); }

}  // namespace

MpCharacteristics::MpCharacteristics(std::uint32_t lp_count, MpCharacteristicsOptions options)
    : options_(std::move(options)), tree_(static_cast<int>(lp_count), options_.source, 0), lps_(lp_count) {
  // Phase intervals, the "other phases" one and the two phases LPs can be in at once must fit.
  const std::size_t fit = options_.phase_budget / std::max<std::size_t>(lp_count, 1);
  max_phases_ = fit > 3 ? std::min(options_.max_phases, fit - 3) : 0;
  phases_ = max_phases_ > 0;
  main_.full = &tree_.root().procs;
  for (engine::LpId p = 0; p < lp_count; ++p) {
    lps_[p].signature = signature_seed;
    point_outside_regions(p);
  }
}

std::unique_ptr<MpCharacteristics::Sheet> MpCharacteristics::new_sheet() {
  auto s = std::make_unique<Sheet>();
  s->base.resize(lps_.size());
  return s;
}

// The figures of operation kind `kind` in `s`, one per processor: allocated (zeroed) when first
// asked for.
MpCharacteristics::KindFigures* MpCharacteristics::column(Sheet& s, OpKind kind) const {
  std::vector<KindFigures>& c = s.kinds[static_cast<std::size_t>(kind)];
  if (c.empty()) {
    c.resize(lps_.size());
    s.used |= bit(kind);
  }
  return c.data();
}

// Zeroes `s`, keeping its columns (a phase's successor usually has the same kinds).
void MpCharacteristics::clear(Sheet& s) {
  std::fill(s.base.begin(), s.base.end(), Base{});
  for (std::vector<KindFigures>& c : s.kinds) std::fill(c.begin(), c.end(), KindFigures{});
  s.operations = {};
}

MpCharacteristics::Pending& MpCharacteristics::pending(std::uint64_t phase) {
  auto it = pending_.find(phase);
  if (it != pending_.end()) return it->second;
  Pending& p = pending_[phase];
  if (!spare_.empty()) {
    p.figures = std::move(spare_.back());
    spare_.pop_back();
  } else {
    p.figures = new_sheet();
  }
  p.signature.assign(lps_.size(), 0);
  return p;
}

// Adds communication and waiting (kept in real_sync) of operation kind `kind` to processor `p` in
// `s`. Both 0: nothing (adding 0 changes no sum; a compact sheet gets no column for them).
void MpCharacteristics::add_communication(Sheet& s, engine::LpId p, OpKind kind, double comm, double wait) const {
  if (comm == 0 && wait == 0) return;
  on_kind(s, p, kind, [&](auto& o) {
    o.communication += comm;
    o.real_sync += wait;
  });
}

void MpCharacteristics::spill(Lp& l, engine::LpId lp) {
  Sheet& s = *l.sheet;
  if (s.full != nullptr) {
    ProcessorTimes& t = (*s.full)[lp];
    t.execution += l.execution;
    t.cpu_usr += l.cpu_usr;
    // (adding 0 changes no sum: no point-to-point column for it)
    if (l.p2p_overlap != 0) s.full->op(lp, OpKind::point_to_point).overlap += l.p2p_overlap;
  } else {
    Base& b = s.base[lp];
    b.execution += l.execution;
    b.cpu_usr += l.cpu_usr;
    b.overlap += l.p2p_overlap;
  }
  add_communication(s, lp, l.comm_kind, l.communication, l.waiting);
  s.operations[static_cast<std::size_t>(OpKind::point_to_point)] += l.sends;
  l.execution = l.cpu_usr = l.communication = l.waiting = l.p2p_overlap = 0;
  l.sends = 0;
}

void MpCharacteristics::point_outside_regions(engine::LpId lp) {
  Lp& l = lps_[lp];
  if (l.sheet != nullptr) spill(l, lp);
  l.region = nullptr;
  l.sheet = phases_ ? pending(l.phase).figures.get() : &main_;
}

// On the hot path only the operation's communication and waiting (kept in real_sync, on the
// same cache line) are added; complete() derives the rest at the end.
void MpCharacteristics::communicate(Lp& l, engine::LpId lp, OpKind kind, const engine::Event& e) {
  const double d = std::max(0.0, e.clock_after - e.clock_before);
  const double w = std::clamp(e.waited, 0.0, d);
  if (kind != l.comm_kind) [[unlikely]]
    switch_kind(l, lp, kind);
  l.communication += d;
  l.waiting += w;
}

// A collective starts or ends: the other kind's figures go to the sheet.
void MpCharacteristics::switch_kind(Lp& l, engine::LpId lp, OpKind kind) {
  add_communication(*l.sheet, lp, l.comm_kind, l.communication, l.waiting);
  l.communication = l.waiting = 0;
  l.comm_kind = kind;
}

// The figures the hot path leaves out: per operation kind waiting = real_sync and transfer =
// communication − waiting; per processor the sums over kinds (communication, real_sync,
// synchronization, variation, overlap, in OpKind order; kinds without a column add only zeros) and
// lost before idle = communication (message-passing traces have no insufficient parallelism).
void MpCharacteristics::complete(ProcessorTable& t) {
  for (ProcessorTimes& p : t) p.communication = p.real_sync = p.synchronization = p.variation = p.overlap = 0;
  for (OpKind k : all_op_kinds) {
    if (!t.has(k)) continue;
    OpTimes* column = t.add_column(k);
    for (std::size_t p = 0; p < t.size(); ++p) {
      OpTimes& o = column[p];
      ProcessorTimes& s = t[p];
      o.waiting = o.real_sync;
      o.transfer = o.communication - o.real_sync;
      s.communication += o.communication;
      s.real_sync += o.real_sync;
      s.synchronization += o.synchronization;
      s.variation += o.variation;
      s.overlap += o.overlap;
    }
  }
  for (ProcessorTimes& p : t) p.lost = p.communication;
}

// The call and where it goes (kind, detail, peer, tag folded into one word), not its duration or
// size: the same code in another iteration signs the same.
void MpCharacteristics::sign(Lp& l, const engine::Event& e) {
  const std::uint64_t call = static_cast<std::uint64_t>(e.kind) | static_cast<std::uint64_t>(e.base_detail()) << 8 |
                             static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.peer)) << 16;
  l.signature = mix(l.signature, call ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.tag)) << 40);
}

void MpCharacteristics::enter_collective(engine::LpId lp, CollectiveKind ckind, double at) {
  Lp& l = lps_[lp];
  const OpKind kind = op_kind_of(ckind);
  const std::uint64_t seq = l.collectives++;
  OpenCollective& c = open_[seq];
  if (c.entered == 0) {
    c.kind = kind;
    if (!spare_calls_.empty()) {
      c.lps = std::move(spare_calls_.back());
      spare_calls_.pop_back();
    }
    const double none = std::numeric_limits<double>::quiet_NaN();
    c.lps.assign(lps_.size(), Participant{none, none, nullptr});
    ++l.sheet->operations[static_cast<std::size_t>(kind)];  // one operation per collective call
  }
  ++c.entered;
  Participant& me = c.lps[lp];
  me.enter = at;
  me.where = l.sheet;  // its synchronization and variation go there
  if (lp != 0) return;
  // Rank 0's calls name the phases: the k-th call of a kind, where it is in the trace.
  const std::uint64_t ordinal = ++rank0_calls_[static_cast<std::size_t>(ckind)];
  if (phases_ && synchronises_all(ckind)) {
    Boundary& b = pending(l.phase).closing;
    b.known = true;
    b.kind = ckind;
    b.ordinal = ordinal;
    b.line = options_.call_line ? options_.call_line(0) : 0;
  }
}

void MpCharacteristics::exit_collective(engine::LpId lp, double at) {
  const Lp& l = lps_[lp];
  if (l.collectives == 0) return;
  auto it = open_.find(l.collectives - 1);
  if (it == open_.end()) return;
  OpenCollective& c = it->second;
  c.lps[lp].exit = at;
  if (++c.exited == lps_.size()) {
    close_collective(c);
    spare_calls_.push_back(std::move(c.lps));
    open_.erase(it);
  }
}

// synchronization(p) = max_j E(j) − E(p); variation(p) = max_j X(j) − X(p), over the LPs that
// entered (exited) — all of them unless the run stopped inside the collective.
void MpCharacteristics::close_collective(OpenCollective& c) {
  double max_enter = -std::numeric_limits<double>::infinity();
  double max_exit = max_enter;
  for (const Participant& x : c.lps) {
    if (x.where == nullptr) continue;
    max_enter = std::max(max_enter, x.enter);
    if (x.exit == x.exit) max_exit = std::max(max_exit, x.exit);
  }
  for (std::size_t p = 0; p < c.lps.size(); ++p) {
    const Participant& x = c.lps[p];
    if (x.where == nullptr) continue;
    on_kind(*x.where, static_cast<engine::LpId>(p), c.kind, [&](auto& o) {
      o.synchronization += max_enter - x.enter;
      if (x.exit == x.exit) o.variation += max_exit - x.exit;
    });
  }
}

// `lp` left a global synchronisation: its next phase starts. The phase is complete once every LP
// has left it.
void MpCharacteristics::end_phase(engine::LpId lp) {
  Lp& l = lps_[lp];
  spill(l, lp);
  Pending& done = pending(l.phase);
  done.signature[lp] = l.signature;
  l.signature = signature_seed;
  ++l.phase;
  Pending& next = pending(l.phase);  // std::map: `done` stays valid
  if (l.region == nullptr) l.sheet = next.figures.get();
  if (++done.left == lps_.size()) flush(l.phase - 1);
}

// Regions are flat (one `location` to the next): children of Main, one per (file, line) whichever
// rank enters it. The tree's own `current` stays at the root; each LP keeps its own position.
void MpCharacteristics::enter_region(const engine::Event& e) {
  Lp& l = lps_[e.lp];
  auto [file, line] = options_.namer ? options_.namer(e.lp, e.tag) : std::pair<std::string, int>{std::string(), e.tag};
  Interval& region = tree_.enter(IntervalType::user, file, line, std::nullopt);
  tree_.leave({});
  regions_seen_ = true;
  spill(l, e.lp);
  l.region = &region;
  const auto id = static_cast<std::size_t>(region.id - 1);
  if (region_sheets_.size() <= id) region_sheets_.resize(id + 1);
  if (!region_sheets_[id]) {
    region_sheets_[id] = std::make_unique<Sheet>();
    region_sheets_[id]->full = &region.procs;
  }
  l.sheet = region_sheets_[id].get();
  if (entries_.size() <= id) entries_.resize(id + 1);
  if (entries_[id].empty()) entries_[id].assign(lps_.size(), 0);
  ++entries_[id][e.lp];
}

void MpCharacteristics::on_event(const engine::Event& e) {
  Lp& l = lps_[e.lp];
  // Execution: the clock advance, in the interval the LP is in.
  if (e.clock_after > l.clock) {
    l.execution += e.clock_after - l.clock;
    l.clock = e.clock_after;
  }
  const bool internal = e.internal != 0 && l.in_collective;
  if (phases_ && !internal) sign(l, e);
  const OpKind comm_kind = internal ? l.collective : OpKind::point_to_point;
  switch (e.kind) {
    case EventKind::compute: {
      const double d = std::max(0.0, e.clock_after - e.clock_before);
      switch (static_cast<engine::ComputeCategory>(e.detail)) {
        case engine::ComputeCategory::system:
          (l.sheet->full != nullptr ? (*l.sheet->full)[e.lp].cpu_sys : l.sheet->base[e.lp].cpu_sys) += d;
          break;
        case engine::ComputeCategory::io:
          (l.sheet->full != nullptr ? (*l.sheet->full)[e.lp].io : l.sheet->base[e.lp].io) += d;
          break;
        default:
          l.cpu_usr += d;
          break;
      }
      if (!l.in_collective && l.open_requests > 0) l.p2p_overlap += d;  // computing while requests are in flight
      break;
    }
    case EventKind::send:
      communicate(l, e.lp, comm_kind, e);
      if (!internal) {
        ++l.sends;
        if (e.base_detail() == 0) ++l.open_requests;
      }
      break;
    case EventKind::recv:
      communicate(l, e.lp, comm_kind, e);
      if (!internal && e.base_detail() == 0) ++l.open_requests;
      break;
    case EventKind::wait:
      communicate(l, e.lp, comm_kind, e);
      if (!internal && l.open_requests > 0) --l.open_requests;
      break;
    case EventKind::waitall:
      communicate(l, e.lp, comm_kind, e);
      if (!internal) l.open_requests = 0;
      break;
    case EventKind::test:
      communicate(l, e.lp, comm_kind, e);
      break;
    case EventKind::collective: {  // analytic: entry to exit in one event
      const CollectiveKind k = collective_kind(e);
      enter_collective(e.lp, k, e.clock_before);
      communicate(l, e.lp, op_kind_of(k), e);
      exit_collective(e.lp, e.clock_after);
      if (phases_ && synchronises_all(k)) end_phase(e.lp);
      break;
    }
    case EventKind::collective_begin:
      l.in_collective = true;
      l.collective_kind = collective_kind(e);
      l.collective = op_kind_of(l.collective_kind);
      enter_collective(e.lp, l.collective_kind, e.clock_before);
      break;
    case EventKind::collective_end:
      l.in_collective = false;
      exit_collective(e.lp, e.clock_after);
      if (phases_ && synchronises_all(l.collective_kind)) end_phase(e.lp);
      break;
    case EventKind::interval_enter:
      enter_region(e);
      break;
    case EventKind::interval_exit:
      point_outside_regions(e.lp);
      break;
    default:
      break;
  }
}

void MpCharacteristics::on_finish(engine::SimTime end) {
  (void)end;
  if (finished_) return;
  finished_ = true;
  for (auto& [seq, c] : open_) close_collective(c);  // a run stopped inside a collective
  open_.clear();
  for (engine::LpId p = 0; p < lps_.size(); ++p) spill(lps_[p], p);
  if (phases_) {
    for (engine::LpId p = 0; p < lps_.size(); ++p) pending(lps_[p].phase).signature[p] = lps_[p].signature;
    while (!pending_.empty()) flush(pending_.begin()->first);
    build_phase_intervals();
  }
  // Main's and the regions' operation counts (their figures are in the tree already).
  for (std::size_t k = 0; k < op_kind_count; ++k) tree_.root().operations[k] += main_.operations[k];
  for (std::size_t id = 0; id < region_sheets_.size(); ++id) {
    if (!region_sheets_[id]) continue;
    Interval& region = *tree_.by_id(static_cast<int>(id + 1));
    for (std::size_t k = 0; k < op_kind_count; ++k) region.operations[k] += region_sheets_[id]->operations[k];
  }
  region_sheets_.clear();
  spare_.clear();
  other_.reset();
  std::vector<int> all(lps_.size());
  for (std::size_t p = 0; p < all.size(); ++p) all[p] = static_cast<int>(p);
  auto close = [&](auto& self, Interval& i) -> void {
    complete(i.procs);
    IntervalTree::close_interval(i, all);
    const auto id = static_cast<std::size_t>(i.id - 1);
    if (i.type == IntervalType::user && id < entries_.size() && !entries_[id].empty()) {
      i.exe_count = *std::max_element(entries_[id].begin(), entries_[id].end());
    }
    for (auto& c : i.children) self(self, *c);
  };
  close(close, tree_.root());
  tree_.integrate(IntegrateRule::complete);
}

}  // namespace augur::models::analysis
