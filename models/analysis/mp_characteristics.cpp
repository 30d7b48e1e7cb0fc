// Characteristics of a message-passing run: the accounting rules are listed in the header.
#include "models/analysis/mp_characteristics.hpp"

#include <algorithm>
#include <limits>

namespace augur::models::analysis {

using engine::CollectiveKind;
using engine::EventKind;

OpKind op_kind_of(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::barrier: return OpKind::barrier;
    case CollectiveKind::bcast: return OpKind::bcast;
    case CollectiveKind::reduce: return OpKind::reduce;
    case CollectiveKind::allreduce: return OpKind::allreduce;
    case CollectiveKind::gather:
    case CollectiveKind::gatherv: return OpKind::gather;
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv: return OpKind::scatter;
    case CollectiveKind::allgather:
    case CollectiveKind::allgatherv: return OpKind::allgather;
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoallv: return OpKind::alltoall;
    case CollectiveKind::reduce_scatter: return OpKind::reduce_scatter;
    case CollectiveKind::scan:
    case CollectiveKind::exscan: return OpKind::scan;
  }
  return OpKind::barrier;
}

namespace {
// Collective events carry CollectiveKind + 1 in `detail`.
OpKind collective_op(const engine::Event& e) {
  return op_kind_of(static_cast<CollectiveKind>(e.detail > 0 ? e.detail - 1 : 0));
}
}  // namespace

MpCharacteristics::MpCharacteristics(std::uint32_t lp_count, std::string source, RegionNamer namer)
    : tree_(static_cast<int>(lp_count), std::move(source), 0), namer_(std::move(namer)), lps_(lp_count) {
  for (Lp& l : lps_) l.where = &tree_.root();
}

void MpCharacteristics::communicate(engine::LpId lp, OpKind kind, const engine::Event& e) {
  const double d = std::max(0.0, e.clock_after - e.clock_before);
  const double w = std::clamp(e.waited, 0.0, d);
  ProcessorTimes& t = lps_[lp].where->proc(static_cast<int>(lp));
  OpTimes& o = t.op(kind);
  o.communication += d;
  o.waiting += w;
  o.real_sync += w;
  o.transfer += d - w;
  t.communication += d;
  t.real_sync += w;
  t.lost += d;  // lost before idle: communication (no insufficient parallelism in MP traces)
}

void MpCharacteristics::enter_collective(engine::LpId lp, OpKind kind, double at) {
  Lp& l = lps_[lp];
  const std::uint64_t seq = l.collectives++;
  OpenCollective& c = open_[seq];
  if (c.entered == 0) {
    const std::size_t n = lps_.size();
    c.kind = kind;
    c.enter.assign(n, std::numeric_limits<double>::quiet_NaN());
    c.exit.assign(n, std::numeric_limits<double>::quiet_NaN());
    c.where.assign(n, nullptr);
    l.where->count_op(kind);  // one operation per collective call
  }
  ++c.entered;
  c.enter[lp] = at;
  c.where[lp] = l.where;
}

void MpCharacteristics::exit_collective(engine::LpId lp, double at) {
  const Lp& l = lps_[lp];
  if (l.collectives == 0) return;
  auto it = open_.find(l.collectives - 1);
  if (it == open_.end()) return;
  OpenCollective& c = it->second;
  c.exit[lp] = at;
  if (++c.exited == lps_.size()) {
    close_collective(c);
    open_.erase(it);
  }
}

// synchronization(p) = max_j E(j) − E(p); variation(p) = max_j X(j) − X(p), over the LPs that
// entered (exited) — all of them unless the run stopped inside the collective.
void MpCharacteristics::close_collective(OpenCollective& c) {
  double max_enter = -std::numeric_limits<double>::infinity();
  double max_exit = max_enter;
  for (std::size_t p = 0; p < lps_.size(); ++p) {
    if (c.where[p] == nullptr) continue;
    max_enter = std::max(max_enter, c.enter[p]);
    if (c.exit[p] == c.exit[p]) max_exit = std::max(max_exit, c.exit[p]);
  }
  for (std::size_t p = 0; p < lps_.size(); ++p) {
    if (c.where[p] == nullptr) continue;
    ProcessorTimes& t = c.where[p]->proc(static_cast<int>(p));
    OpTimes& o = t.op(c.kind);
    const double sync = max_enter - c.enter[p];
    o.synchronization += sync;
    t.synchronization += sync;
    if (c.exit[p] == c.exit[p]) {
      const double var = max_exit - c.exit[p];
      o.variation += var;
      t.variation += var;
    }
  }
}

void MpCharacteristics::on_event(const engine::Event& e) {
  Lp& l = lps_[e.lp];
  const int p = static_cast<int>(e.lp);
  // Execution: the clock advance, in the interval the LP is in.
  if (e.clock_after > l.clock) {
    l.where->proc(p).execution += e.clock_after - l.clock;
    l.clock = e.clock_after;
  }
  const bool internal = e.internal != 0 && l.in_collective;
  const OpKind comm_kind = internal ? l.collective : OpKind::point_to_point;
  switch (e.kind) {
    case EventKind::compute: {
      const double d = std::max(0.0, e.clock_after - e.clock_before);
      ProcessorTimes& t = l.where->proc(p);
      switch (static_cast<engine::ComputeCategory>(e.detail)) {
        case engine::ComputeCategory::system: t.cpu_sys += d; break;
        case engine::ComputeCategory::io: t.io += d; break;
        default: t.cpu_usr += d; break;
      }
      if (!l.in_collective && l.open_requests > 0) {  // computing while requests are in flight
        t.overlap += d;
        t.op(OpKind::point_to_point).overlap += d;
      }
      break;
    }
    case EventKind::send:
      communicate(e.lp, comm_kind, e);
      if (!internal) {
        l.where->count_op(OpKind::point_to_point);
        if (e.detail == 0) ++l.open_requests;
      }
      break;
    case EventKind::recv:
      communicate(e.lp, comm_kind, e);
      if (!internal && e.detail == 0) ++l.open_requests;
      break;
    case EventKind::wait:
      communicate(e.lp, comm_kind, e);
      if (!internal && l.open_requests > 0) --l.open_requests;
      break;
    case EventKind::waitall:
      communicate(e.lp, comm_kind, e);
      if (!internal) l.open_requests = 0;
      break;
    case EventKind::test:
      communicate(e.lp, comm_kind, e);
      break;
    case EventKind::collective: {  // analytic: entry to exit in one event
      const OpKind k = collective_op(e);
      enter_collective(e.lp, k, e.clock_before);
      communicate(e.lp, k, e);
      exit_collective(e.lp, e.clock_after);
      break;
    }
    case EventKind::collective_begin:
      l.in_collective = true;
      l.collective = collective_op(e);
      enter_collective(e.lp, l.collective, e.clock_before);
      break;
    case EventKind::collective_end:
      l.in_collective = false;
      exit_collective(e.lp, e.clock_after);
      break;
    case EventKind::interval_enter: {
      auto [file, line] = namer_ ? namer_(e.lp, e.tag) : std::pair<std::string, int>{std::string(), e.tag};
      // Regions are flat (one `location` to the next): children of Main. The tree's own
      // `current` stays at the root; each LP keeps its own position.
      Interval& region = tree_.enter(IntervalType::user, file, line, std::nullopt);
      tree_.leave({});
      l.where = &region;
      auto& counts = entries_;
      const auto id = static_cast<std::size_t>(region.id - 1);
      if (counts.size() <= id) counts.resize(id + 1);
      if (counts[id].empty()) counts[id].assign(lps_.size(), 0);
      ++counts[id][e.lp];
      break;
    }
    case EventKind::interval_exit:
      l.where = &tree_.root();
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
  std::vector<int> all(lps_.size());
  for (std::size_t p = 0; p < all.size(); ++p) all[p] = static_cast<int>(p);
  auto close = [&](auto& self, Interval& i) -> void {
    IntervalTree::close_interval(i, all);
    const auto id = static_cast<std::size_t>(i.id - 1);
    if (i.parent != nullptr && id < entries_.size() && !entries_[id].empty()) {
      i.exe_count = *std::max_element(entries_[id].begin(), entries_[id].end());
    }
    for (auto& c : i.children) self(self, *c);
  };
  close(close, tree_.root());
  tree_.integrate(IntegrateRule::complete);
}

}  // namespace augur::models::analysis
