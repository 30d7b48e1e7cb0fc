// Tests of templates and distributed arrays: BLOCK pieces of ⌈N/p⌉, the original's weighted
// arithmetic, blkdiv_ multiples, coordinate weights, and align_ (coefficients, constants,
// replication, alignment on arrays) down to every processor's local block.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tests/models/dvm_test_support.hpp"
#include "models/dvm/distributed_array.hpp"
#include "models/dvm/distribution.hpp"
#include "models/dvm/processor_system.hpp"

namespace {

using augur::test::show;

using augur::models::dvm::AlignParams;
using augur::models::dvm::AxisRule;
using augur::models::dvm::AxisRuleKind;
using augur::models::dvm::Block;
using augur::models::dvm::DistributedArray;
using augur::models::dvm::Fidelity;
using augur::models::dvm::Index;
using augur::models::dvm::MappedAxis;
using augur::models::dvm::ProcessorSystem;
using augur::models::dvm::Range;
using augur::models::dvm::SplitRule;
using augur::models::dvm::Template;
namespace dvm = augur::models::dvm;

/// "piece piece …" of an axis of n elements cut for `weights`.
std::string pieces(Index n, const std::vector<double>& weights, Index multiple, SplitRule rule) {
  std::string s;
  for (const Range& r : dvm::split_axis(n, weights, multiple, rule)) s += (s.empty() ? "" : " ") + show(r);
  return s;
}

std::string blocks(const std::vector<Block>& all) {
  std::string s;
  for (const Block& b : all) s += (s.empty() ? "" : " ") + show(b);
  return s;
}

const std::vector<double> four{1, 1, 1, 1};

AlignParams params(std::vector<int> axis, std::vector<Index> coeff, std::vector<Index> constant) {
  return AlignParams{std::move(axis), std::move(coeff), std::move(constant)};
}

/// A template of `sizes` distributed on `grid` with distr_'s AxisArray `axes`.
Template distributed(std::vector<Index> sizes, const ProcessorSystem& grid, std::vector<int> axes) {
  Template t(std::move(sizes));
  t.distribute(grid, axes);
  return t;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("DvmSplit cuts BLOCK pieces of ceil(N/p)") {
    // ⌈10/4⌉ = 3: [0..2] [3..5] [6..8] [9..9]
    CHECK(pieces(10, four, 0, SplitRule::standard) == "[0..2] [3..5] [6..8] [9..9]");
    // p > N: ⌈3/4⌉ = 1, the last processor gets nothing
    CHECK(pieces(3, four, 0, SplitRule::standard) == "[0..0] [1..1] [2..2] empty");
    // ⌈5/4⌉ = 2: [0..1] [2..3] [4..4] and an empty piece (6 > 4)
    CHECK(pieces(5, four, 0, SplitRule::standard) == "[0..1] [2..3] [4..4] empty");
    // blkdiv_ 4: L = ⌈⌈10/2⌉/4⌉·4 = 8
    CHECK(pieces(10, {1, 1}, 4, SplitRule::standard) == "[0..7] [8..9]");
  }

  TEST_CASE("DvmSplit weighted pieces") {
    // W = 6, b1 = ⌊12·1/6⌋ = 2, b2 = ⌊12·3/6⌋ = 6
    CHECK(pieces(12, {1, 2, 3}, 0, SplitRule::standard) == "[0..1] [2..5] [6..11]");
    // multiple 4: b1 = 4·⌊12·1/24⌋ = 0, b2 = 4·⌊12·3/24⌋ = 4
    CHECK(pieces(12, {1, 2, 3}, 4, SplitRule::standard) == "empty [0..3] [4..11]");
    // the original: v = 12/6 = 2; [0, trunc(0 + 2 − 1)] [2, trunc(2 + 4 − 1)] [6, 11]
    CHECK(pieces(12, {1, 2, 3}, 0, SplitRule::predictor_array) == "[0..1] [2..5] [6..11]");
    CHECK(pieces(12, {1, 2, 3}, 0, SplitRule::predictor_loop) == "[0..1] [2..5] [6..11]");
    // a zero weight gets nothing
    CHECK(pieces(6, {1, 0, 1}, 0, SplitRule::standard) == "[0..2] empty [3..5]");
  }

  TEST_CASE("DvmSplit reproduces the original's arithmetic") {
    // arrays, v = 10/4 = 2.5: c0 [0, trunc(0 + 1.5)] = [0, 1]; c1 [2, trunc(2 + 1.5)] = [2, 3];
    // c2 [5, 6]; c3 [7, trunc(7 + 1.5) = 8], 8 + 1 ≥ 9 → 9. Index 4 belongs to nobody.
    CHECK(pieces(10, four, 0, SplitRule::predictor_array) == "[0..1] [2..3] [5..6] [7..9]");
    // loops: hi = trunc(s + 1.5): [0, 1] [2, trunc(4.0)] [5, trunc(6.5)] [7, trunc(9.0)]
    CHECK(pieces(10, four, 0, SplitRule::predictor_loop) == "[0..1] [2..4] [5..6] [7..9]");
    // arrays with p > N, v = 0.75: c0 [0, trunc(−0.25)] = [0, 0]; c1 [trunc(0.75), 0] = [0, 0];
    // c2 [1, trunc(1 − 0.25)] = [1, 0] empty; c3 [2, trunc(1.75) = 1], widened (1 + 1 ≥ 2) to 2
    CHECK(pieces(3, four, 0, SplitRule::predictor_array) == "[0..0] [0..0] empty [2..2]");
    // loops with p > N, v = 0.75: c0 [0, trunc(−0.25) = 0]; c1 [trunc(0.75), trunc(0.5)] = [0, 0];
    // c2 [1, trunc(1.25)]; c3 [2, trunc(2.0)]: iteration 0 runs twice
    CHECK(pieces(3, four, 0, SplitRule::predictor_loop) == "[0..0] [0..0] [1..1] [2..2]");
    // blkdiv_ 1 (mgrid's 2-element axis on 4): v = ⌈0.5⌉ = 1; c0 [0, 0] widened (0 + 1 ≥ 1) to
    // [0, 1]; c1 [1, 1]; c2 [2, 2 → 1] empty; c3 empty
    CHECK(pieces(2, four, 1, SplitRule::predictor_array) == "[0..1] [1..1] empty empty");
    CHECK(pieces(2, four, 1, SplitRule::predictor_loop) == "[0..0] [1..1] [2..2] [3..3]");
    // divisible sizes agree with BLOCK: 8 on 2
    CHECK(pieces(8, {1, 1}, 0, SplitRule::predictor_array) == "[0..3] [4..7]");
    CHECK(pieces(8, {1, 1}, 1, SplitRule::predictor_loop) == "[0..3] [4..7]");
  }

  TEST_CASE("DvmTemplate distr_ maps template axes on grid dimensions") {
    const ProcessorSystem grid({2, 2});
    const Template t = distributed({8, 8}, grid, {1, 2});
    CHECK(show(t.block(0, SplitRule::standard)) == "[0..3]x[0..3]");
    CHECK(show(t.block(1, SplitRule::standard)) == "[0..3]x[4..7]");
    CHECK(show(t.block(2, SplitRule::standard)) == "[4..7]x[0..3]");
    CHECK(show(t.block(3, SplitRule::standard)) == "[4..7]x[4..7]");
    // Fortran's AxisArray 2 1: template axis 2 along grid dimension 0. Processor 1 = (0, 1):
    // axis 1 (0-based 0) on coordinate 1 → [4..7], axis 2 on coordinate 0 → [0..3]
    const Template f = distributed({8, 8}, grid, {2, 1});
    CHECK(f.axis_of_dim(0) == 1);
    CHECK(show(f.block(1, SplitRule::standard)) == "[4..7]x[0..3]");
    // AxisArray 0 1: replicated along grid dimension 0
    const Template r = distributed({10}, grid, {0, 1});
    CHECK(r.axis_of_dim(0) == -1);
    CHECK(show(r.block(2, SplitRule::standard)) == "[0..4]");
    CHECK(show(r.block(3, SplitRule::standard)) == "[5..9]");
    // entries beyond the grid's rank are ignored (mgrid passes two on a 1-D grid)
    const Template m = distributed({8, 12, 16}, ProcessorSystem({4}), {1, 2});
    CHECK(m.dim_of_axis(0) == 0);
    CHECK(m.dim_of_axis(1) == -1);
    Template bad({8, 8});
    CHECK_THROWS_AS(bad.distribute(grid, std::vector<int>{3}), std::invalid_argument);
    CHECK_THROWS_AS(bad.distribute(grid, std::vector<int>{1, 1}), std::invalid_argument);
    CHECK_THROWS_AS(bad.distribute(grid, std::vector<int>{-1}), std::invalid_argument);
    CHECK_THROWS_AS(bad.system(), std::logic_error);
    CHECK_THROWS_AS(Template({4, 0}), std::invalid_argument);
  }

  TEST_CASE("DvmTemplate blkdiv_ and weights shape the pieces") {
    Template t({12});
    t.distribute(ProcessorSystem({3}), std::vector<int>{1});
    t.set_weights({{1, 2, 3}});
    CHECK(show(t.piece(0, 1, SplitRule::standard)) == "[2..5]");
    t.set_multiples({4});
    CHECK(show(t.piece(0, 2, SplitRule::standard)) == "[4..11]");
    // weights for another grid are ignored
    t.set_weights({{1, 2}});
    CHECK(t.weights(0) == std::vector<double>{1, 1, 1});
    CHECK_THROWS_AS(t.set_multiples({0}), std::invalid_argument);
    CHECK_THROWS_AS(t.set_weights({{1, -1, 1}}), std::invalid_argument);
  }

  TEST_CASE("DvmWeights fold processor powers in as setpsw_ does") {
    // 1-D, powers 1 and 2, rank 1: coordinate j gets (power_j / 1)^1 / (2/2) → {1, 2}
    const double line_powers[] = {1, 2};
    CHECK(dvm::coordinate_weights(ProcessorSystem({2}), {}, line_powers) == std::vector<std::vector<double>>{{1, 2}});
    // 2×2, powers {1, 1, 4, 4}, exponent 1/2, P/size = 2:
    // dim 0: row 0 (√1 + √1)/2 = 1, row 1 (√4 + √4)/2 = 2; dim 1: (√1 + √4)/2 = 1.5 twice
    const double grid_powers[] = {1, 1, 4, 4};
    CHECK(dvm::coordinate_weights(ProcessorSystem({2, 2}), {}, grid_powers) ==
          std::vector<std::vector<double>>{{1, 2}, {1.5, 1.5}});
    // raw {2, 4} normalised by its minimum to {1, 2}, times {1, 2}
    CHECK(dvm::coordinate_weights(ProcessorSystem({2, 2}), {{2, 4}}, grid_powers)[0] == std::vector<double>{1, 4});
    CHECK(dvm::coordinate_weights(ProcessorSystem({2, 2}), {}, {}) == std::vector<std::vector<double>>{{1, 1}, {1, 1}});
    CHECK_THROWS_AS(dvm::coordinate_weights(ProcessorSystem({2}), {{1, 1, 1}}, {}), std::invalid_argument);
  }

  TEST_CASE("DvmWeights from setelw_ loads") {
    // loads 1 1 1 1 1 1 3 3 3 on 3 processors: the smallest possible maximum is 6
    // (1·6 | 3 3 | 3), so the coordinates get 6, 2 and 1 elements
    const Index numbers[] = {9};
    const double loads[] = {1, 1, 1, 1, 1, 1, 3, 3, 3};
    const ProcessorSystem line({3});
    const auto augur = dvm::load_weights(line, numbers, loads, Fidelity::augur);
    CHECK(augur == std::vector<std::vector<double>>{{6, 2, 1}});
    // with those weights, b1 = ⌊9·6/9⌋ = 6, b2 = ⌊9·8/9⌋ = 8
    CHECK(pieces(9, augur[0], 0, SplitRule::standard) == "[0..5] [6..7] [8..8]");
    // the original takes the first size_d loads as weights, from the start for every dimension
    const Index two[] = {4, 4};
    const double eight[] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(dvm::load_weights(ProcessorSystem({2, 2}), two, eight, Fidelity::predictor) ==
          std::vector<std::vector<double>>{{1, 2}, {1, 2}});
    // augur: dimension 1 takes loads 4…7
    const auto both = dvm::load_weights(ProcessorSystem({2, 2}), two, eight, Fidelity::augur);
    CHECK(both[0] == std::vector<double>{3, 1});  // 1 2 3 | 4: largest load 6 (1 2 | 3 4 has 7)
    CHECK(both[1] == std::vector<double>{2, 2});  // 5 6 | 7 8: largest load 15
    const double few[] = {1, 2};
    CHECK_THROWS_AS(dvm::load_weights(ProcessorSystem({2, 2}), two, few, Fidelity::augur), std::invalid_argument);
  }

  TEST_CASE("DvmDistributedArray aligned identically owns the template's block") {
    const Template t = distributed({8, 8}, ProcessorSystem({2, 2}), {1, 2});
    DistributedArray a({8, 8}, 8, {1, 1}, {1, 1});
    a.align(t, params({1, 2}, {1, 1}, {0, 0}));
    CHECK(blocks(a.blocks(Fidelity::augur)) == "[0..3]x[0..3] [0..3]x[4..7] [4..7]x[0..3] [4..7]x[4..7]");
    CHECK(blocks(a.blocks(Fidelity::predictor)) == blocks(a.blocks(Fidelity::augur)));
    CHECK(a.mapped_axis(1) == MappedAxis{1, 1});
    CHECK(a.replicated_dims().empty());
    CHECK_FALSE(a.fully_replicated());
  }

  TEST_CASE("DvmDistributedArray alignment with coefficient 2 and constant 1") {
    // template 20 on 4: [0..4] [5..9] [10..14] [15..19]; array of 10 at t = 2i + 1 (1, 3, …, 19)
    const Template t = distributed({20}, ProcessorSystem({4}), {1});
    DistributedArray a({10}, 4);
    a.align(t, params({1}, {2}, {1}));
    // p0: 2i + 1 ∈ [0, 4] → i ∈ [⌈−1/2⌉, ⌊3/2⌋] = [0, 1]; p1: [⌈4/2⌉, ⌊8/2⌋] = [2, 4];
    // p2: [⌈9/2⌉, ⌊13/2⌋] = [5, 6]; p3: [7, 9]
    CHECK(blocks(a.blocks(Fidelity::augur)) == "[0..1] [2..4] [5..6] [7..9]");
    // the original's truncating LS::transform: for p0, (0 − 1)/2 truncates to 0 with remainder
    // −1 ≠ 0, so it moves the start to 1 and loses index 0 (2·0 + 1 = 1 lies in [0, 4])
    CHECK(blocks(a.blocks(Fidelity::predictor)) == "[1..1] [2..4] [5..6] [7..9]");
    CHECK(show(dvm::predictor_preimage(dvm::make_range(2, 3), 4, 0, 2)) == "[0..0]");  // 4·0 ∉ [2, 3]
    CHECK(dvm::preimage(dvm::make_range(2, 3), 4, 0, 2).empty());
  }

  TEST_CASE("DvmDistributedArray negative coefficient runs against the grid") {
    const Template t = distributed({8}, ProcessorSystem({2}), {1});
    DistributedArray a({8}, 4);
    a.align(t, params({1}, {-1}, {7}));  // t = 7 − i
    // p0 t ∈ [0, 3] → i ∈ [4, 7]; p1 t ∈ [4, 7] → i ∈ [0, 3]
    CHECK(blocks(a.blocks(Fidelity::augur)) == "[4..7] [0..3]");
    CHECK(blocks(a.blocks(Fidelity::predictor)) == "[4..7] [0..3]");
    CHECK(a.mapped_axis(0) == MappedAxis{0, -1});
  }

  TEST_CASE("DvmDistributedArray replicated and constant template axes") {
    const ProcessorSystem grid({2, 2});
    const Template t = distributed({4, 6}, grid, {1, 2});
    // AxisArray −1 1: copied along template axis 1 (grid dimension 0); axis 2 ← array axis 1
    DistributedArray r({6}, 8);
    r.align(t, params({-1, 1}, {0, 1}, {0, 0}));
    CHECK(r.rules()[0] == AxisRule{});
    CHECK(blocks(r.blocks(Fidelity::augur)) == "[0..2] [3..5] [0..2] [3..5]");
    CHECK(r.replicated_dims() == std::vector<int>{0});
    CHECK_FALSE(r.fully_replicated());
    // AxisArray 0 1, ConstArray 3 0: the array lies on template row 3, i.e. grid row 1 ([2..3])
    DistributedArray c({6}, 8);
    c.align(t, params({0, 1}, {0, 1}, {3, 0}));
    CHECK(c.rules()[0] == AxisRule{AxisRuleKind::constant, -1, 1, 3, 0});
    CHECK(blocks(c.blocks(Fidelity::augur)) == "empty empty [0..2] [3..5]");
    CHECK(c.replicated_dims().empty());
    // fully replicated: every processor holds everything
    DistributedArray all({5}, 4);
    all.align(t, params({-1, -1}, {0, 0}, {0, 0}));
    CHECK(all.fully_replicated());
    CHECK(blocks(all.blocks(Fidelity::augur)) == "[0..4] [0..4] [0..4] [0..4]");
  }

  TEST_CASE("DvmDistributedArray alignment on an array composes the rules") {
    // gausf: A(11, 10) on template 11×10 distributed along axis 2 on 4 processors; V(10) aligned
    // on A with AxisArray 0 1, CoeffArray 0 1, ConstArray 10 0 (V = row 10 of A)
    const Template t = distributed({11, 10}, ProcessorSystem({4}), {2});
    DistributedArray a({11, 10}, 4);
    a.align(t, params({1, 2}, {1, 1}, {0, 0}));
    DistributedArray v({10}, 4);
    v.align(a, params({0, 1}, {0, 1}, {10, 0}));
    CHECK(v.rules()[0] == AxisRule{AxisRuleKind::constant, -1, 1, 10, 0});
    CHECK(v.rules()[1] == AxisRule{AxisRuleKind::linear, 0, 1, 0, 0});
    // ⌈10/4⌉ = 3
    CHECK(blocks(a.blocks(Fidelity::augur)) == "[0..10]x[0..2] [0..10]x[3..5] [0..10]x[6..8] [0..10]x[9..9]");
    CHECK(blocks(v.blocks(Fidelity::augur)) == "[0..2] [3..5] [6..8] [9..9]");
    // the original's array pieces lose template index 4 (see DvmSplit)
    CHECK(blocks(v.blocks(Fidelity::predictor)) == "[0..1] [2..3] [5..6] [7..9]");
    // coefficients compose: B on C with t_C = 2i, C on the template with t = 2c + 1 → t = 4i + 1
    const Template line = distributed({16}, ProcessorSystem({2}), {1});
    DistributedArray cc({8}, 4);
    cc.align(line, params({1}, {2}, {1}));
    DistributedArray b({4}, 4);
    b.align(cc, params({1}, {2}, {0}));
    CHECK(b.rules()[0] == AxisRule{AxisRuleKind::linear, 0, 4, 1, 0});
    // t = 4i + 1: 1, 5 on [0..7]; 9, 13 on [8..15]
    CHECK(blocks(b.blocks(Fidelity::augur)) == "[0..1] [2..3]");
  }

  TEST_CASE("DvmDistributedArray replication through an array keeps to the array's rows") {
    // D(4, 6) sits on rows 4..7 of template 8×6 (ConstArray 4 0); the template is split by rows
    // on 2 processors ([0..3], [4..7]). C(6) on D with AxisArray −1 1 is replicated along D's
    // rows, so it exists only where D's rows are: processor 1.
    const Template t = distributed({8, 6}, ProcessorSystem({2}), {1});
    DistributedArray d({4, 6}, 4);
    d.align(t, params({1, 2}, {1, 1}, {4, 0}));
    DistributedArray c({6}, 4);
    c.align(d, params({-1, 1}, {0, 1}, {0, 0}));
    CHECK(c.rules()[0] == AxisRule{AxisRuleKind::bounded, -1, 1, 4, 4});
    CHECK(blocks(c.blocks(Fidelity::augur)) == "empty [0..5]");
    CHECK(blocks(c.blocks(Fidelity::predictor)) == "empty [0..5]");
    CHECK(c.replicated_dims() == std::vector<int>{0});
  }

  TEST_CASE("DvmDistributedArray rejects bad parameters") {
    const Template t = distributed({8, 8}, ProcessorSystem({2, 2}), {1, 2});
    DistributedArray a({8, 8}, 8);
    CHECK_THROWS_AS(a.align(t, params({1}, {1}, {0})), std::invalid_argument);
    CHECK_THROWS_AS(a.align(t, params({1, 1}, {1, 1}, {0, 0})), std::invalid_argument);
    CHECK_THROWS_AS(a.align(t, params({1, 3}, {1, 1}, {0, 0})), std::invalid_argument);
    CHECK_THROWS_AS(a.distribution(), std::logic_error);
    DistributedArray b({8}, 8);
    CHECK_THROWS_AS(b.align(a, params({1, 0}, {1, 0}, {0, 0})), std::invalid_argument);
    CHECK_THROWS_AS(DistributedArray({8}, 8, {1, 1}, {1}), std::invalid_argument);
    // a negative TypeSize in a trace means its absolute value, as in the original
    CHECK(DistributedArray({8}, -8).type_size() == 8);
  }
}
