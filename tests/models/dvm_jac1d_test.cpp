// The objects of the sample trace jac1d.ptr (C-DVM Jacobi 8×8) built by hand on a 2×2 grid:
// template, arrays, the three parallel loops and the shadow exchange, with the blocks derived by
// hand from the trace's crtamv_/blkdiv_/distr_/crtda_/align_/mappl_/inssh_ parameters.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/models/dvm_test_support.hpp"
#include "models/dvm/distributed_array.hpp"
#include "models/dvm/distribution.hpp"
#include "models/dvm/parallel_loop.hpp"
#include "models/dvm/processor_system.hpp"
#include "models/dvm/transfer_matrix.hpp"

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
using augur::models::dvm::ShadowWidths;
using augur::models::dvm::SplitRule;
using augur::models::dvm::Template;
using augur::models::dvm::TransferMatrix;
namespace dvm = augur::models::dvm;

std::string blocks(const std::vector<Block>& all) {
  std::string s;
  for (const Block& b : all) s += (s.empty() ? "" : " ") + show(b);
  return s;
}

std::string show(const TransferMatrix& t) {
  std::string s;
  for (int p = 0; p < t.size(); ++p)
    for (int q = 0; q < t.size(); ++q)
      if (t.at(p, q) != 0)
        s += (s.empty() ? "" : " ") + std::to_string(p) + ">" + std::to_string(q) + ":" + std::to_string(t.at(p, q));
  return s;
}

const AlignParams identity{{1, 2}, {1, 1}, {0, 0}};

/// The objects of jac1d.ptr (handles in the trace's hex):
///   crtamv_ 106a618: Rank=2, SizeArray 8 8; blkdiv_: AMVAxisDiv 1 1
///   distr_: PSRef=0 (the current system: the 2×2 grid), AxisArray 1 2
///   crtda_ 51b468 (A) and 51b474 (B): Rank=2, TypeSize=8, SizeArray 8 8, shadows 1 1 / 1 1
///   align_ A on the template (AMView), B on A (DisArray): AxisArray 1 2, Coeff 1 1, Const 0 0
///   mappl_ line 29 on A: 0…7 × 0…7; line 40 on A and line 48 on B: 1…6 × 1…6, steps 1
///   inssh_ A: widths 1 1 / 1 1, FullShdSign=0
struct Jac1d {
  ProcessorSystem grid{{2, 2}};
  Template templ{{8, 8}};
  DistributedArray a{{8, 8}, 8, {1, 1}, {1, 1}};
  DistributedArray b{{8, 8}, 8, {1, 1}, {1, 1}};
  ParallelLoop init_loop{{0, 0}, {7, 7}, {1, 1}};
  ParallelLoop copy_loop{{1, 1}, {6, 6}, {1, 1}};
  ParallelLoop relax_loop{{1, 1}, {6, 6}, {1, 1}};

  Jac1d() {
    templ.set_multiples({1, 1});
    templ.distribute(grid, std::vector<int>{1, 2});
    a.align(templ, identity);
    b.align(a, identity);
    init_loop.map(a, identity);
    copy_loop.map(a, identity);
    relax_loop.map(b, identity);
  }
};

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("DvmJac1d parameters are the ones in the sample trace") {
    std::ifstream in(AUGUR_SHARED_DIR "/dvm-samples/jac1d.ptr");
    REQUIRE(in);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string trace = text.str();
    for (const char* line :
         {"AMRef=525e34; Rank=2; StaticSign=0;", "AMVAxisDiv[0]=1 AMVAxisDiv[1]=1",
          "PSRefPtr=NULL; PSRef=0; ParamCount=2;", "AxisArray[0]=1;       AxisArray[1]=2;",
          "ArrayHeader=51b468; ExtHdrSign=0; BasePtr=0; Rank=2; TypeSize=8;",
          "ArrayHeader=51b474; ExtHdrSign=0; BasePtr=0; Rank=2; TypeSize=8;", "SizeArray[0]=8; SizeArray[1]=8;",
          "LowShdWidthArray[0]=1; LowShdWidthArray[1]=1;",
          "ArrayHeader=51b474; ArrayHandlePtr=106d008; PatternRefPtr=51b468; PatternRef=106c8a8 "
          "(DisArray);",
          "InInitIndexArray[0]=0; InInitIndexArray[1]=0;", "InLastIndexArray[0]=7; InLastIndexArray[1]=7;",
          "InInitIndexArray[0]=1; InInitIndexArray[1]=1;", "InLastIndexArray[0]=6; InLastIndexArray[1]=6;",
          "PatternRefPtr=51b474; PatternRef=106d008 (DisArray);",
          "ArrayHeader=51b468; ArrayHandlePtr=106c8a8; FullShdSign=0;"})
      CHECK_MESSAGE(trace.find(line) != std::string::npos, line);
  }

  TEST_CASE("DvmJac1d blocks on a 2x2 grid") {
    const Jac1d j;
    // ⌈8/2⌉ = 4 along both grid dimensions: processor (r, c) owns rows 4r…4r+3, columns 4c…4c+3
    const char* quadrants = "[0..3]x[0..3] [0..3]x[4..7] [4..7]x[0..3] [4..7]x[4..7]";
    CHECK(show(j.templ.block(1, SplitRule::standard)) == "[0..3]x[4..7]");
    for (Fidelity f : {Fidelity::augur, Fidelity::predictor}) {
      CAPTURE(static_cast<int>(f));
      CHECK(blocks(j.a.blocks(f)) == quadrants);
      CHECK(blocks(j.b.blocks(f)) == quadrants);
      CHECK(blocks(j.init_loop.blocks(f)) == quadrants);
      // 1…6 ∩ quadrant: [1..3] or [4..6] per axis, 9 iterations each of N = 36
      CHECK(blocks(j.copy_loop.blocks(f)) == "[1..3]x[1..3] [1..3]x[4..6] [4..6]x[1..3] [4..6]x[4..6]");
      CHECK(blocks(j.relax_loop.blocks(f)) == blocks(j.copy_loop.blocks(f)));
      CHECK(j.copy_loop.iteration_count(f) == 36);
      CHECK(j.init_loop.iteration_count(f) == 64);
      CHECK(dvm::identical_block_counts(j.relax_loop.blocks(f)) == std::vector<int>{1, 1, 1, 1});
    }
    CHECK(j.relax_loop.blocks(Fidelity::augur)[3].volume() == 9);
  }

  TEST_CASE("DvmJac1d shadow exchange of A") {
    const Jac1d j;
    // inssh_ A, widths 1, no corners: every quadrant sends a 4-element edge (4·1·8 = 32 bytes)
    // to its neighbour along each grid dimension; nothing goes diagonally
    const ShadowWidths widths{{1, 1}, {1, 1}, false};
    for (Fidelity f : {Fidelity::augur, Fidelity::predictor}) {
      const TransferMatrix t = dvm::shadow_matrix(j.a, widths, f);
      CHECK(show(t) == "0>1:32 0>2:32 1>0:32 1>3:32 2>0:32 2>3:32 3>1:32 3>2:32");
      CHECK(t.total() == 256);
    }
    // realigning B on A again moves nothing
    DistributedArray again = j.b;
    again.align(j.a, identity);
    CHECK(dvm::update_matrix(j.b, again, Fidelity::augur).empty());
  }
}
