// OTF2 traces replayed by `augur run`: the traces recorded here with EZTrace (tests/data/otf2,
// tools/otf2/record.sh) and an archive written event by event whose prediction is computed by hand.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"
#include "tests/traces/otf2_test_archive.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path scratch = fs::path(AUGUR_SCRATCH_DIR) / "otf2-replay";

/// Unpacks tests/data/otf2/NAME.tar.zst into the scratch folder; the anchor file's path.
std::string recorded(const std::string& name) {
  fs::create_directories(scratch);
  const std::string archive = std::string(AUGUR_SOURCE_DIR) + "/tests/data/otf2/" + name + ".tar.zst";
  const std::string cmd = "tar --zstd -xf '" + archive + "' -C '" + scratch.string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return (scratch / name / "traces.otf2").string();
}

/// `augur run` on `spec`; the totals of its JSON report.
nlohmann::json totals(const std::string& spec, const std::string& name) {
  const fs::path json = scratch / (name + ".json");
  const auto run = augur::test::run_augur("run --trace 'otf2:" + spec + "' --json '" + json.string() + "'");
  REQUIRE_MESSAGE(run.status == 0, run.err);
  const auto report = nlohmann::json::parse(augur::test::slurp(json));
  const auto& variant = report.at("variants").at(0);
  CHECK(variant.at("outcome") == "completed");
  return variant.at("totals");
}

}  // namespace

TEST_SUITE("tools") {
  TEST_CASE("OTF2: the ping-pong recorded with EZTrace replays its messages") {
    const auto t = totals(recorded("ping_pong"), "ping_pong");
    // 5 sizes (1, 4, 16, 64, 256 KiB) x 4 round trips: 20 messages each way.
    CHECK(t.at("messages_sent") == 40);
    CHECK(t.at("bytes_sent") == 2 * 4 * (1024 + 4096 + 16384 + 65536 + 262144));
    CHECK(t.at("collectives") == 0);
  }

  TEST_CASE("OTF2: the 2-D stencil recorded with EZTrace replays its halos and allreduces") {
    const auto t = totals(recorded("stencil2d"), "stencil2d");
    // 2 x 2 grid: each rank has 2 neighbours; 20 iterations of one 96-double halo to each, and
    // 4 allreduces of 8 bytes, which the default algorithm runs as 6 messages on 4 ranks.
    CHECK(t.at("messages_sent") == 4 * 2 * 20 + 4 * 6);
    CHECK(t.at("bytes_sent") == 4 * 2 * 20 * 768 + 4 * 6 * 8);
    CHECK(t.at("collectives") == 4 * 4);
  }

  TEST_CASE("OTF2: the kernels after PRK Transpose - PRK Synch_p2p and NPB CG replay their messages") {
    // PRK Transpose, 4 ranks, order 256: blocks of 64 x 64 doubles (32,768 B), 3 phases x 8
    // iterations per rank; a final 8-B reduce (binomial: 3 messages).
    auto t = totals(recorded("prk_transpose"), "prk_transpose");
    CHECK(t.at("messages_sent") == 4 * 3 * 8 + 3);
    CHECK(t.at("bytes_sent") == 4 * 3 * 8 * 32768 + 3 * 8);
    CHECK(t.at("collectives") == 4);
    // PRK Synch_p2p, 4 ranks, 64 rows: rows 1..63 pass one double right from ranks 0-2, and the
    // corner goes back from 3 to 0, per sweep, 4 sweeps; a final 8-B bcast from 3 (3 messages).
    t = totals(recorded("prk_p2p"), "prk_p2p");
    CHECK(t.at("messages_sent") == 4 * (3 * 63 + 1) + 3);
    CHECK(t.at("bytes_sent") == 8 * (4 * (3 * 63 + 1) + 3));
    CHECK(t.at("collectives") == 4);
    // NPB-style CG, 4 ranks, 16,384 rows: one allreduce before 15 iterations of an allgather of
    // 4,096 doubles per rank (the default algorithm: 12 messages of 32,768 B) and 2 allreduces
    // of 8 B (6 messages each).
    t = totals(recorded("npb_cg"), "npb_cg");
    CHECK(t.at("messages_sent") == 31 * 6 + 15 * 12);
    CHECK(t.at("bytes_sent") == 31 * 6 * 8 + 15 * 12 * 32768);
    CHECK(t.at("collectives") == 4 * (1 + 15 * 3));
  }

  TEST_CASE("OTF2: the sub-communicator program replays its row - column and duplicate collectives") {
    const fs::path json = scratch / "subcomm.json";
    const auto run =
        augur::test::run_augur("run --trace 'otf2:" + recorded("subcomm") + "' --json '" + json.string() + "'");
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const auto variant = nlohmann::json::parse(augur::test::slurp(json)).at("variants").at(0);
    REQUIRE(variant.at("outcome") == "completed");
    const auto& t = variant.at("totals");
    // 4 ranks, rows {0,1} {2,3}, columns {0,2} {1,3}, 5 iterations. Per iteration, with the default
    // algorithms: a 4096-B binomial bcast per row (1 message each), a 64-B reduce per column (1
    // message each), a barrier on the world's duplicate (6 empty messages) and a 1024-B allreduce
    // on it (reduce to 0: 3 messages, binomial bcast: 3) — 16 messages, 2·4096 + 2·64 + 6·1024 B.
    CHECK(t.at("messages_sent") == 5 * 16);
    CHECK(t.at("bytes_sent") == 5 * (2 * 4096 + 2 * 64 + 6 * 1024));
    CHECK(t.at("collectives") == 5 * 4 * 4);
    // Messages sent per iteration: rank 0 roots its row's bcast (1), the barrier's release (3),
    // and sends to 2 and 1 in the allreduce's bcast (2); rank 1 sends to the barrier and the
    // allreduce's reduce; rank 2 roots its row (1), contributes to its column's reduce, the
    // barrier and the allreduce's reduce, and forwards the bcast to 3; rank 3 sends to its
    // column's root, the barrier and the reduce.
    const auto& ranks = variant.at("processors");
    const std::vector<int> sent{6, 2, 5, 3};
    for (std::size_t r = 0; r < 4; ++r) CHECK(ranks.at(r).at("messages_sent") == 5 * sent[r]);
    // Rank r computes work(100000·(r+1)) before each round: compute grows with the rank.
    for (std::size_t r = 1; r < 4; ++r)
      CHECK(ranks.at(r).at("compute_s").get<double>() > ranks.at(r - 1).at("compute_s").get<double>());
    // Rank 3, the slowest, sets the pace: the run lasts its compute (2.496 ms recorded) plus
    // little more, and it waits least. The figure pinned is this build's prediction on the
    // default machine (platform_cluster_64, recorded compute replayed as is).
    const double slowest = ranks.at(3).at("compute_s").get<double>();
    CHECK(slowest == doctest::Approx(2.496342e-3).epsilon(1e-6));
    CHECK(t.at("end_s").get<double>() == doctest::Approx(2.6305712e-3).epsilon(1e-6));
    CHECK(t.at("end_s").get<double>() < 1.1 * slowest);
    for (std::size_t r = 0; r < 3; ++r)
      CHECK(ranks.at(r).at("wait_s").get<double>() > ranks.at(3).at("wait_s").get<double>());
  }

  TEST_CASE("OTF2: a rendezvous send after recorded compute - predicted by hand") {
    augur::test::Otf2TestArchive a(scratch / "rendezvous", 2);
    const auto main = a.region("main", 3), send = a.region("MPI_Send"), recv = a.region("MPI_Recv");
    // From main's start at 0, rank 0 computes 1 µs (1,000 ticks of 1 ns) then sends 1 MB; rank 1
    // computes 5 µs, then receives; both leave main as their call ends (no compute after it).
    a.enter(0, 0, main);
    a.enter(1, 0, main);
    a.enter(0, 1000, send);
    OTF2_EvtWriter_MpiSend(a.rank(0), nullptr, 1001, 1, 0, 0, 1000000);
    a.leave(0, 9000, send);
    a.enter(1, 5000, recv);
    OTF2_EvtWriter_MpiRecv(a.rank(1), nullptr, 8000, 0, 0, 0, 1000000);
    a.leave(1, 9000, recv);
    a.leave(0, 9000, main);
    a.leave(1, 9000, main);
    const std::string anchor = a.close();
    const auto t = totals(anchor, "rendezvous");
    // platform_cluster_64: 1 Gflops, so recorded compute replays as is (recorded_on 1e9). 1 MB is
    // above the 64 KiB eager threshold: the transfer starts when the receive is posted (5 µs)
    // and lasts latency + bytes / bandwidth = 1 µs + 1e6 B / 1e10 B/s = 101 µs.
    CHECK(t.at("end_s").get<double>() == doctest::Approx(106e-6).epsilon(1e-9));
  }

  TEST_CASE("OTF2: messages on a sub-communicator match by communicator - source and tag - by hand") {
    augur::test::Otf2TestArchive a(scratch / "p2p-comm", 2);
    // Communicator 1 holds the world ranks in reverse order: its rank 0 is world rank 1.
    const auto reversed = a.comm({1, 0});
    const auto isend = a.region("MPI_Isend"), send = a.region("MPI_Send"), wait = a.region("MPI_Wait"),
               recv = a.region("MPI_Recv");
    // Rank 0 at 0: isend 1 MB on `reversed` to its rank 0 (world 1), tag 5; send 8 B on the world
    // to 1, tag 5; wait for the isend.
    a.enter(0, 0, isend);
    OTF2_EvtWriter_MpiIsend(a.rank(0), nullptr, 0, 0, reversed, 5, 1000000, 77);
    a.leave(0, 0, isend);
    a.enter(0, 0, send);
    OTF2_EvtWriter_MpiSend(a.rank(0), nullptr, 0, 1, 0, 5, 8);
    a.leave(0, 0, send);
    a.enter(0, 0, wait);
    OTF2_EvtWriter_MpiIsendComplete(a.rank(0), nullptr, 0, 77);
    a.leave(0, 0, wait);
    // Rank 1: receive 8 B from world rank 0 tag 5, compute 10 µs (10,000 ticks), receive 1 MB
    // on `reversed` from its rank 1 (world 0), tag 5.
    a.enter(1, 0, recv);
    OTF2_EvtWriter_MpiRecv(a.rank(1), nullptr, 0, 0, 0, 5, 8);
    a.leave(1, 0, recv);
    a.enter(1, 10000, recv);
    OTF2_EvtWriter_MpiRecv(a.rank(1), nullptr, 10000, 1, reversed, 5, 1000000);
    a.leave(1, 10000, recv);
    const auto t = totals(a.close(), "p2p-comm");
    // platform_cluster_64 (1 µs latency, 1e10 B/s, eager up to 64 KiB): the world receive takes
    // the 8-B message, eager, there at 1 µs + 8 B / 1e10 B/s = 1.0008 µs; 10 µs of compute; the
    // 1-MB receive is posted at 11.0008 µs, the rendezvous transfer starts then and lasts 1 µs +
    // 100 µs: both ranks end at 112.0008 µs. Matching by (source, tag) alone, the world receive
    // would take the 1-MB message (the first sent) and the run end near 111 µs.
    CHECK(t.at("end_s").get<double>() == doctest::Approx(112.0008e-6).epsilon(1e-9));
    CHECK(t.at("bytes_sent") == 1000008);
  }
}
