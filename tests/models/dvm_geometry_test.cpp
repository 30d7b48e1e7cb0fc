// Tests of the DVM geometry primitives: processor grids (numbering, distances, crtps_/psview_
// sub-systems) and index ranges/blocks (canonical ranges, strided intersection, faces,
// differences).
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tests/models/dvm_test_support.hpp"
#include "models/dvm/block.hpp"
#include "models/dvm/processor_system.hpp"

namespace {

using augur::test::show;

using augur::models::dvm::Block;
using augur::models::dvm::Index;
using augur::models::dvm::make_range;
using augur::models::dvm::ProcessorSystem;
using augur::models::dvm::Range;
namespace dvm = augur::models::dvm;

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("DvmProcessorSystem numbers a grid row-major with the last dimension fastest") {
    const ProcessorSystem ps({2, 3});
    CHECK(ps.rank() == 2);
    CHECK(ps.processor_count() == 6);
    // processor = c0·3 + c1: 4 = 1·3 + 1
    CHECK(ps.coordinates(4) == std::vector<int>{1, 1});
    CHECK(ps.coordinate(5, 1) == 2);
    const int corner[] = {1, 2};
    CHECK(ps.processor(corner) == 5);
    // |0 − 1| + |0 − 2| = 3
    CHECK(ps.distance(0, 5) == 3);
    CHECK(ps.neighbour(4, 1, 1) == 5);
    CHECK_FALSE(ps.neighbour(5, 1, 1).has_value());  // no wrap-around
    CHECK(ps.neighbour(2, 0, 1) == 5);
    CHECK_FALSE(ps.neighbour(2, 0, -1).has_value());
    // centre (⌊2/2⌋, ⌊3/2⌋) = (1, 1) = 4
    CHECK(ps.centre() == 4);
    CHECK(ps.root_processor(4) == 4);
  }

  TEST_CASE("DvmProcessorSystem crtps_ carves a box of the parent") {
    const ProcessorSystem root({4, 4});
    const int init[] = {1, 2};
    const int last[] = {2, 3};
    const ProcessorSystem sub = ProcessorSystem::subsystem(root, init, last);
    CHECK(sub.sizes() == std::vector<int>{2, 2});
    // child (a, b) = parent (a + 1, b + 2) = root (a + 1)·4 + b + 2: 6, 7, 10, 11
    CHECK(sub.root_processors() == std::vector<int>{6, 7, 10, 11});
    CHECK(sub.root().sizes() == std::vector<int>{4, 4});
    // a sub-system of the sub-system keeps root numbers: child (1, 0) of sub = root 10
    const int init2[] = {1, 0};
    const int last2[] = {1, 1};
    CHECK(ProcessorSystem::subsystem(sub, init2, last2).root_processors() == std::vector<int>{10, 11});
    const int bad_last[] = {2, 4};
    CHECK_THROWS_AS(ProcessorSystem::subsystem(root, init, bad_last), std::invalid_argument);
    const int short_init[] = {0};
    CHECK_THROWS_AS(ProcessorSystem::subsystem(root, short_init, short_init), std::invalid_argument);
  }

  TEST_CASE("DvmProcessorSystem psview_ reshapes the parent's processors") {
    const ProcessorSystem root({2, 3});
    const ProcessorSystem line = ProcessorSystem::view(root, {6});
    CHECK(line.root_processors() == std::vector<int>{0, 1, 2, 3, 4, 5});
    const ProcessorSystem part = ProcessorSystem::view(root, {2, 2});
    CHECK(part.root_processors() == std::vector<int>{0, 1, 2, 3});
    CHECK(part.distance(0, 3) == 2);
    CHECK_THROWS_AS(ProcessorSystem::view(root, {7}), std::invalid_argument);
    CHECK_THROWS_AS(ProcessorSystem({2, 0}), std::invalid_argument);
  }

  TEST_CASE("DvmRange keeps a canonical form") {
    // 1, 4, 7, 10
    CHECK(show(make_range(1, 10, 3)) == "[1..10/3]");
    CHECK(make_range(1, 10, 3).count() == 4);
    // 1, 4, 7 (9 is not on the progression)
    CHECK(show(make_range(1, 9, 3)) == "[1..7/3]");
    CHECK(make_range(5, 6, 4) == make_range(5, 5));  // a single index has step 1
    CHECK(make_range(3, 2) == Range{});
    CHECK(make_range(3, 2).count() == 0);
    CHECK(make_range(1, 10, 3).contains(7));
    CHECK_FALSE(make_range(1, 10, 3).contains(8));
    CHECK_THROWS_AS(make_range(0, 4, 0), std::invalid_argument);
    CHECK(dvm::floor_div(-1, 2) == -1);
    CHECK(dvm::ceil_div(-1, 2) == 0);
    CHECK(dvm::ceil_div(5, 2) == 3);
    CHECK(dvm::floor_div(5, -2) == -3);
  }

  TEST_CASE("DvmRange intersection combines steps") {
    CHECK(show(dvm::intersect(make_range(0, 9), make_range(3, 20, 5))) == "[3..8/5]");
    // x ≡ 0 (mod 4) and x ≡ 2 (mod 6): 8, 20 (period lcm(4, 6) = 12)
    CHECK(show(dvm::intersect(make_range(0, 20, 4), make_range(2, 20, 6))) == "[8..20/12]");
    // evens and odds never meet
    CHECK(dvm::intersect(make_range(0, 20, 2), make_range(1, 21, 2)).empty());
    CHECK(dvm::intersect(make_range(0, 3), make_range(5, 9)).empty());
  }

  TEST_CASE("DvmBlock volume faces and equality") {
    const Block b({make_range(0, 3), make_range(4, 7), make_range(0, 1)});
    CHECK(b.volume() == 32);  // 4·4·2
    CHECK(b.face(0) == 8);    // 4·2
    CHECK(b.face(2) == 16);   // 4·4
    const int two[] = {0, 1};
    CHECK(b.extent_product_except(two) == 2);
    CHECK(Block::empty_of_rank(3).volume() == 0);
    CHECK(Block::empty_of_rank(3).face(0) == 0);
    CHECK(Block({make_range(0, 3), Range{}}) == Block::empty_of_rank(2));
    const Index sizes[] = {8, 8};
    CHECK(Block::whole(sizes).volume() == 64);
    CHECK(Block().volume() == 1);  // rank 0: one scalar
  }

  TEST_CASE("DvmBlock difference splits into disjoint boxes") {
    const Index sizes[] = {8, 8};
    const Block a = Block::whole(sizes);
    const Block cut({make_range(2, 3), make_range(4, 9)});
    const std::vector<Block> parts = dvm::subtract(a, cut);
    // 64 − |[2..3]×[4..7]| = 64 − 8 = 56
    Index volume = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      volume += parts[i].volume();
      CHECK(dvm::intersect(parts[i], cut).empty());
      for (std::size_t j = i + 1; j < parts.size(); ++j) CHECK(dvm::intersect(parts[i], parts[j]).empty());
    }
    CHECK(volume == 56);
    CHECK(dvm::subtract(cut, a).empty() == false);  // cut reaches column 9, outside a
    CHECK(dvm::subtract(Block({make_range(2, 3), make_range(4, 7)}), a).empty());
    const Block far({make_range(10, 12), make_range(0, 1)});
    CHECK(dvm::subtract(far, a) == std::vector<Block>{far});
    // a strided block minus a box: 0, 2, …, 10 without [3..6] = {0, 2} and {8, 10}
    const Block strided({make_range(0, 10, 2)});
    const std::vector<Block> pieces = dvm::subtract(strided, Block({make_range(3, 6)}));
    REQUIRE(pieces.size() == 2);
    CHECK(show(pieces[0].dim(0)) == "[0..2/2]");
    CHECK(show(pieces[1].dim(0)) == "[8..10/2]");
    CHECK_THROWS_AS(dvm::subtract(a, Block({make_range(0, 4, 2), make_range(0, 1)})), std::invalid_argument);
  }
}
