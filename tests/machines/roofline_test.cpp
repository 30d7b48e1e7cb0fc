// Tests of the roofline node model: compute- and memory-bound blocks, the node bandwidth shared
// by active cores, math-function costs and the checks of a node description. Every expected
// value is computed by hand in the comment beside it.
#include "machines/roofline/roofline.hpp"

#include <doctest/doctest.h>

using augur::machines::ComputeWork;
using augur::machines::core_bandwidth;
using augur::machines::level_index;
using augur::machines::MathFn;
using augur::machines::NodeSpec;
using augur::machines::NodeSpecError;
using augur::machines::parse_math_fn;
using augur::machines::roofline_time;
using augur::machines::total_flops;
using augur::machines::validate;

namespace {

// 4 cores of 10 Gflop/s; L1 100 GB/s per core (400 GB/s per node); DRAM 20 GB/s per core but
// 40 GB/s per node; sin costs 20 flops, sqrt 4.
NodeSpec small_node() {
  NodeSpec node;
  node.cores = 4;
  node.perf_per_core = 10e9;
  node.levels = {{"L1", 100e9, 400e9, 32e3}, {"DRAM", 20e9, 40e9, 0}};
  node.math_cost[static_cast<std::size_t>(MathFn::sin)] = 20;
  node.math_cost[static_cast<std::size_t>(MathFn::sqrt)] = 4;
  return node;
}

}  // namespace

TEST_SUITE("roofline") {
  TEST_CASE("a compute-bound block takes flops / perf") {
    const NodeSpec node = small_node();
    ComputeWork work;
    work.flops = 1e9;  // 1e9 / 10e9 = 0.1 s
    work.bytes = 1e9;  // at L1: 1e9 / 100e9 = 0.01 s < 0.1 s
    CHECK(roofline_time(node, work, level_index(node, "L1"), 1) == doctest::Approx(0.1));
  }

  TEST_CASE("a memory-bound block takes bytes / bandwidth") {
    const NodeSpec node = small_node();
    ComputeWork work;
    work.flops = 1e8;  // 0.01 s
    work.bytes = 4e9;  // at DRAM, one core: 4e9 / 20e9 = 0.2 s
    CHECK(roofline_time(node, work, level_index(node, "DRAM"), 1) == doctest::Approx(0.2));
  }

  TEST_CASE("active cores share the node bandwidth") {
    const NodeSpec node = small_node();
    const std::size_t dram = level_index(node, "DRAM");
    CHECK(core_bandwidth(node, dram, 1) == 20e9);  // min(20, 40/1)
    CHECK(core_bandwidth(node, dram, 2) == 20e9);  // min(20, 40/2)
    CHECK(core_bandwidth(node, dram, 4) == 10e9);  // min(20, 40/4)
    CHECK(core_bandwidth(node, dram, 9) == 10e9);  // clamped to the node's 4 cores
    ComputeWork work;
    work.bytes = 4e9;  // 4 active cores: 4e9 / 10e9 = 0.4 s
    CHECK(roofline_time(node, work, dram, 4) == doctest::Approx(0.4));
    CHECK(core_bandwidth(node, level_index(node, "L1"), 4) == 100e9);  // min(100, 400/4)
  }

  TEST_CASE("bytes split by level add their times at their own levels") {
    const NodeSpec node = small_node();
    const std::size_t l1 = level_index(node, "L1"), dram = level_index(node, "DRAM");
    const double split[] = {8e9, 2e9};  // L1 8e9 B, DRAM 2e9 B
    ComputeWork work;
    work.flops = 1e9;  // 1e9 / 10e9 = 0.1 s
    work.level_bytes = split;
    // One core: 8e9 / 100e9 + 2e9 / 20e9 = 0.08 + 0.1 = 0.18 s > 0.1 s: memory-bound, and the same
    // whichever level is chosen (nothing is left unsplit).
    CHECK(augur::machines::memory_time(node, work, l1, 1) == doctest::Approx(0.18));
    CHECK(roofline_time(node, work, l1, 1) == doctest::Approx(0.18));
    CHECK(roofline_time(node, work, dram, 1) == doctest::Approx(0.18));
    // Four active cores: L1 min(100, 400/4) = 100 GB/s, DRAM min(20, 40/4) = 10 GB/s:
    // 0.08 + 2e9 / 10e9 = 0.28 s.
    CHECK(roofline_time(node, work, l1, 4) == doctest::Approx(0.28));
    // Unsplit traffic besides, 1e9 B at the chosen level: at L1 + 0.01 s = 0.19 s; at DRAM
    // + 1e9 / 20e9 = 0.05 s → 0.23 s (one core).
    work.bytes = 1e9;
    CHECK(roofline_time(node, work, l1, 1) == doctest::Approx(0.19));
    CHECK(roofline_time(node, work, dram, 1) == doctest::Approx(0.23));
    // Compute-bound: 1e10 flops = 1 s > 0.23 s.
    work.flops = 1e10;
    CHECK(roofline_time(node, work, dram, 1) == doctest::Approx(1.0));
  }

  TEST_CASE("math functions add their cost in flops") {
    const NodeSpec node = small_node();
    ComputeWork work;
    work.flops = 1e8;
    work.math_calls[static_cast<std::size_t>(MathFn::sin)] = 1e7;     // 2e8 flops
    work.math_calls[static_cast<std::size_t>(MathFn::sqrt)] = 5e7;    // 2e8 flops
    work.math_calls[static_cast<std::size_t>(MathFn::exp)] = 1e9;     // exp undeclared: 0
    CHECK(total_flops(node, work) == doctest::Approx(5e8));           // 1e8 + 2e8 + 2e8
    CHECK(roofline_time(node, work, 0, 1) == doctest::Approx(0.05));  // 5e8 / 10e9
    MathFn fn = MathFn::sin;
    CHECK(parse_math_fn("sqrt", fn));
    CHECK(fn == MathFn::sqrt);
    CHECK_FALSE(parse_math_fn("tanh", fn));
  }

  TEST_CASE("bad node descriptions are rejected with the field named") {
    NodeSpec node = small_node();
    CHECK_NOTHROW(validate(node));
    CHECK_THROWS_WITH_AS(level_index(node, "L3"), "unknown memory level 'L3' (levels: L1, DRAM)", NodeSpecError);
    node.levels[1].name = "L1";
    CHECK_THROWS_WITH_AS(validate(node), "memory level 'L1' declared twice", NodeSpecError);
    node = small_node();
    node.levels[0].bw_per_node = 0;
    CHECK_THROWS_WITH_AS(validate(node), "memory level 'L1': bandwidths must be positive", NodeSpecError);
    node = small_node();
    node.cores = 0;
    CHECK_THROWS_WITH_AS(validate(node), "node: cores must be at least 1", NodeSpecError);
  }
}
