// TI conversions of recorded OTF2 traces (EZTrace's npb_cg, Score-P's ping-pong) replayed by augur
// on the platform file and hostfile given to SimGrid 3.32's `smpirun -replay`, against smpirun's
// figures; the allgather and the detached-send threshold that decide them, by hand.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path scratch = fs::path(AUGUR_SCRATCH_DIR) / "otf2-simgrid";
/// tests/data/ti/npb_cg: `augur convert` of tests/data/otf2/npb_cg, with the 4-host <cluster>
/// (1 Gflop/s, 10 GB/s and 0.5 us per private link) and hostfile of tools/validate/validate.sh.
const fs::path npb_cg = fs::path(AUGUR_SOURCE_DIR) / "tests/data/ti/npb_cg";
const std::string cm02 = " --cfg=network/model:CM02 --cfg=network/crosstraffic:0";

/// augur's predicted end (seconds, from the JSON report NAME.json) of the TI trace `trace` with
/// `rest`. (Test cases run as concurrent processes: each names its own report.)
double end_s(const fs::path& trace, const std::string& rest, const std::string& name) {
  fs::create_directories(scratch);
  const fs::path json = scratch / (name + ".json");
  const auto r = augur::test::run_augur("run --trace 'ti:" + trace.string() + "' " + rest +
                                        " --wait-states off --characteristics off --json '" + json.string() + "'");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  return nlohmann::json::parse(augur::test::slurp(json)).at("variants").at(0).at("totals").at("end_s").get<double>();
}

std::string on_platform(const fs::path& dir) {
  return "--machine '" + (dir / "platform.xml").string() + "' --hostfile '" + (dir / "hostfile").string() + "'";
}

}  // namespace

TEST_SUITE("tools") {
  TEST_CASE("OTF2 to TI: the recorded NPB-CG kernel replays as smpirun on the same platform file") {
    // The kept TI files are what `augur convert` makes of the recorded archive today.
    const fs::path out = scratch / "npb_cg";
    fs::remove_all(out);
    fs::create_directories(scratch);
    const std::string cmd = "tar --zstd -xf '" + std::string(AUGUR_SOURCE_DIR) +
                            "/tests/data/otf2/npb_cg.tar.zst' -C '" + scratch.string() + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const auto c = augur::test::run_augur("convert 'otf2:" + (scratch / "npb_cg/traces.otf2").string() + "' '" +
                                          (scratch / "npb_cg-ti").string() + "'");
    REQUIRE_MESSAGE(c.status == 0, c.err);
    for (const char* f : {"trace.txt", "rank0.txt", "rank1.txt", "rank2.txt", "rank3.txt"})
      CHECK(augur::test::slurp(scratch / "npb_cg-ti" / f) == augur::test::slurp(npb_cg / f));
    // cd tests/data/ti/npb_cg && smpirun -no-privatize -np 4 -platform platform.xml -hostfile
    //   hostfile -replay trace.txt [--cfg=network/model:CM02 --cfg=network/crosstraffic:0]:
    // "Simulated time: 0.00068117" (CM02), "0.000883545" (SMPI, the default model).
    const fs::path trace = npb_cg / "trace.txt";
    CHECK(end_s(trace, on_platform(npb_cg) + cm02, "npb_cg-cm02") == doctest::Approx(0.00068117).epsilon(1e-5));
    CHECK(end_s(trace, on_platform(npb_cg), "npb_cg-smpi") == doctest::Approx(0.000883545).epsilon(1e-5));
  }

  TEST_CASE("one allgather of 32 KiB per rank on 4 hosts: fair sharing by hand - FIFO links differ") {
    const fs::path dir = scratch / "allgather";
    fs::create_directories(dir);
    std::string list;
    for (int r = 0; r < 4; ++r) {
      const std::string n = std::to_string(r);
      augur::test::write_file((dir / ("rank" + n + ".txt")).string(),
                              n + " init\n" + n + " allgather 32768 32768 6 6\n" + n + " finalize\n");
      list += "rank" + n + ".txt\n";
    }
    augur::test::write_file((dir / "trace.txt").string(), list);
    // SimGrid's default allgather posts an isend and an irecv to every other rank at once: each
    // private link carries 3 flows each way, each at 10 GB/s / 3. A message is 32,768 + 16 B
    // (SMPI's envelope): 2 x 0.5 us + 3 x 32,784 B / 1e10 B/s = 10.8352 us. smpirun (CM02):
    // "Simulated time: 1.08352e-05 seconds".
    CHECK(end_s(dir / "trace.txt", on_platform(npb_cg) + cm02, "allgather-cm02") ==
          doctest::Approx(10.8352e-6).epsilon(1e-9));
    // The same cluster as a loggp_smp machine (1 us, 10 GB/s, no envelope): `fair` links share
    // as above, 1 us + 3 x 3.2768 us = 10.8304 us. `fifo` links make each message hold its
    // sender's up-link and its receiver's down-link together for W = 32,768 B / 1e10 B/s =
    // 3.2768 us from the time both are free, reserved in the order the messages match: the 12
    // messages then take 5 rounds instead of 3, 1 us + 5 W = 17.384 us. That model, not the
    // allgather's algorithm, made validate.sh's earlier loggp_smp figure for npb_cg 9 % high.
    const fs::path machine = dir / "machine.yaml";
    const auto loggp = [&](const std::string& contention) {
      augur::test::write_file(machine.string(),
                              "schema_version: 1\nmodel: loggp_smp\ncpu_speed: 1Gflops\nlatency: 1us\n"
                              "bandwidth: 10GBps\noverhead: 0s\ngap: 0s\nmtu: 0\nprocesses_per_node: 1\n"
                              "intra_node_latency: 0s\nintra_node_bandwidth: 10GBps\neager_threshold: 65535B\n"
                              "link_contention: " +
                                  contention + "\n");
      return end_s(dir / "trace.txt", "--machine '" + machine.string() + "'", "allgather-" + contention);
    };
    CHECK(loggp("fair") == doctest::Approx(10.8304e-6).epsilon(1e-9));
    CHECK(loggp("fifo") == doctest::Approx(17.384e-6).epsilon(1e-9));
  }

  TEST_CASE("Score-P's ping-pong as TI replays as smpirun - a 64-KiB send is rendezvous as in SMPI") {
    // ../shared/otf2-samples/ping-pong-otf2 (Score-P, 2 ranks, 16 KiB to 2 MiB) converted to TI
    // and replayed on the 2 first hosts of the cluster: smpirun -np 2 "Simulated time: 0.00385918"
    // (CM02), "0.00405318" (SMPI). Its 64-KiB messages are rendezvous in SMPI (a send is detached
    // when smaller than smpi/send-is-detached-thresh, 65,536 B): taken as eager, augur was
    // 7.6 us (0.2 %) short, the transfer of one 64-KiB message.
    const fs::path ti = scratch / "scorep-ping-pong";
    fs::remove_all(ti);
    const auto c = augur::test::run_augur("convert 'otf2:" + std::string(AUGUR_SHARED_DIR) +
                                          "/otf2-samples/ping-pong-otf2/traces.otf2' '" + ti.string() + "'");
    REQUIRE_MESSAGE(c.status == 0, c.err);
    augur::test::write_file((ti / "hostfile").string(), "node-0\nnode-1\n");
    const std::string m =
        "--machine '" + (npb_cg / "platform.xml").string() + "' --hostfile '" + (ti / "hostfile").string() + "'";
    CHECK(end_s(ti / "trace.txt", m + cm02, "scorep-cm02") == doctest::Approx(0.00385918).epsilon(1e-6));
    CHECK(end_s(ti / "trace.txt", m, "scorep-smpi") == doctest::Approx(0.00405318).epsilon(1e-6));
    // By hand: rank 1 sends 65,536 B to rank 0, which posts its receive after 50 us of compute;
    // rendezvous, the transfer starts then and lasts 2 x 0.5 us + 65,552 B / 1e10 B/s = 7.5552 us;
    // rank 1 then computes 100 us: 157.5552 us (smpirun, CM02: 0.000157555). Eager, rank 1
    // would end at 100 us. 65,535 B stays eager: the run is rank 1's 100 us (smpirun: 0.0001).
    const auto send_then_compute = [&](const std::string& bytes) {
      const fs::path dir = scratch / ("send-" + bytes);
      fs::create_directories(dir);
      augur::test::write_file((dir / "rank0.txt").string(),
                              "0 init\n0 compute 50000\n0 recv 1 20 " + bytes + " 6\n0 finalize\n");
      augur::test::write_file((dir / "rank1.txt").string(),
                              "1 init\n1 send 0 20 " + bytes + " 6\n1 compute 100000\n1 finalize\n");
      augur::test::write_file((dir / "trace.txt").string(), "rank0.txt\nrank1.txt\n");
      return end_s(dir / "trace.txt", m + cm02, "send-" + bytes);
    };
    CHECK(send_then_compute("65536") == doctest::Approx(157.5552e-6).epsilon(1e-9));
    CHECK(send_then_compute("65535") == doctest::Approx(100e-6).epsilon(1e-9));
  }
}
