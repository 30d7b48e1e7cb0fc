// The message-passing model's replay of one trace record: a handler per kind of action (as
// SimGrid's replayer has one per action), chosen by MpProgram::start_record.
#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

#include "models/mp/collectives.hpp"
#include "models/mp/mp_program.hpp"
#include "traces/trace_error.hpp"

namespace augur::models::mp {

using engine::EventBuilder;
using engine::EventKind;
using engine::StepResult;
using traces::MpOpKind;

namespace {

/// The collective call of a trace record, its per-rank counts those of `processors` ranks.
CollectiveCall collective_call(engine::CollectiveKind kind, const traces::MpRecord& rec, int processors) {
  CollectiveCall call;
  call.kind = kind;
  call.root = rec.root;
  call.send_bytes = rec.bytes;
  call.recv_bytes = rec.bytes2;
  call.comp_flops = rec.amount;
  const auto n = static_cast<std::size_t>(processors);
  switch (kind) {
    case engine::CollectiveKind::alltoallv:
      if (rec.counts.size() >= 2 * n) {
        call.send_counts = rec.counts.subspan(0, n);
        call.recv_counts = rec.counts.subspan(n, n);
      }
      break;
    case engine::CollectiveKind::scatterv:
      call.send_counts = rec.counts;
      break;
    case engine::CollectiveKind::gatherv:
    case engine::CollectiveKind::allgatherv:
    case engine::CollectiveKind::reduce_scatter:
      call.recv_counts = rec.counts;
      break;
    default:
      break;
  }
  return call;
}

}  // namespace

/// A compute record on a machine with a roofline node: its flops, memory bytes (the part split by
/// level at those levels, the rest at the chosen one) and math-function calls (`counts`, in
/// machines::MathFn order) priced by the node.
engine::SimTime MpProgram::node_time(LpId lp, const traces::MpRecord& rec) {
  machines::ComputeWork work;
  work.flops = rec.amount;
  for (std::size_t i = 0; i < rec.counts.size() && i < machines::kMathFnCount; ++i)
    work.math_calls[i] = static_cast<double>(rec.counts[i]);
  std::uint64_t split = 0;
  if (!rec.level_bytes.empty()) {
    node_level_bytes_.assign(machine_.node()->levels.size(), 0.0);
    for (std::size_t i = 0; i < rec.level_bytes.size() && i < node_level_of_.size(); ++i) {
      node_level_bytes_[node_level_of_[i]] += static_cast<double>(rec.level_bytes[i]);
      split += rec.level_bytes[i];
    }
    work.level_bytes = node_level_bytes_;
  }
  work.bytes = static_cast<double>(rec.bytes - std::min(split, rec.bytes));
  return machine_.compute_time(static_cast<int>(lp), work);
}

StepResult MpProgram::start_record(LpId lp, engine::Scheduler& s) {
  bool has = false;
  try {
    has = trace_.next(static_cast<int>(lp), record_);
  } catch (const traces::TraceError& e) {
    s.fail(lp, e.what());
    return StepResult::blocked;
  }
  if (!has) return finish_rank(lp, s);
  const traces::MpRecord& rec = record_;
  ranks_[lp].line = rec.line;
  switch (rec.kind) {
    case MpOpKind::init:
    case MpOpKind::finalize:
    case MpOpKind::comm_size:
    case MpOpKind::comm_split:
    case MpOpKind::comm_dup:
      return StepResult::advanced;  // nothing to replay
    case MpOpKind::location:
      return replay_location(lp, rec, s);
    case MpOpKind::compute:
      if (machine_.node()) return run_op(lp, Op{OpKind::timed, -1, 0, 0, 0, node_time(lp, rec)}, s);
      return run_op(lp, Op{OpKind::compute, -1, 0, 0, 0, rec.amount}, s);
    case MpOpKind::sleep:
      return run_op(lp, Op{OpKind::sleep, -1, 0, 0, 0, rec.amount}, s);
    case MpOpKind::send:
    case MpOpKind::recv:
    case MpOpKind::isend:
    case MpOpKind::irecv:
      return replay_point_to_point(lp, rec, s);
    case MpOpKind::wait:
    case MpOpKind::test:
      return replay_wait_or_test(lp, rec, s);
    case MpOpKind::waitall:
      return replay_waitall(lp, s);
    case MpOpKind::send_recv:
      return replay_send_recv(lp, rec);
    default:
      return replay_collective(lp, rec, s);
  }
}

StepResult MpProgram::finish_rank(LpId lp, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  const SimTime clock = s.lp(lp).clock;
  if (r.region >= 0) {  // the last `location` region ends with the rank
    emit(s, lp,
         EventBuilder(EventKind::interval_exit)
             .at(clock)
             .tag(static_cast<std::int32_t>(regions_[static_cast<std::size_t>(r.region)].line)));
  }
  r.finished = true;
  if (!r.pending.empty()) {
    warn(fmt::format("rank {} finished with {} non-blocking request(s) never waited for (last line {})", lp,
                     r.pending.size(), where(lp)));
  }
  emit(s, lp, EventBuilder(EventKind::finish).at(clock));
  return StepResult::done;
}

StepResult MpProgram::replay_location(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  const SimTime clock = s.lp(lp).clock;
  // A region lasts from one `location` to the next: leave the previous one, enter this one.
  if (r.region >= 0) {
    emit(s, lp,
         EventBuilder(EventKind::interval_exit)
             .at(clock)
             .tag(static_cast<std::int32_t>(regions_[static_cast<std::size_t>(r.region)].line)));
  }
  auto key = std::make_pair(std::string(rec.text), static_cast<std::int64_t>(rec.count));
  auto [it, added] = region_ids_.try_emplace(std::move(key), static_cast<std::int32_t>(regions_.size()));
  if (added) regions_.push_back(Region{it->first.first, it->first.second});
  r.region = it->second;
  emit(s, lp, EventBuilder(EventKind::interval_enter).at(clock).tag(static_cast<std::int32_t>(rec.count)));
  return StepResult::advanced;
}

StepResult MpProgram::replay_point_to_point(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  const OpKind k = rec.kind == MpOpKind::send    ? OpKind::send
                   : rec.kind == MpOpKind::recv  ? OpKind::recv
                   : rec.kind == MpOpKind::isend ? OpKind::trace_isend
                                                 : OpKind::trace_irecv;
  // Run as the op group of one it is (op_pos 1, ops empty); a deferred any-source receive
  // (run_op steps op_pos back to 0) is kept in the group to be retried.
  if (rec.comm != 0 && (rec.comm < 0 || static_cast<std::size_t>(rec.comm) >= comms_.size())) {
    s.fail(lp, fmt::format("{}: error: {}: unknown communicator {}", where(lp), traces::to_string(rec.kind), rec.comm));
    return StepResult::blocked;
  }
  // Matched by (communicator, source, tag): peers are world ranks already (the reader translated
  // them through the communicator's group); the communicator keeps equal tags apart.
  const Op op{k, rec.peer, rec.tag, rec.comm, rec.bytes, 0};
  r.op_pos = 1;
  const StepResult result = run_op(lp, op, s);
  if (r.op_pos == 0) {
    r.ops.push_back(op);
  } else {
    r.op_pos = 0;
  }
  return result;
}

StepResult MpProgram::replay_wait_or_test(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  // The oldest pending request with key (src, dst, tag): src == me means a send.
  const bool is_send = rec.peer == static_cast<std::int32_t>(lp);
  const std::int32_t other = is_send ? rec.peer2 : rec.peer;
  auto it = std::find_if(r.pending.begin(), r.pending.end(), [&](std::uint32_t id) {
    const Request& q = requests_[id];
    return q.is_send == is_send && q.peer == other && q.tag == rec.tag && q.comm == rec.comm;
  });
  if (it == r.pending.end()) {
    warn(fmt::format("{}: warning: {} {} {} {} matches no pending request; ignored (as SimGrid does)", where(lp),
                     traces::to_string(rec.kind), rec.peer, rec.peer2, rec.tag));
    return StepResult::advanced;
  }
  if (rec.kind == MpOpKind::test) {
    const SimTime pause = machine_.test_time() * static_cast<double>(tests_in_row_);
    if (pause <= 0) return finish_test(lp, *it, other, rec.tag, 0, s);
    // As SMPI: pause, then test at the later clock (the network has reached it by then).
    r.ops.push_back(Op{OpKind::test_pause, -1, 0, 0, 0, pause});
    r.ops.push_back(Op{OpKind::trace_test, other, rec.tag, 0, *it, pause});
    return StepResult::advanced;
  }
  r.wait_req = *it;
  return block(lp, WaitMode::request, EventKind::wait, other, rec.tag, requests_[*it].bytes, 0, s);
}

StepResult MpProgram::finish_test(LpId lp, std::uint32_t id, std::int32_t peer, std::int32_t tag, SimTime paused,
                                  engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  const SimTime clock = s.lp(lp).clock;
  if (requests_[id].known && requests_[id].complete <= clock) {
    r.pending.erase(std::find(r.pending.begin(), r.pending.end(), id));
    free_request(id);
    tests_in_row_ = 1;
  } else {
    ++tests_in_row_;
  }
  emit(s, lp, EventBuilder(EventKind::test).span(clock - paused, clock).peer(peer).tag(tag));
  return StepResult::advanced;
}

StepResult MpProgram::replay_waitall(LpId lp, engine::Scheduler& s) {
  if (ranks_[lp].pending.empty()) {
    const SimTime clock = s.lp(lp).clock;
    emit(s, lp, EventBuilder(EventKind::waitall).at(clock));
    return StepResult::advanced;
  }
  return block(lp, WaitMode::pending, EventKind::waitall, -1, 0, 0, 0, s);
}

StepResult MpProgram::replay_send_recv(LpId lp, const traces::MpRecord& rec) {
  std::vector<Op>& ops = ranks_[lp].ops;
  ops.push_back(Op{OpKind::isend, rec.peer, 0, 0, rec.bytes, 0});
  ops.push_back(Op{OpKind::irecv, rec.peer2, 0, 0, rec.bytes2, 0});
  ops.push_back(Op{OpKind::waitall, -1, 0, 0, 0, 0});
  return StepResult::advanced;
}

void MpProgram::set_communicators(traces::MpCommunicators table) {
  if (table.size() > static_cast<std::size_t>(max_communicators)) {
    throw std::invalid_argument(fmt::format("{} communicators: at most {}", table.size(), max_communicators));
  }
  comms_.resize(table.size());
  for (std::size_t c = 1; c < table.size(); ++c) {
    Communicator& comm = comms_[c];
    comm.members = std::move(table[c]);
    for (std::size_t i = 0; i < comm.members.size(); ++i) {
      const std::int32_t world = comm.members[i];
      if (world < 0 || world >= processors_) {
        throw std::invalid_argument(
            fmt::format("communicator {} has member {} but the trace has {} ranks", c, world, processors_));
      }
      comm.by_world.emplace_back(world, static_cast<std::int32_t>(i));
    }
    std::sort(comm.by_world.begin(), comm.by_world.end());
    comm.entered.assign(comm.members.size(), 0);
  }
}

std::int32_t MpProgram::comm_rank(std::int32_t comm, std::int32_t world) const {
  const auto& by_world = comms_[static_cast<std::size_t>(comm)].by_world;
  auto it = std::lower_bound(by_world.begin(), by_world.end(), std::make_pair(world, std::int32_t{-1}));
  return it != by_world.end() && it->first == world ? it->second : -1;
}

StepResult MpProgram::replay_collective(LpId lp, const traces::MpRecord& rec, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  const auto kind = collective_of(rec.kind);
  if (!kind) {
    s.fail(lp, fmt::format("{}: error: action '{}' is not supported by the message-passing model", where(lp),
                           traces::to_string(rec.kind)));
    return StepResult::blocked;
  }
  // The algorithm runs over the communicator's ranks: its size, this rank's and the root's rank in it.
  const std::int32_t comm = rec.comm;
  int size = processors_, me = static_cast<int>(lp), root = rec.root;
  if (comm != 0) {
    const auto fail = [&](const std::string& problem) {
      s.fail(lp, fmt::format("{}: error: {}: {}", where(lp), engine::to_string(*kind), problem));
      return StepResult::blocked;
    };
    if (comm < 0 || static_cast<std::size_t>(comm) >= comms_.size())
      return fail(fmt::format("unknown communicator {}", comm));
    me = comm_rank(comm, me);
    if (me < 0) return fail(fmt::format("rank {} is not a member of communicator {}", lp, comm));
    root = comm_rank(comm, rec.root);
    if (root < 0 && has_root(*kind))
      return fail(fmt::format("root {} is not a member of communicator {}", rec.root, comm));
    size = static_cast<int>(comms_[static_cast<std::size_t>(comm)].members.size());
    root = std::max(root, 0);
  }
  r.coll_kind = *kind;
  r.coll_root = rec.root;
  r.coll_bytes = rec.bytes;
  r.coll_comm = comm;
  r.coll_number =
      comm == 0 ? ++r.coll_seq : ++comms_[static_cast<std::size_t>(comm)].entered[static_cast<std::size_t>(me)];
  if (analytic_[static_cast<std::size_t>(*kind)]) return analytic_collective(lp, rec, size, root, s);
  const std::size_t first = r.ops.size();
  try {
    CollectiveCall call = collective_call(*kind, rec, size);
    call.root = root;
    expand_collective(call, me, size, algorithms_[static_cast<std::size_t>(*kind)], r.ops);
  } catch (const std::exception& e) {
    s.fail(lp, fmt::format("{}: error: {}", where(lp), e.what()));
    return StepResult::blocked;
  }
  if (comm != 0) {
    map_to_communicator(std::span<Op>(r.ops).subspan(first), comms_[static_cast<std::size_t>(comm)].members,
                        collective_tag(*kind, comm));
  }
  const SimTime clock = s.lp(lp).clock;
  r.op_pos = 0;
  r.in_collective = true;
  r.coll_enter = clock;
  emit(s, lp,
       EventBuilder(EventKind::collective_begin)
           .at(clock)
           .peer(rec.root)
           .tag(collective_event_tag(*kind, comm))
           .bytes(rec.bytes)
           .detail(static_cast<std::uint8_t>(static_cast<int>(*kind) + 1)));
  return StepResult::advanced;
}

StepResult MpProgram::finish_collective(LpId lp, engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  const SimTime clock = s.lp(lp).clock;
  r.in_collective = false;
  // A collective's expansion can be long (log P ops and more): give its memory back rather than
  // keep it per rank until the next collective (a trace's sendRecv needs 3 ops, kept).
  if (r.ops.capacity() > 4) {
    std::vector<Op>().swap(r.ops);
  } else {
    r.ops.clear();
  }
  if (r.group.empty() && r.group.capacity() > 4) std::vector<std::uint32_t>().swap(r.group);
  r.op_pos = 0;
  emit(s, lp,
       EventBuilder(EventKind::collective_end)
           .span(r.coll_enter, clock)
           .peer(r.coll_root)
           .tag(engine::collective_event_tag(r.coll_kind, r.coll_comm))
           .bytes(r.coll_bytes)
           .detail(static_cast<std::uint8_t>(static_cast<int>(r.coll_kind) + 1)));
  return StepResult::advanced;
}

StepResult MpProgram::analytic_collective(LpId lp, const traces::MpRecord& rec, int size, int root,
                                          engine::Scheduler& s) {
  Rank& r = ranks_[lp];
  SimTime& clock = s.lp(lp).clock;
  Collective& c = collectives_[collective_key(r)];
  ++c.entered;
  c.max_enter = std::max(c.max_enter, clock);
  r.coll_enter = clock;
  // SimGrid's replay executes the reduction's flops after the operation: so do we.
  const bool reduces = r.coll_kind == engine::CollectiveKind::reduce ||
                       r.coll_kind == engine::CollectiveKind::allreduce ||
                       r.coll_kind == engine::CollectiveKind::scan || r.coll_kind == engine::CollectiveKind::exscan ||
                       r.coll_kind == engine::CollectiveKind::reduce_scatter;
  if (reduces && rec.amount > 0) {
    r.ops.push_back(Op{OpKind::compute, -1, 0, 0, 0, rec.amount});
    r.op_pos = 0;
  }
  r.wait = WaitMode::collective;
  r.wait_since = clock;
  if (c.entered == static_cast<std::uint32_t>(size)) {
    c.end = c.max_enter + machine_.collective_time(r.coll_kind, size, rec.bytes, root);
    for (LpId w : c.waiters) s.wake(w, c.end);
    c.waiters.clear();
    return resume(lp, s);
  }
  c.waiters.push_back(lp);
  return StepResult::blocked;
}

}  // namespace augur::models::mp
