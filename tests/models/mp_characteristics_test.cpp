// Characteristics of message-passing runs (spec section 8) on hand-made traces, with the expected
// figures derived in the comments (test machine: L = 1 us, G = 1 ns/B, eager <= 100 B, compute
// 1 Gflop/s, analytic collectives 10 us; an eager message moves once its receive is posted).
#include <doctest/doctest.h>

#include <cmath>

#include "engine/scheduler.hpp"
#include "models/analysis/mp_characteristics.hpp"
#include "models/mp/mp_program.hpp"
#include "models/report/interval_report.hpp"
#include "tests/models/mp_test_support.hpp"
#include "traces/ti/ti_trace.hpp"

using namespace augur;
using namespace augur::test;
using models::analysis::Interval;
using models::analysis::IntervalTree;
using models::analysis::OpKind;

namespace {

constexpr double us = 1e-6;

MpRecord compute_us(double t) { return rec(MpOpKind::compute, -1, 0, 0, t * 1000); }

MpRecord coll(MpOpKind k, int root = 0, std::uint64_t bytes = 8) {
  MpRecord r = rec(k, -1, 0, bytes);
  r.root = root;
  return r;
}

MpRecord location(const char* file, int line) {
  MpRecord r = rec(MpOpKind::location);
  r.text = file;
  r.count = static_cast<std::uint64_t>(line);
  return r;
}

struct Run {
  std::unique_ptr<models::analysis::MpCharacteristics> observer;
  engine::RunResult result;
  const IntervalTree& tree() const { return observer->tree(); }
  const Interval& main() const { return tree().root(); }
};

/// Runs `trace` with MpCharacteristics (regions named by MpProgram; `options` gives the rest).
Run characterise(traces::MpTraceSource& trace, models::mp::MpOptions options = {},
                 models::analysis::MpCharacteristicsOptions analysis = {}) {
  TestMachine machine(trace.rank_count());
  models::mp::MpProgram program(trace, machine, options);
  engine::Scheduler s(static_cast<std::uint32_t>(trace.rank_count()));
  Run run;
  analysis.source = "test";
  analysis.namer = [&program](engine::LpId lp, std::int32_t tag) {
    const auto* r = program.current_region(lp);
    return r != nullptr ? std::pair<std::string, int>{r->file, static_cast<int>(r->line)}
                        : std::pair<std::string, int>{std::string(), tag};
  };
  // As tools/runner.cpp: phases named by the trace lines of rank 0's calls, when a test asks.
  if (!analysis.call_file.empty())
    analysis.call_line = [&program](engine::LpId lp) { return program.current_line(lp); };
  run.observer = std::make_unique<models::analysis::MpCharacteristics>(static_cast<std::uint32_t>(trace.rank_count()),
                                                                       std::move(analysis));
  s.add_observer(run.observer.get());
  run.result = s.run(program);
  REQUIRE(run.result.outcome == engine::RunOutcome::completed);
  return run;
}

Run characterise(std::vector<std::vector<MpRecord>> ranks, models::mp::MpOptions options = {},
                 models::analysis::MpCharacteristicsOptions analysis = {}) {
  MemoryTrace trace(std::move(ranks));
  return characterise(trace, std::move(options), std::move(analysis));
}

/// The child of `parent` whose source file is `file` (and line `line` when given).
const Interval* child(const Interval& parent, const std::string& file, int line = -1) {
  for (const auto& c : parent.children) {
    if (c->source_file == file && (line < 0 || c->source_line == line)) return c.get();
  }
  return nullptr;
}

models::mp::MpOptions analytic() {
  models::mp::MpOptions o;
  o.collectives = "analytic";
  return o;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("MpCharacteristics splits a late sender into compute transfer waiting and idle") {
    // rank 0: compute 10 us, eager send of 10 B; rank 1: receive posted at 0.
    // The transfer starts at 10 us and arrives at 10 + 1 + 0.01 = 11.01 us.
    // rank 0: execution 10, CPU 10, no communication (the eager send returns at once).
    // rank 1: execution 11.01, communication 11.01 = waiting 10 + transfer 1.01.
    // Main: execution 11.01; idle 1.01 (rank 0); load imbalance: max CPU 10 − 0 = 10 (rank 1);
    // total 2 × 11.01 = 22.02; productive 10; lost = 11.01 + 1.01 = 12.02; efficiency 10 / 22.02.
    auto run = characterise({{compute_us(10), rec(MpOpKind::send, 1, 0, 10)}, {rec(MpOpKind::recv, 0, 0, 10)}});
    const Interval& m = run.main();
    CHECK(m.children.empty());
    CHECK(m.proc(0).execution == doctest::Approx(10 * us));
    CHECK(m.proc(0).cpu_usr == doctest::Approx(10 * us));
    CHECK(m.proc(0).communication == doctest::Approx(0.0));
    CHECK(m.proc(0).idle == doctest::Approx(1.01 * us));
    CHECK(m.proc(1).execution == doctest::Approx(11.01 * us));
    CHECK(m.op(1, OpKind::point_to_point).communication == doctest::Approx(11.01 * us));
    CHECK(m.op(1, OpKind::point_to_point).waiting == doctest::Approx(10 * us));
    CHECK(m.op(1, OpKind::point_to_point).transfer == doctest::Approx(1.01 * us));
    CHECK(m.proc(1).real_sync == doctest::Approx(10 * us));
    CHECK(m.proc(1).load_imbalance == doctest::Approx(10 * us));
    CHECK(m.proc(1).idle == doctest::Approx(0.0));
    const auto& t = m.totals;
    CHECK(t.execution == doctest::Approx(11.01 * us));
    CHECK(t.total == doctest::Approx(22.02 * us));
    CHECK(t.productive == doctest::Approx(10 * us));
    CHECK(t.lost == doctest::Approx(12.02 * us));
    CHECK(t.communication == doctest::Approx(11.01 * us));
    CHECK(t.idle == doctest::Approx(1.01 * us));
    CHECK(t.efficiency == doctest::Approx(10.0 / 22.02));
    CHECK(t.nop(OpKind::point_to_point) == 1);
    CHECK(t.op(OpKind::point_to_point).real_sync == doctest::Approx(10 * us));
  }

  TEST_CASE("MpCharacteristics measures synchronization at an analytic barrier") {
    // Entries at 1, 2 and 4 us; everyone leaves at 4 + 10 = 14 us.
    // synchronization = max entry − own entry = 3, 2, 0 (total 5); real_sync = waiting = the same;
    // communication = 13, 12, 10 (total 35), transfer 10 each; variation 0 (simultaneous exits);
    // load imbalance: max CPU 4 − CPU = 3, 2, 0; one barrier operation.
    auto run = characterise({{compute_us(1), coll(MpOpKind::barrier)},
                             {compute_us(2), coll(MpOpKind::barrier)},
                             {compute_us(4), coll(MpOpKind::barrier)}},
                            analytic());
    const Interval& m = run.main();
    CHECK(m.op(0, OpKind::barrier).synchronization == doctest::Approx(3 * us));
    CHECK(m.op(1, OpKind::barrier).synchronization == doctest::Approx(2 * us));
    CHECK(m.op(2, OpKind::barrier).synchronization == doctest::Approx(0.0));
    CHECK(m.op(0, OpKind::barrier).communication == doctest::Approx(13 * us));
    CHECK(m.op(0, OpKind::barrier).waiting == doctest::Approx(3 * us));
    CHECK(m.op(0, OpKind::barrier).transfer == doctest::Approx(10 * us));
    const auto& t = m.totals;
    CHECK(t.synchronization == doctest::Approx(5 * us));
    CHECK(t.real_sync == doctest::Approx(5 * us));
    CHECK(t.variation == doctest::Approx(0.0));
    CHECK(t.op(OpKind::barrier).communication == doctest::Approx(35 * us));
    CHECK(t.op(OpKind::barrier).transfer == doctest::Approx(30 * us));
    CHECK(t.load_imbalance == doctest::Approx(5 * us));
    CHECK(t.execution == doctest::Approx(14 * us));
    CHECK(t.idle == doctest::Approx(0.0));
    CHECK(t.nop(OpKind::barrier) == 1);
    CHECK(t.nop(OpKind::point_to_point) == 0);
  }

  TEST_CASE("MpCharacteristics measures time variation of an expanded broadcast") {
    // Binomial bcast of 10 B on 2 ranks: the root (entry 0) sends eagerly and leaves at 0; rank 1
    // enters at 5 us, its receive starts the transfer at 5 and completes at 6.01 us.
    // synchronization: root 5 − 0 = 5, rank 1 0; variation: root 6.01 − 0 = 6.01, rank 1 0.
    // The message counts for the bcast row (transfer 1.01 on rank 1, no waiting), not point-to-point.
    auto run = characterise({{coll(MpOpKind::bcast, 0, 10)}, {compute_us(5), coll(MpOpKind::bcast, 0, 10)}});
    const Interval& m = run.main();
    CHECK(m.op(0, OpKind::bcast).synchronization == doctest::Approx(5 * us));
    CHECK(m.op(1, OpKind::bcast).synchronization == doctest::Approx(0.0));
    CHECK(m.op(0, OpKind::bcast).variation == doctest::Approx(6.01 * us));
    CHECK(m.op(1, OpKind::bcast).variation == doctest::Approx(0.0));
    CHECK(m.op(1, OpKind::bcast).transfer == doctest::Approx(1.01 * us));
    CHECK(m.op(1, OpKind::bcast).waiting == doctest::Approx(0.0));
    CHECK(m.totals.op(OpKind::point_to_point).communication == doctest::Approx(0.0));
    CHECK(m.totals.nop(OpKind::bcast) == 1);
    CHECK(m.totals.nop(OpKind::point_to_point) == 0);
    CHECK(m.totals.variation == doctest::Approx(6.01 * us));
  }

  TEST_CASE("MpCharacteristics counts computation between irecv and wait as overlap") {
    // rank 0: irecv from 1, compute 5 us, wait, compute 1 us. rank 1: compute 2 us, send 10 B.
    // The message moves at 2 us (the receive is posted) and arrives at 3.01 us, before the wait at
    // 5 us: the wait costs nothing. Overlap = the 5 us computed while the request was open (the
    // 1 us after the wait is not). rank 0: execution 6, CPU 6; rank 1: execution 2, idle 4.
    auto run = characterise(
        {{rec(MpOpKind::irecv, 1, 0, 10), compute_us(5), rec(MpOpKind::wait, 1, 0, 0, 0, 0), compute_us(1)},
         {compute_us(2), rec(MpOpKind::send, 0, 0, 10)}});
    const Interval& m = run.main();
    CHECK(m.proc(0).overlap == doctest::Approx(5 * us));
    CHECK(m.op(0, OpKind::point_to_point).overlap == doctest::Approx(5 * us));
    CHECK(m.proc(0).cpu_usr == doctest::Approx(6 * us));
    CHECK(m.proc(0).communication == doctest::Approx(0.0));
    CHECK(m.proc(1).overlap == doctest::Approx(0.0));
    CHECK(m.proc(1).idle == doctest::Approx(4 * us));
    CHECK(m.totals.overlap == doctest::Approx(5 * us));
    CHECK(m.totals.efficiency == doctest::Approx(8.0 / 12.0));
  }

  TEST_CASE("MpCharacteristics turns TI location regions into User intervals") {
    // Both ranks: location a.c 10, compute, location a.c 20, compute, location a.c 10, compute.
    // rank 0 computes 3, 1, 3 us; rank 1 1, 2, 1 us.
    // a.c:10 — execution r0 6, r1 2: interval execution 6, idle r1 4; entered twice by each rank.
    // a.c:20 — r0 1, r1 2: execution 2, idle r0 1.
    // Main (integrated): execution 0 + 6 + 2 = 8 (regions are not synchronised, so more than the
    // run's 7 us), total 16, productive = CPU 7 + 4 = 11, idle 5, efficiency 11 / 16.
    auto run = characterise(
        {{location("a.c", 10), compute_us(3), location("a.c", 20), compute_us(1), location("a.c", 10), compute_us(3)},
         {location("a.c", 10), compute_us(1), location("a.c", 20), compute_us(2), location("a.c", 10), compute_us(1)}});
    const Interval& m = run.main();
    REQUIRE(m.children.size() == 2);
    const Interval& a = *m.children[0];
    const Interval& b = *m.children[1];
    CHECK(a.type == models::analysis::IntervalType::user);
    CHECK(a.source_file == "a.c");
    CHECK(a.source_line == 10);
    CHECK(a.level == 1);
    CHECK(a.exe_count == 2);
    CHECK(b.source_line == 20);
    CHECK(b.exe_count == 1);
    CHECK(a.proc(0).execution == doctest::Approx(6 * us));
    CHECK(a.proc(1).execution == doctest::Approx(2 * us));
    CHECK(a.proc(1).idle == doctest::Approx(4 * us));
    CHECK(a.totals.execution == doctest::Approx(6 * us));
    CHECK(b.proc(0).idle == doctest::Approx(1 * us));
    CHECK(b.totals.execution == doctest::Approx(2 * us));
    CHECK(m.proc(0).execution == doctest::Approx(0.0));
    CHECK(m.totals.execution == doctest::Approx(8 * us));
    CHECK(m.totals.productive == doctest::Approx(11 * us));
    CHECK(m.totals.idle == doctest::Approx(5 * us));
    CHECK(m.totals.efficiency == doctest::Approx(11.0 / 16.0));
    CHECK(run.result.end_time == doctest::Approx(7 * us));
  }

  TEST_CASE("MpCharacteristics accounts for every second of a real trace") {
    // The PRK stencil at 4 ranks (isend / irecv / waitall, allreduce, barrier) on the test machine:
    // per rank over the whole run (phases included), execution = CPU + communication (no sleeps),
    // execution + idle of Main = the predicted time, and productive + lost = total. Its phases run
    // between allreduces and the barrier.
    for (const char* mode : {"default", "analytic"}) {
      CAPTURE(mode);
      auto trace = traces::ti::open_ti_trace(std::string(AUGUR_SOURCE_DIR) +
                                             "/scenarios/examples/traces/prk-stencil-4/trace.txt");
      models::mp::MpOptions o;
      o.collectives = mode;
      auto run = characterise(*trace, o);
      const Interval& m = run.main();
      REQUIRE(m.children.size() >= 2);
      const auto procs = models::report::inclusive_processor_times(m, models::analysis::IntegrateRule::complete);
      double phases = 0;
      for (const auto& c : m.children) {
        CHECK(c->type == models::analysis::IntervalType::phase);
        phases += c->totals.execution;
      }
      CHECK(m.totals.execution == doctest::Approx(phases).epsilon(1e-12));
      for (int p = 0; p < 4; ++p) {
        const auto& t = procs[static_cast<std::size_t>(p)];
        CHECK(m.proc(p).execution == 0.0);  // every second is in a phase
        CHECK(t.execution == doctest::Approx(t.cpu_usr + t.communication).epsilon(1e-9));
        double ops = 0;
        for (models::analysis::OpKind k : models::analysis::all_op_kinds) {
          ops += procs.op(static_cast<std::size_t>(p), k).transfer + procs.op(static_cast<std::size_t>(p), k).waiting;
        }
        CHECK(ops == doctest::Approx(t.communication).epsilon(1e-9));
        // Each rank's phases add up to its own run time.
        double own_end = 0;
        for (const auto& c : m.children) own_end += c->proc(p).execution;
        CHECK(own_end == doctest::Approx(t.execution).epsilon(1e-12));
        CHECK(own_end <= run.result.end_time * (1 + 1e-12));
      }
      CHECK(m.totals.productive + m.totals.lost == doctest::Approx(m.totals.total).epsilon(1e-9));
      if (std::string(mode) == "analytic") {
        // Everyone leaves an analytic collective at the same time: the phases are synchronised and
        // Main's execution time is the predicted time.
        CHECK(m.totals.execution == doctest::Approx(run.result.end_time).epsilon(1e-12));
      } else {
        // Expanded collectives end at slightly different times on different ranks: Main's execution
        // (the sum of each phase's longest rank) exceeds the predicted time by less than the spread of
        // those exits (the summed time variation over ranks bounds it).
        CHECK(m.totals.execution >= run.result.end_time * (1 - 1e-12));
        CHECK(m.totals.execution - run.result.end_time <= m.totals.variation + 1e-12);
      }
      CHECK(m.totals.nop(OpKind::point_to_point) > 0);
      CHECK(m.totals.nop(OpKind::allreduce) > 0);
      CHECK(m.totals.op(OpKind::allreduce).communication > 0);
    }
  }

  TEST_CASE("MpCharacteristics splits a run without regions into phases between global synchronisations") {
    // Analytic collectives: everyone leaves at the last entry + 10 us. Rank 0's calls are on trace
    // lines 1..7 (compute, allreduce, compute, bcast, compute, barrier, compute).
    // phase 1 (start → allreduce #1, line 2): entries 1 and 2, exit 12: execution 12 on both;
    //   rank 0 CPU 1, communication 11 = waiting 1 + transfer 10, synchronization 1; rank 1 CPU 2,
    //   communication 10.
    // phase 2 (allreduce #1 → barrier #1, line 6): the bcast (rooted: no phase boundary) entered at
    //   15 (root) and 13, left at 25; barrier entered at 26 by both, left at 36. Execution 24 each;
    //   rank 0 CPU 3 + 1 = 4, communication 10 + 10 = 20; rank 1 CPU 1 + 1 = 2, communication 12 + 10
    //   = 22 (waiting 2 at the bcast); load imbalance rank 1: 4 − 2 = 2.
    // phase 3 (barrier #1 → the end): rank 0 computes 2, rank 1 1: execution 2, idle 1 on rank 1.
    // Main: execution 12 + 24 + 2 = 38 = the predicted time; productive 3 + 6 + 3 = 12; total 76.
    models::analysis::MpCharacteristicsOptions names;
    names.call_file = "rank0.txt";  // characterise() wires call_line to the program
    auto run = characterise({{compute_us(1), coll(MpOpKind::allreduce), compute_us(3), coll(MpOpKind::bcast),
                              compute_us(1), coll(MpOpKind::barrier), compute_us(2)},
                             {compute_us(2), coll(MpOpKind::allreduce), compute_us(1), coll(MpOpKind::bcast),
                              compute_us(1), coll(MpOpKind::barrier), compute_us(1)}},
                            analytic(), names);
    const Interval& m = run.main();
    REQUIRE(m.children.size() == 3);
    const Interval& p1 = *m.children[0];
    const Interval& p2 = *m.children[1];
    const Interval& p3 = *m.children[2];
    CHECK(p1.type == models::analysis::IntervalType::phase);
    CHECK(p1.level == 1);
    CHECK(p1.exe_count == 1);
    CHECK(p1.source_file == "phase 1: from the start to allreduce #1 (rank0.txt:2)");
    CHECK(p1.source_line == 2);
    CHECK(p2.source_file == "phase 2: after allreduce #1 (rank0.txt:2), before barrier #1 (rank0.txt:6)");
    CHECK(p2.source_line == 6);
    CHECK(p3.source_file == "phase 3: after barrier #1 (rank0.txt:6) to the end");
    CHECK(p3.source_line == 0);

    CHECK(p1.proc(0).execution == doctest::Approx(12 * us));
    CHECK(p1.proc(1).execution == doctest::Approx(12 * us));
    CHECK(p1.proc(0).cpu_usr == doctest::Approx(1 * us));
    CHECK(p1.proc(0).communication == doctest::Approx(11 * us));
    CHECK(p1.op(0, OpKind::allreduce).waiting == doctest::Approx(1 * us));
    CHECK(p1.op(0, OpKind::allreduce).transfer == doctest::Approx(10 * us));
    CHECK(p1.op(0, OpKind::allreduce).synchronization == doctest::Approx(1 * us));
    CHECK(p1.proc(1).communication == doctest::Approx(10 * us));
    CHECK(p1.totals.nop(OpKind::allreduce) == 1);
    CHECK(p1.totals.nop(OpKind::barrier) == 0);

    CHECK(p2.proc(0).execution == doctest::Approx(24 * us));
    CHECK(p2.proc(1).execution == doctest::Approx(24 * us));
    CHECK(p2.proc(0).cpu_usr == doctest::Approx(4 * us));
    CHECK(p2.proc(0).communication == doctest::Approx(20 * us));
    CHECK(p2.proc(1).cpu_usr == doctest::Approx(2 * us));
    CHECK(p2.proc(1).communication == doctest::Approx(22 * us));
    CHECK(p2.op(1, OpKind::bcast).waiting == doctest::Approx(2 * us));
    CHECK(p2.op(1, OpKind::bcast).synchronization == doctest::Approx(2 * us));
    CHECK(p2.proc(1).load_imbalance == doctest::Approx(2 * us));
    CHECK(p2.totals.nop(OpKind::bcast) == 1);
    CHECK(p2.totals.nop(OpKind::barrier) == 1);
    CHECK(p2.totals.nop(OpKind::allreduce) == 0);

    CHECK(p3.proc(0).execution == doctest::Approx(2 * us));
    CHECK(p3.proc(1).execution == doctest::Approx(1 * us));
    CHECK(p3.proc(1).idle == doctest::Approx(1 * us));

    CHECK(m.totals.execution == doctest::Approx(38 * us));
    CHECK(run.result.end_time == doctest::Approx(38 * us));
    CHECK(m.totals.productive == doctest::Approx(12 * us));
    CHECK(m.totals.total == doctest::Approx(76 * us));
    CHECK(m.totals.efficiency == doctest::Approx(12.0 / 76.0));
    CHECK(m.totals.nop(OpKind::allreduce) == 1);
    CHECK(m.totals.nop(OpKind::bcast) == 1);
    CHECK(m.totals.nop(OpKind::barrier) == 1);

    // Within the memory budget only: with room for none, the run stays in Main, same totals.
    models::analysis::MpCharacteristicsOptions tight;
    tight.phase_budget = 3 * 2;  // 3 phases' worth for 2 processors: none besides those being filled
    auto flat = characterise({{compute_us(1), coll(MpOpKind::allreduce), compute_us(3), coll(MpOpKind::bcast),
                               compute_us(1), coll(MpOpKind::barrier), compute_us(2)},
                              {compute_us(2), coll(MpOpKind::allreduce), compute_us(1), coll(MpOpKind::bcast),
                               compute_us(1), coll(MpOpKind::barrier), compute_us(1)}},
                             analytic(), tight);
    CHECK(flat.main().children.empty());
    CHECK(flat.main().proc(0).execution == doctest::Approx(38 * us));
    CHECK(flat.main().totals.productive == doctest::Approx(12 * us));
    CHECK(flat.main().totals.communication == doctest::Approx(m.totals.communication));
  }

  TEST_CASE("MpCharacteristics merges phases that recur with the same calls") {
    // Three iterations of (compute, allreduce); rank 0 computes 1, 2, 4 us, rank 1 1 us each time.
    // phase 1 (from the start): execution 11. Phases 2 and 3 make the same calls between the same
    // collectives: one interval, EXE_COUNT 2, figures added: exits at 23 and 37, so execution
    // 12 + 14 = 26 on both ranks; rank 1 waits 1 + 3 = 4 (its communication 10 + 1 + 10 + 3 = 24),
    // rank 0 CPU 2 + 4 = 6, rank 1 2: load imbalance rank 1 4. The empty phase after the last
    // allreduce is left out. Main: 11 + 26 = 37 = the predicted time.
    auto iterations = [](double last) {
      return std::vector<std::vector<MpRecord>>{
          {compute_us(1), coll(MpOpKind::allreduce), compute_us(2), coll(MpOpKind::allreduce), compute_us(4),
           coll(MpOpKind::allreduce)},
          {compute_us(1), coll(MpOpKind::allreduce), compute_us(1), coll(MpOpKind::allreduce), compute_us(last),
           coll(MpOpKind::allreduce)}};
    };
    auto run = characterise(iterations(1), analytic());
    const Interval& m = run.main();
    REQUIRE(m.children.size() == 2);
    const Interval& first = *m.children[0];
    const Interval& loop = *m.children[1];
    CHECK(first.exe_count == 1);
    CHECK(first.source_file == "phase 1: from the start to allreduce #1");  // no call_line: no lines
    CHECK(first.proc(0).execution == doctest::Approx(11 * us));
    CHECK(loop.exe_count == 2);
    CHECK(loop.source_file == "phase 2 (+1 alike): after allreduce #1, before allreduce #2");
    CHECK(loop.proc(0).execution == doctest::Approx(26 * us));
    CHECK(loop.proc(1).execution == doctest::Approx(26 * us));
    CHECK(loop.proc(0).cpu_usr == doctest::Approx(6 * us));
    CHECK(loop.proc(1).communication == doctest::Approx(24 * us));
    CHECK(loop.op(1, OpKind::allreduce).waiting == doctest::Approx(4 * us));
    CHECK(loop.proc(1).load_imbalance == doctest::Approx(4 * us));
    CHECK(loop.totals.nop(OpKind::allreduce) == 2);
    CHECK(m.totals.execution == doctest::Approx(37 * us));
    CHECK(run.result.end_time == doctest::Approx(37 * us));

    // Different calls in the third iteration (rank 1 computes in two steps): three phases.
    auto split = iterations(1);
    split[1][4] = compute_us(0.5);
    split[1].insert(split[1].begin() + 5, compute_us(0.5));
    auto other = characterise(split, analytic());
    REQUIRE(other.main().children.size() == 3);
    CHECK(other.main().children[1]->exe_count == 1);
    CHECK(other.main().children[2]->source_file == "phase 3: after allreduce #2, before allreduce #3");
  }

  TEST_CASE("MpCharacteristics keeps the phases with the most lost time and adds up the others") {
    // Four phases closed by different collectives (allreduce, barrier, allgather, alltoall: all
    // synchronise every rank); rank 0 computes 1, 5, 3, 2 us before them, rank 1 1 us each time.
    // Lost time of each phase = both ranks' communication (10 us each) + rank 1's waiting:
    //   phase 1: exit 11, lost 20; phase 2: rank 1 waits 4, exit 26, lost 24;
    //   phase 3: waits 2, exit 39, lost 22; phase 4: waits 1, exit 51, lost 21.
    // With room for 2: phases 1 and 2 are kept; phase 3 (22) pushes out phase 1 (20); phase 4 (21)
    // has the least lost time itself. Shown: phases 2 and 3, then "other phases" = phases 1 and 4
    // (execution 11 + 12 = 23, rank 1 communication 10 + 11 = 21, EXE_COUNT 2).
    // Main: execution 15 + 13 + 23 = 51 = the predicted time, as without the limit.
    const std::vector<std::vector<MpRecord>> trace = {
        {compute_us(1), coll(MpOpKind::allreduce), compute_us(5), coll(MpOpKind::barrier), compute_us(3),
         coll(MpOpKind::allgather), compute_us(2), coll(MpOpKind::alltoall)},
        {compute_us(1), coll(MpOpKind::allreduce), compute_us(1), coll(MpOpKind::barrier), compute_us(1),
         coll(MpOpKind::allgather), compute_us(1), coll(MpOpKind::alltoall)}};
    models::analysis::MpCharacteristicsOptions two;
    two.max_phases = 2;
    auto run = characterise(trace, analytic(), two);
    const Interval& m = run.main();
    REQUIRE(m.children.size() == 3);
    CHECK(m.children[0]->source_file == "phase 2: after allreduce #1, before barrier #1");
    CHECK(m.children[0]->totals.lost == doctest::Approx(24 * us));
    CHECK(m.children[1]->source_file == "phase 3: after barrier #1, before allgather #1");
    CHECK(m.children[1]->totals.lost == doctest::Approx(22 * us));
    const Interval& other = *m.children[2];
    CHECK(other.source_file == "other phases: 2 with less lost time than the 2 shown");
    CHECK(other.type == models::analysis::IntervalType::phase);
    CHECK(other.exe_count == 2);
    CHECK(other.proc(0).execution == doctest::Approx(23 * us));
    CHECK(other.proc(1).communication == doctest::Approx(21 * us));
    CHECK(other.totals.nop(OpKind::allreduce) == 1);
    CHECK(other.totals.nop(OpKind::alltoall) == 1);
    CHECK(m.totals.execution == doctest::Approx(51 * us));
    CHECK(run.result.end_time == doctest::Approx(51 * us));
    auto all = characterise(trace, analytic());
    CHECK(all.main().children.size() == 4);
    CHECK(all.main().totals.execution == doctest::Approx(m.totals.execution));
    CHECK(all.main().totals.lost == doctest::Approx(m.totals.lost));
    CHECK(all.main().totals.productive == doctest::Approx(m.totals.productive));
  }

  TEST_CASE("MpCharacteristics adds the phases to Main once a region appears") {
    // Analytic collectives. Rank 0: compute 1, allreduce, compute 2, allreduce, location a.c 10,
    // compute 3, barrier. Rank 1: compute 2, allreduce, compute 1, allreduce, compute 1, barrier.
    // allreduce #1: entries 1 and 2, exit 12 (rank 0 waits 1: communication 11, synchronization 1;
    // rank 1 communication 10). allreduce #2: entries 14 and 13, exit 24 (rank 1 waits 1:
    // communication 11, synchronization 1; rank 0 10). Rank 0 then enters a.c:10 at 24: compute 3,
    // barrier entry 27; rank 1 computes 1, barrier entry 25 (waits 2: communication 12,
    // synchronization 2); exit 37. Phases 1 and 2 were recorded before the region appeared: with a
    // region, every phase is Main's own. Main, own figures: rank 0 execution 12 + 12 = 24, CPU 1 + 2
    // = 3, allreduce communication 11 + 10 = 21; rank 1 execution 12 + 12 + 13 = 37, CPU 2 + 1 + 1 = 4,
    // allreduce communication 10 + 11 = 21 (waiting 1, synchronization 1), barrier communication 12
    // (waiting 2, synchronization 2); idle rank 0 37 − 24 = 13. a.c:10: rank 0 execution 13, CPU 3,
    // barrier communication 10, synchronization 0.
    auto run = characterise({{compute_us(1), coll(MpOpKind::allreduce), compute_us(2), coll(MpOpKind::allreduce),
                              location("a.c", 10), compute_us(3), coll(MpOpKind::barrier)},
                             {compute_us(2), coll(MpOpKind::allreduce), compute_us(1), coll(MpOpKind::allreduce),
                              compute_us(1), coll(MpOpKind::barrier)}},
                            analytic());
    const Interval& m = run.main();
    REQUIRE(m.children.size() == 1);
    const Interval& a = *m.children[0];
    CHECK(a.type == models::analysis::IntervalType::user);
    CHECK(m.proc(0).execution == doctest::Approx(24 * us));
    CHECK(m.proc(0).cpu_usr == doctest::Approx(3 * us));
    CHECK(m.op(0, OpKind::allreduce).communication == doctest::Approx(21 * us));
    CHECK(m.op(0, OpKind::allreduce).synchronization == doctest::Approx(1 * us));
    CHECK(m.op(0, OpKind::barrier).communication == doctest::Approx(0.0));
    CHECK(m.proc(0).idle == doctest::Approx(13 * us));
    CHECK(m.proc(1).execution == doctest::Approx(37 * us));
    CHECK(m.proc(1).cpu_usr == doctest::Approx(4 * us));
    CHECK(m.op(1, OpKind::allreduce).communication == doctest::Approx(21 * us));
    CHECK(m.op(1, OpKind::allreduce).waiting == doctest::Approx(1 * us));
    CHECK(m.op(1, OpKind::allreduce).synchronization == doctest::Approx(1 * us));
    CHECK(m.op(1, OpKind::barrier).communication == doctest::Approx(12 * us));
    CHECK(m.op(1, OpKind::barrier).waiting == doctest::Approx(2 * us));
    CHECK(m.op(1, OpKind::barrier).synchronization == doctest::Approx(2 * us));
    CHECK(m.proc(1).communication == doctest::Approx(33 * us));
    CHECK(a.proc(0).execution == doctest::Approx(13 * us));
    CHECK(a.proc(0).cpu_usr == doctest::Approx(3 * us));
    CHECK(a.op(0, OpKind::barrier).communication == doctest::Approx(10 * us));
    CHECK(a.op(0, OpKind::barrier).synchronization == doctest::Approx(0.0));
    CHECK(a.proc(1).execution == doctest::Approx(0.0));
    CHECK(m.operations[static_cast<std::size_t>(OpKind::allreduce)] == 2);
    CHECK(m.totals.nop(OpKind::allreduce) == 2);
    CHECK(m.totals.nop(OpKind::barrier) == 1);  // counted where the first LP to report it is
    CHECK(run.result.end_time == doctest::Approx(37 * us));
  }

  TEST_CASE("MpCharacteristics gives ranks that enter the same location one interval") {
    // Rank 0: a.c:10 (compute 1), b.c:5 (compute 2, barrier). Rank 1 in another order: b.c:5
    // (compute 3), a.c:10 (compute 4), a.h:10 (same line, another file: compute 1, barrier).
    // Analytic barrier: entries at 3 (rank 0) and 8 (rank 1), exit 18.
    // a.c:10: rank 0 1, rank 1 4 (execution 4, idle 3 on rank 0); b.c:5: rank 0 2 + 15 = 17
    // (communication 15 = waiting 5 + 10), rank 1 3; a.h:10: rank 1 1 + 10 = 11.
    // Regions are marked: no phase intervals although the barrier synchronises everyone.
    auto run =
        characterise({{location("a.c", 10), compute_us(1), location("b.c", 5), compute_us(2), coll(MpOpKind::barrier)},
                      {location("b.c", 5), compute_us(3), location("a.c", 10), compute_us(4), location("a.h", 10),
                       compute_us(1), coll(MpOpKind::barrier)}},
                     analytic());
    const Interval& m = run.main();
    REQUIRE(m.children.size() == 3);
    for (const auto& c : m.children) CHECK(c->type == models::analysis::IntervalType::user);
    const Interval* a = child(m, "a.c", 10);
    const Interval* b = child(m, "b.c", 5);
    const Interval* h = child(m, "a.h", 10);
    REQUIRE(a != nullptr);
    REQUIRE(b != nullptr);
    REQUIRE(h != nullptr);
    CHECK(a->exe_count == 1);
    CHECK(a->proc(0).execution == doctest::Approx(1 * us));
    CHECK(a->proc(1).execution == doctest::Approx(4 * us));
    CHECK(a->proc(0).idle == doctest::Approx(3 * us));
    CHECK(b->proc(0).execution == doctest::Approx(17 * us));
    CHECK(b->proc(0).communication == doctest::Approx(15 * us));
    CHECK(b->op(0, OpKind::barrier).waiting == doctest::Approx(5 * us));
    CHECK(b->proc(1).execution == doctest::Approx(3 * us));
    CHECK(h->proc(0).execution == doctest::Approx(0.0));
    CHECK(h->proc(1).execution == doctest::Approx(11 * us));
    CHECK(m.totals.nop(OpKind::barrier) == 1);
    CHECK(run.result.end_time == doctest::Approx(18 * us));
  }
}  // TEST_SUITE
