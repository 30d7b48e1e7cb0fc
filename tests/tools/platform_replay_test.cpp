// TI traces replayed on SimGrid platform files (`--machine FILE.xml --hostfile H --cfg=…`)
// against SimGrid 3.32's `smpirun -replay` on the same files: SimGrid's small_platform.xml
// (routed, heterogeneous, shared links), the sample <cluster>, and TORUS, FAT_TREE and DRAGONFLY
// clusters; and the errors of broken files and options (exit status 2).
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "tests/tools/run_augur.hpp"

using augur::test::run_augur;

namespace {

const std::string shared = AUGUR_SHARED_DIR;
const std::string fixtures = std::string(AUGUR_SOURCE_DIR) + "/tests/machines/fixtures/platform/";
/// SimGrid's examples/platforms/small_platform.xml and the hostfile of its replay example.
const std::string small = shared + "/simgrid-tesh/cases/replay_isend/";
const std::string cm02 = " --cfg=network/model:CM02 --cfg=network/crosstraffic:0";

/// augur's predicted time for TRACE (a ti-samples folder) with the options `rest`.
double predicted(const std::string& trace, const std::string& rest) {
  const auto r = run_augur("run --trace ti:" + shared + "/ti-samples/" + trace + "/trace.txt " + rest +
                           " --wait-states off --characteristics off");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const auto at = r.out.find("predicted time ");
  REQUIRE(at != std::string::npos);
  return std::strtod(r.out.c_str() + at + 15, nullptr);
}

}  // namespace

TEST_SUITE("integration") {
  TEST_CASE("SimGrid's small_platform.xml: routes over shared links - hosts of different speeds") {
    // cd ti-samples/T && zstd -dq rank*.txt.zst && smpirun -np 4 -platform small_platform.xml
    //   -hostfile hostfile -replay trace.txt [--cfg=network/model:CM02 --cfg=network/crosstraffic:0]
    // (ranks on Tremblay, Jupiter, Fafard, Ginette): "Simulation time" below.
    const std::string m = "--machine " + small + "platform.xml --hostfile " + small + "hostfile --processors 4";
    CHECK(predicted("prk-stencil-4", m) == doctest::Approx(40.052168).epsilon(1e-4));
    CHECK(predicted("prk-stencil-4", m + cm02) == doctest::Approx(38.148599).epsilon(1e-4));
    CHECK(predicted("prk-transpose-4", m) == doctest::Approx(199.955309).epsilon(1e-5));
    CHECK(predicted("prk-transpose-4", m + cm02) == doctest::Approx(180.503606).epsilon(1e-5));
    CHECK(predicted("prk-p2p-4", m) == doctest::Approx(77.305995).epsilon(1e-3));
    CHECK(predicted("prk-p2p-4", m + cm02) == doctest::Approx(38.891154).epsilon(1e-3));
  }

  TEST_CASE("SimGrid's own replay cases on small_platform.xml (../shared/simgrid-tesh)") {
    // cases/C: $(cat smpirun.txt), SimGrid's "Simulation time" in simgrid.out (= the .tesh files')
    const auto tesh = [](const std::string& c, const std::string& trace, const std::string& rest) {
      const std::string dir = shared + "/simgrid-tesh/cases/" + c + "/";
      const auto r = run_augur("run --trace ti:" + dir + trace + " --machine " + dir + "platform.xml --hostfile " +
                               dir + "hostfile " + rest + " --wait-states off --characteristics off");
      REQUIRE_MESSAGE(r.status == 0, r.err);
      return std::strtod(r.out.c_str() + r.out.find("predicted time ") + 15, nullptr);
    };
    // smpirun -replay split_traces -np 2 (replay.tesh:232): 13.622360 s
    CHECK(tesh("replay_split", "split_traces", "--processors 2") == doctest::Approx(13.622360).epsilon(1e-5));
    // smpirun -replay trace1 -np 4 --cfg=smpi/simulate-computation:false (replay-ti-colls.tesh:9)
    CHECK(tesh("replay_ti_colls", "trace1", "--processors 4 --cfg=smpi/simulate-computation:false") ==
          doctest::Approx(0.155599).epsilon(1e-4));
    // smpirun -replay smpi_trace.txt -np 3 --cfg=smpi/host-speed:1f --cfg=smpi/simulate-computation:no
    // (trace_call_location.tesh:19): 1000.007967 s
    CHECK(tesh("trace_call_location", "smpi_trace.txt",
               "--processors 3 --cfg=smpi/host-speed:1f --cfg=smpi/simulate-computation:no") ==
          doctest::Approx(1000.007967).epsilon(1e-6));
  }

  TEST_CASE("what SMPI adds: the 16-byte envelope and MPI_Test's pause (../shared/simgrid-tesh)") {
    const auto tesh = [](const std::string& c, int np) {
      const std::string dir = shared + "/simgrid-tesh/cases/" + c + "/";
      const auto r =
          run_augur("run --trace ti:" + dir + "one_trace --machine " + dir + "platform.xml --hostfile " + dir +
                    "hostfile --processors " + std::to_string(np) + " --wait-states off --characteristics off");
      REQUIRE_MESSAGE(r.status == 0, r.err);
      return std::strtod(r.out.c_str() + r.out.find("predicted time ") + 15, nullptr);
    };
    // Milliseconds of small messages: every message carries 16 bytes more, priced at the factors
    // of n + 16 (without them augur was 0.05 % to 0.18 % short). SimGrid prints microseconds.
    CHECK(tesh("replay_alltoall", 3) == doctest::Approx(0.007159).epsilon(2e-4));
    CHECK(tesh("replay_gather_extra", 4) == doctest::Approx(0.004073).epsilon(2e-4));
    CHECK(tesh("replay_alltoallv", 3) == doctest::Approx(0.006944).epsilon(2e-4));
    CHECK(tesh("replay_waitall", 3) == doctest::Approx(0.006258).epsilon(2e-4));
    // replay_isend: rank 1's test (6.553424 s) pauses 1e-4 s and fails (its message comes at
    // 10.37 s), so rank 2's test (29.490406 s) pauses 2e-4 s: SimGrid's log shows both; the end
    // moves by 2e-4 s to 39.320741 (augur was 39.320541 without the pauses).
    CHECK(tesh("replay_isend", 3) == doctest::Approx(39.320741).epsilon(1e-7));
  }

  TEST_CASE("several ranks on one host share its cores - messages between them take its loopback") {
    // prk-stencil-16 with smpirun -np 16 -platform F.xml -hostfile F.hostfile -replay trace.txt
    // [--cfg=network/model:CM02 --cfg=network/crosstraffic:0], F in tests/machines/fixtures/platform:
    // 4 hosts of 4 cores, 4 ranks each (a core per rank: the time of 16 hosts but for the loopback)
    const std::string quad = "--machine " + fixtures + "cores_4x4.xml --hostfile " + fixtures + "cores_4x4.hostfile";
    CHECK(predicted("prk-stencil-16", quad) == doctest::Approx(0.458136).epsilon(1e-4));
    CHECK(predicted("prk-stencil-16", quad + cm02) == doctest::Approx(0.457829).epsilon(1e-4));
    // 8 single-core hosts, 2 ranks each (r and r + 8): they share the core, twice as slow
    const std::string single = "--machine " + fixtures + "single_8.xml --hostfile " + fixtures + "single_8.hostfile";
    CHECK(predicted("prk-stencil-16", single) == doctest::Approx(0.900813).epsilon(1e-4));
    CHECK(predicted("prk-stencil-16", single + cm02) == doctest::Approx(0.900598).epsilon(1e-4));
  }

  TEST_CASE("small_platform.xml with ranks on its 7 single-core hosts in turn (the acceptance table's)") {
    // smpirun -np N -platform small_platform.xml -hostfile small_7.hostfile -replay trace.txt
    // (docs/network-acceptance.md): from 8 ranks on, hosts run 2 or more ranks that share the core
    // and talk through SimGrid's __loopback__.
    const std::string m = "--machine " + small + "platform.xml --hostfile " + fixtures + "small_7.hostfile";
    CHECK(predicted("simgrid-example-32", m) == doctest::Approx(7669.200956).epsilon(1e-8));
    CHECK(predicted("simgrid-example-32", m + cm02) == doctest::Approx(7597.420406).epsilon(1e-8));
    CHECK(predicted("prk-stencil-16", m) == doctest::Approx(62.140195).epsilon(1e-7));
    CHECK(predicted("prk-p2p-8", m + cm02) == doctest::Approx(887.315185).epsilon(1e-8));
  }

  TEST_CASE("a star zone (routing Cluster - host_link) and a bypassRoute") {
    const auto run = [](const std::string& platform, const std::string& hostfile, const std::string& rest) {
      const auto r = run_augur("run --trace ti:" + fixtures + platform + "_trace.txt --machine " + fixtures + platform +
                               ".xml --hostfile " + fixtures + hostfile + " --processors 3 " + rest +
                               " --wait-states off --characteristics off");
      REQUIRE_MESSAGE(r.status == 0, r.err);
      return std::strtod(r.out.c_str() + r.out.find("predicted time ") + 15, nullptr);
    };
    // star_actions.txt, CM02: a → b over a_up (100 MBps, 10 us) and b_down (40 MBps, 7 us):
    // 17 us + 1000016 B / 40 MBps = 0.0250174 s; then c → a over c_ud_UP (60 MBps, 3 us) and
    // a_down (50 MBps, 20 us): 23 us + 1000016 / 50e6 = 0.0200233 s; 0.0450407 s in all.
    // smpirun: 0.045041 (CM02), 0.048304 (SMPI).
    CHECK(run("star", "abc.hostfile", cm02) == doctest::Approx(0.045041).epsilon(2e-5));
    CHECK(run("star", "abc.hostfile", "") == doctest::Approx(0.048304).epsilon(2e-5));
    // ranks 0 and 1 both on a: a's route to itself is a_up then a_down (50 MBps, 30 us):
    // 0.0200303 + 0.0200233 = 0.0400536 s. smpirun: 0.040054 (CM02), 0.044203 (SMPI).
    CHECK(run("star", "aac.hostfile", cm02) == doctest::Approx(0.040054).epsilon(2e-5));
    CHECK(run("star", "aac.hostfile", "") == doctest::Approx(0.044203).epsilon(2e-5));
    // bypass_actions.txt: a → b over the bypass (100 MBps, 1 us): 0.01000116 s; b → a over the
    // route's way back (10 MBps, 100 us): 0.1001016 s; 0.1101028 s. smpirun: 0.110103, 0.118113.
    CHECK(run("bypass", "abc.hostfile", cm02) == doctest::Approx(0.110103).epsilon(2e-5));
    CHECK(run("bypass", "abc.hostfile", "") == doctest::Approx(0.118113).epsilon(2e-5));
  }

  TEST_CASE("the sample <cluster> platform file gives SimGrid's figures of predictions.tsv") {
    const std::string m =
        "--machine " + shared + "/ti-samples/platform.xml --hostfile " + shared + "/ti-samples/hostfile";
    // replay_smpi_sim_s and replay_cm02_sim_s of ti-samples/predictions.tsv
    CHECK(predicted("prk-stencil-8", m) == doctest::Approx(1.031500).epsilon(2e-6));
    CHECK(predicted("prk-stencil-8", m + cm02) == doctest::Approx(1.031075).epsilon(2e-6));
    CHECK(predicted("prk-p2p-16", m) == doctest::Approx(0.065612).epsilon(1e-3));
    CHECK(predicted("simgrid-example-32", m) == doctest::Approx(73.976456).epsilon(1e-6));
  }

  TEST_CASE("TORUS - FAT_TREE and DRAGONFLY clusters as platform files") {
    // tools/bench/network_compare.sh's platforms (SimGrid's times also in network_replay_test.cpp)
    const std::string h = " --hostfile " + shared + "/ti-samples/hostfile";
    CHECK(predicted("prk-transpose-4", "--machine " + fixtures + "torus_64.xml" + h) ==
          doctest::Approx(0.386213).epsilon(3e-6));
    CHECK(predicted("prk-transpose-16", "--machine " + fixtures + "fat_tree_64.xml" + h + cm02) ==
          doctest::Approx(0.109961).epsilon(2e-5));
    CHECK(predicted("prk-transpose-8", "--machine " + fixtures + "dragonfly_64.xml" + h) ==
          doctest::Approx(0.242192).epsilon(1e-5));
  }

  TEST_CASE("the hostfile decides where ranks run") {
    // smpirun's default (no hostfile) puts rank r on the r-th host by name: Boivin, Bourassa,
    // Fafard, Ginette, … — not the hostfile's Tremblay, Jupiter, …: another time
    const std::string m = "--machine " + small + "platform.xml --processors 4";
    CHECK(predicted("prk-stencil-4", m) != doctest::Approx(40.050823).epsilon(1e-4));
  }
}

TEST_CASE("broken platform files - hostfiles and SimGrid options give file:line: error: and exit 2") {
  const std::string trace = "run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt ";
  auto r = run_augur(trace + "--machine " + fixtures + "broken/no_route.xml");
  CHECK(r.status == 2);
  CHECK(r.err == fixtures + "broken/no_route.xml:4: error: no route from 'a' to 'c' in zone 'z'\n");
  r = run_augur(trace + "--machine " + fixtures + "broken/unknown_option.xml");
  CHECK(r.status == 2);
  CHECK(r.err.starts_with(fixtures + "broken/unknown_option.xml:4: error: unknown SimGrid option 'network/modle'; "
                                     "accepted: network/model, network/crosstraffic, "));
  r = run_augur(trace + "--machine " + fixtures + "routed.xml --hostfile " + fixtures + "floyd.xml");
  CHECK(r.status == 2);
  CHECK(r.err.starts_with(fixtures + "floyd.xml:1: error: unknown host '<?xml version='1.0'?>'"));
  r = run_augur(trace + "--machine " + fixtures + "routed.xml --cfg=smpi/tset:1");
  CHECK(r.status == 2);
  CHECK(r.err.starts_with("augur: error: --cfg: unknown SimGrid option 'smpi/tset'; accepted: network/model, "));
}
