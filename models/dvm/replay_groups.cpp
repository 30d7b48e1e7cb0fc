// Running a group operation once every member of its processor system has arrived: reductions,
// shadow starts and ACROSS pipelines, realign/redistribution and copies, remote buffers, srmem_.
#include <algorithm>

#include "models/dvm/replay.hpp"

namespace augur::models::dvm {

using engine::ComputeCategory;
using engine::EventBuilder;
using engine::EventKind;
using engine::LpId;
using engine::SimTime;

namespace {

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

}  // namespace

const std::vector<SimTime>& GroupRun::clocks() {
  st.clocks.resize(static_cast<std::size_t>(root_count));
  for (int p = 0; p < root_count; ++p) st.clocks[static_cast<std::size_t>(p)] = clock(p);
  return st.clocks;
}

SimTime GroupRun::first_clock() const { return st.systems[op.ps].position[0] >= 0 ? clock(0) : clock(members.front()); }

void GroupRun::synchronise() {
  // Every processor waits for the latest one (synchronization of this kind, counted as its
  // communication); the latest is the lowest number among equals.
  SimTime latest = 0;
  int last = members.front();
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
      out.emit(EventBuilder(EventKind::sync_all).at(c).waited(latest - c).tag(2).detail(kind()));
      if (m == 0)
        out.emit(EventBuilder(EventKind::compute)
                     .span(c, latest)
                     .waited(latest - c)
                     .tag(1)
                     .detail(static_cast<std::uint8_t>(ComputeCategory::io)));
      continue;
    }
    out.emit(EventBuilder(EventKind::sync_all).span(c, latest).waited(latest - c).peer(last).detail(kind()));
  }
}

void GroupRun::communicate(SimTime cost, std::int32_t tag) {
  for (std::size_t k = 0; k < members.size(); ++k) {
    Emitter out{s, static_cast<LpId>(members[k])};
    const SimTime c = out.clock();
    if (op.io_mode) {
      if (k == 0) out.emit(EventBuilder(EventKind::collective_wait).at(c).detail(kind()).internal(1));
      if (members[k] == 0)
        out.emit(EventBuilder(EventKind::compute)
                     .span(c, c + cost)
                     .waited(cost)
                     .tag(1)
                     .detail(static_cast<std::uint8_t>(ComputeCategory::io)));
      continue;
    }
    out.emit(EventBuilder(EventKind::collective_wait)
                 .span(c, c + cost)
                 .waited(cost)
                 .tag(tag)
                 .detail(kind())
                 .internal(k == 0 ? 1 : 0));
  }
}

SimTime GroupRun::matrix_cost(std::vector<SimTime>* end_per_proc) {
  const TransferMatrix& m = op.transfers();
  if (m.size() == 0 || m.empty()) return 0;
  return machine.dvm_pricing().matrix_cost_at(as_rows(m, st.rows), clocks(), end_per_proc);
}

void GroupRun::start_events() {
  for (std::size_t k = 0; k < members.size(); ++k) {
    Emitter out{s, static_cast<LpId>(members[k])};
    const SimTime c = out.clock();
    out.emit(EventBuilder(EventKind::collective_start)
                 .at(c)
                 .tag(static_cast<std::int32_t>(op.id))
                 .detail(kind())
                 .internal(k == 0 ? 1 : 0));
  }
}

// 3.1's GetCost gives absolute ends from the senders' clocks; the seed's machines price the
// matrix from time 0, so their ends are already durations.
std::vector<SimTime> GroupRun::stamps(const std::vector<SimTime>& ends, const std::vector<SimTime>& before) const {
  std::vector<SimTime> out(static_cast<std::size_t>(root_count), 0);
  for (std::size_t i = 0; i < out.size() && i < ends.size(); ++i) {
    if (options.cost == CostStyle::seed)
      out[i] = ends[i];
    else if (ends[i] > before[i])
      out[i] = ends[i] - before[i];
  }
  return out;
}

namespace {

void reduce_start(GroupRun& g) {
  g.synchronise();
  g.op.t0 = g.first_clock();
  g.start_events();
}

/// The seed's waitrd_: t1 = t0 + StartR (the machine's grid reduction); a processor whose clock
/// c is below t1 waits t1 − c; the overlap c − t0 comes from the start's event.
void seed_reduce_wait(GroupRun& g, std::int32_t tag) {
  const DvmProgram::Op& op = g.op;
  const SimTime t0 = op.start_op >= 0 ? g.st.op(static_cast<std::uint64_t>(op.start_op)).t0 : g.first_clock();
  const SimTime t1 = t0 + g.machine.dvm_pricing().grid_reduction_time(op.grid, op.split, op.total_size);
  for (int m : g.members) {
    Emitter out{g.s, static_cast<LpId>(m)};
    const SimTime c = out.clock();
    const SimTime after = c < t1 ? t1 : c;
    out.emit(EventBuilder(EventKind::collective_wait).span(c, after).waited(after - c).tag(tag).detail(g.kind()));
  }
}

/// Predictor 3.1's StartR: every processor holding part of the loop's pattern sends the
/// reduction variables to processor 0, which sends the result back; the reduction ends when
/// the last message arrives.
void reduce_wait(GroupRun& g) {
  const DvmProgram::Op& op = g.op;
  const std::int32_t tag =
      op.start_op >= 0 ? static_cast<std::int32_t>(g.st.op(static_cast<std::uint64_t>(op.start_op)).id) : 0;
  if (g.options.cost == CostStyle::seed) return seed_reduce_wait(g, tag);
  const auto& members = g.members;
  SimTime end = 0;
  for (int k = 1; k < g.processors(); ++k) {
    if (!(*op.holders)[static_cast<std::size_t>(k)]) continue;
    g.machine.transfer(members[static_cast<std::size_t>(k)], members[0], op.total_size,
                       g.clock(members[static_cast<std::size_t>(k)]));
  }
  for (int k = 1; k < g.processors(); ++k) {
    if (!(*op.holders)[static_cast<std::size_t>(k)]) continue;
    const auto t =
        g.machine.transfer(members[0], members[static_cast<std::size_t>(k)], op.total_size, g.clock(members[0]));
    end = std::max(end, t.arrival);
  }
  // Every processor's completion depends on processor 0's entry (it sends the result): the
  // part of the wait before that entry is waiting for processor 0, the rest the transfer.
  const SimTime root_entry = g.clock(members[0]);
  for (int m : members) {
    Emitter out{g.s, static_cast<LpId>(m)};
    const SimTime c = out.clock();
    const SimTime after = c < end ? end : c;
    const SimTime waiting = std::clamp(root_entry - c, SimTime{0}, after - c);
    out.emit(EventBuilder(EventKind::collective_wait)
                 .span(c, after)
                 .waited(waiting)
                 .peer(members[0])
                 .tag(tag)
                 .detail(g.kind()));
  }
}

void shadow_start(GroupRun& g) {
  const SimTime cost = g.matrix_cost(nullptr);
  g.synchronise();
  g.op.t0 = g.first_clock();
  g.op.t1 = g.op.t0 + (g.op.divide_by_p ? cost / g.processors() : cost);
  g.start_events();
}

/// realn_, redis_, arrcpy_: synchronise, then the matrix's cost on every member.
void matrix_transfer(GroupRun& g) {
  const SimTime cost = g.matrix_cost(nullptr);
  g.synchronise();
  g.communicate(cost, 0);
}

void async_copy(GroupRun& g) {
  std::vector<SimTime> ends(static_cast<std::size_t>(g.root_count), 0);
  const std::vector<SimTime> before = g.clocks();
  const SimTime cost = g.matrix_cost(&ends);
  g.op.t0 = g.first_clock();
  g.op.t1 = g.op.t0 + cost;
  g.op.stamps = g.stamps(ends, before);
  g.start_events();
}

void io_sync(GroupRun& g) {
  g.synchronise();
  if (g.options.cost != CostStyle::seed) return;
  // srmem_ of the seed: after the synchronisation, processor k of the system is busy receiving
  // for the machine's broadcast time Δ_k (IO communication, not an operation).
  const auto delta = g.machine.dvm_pricing().broadcast_times(g.members, g.op.io_bytes);
  for (std::size_t k = 0; k < g.members.size(); ++k) {
    Emitter out{g.s, static_cast<LpId>(g.members[k])};
    const SimTime c = out.clock();
    if (g.op.io_mode) {
      // Inside biof_ … eiof_ only processor 0 advances, as I/O time.
      if (g.members[k] == 0)
        out.emit(EventBuilder(EventKind::compute)
                     .span(c, c + delta[k])
                     .waited(delta[k])
                     .tag(1)
                     .detail(static_cast<std::uint8_t>(ComputeCategory::io)));
      continue;
    }
    out.emit(EventBuilder(EventKind::collective_wait).span(c, c + delta[k]).waited(delta[k]).detail(g.kind()));
  }
}

/// crtrbl_: the buffer's messages are priced now; each processor keeps the time from its clock
/// to the last arrival of a message it takes part in (the original's stamps).
void remote_buffer(GroupRun& g) {
  std::vector<SimTime> ends(static_cast<std::size_t>(g.root_count), 0);
  const std::vector<SimTime> before = g.clocks();
  g.matrix_cost(&ends);
  g.op.stamps = g.stamps(ends, before);
  for (std::size_t k = 0; k < g.members.size(); ++k) {
    Emitter out{g.s, static_cast<LpId>(g.members[k])};
    const SimTime c = out.clock();
    out.emit(EventBuilder(EventKind::collective_wait).at(c).detail(g.kind()).internal(k == 0 ? 1 : 0));
  }
}

void across(GroupRun& g) {
  if (g.op.sync) g.synchronise();
  g.start_events();
}

/// 3.1's ACROSS bookings on the members' LPs (positions of the loop's system).
class Across31Events final : public Across31Hooks {
 public:
  explicit Across31Events(GroupRun& g) : g_(g) {}
  double clock(int pos) override { return g_.clock(member(pos)); }
  std::pair<double, double> send(double ready, int from, int to, Index bytes) override {
    const machines::Transfer t =
        g_.machine.transfer(member(from), member(to), static_cast<std::uint64_t>(std::max<Index>(bytes, 0)), ready);
    return {t.start, t.arrival};
  }
  void wait_shadow(int pos, double t, double overlap) override {
    Emitter out{g_.s, static_cast<LpId>(member(pos))};
    const SimTime c = out.clock();
    out.emit(EventBuilder(EventKind::collective_wait).span(c, c + t).waited(overlap).detail(g_.kind()).internal(2));
  }
  void system_loss(int pos, double t) override {
    Emitter out{g_.s, static_cast<LpId>(member(pos))};
    const SimTime c = out.clock();
    const auto sys = static_cast<std::uint8_t>(ComputeCategory::system);
    out.emit(EventBuilder(EventKind::compute).span(c, c + t).waited(t).tag(1).detail(sys));
    out.emit(EventBuilder(EventKind::compute).at(c + t).waited(t).detail(sys));
  }

 private:
  int member(int pos) const { return g_.members[static_cast<std::size_t>(pos)]; }
  GroupRun& g_;
};

/// The dopl_'s iterations on every member (identical blocks: insufficient parallelism).
void loop_iterations(GroupRun& g, const AcrossLoop& al) {
  for (std::size_t k = 0; k < g.members.size(); ++k) {
    Emitter out{g.s, static_cast<LpId>(g.members[k])};
    const auto [iters, cnt] = k < al.blocks->size() ? (*al.blocks)[k] : std::pair<Index, int>{0, 1};
    if (iters > 0 && al.loop_size > 0) {
      const double t = g.machine.scaled_time(g.members[k], al.call) *
                       (static_cast<double>(iters) / static_cast<double>(al.loop_size));
      const SimTime c = out.clock();
      out.emit(EventBuilder(EventKind::loop_block).span(c, c + t).waited(t).tag(std::max(cnt, 1)).detail(0));
    }
  }
}

/// The dopl_'s ret TIME on every member: system time with (P−1)/P insufficient parallelism.
void loop_ret(GroupRun& g, const AcrossLoop& al) {
  for (std::size_t k = 0; k < g.members.size(); ++k) {
    Emitter out{g.s, static_cast<LpId>(g.members[k])};
    const SimTime c = out.clock();
    const SimTime r = g.machine.scaled_time(g.members[k], al.ret);
    out.emit(EventBuilder(EventKind::compute)
                 .span(c, c + r)
                 .waited(r)
                 .tag(g.processors())
                 .detail(static_cast<std::uint8_t>(ComputeCategory::system)));
  }
}

/// The dopl_'s own times: its iterations, then its ret TIME.
void loop_times(GroupRun& g, const AcrossLoop& al) {
  loop_iterations(g, al);
  loop_ret(g, al);
}

/// 3.1's dopl_ with DoPL = 1: the edge exchange, then the dopl_'s own times.
void across_edges(GroupRun& g) {
  Across31Events events(g);
  across31_edges(g.op.across->loop31, events);
  loop_times(g, *g.op.across);
}

/// The spread of the members' clocks as `tag` (2: synchronization, 3: time variation).
void spread(GroupRun& g, std::int32_t tag) {
  SimTime latest = 0;
  for (int m : g.members) latest = std::max(latest, g.clock(m));
  for (int m : g.members) {
    Emitter out{g.s, static_cast<LpId>(m)};
    const SimTime c = out.clock();
    out.emit(EventBuilder(EventKind::sync_all).at(c).waited(latest - c).tag(tag).detail(g.kind()));
  }
}

/// 3.1's dopl_ with DoPL = 0: the clocks' spread (synchronization), the pipeline's waits, the
/// spread after them (time variation), then the dopl_'s own times.
/// 2.53's dopl_ with DoPL = 0 of a loop over one axis (CommCost::Across, no pipeline): position
/// i = 1 … p₀ − 1 in order waits Ts + width · TByte plus its predecessor's lead (2.53 compares
/// the interval's execution times, the clocks here; position 1 has no predecessor's lead), then
/// positions 0 … p₀ − 1 compute the loop's time / p₀ each, whatever their blocks.
void flat_loop253(GroupRun& g, const AcrossLoop& al, Across31Events& events) {
  const Across31Loop& loop = al.loop31;
  const int p0 = std::min(loop.grid.empty() ? 1 : loop.grid.front(), g.processors());
  const double face = g.st.across_price.ts + static_cast<double>(loop.width.empty() ? 0 : loop.width.front()) *
                                                 g.st.across_price.tb * static_cast<double>(loop.type_size);
  for (int i = 1; i < p0; ++i) {
    const auto at = static_cast<std::size_t>(i);
    const double lead = i == 1 ? 0.0 : g.clock(g.members[at - 1]) - g.clock(g.members[at]);
    events.wait_shadow(i, face + std::max(0.0, lead), 0);
  }
  for (int i = 0; i < p0; ++i) {
    const int m = g.members[static_cast<std::size_t>(i)];
    Emitter out{g.s, static_cast<LpId>(m)};
    const double t = g.machine.scaled_time(m, al.call) / p0;
    const SimTime c = out.clock();
    out.emit(EventBuilder(EventKind::loop_block).span(c, c + t).waited(t).tag(1).detail(0));
  }
}

/// The largest rank of the loop's blocks (3.1's rank_mas).
std::size_t block_rank(const Across31Loop& loop) {
  std::size_t rank = 0;
  for (const auto& b : loop.blocks) rank = std::max(rank, b.size());
  return rank;
}

void across_pipeline31(GroupRun& g) {
  const AcrossLoop& al = *g.op.across;
  spread(g, 2);
  Across31Events events(g);
  Across31Loop loop = al.loop31;
  loop.call_time = g.machine.scaled_time(g.members.front(), al.call);
  if (loop.v253 && block_rank(loop) == 1) {
    flat_loop253(g, al, events);
    spread(g, 3);
    return loop_ret(g, al);
  }
  across31_pipeline(loop, events, g.st.across_price.ts, g.st.across_price.tb);
  if (loop.v253) {
    // 2.53 books the iterations inside the pipeline: the time variation includes them.
    loop_iterations(g, al);
    spread(g, 3);
    return loop_ret(g, al);
  }
  spread(g, 3);
  loop_times(g, al);
}

/// The dopl_ ending an ACROSS loop (spec 6.4): the spread of the clocks is a potential loss
/// (Synchronization of Shadow, clocks unchanged); the pipeline gives each processor its waits
/// for the predecessors' faces (Wait_shadow) and its iterations (CPU usr); the spread of the
/// finishing times is the Time variation of Shadow (clocks unchanged); then the ret TIME as
/// system time on every processor.
void across_pipeline(GroupRun& g) {
  const AcrossLoop& al = *g.op.across;
  if (al.predictor31) return across_pipeline31(g);
  const auto kind = g.kind();
  SimTime latest = 0;
  for (int m : g.members) latest = std::max(latest, g.clock(m));
  std::vector<double> loop_time, start;
  for (int m : g.members) {
    Emitter out{g.s, static_cast<LpId>(m)};
    const SimTime c = out.clock();
    out.emit(EventBuilder(EventKind::sync_all).at(c).waited(latest - c).tag(2).detail(kind));
    loop_time.push_back(g.machine.scaled_time(m, al.call));
    start.push_back(c);
  }
  const AcrossRun run = dvm::across_pipeline(al.geometry, g.st.across_price, loop_time, al.loop_size, start);
  SimTime done = 0;
  for (std::size_t k = 0; k < g.members.size(); ++k) {
    Emitter out{g.s, static_cast<LpId>(g.members[k])};
    SimTime c = out.clock();
    if (run.wait[k] > 0)
      out.emit(EventBuilder(EventKind::collective_wait).span(c, c + run.wait[k]).detail(kind).internal(2));
    c = out.clock();
    if (run.compute[k] > 0)
      out.emit(EventBuilder(EventKind::loop_block)
                   .span(c, c + run.compute[k])
                   .waited(run.compute[k])
                   .tag(std::max(al.identical[k], 1)));
    done = std::max(done, out.clock());
  }
  for (std::size_t k = 0; k < g.members.size(); ++k) {
    Emitter out{g.s, static_cast<LpId>(g.members[k])};
    const SimTime c = out.clock();
    out.emit(EventBuilder(EventKind::sync_all).at(c).waited(done - c).tag(3).detail(kind));
    const SimTime r = g.machine.scaled_time(g.members[k], al.ret);
    out.emit(EventBuilder(EventKind::compute)
                 .span(c, c + r)
                 .waited(r)
                 .tag(g.processors())
                 .detail(static_cast<std::uint8_t>(ComputeCategory::system)));
  }
}

}  // namespace

void execute_group_op(GroupRun& g) {
  switch (g.op.type) {
    case OpType::reduce_start:
      return reduce_start(g);
    case OpType::reduce_wait:
      return reduce_wait(g);
    case OpType::shadow_start:
      return shadow_start(g);
    case OpType::realign:
    case OpType::copy:
      return matrix_transfer(g);
    case OpType::async_copy:
      return async_copy(g);
    case OpType::io_sync:
      return io_sync(g);
    case OpType::remote_buffer:
      return remote_buffer(g);
    case OpType::across:
      return across(g);
    case OpType::across_pipeline:
      return across_pipeline(g);
    case OpType::across_edges:
      return across_edges(g);
  }
}

}  // namespace augur::models::dvm
