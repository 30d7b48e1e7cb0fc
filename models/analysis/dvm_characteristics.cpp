// Event → characteristic rules of the DVM analyzer (the original Predictor's AddTime,
// AddTimeSynchronize and AddMPSTime), applied per LP to the interval it is in.
#include "models/analysis/dvm_characteristics.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace augur::models::analysis {

using engine::ComputeCategory;
using engine::Event;
using engine::EventKind;

namespace {

// x / c for c ≥ 1, bit for bit. For c a power of two the quotient is x · 2^−k: the same real
// number, rounded the same way, and a multiplication instead of a division (c is the replication
// of work on a grid's processors: 2, 4, 16 … on the usual grids).
double divide_by(double x, std::int32_t c) {
  const auto u = static_cast<std::uint32_t>(c);
  if ((u & (u - 1)) == 0) {
    const auto k = static_cast<std::uint64_t>(std::countr_zero(u));
    return x * std::bit_cast<double>((std::uint64_t{1023} - k) << 52);
  }
  return x / c;
}

}  // namespace

DvmCharacteristics::DvmCharacteristics(IntervalTree& tree, std::uint32_t lp_count, bool model_durations)
    : tree_(tree),
      model_durations_(model_durations),
      current_(lp_count, &tree.root()),
      times_(lp_count),
      starts_(lp_count) {
  for (std::uint32_t lp = 0; lp < lp_count; ++lp) times_[lp] = &tree.root().proc(static_cast<int>(lp));
}

// Compute events (most of a run's: a call's user and system time on every processor) here, the
// others in on_other_event: the short path then saves no registers for the long one.
void DvmCharacteristics::on_event(const Event& e) {
  if (e.kind != EventKind::compute) [[unlikely]] {
    on_other_event(e);
    return;
  }
  ProcessorTimes& p = *times_[e.lp];
  if (e.tag == 0) {  // insufficient parallelism only, no time: a repeated assignment on a
    // replicated array (user), 3.1's ACROSS waiting booked as lost system time (system)
    (static_cast<ComputeCategory>(e.detail) == ComputeCategory::system ? p.insuff_sys : p.insuff_usr) += e.waited;
    p.lost += e.waited;
    return;
  }
  const double dt = duration(e);
  const auto cat = static_cast<ComputeCategory>(e.detail);
  p.execution += dt;
  if (cat == ComputeCategory::io) {
    p.io += dt;
    if (e.internal != 0) current_[e.lp]->count_op(OpKind::io);
    return;
  }
  // Work replicated on c processors: (c − 1)/c of it is insufficient parallelism.
  const double insuff = e.tag > 1 ? divide_by(dt * (e.tag - 1.0), e.tag) : 0.0;
  if (cat == ComputeCategory::user) {
    p.cpu_usr += dt;
    p.insuff_usr += insuff;
  } else {
    p.cpu_sys += dt;
    p.insuff_sys += insuff;
  }
  p.lost += insuff;
}

void DvmCharacteristics::on_other_event(const Event& e) {
  Interval& in = *current_[e.lp];
  ProcessorTimes& p = in.proc(static_cast<int>(e.lp));
  const double dt = e.clock_after - e.clock_before;
  const auto kind = static_cast<OpKind>(e.detail);
  switch (e.kind) {
    case EventKind::loop_block: {
      const double t = duration(e);
      p.execution += t;
      p.cpu_usr += t;
      if (e.tag > 1) {
        const double insuff = t * divide_by(e.tag - 1.0, e.tag);
        p.insuff_usr += insuff;
        p.insuff_par += insuff;
        p.lost += insuff;
      }
      break;
    }
    case EventKind::sync_all: {
      if (e.tag == 1) {  // potential loss only (waitcp_)
        p.synchronization += e.waited;
        break;
      }
      if (e.tag == 2) {  // synchronisation of the kind counted, clock unchanged (I/O mode)
        p.synchronization += e.waited;
        in.op(static_cast<int>(e.lp), kind).synchronization += e.waited;
        break;
      }
      if (e.tag == 3) {  // time variation of the kind, clock unchanged (ACROSS pipelines)
        p.variation += e.waited;
        in.op(static_cast<int>(e.lp), kind).variation += e.waited;
        break;
      }
      OpTimes& o = in.op(static_cast<int>(e.lp), kind);
      p.synchronization += dt;
      o.synchronization += dt;
      p.execution += dt;
      p.communication += dt;
      o.communication += dt;
      p.lost += dt;
      break;
    }
    case EventKind::collective_start:
      starts_[e.lp].emplace_back(e.tag, e.clock_before);
      if (e.internal != 0) in.count_op(kind);
      break;
    case EventKind::collective_wait: {
      OpTimes& o = in.op(static_cast<int>(e.lp), kind);
      if ((e.internal & 2) != 0) {  // the overlap is given
        p.overlap += e.waited;
        o.overlap += e.waited;
      } else if (e.tag != 0) {
        auto& v = starts_[e.lp];
        auto it = std::find_if(v.begin(), v.end(), [&](const auto& s) { return s.first == e.tag; });
        if (it != v.end()) {
          const double overlap = e.clock_before - it->second;
          p.overlap += overlap;
          o.overlap += overlap;
          v.erase(it);
        }
      }
      if ((e.internal & 1) != 0) in.count_op(kind);
      p.execution += dt;
      p.communication += dt;
      o.communication += dt;
      p.lost += dt;
      break;
    }
    case EventKind::interval_enter:
    case EventKind::interval_exit:
      if (Interval* next = tree_.by_id(e.tag)) {
        current_[e.lp] = next;
        times_[e.lp] = &next->proc(static_cast<int>(e.lp));
      }
      break;
    default:
      break;
  }
}

}  // namespace augur::models::analysis
