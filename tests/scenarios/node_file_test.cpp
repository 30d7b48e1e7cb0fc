// The roofline node of a machine file (`node:`, spec §7.5): what is read, how compute blocks are
// then priced by every machine model (MachineModel::compute_time), and one broken file per
// defect with its file:line:col. Every expected time is computed by hand beside it.
#include <doctest/doctest.h>

#include <string>

#include "machines/registry.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/scenario.hpp"

namespace {

using augur::machines::ComputeWork;
using augur::machines::MathFn;
using augur::scenarios::ConfigError;
namespace scen = augur::scenarios;

const augur::machines::MachineRegistry& registry() {
  static const augur::machines::MachineRegistry instance = [] {
    augur::machines::MachineRegistry built;
    augur::machines::register_builtin_machines(built);
    return built;
  }();
  return instance;
}

// 4 cores of 10 Gflop/s; L1 100 GB/s per core (node: 4 × 100 = 400 GB/s, not given); DRAM
// 20 GB/s per core, 40 GB/s per node; sin 20 flops, sqrt 4; the file chooses L1.
scen::MachineDescription cluster() {
  return scen::load_machine_file("scenarios/fixtures/node/node_cluster.yaml", registry());
}

scen::MachineDescription broken(const std::string& name) {
  return scen::load_machine_file("scenarios/fixtures/node/broken/" + name, registry());
}

ComputeWork work(double flops, double bytes) {
  ComputeWork w;
  w.flops = flops;
  w.bytes = bytes;
  return w;
}

}  // namespace

TEST_SUITE("node") {
  TEST_CASE("node: is read into the machine's parameters") {
    const scen::MachineDescription m = cluster();
    REQUIRE(m.params.node().has_value());
    const auto& node = *m.params.node();
    CHECK(node.cores == 4);
    CHECK(node.perf_per_core == doctest::Approx(10e9));
    REQUIRE(node.levels.size() == 2);
    CHECK(node.levels[0].bw_per_node == doctest::Approx(400e9));  // 4 cores × 100 GB/s
    CHECK(node.levels[0].capacity == 32768);                      // 32 KiB
    CHECK(node.levels[1].bw_per_node == doctest::Approx(40e9));
    CHECK(node.math_cost[static_cast<std::size_t>(MathFn::sin)] == 20);
    CHECK(node.math_cost[static_cast<std::size_t>(MathFn::cos)] == 0);
    CHECK(m.params.memory_level() == 0);  // memory_level: L1
    bool listed = false;
    for (const auto& [name, value] : m.params.describe())
      if (name == "memory_level") listed = value == "L1";
    CHECK(listed);
  }

  TEST_CASE("compute-bound - memory-bound and shared node bandwidth - on every model") {
    for (const char* model : {"loggp_smp", "bus", "transputer_grid", "flow_network", "dvm_cluster"}) {
      CAPTURE(model);
      scen::MachineDescription m = cluster();
      augur::machines::ParamSet params = augur::machines::make_params(registry().get(model));
      params.set_node(*m.params.node());
      params.set("memory_level", "L1");
      const auto l1 = registry().get(model).create(params, 8);
      // L1: max(1e9 / 10e9, 1e9 / min(100e9, 400e9 / 4)) = max(0.1, 0.01) = 0.1 s: compute-bound.
      CHECK(l1->compute_time(0, work(1e9, 1e9)) == doctest::Approx(0.1));
      params.set("memory_level", "DRAM");
      const auto dram = registry().get(model).create(params, 8);
      // DRAM, 8 processes: 4 on each node share 40 GB/s: min(20e9, 40e9 / 4) = 10e9 B/s;
      // max(0.1, 2e9 / 10e9) = 0.2 s: memory-bound.
      CHECK(dram->compute_time(0, work(1e9, 2e9)) == doctest::Approx(0.2));
      CHECK(dram->compute_time(7, work(1e9, 2e9)) == doctest::Approx(0.2));
      // 6 processes: ranks 4, 5 on the second node share it by two: min(20e9, 20e9) → 2e9 / 20e9 =
      // 0.1 s; rank 0 still shares with 3 others: 0.2 s.
      const auto six = registry().get(model).create(params, 6);
      CHECK(six->compute_time(5, work(1e9, 2e9)) == doctest::Approx(0.1));
      CHECK(six->compute_time(0, work(1e9, 2e9)) == doctest::Approx(0.2));
    }
  }

  TEST_CASE("math functions cost their flops - power scales - flops alone use the node") {
    scen::MachineDescription m = cluster();
    m.params.set("power", "[1, 2]");
    const auto machine = registry().get(m.model).create(m.params, 2);
    ComputeWork w = work(0, 0);
    w.math_calls[static_cast<std::size_t>(MathFn::sin)] = 1e8;    // 1e8 × 20 = 2e9 flops
    w.math_calls[static_cast<std::size_t>(MathFn::sqrt)] = 1e8;   // 1e8 × 4 = 4e8 flops
    w.math_calls[static_cast<std::size_t>(MathFn::exp)] = 1e8;    // no cost declared: 0
    CHECK(machine->compute_time(0, w) == doctest::Approx(0.24));  // 2.4e9 / 10e9
    CHECK(machine->compute_time(1, w) == doctest::Approx(0.12));  // power 2
    // A block with flops only: 5e9 / 10e9 = 0.5 s (the node's performance, not cpu_speed 1 Gflop/s).
    CHECK(machine->compute_time(0, work(5e9, 0)) == doctest::Approx(0.5));
    CHECK(machine->flop_rate(1) == doctest::Approx(20e9));
  }

  TEST_CASE("without a node - bytes and calls are not priced") {
    const auto bus = registry().get("bus").create(augur::machines::make_params(registry().get("bus")), 2);
    ComputeWork w = work(2e9, 1e12);
    w.math_calls[0] = 1e9;
    CHECK(bus->compute_time(0, w) == bus->compute_time(0, 2e9));  // 2e9 / 1 Gflop/s
    CHECK(bus->compute_time(0, w) == doctest::Approx(2.0));
  }

  TEST_CASE("--set machine.memory_level chooses the level") {
    scen::MachineDescription m = cluster();
    m.params.set("memory_level", "DRAM");
    CHECK(m.params.memory_level() == 1);
    CHECK_THROWS_WITH(m.params.set("memory_level", "L2"),
                      doctest::Contains("parameter 'memory_level': unknown memory level 'L2' (levels: L1, DRAM)"));
  }

  TEST_CASE("broken nodes: file:line:col and the defect") {
    const auto check = [](const std::string& file, const std::string& message) {
      CAPTURE(file);
      const std::string expected = file + message;
      CHECK_THROWS_WITH_AS(broken(file), doctest::Contains(expected.c_str()), ConfigError);
    };
    check("unknown_level_key.yaml",
          ":8:20: error: unknown key 'bandwith_per_core'; did you mean 'bandwidth_per_core'?");
    check("zero_cores.yaml", ":4:10: error: invalid core count '0'");
    check("bad_performance.yaml", ":5:16: error: 'performance': invalid flop_rate '10GBps'");
    check("no_levels.yaml", ":6:11: error: 'memory' must be a list of memory levels");
    check("duplicate_level.yaml", ":8:7: error: memory level 'L1' declared twice");
    check("level_without_bandwidth.yaml",
          ":7:7: error: memory level 'L1' needs bandwidth_per_core or bandwidth_per_node");
    check("unknown_math.yaml", ":8:10: error: unknown math function 'sine'; did you mean 'sin'?");
    check("negative_math.yaml", ":8:15: error: 'sin' must be non-negative");
    check("unknown_memory_level.yaml", ":3:15: error: parameter 'memory_level': unknown memory level 'L3'");
    check("memory_level_without_node.yaml",
          ":3:1: error: 'memory_level' chooses a level of the machine's node: declare a `node:` map");
    check("node_scalar.yaml", ":3:7: error: expected a map for 'node', found a scalar");
    check("missing_performance.yaml", ":4:3: error: missing required key 'performance'");
  }
}
