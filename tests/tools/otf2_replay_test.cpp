// OTF2 traces replayed by `augur run`: the traces recorded here with EZTrace (tests/data/otf2,
// tools/otf2/record.sh) and an archive written event by event whose prediction is computed by hand.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

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

  TEST_CASE("OTF2: the sub-communicator program stops at its first row broadcast, with a clear error") {
    const std::string anchor = recorded("subcomm");
    const auto run = augur::test::run_augur("run --trace 'otf2:" + anchor + "'");
    CHECK(run.status == 2);
    CHECK(run.out.find("MPI_Bcast on a communicator of 2 of the 4 ranks: collectives on sub-communicators are not "
                       "replayed yet") != std::string::npos);
  }

  TEST_CASE("OTF2: a rendezvous send after recorded compute, predicted by hand") {
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
}
