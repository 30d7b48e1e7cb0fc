// The DVM runtime model on the engine (spec section 6): the program's frame. Decoding happens
// once per call in trace order (the handlers of decode_*.cpp, one family per file); each LP then
// replays the decoded calls on its own clock (replay_actions.cpp); group operations wait for every
// processor of their processor system and run in trace order (replay_groups.cpp), so channel
// occupancy and clocks are those of the original's sequential model.
#include "models/dvm/dvm_program.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <stdexcept>

#include "engine/log.hpp"
#include "engine/scheduler.hpp"
#include "models/analysis/statement_key.hpp"
#include "models/dvm/decode.hpp"
#include "models/dvm/replay.hpp"

namespace augur::models::dvm {

using engine::EventBuilder;
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
  machine_.dvm_pricing().arrange(options_.grid);
  if (root_count_ >= 2) {
    // ACROSS pipelines price their messages as Ts + Tb·bytes: the machine's price of one message
    // of 1 and of 2 bytes from processor 0 to 1, before the run (as 3.1's CommCost::Across does).
    std::vector<std::vector<std::uint64_t>> probe(static_cast<std::size_t>(root_count_),
                                                  std::vector<std::uint64_t>(static_cast<std::size_t>(root_count_), 0));
    probe[0][1] = 1;
    const double one = machine_.dvm_pricing().matrix_cost(probe);
    probe[0][1] = 2;
    const double two = machine_.dvm_pricing().matrix_cost(probe);
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
  a.statement = analysis::statement_key(c.source_file_id(), c.source_line());
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

engine::StepResult DvmProgram::run_action(LpId lp, const Action& a, engine::Scheduler& s) {
  State& st = *state_;
  const State::Ps& ps = st.systems[a.ps];
  LpReplay r{st, machine_, a, lp, ps.position[lp], static_cast<int>(ps.members.size()), root_count_, Emitter{s, lp}};
  if (a.kind != ActionKind::op) {
    replay_action(r);
    return StepResult::advanced;
  }
  if (r.pos < 0) return StepResult::advanced;
  State::Lp& me = st.lps[lp];
  if (!me.op_done) {
    if (!me.arrived) {
      // arrcpy_: the user-time split comes before the synchronisation.
      if (a.share) r.user_share(true);
      me.arrived = true;
      ++st.op(static_cast<std::uint64_t>(a.op)).arrived;
    }
    execute_ready_ops(s);
    if (!me.op_done) return StepResult::blocked;
  }
  me.arrived = false;
  me.op_done = false;
  if (a.regular_after) r.regular();
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
  GroupRun g{*state_, machine_, options_, s, op, state_->systems[op.ps].members, root_count_};
  execute_group_op(g);
}

// ------------------------------------------------------------------------------------------

engine::StepResult DvmProgram::step(LpId lp, engine::Scheduler& s) {
  State& st = *state_;
  State::Lp& me = st.lps[lp];
  while (me.cursor >= st.base + st.actions.size()) {
    try {
      if (!decode_next()) {
        const SimTime c = s.lp(lp).clock;
        Emitter{s, lp}.emit(EventBuilder(EventKind::finish).at(c));
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

const std::vector<int>& DvmProgram::root_extents() const { return state_->systems.front().system.sizes(); }

std::vector<std::string> DvmProgram::differences() const {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < difference_count; ++k) {
    const auto d = static_cast<Difference>(k);
    if ((state_->differences >> k) & 1u) out.push_back(fmt::format("{} {}", difference_id(d), difference_text(d)));
  }
  return out;
}

const char* difference_id(Difference d) {
  static constexpr std::array<const char*, difference_count> ids = {"Q1", "Q2", "Q3", "Q4"};
  return ids[static_cast<std::size_t>(d)];
}

const char* difference_text(Difference d) {
  static constexpr std::array<const char*, difference_count> texts = {
      "psview_: 3.1 overwrites the current processor system with the view; augur keeps it and makes the view current",
      "remote buffers: 2.53 fills the transfer matrix receiver by holder; augur holder by receiver (3.1)",
      "arrcpy_: 3.1 gives a written region with a negative bound (Init -1) size 0 and charges its user time to "
      "nobody; augur splits it by the region as written",
      "ACROSS: 2.53 runs the old-DVM pipeline of 3.1 with its own prices and bookings, after an across_ that does "
      "not synchronise; augur its own pipeline (seed)",
  };
  return texts[static_cast<std::size_t>(d)];
}

}  // namespace augur::models::dvm
