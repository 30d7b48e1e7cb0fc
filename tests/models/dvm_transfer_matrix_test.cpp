// Tests of the transfer matrices T[p][q] (bytes from p to q): Update for realn_/redis_ (BLOCK to
// another mapping, replicated arrays served by the nearest holder), shadow exchanges with and
// without corners, and the remote-access matrices of arrcpy_ and crtrbl_.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tests/models/dvm_test_support.hpp"
#include "models/dvm/distributed_array.hpp"
#include "models/dvm/distribution.hpp"
#include "models/dvm/processor_system.hpp"
#include "models/dvm/transfer_matrix.hpp"

namespace {

using augur::test::show;

using augur::models::dvm::AlignParams;
using augur::models::dvm::Block;
using augur::models::dvm::CopySide;
using augur::models::dvm::DistributedArray;
using augur::models::dvm::Fidelity;
using augur::models::dvm::Index;
using augur::models::dvm::make_range;
using augur::models::dvm::ProcessorSystem;
using augur::models::dvm::Range;
using augur::models::dvm::ShadowDim;
using augur::models::dvm::ShadowWidths;
using augur::models::dvm::Sources;
using augur::models::dvm::Template;
using augur::models::dvm::TransferMatrix;
namespace dvm = augur::models::dvm;

/// "p>q:bytes …" for the non-zero entries, row by row.
std::string show(const TransferMatrix& t) {
  std::string s;
  for (int p = 0; p < t.size(); ++p)
    for (int q = 0; q < t.size(); ++q)
      if (t.at(p, q) != 0)
        s += (s.empty() ? "" : " ") + std::to_string(p) + ">" + std::to_string(q) + ":" + std::to_string(t.at(p, q));
  return s.empty() ? "none" : s;
}

Template distributed(std::vector<Index> sizes, const ProcessorSystem& grid, std::vector<int> axes) {
  Template t(std::move(sizes));
  t.distribute(grid, axes);
  return t;
}

AlignParams params(std::vector<int> axis, std::vector<Index> coeff, std::vector<Index> constant) {
  return AlignParams{std::move(axis), std::move(coeff), std::move(constant)};
}

AlignParams identity2() { return params({1, 2}, {1, 1}, {0, 0}); }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("DvmTransferMatrix accumulates bytes between processors") {
    TransferMatrix t(3);
    t.add(0, 1, 10);
    t.add(0, 1, 5);
    t.add(2, 2, 99);  // to oneself: dropped
    CHECK(t.at(0, 1) == 15);
    CHECK(t.total() == 15);
    TransferMatrix u(3);
    u.add(1, 0, 1);
    t += u;
    CHECK(show(t) == "0>1:15 1>0:1");
    CHECK_THROWS_AS(t += TransferMatrix(2), std::invalid_argument);
    // a 2-processor sub-system {6, 7} of a 4×4 root
    const int init[] = {1, 2};
    const int last[] = {1, 3};
    const ProcessorSystem sub = ProcessorSystem::subsystem(ProcessorSystem({4, 4}), init, last);
    TransferMatrix local(2);
    local.add(1, 0, 8);
    const TransferMatrix root = local.to_root(sub);
    CHECK(root.size() == 16);
    CHECK(show(root) == "7>6:8");
  }

  TEST_CASE("DvmTransferMatrix transposed swaps sender and receiver (2.53's remote buffers)") {
    TransferMatrix t(3);
    t.add(0, 2, 4);
    t.add(1, 2, 6);
    t.add(2, 0, 1);
    // T'[q][p] = T[p][q]: processor 2's two holders become two receivers of 2's bytes.
    CHECK(show(t.transposed()) == "0>2:1 2>0:4 2>1:6");
    CHECK(t.transposed().total() == t.total());
    CHECK(t.transposed().transposed() == t);
  }

  TEST_CASE("DvmUpdate is empty when no block changes") {
    const Template t = distributed({8, 8}, ProcessorSystem({2, 2}), {1, 2});
    DistributedArray a({8, 8}, 8);
    a.align(t, identity2());
    DistributedArray b = a;
    b.align(t, identity2());
    CHECK(dvm::update_matrix(a, b, Fidelity::augur).empty());
    CHECK(dvm::update_matrix(a, b, Fidelity::predictor).empty());
  }

  TEST_CASE("DvmUpdate of a BLOCK array realigned on a transposed distribution") {
    // 8×8 of 8-byte elements on 2×2; the new template is distributed with AxisArray 2 1, so
    // processor 1 = (0, 1) gets rows [4..7] × columns [0..3] (old block of processor 2) and
    // processor 2 the old block of processor 1: 16 elements · 8 bytes = 128 each way
    const ProcessorSystem grid({2, 2});
    DistributedArray old_a({8, 8}, 8);
    old_a.align(distributed({8, 8}, grid, {1, 2}), identity2());
    DistributedArray new_a({8, 8}, 8);
    new_a.align(distributed({8, 8}, grid, {2, 1}), identity2());
    CHECK(show(dvm::update_matrix(old_a, new_a, Fidelity::augur)) == "1>2:128 2>1:128");
    CHECK(show(dvm::update_matrix(old_a, new_a, Fidelity::predictor)) == "1>2:128 2>1:128");
  }

  TEST_CASE("DvmUpdate onto a template of another processor system") {
    // old: 8 elements of 4 bytes on 4 processors ([0..1] [2..3] [4..5] [6..7]); new: a template
    // on the sub-system {0, 1} (crtps_ 0…1), [0..3] on root 0 and [4..7] on root 1.
    // root 0 lacks [2..3] → from 1 (8 bytes); root 1 lacks [4..7]: [4..5] from 2 (distance 1),
    // [6..7] from 3 (8 bytes each). Total 24.
    const ProcessorSystem root({4});
    const int init[] = {0};
    const int last[] = {1};
    const ProcessorSystem pair = ProcessorSystem::subsystem(root, init, last);
    DistributedArray old_a({8}, 4);
    old_a.align(distributed({8}, root, {1}), params({1}, {1}, {0}));
    DistributedArray new_a({8}, 4);
    new_a.align(distributed({8}, pair, {1}), params({1}, {1}, {0}));
    const TransferMatrix t = dvm::update_matrix(old_a, new_a, Fidelity::augur);
    CHECK(t.size() == 4);
    CHECK(show(t) == "1>0:8 2>1:8 3>1:8");
  }

  TEST_CASE("DvmUpdate serves a replicated array from the nearest holder") {
    // 1-D: an array of 8 (4 bytes) replicated on template 2 of 4 processors is held by 0 and 1
    // only (the others have empty template pieces); replicated on template 4 everybody holds it.
    // 2 takes it from 1 (distance 1), 3 from 1 (distance 2 < 3): 32 bytes each.
    const ProcessorSystem line({4});
    DistributedArray old_a({8}, 4);
    old_a.align(distributed({2}, line, {1}), params({-1}, {0}, {0}));
    DistributedArray new_a({8}, 4);
    new_a.align(distributed({4}, line, {1}), params({-1}, {0}, {0}));
    CHECK(show(dvm::update_matrix(old_a, new_a, Fidelity::augur)) == "1>2:32 1>3:32");
    // the original's array cut of 2 on 4 (v = 0.5) gives every processor a piece ([0..1] [0..1]
    // [1..1] [1..1]), so every processor already held the array and nothing moves
    CHECK(dvm::update_matrix(old_a, new_a, Fidelity::predictor).empty());
    // 2×2 with holders 0 = (0, 0) and 3 = (1, 1): 1 and 2 are at distance 1 from both; the tie
    // goes to the lower number, 0
    const ProcessorSystem grid({2, 2});
    const Block all({make_range(0, 7)});
    const Block none = Block::empty_of_rank(1);
    const std::vector<Block> before{all, none, none, all};
    const std::vector<Block> after{all, all, all, all};
    CHECK(show(dvm::update_matrix(grid, before, after, 4)) == "0>1:32 0>2:32");
  }

  TEST_CASE("DvmGather counts duplicated holders once or for every holder") {
    // holders 0 [0..1] and 1 [1..1] (the original's widened pieces), processor 2 needs [0..1]
    const ProcessorSystem line({3});
    const std::vector<Block> holders{Block({make_range(0, 1)}), Block({make_range(1, 1)}), Block::empty_of_rank(1)};
    const std::vector<Block> needs{Block::empty_of_rank(1), Block::empty_of_rank(1), Block({make_range(0, 1)})};
    // nearest: 1 (distance 1) gives index 1, then 0 gives index 0
    CHECK(show(dvm::gather_matrix(line, holders, needs, 1, Sources::nearest)) == "0>2:1 1>2:1");
    // every: Σ_{p≠q} |holder_p ∩ need_q|: 2 from 0, 1 from 1
    CHECK(show(dvm::gather_matrix(line, holders, needs, 1, Sources::every)) == "0>2:2 1>2:1");
  }

  TEST_CASE("DvmShadow 8x8 with widths 1 on a 2x2 grid") {
    // blocks are 4×4 quadrants. Faces: 4 elements · width 1 · 8 bytes = 32 to the neighbour
    // along each grid dimension; corners (FullShdSign 1): 1·1·8 = 8 to the diagonal neighbour.
    const Template t = distributed({8, 8}, ProcessorSystem({2, 2}), {1, 2});
    DistributedArray a({8, 8}, 8, {1, 1}, {1, 1});
    a.align(t, identity2());
    const ShadowWidths faces{{-1, -1}, {-1, -1}, false};
    const TransferMatrix plain = dvm::shadow_matrix(a, faces, Fidelity::augur);
    CHECK(show(plain) == "0>1:32 0>2:32 1>0:32 1>3:32 2>0:32 2>3:32 3>1:32 3>2:32");
    CHECK(plain.total() == 256);
    const ShadowWidths full{{1, 1}, {1, 1}, true};
    const TransferMatrix corners = dvm::shadow_matrix(a, full, Fidelity::augur);
    CHECK(show(corners) == "0>1:32 0>2:32 0>3:8 1>0:32 1>2:8 1>3:32 2>0:32 2>1:8 2>3:32 3>0:8 3>1:32 3>2:32");
    CHECK(corners.total() == 288);  // 4 processors · (32 + 32 + 8)
    CHECK(dvm::shadow_matrix(a, full, Fidelity::predictor) == corners);
  }

  TEST_CASE("DvmShadow sends low widths up and high widths down") {
    // array of 8 (4 bytes) on 2 processors, low width 2, high width 1. Processor 0 fills the
    // low shadow of 1 (indices 2, 3): 2·4 = 8 bytes; 1 fills the high shadow of 0 (index 4): 4.
    const Template t = distributed({8}, ProcessorSystem({2}), {1});
    DistributedArray a({8}, 4, {2}, {1});
    a.align(t, params({1}, {1}, {0}));
    CHECK(show(dvm::shadow_matrix(a, ShadowWidths{}, Fidelity::augur)) == "0>1:8 1>0:4");
    // aligned backwards (t = 7 − i) the lower neighbour of processor 0's block [4..7] is processor
    // 1
    DistributedArray b({8}, 4, {2}, {1});
    b.align(t, params({1}, {-1}, {7}));
    CHECK(show(dvm::shadow_matrix(b, ShadowWidths{}, Fidelity::augur)) == "0>1:4 1>0:8");
    // widths 0: nothing
    CHECK(dvm::shadow_matrix(a, ShadowWidths{{0}, {0}, false}, Fidelity::augur).empty());
    CHECK_THROWS_AS(dvm::shadow_matrix(a, ShadowWidths{{1, 1}, {1}, false}, Fidelity::augur), std::invalid_argument);
  }

  TEST_CASE("DvmShadow neighbours are the owners of the adjacent index") {
    // array of 4 at t = 2i on template 8 over 8 processors: i = 0, 1, 2, 3 on processors
    // 0, 2, 4, 6; processors 1, 3, 5, 7 hold nothing. Width 1, 4-byte elements.
    const Template t = distributed({8}, ProcessorSystem({8}), {1});
    DistributedArray a({4}, 4, {1}, {1});
    a.align(t, params({1}, {2}, {0}));
    // augur: the neighbour owning index i ± 1 is two processors away
    CHECK(show(dvm::shadow_matrix(a, ShadowWidths{}, Fidelity::augur)) == "0>2:4 2>0:4 2>4:4 4>2:4 4>6:4 6>4:4");
    // the original: its pieces [c..c] (c < 6), [6..7], [7..7] and its preimage give index 0 to
    // processors 0 and 1 (⌊1/2⌋ = 0 is kept), 1 to 2, 2 to 4, 3 to 6; and it sends to the adjacent
    // grid coordinate, whether that holds anything or not
    CHECK(show(dvm::shadow_matrix(a, ShadowWidths{}, Fidelity::predictor)) ==
          "0>1:4 1>2:4 2>1:4 2>3:4 4>3:4 4>5:4 6>5:4");
  }

  TEST_CASE("DvmShadow corners in three dimensions") {
    // 4×4×4 on 2×2×2, widths 1, 1-byte elements: every block is 2×2×2 with one neighbour per
    // dimension. augur: 3 faces of 2·2 = 12, 3 edges of 2 = 6, 1 vertex = 1 → 19 per processor.
    // The original: faces 12 and the edge of array dimensions 0 and 1 only (2) → 14.
    const Template t = distributed({4, 4, 4}, ProcessorSystem({2, 2, 2}), {1, 2, 3});
    DistributedArray a({4, 4, 4}, 1, {1, 1, 1}, {1, 1, 1});
    a.align(t, params({1, 2, 3}, {1, 1, 1}, {0, 0, 0}));
    const ShadowWidths full{{}, {}, true};
    const TransferMatrix augur = dvm::shadow_matrix(a, full, Fidelity::augur);
    CHECK(augur.total() == 8 * 19);
    CHECK(augur.at(0, 7) == 1);  // the vertex (1, 1, 1)
    CHECK(augur.at(0, 3) == 2);  // (0, 1, 1): the edge of dimensions 1 and 2, 2 elements long
    const TransferMatrix original = dvm::shadow_matrix(a, full, Fidelity::predictor);
    CHECK(original.total() == 8 * 14);
    CHECK(original.at(0, 7) == 0);
    CHECK(original.at(0, 6) == 2);  // (1, 1, 0): the corner of array dimensions 0 and 1
    CHECK(original.at(0, 3) == 0);
  }

  TEST_CASE("DvmShadow block-level overload") {
    const ProcessorSystem line({2});
    const std::vector<Block> blocks{Block({make_range(0, 3), make_range(0, 2)}),
                                    Block({make_range(4, 7), make_range(0, 2)})};
    const Index sizes[] = {8, 3};
    const ShadowDim dims[] = {ShadowDim{0, 0, 1}};
    // face of dimension 0 = 3 columns; widths low 1, high 2; 2-byte elements:
    // 0 → 1: 3·1·2 = 6; 1 → 0: 3·2·2 = 12
    const ShadowWidths w{{1, 0}, {2, 0}, false};
    CHECK(show(dvm::shadow_matrix(line, blocks, sizes, dims, w, 2, Fidelity::augur)) == "0>1:6 1>0:12");
  }

  TEST_CASE("DvmCopy into a replicated buffer") {
    // jac's arrcpy_: the whole 8×8 array (4-byte elements, quadrants on 2×2) into a buffer on
    // every processor. augur: each processor receives the 48 elements it does not own, each
    // quadrant from its owner: 16·4 = 64 bytes per pair, 12 pairs.
    const Template t = distributed({8, 8}, ProcessorSystem({2, 2}), {1, 2});
    DistributedArray a({8, 8}, 4);
    a.align(t, identity2());
    const CopySide whole{{-1, -1}, {2, 7}, {7, 1}};
    const TransferMatrix augur = dvm::copy_to_replicated_matrix(a, whole, Fidelity::augur);
    CHECK(augur.total() == 12 * 64);
    CHECK(augur.at(3, 0) == 64);
    // the original reads only the region's first index (0, 0), which processor 0 sends to the
    // three others: 4 bytes each
    CHECK(show(dvm::copy_to_replicated_matrix(a, whole, Fidelity::predictor)) == "0>1:4 0>2:4 0>3:4");
    // a fully replicated source costs nothing
    DistributedArray r({8}, 4);
    r.align(t, params({-1, -1}, {0, 0}, {0, 0}));
    const CopySide line{{-1}, {0}, {0}};
    CHECK(dvm::copy_to_replicated_matrix(r, line, Fidelity::augur).empty());
  }

  TEST_CASE("DvmCopy between distributed arrays") {
    // B(7 − k) = A(k) on 2 processors ([0..3], [4..7], 8-byte elements): processor 0 writes
    // B[0..3] = A[7..4] (owned by 1), processor 1 writes B[4..7] = A[3..0]: 4·8 = 32 each way
    const Template t = distributed({8}, ProcessorSystem({2}), {1});
    DistributedArray a({8}, 8);
    a.align(t, params({1}, {1}, {0}));
    DistributedArray b = a;
    const CopySide from{{0}, {7}, {1}};
    const CopySide to{{7}, {0}, {-1}};
    CHECK(show(dvm::copy_distributed_matrix(a, from, b, to, Fidelity::augur)) == "0>1:32 1>0:32");
    CHECK(show(dvm::copy_distributed_matrix(a, from, b, to, Fidelity::predictor)) == "0>1:32 1>0:32");
    // written [0..3] of To (7, 0, −1): k = 7 … 4 → From 0 + k·1 = [4..7]
    CHECK(show(dvm::copy_read_block(Block({make_range(0, 3)}), to, from)) == "[4..7]");
    // every other element: B(0:6:2) = A(1:7:2) → written [0..2/2] reads A {1, 3}
    const CopySide odd{{1}, {7}, {2}};
    const CopySide even{{0}, {6}, {2}};
    CHECK(show(dvm::copy_read_block(Block({make_range(0, 2, 2)}), even, odd)) == "[1..3/2]");
    CHECK(show(dvm::copy_region(even)) == "[0..6/2]");
    CHECK_THROWS_AS(dvm::copy_read_block(Block({make_range(0, 3)}), to, CopySide{{0, 0}, {1, 1}, {1, 1}}),
                    std::invalid_argument);
  }

  TEST_CASE("DvmCopy sides are read as the original reads them") {
    const Index sizes[] = {8, 8};
    const CopySide s = dvm::normalise_copy_side(sizes, CopySide{{-1, 2}, {5, 12}, {3, 0}});
    CHECK(s.init == std::vector<Index>{0, 2});
    CHECK(s.last == std::vector<Index>{7, 7});  // Last clamped to the array
    CHECK(s.step == std::vector<Index>{1, 1});  // step 0 counts as 1
    CHECK_THROWS_AS(dvm::normalise_copy_side(sizes, CopySide{{8, 0}, {8, 0}, {1, 1}}), std::invalid_argument);
    CHECK_THROWS_AS(dvm::normalise_copy_side(sizes, CopySide{{0}, {0}, {1}}), std::invalid_argument);
  }

  TEST_CASE("DvmRemoteBuffer regions of crtrbl_") {
    const Index sizes[] = {11, 10};
    const Block loop({make_range(0, 2)});
    // gausf: AxisArray −1 0, ConstArray 0 3: all rows of column 3
    CHECK(show(dvm::remote_buffer_region(sizes, params({-1, 0}, {0, 0}, {0, 3}), loop)) == "[0..10]x[3..3]");
    // rows 2I + 1 for I ∈ [0..2]: 1, 3, 5
    CHECK(show(dvm::remote_buffer_region(sizes, params({1, -1}, {2, 0}, {1, 0}), loop)) == "[1..5/2]x[0..9]");
    CHECK(dvm::remote_buffer_region(sizes, params({1, -1}, {2, 0}, {1, 0}), Block::empty_of_rank(1)).empty());
    CHECK_THROWS_AS(dvm::remote_buffer_region(sizes, params({2, -1}, {1, 0}, {0, 0}), loop), std::invalid_argument);
  }
}
