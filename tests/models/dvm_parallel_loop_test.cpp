// Tests of parallel loops: iteration spaces with steps, mappl_ on templates and arrays, the
// iteration blocks of every processor (augur and the original's LoopBlock arithmetic) and the
// replication count cnt of dopl_.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tests/models/dvm_test_support.hpp"
#include "models/dvm/distributed_array.hpp"
#include "models/dvm/distribution.hpp"
#include "models/dvm/parallel_loop.hpp"
#include "models/dvm/processor_system.hpp"

namespace {

using augur::test::show;

using augur::models::dvm::AlignParams;
using augur::models::dvm::Block;
using augur::models::dvm::DistributedArray;
using augur::models::dvm::Fidelity;
using augur::models::dvm::Index;
using augur::models::dvm::ParallelLoop;
using augur::models::dvm::ProcessorSystem;
using augur::models::dvm::Range;
using augur::models::dvm::Template;
namespace dvm = augur::models::dvm;

std::string blocks(const std::vector<Block>& all) {
  std::string s;
  for (const Block& b : all) s += (s.empty() ? "" : " ") + show(b);
  return s;
}

std::vector<Index> counts(const std::vector<Block>& all) {
  std::vector<Index> n;
  for (const Block& b : all) n.push_back(b.volume());
  return n;
}

Template distributed(std::vector<Index> sizes, const ProcessorSystem& grid, std::vector<int> axes) {
  Template t(std::move(sizes));
  t.distribute(grid, axes);
  return t;
}

AlignParams params(std::vector<int> axis, std::vector<Index> coeff, std::vector<Index> constant) {
  return AlignParams{std::move(axis), std::move(coeff), std::move(constant)};
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("DvmParallelLoop iteration spaces") {
    const ParallelLoop loop({1, 10}, {9, 2}, {2, -3});
    // 1, 3, 5, 7, 9 and 10, 7, 4 (ascending: 4, 7, 10)
    CHECK(show(loop.axis_range(0)) == "[1..9/2]");
    CHECK(show(loop.axis_range(1)) == "[4..10/3]");
    CHECK(loop.iteration_count(Fidelity::augur) == 15);
    // the original normalises the negative step with r = (10 − 2) mod −3 = 2 (C remainder):
    // Lower = 2 − 3 − 2 = −3, Higher = 10, Step 3 → (10 + 3 + 3)/3 = 5 "iterations"; 5·5 = 25
    CHECK(loop.iteration_count(Fidelity::predictor) == 25);
    CHECK(ParallelLoop({5}, {1}, {1}).iteration_count(Fidelity::augur) == 0);
    CHECK(ParallelLoop({5}, {1}, {1}).iteration_count(Fidelity::predictor) == 0);
    CHECK_THROWS_AS(ParallelLoop({1}, {4}, {0}), std::invalid_argument);
    CHECK_THROWS_AS(ParallelLoop({1, 1}, {4}, {1}), std::invalid_argument);
    CHECK_THROWS_AS(loop.distribution(), std::logic_error);
  }

  TEST_CASE("DvmParallelLoop block with step 2") {
    // template 10 on 4: [0..2] [3..5] [6..8] [9..9]; I = 1, 3, …, 9 mapped at t = I
    const Template t = distributed({10}, ProcessorSystem({4}), {1});
    ParallelLoop loop({1}, {9}, {2});
    loop.map(t, params({1}, {1}, {0}));
    // p0 {1}, p1 {3, 5}, p2 {7}, p3 {9}: N_i = 1 2 1 1, Σ = N = 5
    const std::vector<Block> all = loop.blocks(Fidelity::augur);
    CHECK(blocks(all) == "[1..1] [3..5/2] [7..7] [9..9]");
    CHECK(counts(all) == std::vector<Index>{1, 2, 1, 1});
    // The original: pieces [0..1] [2..4] [5..6] [7..9] (LoopBlock's cut), B' = 1·Lower + 0 = 1,
    // offsets over 9 values, shifted by B', then aligned to multiples of the step in those
    // shifted coordinates: p0 [0..1] → offsets [0..0] → [1..1] → [2·⌈1/2⌉, 2·⌊1/2⌋] = empty;
    // p1 [2..4] → [1..3] → [2..4] → {2, 4}; p2 [5..6] → [5..6] → {6}; p3 [7..9] → {8}.
    // N_i = 0 2 1 1: one iteration of the 5 is lost (README: the step alignment).
    const std::vector<Block> original = loop.blocks(Fidelity::predictor);
    CHECK(blocks(original) == "empty [2..4/2] [6..6] [8..8]");
    CHECK(counts(original) == std::vector<Index>{0, 2, 1, 1});
  }

  TEST_CASE("DvmParallelLoop unmapped axes keep their values") {
    // loop (I, J): I = 0…3 on template 4 over 2 processors, J = 1…7 step 2 not mapped
    const Template t = distributed({4}, ProcessorSystem({2}), {1});
    ParallelLoop loop({0, 1}, {3, 7}, {1, 2});
    loop.map(t, params({1}, {1}, {0}));
    CHECK(blocks(loop.blocks(Fidelity::augur)) == "[0..1]x[1..7/2] [2..3]x[1..7/2]");
    // the original aligns J to multiples of 2 in absolute values: [2·⌈1/2⌉, 2·⌊7/2⌋] = {2, 4, 6}
    CHECK(blocks(loop.blocks(Fidelity::predictor)) == "[0..1]x[2..6/2] [2..3]x[2..6/2]");
    // and a negative bound on an unmapped axis leaves no iteration
    ParallelLoop below({0, -2}, {3, 2}, {1, 1});
    below.map(t, params({1}, {1}, {0}));
    CHECK(counts(below.blocks(Fidelity::augur)) == std::vector<Index>{10, 10});
    CHECK(counts(below.blocks(Fidelity::predictor)) == std::vector<Index>{0, 0});
  }

  TEST_CASE("DvmParallelLoop on an array with a constant offset") {
    // jac (Fortran): template 8×8 on 2×2, array A aligned identically, loop I, J = 2…7 mapped on
    // A with A(I − 1, J − 1): p0 owns rows/columns 0..3 → I − 1 ∈ [0..3] ∩ I ∈ [2..7] → I ∈ [2..4]
    const Template t = distributed({8, 8}, ProcessorSystem({2, 2}), {1, 2});
    DistributedArray a({8, 8}, 4, {1, 1}, {1, 1});
    a.align(t, params({1, 2}, {1, 1}, {0, 0}));
    ParallelLoop loop({2, 2}, {7, 7}, {1, 1});
    loop.map(a, params({1, 2}, {1, 1}, {-1, -1}));
    CHECK(blocks(loop.blocks(Fidelity::augur)) == "[2..4]x[2..4] [2..4]x[5..7] [5..7]x[2..4] [5..7]x[5..7]");
    // the original: B' = 1·2 − 1 = 1, offsets [0..2] shifted by 1: the same counts, its blocks
    // in pattern coordinates I − 1
    CHECK(blocks(loop.blocks(Fidelity::predictor)) == "[1..3]x[1..3] [1..3]x[4..6] [4..6]x[1..3] [4..6]x[4..6]");
    CHECK(counts(loop.blocks(Fidelity::predictor)) == std::vector<Index>{9, 9, 9, 9});
    CHECK(loop.iteration_count(Fidelity::augur) == 36);
  }

  TEST_CASE("DvmParallelLoop replicated dimension gives cnt") {
    // loop I = 0…7 on template axis 1 of an 8×8 template on 2×2; template axis 2 replicated
    // (AxisArray 1 −1): processors (r, 0) and (r, 1) execute the same iterations
    const Template t = distributed({8, 8}, ProcessorSystem({2, 2}), {1, 2});
    ParallelLoop loop({0}, {7}, {1});
    loop.map(t, params({1, -1}, {1, 0}, {0, 0}));
    const std::vector<Block> all = loop.blocks(Fidelity::augur);
    CHECK(blocks(all) == "[0..3] [0..3] [4..7] [4..7]");
    CHECK(dvm::identical_block_counts(all) == std::vector<int>{2, 2, 2, 2});
    CHECK(dvm::identical_block_counts(loop.blocks(Fidelity::predictor)) == std::vector<int>{2, 2, 2, 2});
  }

  TEST_CASE("DvmParallelLoop with more processors than iterations") {
    // 3 iterations on template 3 over 4 processors
    const Template t = distributed({3}, ProcessorSystem({4}), {1});
    ParallelLoop loop({0}, {2}, {1});
    loop.map(t, params({1}, {1}, {0}));
    const std::vector<Block> all = loop.blocks(Fidelity::augur);
    CHECK(blocks(all) == "[0..0] [1..1] [2..2] empty");
    CHECK(dvm::identical_block_counts(all) == std::vector<int>{1, 1, 1, 0});
    // the original's loop cut [0..0] [0..0] [1..1] [2..2] runs iteration 0 twice: cnt = 2 there
    const std::vector<Block> original = loop.blocks(Fidelity::predictor);
    CHECK(blocks(original) == "[0..0] [0..0] [1..1] [2..2]");
    CHECK(dvm::identical_block_counts(original) == std::vector<int>{2, 2, 1, 1});
  }

  TEST_CASE("DvmParallelLoop constant mapping runs on one grid row") {
    // loop J = 0…5 on template 4×6 (2×2): AxisArray 0 1, ConstArray 3 0: the row t0 = 3 lies on
    // grid row 1 ([2..3]); grid row 0 executes nothing
    const Template t = distributed({4, 6}, ProcessorSystem({2, 2}), {1, 2});
    ParallelLoop loop({0}, {5}, {1});
    loop.map(t, params({0, 1}, {0, 1}, {3, 0}));
    CHECK(blocks(loop.blocks(Fidelity::augur)) == "empty empty [0..2] [3..5]");
    CHECK(blocks(loop.blocks(Fidelity::predictor)) == "empty empty [0..2] [3..5]");
  }

  TEST_CASE("DvmParallelLoop coefficient 2 picks every other pattern index") {
    // I = 0…7 at t = 2I + 1 on template 16 over 4 ([0..3] [4..7] [8..11] [12..15]):
    // p0 2I + 1 ∈ [0, 3] → I ∈ [0, 1]; p1 [2, 3]; p2 [4, 5]; p3 [6, 7]
    const Template t = distributed({16}, ProcessorSystem({4}), {1});
    ParallelLoop loop({0}, {7}, {1});
    loop.map(t, params({1}, {2}, {1}));
    CHECK(blocks(loop.blocks(Fidelity::augur)) == "[0..1] [2..3] [4..5] [6..7]");
    CHECK(counts(loop.blocks(Fidelity::predictor)) == std::vector<Index>{1, 2, 2, 2});
  }
}
