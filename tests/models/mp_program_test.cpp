// The message-passing model: protocols, matching and waits, checked against hand computations on
// a LogGP-like test machine (L = 1 us, G = 1 ns/B, o = 0, no contention, eager threshold 100 B).
#include <doctest/doctest.h>

#include <map>
#include <vector>

#include "engine/scheduler.hpp"
#include "models/mp/mp_program.hpp"
#include "models/mp/pair_index.hpp"
#include "models/report/run_stats.hpp"
#include "tests/models/mp_test_support.hpp"

using namespace augur;
using traces::MpOpKind;
using traces::MpRecord;

namespace {

using namespace augur::test;

struct Run {
  engine::RunResult result;
  std::vector<models::report::LpStats> stats;
  std::vector<engine::Event> events;
  std::vector<double> clocks;
  std::vector<std::string> warnings;
};

Run run(std::vector<std::vector<MpRecord>> ranks, models::mp::MpOptions options = {}) {
  MemoryTrace trace(std::move(ranks));
  TestMachine machine(trace.rank_count());
  models::mp::MpProgram program(trace, machine, options);
  engine::Scheduler s(static_cast<std::uint32_t>(trace.rank_count()));
  models::report::RunStats stats(static_cast<std::uint32_t>(trace.rank_count()));
  Recorder recorder;
  s.add_observer(&stats);
  s.add_observer(&recorder);
  Run r;
  r.result = s.run(program);
  r.stats = stats.lps();
  r.events = recorder.events;
  for (std::uint32_t i = 0; i < s.lp_count(); ++i) r.clocks.push_back(s.lp(i).clock);
  r.warnings = program.warnings();
  return r;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("MpProgram eager ping-pong costs two messages") {
    // rank 1 posts its receive at 0; the 50-byte message moves at 0: arrives 1e-6 + 50e-9 = 1.05 us.
    // rank 1 answers at 1.05 us: back at 2.1 us.
    auto r = run({{rec(MpOpKind::send, 1, 0, 50), rec(MpOpKind::recv, 1, 0, 50)},
                  {rec(MpOpKind::recv, 0, 0, 50), rec(MpOpKind::send, 0, 0, 50)}});
    CHECK(r.result.outcome == engine::RunOutcome::completed);
    CHECK(r.result.end_time == doctest::Approx(2.1e-6).epsilon(1e-12));
    CHECK(r.stats[0].messages_sent == 1);
    CHECK(r.stats[0].bytes_received == 50);
    // rank 0: send returns at once (eager), recv waits 1.05 us for the reply to start, 1.05 us transfer.
    CHECK(r.stats[0].wait_s == doctest::Approx(1.05e-6));
    CHECK(r.stats[0].transfer_s == doctest::Approx(1.05e-6));
  }

  TEST_CASE("MpProgram rendezvous sender waits for the late receiver") {
    // 1000 B > threshold 100 B: rendezvous. rank 1 computes 5000 flops = 5 us, then posts the receive:
    // the transfer starts at 5 us and ends at 5 + 1 + 1000·0.001 = 7 us; rank 0 is blocked until 7 us.
    auto r = run(
        {{rec(MpOpKind::send, 1, 0, 1000)}, {rec(MpOpKind::compute, -1, 0, 0, 5000), rec(MpOpKind::recv, 0, 0, 1000)}});
    CHECK(r.clocks[0] == doctest::Approx(7e-6));
    CHECK(r.clocks[1] == doctest::Approx(7e-6));
    CHECK(r.stats[0].wait_s == doctest::Approx(5e-6));  // late receiver
    CHECK(r.stats[0].transfer_s == doctest::Approx(2e-6));
    CHECK(r.stats[1].wait_s == doctest::Approx(0.0));
  }

  TEST_CASE("MpProgram eager sender continues while the receiver is late") {
    // 80 B eager: rank 0's send returns at 0 and it computes 1 us; rank 1 receives at 5 us:
    // SimGrid's rule (transfer starts at the match): arrival 5 + 1 + 0.08 = 6.08 us.
    auto r = run({{rec(MpOpKind::send, 1, 0, 80), rec(MpOpKind::compute, -1, 0, 0, 1000)},
                  {rec(MpOpKind::compute, -1, 0, 0, 5000), rec(MpOpKind::recv, 0, 0, 80)}});
    CHECK(r.clocks[0] == doctest::Approx(1e-6));
    CHECK(r.clocks[1] == doctest::Approx(6.08e-6));
    // Classic eager (transfer at the send): the message arrived at 1.08 us, the receive completes at 5 us.
    models::mp::MpOptions classic;
    classic.eager_at_match = false;
    auto c = run({{rec(MpOpKind::send, 1, 0, 80), rec(MpOpKind::compute, -1, 0, 0, 1000)},
                  {rec(MpOpKind::compute, -1, 0, 0, 5000), rec(MpOpKind::recv, 0, 0, 80)}},
                 classic);
    CHECK(c.clocks[1] == doctest::Approx(5e-6));
  }

  TEST_CASE("MpProgram matching is non-overtaking per sender and honours any tag") {
    // rank 0 sends 10 B tag 5 then 20 B tag 5 then 30 B tag 9; rank 1 receives any tag three times:
    // they must come in send order (10, 20, 30).
    std::vector<MpRecord> r1;
    for (int i = 0; i < 3; ++i) r1.push_back(rec(MpOpKind::recv, 0, engine::any_tag, 100));
    auto r = run({{rec(MpOpKind::send, 1, 5, 10), rec(MpOpKind::send, 1, 5, 20), rec(MpOpKind::send, 1, 9, 30)}, r1});
    std::vector<std::uint64_t> got;
    for (const auto& e : r.events) {
      if (e.lp == 1 && e.kind == engine::EventKind::recv) got.push_back(e.bytes);
    }
    CHECK(got == std::vector<std::uint64_t>{10, 20, 30});
  }

  TEST_CASE("MpProgram matches a named tag past earlier messages") {
    // A receive for tag 9 takes the third message; the next any-tag receive gets the first.
    auto r = run({{rec(MpOpKind::send, 1, 5, 10), rec(MpOpKind::send, 1, 5, 20), rec(MpOpKind::send, 1, 9, 30)},
                  {rec(MpOpKind::recv, 0, 9, 100), rec(MpOpKind::recv, 0, engine::any_tag, 100),
                   rec(MpOpKind::recv, 0, engine::any_tag, 100)}});
    std::vector<std::uint64_t> got;
    for (const auto& e : r.events) {
      if (e.lp == 1 && e.kind == engine::EventKind::recv) got.push_back(e.bytes);
    }
    CHECK(got == std::vector<std::uint64_t>{30, 10, 20});
  }

  TEST_CASE("MpProgram any-source receive takes the earliest message") {
    // rank 1 sends at 3 us, rank 2 at 1 us; rank 0 receives from any source at 10 us: the message of
    // rank 2 (sent first) is taken first; classic eager so that arrivals are known (2.01 us, 4.01 us).
    models::mp::MpOptions classic;
    classic.eager_at_match = false;
    auto r =
        run({{rec(MpOpKind::compute, -1, 0, 0, 10000), rec(MpOpKind::recv, -1, 0, 10), rec(MpOpKind::recv, -1, 0, 10)},
             {rec(MpOpKind::compute, -1, 0, 0, 3000), rec(MpOpKind::send, 0, 0, 10)},
             {rec(MpOpKind::compute, -1, 0, 0, 1000), rec(MpOpKind::send, 0, 0, 10)}},
            classic);
    CHECK(r.clocks[0] == doctest::Approx(10e-6));
    CHECK(r.result.outcome == engine::RunOutcome::completed);
  }

  TEST_CASE("MpProgram any-source receive waits until no earlier message can arrive") {
    // Classic eager. rank 1 sends 1 B at 0: arrives 1.001 us. rank 0 receives from any source at 0.
    // rank 2 computes 0.5 us then sends 1 B: arrives 1.501 us. The first any-source receive must not
    // complete before 1.001 us and gets rank 1's message; the second gets rank 2's at 1.501 us.
    models::mp::MpOptions classic;
    classic.eager_at_match = false;
    auto r = run({{rec(MpOpKind::recv, -1, 0, 1), rec(MpOpKind::recv, -1, 0, 1)},
                  {rec(MpOpKind::send, 0, 0, 1)},
                  {rec(MpOpKind::compute, -1, 0, 0, 500), rec(MpOpKind::send, 0, 0, 1)}},
                 classic);
    std::vector<double> done;
    for (const auto& e : r.events) {
      if (e.lp == 0 && e.kind == engine::EventKind::recv) done.push_back(e.clock_after);
    }
    REQUIRE(done.size() == 2);
    CHECK(done[0] == doctest::Approx(1.001e-6));
    CHECK(done[1] == doctest::Approx(1.501e-6));
  }

  TEST_CASE("MpProgram matches the receive posted first across a renumbering of post order") {
    // rank 1 posts a receive from any source and two from rank 0 (tags 7, 9), then waits for all;
    // rank 0 sends one message, tag 7, after 1 us. MPI gives it to the receive posted first (the
    // any-source one): the receive from rank 0 with tag 7 is left unmatched. A post-order limit
    // of 2 renumbers the requests at the third post.
    models::mp::MpOptions options;
    options.post_order_limit = 2;
    auto r = run({{rec(MpOpKind::compute, -1, 0, 0, 1000), rec(MpOpKind::send, 1, 7, 8)},
                  {rec(MpOpKind::irecv, -1, 7, 8), rec(MpOpKind::irecv, 0, 7, 8), rec(MpOpKind::irecv, 0, 9, 8),
                   rec(MpOpKind::waitall)}},
                 options);
    CHECK(r.result.outcome == engine::RunOutcome::deadlock);
    CHECK(r.result.message.find("waits for 2 of 3 requests: a message from rank 0 (tag 7)") != std::string::npos);
  }

  TEST_CASE("MpProgram waitall completes every pending request of the rank") {
    // rank 0: irecv from 1 (50 B), irecv from 2 (50 B), waitall. rank 1 sends at 2 us, rank 2 at 4 us:
    // arrivals 3.05 us and 5.05 us; the waitall ends at 5.05 us.
    auto r = run({{rec(MpOpKind::irecv, 1, 0, 50), rec(MpOpKind::irecv, 2, 0, 50), rec(MpOpKind::waitall)},
                  {rec(MpOpKind::compute, -1, 0, 0, 2000), rec(MpOpKind::send, 0, 0, 50)},
                  {rec(MpOpKind::compute, -1, 0, 0, 4000), rec(MpOpKind::send, 0, 0, 50)}});
    CHECK(r.clocks[0] == doctest::Approx(5.05e-6));
    CHECK(r.stats[0].messages_received == 2);
    // Waiting: until the last transfer started (4 us); transfer: 4 → 5.05 us.
    CHECK(r.stats[0].wait_s == doctest::Approx(4e-6));
    CHECK(r.stats[0].transfer_s == doctest::Approx(1.05e-6));
  }

  TEST_CASE("MpProgram TI wait picks the oldest request with the key") {
    // rank 0: isend to 1 tag 3 (rendezvous 1000 B), then wait 0 1 3. rank 1 receives at 2 us:
    // transfer 2 → 2 + 1 + 1 = 4 us.
    auto r = run({{rec(MpOpKind::isend, 1, 3, 1000), rec(MpOpKind::wait, 0, 3, 0, 0, 1)},
                  {rec(MpOpKind::compute, -1, 0, 0, 2000), rec(MpOpKind::recv, 0, 3, 1000)}});
    CHECK(r.clocks[0] == doctest::Approx(4e-6));
    CHECK(r.warnings.empty());
  }

  TEST_CASE("MpProgram sendRecv exchanges without deadlock") {
    // Both ranks exchange 1000 B (rendezvous) at 0: both transfers 0 → 2 us.
    MpRecord a = rec(MpOpKind::send_recv, 1, 0, 1000, 0, 1);
    a.bytes2 = 1000;
    MpRecord b = rec(MpOpKind::send_recv, 0, 0, 1000, 0, 0);
    b.bytes2 = 1000;
    auto r = run({{a}, {b}});
    CHECK(r.result.outcome == engine::RunOutcome::completed);
    CHECK(r.clocks[0] == doctest::Approx(2e-6));
    CHECK(r.clocks[1] == doctest::Approx(2e-6));
  }

  TEST_CASE("MpProgram analytic collective levels to the last entry plus the model cost") {
    models::mp::MpOptions analytic;
    analytic.collectives = "analytic";
    // Entries at 1, 2, 3 us; cost 10 us: all leave at 13 us; waits 2, 1, 0 us.
    auto r = run({{rec(MpOpKind::compute, -1, 0, 0, 1000), rec(MpOpKind::barrier)},
                  {rec(MpOpKind::compute, -1, 0, 0, 2000), rec(MpOpKind::barrier)},
                  {rec(MpOpKind::compute, -1, 0, 0, 3000), rec(MpOpKind::barrier)}},
                 analytic);
    for (double c : r.clocks) CHECK(c == doctest::Approx(13e-6));
    CHECK(r.stats[0].wait_s == doctest::Approx(2e-6));
    CHECK(r.stats[2].wait_s == doctest::Approx(0.0));
    CHECK(r.stats[1].transfer_s == doctest::Approx(10e-6));
  }

  TEST_CASE("MpProgram reports a deadlock of two ranks that both receive first") {
    auto r = run({{rec(MpOpKind::recv, 1, 0, 8), rec(MpOpKind::send, 1, 0, 8)},
                  {rec(MpOpKind::recv, 0, 0, 8), rec(MpOpKind::send, 0, 0, 8)}});
    CHECK(r.result.outcome == engine::RunOutcome::deadlock);
    CHECK(r.result.cycle == std::vector<engine::LpId>{0, 1, 0});
    CHECK(
        r.result.message.find("LP 0 (clock 0.000000000 s) waits for a message from rank 1 (tag 0) (at rank0.txt:1)") !=
        std::string::npos);
  }
  TEST_CASE("PairIndex finds what was inserted across growth - and nothing else") {
    struct Slot {
      std::uint32_t head = 7;
      std::uint32_t tail = 9;
    };
    models::mp::PairIndex<Slot> index;
    CHECK(index.find(0) == nullptr);
    std::map<std::uint64_t, std::uint32_t> reference;
    std::uint64_t x = 1;
    for (std::uint32_t i = 0; i < 20000; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      // Keys as MpProgram builds them: (dst << 32) | src, clustered ranks and a few far ones.
      const std::uint64_t dst = (x >> 40) % 300, src = i % 3 == 0 ? (x >> 20) % 1000000 : (x >> 20) % 64;
      const std::uint64_t key = (dst << 32) | src;
      Slot& s = index[key];
      if (!reference.count(key)) {
        CHECK(s.head == 7);  // value-initialised: the defaults
        CHECK(s.tail == 9);
      }
      s.head = i;
      reference[key] = i;
    }
    CHECK(index.size() == reference.size());
    for (const auto& [key, value] : reference) {
      const Slot* s = index.find(key);
      REQUIRE(s != nullptr);
      CHECK(s->head == value);
    }
    CHECK(index.find((std::uint64_t{301} << 32) | 5) == nullptr);
  }
  TEST_CASE("PairIndex holds the pairs of a ring - a stencil - all-to-one and any-source together") {
    // The slot of a pair groups 16 consecutive destinations at the same distance from their source
    // in one block: patterns with one distance (a ring), a few (a stencil) and all distances to one
    // destination (a gather, an allreduce's messages to rank 0), and any-source receives (src
    // 0xFFFFFFFF), inserted together, erased in part and found again.
    models::mp::PairIndex<std::uint32_t> index;
    std::map<std::uint64_t, std::uint32_t> reference;
    const auto key = [](std::uint64_t dst, std::uint64_t src) { return (dst << 32) | (src & 0xFFFFFFFFULL); };
    constexpr std::uint64_t ranks = 5000;
    std::uint32_t value = 0;
    const auto put = [&](std::uint64_t k) {
      index[k] = ++value;
      reference[k] = value;
    };
    for (std::uint64_t r = 0; r < ranks; ++r) {
      put(key((r + 1) % ranks, r));           // ring
      put(key(r, (r + ranks - 70) % ranks));  // stencil rows of 70
      put(key(r, (r + 70) % ranks));
      put(key(0, r));                              // all to rank 0
      if (r % 7 == 0) put(key(r, 0xFFFFFFFFULL));  // any source
    }
    CHECK(index.size() == reference.size());
    for (std::uint64_t r = 0; r < ranks; r += 3) {  // a third of the ring and of the gather leave
      index.erase(key((r + 1) % ranks, r));
      reference.erase(key((r + 1) % ranks, r));
      index.erase(key(0, r));
      reference.erase(key(0, r));
    }
    CHECK(index.size() == reference.size());
    for (const auto& [k, v] : reference) {
      const std::uint32_t* found = index.find(k);
      REQUIRE(found != nullptr);
      CHECK(*found == v);
    }
    CHECK(index.find(key(1, 0)) == nullptr);  // erased (r = 0)
    CHECK(index.find(key(3, 1)) == nullptr);  // never inserted
  }
  TEST_CASE("PairIndex erases keys (backward shift) and still finds every other key") {
    models::mp::PairIndex<std::uint32_t> index;
    std::map<std::uint64_t, std::uint32_t> reference;
    std::uint64_t x = 7;
    // Clustered keys (a few destinations, many sources) make long probe runs that wrap around the
    // table's end, so erasures move entries across the wrap.
    for (std::uint32_t i = 0; i < 30000; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const std::uint64_t key = (((x >> 40) % 16) << 32) | ((x >> 20) % 512);
      if ((x >> 60) < 6 && !reference.empty()) {
        // Erase a present key (the first at or after key) or a missing one.
        auto it = reference.lower_bound(key);
        const std::uint64_t victim = it != reference.end() && (x >> 59) % 2 == 0 ? it->first : key;
        index.erase(victim);
        reference.erase(victim);
        CHECK(index.find(victim) == nullptr);
      } else {
        index[key] = i;
        reference[key] = i;
      }
    }
    CHECK(index.size() == reference.size());
    CHECK(reference.size() > 1000);  // the table grew and stayed well filled
    for (const auto& [key, value] : reference) {
      const std::uint32_t* v = index.find(key);
      REQUIRE(v != nullptr);
      CHECK(*v == value);
    }
    for (const auto& [key, value] : reference) index.erase(key);
    CHECK(index.size() == 0);
    CHECK(index.find(reference.begin()->first) == nullptr);
  }
}
