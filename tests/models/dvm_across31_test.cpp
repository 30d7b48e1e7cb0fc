// ACROSS loops as Predictor 3.1 prices them (models/dvm/across31.hpp), computed by hand on a
// machine where a message costs Ts + bytes·Tb and never waits for a channel.
#include <doctest/doctest.h>

#include <map>
#include <utility>
#include <vector>

#include "models/dvm/across31.hpp"

using namespace augur::models::dvm;

namespace {

/// Clocks, messages and bookings recorded; a message takes ts + bytes·tb from `ready`.
class Recorder final : public Across31Hooks {
 public:
  explicit Recorder(int positions, double ts, double tb) : clocks(positions, 0.0), ts_(ts), tb_(tb) {}
  double clock(int pos) override { return clocks[static_cast<std::size_t>(pos)]; }
  std::pair<double, double> send(double ready, int from, int to, Index bytes) override {
    messages.push_back({from, to, bytes});
    return {ready, ready + ts_ + static_cast<double>(bytes) * tb_};
  }
  void wait_shadow(int pos, double t, double overlap) override {
    clocks[static_cast<std::size_t>(pos)] += t;
    waits[pos] += t;
    overlaps[pos] += overlap;
  }
  void system_loss(int pos, double t) override {
    clocks[static_cast<std::size_t>(pos)] += t;
    losses[pos] += t;
  }
  struct Message {
    int from, to;
    Index bytes;
  };
  std::vector<double> clocks;
  std::vector<Message> messages;
  std::map<int, double> waits, overlaps, losses;

 private:
  double ts_, tb_;
};

/// A 2-D loop 1..8 × 1..8 on a 2x2 grid, 4 × 4 iterations per position.
Across31Loop loop_2x2() {
  Across31Loop loop;
  loop.grid = {2, 2};
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) loop.blocks.push_back({Range{1 + 4 * r, 4 + 4 * r, 1}, Range{1 + 4 * c, 4 + 4 * c, 1}});
  loop.invers = {0, 0};
  loop.width = {1, 1};
  loop.call_time = 64e-6;  // 1 µs per iteration
  loop.loop_size = 64;
  loop.type_size = 8;
  return loop;
}

/// A 3-D loop 1..8 × 1..8 × 1..8 on a 2x2x2 grid, 4 × 4 × 4 iterations per position (position
/// i = 4·n0 + 2·n1 + n2: strides 4, 2, 1 along grid dimensions 0, 1, 2).
Across31Loop loop_2x2x2() {
  Across31Loop loop;
  loop.grid = {2, 2, 2};
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 2; ++c)
        loop.blocks.push_back(
            {Range{1 + 4 * a, 4 + 4 * a, 1}, Range{1 + 4 * b, 4 + 4 * b, 1}, Range{1 + 4 * c, 4 + 4 * c, 1}});
  loop.invers = {0, 0, 0};
  loop.width = {1, 1, 1};
  loop.call_time = 512e-6;  // 1 µs per iteration
  loop.loop_size = 512;
  loop.type_size = 8;
  return loop;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("Across31 DoPL=1 on 4 processors: every position is coordinate 0 - faces of one element") {
    // 3.1 reads the loop's rank only with more than four processors: a = 1, a face is
    // 1 · type_size = 8 bytes, and every position has a successor at +2 and +1 when in range.
    Recorder r(4, 1e-6, 1e-8);
    across31_edges(loop_2x2(), r);
    REQUIRE(r.messages.size() == 5);  // 0→2, 0→1, 1→3, 1→2, 2→3
    const std::vector<std::pair<int, int>> order{{0, 2}, {0, 1}, {1, 3}, {1, 2}, {2, 3}};
    for (std::size_t k = 0; k < order.size(); ++k) {
      CHECK(r.messages[k].from == order[k].first);
      CHECK(r.messages[k].to == order[k].second);
      CHECK(r.messages[k].bytes == 8);
    }
    // One message: 1 µs + 8·0.01 µs = 1.08 µs, each sent at the sender's clock. 0→2 and 0→1 at
    // 0: 1 and 2 wait 1.08. 1→3 at 1.08 ends at 2.16: 3 waits 2.16. 1→2 at 1.08 ends at 2.16: 2
    // (at 1.08) waits 1.08 more. 2→3 at 2.16 ends at 3.24: 3 (at 2.16) waits 1.08 more.
    CHECK(r.waits[1] == doctest::Approx(1.08e-6));
    CHECK(r.waits[2] == doctest::Approx(2.16e-6));
    CHECK(r.waits[3] == doctest::Approx(3.24e-6));
    CHECK(r.overlaps[3] == 0);
    // A successor already past the message's begin: that part is overlap. Position 3 at 1.5 µs:
    // 1→3 runs 1.08 … 2.16, 3 waits 0.66 of which 0.42 overlapped; 2→3 (2.16 … 3.24) 1.08 more.
    Recorder late(4, 1e-6, 1e-8);
    late.clocks[3] = 1.5e-6;
    across31_edges(loop_2x2(), late);
    CHECK(late.waits[3] == doctest::Approx(0.66e-6 + 1.08e-6));
    CHECK(late.overlaps[3] == doctest::Approx(0.42e-6));
  }

  TEST_CASE("Across31 DoPL=0 on 2x2: one block per position - faces and waits as 3.1 books them") {
    // Tc = 1 µs per iteration; one block of 16 per position (Q = 1, s = 4 × 4); a face is
    // 16 / 4 · width 1 = 4 elements, priced as 4 bytes: 1 µs + 4·0.01 µs = 1.04 µs.
    Recorder r(4, 1e-6, 1e-8);
    across31_pipeline(loop_2x2(), r, 1e-6, 1e-8);
    REQUIRE(r.messages.size() == 4);
    CHECK(r.messages[0].from == 0);
    CHECK(r.messages[0].to == 1);
    CHECK(r.messages[3].from == 2);
    CHECK(r.messages[3].to == 3);
    for (const auto& m : r.messages) CHECK(m.bytes == 4);
    // Position 1: 0 finishes its block at 16 (iterations), its face arrives at 16 + 1.04 = 17.04:
    // real wait 17.04 µs; the wait beyond the message (17.04 − 1.04 = 16 µs) is lost system
    // time, the message's own 1.04 µs is Wait_shadow too: 18.08 µs. Position 2 likewise.
    CHECK(r.waits[0] == 0);
    CHECK(r.waits[1] == doctest::Approx(18.08e-6));
    CHECK(r.losses[1] == doctest::Approx(16e-6));
    CHECK(r.waits[2] == doctest::Approx(18.08e-6));
    // Position 3: 1 and 2 finish at 16 + 17.04 = 33.04; both faces arrive at 34.08: real waits
    // 2 · 34.08, plus 1.04; lost 34.08 − 1.04 = 33.04.
    CHECK(r.waits[3] == doctest::Approx(2 * 34.08e-6 + 1.04e-6));
    CHECK(r.losses[3] == doctest::Approx(33.04e-6));
  }

  TEST_CASE("Across31 DoPL=1 on 2x2x2: faces of 16 elements along the three grid dimensions") {
    // 8 processors (> 4): 3.1 reads the loop's rank, a_i = 4·4·4 = 64 and the face along each
    // grid dimension is 64 / 4 · 8 bytes = 128 bytes: 1 µs + 128·0.01 µs = 2.28 µs. In position
    // order, each to its successor along dimensions 0, 1, 2 (+4, +2, +1), sent at the sender's
    // clock: 0 (at 0) → 4, 2, 1 (each waits 2.28); 1 (2.28) → 5, 3 (wait 4.56); 2 (2.28) → 6
    // (4.56), → 3 (at 4.56, the message ends 4.56: no wait); 3 (4.56) → 7 (6.84); 4 (2.28) → 6,
    // 5 and 5 → 7, 6 → 7: each ends when the receiver's clock already is. 12 messages.
    Recorder r(8, 1e-6, 1e-8);
    across31_edges(loop_2x2x2(), r);
    REQUIRE(r.messages.size() == 12);
    const std::vector<std::pair<int, int>> order{{0, 4}, {0, 2}, {0, 1}, {1, 5}, {1, 3}, {2, 6},
                                                 {2, 3}, {3, 7}, {4, 6}, {4, 5}, {5, 7}, {6, 7}};
    for (std::size_t k = 0; k < order.size(); ++k) {
      CHECK(r.messages[k].from == order[k].first);
      CHECK(r.messages[k].to == order[k].second);
      CHECK(r.messages[k].bytes == 128);
    }
    CHECK(r.waits[0] == 0);
    for (int p : {1, 2, 4}) CHECK(r.waits[p] == doctest::Approx(2.28e-6));
    for (int p : {3, 5, 6}) CHECK(r.waits[p] == doctest::Approx(4.56e-6));
    CHECK(r.waits[7] == doctest::Approx(6.84e-6));
    for (const auto& [p, o] : r.overlaps) CHECK(o == 0);
  }

  TEST_CASE("Across31 DoPL=0 on 2x2x2: one block per position - the wavefront over three dimensions") {
    // Blocks differ along the three axes (all pipelined, width 1): M = 8·8·8, N = 1, so Q = 1 and
    // one block of 4 × 4 × 4 = 64 iterations per position; positions in order 0 … 7 (dimension 2
    // fastest). A face is 64 / 4 · width 1 = 16 elements, priced as 16 bytes: 1 µs + 0.16 µs =
    // 1.16 µs, sent when the predecessor finishes its block (times from processor 0's clock).
    Recorder r(8, 1e-6, 1e-8);
    across31_pipeline(loop_2x2x2(), r, 1e-6, 1e-8);
    REQUIRE(r.messages.size() == 12);
    const std::vector<std::pair<int, int>> order{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {0, 4}, {1, 5},
                                                 {4, 5}, {2, 6}, {4, 6}, {3, 7}, {5, 7}, {6, 7}};
    for (std::size_t k = 0; k < order.size(); ++k) {
      CHECK(r.messages[k].from == order[k].first);
      CHECK(r.messages[k].to == order[k].second);
      CHECK(r.messages[k].bytes == 16);
    }
    // Position 0 finishes at 64. Positions 1, 2, 4 (one predecessor, 0): the face arrives at
    // 64 + 1.16 = 65.16: real wait 65.16 µs plus the message's own 1.16 µs; lost the wait beyond
    // the message, 65.16 − 1.16 = 64 µs; they finish at 64 + 65.16 = 129.16.
    CHECK(r.waits[0] == 0);
    for (int p : {1, 2, 4}) {
      CHECK(r.waits[p] == doctest::Approx(65.16e-6 + 1.16e-6));
      CHECK(r.losses[p] == doctest::Approx(64e-6));
    }
    // Positions 3, 5, 6 (two predecessors finishing at 129.16): both faces arrive at 130.32,
    // real waits 2 · 130.32 plus 1.16; lost 130.32 − 1.16 = 129.16; finish at 64 + 130.32 =
    // 194.32.
    for (int p : {3, 5, 6}) {
      CHECK(r.waits[p] == doctest::Approx(2 * 130.32e-6 + 1.16e-6));
      CHECK(r.losses[p] == doctest::Approx(129.16e-6));
    }
    // Position 7 (predecessors 3, 5, 6 along the three dimensions): faces at 194.32 + 1.16 =
    // 195.48, real waits 3 · 195.48 plus 1.16; lost 195.48 − 1.16 = 194.32.
    CHECK(r.waits[7] == doctest::Approx(3 * 195.48e-6 + 1.16e-6));
    CHECK(r.losses[7] == doctest::Approx(194.32e-6));
  }

  TEST_CASE("Across31 DoPL=0 as 2.53 prices it: iterations booked before the start, faces of Ts") {
    // 2.53 (v253): a face costs Ts + elements · Tb · type_size (type_size 0: Ts = 1 µs), no
    // message goes through the machine, Wait_shadow is the synchronous sum per block of the
    // longest face received or Ts for a face sent, and each position's iterations are booked
    // before it reads its clock. Blocks: 0 [1..4]×[1..4], 1 [1..4]×[5..6], 2 [5..8]×[1..4],
    // 3 [5..8]×[5..6]; 48 iterations of 1 µs. M = 8·6 = 48, N = 1, P = 4, W = 8, Tm = Ts:
    // 4 > 48·Tc/(8·Tm) = 6 fails, Q = ⌊√(3·(48 + 4·8)/8)⌋ = ⌊√30⌋ = 5, cut to N = 1: one block
    // per position (16, 8, 16, 8 iterations).
    Across31Loop loop;
    loop.grid = {2, 2};
    loop.blocks = {{Range{1, 4, 1}, Range{1, 4, 1}},
                   {Range{1, 4, 1}, Range{5, 6, 1}},
                   {Range{5, 8, 1}, Range{1, 4, 1}},
                   {Range{5, 8, 1}, Range{5, 6, 1}}};
    loop.invers = {0, 0};
    loop.width = {1, 1};
    loop.call_time = 48e-6;
    loop.loop_size = 48;
    loop.type_size = 0;
    loop.v253 = true;
    Recorder r(4, 1e-6, 1e-8);
    across31_pipeline(loop, r, 1e-6, 1e-8);
    CHECK(r.messages.empty());
    // Every position sends or receives one face in its one block: Wait_shadow = Ts each.
    for (int p = 0; p < 4; ++p) CHECK(r.waits[p] == doctest::Approx(1e-6));
    // Starts (clock + own iterations, from position 0's 16 µs): 0, −8, 0, −8 iterations.
    // Position 0 finishes at 16. Position 1 waits for 0's face: 16 + 1 = 17, from −8: 25 µs,
    // the face's 1 µs off: 24 µs lost (3.1's start at 0 would lose 16). It finishes at 8 + 17 =
    // 25. Position 2: 17 from 0, 16 lost; finishes at 16 + 17 = 33. Position 3: faces of 1 and
    // 2 at 26 and 34: 34 + 8 = 42 µs, 41 lost.
    CHECK(r.losses.count(0) == 0);
    CHECK(r.losses[1] == doctest::Approx(24e-6));
    CHECK(r.losses[2] == doctest::Approx(16e-6));
    CHECK(r.losses[3] == doctest::Approx(41e-6));
  }

  TEST_CASE("Across31 DoPL=0 on a 1-D grid: the axis off the grid has no width - one pipeline per position") {
    // A 2-D loop split along axis 1 over 4 processors (2.53's path; 3.1 divides by zero here):
    // the grid has one dimension, so the width of loop axis 1 is 0 and neighbours differing
    // only there are parallel pipelines of one position each: no face, no wait, no loss.
    for (const bool v253 : {false, true}) {
      Across31Loop loop;
      loop.grid = {4};
      for (int c = 0; c < 4; ++c) loop.blocks.push_back({Range{1, 8, 1}, Range{1 + 2 * c, 2 + 2 * c, 1}});
      loop.invers = {0, 0};
      loop.width = {1};
      loop.call_time = 64e-6;
      loop.loop_size = 64;
      loop.type_size = v253 ? 0 : 8;
      loop.v253 = v253;
      Recorder r(4, 1e-6, 1e-8);
      across31_pipeline(loop, r, 1e-6, 1e-8);
      CHECK(r.messages.empty());
      CHECK(r.waits.empty());
      CHECK(r.losses.empty());
    }
  }
}
