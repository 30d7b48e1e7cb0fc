// Wait states on hand-made traces: each pattern alone with its expected time, and an indirect
// wait propagated across three ranks (test machine: L = 1 us, G = 1 ns/B, eager <= 100 B).
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/scheduler.hpp"
#include "models/analysis/wait_states.hpp"
#include "models/mp/mp_program.hpp"
#include "tests/models/mp_test_support.hpp"

using namespace augur;
using namespace augur::test;
using models::analysis::WaitPattern;

namespace {

struct Analysis {
  std::vector<models::analysis::LpWaits> lps;
  std::vector<models::analysis::RegionCause> causes;
  std::vector<double> explained;
  std::vector<models::analysis::WaitAmount> by_operation;
  std::vector<models::analysis::WaitSite> sites;
};

Analysis analyse(std::vector<std::vector<MpRecord>> ranks, models::mp::MpOptions options = {},
                 std::uint32_t history = models::analysis::WaitStateAnalyzer::full_history,
                 bool name_locations = true) {
  MemoryTrace trace(std::move(ranks));
  TestMachine machine(trace.rank_count());
  models::mp::MpProgram program(trace, machine, options);
  engine::Scheduler s(static_cast<std::uint32_t>(trace.rank_count()));
  models::analysis::WaitStateAnalyzer analyzer(static_cast<std::uint32_t>(trace.rank_count()), history);
  CHECK(analyzer.history() == history);
  if (name_locations) {  // as tools/runner.cpp names them: the file of MpProgram's current region
    analyzer.set_location_namer([&program](engine::LpId lp, std::int32_t) {
      const auto* r = program.current_region(lp);
      return r != nullptr ? std::string_view(r->file) : std::string_view();
    });
  }
  s.add_observer(&analyzer);
  const auto r = s.run(program);
  REQUIRE(r.outcome == engine::RunOutcome::completed);
  return Analysis{analyzer.lps(), analyzer.causes(), analyzer.explained_by_operation(), analyzer.by_operation(),
                  analyzer.sites()};
}

/// The wait site of `a` named `name`; nullptr when there is none.
const models::analysis::WaitSite* find_site(const Analysis& a, const std::string& name) {
  for (const auto& site : a.sites) {
    if (site.name == name) return &site;
  }
  return nullptr;
}

std::vector<models::analysis::LpWaits> waits(std::vector<std::vector<MpRecord>> ranks,
                                             models::mp::MpOptions options = {}) {
  return analyse(std::move(ranks), options).lps;
}

const models::analysis::WaitAmount& at(const std::vector<models::analysis::LpWaits>& w, std::size_t lp, WaitPattern p) {
  return w[lp].patterns[static_cast<std::size_t>(p)];
}

MpRecord compute_us(double us) { return rec(MpOpKind::compute, -1, 0, 0, us * 1000); }

MpRecord location(const char* file, int line) {
  MpRecord r = rec(MpOpKind::location);
  r.text = file;
  r.count = static_cast<std::uint64_t>(line);
  return r;
}

MpRecord coll(MpOpKind k, int root = 0, std::uint64_t bytes = 8) {
  MpRecord r = rec(k, -1, 0, bytes);
  r.root = root;
  return r;
}

/// Rank 1 waits 10 us for rank 2 (a long wait), then waits five times briefly for rank 3 (sends
/// every 2 us from 12 us), then sends to rank 0, which waited from 0 for all of it: rank 0's
/// indirect part reaches six of rank 1's waits back.
std::vector<std::vector<MpRecord>> six_waits_back() {
  std::vector<std::vector<MpRecord>> ranks{{rec(MpOpKind::recv, 1, 0, 10)},
                                           {rec(MpOpKind::recv, 2, 0, 10)},
                                           {compute_us(10), rec(MpOpKind::send, 1, 0, 10)},
                                           {compute_us(12)}};
  for (int i = 0; i < 5; ++i) {
    ranks[1].push_back(rec(MpOpKind::recv, 3, 0, 10));
    if (i > 0) ranks[3].push_back(compute_us(2));
    ranks[3].push_back(rec(MpOpKind::send, 1, 0, 10));
  }
  ranks[1].push_back(rec(MpOpKind::send, 0, 0, 10));
  return ranks;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("WaitStateAnalyzer finds a late sender") {
    // rank 0 receives at 0; rank 1 sends at 5 us: w = 5 us, direct (rank 1 did not wait).
    auto w = waits({{rec(MpOpKind::recv, 1, 0, 10)}, {compute_us(5), rec(MpOpKind::send, 0, 0, 10)}});
    CHECK(at(w, 0, WaitPattern::late_sender).total_s == doctest::Approx(5e-6));
    CHECK(at(w, 0, WaitPattern::late_sender).indirect_s == doctest::Approx(0.0));
    CHECK(at(w, 0, WaitPattern::late_sender).count == 1);
    CHECK(w[1].total_s() == doctest::Approx(0.0));
  }

  TEST_CASE("WaitStateAnalyzer counts a late sender's wait in the wrong order with its indirect part") {
    // Rank 3 sends to rank 1 at 4 us; rank 1 waits for it (4 us, direct), then sends to rank 0.
    // Rank 2 sends to rank 0 at 1 us. Rank 0 receives from 1 first: it waits from 0 until rank 1's
    // send (after 4 us + the 10-byte transfer), while rank 2's message, sent at 1 us, is there:
    // all of that wait is in the wrong order, 4 us of it propagated from rank 1's own wait.
    auto w = waits({{rec(MpOpKind::recv, 1, 0, 10), rec(MpOpKind::recv, 2, 0, 10)},
                    {rec(MpOpKind::recv, 3, 0, 10), rec(MpOpKind::send, 0, 0, 10)},
                    {compute_us(1), rec(MpOpKind::send, 0, 0, 10)},
                    {compute_us(4), rec(MpOpKind::send, 1, 0, 10)}});
    const auto& late = at(w, 0, WaitPattern::late_sender);
    CHECK(late.total_s > 5e-6);
    CHECK(late.count == 1);
    CHECK(w[0].wrong_order.count == 1);
    CHECK(w[0].wrong_order.total_s == late.total_s);
    CHECK(w[0].wrong_order.indirect_s == doctest::Approx(4e-6));
    CHECK(w[0].wrong_order.indirect_s == late.indirect_s);
    // Rank 1 waited for the only message sent to it: in order.
    CHECK(at(w, 1, WaitPattern::late_sender).total_s == doctest::Approx(4e-6));
    CHECK(w[1].wrong_order.count == 0);
    // Not a pattern of its own: the totals count it once, under late_sender.
    CHECK(w[0].total_s() == late.total_s);
    const auto sum = models::analysis::sum_waits(w);
    CHECK(sum.wrong_order.total_s == w[0].wrong_order.total_s);
    CHECK(sum.wrong_order.count == 1);
  }

  TEST_CASE("WaitStateAnalyzer finds a late receiver") {
    // 1000 B rendezvous sent at 0; the receive is posted at 3 us: the sender waits 3 us.
    auto w = waits({{rec(MpOpKind::send, 1, 0, 1000)}, {compute_us(3), rec(MpOpKind::recv, 0, 0, 1000)}});
    CHECK(at(w, 0, WaitPattern::late_receiver).total_s == doctest::Approx(3e-6));
    CHECK(at(w, 1, WaitPattern::late_sender).total_s == doctest::Approx(0.0));
  }

  TEST_CASE("WaitStateAnalyzer finds a late receiver through a TI wait on an isend") {
    // isend 1000 B at 0 then wait: the receive comes at 4 us: the wait on the send request is late receiver.
    auto w = waits({{rec(MpOpKind::isend, 1, 3, 1000), rec(MpOpKind::wait, 0, 3, 0, 0, 1)},
                    {compute_us(4), rec(MpOpKind::recv, 0, 3, 1000)}});
    CHECK(at(w, 0, WaitPattern::late_receiver).total_s == doctest::Approx(4e-6));
    CHECK(at(w, 0, WaitPattern::late_sender).total_s == doctest::Approx(0.0));
  }

  TEST_CASE("WaitStateAnalyzer measures waits at a barrier from the entry times") {
    // Entries at 1, 2 and 4 us: waits 3, 2 and 0 us, whichever way the barrier is priced.
    for (const char* mode : {"default", "analytic"}) {
      models::mp::MpOptions o;
      o.collectives = mode;
      auto w = waits({{compute_us(1), coll(MpOpKind::barrier)},
                      {compute_us(2), coll(MpOpKind::barrier)},
                      {compute_us(4), coll(MpOpKind::barrier)}},
                     o);
      CHECK(at(w, 0, WaitPattern::wait_at_barrier).total_s == doctest::Approx(3e-6));
      CHECK(at(w, 1, WaitPattern::wait_at_barrier).total_s == doctest::Approx(2e-6));
      CHECK(at(w, 2, WaitPattern::wait_at_barrier).count == 0);
    }
  }

  TEST_CASE("WaitStateAnalyzer finds an early reduce on the root only") {
    // Root 0 enters at 0; contributors at 2 and 5 us: the root waits 5 us; nobody else waits.
    auto w = waits(
        {{coll(MpOpKind::reduce)}, {compute_us(2), coll(MpOpKind::reduce)}, {compute_us(5), coll(MpOpKind::reduce)}});
    CHECK(at(w, 0, WaitPattern::early_reduce).total_s == doctest::Approx(5e-6));
    CHECK(w[1].total_s() == doctest::Approx(0.0));
    CHECK(w[2].total_s() == doctest::Approx(0.0));
  }

  TEST_CASE("WaitStateAnalyzer finds a late broadcast") {
    // Root 1 enters at 4 us; ranks 0 and 2 at 0 and 1 us: waits 4 and 3 us.
    auto w = waits({{coll(MpOpKind::bcast, 1)},
                    {compute_us(4), coll(MpOpKind::bcast, 1)},
                    {compute_us(1), coll(MpOpKind::bcast, 1)}});
    CHECK(at(w, 0, WaitPattern::late_broadcast).total_s == doctest::Approx(4e-6));
    CHECK(at(w, 2, WaitPattern::late_broadcast).total_s == doctest::Approx(3e-6));
    CHECK(w[1].total_s() == doctest::Approx(0.0));
  }

  TEST_CASE("WaitStateAnalyzer finds a wait at an all-to-all collective") {
    // allreduce entries at 1 and 3 us: rank 0 waits 2 us (N x N).
    auto w = waits({{compute_us(1), coll(MpOpKind::allreduce)}, {compute_us(3), coll(MpOpKind::allreduce)}});
    CHECK(at(w, 0, WaitPattern::wait_at_nxn).total_s == doctest::Approx(2e-6));
    CHECK(at(w, 1, WaitPattern::wait_at_nxn).count == 0);
    // The messages of the expanded allreduce are not counted as point-to-point waits.
    CHECK(at(w, 0, WaitPattern::late_sender).total_s == doctest::Approx(0.0));
  }

  TEST_CASE("WaitStateAnalyzer separates an indirect wait propagated across three ranks") {
    // rank 2 computes 10 us and sends 10 B to rank 1; rank 1 (posted at 0) waits 10 us: direct late
    // sender; it receives at 10 + 1 + 0.01 = 11.01 us and sends to rank 0. Rank 0, posted at 0, waits
    // w = 11.01 us, of which rank 1 spent 10 us waiting itself: indirect 10 us, direct 1.01 us.
    auto w = waits({{rec(MpOpKind::recv, 1, 0, 10)},
                    {rec(MpOpKind::recv, 2, 0, 10), rec(MpOpKind::send, 0, 0, 10)},
                    {compute_us(10), rec(MpOpKind::send, 1, 0, 10)}});
    const auto& r1 = at(w, 1, WaitPattern::late_sender);
    CHECK(r1.total_s == doctest::Approx(10e-6));
    CHECK(r1.indirect_s == doctest::Approx(0.0));
    const auto& r0 = at(w, 0, WaitPattern::late_sender);
    CHECK(r0.total_s == doctest::Approx(11.01e-6));
    CHECK(r0.indirect_s == doctest::Approx(10e-6));
    CHECK(r0.direct_s() == doctest::Approx(1.01e-6));
  }
  TEST_CASE("WaitStateAnalyzer keeps the full history up to history_limit ranks - a reduced one above") {
    using A = models::analysis::WaitStateAnalyzer;
    CHECK(A::history_for(1, false) == 16);
    CHECK(A::history_for(262144, false) == 16);
    CHECK(A::history_for(262145, false) == 4);
    CHECK(A::history_for(1000000, true) == 16);  // forced (--characteristics on)
    // 64 bytes of header + per entry a phase (16 + 2), a sync point (8 + 4) and a wait (16).
    CHECK(A::history_bytes(16) == 64 + 16 * 46);
    CHECK(A::history_bytes(4) == 64 + 4 * 46);
    CHECK_THROWS_AS(A(4, 3), std::invalid_argument);   // not a power of two
    CHECK_THROWS_AS(A(4, 32), std::invalid_argument);  // more than full_history
    CHECK_THROWS_AS(A(4, 0), std::invalid_argument);
  }
  TEST_CASE("WaitStateAnalyzer with a reduced history misses the indirect part of waits further back") {
    // six_waits_back: with 16 entries rank 0's indirect part holds rank 1's six waits; with 4
    // only the last four short ones.
    std::vector<std::vector<MpRecord>> ranks = six_waits_back();
    const Analysis full = analyse(ranks, {}, 16);
    const Analysis reduced = analyse(ranks, {}, 4);
    const auto& f1 = at(full.lps, 1, WaitPattern::late_sender);
    const auto& r1 = at(reduced.lps, 1, WaitPattern::late_sender);
    CHECK(f1.count == 6);  // rank 1's own waits do not depend on the history
    CHECK(r1.count == 6);
    CHECK(r1.total_s == f1.total_s);
    const auto& f0 = at(full.lps, 0, WaitPattern::late_sender);
    const auto& r0 = at(reduced.lps, 0, WaitPattern::late_sender);
    CHECK(r0.total_s == f0.total_s);                      // the wait itself is the same…
    CHECK(f0.indirect_s == doctest::Approx(f1.total_s));  // … all of rank 1's waiting passed on with 16 entries
    CHECK(r0.indirect_s > 0);
    CHECK(r0.indirect_s < f0.indirect_s - 9e-6);  // the 10 us wait and the first short one fell out of 4
  }

  TEST_CASE("WaitStateAnalyzer keeps the rings of many LPs on large pages with the same results") {
    // six_waits_back (indirect waits reaching 6 entries back, root causes) alone (4 LPs: 2,944
    // bytes of rings on the heap) and beside 4,000 ranks that only compute (4,004 LPs: 2.9 MB of
    // rings, over ring_pages_min_bytes, so on 2 MiB pages): the first four ranks' waits, indirect
    // parts and the causes are the same, to the bit.
    std::vector<std::vector<MpRecord>> ranks = six_waits_back();
    const Analysis alone = analyse(ranks);
    ranks.resize(4004, {compute_us(1)});
    const Analysis many = analyse(ranks);
    REQUIRE(many.lps.size() == 4004);
    for (std::size_t lp = 0; lp < 4; ++lp) {
      for (std::size_t p = 0; p < models::analysis::wait_pattern_count; ++p) {
        CHECK(many.lps[lp].patterns[p].total_s == alone.lps[lp].patterns[p].total_s);
        CHECK(many.lps[lp].patterns[p].indirect_s == alone.lps[lp].patterns[p].indirect_s);
        CHECK(many.lps[lp].patterns[p].count == alone.lps[lp].patterns[p].count);
      }
      CHECK(many.lps[lp].caused_s == alone.lps[lp].caused_s);
    }
    CHECK(at(many.lps, 0, WaitPattern::late_sender).indirect_s > 10e-6);  // six entries back: all kept
    REQUIRE(many.causes.size() == alone.causes.size());
    for (std::size_t i = 0; i < alone.causes.size(); ++i) {
      CHECK(many.causes[i].name == alone.causes[i].name);
      CHECK(many.causes[i].caused_s == alone.causes[i].caused_s);
    }
  }
}

TEST_SUITE("unit") {
  TEST_CASE("WaitStateAnalyzer blames the region that makes the last rank late") {
    // Two barriers. Phase 1 ("the start" to barrier): 1 us on rank 0, 3 us on rank 1: rank 0 waits
    // 2 us at the first barrier, caused by rank 1's excess 3 − 1 = 2 us in that region. Phase 2
    // (barrier to barrier): 1 us on rank 0, 4 us on rank 1: rank 0 waits 3 us, excess 3 us.
    auto a = analyse({{compute_us(1), coll(MpOpKind::barrier), compute_us(1), coll(MpOpKind::barrier)},
                      {compute_us(3), coll(MpOpKind::barrier), compute_us(4), coll(MpOpKind::barrier)}});
    CHECK(at(a.lps, 0, WaitPattern::wait_at_barrier).total_s == doctest::Approx(5e-6));
    REQUIRE(a.causes.size() == 2);
    CHECK(a.causes[0].name == "compute between barrier and barrier (rank 0: after barrier #1, before barrier #2)");
    CHECK(a.causes[0].caused_s == doctest::Approx(3e-6));
    CHECK(a.causes[1].name == "compute between the start and barrier (rank 0: before barrier #1)");
    CHECK(a.causes[1].caused_s == doctest::Approx(2e-6));
    // Every microsecond of barrier waiting is explained.
    const std::size_t barrier = 1 + static_cast<std::size_t>(engine::CollectiveKind::barrier);
    CHECK(a.explained[barrier] == doctest::Approx(a.by_operation[barrier].total_s));
  }

  TEST_CASE("WaitStateAnalyzer attributes a late sender to the sender's extra phase") {
    // rank 0: allreduce, compute 1 us, recv from 1; rank 1: allreduce, compute 4 us, send to 0.
    // Both leave the allreduce at about the same time t0; rank 0 posts its receive at t0 + 1 us and
    // the send starts at t0 + 4 us: w = 3 us, direct. Since the allreduce (their last synchronisation)
    // rank 1 spent 4 us in "compute between allreduce and send", a region rank 0 never ran (its own
    // phase ends at a recv: another code position): excess 4 us, of which the 3 us wait is attributed.
    auto a = analyse({{coll(MpOpKind::allreduce), compute_us(1), rec(MpOpKind::recv, 1, 0, 10)},
                      {coll(MpOpKind::allreduce), compute_us(4), rec(MpOpKind::send, 0, 0, 10)}});
    CHECK(at(a.lps, 0, WaitPattern::late_sender).total_s == doctest::Approx(3e-6));
    REQUIRE(a.causes.size() == 1);
    CHECK(a.causes[0].name == "compute between allreduce and send (rank 1: after allreduce #1, before send #1)");
    CHECK(a.causes[0].caused_s == doctest::Approx(3e-6));
    CHECK(a.causes[0].excess_s == doctest::Approx(4e-6));
  }

  TEST_CASE("WaitStateAnalyzer merges the same code position of every rank and iteration into one region") {
    // Both ranks run E, C, E, C, E: E = isend 10 B to the other rank (tag k in exchange k), irecv
    // from it, waitall; C = compute, 1 us on rank 0 and 4 us on rank 1. Messages take
    // 1 us + 10 ns = 1.01 us.
    //   E1: both send at 0, complete at 1.01 (no wait: the sends start when the waits begin).
    //   C1: rank 0 [1.01, 2.01], rank 1 [1.01, 5.01].
    //   E2: rank 0 sends at 2.01 and waits for rank 1's send at 5.01: w = 3 us, direct (rank 1 did
    //       not wait); it completes at 5.01 + 1.01 = 6.02. Rank 1's message from rank 0 arrived at
    //       3.02: it goes on at 5.01.
    //   C2: rank 0 [6.02, 7.02], rank 1 [5.01, 9.01].
    //   E3: rank 0 sends at 7.02 and waits for rank 1's send at 9.01: w = 1.99 us, direct.
    // Every C is "compute between waitall and isend", whatever the rank, its peer or the tag: one
    // region. H-CWP-DM, from the pair's last synchronisation (their previous waitall):
    //   E2: t(1, C) − t(0, C) over [1.01, 5.01] and [1.01, 2.01] = 4 − 1 = 3 us ≥ w: 3 us caused.
    //   E3: over [5.01, 9.01] and [6.02, 7.02]: excess 3 us > w = 1.99 us: 1.99 us caused.
    // Region: 4.99 us caused (all of the waiting), excess 6 us, 2 waits.
    auto rank = [](int other, double us) {
      std::vector<MpRecord> r;
      for (int k = 1; k <= 3; ++k) {
        if (k > 1) r.push_back(compute_us(us));
        r.push_back(rec(MpOpKind::isend, other, k, 10));
        r.push_back(rec(MpOpKind::irecv, other, k, 10));
        r.push_back(rec(MpOpKind::waitall));
      }
      return r;
    };
    auto a = analyse({rank(1, 1), rank(0, 4)});
    CHECK(at(a.lps, 0, WaitPattern::late_sender).total_s == doctest::Approx(4.99e-6));
    CHECK(at(a.lps, 0, WaitPattern::late_sender).count == 2);
    CHECK(a.lps[1].total_s() == doctest::Approx(0.0));
    REQUIRE(a.causes.size() == 1);
    CHECK(a.causes[0].name == "compute between waitall and isend (rank 0: after waitall #1, before isend #2)");
    CHECK(a.causes[0].caused_s == doctest::Approx(4.99e-6));
    CHECK(a.causes[0].excess_s == doctest::Approx(6e-6));
    CHECK(a.causes[0].waits == 2);
    CHECK(a.explained[0] == doctest::Approx(4.99e-6));
  }

  TEST_CASE("WaitStateAnalyzer compares from the pair's last synchronisation - not the waited-for rank's last one") {
    // rank 0 sends 10 B to rank 1 at 0 (arrives at 1.01 us); rank 1 computes 3 us, receives it at
    // once (no wait) and sends 10 B to rank 2 at 3 us; rank 2 computes 1 us and waits from 1 to
    // 3 us: late sender w = 2 us, direct. Rank 1's receive from rank 0 is no synchronisation with
    // rank 2: the interval of ranks 1 and 2 runs from the start, where rank 1 spent 3 us and rank 2
    // 1 us in "compute between the start and recv": excess 2 us, all of the wait.
    auto a = analyse({{rec(MpOpKind::send, 1, 0, 10)},
                      {compute_us(3), rec(MpOpKind::recv, 0, 0, 10), rec(MpOpKind::send, 2, 0, 10)},
                      {compute_us(1), rec(MpOpKind::recv, 1, 0, 10)}});
    CHECK(at(a.lps, 2, WaitPattern::late_sender).total_s == doctest::Approx(2e-6));
    CHECK(at(a.lps, 2, WaitPattern::late_sender).indirect_s == doctest::Approx(0.0));
    REQUIRE(a.causes.size() == 1);
    CHECK(a.causes[0].name == "compute between the start and recv (rank 1: before recv #1)");
    CHECK(a.causes[0].caused_s == doctest::Approx(2e-6));
    CHECK(a.causes[0].excess_s == doctest::Approx(2e-6));
  }

  TEST_CASE("WaitStateAnalyzer pools the waiting of the same call position of every rank and iteration") {
    // Two iterations of: rank 0 receives from rank 1 then enters a barrier; rank 1 computes 5 us,
    // sends, computes 3 us, enters the barrier; rank 2 computes 1 us and enters the barrier.
    // Rank 0 waits 5 us per iteration in "recv" (after the start, then after the barrier), ranks
    // 0 and 2 wait at "barrier after recv" / "barrier after compute…": positions are the pair of
    // call kinds, so iteration 2's receive (after a barrier) is a position of its own.
    const std::vector<MpRecord> r0 = {rec(MpOpKind::recv, 1, 0, 10), coll(MpOpKind::barrier),
                                      rec(MpOpKind::recv, 1, 0, 10), coll(MpOpKind::barrier)};
    const std::vector<MpRecord> r1 = {
        compute_us(5), rec(MpOpKind::send, 0, 0, 10), compute_us(3), coll(MpOpKind::barrier),
        compute_us(5), rec(MpOpKind::send, 0, 0, 10), compute_us(3), coll(MpOpKind::barrier)};
    const std::vector<MpRecord> r2 = {compute_us(1), coll(MpOpKind::barrier), compute_us(1), coll(MpOpKind::barrier)};
    auto a = analyse({r0, r1, r2});
    // Every wait is at some position, once: the positions add up to the patterns.
    double by_sites = 0, by_lps = 0;
    std::uint64_t count = 0;
    for (const auto& site : a.sites) {
      by_sites += site.total_s();
      count += site.count();
    }
    for (const auto& l : a.lps) by_lps += l.total_s();
    CHECK(by_sites == doctest::Approx(by_lps));
    CHECK(count ==
          models::analysis::sum_waits(a.lps).patterns[0].count + models::analysis::sum_waits(a.lps).patterns[2].count);
    auto find = [&](const std::string& name) { return find_site(a, name); };
    // Rank 0's first receive: 5 us late sender; its second, after the barrier, 5 us again.
    const auto* first = find("recv after the start (rank 0: recv #1)");
    REQUIRE(first != nullptr);
    CHECK(first->patterns[0].total_s == doctest::Approx(5e-6));
    CHECK(first->count() == 1);
    const auto* second = find("recv after barrier (rank 0: recv #2)");
    REQUIRE(second != nullptr);
    CHECK(second->patterns[0].total_s == doctest::Approx(at(a.lps, 0, WaitPattern::late_sender).total_s - 5e-6));
    // Both barriers of rank 0 follow a receive: one position, named by its first occurrence; rank
    // 2's barriers follow the start and a barrier.
    const auto* barrier = find("barrier after recv (rank 0: barrier #1)");
    REQUIRE(barrier != nullptr);
    CHECK(barrier->patterns[2].total_s == doctest::Approx(at(a.lps, 0, WaitPattern::wait_at_barrier).total_s));
    CHECK(barrier->patterns[2].count == 2);
    REQUIRE(find("barrier after the start (rank 2: barrier #1)") != nullptr);
    REQUIRE(find("barrier after barrier (rank 2: barrier #2)") != nullptr);
    // Sorted by waiting, largest first.
    for (std::size_t i = 1; i < a.sites.size(); ++i) CHECK(a.sites[i - 1].total_s() >= a.sites[i].total_s());
  }

  TEST_CASE("WaitStateAnalyzer numbers the calls of a program with more than seven kinds of call") {
    // Seven collective kinds first (the counters an LP keeps in its header), then receives and
    // sends, the eighth and ninth kinds (counted apart): rank 0 waits 5 us or more in each receive
    // for rank 1's computation; the names number the calls per kind all the same.
    std::vector<MpRecord> r0, r1;
    for (MpOpKind k : {MpOpKind::barrier, MpOpKind::bcast, MpOpKind::reduce, MpOpKind::allreduce, MpOpKind::allgather,
                       MpOpKind::alltoall, MpOpKind::scan}) {
      r0.push_back(coll(k));
      r1.push_back(coll(k));
    }
    for (auto* r : {&r0, &r1}) {
      const bool sender = r == &r1;
      for (int i = 0; i < 2; ++i) {
        if (i == 1) r->push_back(coll(MpOpKind::barrier));
        if (sender) {
          r->push_back(compute_us(5));
          r->push_back(rec(MpOpKind::send, 0, 0, 10));
        } else {
          r->push_back(rec(MpOpKind::recv, 1, 0, 10));
        }
      }
    }
    auto a = analyse({r0, r1});
    auto find = [&](const std::string& name) { return find_site(a, name); };
    const auto* first = find("recv after scan (rank 0: recv #1)");
    REQUIRE(first != nullptr);
    CHECK(first->count() == 1);
    CHECK(first->patterns[0].total_s >= 5e-6);
    const auto* second = find("recv after barrier (rank 0: recv #2)");
    REQUIRE(second != nullptr);
    CHECK(second->count() == 1);
    CHECK(second->patterns[0].total_s >= 5e-6);
    // The causes: rank 1's computations before its sends (send #1 after scan #1; send #2 after
    // barrier #2, its second barrier).
    std::vector<std::string> causes;
    for (const auto& c : a.causes) causes.push_back(c.name);
    CHECK(std::find(causes.begin(), causes.end(),
                    "compute between scan and send (rank 1: after scan #1, before send #1)") != causes.end());
    CHECK(std::find(causes.begin(), causes.end(),
                    "compute between barrier and send (rank 1: after barrier #2, before send #2)") != causes.end());
  }

  TEST_CASE("WaitStateAnalyzer names the `location` region a rank waits in") {
    // rank 0: location solve.c 42, recv from rank 1 (rank 1 computes 2 us first): 2 us waited in solve.c:42.
    auto a = analyse(
        {{location("solve.c", 42), rec(MpOpKind::recv, 1, 0, 10)}, {compute_us(2), rec(MpOpKind::send, 0, 0, 10)}});
    REQUIRE(a.sites.size() == 1);
    CHECK(a.sites[0].name == "solve.c:42");
    CHECK(a.sites[0].patterns[0].total_s == doctest::Approx(2e-6));
  }

  TEST_CASE("WaitStateAnalyzer blames a late receiver on the receiver's phase before its receive") {
    // The late receiver of "finds a late receiver": rank 0's 1000 B rendezvous send waits 3 us for
    // rank 1's receive. The cause is rank 1's "compute between the start and recv", 3 us (rank 0
    // computed nothing since the start): excess 3 us, all of the wait.
    auto a = analyse({{rec(MpOpKind::send, 1, 0, 1000)}, {compute_us(3), rec(MpOpKind::recv, 0, 0, 1000)}});
    CHECK(at(a.lps, 0, WaitPattern::late_receiver).total_s == doctest::Approx(3e-6));
    REQUIRE(a.causes.size() == 1);
    CHECK(a.causes[0].name == "compute between the start and recv (rank 1: before recv #1)");
    CHECK(a.causes[0].caused_s == doctest::Approx(3e-6));
    CHECK(a.explained[0] == doctest::Approx(3e-6));
  }

  TEST_CASE("WaitStateAnalyzer blames the `location` region of the late sender's extra computation") {
    // rank 0: location a.c 10, compute 1 us, location b.c 10, compute 3 us, recv 10 B from rank 1;
    // rank 1: location a.c 10, compute 4 us, location b.c 10, compute 1 us, send 10 B to rank 0.
    // Rank 0 posts its receive at 4 us, rank 1's send starts at 5 us: late sender w = 1 us, direct.
    // No synchronisation before: the interval runs from the start. Per region, t(1) − t(0):
    //   a.c:10: 4 − 1 = 3 us (counted), b.c:10: 1 − 3 = −2 us (not counted).
    // Excess 3 us > w: a.c:10 causes all of the 1 us wait (factor 1/3), excess 3 us. The two
    // regions share a line but not a file: keyed by the line alone they would be one region with
    // excess (4 + 1) − (1 + 3) = 1 us.
    auto a = analyse(
        {{location("a.c", 10), compute_us(1), location("b.c", 10), compute_us(3), rec(MpOpKind::recv, 1, 0, 10)},
         {location("a.c", 10), compute_us(4), location("b.c", 10), compute_us(1), rec(MpOpKind::send, 0, 0, 10)}});
    CHECK(at(a.lps, 0, WaitPattern::late_sender).total_s == doctest::Approx(1e-6));
    CHECK(at(a.lps, 0, WaitPattern::late_sender).indirect_s == doctest::Approx(0.0));
    REQUIRE(a.causes.size() == 1);
    CHECK(a.causes[0].name == "a.c:10");
    CHECK(a.causes[0].caused_s == doctest::Approx(1e-6));
    CHECK(a.causes[0].excess_s == doctest::Approx(3e-6));
    CHECK(a.causes[0].waits == 1);
    CHECK(a.explained[0] == doctest::Approx(1e-6));
  }

  TEST_CASE("WaitStateAnalyzer keeps the call-pair phase for computation before the first `location`") {
    // rank 0: allreduce, compute 1 us, location a.c 10, compute 2 us, recv 10 B from rank 1;
    // rank 1: allreduce, compute 4 us, location a.c 10, compute 2 us, send 10 B to rank 0.
    // Both leave the allreduce at the same time t0 (their last synchronisation); rank 0 posts its
    // receive at t0 + 3 us, rank 1's send starts at t0 + 6 us: w = 3 us, direct. Per region:
    //   "compute between allreduce and location" (unmarked, ended by the `location`): 4 − 1 = 3 us;
    //   a.c:10: 2 − 2 = 0 (not counted).
    // The unmarked phase causes the whole 3 us, excess 3 us.
    auto a = analyse(
        {{coll(MpOpKind::allreduce), compute_us(1), location("a.c", 10), compute_us(2), rec(MpOpKind::recv, 1, 0, 10)},
         {coll(MpOpKind::allreduce), compute_us(4), location("a.c", 10), compute_us(2),
          rec(MpOpKind::send, 0, 0, 10)}});
    CHECK(at(a.lps, 0, WaitPattern::late_sender).total_s == doctest::Approx(3e-6));
    REQUIRE(a.causes.size() == 1);
    CHECK(a.causes[0].name ==
          "compute between allreduce and location (rank 0: after allreduce #1, before location #1)");
    CHECK(a.causes[0].caused_s == doctest::Approx(3e-6));
    CHECK(a.causes[0].excess_s == doctest::Approx(3e-6));
    CHECK(a.causes[0].waits == 1);
  }

  TEST_CASE("WaitStateAnalyzer ends a `location` region at the next one - the region's calls do not end it") {
    // Both ranks: location a.c 10, compute, barrier, compute, location a.c 20, compute, barrier.
    // rank 0: 1, 1, 1 us; rank 1: 1, 3, 2 us (a.c:10 runs across the first barrier).
    //   barrier 1: both enter at 1 us, no wait.
    //   barrier 2 (interval from barrier 1): a.c:10 3 − 1 = 2 us, a.c:20 2 − 1 = 1 us; rank 0 waits
    //   (3 + 2) − (1 + 1) = 3 us: a.c:10 causes 2 us, a.c:20 1 us (excesses 2 and 1 us add up to w).
    // Without a namer (a.c unknown) the regions are named by their lines.
    auto ranks = [](double second, double third) {
      return std::vector<MpRecord>{location("a.c", 10), compute_us(1),     coll(MpOpKind::barrier), compute_us(second),
                                   location("a.c", 20), compute_us(third), coll(MpOpKind::barrier)};
    };
    for (const bool named : {true, false}) {
      CAPTURE(named);
      auto a = analyse({ranks(1, 1), ranks(3, 2)}, {}, models::analysis::WaitStateAnalyzer::full_history, named);
      CHECK(at(a.lps, 0, WaitPattern::wait_at_barrier).total_s == doctest::Approx(3e-6));
      REQUIRE(a.causes.size() == 2);
      CHECK(a.causes[0].name == (named ? "a.c:10" : "line 10"));
      CHECK(a.causes[0].caused_s == doctest::Approx(2e-6));
      CHECK(a.causes[1].name == (named ? "a.c:20" : "line 20"));
      CHECK(a.causes[1].caused_s == doctest::Approx(1e-6));
    }
  }
}
