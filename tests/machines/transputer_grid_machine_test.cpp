// Tests of the transputer grid model (spec 7.2, 6.3): distances, the pipelined store-and-forward
// cost against hand computations, link contention, GetCost and the grid validation.
#include "machines/transputer_grid/transputer_grid_machine.hpp"

#include <doctest/doctest.h>

using augur::engine::CollectiveKind;
using augur::machines::ParamError;
using augur::machines::ParamSet;
using augur::machines::pipelined_cost;
using augur::machines::transputer_grid_params;
using augur::machines::TransputerGridMachine;

namespace {

/// Ts = 10us per hop, Tb = 1us per byte.
ParamSet grid_setup(const char* grid = "[]", const char* contention = "false") {
  ParamSet params(transputer_grid_params(), "transputer_grid");
  params.set("start_time", "10us");
  params.set("byte_time", "1us");
  params.set("grid", grid);
  params.set("link_contention", contention);
  return params;
}

doctest::Approx seconds(double value) { return doctest::Approx(value).epsilon(1e-12); }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("TransputerGridMachine numbers processors row-major") {
    TransputerGridMachine grid(grid_setup("[4, 4]"), 16);
    // processor 6 = row 1, column 2 (the last dimension is the fastest)
    CHECK(grid.coordinate(6, 0) == 1);
    CHECK(grid.coordinate(6, 1) == 2);
    CHECK(grid.distance(0, 15) == 6);  // (0,0) → (3,3): 3 + 3
    CHECK(grid.distance(1, 4) == 2);   // (0,1) → (1,0): 1 + 1
    CHECK(grid.distance(5, 5) == 0);
    TransputerGridMachine line(grid_setup(), 5);  // [] = a line of 5
    REQUIRE(line.shape().size() == 1);
    CHECK(line.shape()[0] == 5);
    CHECK(line.distance(0, 4) == 4);
  }

  TEST_CASE("TransputerGridMachine prices a neighbour message as Ts plus Tb times B") {
    TransputerGridMachine line(grid_setup(), 4);
    const auto t = line.transfer(0, 1, 1000, 0);
    // D = 1: Ts + Tb·B = 10us + 1000us = 1010us
    CHECK(t.arrival == seconds(1010e-6));
    CHECK(t.sender_free == 0.0);
  }

  TEST_CASE("TransputerGridMachine pipelines messages over three hops") {
    // D = 3, B = 1000: S = ⌊√(10·1000 / (1·2))⌋ = ⌊√5000⌋ = ⌊70.71⌋ = 70; k = ⌊1000/70⌋ = 14;
    // e = 1000 − 980 = 20; C = (10 + 70)(3 + 14 − 1) + (10 + 20) = 80·16 + 30 = 1310us
    CHECK(pipelined_cost(10e-6, 1e-6, 1000, 3) == seconds(1310e-6));
    TransputerGridMachine line(grid_setup(), 4);
    CHECK(line.transfer(0, 3, 1000, 0).arrival == seconds(1310e-6));
    CHECK(line.transfer(3, 0, 1000, 2e-3).arrival == seconds(2e-3 + 1310e-6));
  }

  TEST_CASE("TransputerGridMachine sends one packet when Tb is tiny - without looping on an infinite ratio") {
    // Ts = 75us, Tb = 1e-306 s: Ts·B / (Tb·(D−1)) overflows to infinity ≥ B², so S = B = 1000 and
    // C = (Ts + Tb·B)·D = 3·75us (Tb·B is below the last bit of 225us).
    CHECK(pipelined_cost(75e-6, 1e-306, 1000, 3) == seconds(225e-6));
  }

  TEST_CASE("TransputerGridMachine pipelines over six hops of a 2-D grid") {
    // D = 6, B = 100: S = ⌊√(10·100 / (1·5))⌋ = ⌊√200⌋ = 14; k = 7; e = 2;
    // C = (10 + 14)(6 + 7 − 1) + (10 + 2) = 24·12 + 12 = 300us
    TransputerGridMachine grid(grid_setup("4x4"), 16);
    CHECK(grid.transfer(0, 15, 100, 0).arrival == seconds(300e-6));
  }

  TEST_CASE("TransputerGridMachine finds the exact packet size at perfect squares") {
    // D = 2, B = 490, Ts = 10us, Tb = 1us: 10·490/1 = 4900 → S = 70 exactly (√4900 = 70);
    // k = 7, e = 0: C = (10 + 70)(2 + 7 − 1) = 640us
    CHECK(pipelined_cost(10e-6, 1e-6, 490, 2) == seconds(640e-6));
  }

  TEST_CASE("TransputerGridMachine clamps the packet size to the message") {
    // D = 2, B = 1: S = ⌊√(10·1/1)⌋ = 3 → clamped to 1; k = 1; C = (10 + 1)(2 + 1 − 1) = 22us
    CHECK(pipelined_cost(10e-6, 1e-6, 1, 2) == seconds(22e-6));
    // an empty message pays Ts on every hop: 3·10us = 30us
    CHECK(pipelined_cost(10e-6, 1e-6, 0, 3) == seconds(30e-6));
    CHECK(pipelined_cost(10e-6, 1e-6, 1000, 0) == 0.0);
  }

  TEST_CASE("TransputerGridMachine scale multiplies communication") {
    ParamSet params = grid_setup();
    params.set("scale", "0.5");
    TransputerGridMachine line(params, 2);
    // σ·(Ts + Tb·B) = 0.5·1010us = 505us
    CHECK(line.transfer(0, 1, 1000, 0).arrival == seconds(505e-6));
  }

  TEST_CASE("TransputerGridMachine link contention delays messages sharing a link") {
    // 0→2 (D = 2, B = 100): S = ⌊√(10·100/1)⌋ = 31; k = 3; e = 7;
    // C = (10 + 31)(2 + 3 − 1) + (10 + 7) = 164 + 17 = 181us, on links 0→1 and 1→2.
    // 1→2 (D = 1): 10 + 100 = 110us, but link 1→2 is busy until 181us: arrival 291us.
    TransputerGridMachine busy(grid_setup("[]", "true"), 3);
    CHECK(busy.transfer(0, 2, 100, 0).arrival == seconds(181e-6));
    const auto second = busy.transfer(1, 2, 100, 0);
    CHECK(second.start == seconds(181e-6));
    CHECK(second.arrival == seconds(291e-6));
    // the opposite direction is another link: 2→1 is not delayed
    CHECK(busy.transfer(2, 1, 100, 0).arrival == seconds(110e-6));
    busy.reset();
    CHECK(busy.transfer(1, 2, 100, 0).arrival == seconds(110e-6));
    // without contention both go at once
    TransputerGridMachine free_links(grid_setup(), 3);
    free_links.transfer(0, 2, 100, 0);
    CHECK(free_links.transfer(1, 2, 100, 0).arrival == seconds(110e-6));
  }

  TEST_CASE("TransputerGridMachine routes dimension by dimension") {
    // 4x4: 0 (0,0) → 5 (1,1) goes down dimension 0 first (0 → 4), then along dimension 1
    // (4 → 5). A message 4 → 5 ready at 0 therefore waits; 1 → 5 (link 1 → 5) does not.
    TransputerGridMachine grid(grid_setup("[4, 4]", "true"), 16);
    // D = 2, B = 100: 181us (as above)
    CHECK(grid.transfer(0, 5, 100, 0).arrival == seconds(181e-6));
    CHECK(grid.transfer(1, 5, 100, 0).arrival == seconds(110e-6));
    CHECK(grid.transfer(4, 5, 100, 0).start == seconds(181e-6));
  }

  TEST_CASE("TransputerGridMachine matrix_cost uses the farthest pair") {
    TransputerGridMachine grid(grid_setup("[4, 4]"), 16);
    std::vector<std::vector<std::uint64_t>> matrix(16, std::vector<std::uint64_t>(16, 0));
    matrix[0][15] = 100;  // D = 6
    matrix[3][12] = 50;   // D = 6, smaller
    matrix[0][1] = 5000;  // D = 1, larger but nearer
    matrix[5][10] = 200;  // D = 2
    // D = 6, B = 100: C = 300us (see the 2-D case above)
    CHECK(grid.dvm_pricing().matrix_cost(matrix) == seconds(300e-6));
    matrix[0][15] = 0;
    matrix[3][12] = 0;
    // now D = 2, B = 200: S = ⌊√(10·200/1)⌋ = 44; k = 4; e = 24;
    // C = (10 + 44)(2 + 4 − 1) + (10 + 24) = 270 + 34 = 304us
    CHECK(grid.dvm_pricing().matrix_cost(matrix) == seconds(304e-6));
    CHECK(grid.dvm_pricing().matrix_cost({}) == 0.0);
  }

  TEST_CASE("TransputerGridMachine collective_time follows the root distance") {
    TransputerGridMachine grid(grid_setup("[4, 4]"), 16);
    // bcast from 0: eccentricity 6, B = 100 → 300us
    CHECK(grid.collective_time(CollectiveKind::bcast, 16, 100, 0) == seconds(300e-6));
    // from 5 = (1,1): eccentricity max(1, 2) + max(1, 2) = 4; S = ⌊√(10·100/3)⌋ = 18; k = 5;
    // e = 10; C = (10 + 18)(4 + 5 − 1) + (10 + 10) = 224 + 20 = 244us
    CHECK(grid.collective_time(CollectiveKind::bcast, 16, 100, 5) == seconds(244e-6));
    // barrier: 2·Ts·E(0) = 2·10us·6 = 120us
    CHECK(grid.collective_time(CollectiveKind::barrier, 16, 0, 0) == seconds(120e-6));
    // scan: (P−1)·(Ts + Tb·n) = 15·110us = 1650us
    CHECK(grid.collective_time(CollectiveKind::scan, 16, 100, 0) == seconds(1650e-6));
    // alltoall: Ts·D + Tb·n·max(P−1, ⌈P/2⌉⌊P/2⌋·k/P) = 60us + 100us·max(15, 8·8·4/16 = 16)
    // = 60 + 1600 = 1660us
    CHECK(grid.collective_time(CollectiveKind::alltoall, 16, 100, 0) == seconds(1660e-6));
    CHECK(grid.collective_time(CollectiveKind::bcast, 1, 100, 0) == 0.0);
  }

  TEST_CASE("TransputerGridMachine rejects a grid that does not hold the processors") {
    CHECK_THROWS_WITH_AS(TransputerGridMachine(grid_setup("[4, 4]"), 8),
                         "parameter 'grid': the grid [4, 4] holds 16 processors, but the run "
                         "has 8",
                         ParamError);
    CHECK_THROWS_WITH_AS(TransputerGridMachine(grid_setup("2x0"), 4),
                         "parameter 'grid': the grid [2, 0] holds 0 processors, but the run has 4", ParamError);
  }
}  // TEST_SUITE
