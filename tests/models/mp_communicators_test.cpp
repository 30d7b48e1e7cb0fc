// Collectives on communicators other than the world in the message-passing model, checked against
// hand computations on the LogGP-like test machine (L = 1 us, G = 1 ns/B, eager threshold 100 B,
// an eager message moves once its receive is posted; analytic collectives cost 10 us).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/scheduler.hpp"
#include "models/analysis/wait_states.hpp"
#include "models/mp/collectives.hpp"
#include "models/mp/mp_program.hpp"
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
  std::vector<models::analysis::LpWaits> waits;  ///< the wait-state analysis, given the communicators
};

Run run(std::vector<std::vector<MpRecord>> ranks, traces::MpCommunicators comms, models::mp::MpOptions options = {}) {
  MemoryTrace trace(std::move(ranks), std::move(comms));
  TestMachine machine(trace.rank_count());
  models::mp::MpProgram program(trace, machine, options);
  engine::Scheduler s(static_cast<std::uint32_t>(trace.rank_count()));
  models::report::RunStats stats(static_cast<std::uint32_t>(trace.rank_count()));
  models::analysis::WaitStateAnalyzer analyzer(static_cast<std::uint32_t>(trace.rank_count()));
  analyzer.set_communicators(trace.communicators());
  s.add_observer(&analyzer);
  Recorder recorder;
  s.add_observer(&stats);
  s.add_observer(&recorder);
  Run r;
  r.result = s.run(program);
  r.stats = stats.lps();
  r.events = recorder.events;
  for (std::uint32_t i = 0; i < s.lp_count(); ++i) r.clocks.push_back(s.lp(i).clock);
  r.waits = analyzer.lps();
  return r;
}

/// A collective on communicator `comm` with `bytes` per rank; `root` is a world rank.
MpRecord coll(MpOpKind kind, int comm, std::uint64_t bytes, int root = 0) {
  MpRecord r = rec(kind, -1, 0, bytes);
  r.comm = comm;
  r.root = root;
  return r;
}

double pattern_s(const Run& r, std::size_t lp, models::analysis::WaitPattern p) {
  return r.waits[lp].patterns[static_cast<std::size_t>(p)].total_s;
}

MpRecord compute_us(double us) { return rec(MpOpKind::compute, -1, 0, 0, us * 1000); }

/// The completions of blocking receives of `lp`, in order.
std::vector<engine::Event> receives(const Run& r, engine::LpId lp) {
  std::vector<engine::Event> out;
  for (const engine::Event& e : r.events)
    if (e.lp == lp && e.kind == engine::EventKind::recv && e.base_detail() == 1) out.push_back(e);
  return out;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("MpProgram: a bcast on 2 of 4 ranks runs between its members only") {
    // Communicator 1 = world ranks {1, 3}; root world 3 (its comm rank 1). Binomial bcast on 2
    // ranks: comm rank 1 (vr 0) sends to comm rank 0 = world 1. World 3 sends 50 B eagerly at 0
    // and continues; world 1 computes 2 us, then posts its receive: the message moves at 2 us
    // and arrives at 2 + 1 + 50e-3 = 3.05 us. Ranks 0 and 2 only compute 5 us.
    auto r = run({{compute_us(5)},
                  {compute_us(2), coll(MpOpKind::bcast, 1, 50, 3)},
                  {compute_us(5)},
                  {coll(MpOpKind::bcast, 1, 50, 3)}},
                 {{}, {1, 3}});
    REQUIRE(r.result.outcome == engine::RunOutcome::completed);
    CHECK(r.clocks[1] == doctest::Approx(3.05e-6).epsilon(1e-12));
    CHECK(r.clocks[3] == doctest::Approx(0.0));
    CHECK(r.result.end_time == doctest::Approx(5e-6).epsilon(1e-12));
    CHECK(r.stats[3].messages_sent == 1);
    CHECK(r.stats[1].bytes_received == 50);
    CHECK(r.stats[0].messages_sent + r.stats[1].messages_sent + r.stats[2].messages_sent == 0);
    CHECK(r.stats[1].wait_s == doctest::Approx(0.0));  // the message was there when it asked
    CHECK(r.stats[1].transfer_s == doctest::Approx(1.05e-6));
    // The root entered at 0, world 1 at 2 us: no late broadcast (the root was early).
    CHECK(pattern_s(r, 1, models::analysis::WaitPattern::late_broadcast) == doctest::Approx(0.0));
    CHECK(r.waits[0].total_s() + r.waits[2].total_s() == doctest::Approx(0.0));
  }

  TEST_CASE("MpProgram: two disjoint sub-communicators run their allreduces at once") {
    // Communicator 1 = {0, 1}, communicator 2 = {3, 2} (comm rank 0 is world 3). The default
    // allreduce on 2 ranks: comm rank 1 isends 8 B to comm rank 0 (reduce), then comm rank 0
    // sends 8 B back (binomial bcast, eager: the sender continues at once). Each message:
    // 1 us + 8 ns. {0, 1} enter at 0: the reduce arrives at 1.008 us (world 0 done), the bcast
    // at 2.016 us (world 1 done). {3, 2}: world 2 (comm rank 1) computes 1 us first: its isend
    // moves at 1 us (world 3's irecv is posted at 0) and arrives at 2.008 us (world 3 done);
    // world 3's bcast arrives at 3.016 us (world 2 done).
    auto r = run({{coll(MpOpKind::allreduce, 1, 8)},
                  {coll(MpOpKind::allreduce, 1, 8)},
                  {compute_us(1), coll(MpOpKind::allreduce, 2, 8)},
                  {coll(MpOpKind::allreduce, 2, 8)}},
                 {{}, {0, 1}, {3, 2}});
    REQUIRE(r.result.outcome == engine::RunOutcome::completed);
    CHECK(r.clocks[0] == doctest::Approx(1.008e-6).epsilon(1e-12));
    CHECK(r.clocks[1] == doctest::Approx(2.016e-6).epsilon(1e-12));
    CHECK(r.clocks[2] == doctest::Approx(3.016e-6).epsilon(1e-12));
    CHECK(r.clocks[3] == doctest::Approx(2.008e-6).epsilon(1e-12));
    for (int lp = 0; lp < 4; ++lp) {
      CHECK(r.stats[static_cast<std::size_t>(lp)].messages_sent == 1);
      CHECK(r.stats[static_cast<std::size_t>(lp)].bytes_received == 8);
      CHECK(r.stats[static_cast<std::size_t>(lp)].collectives == 1);
    }
    // World 3 waited from 0 to 1 us for world 2's contribution to start moving.
    CHECK(r.stats[3].wait_s == doctest::Approx(1e-6));
  }

  TEST_CASE("MpProgram: collectives on two communicators of the same ranks never match each other") {
    // Communicators 1 and 2 are both {0, 1}. Rank 0 broadcasts 10 B on 1, then 60 B on 2 (both
    // eager: it continues at once); rank 1 takes part in 2 first. Its first receive must take the
    // 60 B message (tag of communicator 2), arriving at 1 + 60e-3 = 1.06 us; then the 10 B one,
    // moving from 1.06 us, arrives at 2.07 us. (Matching across communicators would take the
    // 10 B message first, at 1.01 us.)
    auto r = run({{coll(MpOpKind::bcast, 1, 10), coll(MpOpKind::bcast, 2, 60)},
                  {coll(MpOpKind::bcast, 2, 60), coll(MpOpKind::bcast, 1, 10)}},
                 {{}, {0, 1}, {0, 1}});
    REQUIRE(r.result.outcome == engine::RunOutcome::completed);
    const auto got = receives(r, 1);
    REQUIRE(got.size() == 2);
    CHECK(got[0].bytes == 60);
    CHECK(got[0].clock_after == doctest::Approx(1.06e-6).epsilon(1e-12));
    CHECK(got[1].bytes == 10);
    CHECK(r.clocks[1] == doctest::Approx(2.07e-6).epsilon(1e-12));
    CHECK(models::mp::collective_tag(engine::CollectiveKind::bcast, 2) == -11 - 32);
  }

  TEST_CASE("MpProgram: an analytic collective on a sub-communicator waits for its members only") {
    models::mp::MpOptions analytic;
    analytic.collectives = "analytic";
    // Barrier on {0, 2}: entries at 1 and 3 us, cost 10 us: both leave at 13 us. Ranks 1 and 3
    // barrier on {1, 3} entering at 2 and 0 us: they leave at 12 us.
    auto r = run({{compute_us(1), coll(MpOpKind::barrier, 1, 0)},
                  {compute_us(2), coll(MpOpKind::barrier, 2, 0)},
                  {compute_us(3), coll(MpOpKind::barrier, 1, 0)},
                  {coll(MpOpKind::barrier, 2, 0)}},
                 {{}, {0, 2}, {1, 3}}, analytic);
    REQUIRE(r.result.outcome == engine::RunOutcome::completed);
    CHECK(r.clocks[0] == doctest::Approx(13e-6));
    CHECK(r.clocks[2] == doctest::Approx(13e-6));
    CHECK(r.clocks[1] == doctest::Approx(12e-6));
    CHECK(r.clocks[3] == doctest::Approx(12e-6));
    CHECK(r.stats[0].wait_s == doctest::Approx(2e-6));
    CHECK(r.stats[3].wait_s == doctest::Approx(2e-6));
    // The wait-state analysis matches each barrier among its members: rank 0 waits at the barrier
    // for rank 2 (1 → 3 us), rank 3 for rank 1 (0 → 2 us); the last to enter wait for nobody.
    using models::analysis::WaitPattern;
    CHECK(pattern_s(r, 0, WaitPattern::wait_at_barrier) == doctest::Approx(2e-6));
    CHECK(pattern_s(r, 3, WaitPattern::wait_at_barrier) == doctest::Approx(2e-6));
    CHECK(pattern_s(r, 1, WaitPattern::wait_at_barrier) == doctest::Approx(0.0));
    CHECK(pattern_s(r, 2, WaitPattern::wait_at_barrier) == doctest::Approx(0.0));
  }

  TEST_CASE("MpProgram: a collective on a communicator the rank is not in is an error") {
    auto r = run({{coll(MpOpKind::barrier, 1, 0)}, {coll(MpOpKind::barrier, 1, 0)}}, {{}, {0}});
    CHECK(r.result.outcome == engine::RunOutcome::error);
    CHECK(r.result.message.find("rank1.txt:1: error: barrier: rank 1 is not a member of communicator 1") !=
          std::string::npos);
    auto unknown = run({{coll(MpOpKind::barrier, 3, 0)}}, {});
    CHECK(unknown.result.outcome == engine::RunOutcome::error);
    CHECK(unknown.result.message.find("rank0.txt:1: error: barrier: unknown communicator 3") != std::string::npos);
    auto root = run({{coll(MpOpKind::bcast, 1, 8, 1)}, {compute_us(1)}}, {{}, {0}});
    CHECK(root.result.outcome == engine::RunOutcome::error);
    CHECK(root.result.message.find("error: bcast: root 1 is not a member of communicator 1") != std::string::npos);
  }
}
