// `augur calibrate` end to end: the machine it writes is one `augur run` accepts.
#include <doctest/doctest.h>

#include <string>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

using augur::test::run_augur;

TEST_CASE("calibrate writes a machine that augur run accepts") {
  const std::string data = AUGUR_SOURCE_DIR "/tests/data/calibrate/";
  const auto cal = run_augur("calibrate osu_latency=" + data + "osu_latency_cscs_inter.txt osu_bw=" + data +
                             "osu_bw_cscs_inter.txt osu_bw_intra=" + data + "osu_bw_cscs_intra.txt ert=" + data +
                             "ert_broadwell.txt stream=" + data + "stream_omp.txt cores=36 eager=65536");
  REQUIRE(cal.status == 0);
  CHECK(cal.out.find("model: loggp_smp\n") != std::string::npos);
  // Triad's best rate in stream_omp.txt, 26564.8 MB/s, is the DRAM level.
  CHECK(cal.out.find("    - {name: DRAM, bandwidth_per_node: 26564.8MBps}\n") != std::string::npos);
  CHECK(cal.out.find("latency_factors: \"65537:2.11663;0:1\"") != std::string::npos);
  const std::string machine = std::string(AUGUR_SCRATCH_DIR) + "/calibrated.yaml";
  augur::test::write_file(machine, cal.out);
  const auto run = run_augur("run --trace synthetic:P=4,I=2 --machine " + machine);
  CHECK(run.status == 0);
  CHECK(run.err.empty());
}

TEST_CASE("calibrate: bad arguments and unreadable files exit 2") {
  CHECK(run_augur("calibrate bogus=1").status == 2);
  CHECK(run_augur("calibrate stream=x").status == 2);
  CHECK(run_augur("calibrate osu_latency=x cores=0").status == 2);
  CHECK(run_augur("calibrate osu_latency=x cores=1e12").status == 2);  // more than an int holds
  CHECK(run_augur("calibrate osu_latency=x eager=1.5").status == 2);
  const std::string data = AUGUR_SOURCE_DIR "/tests/data/calibrate/";
  const auto no_rate =
      run_augur("calibrate osu_latency=" + data + "osu_latency_cscs_inter.txt stream=" + data + "stream_omp.txt");
  CHECK(no_rate.status == 2);
  CHECK(no_rate.err == "calibrate: error: a node needs a flop rate: give ert=FILE or performance=GFLOPS\n");
  const auto missing = run_augur("calibrate osu_latency=/nonexistent/lat.txt");
  CHECK(missing.status == 2);
  CHECK(missing.err == "/nonexistent/lat.txt: error: cannot read the file\n");
}
