// The DVM runtime model on the engine (spec section 6): the program's frame. Decoding happens
// once per call in trace order (the handlers of decode_*.cpp, one family per file); each LP then
// replays the decoded calls on its own clock (replay_actions.cpp); group operations wait for every
// processor of their processor system and run in trace order (replay_groups.cpp), so channel
// occupancy and clocks are those of the original's sequential model.
#include "models/dvm/dvm_program.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

#include "engine/log.hpp"
#include "engine/scheduler.hpp"
#include "models/dvm/across.hpp"
#include "models/dvm/decode.hpp"

namespace augur::models::dvm {

using analysis::OpKind;
using engine::ComputeCategory;
using engine::Event;
using engine::EventKind;
using engine::LpId;
using engine::SimTime;
using engine::StepResult;
using traces::libdvm::DvmCall;
using traces::libdvm::DvmFunction;

namespace {

/// `message` without a leading Lib-DVM function name ("crtps_: "), which the caller replaces by
/// the name of the call being decoded.
std::string_view without_function_prefix(std::string_view message) {
  const auto colon = message.find(": ");
  if (colon == std::string_view::npos || colon < 2 || message[colon - 1] != '_') return message;
  for (std::size_t i = 0; i + 1 < colon; ++i) {
    const char ch = message[i];
    if (!(ch >= 'a' && ch <= 'z') && !(ch >= '0' && ch <= '9')) return message;
  }
  return message.substr(colon + 2);
}

/// `m` as the machine takes it (rows of bytes), written into `rows` (its buffers reused).
const std::vector<std::vector<std::uint64_t>>& as_rows(const TransferMatrix& m,
                                                       std::vector<std::vector<std::uint64_t>>& rows) {
  const auto n = static_cast<std::size_t>(m.size());
  rows.resize(n);
  for (std::size_t p = 0; p < n; ++p) {
    auto& row = rows[p];
    row.resize(n);
    for (std::size_t q = 0; q < n; ++q)
      row[q] = static_cast<std::uint64_t>(m.at(static_cast<int>(p), static_cast<int>(q)));
  }
  return rows;
}

/// Calls after which a template, an array, a processor system or the current system may differ:
/// the memos of loops, shadows and reduction holders are dropped (State::Memo).
bool changes_geometry(DvmFunction f) {
  switch (f) {
    case DvmFunction::crtps:
    case DvmFunction::psview:
    case DvmFunction::crtamv:
    case DvmFunction::delamv:
    case DvmFunction::blkdiv:
    case DvmFunction::distr:
    case DvmFunction::setelw:
    case DvmFunction::redis:
    case DvmFunction::crtda:
    case DvmFunction::align:
    case DvmFunction::delda:
    case DvmFunction::realn:
    case DvmFunction::mapam:
    case DvmFunction::runam:
    case DvmFunction::stopam:
      return true;
    default:
      return false;
  }
}

/// Drops the memos of the geometry when a call has changed it (State::Memo).
void refresh_memos(DvmProgram::State& st) {
  if (st.memo.epoch == st.geometry_epoch) return;
  st.memo.loops.clear();
  st.memo.next_loop = 0;
  st.memo.shadows.clear();
  st.memo.next_shadow = 0;
  st.memo.have_holders = false;
  st.memo.holders.reset();
  st.memo.epoch = st.geometry_epoch;
}

/// Who refers to which operation, so that release() keeps it as long as needed: the action
/// `action_index` and the operations created from `first_new_op` on.
void note_references(DvmProgram::State& st, const DvmProgram::Action& a, std::uint64_t action_index,
                     std::uint64_t first_new_op) {
  if (a.op >= 0) {
    DvmProgram::Op& named = st.op(static_cast<std::uint64_t>(a.op));
    named.last_action = std::max(named.last_action, action_index + 1);
  }
  for (std::uint64_t i = first_new_op; i < st.ops_base + st.ops.size(); ++i) {
    const DvmProgram::Op& op = st.op(i);
    if (op.start_op < 0) continue;
    DvmProgram::Op& start = st.op(static_cast<std::uint64_t>(op.start_op));
    start.last_op = std::max(start.last_op, i + 1);
  }
}

}  // namespace

DvmProgram::DvmProgram(traces::libdvm::DvmTraceReader& reader, machines::MachineModel& machine,
                       analysis::IntervalTree& tree, DvmOptions options)
    : state_(std::make_unique<State>()), reader_(reader), machine_(machine), tree_(tree), options_(std::move(options)) {
  if (options_.grid.empty()) options_.grid = {1};
  ProcessorSystem root(options_.grid);
  root_count_ = root.processor_count();
  if (tree_.processors() != root_count_) {
    throw std::invalid_argument("DvmProgram: the interval tree has a different processor count");
  }
  state_->lps.resize(static_cast<std::size_t>(root_count_));
  statements_.assign(static_cast<std::size_t>(root_count_), 0);
  // The machine's processors are the root system's, laid out on its grid (a transputer grid
  // without a grid of its own takes this one, as the Predictor's transputer is the grid of VM).
  machine_.arrange(options_.grid);
  if (root_count_ >= 2) {
    // ACROSS pipelines price their messages as Ts + Tb·bytes: the machine's price of one message
    // of 1 and of 2 bytes from processor 0 to 1, before the run (as 3.1's CommCost::Across does).
    std::vector<std::vector<std::uint64_t>> probe(static_cast<std::size_t>(root_count_),
                                                  std::vector<std::uint64_t>(static_cast<std::size_t>(root_count_), 0));
    probe[0][1] = 1;
    const double one = machine_.matrix_cost(probe);
    probe[0][1] = 2;
    const double two = machine_.matrix_cost(probe);
    state_->across_price.tb = std::max(0.0, two - one);
    state_->across_price.ts = std::max(0.0, one - state_->across_price.tb);
  }
  state_->current_ps = add_system(*state_, root);
  state_->io_trafic.assign(2, 0);
  state_->active_at_exit.resize(2);
  if (auto* lg = engine::logger_at(engine::Folder::models, spdlog::level::debug)) {
    std::string grid;
    for (const int d : options_.grid) grid += (grid.empty() ? "" : "x") + std::to_string(d);
    lg->debug("DVM model: grid {} ({} processors), {} pricing, ACROSS messages Ts {:.9f} s + Tb {:.9f} s per byte",
              grid, root_count_, options_.cost == CostStyle::predictor31 ? "Predictor 3.1's" : "the seed's",
              state_->across_price.ts, state_->across_price.tb);
  }
}

DvmProgram::~DvmProgram() = default;

const DvmProgram::Action* DvmProgram::action_at(std::uint64_t index) const {
  if (index < state_->base || index >= state_->base + state_->actions.size()) return nullptr;
  return &state_->actions[static_cast<std::size_t>(index - state_->base)];
}

// ------------------------------------------------------------------------------------------
// Decoding: the original's object bookkeeping, in trace order, by the family handlers.
// ------------------------------------------------------------------------------------------

bool DvmProgram::decode_next() {
  State& st = *state_;
  if (st.trace_done) return false;
  DvmCall& c = st.call;
  if (!reader_.next(c)) {
    st.trace_done = true;
    return false;
  }
  if (st.decoded++ == 0) {
    tree_.root().source_file = std::string(c.source_file());
    tree_.root().source_line = static_cast<int>(c.source_line());
  }
  Action a;
  a.call = c.call_time();
  a.ret = c.ret_time();
  a.ps = st.current_ps;
  a.statement = statement_key(c.source_file_id(), c.source_line());
  const std::uint64_t action_index = st.base + st.actions.size();
  const std::uint64_t first_new_op = st.ops_base + st.ops.size();
  if (changes_geometry(c.function())) ++st.geometry_epoch;
  refresh_memos(st);
  Decoder d{st, c, a, tree_, options_, root_count_, warnings_};
  try {
    decode_table()[static_cast<std::size_t>(c.function())](d);
  } catch (const std::invalid_argument& e) {
    // The model's messages often name the Lib-DVM function they check ("crtps_: …", or "align_: …"
    // under realn_): the call's own name is written once, in front.
    throw d.error(std::string(without_function_prefix(e.what())));
  }
  if (a.kind != ActionKind::interval_enter && a.kind != ActionKind::interval_exit &&
      c.function() != DvmFunction::biof && c.function() != DvmFunction::eiof) {
    a.io_mode = d.interval_flag() != 0;
  }
  note_references(st, a, action_index, first_new_op);
  st.actions.push_back(std::move(a));
  st.peak_actions = std::max(st.peak_actions, st.actions.size());
  st.peak_ops = std::max(st.peak_ops, st.ops.size() + st.retained.size());
  return true;
}

// ------------------------------------------------------------------------------------------
// Replay on one LP; group operations.
// ------------------------------------------------------------------------------------------

namespace {

struct Emitter {
  engine::Scheduler& s;
  LpId lp;

  void emit(EventKind kind, SimTime before, SimTime after, std::uint8_t detail, std::int32_t tag,
            std::uint8_t internal = 0, SimTime waited = 0, std::int32_t peer = -1) {
    Event e;
    e.clock_before = before;
    e.clock_after = after;
    e.waited = waited;
    e.lp = lp;
    e.peer = peer;
    e.tag = tag;
    e.kind = kind;
    e.detail = detail;
    e.internal = internal;
    s.lp(lp).clock = after;
    if (s.has_observers()) s.emit(e);
  }
  SimTime clock() const { return s.lp(lp).clock; }
};

}  // namespace

engine::StepResult DvmProgram::run_action(LpId lp, const Action& a, engine::Scheduler& s) {
  State& st = *state_;
  State::Lp& me = st.lps[lp];
  const State::Ps& ps = st.systems[a.ps];
  const int pos = ps.position[lp];
  const int P = static_cast<int>(ps.members.size());
  Emitter out{s, lp};

  // Time of the current processor in the original's AddTime: in I/O mode (biof_ … eiof_) only
  // processor 0 advances, as I/O time; every other processor's share is dropped.
  auto add = [&](ComputeCategory cat, double dt, int replicas) {
    if (a.io_mode) {
      if (lp != 0) return;
      const double insuff = replicas > 1 ? dt * (replicas - 1.0) / replicas : 0.0;
      const SimTime t = out.clock();
      out.emit(EventKind::compute, t, t + dt + insuff, static_cast<std::uint8_t>(ComputeCategory::io), 1);
      return;
    }
    const SimTime t = out.clock();
    out.emit(EventKind::compute, t, t + dt, static_cast<std::uint8_t>(cat), replicas);
  };
  auto regular = [&]() {
    if (pos < 0) return;
    add(ComputeCategory::user, machine_.scaled_time(lp, a.call), P);
    if (a.ret != 0.0) add(ComputeCategory::system, machine_.scaled_time(lp, a.ret), P);
  };
  auto local_wait = [&](const Op& op) {
    // waitsh_ / imlast_ at endpl_: overlap = clock − t0; communication = t1 − clock if positive.
    const SimTime c = out.clock();
    const SimTime after = c < op.t1 ? op.t1 : c;
    out.emit(EventKind::collective_wait, c, after, static_cast<std::uint8_t>(op.kind), static_cast<std::int32_t>(op.id),
             0, after - c);
  };

  switch (a.kind) {
    case ActionKind::silent:
      if (a.share && pos >= 0) {  // arrcpy_ replicated → distributed: the user-time split only
        const double v = machine_.scaled_time(lp, a.call);
        const double sh = (*a.share)[static_cast<std::size_t>(pos)];
        if (sh > 0) add(ComputeCategory::user, v * sh, 1);
      }
      break;
    case ActionKind::regular:
      regular();
      break;
    case ActionKind::interval_enter:
    case ActionKind::interval_exit:
      regular();
      me.interval = a.interval;
      {
        const SimTime t = out.clock();
        out.emit(a.kind == ActionKind::interval_enter ? EventKind::interval_enter : EventKind::interval_exit, t, t, 0,
                 a.interval);
      }
      break;
    case ActionKind::io_call:
      if (lp == 0) {
        // The I/O processor (processor 0 of the root system) does the I/O: IO_time += vret_0.
        const SimTime t = out.clock();
        out.emit(EventKind::compute, t, t + machine_.scaled_time(0, a.ret),
                 static_cast<std::uint8_t>(ComputeCategory::io), 1, 1);
      }
      regular();
      break;
    case ActionKind::io_mark:
      if (lp == 0) {
        const SimTime t = out.clock();
        out.emit(EventKind::compute, t, t, static_cast<std::uint8_t>(ComputeCategory::io), 1, 1);
      }
      regular();
      break;
    case ActionKind::dopl: {
      if (pos < 0) break;
      if (a.across_wait > 0) {
        // ACROSS, DoPL = 1: the edge exchange's cost on every processor (Wait_shadow).
        const SimTime c = out.clock();
        out.emit(EventKind::collective_wait, c, c + a.across_wait, static_cast<std::uint8_t>(OpKind::shadow), 0, 2, 0);
      }
      const auto [iters, cnt] = (*a.blocks)[static_cast<std::size_t>(pos)];
      if (iters > 0) {
        // t_i = vcall_i · N_i / N on every processor with iterations; identical blocks on cnt
        // processors: (cnt − 1)/cnt of it is insufficient parallelism.
        const double t =
            machine_.scaled_time(lp, a.call) * (static_cast<double>(iters) / static_cast<double>(a.loop_size));
        if (a.io_mode) {
          add(ComputeCategory::user, t, cnt);
        } else {
          const SimTime c = out.clock();
          out.emit(EventKind::loop_block, c, c + t, 0, std::max(cnt, 1));
        }
      }
      add(ComputeCategory::system, machine_.scaled_time(lp, a.ret), P);
      break;
    }
    case ActionKind::shadow_wait:
    case ActionKind::endpl_imlast:
      if (pos >= 0) local_wait(st.op(static_cast<std::uint64_t>(a.op)));
      regular();
      break;
    case ActionKind::buffer_load:
    case ActionKind::buffer_wait: {
      if (pos >= 0) {
        Op& op = st.op(static_cast<std::uint64_t>(a.op));
        const SimTime c = out.clock();
        const auto r = static_cast<std::size_t>(lp);
        const std::uint8_t count = pos == 0 ? 1 : 0;
        if (op.load_start.empty()) {
          op.load_start.assign(static_cast<std::size_t>(root_count_), 0);
          op.load_end.assign(static_cast<std::size_t>(root_count_), 0);
        }
        if (a.kind == ActionKind::buffer_load) {
          // loadrb_: the transfer of processor p runs from its clock for its stamp.
          op.load_start[r] = c;
          op.load_end[r] = (op.stamps.empty() ? 0 : op.stamps[r]) + c;
          out.emit(EventKind::collective_wait, c, c, static_cast<std::uint8_t>(OpKind::remote_access), 0, count, 0);
        } else if (c < op.load_end[r]) {
          out.emit(EventKind::collective_wait, c, op.load_end[r], static_cast<std::uint8_t>(OpKind::remote_access), 0,
                   static_cast<std::uint8_t>(count | 2), c - op.load_start[r]);
        } else {
          out.emit(EventKind::collective_wait, c, c, static_cast<std::uint8_t>(OpKind::remote_access), 0,
                   static_cast<std::uint8_t>(count | 2), op.load_end[r] - op.load_start[r]);
        }
      }
      regular();
      break;
    }
    case ActionKind::copy_wait: {
      if (pos >= 0) {
        const Op& op = st.op(static_cast<std::uint64_t>(a.op));
        const SimTime c = out.clock();
        const SimTime stamp = op.stamps.empty() ? 0 : op.stamps[lp];
        const bool first = pos == 0;
        if (stamp > 0 && c < op.t0 + stamp) {
          if (c < op.t0) {
            out.emit(EventKind::sync_all, c, c, static_cast<std::uint8_t>(OpKind::remote_access), 1, 0, op.t0 - c);
          }
          const SimTime w = std::max(op.t0 + stamp - c, stamp);
          out.emit(EventKind::collective_wait, c, c + w, static_cast<std::uint8_t>(OpKind::remote_access), 0,
                   first ? 1 : 0, w);
        } else if (first) {
          out.emit(EventKind::collective_wait, c, c, static_cast<std::uint8_t>(OpKind::remote_access), 0, 1, 0);
        }
      }
      break;
    }
    case ActionKind::op: {
      if (pos < 0) break;
      Op& op = st.op(static_cast<std::uint64_t>(a.op));
      if (!me.op_done) {
        if (!me.arrived) {
          // arrcpy_: the user-time split comes before the synchronisation.
          if (a.share) {
            const double v = machine_.scaled_time(lp, a.call);
            const double sh = (*a.share)[static_cast<std::size_t>(pos)];
            if (sh > 0) add(ComputeCategory::user, v * sh, 1);
            if ((*a.share_insuff)[static_cast<std::size_t>(pos)]) {
              const SimTime c = out.clock();
              // Replicated target: the assignment is repeated on every other holder (pure loss).
              out.emit(EventKind::compute, c, c, static_cast<std::uint8_t>(ComputeCategory::user), 0, 0,
                       v);  // tag 0: loss only
            }
          }
          me.arrived = true;
          ++op.arrived;
        }
        execute_ready_ops(s);
        if (!me.op_done) return StepResult::blocked;
      }
      me.arrived = false;
      me.op_done = false;
      if (a.regular_after) regular();
      break;
    }
  }
  return StepResult::advanced;
}

void DvmProgram::execute_ready_ops(engine::Scheduler& s) {
  State& st = *state_;
  while (st.next_op < st.ops_base + st.ops.size()) {
    Op& op = st.op(st.next_op);
    const auto& members = st.systems[op.ps].members;
    if (op.arrived < static_cast<int>(members.size())) return;
    execute_op(op, s);
    op.done = true;
    ++st.next_op;
    for (int m : members) {
      st.lps[static_cast<std::size_t>(m)].op_done = true;
      s.wake(static_cast<LpId>(m), s.lp(static_cast<LpId>(m)).clock);
    }
  }
}

void DvmProgram::execute_op(Op& op, engine::Scheduler& s) {
  State& st = *state_;
  const auto& members = st.systems[op.ps].members;
  const int P = static_cast<int>(members.size());
  const auto kind = static_cast<std::uint8_t>(op.kind);
  auto clock = [&](int root) { return s.lp(static_cast<LpId>(root)).clock; };
  // Every root processor's clock (a buffer reused from operation to operation).
  auto clocks = [&]() -> const std::vector<SimTime>& {
    st.clocks.resize(static_cast<std::size_t>(root_count_));
    for (int p = 0; p < root_count_; ++p) st.clocks[static_cast<std::size_t>(p)] = clock(p);
    return st.clocks;
  };
  auto synchronise = [&]() {
    // MPSSynchronize: every processor waits for the latest one (synchronization of this kind,
    // counted as its communication).
    SimTime latest = 0;
    int last = members.front();  // the latest processor (the lowest number among equals): the one waited for
    for (int m : members) {
      if (clock(m) > latest) {
        latest = clock(m);
        last = m;
      }
    }
    for (int m : members) {
      Emitter out{s, static_cast<LpId>(m)};
      const SimTime c = out.clock();
      if (op.io_mode) {
        // Inside biof_ … eiof_ the original counts the synchronisation but only processor 0
        // advances (as I/O time); the others' share is dropped.
        out.emit(EventKind::sync_all, c, c, kind, 2, 0, latest - c);
        if (m == 0) out.emit(EventKind::compute, c, latest, static_cast<std::uint8_t>(ComputeCategory::io), 1);
        continue;
      }
      out.emit(EventKind::sync_all, c, latest, kind, 0, 0, latest - c, last);
    }
  };
  // Communication time `cost` added to every member (AddMPSTime of the kind).
  auto communicate = [&](SimTime cost, std::int32_t tag) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      Emitter out{s, static_cast<LpId>(members[k])};
      const SimTime c = out.clock();
      if (op.io_mode) {
        if (k == 0) out.emit(EventKind::collective_wait, c, c, kind, 0, 1, 0);
        if (members[k] == 0)
          out.emit(EventKind::compute, c, c + cost, static_cast<std::uint8_t>(ComputeCategory::io), 1);
        continue;
      }
      out.emit(EventKind::collective_wait, c, c + cost, kind, tag, k == 0 ? 1 : 0, cost);
    }
  };
  auto matrix_cost = [&](std::vector<SimTime>* end_per_proc) -> SimTime {
    const TransferMatrix& m = op.transfers();
    if (m.size() == 0 || m.empty()) return 0;
    return machine_.matrix_cost_at(as_rows(m, st.rows), clocks(), end_per_proc);
  };
  auto start_events = [&](SimTime t0) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      Emitter out{s, static_cast<LpId>(members[k])};
      const SimTime c = out.clock();
      out.emit(EventKind::collective_start, c, c, kind, static_cast<std::int32_t>(op.id), k == 0 ? 1 : 0);
      (void)t0;
    }
  };
  // Per processor: how long its part of a matrix takes from the operation's start (the stamps of
  // aarrcp_ and remote buffers). 3.1's GetCost gives absolute ends from the senders' clocks; the
  // seed's machines price the matrix from time 0, so their ends are already durations.
  auto stamps = [&](const std::vector<SimTime>& ends, const std::vector<SimTime>& before) {
    std::vector<SimTime> out(static_cast<std::size_t>(root_count_), 0);
    for (std::size_t i = 0; i < out.size() && i < ends.size(); ++i) {
      if (options_.cost == CostStyle::seed)
        out[i] = ends[i];
      else if (ends[i] > before[i])
        out[i] = ends[i] - before[i];
    }
    return out;
  };
  // The original takes the start of an operation from processor 0's clock.
  auto first_clock = [&]() { return st.systems[op.ps].position[0] >= 0 ? clock(0) : clock(members.front()); };

  switch (op.type) {
    case OpType::reduce_start:
      synchronise();
      op.t0 = first_clock();
      start_events(op.t0);
      break;
    case OpType::reduce_wait: {
      const std::int32_t tag =
          op.start_op >= 0 ? static_cast<std::int32_t>(st.op(static_cast<std::uint64_t>(op.start_op)).id) : 0;
      if (options_.cost == CostStyle::seed) {
        // The seed's waitrd_: t1 = t0 + StartR (the machine's grid reduction); a processor whose
        // clock c is below t1 waits t1 − c; the overlap c − t0 comes from the start's event.
        const SimTime t0 = op.start_op >= 0 ? st.op(static_cast<std::uint64_t>(op.start_op)).t0 : first_clock();
        const SimTime t1 = t0 + machine_.grid_reduction_time(op.grid, op.split, op.total_size);
        for (int m : members) {
          Emitter out{s, static_cast<LpId>(m)};
          const SimTime c = out.clock();
          const SimTime after = c < t1 ? t1 : c;
          out.emit(EventKind::collective_wait, c, after, kind, tag, 0, after - c);
        }
        break;
      }
      // Predictor 3.1 StartR: every processor holding part of the loop's pattern sends the
      // reduction variables to processor 0, which sends the result back; the reduction ends
      // when the last message arrives.
      SimTime end = 0;
      for (int k = 1; k < P; ++k) {
        if (!(*op.holders)[static_cast<std::size_t>(k)]) continue;
        machine_.transfer(members[static_cast<std::size_t>(k)], members[0], op.total_size,
                          clock(members[static_cast<std::size_t>(k)]));
      }
      for (int k = 1; k < P; ++k) {
        if (!(*op.holders)[static_cast<std::size_t>(k)]) continue;
        const auto t =
            machine_.transfer(members[0], members[static_cast<std::size_t>(k)], op.total_size, clock(members[0]));
        end = std::max(end, t.arrival);
      }
      // Every processor's completion depends on processor 0's entry (it sends the result): the
      // part of the wait before that entry is waiting for processor 0, the rest the transfer.
      const SimTime root_entry = clock(members[0]);
      for (int m : members) {
        Emitter out{s, static_cast<LpId>(m)};
        const SimTime c = out.clock();
        const SimTime after = c < end ? end : c;
        const SimTime waiting = std::clamp(root_entry - c, SimTime{0}, after - c);
        out.emit(EventKind::collective_wait, c, after, kind, tag, 0, waiting, members[0]);
      }
      break;
    }
    case OpType::shadow_start: {
      const SimTime cost = matrix_cost(nullptr);
      synchronise();
      op.t0 = first_clock();
      op.t1 = op.t0 + (op.divide_by_p ? cost / P : cost);
      start_events(op.t0);
      break;
    }
    case OpType::realign:
    case OpType::copy: {
      const SimTime cost = matrix_cost(nullptr);
      synchronise();
      communicate(cost, 0);
      break;
    }
    case OpType::async_copy: {
      std::vector<SimTime> ends(static_cast<std::size_t>(root_count_), 0);
      const std::vector<SimTime> before = clocks();
      const SimTime cost = matrix_cost(&ends);
      op.t0 = first_clock();
      op.t1 = op.t0 + cost;
      op.stamps = stamps(ends, before);
      for (std::size_t k = 0; k < members.size(); ++k) {
        Emitter out{s, static_cast<LpId>(members[k])};
        const SimTime c = out.clock();
        out.emit(EventKind::collective_start, c, c, kind, static_cast<std::int32_t>(op.id), k == 0 ? 1 : 0);
      }
      break;
    }
    case OpType::io_sync:
      synchronise();
      if (options_.cost == CostStyle::seed) {
        // srmem_ of the seed: after the synchronisation, processor k of the system is busy
        // receiving for the machine's broadcast time Δ_k (IO communication, not an operation).
        const auto delta = machine_.broadcast_times(members, op.io_bytes);
        for (std::size_t k = 0; k < members.size(); ++k) {
          Emitter out{s, static_cast<LpId>(members[k])};
          const SimTime c = out.clock();
          if (op.io_mode) {
            // Inside biof_ … eiof_ only processor 0 advances, as I/O time.
            if (members[k] == 0)
              out.emit(EventKind::compute, c, c + delta[k], static_cast<std::uint8_t>(ComputeCategory::io), 1);
            continue;
          }
          out.emit(EventKind::collective_wait, c, c + delta[k], kind, 0, 0, delta[k]);
        }
      }
      break;
    case OpType::remote_buffer: {
      // crtrbl_: the buffer's messages are priced now; each processor keeps the time from its
      // clock to the last arrival of a message it takes part in (the original's stamps).
      std::vector<SimTime> ends(static_cast<std::size_t>(root_count_), 0);
      const std::vector<SimTime> before = clocks();
      matrix_cost(&ends);
      op.stamps = stamps(ends, before);
      for (std::size_t k = 0; k < members.size(); ++k) {
        Emitter out{s, static_cast<LpId>(members[k])};
        const SimTime c = out.clock();
        out.emit(EventKind::collective_wait, c, c, kind, 0, k == 0 ? 1 : 0, 0);
      }
      break;
    }
    case OpType::across:
      if (op.sync) synchronise();
      start_events(first_clock());
      break;
    case OpType::across_pipeline: {
      // The dopl_ ending an ACROSS loop (spec 6.4): the spread of the clocks is a potential loss
      // (Synchronization of Shadow, clocks unchanged); the pipeline gives each processor its
      // waits for the predecessors' faces (Wait_shadow) and its iterations (CPU usr); the spread
      // of the finishing times is the Time variation of Shadow (clocks unchanged); then the
      // ret TIME as system time on every processor.
      const AcrossLoop& al = *op.across;
      SimTime latest = 0;
      for (int m : members) latest = std::max(latest, clock(m));
      std::vector<double> loop_time, start;
      for (int m : members) {
        Emitter out{s, static_cast<LpId>(m)};
        const SimTime c = out.clock();
        out.emit(EventKind::sync_all, c, c, kind, 2, 0, latest - c);
        loop_time.push_back(machine_.scaled_time(m, al.call));
        start.push_back(c);
      }
      const AcrossRun run = across_pipeline(al.geometry, st.across_price, loop_time, al.loop_size, start);
      SimTime done = 0;
      for (std::size_t k = 0; k < members.size(); ++k) {
        Emitter out{s, static_cast<LpId>(members[k])};
        SimTime c = out.clock();
        if (run.wait[k] > 0) out.emit(EventKind::collective_wait, c, c + run.wait[k], kind, 0, 2, 0);
        c = out.clock();
        if (run.compute[k] > 0) out.emit(EventKind::loop_block, c, c + run.compute[k], 0, std::max(al.identical[k], 1));
        done = std::max(done, out.clock());
      }
      for (std::size_t k = 0; k < members.size(); ++k) {
        Emitter out{s, static_cast<LpId>(members[k])};
        const SimTime c = out.clock();
        out.emit(EventKind::sync_all, c, c, kind, 3, 0, done - c);
        const SimTime r = machine_.scaled_time(members[k], al.ret);
        out.emit(EventKind::compute, c, c + r, static_cast<std::uint8_t>(ComputeCategory::system), P);
      }
      break;
    }
  }
}

// ------------------------------------------------------------------------------------------

engine::StepResult DvmProgram::step(LpId lp, engine::Scheduler& s) {
  State& st = *state_;
  State::Lp& me = st.lps[lp];
  while (me.cursor >= st.base + st.actions.size()) {
    try {
      if (!decode_next()) {
        const SimTime c = s.lp(lp).clock;
        Emitter{s, lp}.emit(EventKind::finish, c, c, 0, 0);
        return StepResult::done;
      }
    } catch (const std::exception& e) {
      s.fail(lp, e.what());
      return StepResult::done;
    }
    if ((st.decoded & 255) == 0) {
      std::uint64_t lowest = me.cursor;
      for (const auto& l : st.lps) lowest = std::min(lowest, l.cursor);
      release(lowest);
    }
  }
  const Action& a = st.actions[static_cast<std::size_t>(me.cursor - st.base)];
  statements_[lp] = a.statement;
  const StepResult r = run_action(lp, a, s);
  if (r == StepResult::blocked) return r;
  ++me.cursor;
  return StepResult::advanced;
}

void DvmProgram::release(std::uint64_t upto) {
  State& st = *state_;
  while (st.base < upto && !st.actions.empty()) {
    st.actions.pop_front();
    ++st.base;
  }
  // Operations, oldest first: one that has run can go when no live action (index ≥ base) and no
  // operation still to run (index ≥ next_op) names it. One that a handle map still names
  // (a reduction group's last start, a shadow group's, a copy flag, a remote buffer) may be
  // named again by a later call: it moves to `retained` until the map lets go of it.
  auto unnamed = [&](const Op& op) { return op.last_action <= st.base && op.last_op <= st.next_op; };
  st.held.clear();
  for (const auto& [ref, start] : st.red_group_start) st.held.push_back(static_cast<std::uint64_t>(start));
  for (const auto& [ref, shadow] : st.shadows) {
    if (shadow.last_start >= 0) st.held.push_back(static_cast<std::uint64_t>(shadow.last_start));
  }
  for (const auto& [ref, op] : st.copy_flags) st.held.push_back(static_cast<std::uint64_t>(op));
  for (const auto& [ref, op] : st.buffers) st.held.push_back(static_cast<std::uint64_t>(op));
  std::sort(st.held.begin(), st.held.end());
  auto held = [&](std::uint64_t index) { return std::binary_search(st.held.begin(), st.held.end(), index); };
  while (!st.ops.empty() && st.ops_base < st.next_op && unnamed(st.ops.front())) {
    if (held(st.ops_base)) st.retained.emplace(st.ops_base, std::move(st.ops.front()));
    st.ops.pop_front();
    ++st.ops_base;
  }
  for (auto it = st.retained.begin(); it != st.retained.end();) {
    if (!held(it->first) && unnamed(it->second))
      it = st.retained.erase(it);
    else
      ++it;
  }
}

DvmProgram::Footprint DvmProgram::footprint() const {
  const State& st = *state_;
  return {st.actions.size(), st.ops.size() + st.retained.size(), st.peak_actions, st.peak_ops};
}

engine::WaitInfo DvmProgram::waits_for(LpId lp) const {
  engine::WaitInfo w;
  const State& st = *state_;
  const Action* a = action_at(st.lps[lp].cursor);
  w.kind = engine::WaitInfo::Kind::collective;
  if (a != nullptr && a->kind == ActionKind::op) {
    for (int m : st.systems[a->ps].members) {
      if (!st.lps[static_cast<std::size_t>(m)].arrived) w.peers.push_back(m);
    }
  }
  w.what = "a group operation of its processor system";
  return w;
}

std::string DvmProgram::describe(LpId lp) const {
  const State& st = *state_;
  return fmt::format("DVM processor {}: call {} of the trace, interval {}", lp, st.lps[lp].cursor, st.lps[lp].interval);
}

void DvmProgram::close_intervals() {
  State& st = *state_;
  for (int id = 2; id < static_cast<int>(st.active_at_exit.size()); ++id) {
    analysis::Interval* in = tree_.by_id(id);
    if (in != nullptr && !st.active_at_exit[static_cast<std::size_t>(id)].empty()) {
      analysis::IntervalTree::close_interval(*in, st.active_at_exit[static_cast<std::size_t>(id)]);
    }
  }
  // The original closes the interval current at the end over the current processor system.
  analysis::IntervalTree::close_interval(tree_.current(), st.systems[st.current_ps].members);
}

const analysis::Interval* DvmProgram::report_root() const { return &tree_.current(); }

}  // namespace augur::models::dvm
