// Replaying one decoded call on one LP's clock: RegularTime, intervals, I/O, loop portions and the
// local waits (waitsh_, endpl_ after imlast_, loadrb_/waitrb_, waitcp_).
#include <algorithm>

#include "models/dvm/replay.hpp"

namespace augur::models::dvm {

using analysis::OpKind;
using engine::ComputeCategory;
using engine::EventBuilder;
using engine::EventKind;
using engine::SimTime;

void LpReplay::add(ComputeCategory cat, double dt, int replicas) {
  if (a.io_mode) {
    if (lp != 0) return;
    const double insuff = replicas > 1 ? dt * (replicas - 1.0) / replicas : 0.0;
    const SimTime t = out.clock();
    out.emit(EventBuilder(EventKind::compute)
                 .span(t, t + dt + insuff)
                 .waited(dt + insuff)
                 .tag(1)
                 .detail(static_cast<std::uint8_t>(ComputeCategory::io)));
    return;
  }
  const SimTime t = out.clock();
  out.emit(
      EventBuilder(EventKind::compute).span(t, t + dt).waited(dt).tag(replicas).detail(static_cast<std::uint8_t>(cat)));
}

void LpReplay::regular() {
  if (pos < 0) return;
  add(ComputeCategory::user, machine.scaled_time(lp, a.call), P);
  if (a.ret != 0.0) add(ComputeCategory::system, machine.scaled_time(lp, a.ret), P);
}

void LpReplay::user_share(bool with_loss) {
  const double v = machine.scaled_time(lp, a.call);
  const double sh = (*a.share)[static_cast<std::size_t>(pos)];
  if (sh > 0) add(ComputeCategory::user, v * sh, 1);
  if (with_loss && (*a.share_insuff)[static_cast<std::size_t>(pos)]) {
    // Replicated target: the assignment is repeated on every other holder (pure loss, tag 0).
    const SimTime c = out.clock();
    out.emit(EventBuilder(EventKind::compute).at(c).waited(v).detail(static_cast<std::uint8_t>(ComputeCategory::user)));
  }
}

namespace {

void interval_switch(LpReplay& r) {
  r.regular();
  r.st.lps[r.lp].interval = r.a.interval;
  const SimTime t = r.out.clock();
  r.out.emit(EventBuilder(r.a.kind == ActionKind::interval_enter ? EventKind::interval_enter : EventKind::interval_exit)
                 .at(t)
                 .tag(r.a.interval));
}

/// An I/O function: the I/O processor (processor 0 of the root system) does the I/O,
/// IO_time += vret_0; biof_ counts one I/O operation there.
void io(LpReplay& r) {
  if (r.lp == 0) {
    const SimTime t = r.out.clock();
    const SimTime dt = r.a.kind == ActionKind::io_call ? r.machine.scaled_time(0, r.a.ret) : 0;
    r.out.emit(EventBuilder(EventKind::compute)
                   .span(t, t + dt)
                   .waited(dt)
                   .tag(1)
                   .detail(static_cast<std::uint8_t>(ComputeCategory::io))
                   .internal(1));
  }
  r.regular();
}

void loop_portion(LpReplay& r) {
  if (r.pos < 0) return;
  const DvmProgram::Action& a = r.a;
  if (a.across_wait > 0) {
    // ACROSS, DoPL = 1: the edge exchange's cost on every processor (Wait_shadow).
    const SimTime c = r.out.clock();
    r.out.emit(EventBuilder(EventKind::collective_wait)
                   .span(c, c + a.across_wait)
                   .detail(static_cast<std::uint8_t>(OpKind::shadow))
                   .internal(2));
  }
  const auto [iters, cnt] = (*a.blocks)[static_cast<std::size_t>(r.pos)];
  if (iters > 0) {
    // t_i = vcall_i · N_i / N on every processor with iterations; identical blocks on cnt
    // processors: (cnt − 1)/cnt of it is insufficient parallelism.
    const double t =
        r.machine.scaled_time(r.lp, a.call) * (static_cast<double>(iters) / static_cast<double>(a.loop_size));
    if (a.io_mode) {
      r.add(ComputeCategory::user, t, cnt);
    } else {
      const SimTime c = r.out.clock();
      r.out.emit(EventBuilder(EventKind::loop_block).span(c, c + t).waited(t).tag(std::max(cnt, 1)));
    }
  }
  r.add(ComputeCategory::system, r.machine.scaled_time(r.lp, a.ret), r.P);
}

/// waitsh_ / imlast_ at endpl_: overlap = clock − t0; communication = t1 − clock if positive.
void shadow_wait(LpReplay& r) {
  if (r.pos >= 0) {
    const DvmProgram::Op& op = r.st.op(static_cast<std::uint64_t>(r.a.op));
    const SimTime c = r.out.clock();
    const SimTime after = c < op.t1 ? op.t1 : c;
    r.out.emit(EventBuilder(EventKind::collective_wait)
                   .span(c, after)
                   .waited(after - c)
                   .tag(static_cast<std::int32_t>(op.id))
                   .detail(static_cast<std::uint8_t>(op.kind)));
  }
  r.regular();
}

/// loadrb_: the transfer of processor p runs from its clock for its stamp; waitrb_ waits for it.
void buffer(LpReplay& r) {
  if (r.pos >= 0) {
    DvmProgram::Op& op = r.st.op(static_cast<std::uint64_t>(r.a.op));
    const SimTime c = r.out.clock();
    const auto p = static_cast<std::size_t>(r.lp);
    const std::uint8_t count = r.pos == 0 ? 1 : 0;
    const auto kind = static_cast<std::uint8_t>(OpKind::remote_access);
    if (op.load_start.empty()) {
      op.load_start.assign(static_cast<std::size_t>(r.root_count), 0);
      op.load_end.assign(static_cast<std::size_t>(r.root_count), 0);
    }
    if (r.a.kind == ActionKind::buffer_load) {
      op.load_start[p] = c;
      op.load_end[p] = (op.stamps.empty() ? 0 : op.stamps[p]) + c;
      r.out.emit(EventBuilder(EventKind::collective_wait).at(c).detail(kind).internal(count));
    } else if (c < op.load_end[p]) {
      r.out.emit(EventBuilder(EventKind::collective_wait)
                     .span(c, op.load_end[p])
                     .waited(c - op.load_start[p])
                     .detail(kind)
                     .internal(static_cast<std::uint8_t>(count | 2)));
    } else {
      r.out.emit(EventBuilder(EventKind::collective_wait)
                     .at(c)
                     .waited(op.load_end[p] - op.load_start[p])
                     .detail(kind)
                     .internal(static_cast<std::uint8_t>(count | 2)));
    }
  }
  r.regular();
}

/// waitcp_: the copy of this processor ends its stamp after the operation's start.
void copy_wait(LpReplay& r) {
  if (r.pos < 0) return;
  const DvmProgram::Op& op = r.st.op(static_cast<std::uint64_t>(r.a.op));
  const SimTime c = r.out.clock();
  const SimTime stamp = op.stamps.empty() ? 0 : op.stamps[r.lp];
  const bool first = r.pos == 0;
  const auto kind = static_cast<std::uint8_t>(OpKind::remote_access);
  if (stamp > 0 && c < op.t0 + stamp) {
    if (c < op.t0) r.out.emit(EventBuilder(EventKind::sync_all).at(c).waited(op.t0 - c).tag(1).detail(kind));
    const SimTime w = std::max(op.t0 + stamp - c, stamp);
    r.out.emit(EventBuilder(EventKind::collective_wait).span(c, c + w).waited(w).detail(kind).internal(first ? 1 : 0));
  } else if (first) {
    r.out.emit(EventBuilder(EventKind::collective_wait).at(c).detail(kind).internal(1));
  }
}

}  // namespace

void replay_action(LpReplay& r) {
  switch (r.a.kind) {
    case ActionKind::silent:
      if (r.a.share && r.pos >= 0) r.user_share(false);  // arrcpy_ replicated → distributed
      break;
    case ActionKind::regular:
      r.regular();
      break;
    case ActionKind::interval_enter:
    case ActionKind::interval_exit:
      interval_switch(r);
      break;
    case ActionKind::io_call:
    case ActionKind::io_mark:
      io(r);
      break;
    case ActionKind::dopl:
      loop_portion(r);
      break;
    case ActionKind::shadow_wait:
    case ActionKind::endpl_imlast:
      shadow_wait(r);
      break;
    case ActionKind::buffer_load:
    case ActionKind::buffer_wait:
      buffer(r);
      break;
    case ActionKind::copy_wait:
      copy_wait(r);
      break;
    case ActionKind::op:
      break;  // the program's barrier (DvmProgram::run_action)
  }
}

}  // namespace augur::models::dvm
