// `augur calibrate` end to end: the machine it writes is one `augur run` accepts.
#include <doctest/doctest.h>

#include <string>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

using augur::test::run_augur;

TEST_CASE("calibrate writes a machine that augur run accepts") {
  const std::string data = AUGUR_SOURCE_DIR "/tests/data/calibrate/";
  const auto cal =
      run_augur("calibrate osu_latency=" + data + "osu_latency_hpcx_ib.txt stream=" + data + "stream_omp.txt");
  REQUIRE(cal.status == 0);
  CHECK(cal.out.find("model: loggp_smp\n") != std::string::npos);
  // Triad's best rate in stream_omp.txt, 26564.8 MB/s.
  CHECK(cal.out.find("# STREAM Triad, DRAM bandwidth per node: 26564.8MBps") != std::string::npos);
  const std::string machine = std::string(AUGUR_SCRATCH_DIR) + "/calibrated.yaml";
  augur::test::write_file(machine, cal.out);
  const auto run = run_augur("run --trace synthetic:P=4,I=2 --machine " + machine);
  CHECK(run.status == 0);
  CHECK(run.err.empty());
}

TEST_CASE("calibrate: bad arguments and unreadable files exit 2") {
  CHECK(run_augur("calibrate bogus=1").status == 2);
  CHECK(run_augur("calibrate stream=x").status == 2);
  const auto missing = run_augur("calibrate osu_latency=/nonexistent/lat.txt");
  CHECK(missing.status == 2);
  CHECK(missing.err == "/nonexistent/lat.txt: error: cannot read the file\n");
}
