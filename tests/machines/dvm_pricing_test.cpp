// Tests of the DVM pricing queries besides GetCost (spec 6.2): the grid reduction (StartR), the
// I/O processor's broadcast (srmem_), the per-processor ends of a transfer matrix and the
// program's grid — the seed's closed forms on the bus and the transputer grid, and the default
// that simulates the messages (SimulatedDvmPricing), each against a hand computation.
#include "machines/dvm_pricing.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "machines/bus/bus_machine.hpp"
#include "machines/loggp_smp/loggp_smp_machine.hpp"
#include "machines/transputer_grid/transputer_grid_machine.hpp"

using augur::machines::bus_params;
using augur::machines::BusMachine;
using augur::machines::loggp_smp_params;
using augur::machines::LoggpSmpMachine;
using augur::machines::ParamSet;
using augur::machines::ProcessorGrid;
using augur::machines::seed_broadcast_times;
using augur::machines::SimulatedDvmPricing;
using augur::machines::transputer_grid_params;
using augur::machines::TransputerGridMachine;

namespace {

/// The oracle runs' old-format machine files: Ts = 75us, Tb = 0.2us per byte. A reduction of one
/// double (8 bytes) costs m = Ts + 8·Tb = 76.6us per message.
ParamSet old_bus(const char* channels = "1", const char* scale = "1") {
  ParamSet params(bus_params(), "bus");
  params.set("start_time", "75us");
  params.set("byte_time", "0.2us");
  params.set("channels", channels);
  params.set("scale", scale);
  return params;
}

ParamSet old_transputer(const char* grid = "[]") {
  ParamSet params(transputer_grid_params(), "transputer_grid");
  params.set("start_time", "75us");
  params.set("byte_time", "0.2us");
  params.set("grid", grid);
  return params;
}

/// A grid of `shape` whose positions are machine processors 0, 1, … in order.
ProcessorGrid grid_of(std::vector<int> shape) {
  ProcessorGrid g;
  int count = 1;
  for (int s : shape) count *= s;
  g.shape = std::move(shape);
  for (int p = 0; p < count; ++p) g.processors.push_back(p);
  return g;
}

doctest::Approx seconds(double value) { return doctest::Approx(value).epsilon(1e-12); }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("BusMachine grid reduction is (Ts + Tb n)(B + L - 2)") {
    BusMachine bus(old_bus(), 16);
    // 4x4, loop split along both dimensions: B = 16, L = 16 → 30 · 76.6us = 2298us
    CHECK(bus.dvm_pricing().grid_reduction_time(grid_of({4, 4}), {true, true}, 8) == seconds(2298e-6));
    // split along dimension 1 only (replicated along 0): B = 4, L = 16 → 18 · 76.6 = 1378.8us
    CHECK(bus.dvm_pricing().grid_reduction_time(grid_of({4, 4}), {false, true}, 8) == seconds(1378.8e-6));
    // 2 processors: B = L = 2 → 2 · 76.6 = 153.2us (Predictor 2.53's jac1d on grid 2)
    CHECK(bus.dvm_pricing().grid_reduction_time(grid_of({2}), {true}, 8) == seconds(153.2e-6));
    // one processor: B + L − 2 = 0; no split dimension: nothing to reduce
    CHECK(bus.dvm_pricing().grid_reduction_time(grid_of({1}), {true}, 8) == 0.0);
    CHECK(bus.dvm_pricing().grid_reduction_time(grid_of({4, 4}), {false, false}, 8) == 0.0);
  }

  TEST_CASE("BusMachine grid reduction is scaled and not divided by the channels") {
    BusMachine bus(old_bus("4", "2"), 16);
    // σ = 2: 2 · 30 · 76.6us = 4596us, whatever the number of channels (2.53's Myrinet)
    CHECK(bus.dvm_pricing().grid_reduction_time(grid_of({4, 4}), {true, true}, 8) == seconds(4596e-6));
  }

  TEST_CASE("SimulatedDvmPricing grid reduction simulated on one bus equals the closed form") {
    BusMachine bus(old_bus(), 16);
    // Gather: the 15 (or 3) other holders send to processor 0 one after another on the bus, then
    // processor 0 sends 15 messages: (15 + 15) · 76.6us and (3 + 15) · 76.6us.
    CHECK(SimulatedDvmPricing(bus).grid_reduction_time(grid_of({4, 4}), {true, true}, 8) == seconds(2298e-6));
    CHECK(SimulatedDvmPricing(bus).grid_reduction_time(grid_of({4, 4}), {false, true}, 8) == seconds(1378.8e-6));
    CHECK(SimulatedDvmPricing(bus).grid_reduction_time(grid_of({4, 4}), {false, false}, 8) == 0.0);
  }

  TEST_CASE("SimulatedDvmPricing grid reduction on LogGP gathers then broadcasts") {
    ParamSet params(loggp_smp_params(), "loggp_smp");  // L = 1us, 10GBps, one process per node
    LoggpSmpMachine smp(params, 4);
    // 100 bytes: W = 100 / 10GBps = 10ns, a message takes L + W = 1.01us. Gather: processors 1,
    // 2, 3 send to 0 at time 0; 0's incoming link serialises them: arrivals 1.01, 1.02, 1.03us.
    // Broadcast from 1.03us over 0's outgoing link: 2.04, 2.05, 2.06us.
    CHECK(smp.dvm_pricing().grid_reduction_time(grid_of({2, 2}), {true, true}, 100) == seconds(2.06e-6));
  }

  TEST_CASE("TransputerGridMachine grid reduction goes through the centre") {
    TransputerGridMachine grid(old_transputer(), 16);
    // (Ts + Tb·n)·(D(0, centre) + Σ_split ⌊s_d/2⌋), m = 76.6us:
    // 4x4: centre (2, 2), D = 4; both split: 4 + 2 + 2 = 8 → 612.8us
    CHECK(grid.dvm_pricing().grid_reduction_time(grid_of({4, 4}), {true, true}, 8) == seconds(612.8e-6));
    // split along dimension 0 only: 4 + 2 = 6 → 459.6us
    CHECK(grid.dvm_pricing().grid_reduction_time(grid_of({4, 4}), {true, false}, 8) == seconds(459.6e-6));
    // 2x2: 2 + 1 + 1 = 4 → 306.4us; a line of 4: centre 2, 2 + 2 = 4 → 306.4us
    CHECK(grid.dvm_pricing().grid_reduction_time(grid_of({2, 2}), {true, true}, 8) == seconds(306.4e-6));
    CHECK(grid.dvm_pricing().grid_reduction_time(grid_of({4}), {true}, 8) == seconds(306.4e-6));
    // 3x3: centre (1, 1), 2 + 1 + 1 = 4 → 306.4us; a line of 2: 1 + 1 = 2 → 153.2us
    CHECK(grid.dvm_pricing().grid_reduction_time(grid_of({3, 3}), {true, true}, 8) == seconds(306.4e-6));
    CHECK(grid.dvm_pricing().grid_reduction_time(grid_of({2}), {true}, 8) == seconds(153.2e-6));
    CHECK(grid.dvm_pricing().grid_reduction_time(grid_of({4, 4}), {false, false}, 8) == 0.0);
  }

  TEST_CASE("BusMachine and TransputerGridMachine broadcast from the I/O processor cumulatively") {
    // Δ_0 = Ts = 75us; Δ_i = Δ_{i−1} + Ts + i·Tb·n with n = 100 bytes (Tb·n = 20us):
    // Δ_1 = 75 + 75 + 20 = 170; Δ_2 = 170 + 75 + 40 = 285; Δ_3 = 285 + 75 + 60 = 420us
    const std::vector<int> four = {0, 1, 2, 3};
    BusMachine bus(old_bus(), 4);
    const auto times = bus.dvm_pricing().broadcast_times(four, 100);
    REQUIRE(times.size() == 4);
    CHECK(times[0] == seconds(75e-6));
    CHECK(times[1] == seconds(170e-6));
    CHECK(times[2] == seconds(285e-6));
    CHECK(times[3] == seconds(420e-6));
    TransputerGridMachine grid(old_transputer(), 4);
    CHECK(grid.dvm_pricing().broadcast_times(four, 100) == times);
    // σ = 2 doubles every Δ
    BusMachine scaled(old_bus("1", "2"), 4);
    CHECK(scaled.dvm_pricing().broadcast_times(four, 100)[3] == seconds(840e-6));
    CHECK(seed_broadcast_times(0, 75e-6, 0.2e-6, 1, 100).empty());
  }

  TEST_CASE("SimulatedDvmPricing broadcast simulates the messages of the I/O processor") {
    ParamSet params(loggp_smp_params(), "loggp_smp");
    LoggpSmpMachine smp(params, 4);
    // 0 sends 100 bytes to 1, 2, 3 at time 0 over its outgoing link: 1.01, 1.02, 1.03us.
    const auto times = smp.dvm_pricing().broadcast_times({0, 1, 2, 3}, 100);
    REQUIRE(times.size() == 4);
    CHECK(times[0] == 0.0);
    CHECK(times[1] == seconds(1.01e-6));
    CHECK(times[2] == seconds(1.02e-6));
    CHECK(times[3] == seconds(1.03e-6));
  }

  TEST_CASE("BusMachine matrix ends follow the messages down the bus") {
    BusMachine bus(old_bus(), 3);
    // Row-major: 0→1 1000 B (275us), 0→2 500 B (175us), 2→1 100 B (95us). The running sums
    // 275, 450, 545us: processor 0 is done at 450, 1 and 2 at 545 = the cost.
    const std::vector<std::vector<std::uint64_t>> matrix = {{0, 1000, 500}, {0, 0, 0}, {0, 100, 0}};
    std::vector<double> ends;
    CHECK(bus.dvm_pricing().matrix_cost_at(matrix, {1.0, 1.0, 1.0}, &ends) == seconds(545e-6));
    REQUIRE(ends.size() == 3);
    CHECK(ends[0] == seconds(450e-6));
    CHECK(ends[1] == seconds(545e-6));
    CHECK(ends[2] == seconds(545e-6));
    // Two channels: everything halves (cost 272.5us)
    BusMachine two(old_bus("2"), 3);
    CHECK(two.dvm_pricing().matrix_cost_at(matrix, {0.0, 0.0, 0.0}, &ends) == seconds(272.5e-6));
    CHECK(ends[0] == seconds(225e-6));
    CHECK(ends[2] == seconds(272.5e-6));
  }

  TEST_CASE("TransputerGridMachine matrix ends are the cost on every processor") {
    TransputerGridMachine grid(old_transputer(), 4);
    // a line of 4; only 0→1 (32 B, one hop): Ts + 32·Tb = 81.4us, and every processor, even the
    // idle 2 and 3, is done when the farthest pair is
    std::vector<double> ends;
    const double cost =
        grid.dvm_pricing().matrix_cost_at({{0, 32, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}, {}, &ends);
    CHECK(cost == seconds(81.4e-6));
    CHECK(ends == std::vector<double>(4, cost));
  }

  TEST_CASE("TransputerGridMachine without a grid takes the program's") {
    const std::vector<std::vector<std::uint64_t>> corner = {{0, 0, 0, 32}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    // 32 bytes from 0 to 3. On a line of 4, D = 3: S = ⌊√(75·32 / (0.2·2))⌋ = 77, clamped to 32,
    // k = 1: (75 + 6.4)·(3 + 1 − 1) = 244.2us. On a 2x2 grid, D = 2: (75 + 6.4)·2 = 162.8us.
    TransputerGridMachine line(old_transputer(), 4);
    CHECK(line.distance(0, 3) == 3);
    CHECK(line.dvm_pricing().matrix_cost(corner) == seconds(244.2e-6));
    line.dvm_pricing().arrange({3});  // another processor count: ignored
    CHECK(line.shape() == std::vector<int>{4});
    line.dvm_pricing().arrange({2, 2});
    CHECK(line.shape() == std::vector<int>{2, 2});
    CHECK(line.distance(0, 3) == 2);
    CHECK(line.dvm_pricing().matrix_cost(corner) == seconds(162.8e-6));
    // a grid given as a parameter is the machine's own: kept
    TransputerGridMachine given(old_transputer("[4]"), 4);
    given.dvm_pricing().arrange({2, 2});
    CHECK(given.shape() == std::vector<int>{4});
    CHECK(given.dvm_pricing().matrix_cost(corner) == seconds(244.2e-6));
  }
}  // TEST_SUITE
