// Tests of the ACROSS model (spec 6.4, models/dvm/across.hpp): the edge exchange of DoPL = 1, the
// pipeline's N, M, P, W, Tc, Tm and Q (both branches, clamping), and the portion-by-portion
// pipeline, each against a hand computation written next to it; a whole run of a fixture.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/scheduler.hpp"
#include "machines/bus/bus_machine.hpp"
#include "models/analysis/dvm_characteristics.hpp"
#include "models/dvm/across.hpp"
#include "models/dvm/dvm_program.hpp"
#include "traces/libdvm/dvm_trace_reader.hpp"

namespace {

using augur::models::dvm::AcrossDim;
using augur::models::dvm::AcrossGeometry;
using augur::models::dvm::AcrossPlan;
using augur::models::dvm::AcrossProcessor;
using augur::models::dvm::Index;
using augur::models::dvm::MessagePrice;
namespace dvm = augur::models::dvm;

// Ts = 10 us, Tb = 0.1 us per byte; doubles: Tm = Ts + 8·Tb = 10.8 us.
const MessagePrice price{1e-5, 1e-7};

/// A grid with every processor holding `extents`.
AcrossGeometry uniform(std::vector<int> grid, std::vector<AcrossDim> dims, std::vector<Index> extents) {
  AcrossGeometry g;
  g.grid = grid;
  g.dims = std::move(dims);
  int count = 1;
  for (int s : grid) count *= s;
  for (int k = 0; k < count; ++k) {
    AcrossProcessor p;
    int rest = k;
    p.coords.assign(grid.size(), 0);
    for (std::size_t d = grid.size(); d-- > 0;) {
      p.coords[d] = rest % grid[d];
      rest /= grid[d];
    }
    p.extents = extents;
    g.procs.push_back(p);
  }
  return g;
}

}  // namespace

TEST_CASE("DvmAcross edge costs of DoPL = 1 count the faces sent to successors") {
  // 1-D grid of 4, 16 iterations each, sweep upwards: processors 0..2 have a successor,
  // com = Ts + Tb·8·(16/16) = 10 + 0.8 = 10.8 us; processor 3 none.
  auto g = uniform({4}, {{0, 1, 1}}, {16});
  auto com = dvm::across_edge_costs(g, price);
  REQUIRE(com.size() == 4);
  CHECK(com[0] == doctest::Approx(10.8e-6));
  CHECK(com[2] == doctest::Approx(10.8e-6));
  CHECK(com[3] == 0.0);
  // Downwards: the successors are the lower neighbours; processor 0 has none.
  g.dims[0].direction = -1;
  com = dvm::across_edge_costs(g, price);
  CHECK(com[0] == 0.0);
  CHECK(com[3] == doctest::Approx(10.8e-6));
  // 2×2 grid, 8×8 iterations each, both dimensions upwards: face 64/8 = 8 elements = 64 bytes,
  // one message = 10 + 6.4 = 16.4 us. (0,0): two successors = 32.8 us; (0,1) and (1,0): one;
  // (1,1) none — the value the original adds to every processor (the last one's) is 0 here.
  const auto g2 = uniform({2, 2}, {{0, 1, 1}, {1, 1, 1}}, {8, 8});
  com = dvm::across_edge_costs(g2, price);
  CHECK(com[0] == doctest::Approx(32.8e-6));
  CHECK(com[1] == doctest::Approx(16.4e-6));
  CHECK(com[2] == doctest::Approx(16.4e-6));
  CHECK(com[3] == 0.0);
}

TEST_CASE("DvmAcross portions: both branches of Q - clamped to [1 - N]") {
  AcrossPlan plan;
  // Message-bound: N = 100, M = 8, P = 2, W = 1, Tc = 1 us, Tm = 10.8 us: M·Tc/(W·Tm) = 0.74 < P.
  // Q = ⌊√(100·(2·(8 + 2·10.8) − 2·8)e-6 / (2·2·10e-6))⌋ = ⌊√(100·43.2/40)⌋ = ⌊√108⌋ = 10.
  plan.n = 100, plan.m = 8, plan.p = 2, plan.w = 1, plan.tc = 1e-6, plan.tm = 10.8e-6;
  CHECK(dvm::across_portions(plan, 1e-5) == 10);
  CHECK(plan.message_bound);
  // Compute-bound: N = 100, M = 1000, P = 4: M·Tc/(W·Tm) = 92.6 > P.
  // Q = ⌊√(100·3·(1000 + 4·10.8)e-6 / (4·2·10e-6))⌋ = ⌊√(300·1043.2/80)⌋ = ⌊√3912⌋ = 62.
  plan.m = 1000, plan.p = 4;
  CHECK(dvm::across_portions(plan, 1e-5) == 62);
  CHECK_FALSE(plan.message_bound);
  // N = 10: √391.2 = 19.8 is clamped to N.
  plan.n = 10;
  CHECK(dvm::across_portions(plan, 1e-5) == 10);
  // P = 1 (no pipeline): √0 → 1.
  plan.n = 100, plan.p = 1;
  CHECK(dvm::across_portions(plan, 1e-5) == 1);
  // Ts = 0: portions cost nothing to start, Q = N.
  plan.p = 4;
  CHECK(dvm::across_portions(plan, 0.0) == 100);
}

TEST_CASE("DvmAcross plan and pipeline of a loop split along one grid dimension") {
  // Grid 2×1; the loop has 4 iterations of axis 0 (split, width 1, upwards) and 6 of axis 1 on
  // each processor; 48 iterations took 48 us: Tc = 1 us.
  // N = 6 (axis 1), M = 4 + 4 = 8, P = 2, dmax = (4, 6): shad = 24/4·1 = 6, W = ⌈6/6⌉ = 1,
  // Tm = 10.8 us; P·W·Tm = 21.6 > M·Tc = 8: message-bound,
  // Q = ⌊√(6·(2·(8 + 21.6) − 16)/(2·20))⌋ = ⌊√6.48⌋ = 2.
  const auto g = uniform({2, 1}, {{0, 1, 1}, {-1, 1, 0}}, {4, 6});
  const auto plan = dvm::across_plan(g, price, 48e-6, 48);
  CHECK(plan.n == 6);
  CHECK(plan.m == 8);
  CHECK(plan.p == 2);
  CHECK(plan.w == 1);
  CHECK(plan.tc == doctest::Approx(1e-6));
  CHECK(plan.tm == doctest::Approx(10.8e-6));
  CHECK(plan.message_bound);
  CHECK(plan.q == 2);
  // Two portions of 3 × 4 = 12 iterations (12 us). Processor 0: done at 12, 24 us. Processor 1
  // gets each portion's face, 3 elements = 24 bytes: 10 + 2.4 = 12.4 us after it is done:
  // portion 0 at 24.4 (waited 24.4), done 36.4; portion 1 arrives 24 + 12.4 = 36.4 (no wait),
  // done 48.4 us.
  auto run = dvm::across_pipeline(g, price, {48e-6, 48e-6}, 48, {0.0, 0.0});
  CHECK(run.compute[0] == doctest::Approx(24e-6));
  CHECK(run.compute[1] == doctest::Approx(24e-6));
  CHECK(run.wait[0] == 0.0);
  CHECK(run.wait[1] == doctest::Approx(24.4e-6));
  CHECK(run.finish[0] == doctest::Approx(24e-6));
  CHECK(run.finish[1] == doctest::Approx(48.4e-6));
  // Processor 0 starting 5 us late: its portions end at 17 and 29; processor 1 waits 29.4 and
  // ends at 29 + 12.4 + 12 = 53.4 us.
  run = dvm::across_pipeline(g, price, {48e-6, 48e-6}, 48, {5e-6, 0.0});
  CHECK(run.wait[1] == doctest::Approx(29.4e-6));
  CHECK(run.finish[0] == doctest::Approx(29e-6));
  CHECK(run.finish[1] == doctest::Approx(53.4e-6));
  // Downwards the roles swap.
  auto down = g;
  down.dims[0].direction = -1;
  run = dvm::across_pipeline(down, price, {48e-6, 48e-6}, 48, {0.0, 0.0});
  CHECK(run.finish[1] == doctest::Approx(24e-6));
  CHECK(run.finish[0] == doctest::Approx(48.4e-6));
  // Width 0: nothing to wait for, every processor runs its block (P = 1, Q = 1).
  auto flat = g;
  flat.dims[0].width = 0;
  run = dvm::across_pipeline(flat, price, {48e-6, 48e-6}, 48, {0.0, 1e-6});
  CHECK(run.plan.p == 1);
  CHECK(run.plan.q == 1);
  CHECK(run.wait[1] == 0.0);
  CHECK(run.finish[0] == doctest::Approx(24e-6));
  CHECK(run.finish[1] == doctest::Approx(25e-6));
}

TEST_CASE("DvmAcross wavefront over two grid dimensions") {
  // Grid 2×2, 2×2 iterations each, both split and pipelined (width 1): N = 1, Q = 1; Tc = 1 us,
  // a block takes 4 us, a face is 2 elements = 16 bytes: 10 + 1.6 = 11.6 us.
  // (0,0) ends at 4; (0,1) and (1,0) start at 4 + 11.6 = 15.6, end at 19.6; (1,1) starts at
  // 19.6 + 11.6 = 31.2 and ends at 35.2 us.
  const auto g = uniform({2, 2}, {{0, 1, 1}, {1, 1, 1}}, {2, 2});
  const auto run = dvm::across_pipeline(g, price, std::vector<double>(4, 16e-6), 16, std::vector<double>(4, 0.0));
  CHECK(run.plan.n == 1);
  CHECK(run.plan.p == 4);
  CHECK(run.plan.q == 1);
  CHECK(run.finish[0] == doctest::Approx(4e-6));
  CHECK(run.finish[1] == doctest::Approx(19.6e-6));
  CHECK(run.finish[2] == doctest::Approx(19.6e-6));
  CHECK(run.finish[3] == doctest::Approx(35.2e-6));
  CHECK(run.wait[3] == doctest::Approx(31.2e-6));
}

TEST_CASE("DvmAcross processors without iterations neither compute nor hold the pipeline") {
  // 1-D grid of 3, the last processor empty: 0 runs 4 us, 1 waits for its face (1 element:
  // 10.8 us) and ends at 4 + 10.8 + 4 = 18.8 us; 2 does nothing.
  auto g = uniform({3}, {{0, 1, 1}}, {4});
  g.procs[2].extents.clear();
  const auto run = dvm::across_pipeline(g, price, std::vector<double>(3, 8e-6), 8, std::vector<double>(3, 0.0));
  CHECK(run.finish[1] == doctest::Approx(18.8e-6));
  CHECK(run.compute[2] == 0.0);
  CHECK(run.finish[2] == 0.0);
}

TEST_CASE("DvmAcross rejects inconsistent geometry") {
  auto g = uniform({2}, {{0, 1, 1}}, {4});
  auto bad = g;
  bad.dims.push_back({});
  CHECK_THROWS_WITH_AS(dvm::validate(bad), "ACROSS: 2 dimension descriptions for a grid of rank 1",
                       std::invalid_argument);
  bad = g;
  bad.dims[0].width = -2;
  CHECK_THROWS_WITH_AS(dvm::validate(bad), "ACROSS: negative shadow width -2 along grid dimension 0",
                       std::invalid_argument);
  bad = g;
  bad.dims[0].direction = 0;
  CHECK_THROWS_WITH_AS(dvm::validate(bad), "ACROSS: direction 0 along grid dimension 0", std::invalid_argument);
  bad = g;
  bad.dims[0].axis = 3;
  CHECK_THROWS_WITH_AS(dvm::validate(bad), "ACROSS: grid dimension 0 names loop axis 3 of a loop of rank 1",
                       std::invalid_argument);
  bad = g;
  bad.procs.pop_back();
  CHECK_THROWS_WITH_AS(dvm::validate(bad), "ACROSS: 1 processors on a grid of 2", std::invalid_argument);
  CHECK_THROWS_AS(dvm::across_pipeline(g, price, {1e-6}, 4, {0.0, 0.0}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// A whole run: tests/tools/fixtures/dvm/across_2d.ptr through DvmProgram on a bus.
// ---------------------------------------------------------------------------------------------
TEST_CASE("DvmAcross pipeline of across_2d.ptr on a bus of 2 - by hand") {
  // Bus with Ts = 100 us, Tb = 1 us/byte: the probe finds Ts = 100 us, Tb = 1 us.
  augur::machines::ParamSet params(augur::machines::bus_params(), "bus");
  params.set("start_time", "100us");
  params.set("byte_time", "1us");
  augur::machines::BusMachine machine(params, 2);
  augur::traces::libdvm::DvmTraceReader reader(std::string(AUGUR_SOURCE_DIR) +
                                               "/tests/tools/fixtures/dvm/across_2d.ptr");
  augur::models::analysis::IntervalTree tree(2);
  augur::models::dvm::DvmOptions options;
  options.grid = {2};
  options.cost = augur::models::dvm::CostStyle::seed;
  augur::models::dvm::DvmProgram program(reader, machine, tree, options);
  augur::engine::Scheduler scheduler(2);
  augur::models::analysis::DvmCharacteristics observer(tree, 2);
  scheduler.add_observer(&observer);
  const auto result = scheduler.run(program);
  REQUIRE_MESSAGE(result.outcome == augur::engine::RunOutcome::completed, result.message);
  CHECK(program.warnings().empty());  // no "ACROSS not modelled" warning
  program.close_intervals();
  // The loop 1..30 × 1..30 on a 32×32 array split along axis 0 over 2 processors: 15 × 30
  // iterations each; new group: low widths 1 (upward sweep along grid dimension 0).
  // N = 30, M = 30, P = 2, dmax = (15, 30): shad = 450/15 = 30, W = 1; Tc = 9 ms/900 = 10 us,
  // Tm = 100 + 8 = 108 us; P·W·Tm = 216 < M·Tc = 300: Q = ⌊√(30·(300 + 216)/400)⌋ = ⌊√38.7⌋ = 6.
  // Portions of 5 × 15 = 75 iterations (750 us); a face of 5 doubles = 40 bytes takes 140 us.
  // Processor 0 ends after 6·750 = 4500 us; processor 1 waits 750 + 140 = 890 us, then every
  // face arrives as it finishes the previous portion: it ends 890 us later (variation of 0).
  // DoPL = 1: the last processor (1) has no successor, the edge exchange adds 0.
  const auto& p0 = tree.root().proc(0);
  const auto& p1 = tree.root().proc(1);
  using augur::models::analysis::OpKind;
  CHECK(tree.root().op(1, OpKind::shadow).communication == doctest::Approx(890e-6).epsilon(1e-9));
  CHECK(tree.root().op(0, OpKind::shadow).communication == doctest::Approx(0.0));
  CHECK(tree.root().op(0, OpKind::shadow).variation == doctest::Approx(890e-6).epsilon(1e-9));
  CHECK(tree.root().op(1, OpKind::shadow).variation == doctest::Approx(0.0));
  CHECK(p1.execution - p0.execution == doctest::Approx(890e-6).epsilon(1e-9));
  // Both ran 4500 us of the loop as user time (plus their share of the first dopl_'s 1 us).
  CHECK(p1.cpu_usr - p0.cpu_usr == doctest::Approx(0.0).epsilon(1e-12));
}

TEST_CASE("DvmAcross: an across_ naming an unknown shadow group is an error at its line") {
  augur::machines::ParamSet params(augur::machines::bus_params(), "bus");
  augur::machines::BusMachine machine(params, 4);
  const std::string path = std::string(AUGUR_SOURCE_DIR) + "/tests/tools/fixtures/dvm/across_bad_group.ptr";
  augur::traces::libdvm::DvmTraceReader reader(path);
  augur::models::analysis::IntervalTree tree(4);
  augur::models::dvm::DvmOptions options;
  options.grid = {2, 2};
  augur::models::dvm::DvmProgram program(reader, machine, tree, options);
  augur::engine::Scheduler scheduler(4);
  const auto result = scheduler.run(program);
  CHECK(result.outcome != augur::engine::RunOutcome::completed);
  CHECK(result.message.find(path + ":115: error: across_: NewShadowGroupRef=5300 is not a shadow group "
                                   "(no crtshg_ returned it)") != std::string::npos);
}
