// Characteristics of message-passing runs (spec section 8) on hand-made traces, with the expected
// figures derived in the comments (test machine: L = 1 us, G = 1 ns/B, eager <= 100 B, compute
// 1 Gflop/s, analytic collectives 10 us; an eager message moves once its receive is posted).
#include <doctest/doctest.h>

#include <cmath>

#include "engine/scheduler.hpp"
#include "models/analysis/mp_characteristics.hpp"
#include "models/mp/mp_program.hpp"
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

Run characterise(traces::MpTraceSource& trace, models::mp::MpOptions options = {}) {
  TestMachine machine(trace.rank_count());
  models::mp::MpProgram program(trace, machine, options);
  engine::Scheduler s(static_cast<std::uint32_t>(trace.rank_count()));
  Run run;
  run.observer = std::make_unique<models::analysis::MpCharacteristics>(
      static_cast<std::uint32_t>(trace.rank_count()), "test", [&program](engine::LpId lp, std::int32_t tag) {
        const auto* r = program.current_region(lp);
        return r != nullptr ? std::pair<std::string, int>{r->file, static_cast<int>(r->line)}
                            : std::pair<std::string, int>{std::string(), tag};
      });
  s.add_observer(run.observer.get());
  run.result = s.run(program);
  REQUIRE(run.result.outcome == engine::RunOutcome::completed);
  return run;
}

Run characterise(std::vector<std::vector<MpRecord>> ranks, models::mp::MpOptions options = {}) {
  MemoryTrace trace(std::move(ranks));
  return characterise(trace, std::move(options));
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
  CHECK(m.proc(1).op(OpKind::point_to_point).communication == doctest::Approx(11.01 * us));
  CHECK(m.proc(1).op(OpKind::point_to_point).waiting == doctest::Approx(10 * us));
  CHECK(m.proc(1).op(OpKind::point_to_point).transfer == doctest::Approx(1.01 * us));
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
  CHECK(m.proc(0).op(OpKind::barrier).synchronization == doctest::Approx(3 * us));
  CHECK(m.proc(1).op(OpKind::barrier).synchronization == doctest::Approx(2 * us));
  CHECK(m.proc(2).op(OpKind::barrier).synchronization == doctest::Approx(0.0));
  CHECK(m.proc(0).op(OpKind::barrier).communication == doctest::Approx(13 * us));
  CHECK(m.proc(0).op(OpKind::barrier).waiting == doctest::Approx(3 * us));
  CHECK(m.proc(0).op(OpKind::barrier).transfer == doctest::Approx(10 * us));
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
  CHECK(m.proc(0).op(OpKind::bcast).synchronization == doctest::Approx(5 * us));
  CHECK(m.proc(1).op(OpKind::bcast).synchronization == doctest::Approx(0.0));
  CHECK(m.proc(0).op(OpKind::bcast).variation == doctest::Approx(6.01 * us));
  CHECK(m.proc(1).op(OpKind::bcast).variation == doctest::Approx(0.0));
  CHECK(m.proc(1).op(OpKind::bcast).transfer == doctest::Approx(1.01 * us));
  CHECK(m.proc(1).op(OpKind::bcast).waiting == doctest::Approx(0.0));
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
  auto run = characterise({{rec(MpOpKind::irecv, 1, 0, 10), compute_us(5), rec(MpOpKind::wait, 1, 0, 0, 0, 0),
                            compute_us(1)},
                           {compute_us(2), rec(MpOpKind::send, 0, 0, 10)}});
  const Interval& m = run.main();
  CHECK(m.proc(0).overlap == doctest::Approx(5 * us));
  CHECK(m.proc(0).op(OpKind::point_to_point).overlap == doctest::Approx(5 * us));
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
  auto run = characterise({{location("a.c", 10), compute_us(3), location("a.c", 20), compute_us(1),
                            location("a.c", 10), compute_us(3)},
                           {location("a.c", 10), compute_us(1), location("a.c", 20), compute_us(2),
                            location("a.c", 10), compute_us(1)}});
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
  // The PRK stencil at 4 ranks (isend / irecv / waitall, allreduce) on the test machine: per
  // rank, execution = CPU + communication (no sleeps), the integrated execution time of the
  // region-less run is the predicted time, and productive + lost = total.
  for (const char* mode : {"default", "analytic"}) {
    CAPTURE(mode);
    auto trace = traces::ti::open_ti_trace(std::string(AUGUR_SOURCE_DIR) +
                                           "/scenarios/examples/traces/prk-stencil-4/trace.txt");
    models::mp::MpOptions o;
    o.collectives = mode;
    auto run = characterise(*trace, o);
    const Interval& m = run.main();
    for (int p = 0; p < 4; ++p) {
      const auto& t = m.proc(p);
      CHECK(t.execution == doctest::Approx(t.cpu_usr + t.communication).epsilon(1e-9));
      double ops = 0;
      for (const auto& o2 : t.ops) ops += o2.transfer + o2.waiting;
      CHECK(ops == doctest::Approx(t.communication).epsilon(1e-9));
      CHECK(t.execution + t.idle == doctest::Approx(run.result.end_time).epsilon(1e-9));
    }
    CHECK(m.totals.execution == doctest::Approx(run.result.end_time).epsilon(1e-12));
    CHECK(m.totals.productive + m.totals.lost == doctest::Approx(m.totals.total).epsilon(1e-9));
    CHECK(m.totals.nop(OpKind::point_to_point) > 0);
    CHECK(m.totals.nop(OpKind::allreduce) > 0);
    CHECK(m.totals.op(OpKind::allreduce).communication > 0);
  }
}
}  // TEST_SUITE
