// augur calibrate's parsing and fits (tools/calibrate) on hand-made and real benchmark outputs.
#include "tools/calibrate/calibrate.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tools/calibrate/machine_yaml.hpp"

using namespace augur::calibrate;

TEST_CASE("fit_line recovers latency and bandwidth from exact points") {
  // t(n) = 2e-6 + n / 1e9: (0 B, 2 us), (1000 B, 3 us), (2000 B, 4 us).
  const Line l = fit_line({{0, 2e-6}, {1000, 3e-6}, {2000, 4e-6}});
  CHECK(l.latency == doctest::Approx(2e-6));
  CHECK(l.bandwidth == doctest::Approx(1e9));
}

TEST_CASE("fit_line is least squares on noisy points") {
  // (0,1), (1,3), (2,2): n̄ = 1, t̄ = 2, Σ(n−n̄)(t−t̄) = (−1)(−1) + 0·1 + (1)(0) = 1,
  // Σ(n−n̄)² = 2 → slope 0.5, intercept 2 − 0.5 = 1.5 → bandwidth 2.
  const Line l = fit_line({{0, 1}, {1, 3}, {2, 2}});
  CHECK(l.latency == doctest::Approx(1.5));
  CHECK(l.bandwidth == doctest::Approx(2));
}

TEST_CASE("fit_line: one point or a falling line leaves the bandwidth unknown") {
  CHECK(fit_line({{8, 5}}).bandwidth == 0);
  CHECK(fit_line({{8, 5}}).latency == 5);
  CHECK(fit_line({{1, 5}, {2, 4}}).bandwidth == 0);
}

TEST_CASE("parse_osu reads the data rows after the headers") {
  const auto pts = parse_osu(
      "# OSU MPI Latency Test v5.6\n# Size          Latency (us)\n"
      "1                       0.21\n2   0.22\n\n4 0.25\n",
      "lat.txt");
  REQUIRE(pts.size() == 3);
  CHECK(pts[0].size == 1);
  CHECK(pts[2].size == 4);
  CHECK(pts[2].value == doctest::Approx(0.25));
}

TEST_CASE("parse_stream takes the best rate of each function") {
  const auto r = parse_stream(
      "Function    Best Rate MB/s  Avg time     Min time     Max time\n"
      "Copy:           11446.1     0.014061     0.013978     0.014247\n"
      "Triad:          12650.3     0.019054     0.018972     0.019193\n",
      "stream.txt");
  REQUIRE(r.size() == 2);
  CHECK(r.at("Copy") == doctest::Approx(11446.1));
  CHECK(r.at("Triad") == doctest::Approx(12650.3));
}

namespace {

std::string data_file(const std::string& name) {
  std::ifstream in(AUGUR_SOURCE_DIR "/tests/data/calibrate/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("fit_segments splits at the knee - a line per piece") {
  // Below the knee t = 1 + n (sizes 0, 1, 2), above it t = 10 + n / 2 (sizes 4, 6): exact lines.
  const auto pieces = fit_segments({{0, 1}, {1, 2}, {2, 3}, {4, 12}, {6, 13}}, {2});
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].from == 0);
  CHECK(pieces[0].line.latency == doctest::Approx(1));
  CHECK(pieces[0].line.bandwidth == doctest::Approx(1));
  CHECK(pieces[1].from == 3);  // the knee + 1: a message of the knee's size is still below it
  CHECK(pieces[1].line.latency == doctest::Approx(10));
  CHECK(pieces[1].line.bandwidth == doctest::Approx(2));
  // The single line through all five (n̄ = 2.6, t̄ = 6.2):
  // Σn = 13, Σt = 31, Σn² = 57, Σnt = 0·1 + 1·2 + 2·3 + 4·12 + 6·13 = 134:
  // Sxy = 134 − 13·31/5 = 53.4, Sxx = 57 − 169/5 = 23.2, slope 2.30172, intercept 6.2 − 2.30172·2.6 = 0.215517.
  const Line one = fit_line({{0, 1}, {1, 2}, {2, 3}, {4, 12}, {6, 13}});
  CHECK(one.bandwidth == doctest::Approx(23.2 / 53.4));
  CHECK(one.latency == doctest::Approx(6.2 - 53.4 / 23.2 * 2.6));
  // Its worst relative error: at n = 0, |0.215517 − 1| / 1 = 0.784483.
  CHECK(worst_relative_error({{0, 1}, {1, 2}, {2, 3}, {4, 12}, {6, 13}}, one) ==
        doctest::Approx(0.784483).epsilon(1e-5));
  // No point above the knee: one piece.
  CHECK(fit_segments({{0, 1}, {1, 2}}, {2}).size() == 1);
}

TEST_CASE("parse_ert reads the peak and the levels of ERT's summary") {
  const Ert e = parse_ert(
      "  100.5 FP64 GFLOPs EMP GFLOP/sec\n  80 GFLOPs EMP\nMETA_DATA\n 900 L1 EMP\n 50 DRAM EMP\n 60 DRAM EMP\n",
      "e.txt");
  CHECK(e.gflops == doctest::Approx(100.5));
  REQUIRE(e.levels.size() == 2);
  CHECK(e.levels[0].first == "L1");
  CHECK(e.levels[1].first == "DRAM");
  CHECK(e.levels[1].second == doctest::Approx(60));  // the largest of a repeated name
}

TEST_CASE("real ERT output (tests/data/calibrate/ert_broadwell.txt)") {
  const Ert e = parse_ert(data_file("ert_broadwell.txt"), "ert_broadwell.txt");
  CHECK(e.gflops == doctest::Approx(908.43));
  REQUIRE(e.levels.size() == 5);
  const char* names[] = {"L1", "L2", "L3", "L4", "DRAM"};
  const double gbps[] = {5647.33, 3203.86, 1773.58, 139.56, 103.50};
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(e.levels[i].first == names[i]);
    CHECK(e.levels[i].second == doctest::Approx(gbps[i]));
  }
}

TEST_CASE("real OSU outputs: inter-node latency split at the eager knee - bw - bibw - intra-node bw") {
  Calibration c;
  c.latency = parse_osu(data_file("osu_latency_cscs_inter.txt"), "lat");
  c.bw = parse_osu(data_file("osu_bw_cscs_inter.txt"), "bw");
  c.bibw = parse_osu(data_file("osu_bibw_cscs_inter.txt"), "bibw");
  c.bw_intra = parse_osu(data_file("osu_bw_cscs_intra.txt"), "bw_intra");
  c.files = {{"osu_latency", "lat"}};
  REQUIRE(c.latency.size() == 23);  // 1 B .. 4 MiB; the Validation column is ignored
  // By hand (sizes in B, times in s):
  // * all 23 rows: n̄ = 364722.04, t̄ = 20.6935e-6, Sxy = 864.724e-6, Sxx = 2.03967e13 → slope
  //   4.23953e-11 s/B (23.5876 GB/s), intercept 5.23102 us; at 1 B the line is 5.23 us against
  //   3.00 us measured: 74.97 % off, over the 10 % rule → split at 65536 B;
  // * the 17 rows up to 65536 B: n̄ = 7710.06, t̄ = 4.98471e-6, Sxy = 0.615517e-6, Sxx = 4.71606e9
  //   → intercept 3.97843 us, bandwidth 7.66195 GB/s;
  // * the 6 rows above: n̄ = 1376256, t̄ = 65.2017e-6, Sxy = 498.639e-6, Sxx = 1.20860e13 →
  //   intercept 8.42085 us, bandwidth 24.2380 GB/s.
  // Latency 3.97843 us; bandwidth = osu_bw's best, 24007.69 MB/s (osu_bibw's best / 2 would be
  // 23216.9); factors: latency 8.42085 / 3.97843 = 2.11663 from 65537 B, 1 from 0;
  // bandwidth 24238.0 / 24007.69 = 1.00959 and 7661.95 / 24007.69 = 0.319146.
  // Intra-node bandwidth: osu_bw_intra's best, 14058.41 MB/s (at 256 KiB).
  const std::string y = machine_yaml(c);
  CHECK(y.find("\nlatency: 3.97843us\n") != std::string::npos);
  CHECK(y.find("\nbandwidth: 24007.7MBps\n") != std::string::npos);
  CHECK(y.find("fits within 75.0 % at worst: split at 65536 B") != std::string::npos);
  CHECK(y.find("\neager_threshold: 65536B\n") != std::string::npos);
  CHECK(y.find("\nlatency_factors: \"65537:2.11663;0:1\"\n") != std::string::npos);
  CHECK(y.find("\nbandwidth_factors: \"65537:1.00959;0:0.319146\"\n") != std::string::npos);
  CHECK(y.find("\nintra_node_bandwidth: 14058.4MBps\n") != std::string::npos);
  CHECK(y.find("node:") == std::string::npos);  // no ERT, no STREAM: no roofline node
  // Without osu_bw the bandwidth is osu_bibw's best / 2: 46433.80 / 2 = 23216.9 MB/s.
  c.bw.clear();
  CHECK(machine_yaml(c).find("\nbandwidth: 23216.9MBps\n") != std::string::npos);
  // A rule that tolerates 80 %: one line, no tables; latency 5.23102 us, bandwidth from bibw.
  c.bad_fit = 0.8;
  const std::string one = machine_yaml(c);
  CHECK(one.find("\nlatency: 5.23102us\n") != std::string::npos);
  CHECK(one.find("factors") == std::string::npos);
}

TEST_CASE("a piece whose line meets the axis at or below 0 gets the smallest latency factor") {
  // This machine's shape (Open MPI shared memory): up to 64 KiB t = 1 us + n / 1 GB/s; above,
  // t = n / 5 GB/s - 1 us, whose fitted intercept is -1 us, clamped to 0 by fit_line: a latency
  // factor of 0, which a machine file refuses. It is written as 1e-6 (next to no latency);
  // bandwidth = the last piece's 5 GB/s, factors 5/5 = 1 and 1/5 = 0.2.
  Calibration c;
  for (const double n : {1.0, 1024.0, 4096.0, 16384.0, 65536.0}) c.latency.push_back({n, 1 + n / 1e3});
  for (const double n : {131072.0, 262144.0, 524288.0}) c.latency.push_back({n, n / 5e3 - 1});
  c.files = {{"osu_latency", "lat"}};
  const std::string y = machine_yaml(c);
  CHECK(y.find("split at 65536 B") != std::string::npos);
  CHECK(y.find("\nlatency: 1us\n") != std::string::npos);
  CHECK(y.find("\nbandwidth: 5000MBps\n") != std::string::npos);
  CHECK(y.find("\nlatency_factors: \"65537:1e-06;0:1\"\n") != std::string::npos);
  CHECK(y.find("\nbandwidth_factors: \"65537:1;0:0.2\"\n") != std::string::npos);
}

TEST_CASE("intra-node latency - ERT and STREAM make the roofline node") {
  Calibration c;
  // Inter-node: t = 2 us + n / 1 GB/s exactly (one line, no tables); intra-node: 0.5 us + n / 4 GB/s.
  c.latency = {{0, 2}, {1000, 3}, {2000, 4}};
  c.latency_intra = {{0, 0.5}, {4000, 1.5}};
  c.ert = parse_ert(data_file("ert_broadwell.txt"), "ert");
  c.stream = parse_stream(data_file("stream_centos7.txt"), "stream");
  c.cores = 36;
  c.files = {{"osu_latency", "lat"}};
  const std::string y = machine_yaml(c);
  CHECK(y.find("\nlatency: 2us\nbandwidth: 1000MBps\n") != std::string::npos);
  CHECK(y.find("\nintra_node_latency: 0.5us\nintra_node_bandwidth: 4000MBps\n") != std::string::npos);
  // 908.43 GFLOP/s over 36 cores = 25.2342 GFLOP/s per core; ERT's levels per node, GB/s → MB/s;
  // STREAM's Triad (98350.8 MB/s) replaces ERT's DRAM (103.50 GB/s).
  CHECK(
      y.find("cpu_speed: 25.2342Gflops\nprocesses_per_node: 36\nnode:\n  cores: 36\n  performance: 25.2342Gflops\n") !=
      std::string::npos);
  CHECK(y.find("    - {name: L1, bandwidth_per_node: 5.64733e+06MBps}\n") != std::string::npos);
  CHECK(y.find("    - {name: L4, bandwidth_per_node: 139560MBps}\n") != std::string::npos);
  CHECK(y.find("    - {name: DRAM, bandwidth_per_node: 98350.8MBps}\n") != std::string::npos);
  // STREAM alone: DRAM is the only level, and the flop rate must be given.
  c.ert = {};
  CHECK_THROWS_AS(machine_yaml(c), CalibrateError);
  c.performance = 5.3e9;
  const std::string s = machine_yaml(c);
  CHECK(s.find("  performance: 5.3Gflops\n  memory:\n    - {name: DRAM, bandwidth_per_node: 98350.8MBps}\n") !=
        std::string::npos);
}

TEST_CASE("real osu_latency output (tests/data/calibrate/osu_latency_hpcx_ib.txt)") {
  const std::string path = AUGUR_SOURCE_DIR "/tests/data/calibrate/osu_latency_hpcx_ib.txt";
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  const auto pts = parse_osu(text.str(), path);
  REQUIRE(pts.size() == 24);  // sizes 0, 1, 2, 4, ..., 4 MiB
  CHECK(pts.front().size == 0);
  CHECK(pts.front().value == doctest::Approx(1.55));
  CHECK(pts.back().size == 4194304);
  CHECK(pts.back().value == doctest::Approx(351.24));
}

TEST_CASE("real STREAM output (tests/data/calibrate/stream_omp.txt)") {
  const std::string path = AUGUR_SOURCE_DIR "/tests/data/calibrate/stream_omp.txt";
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  const auto r = parse_stream(text.str(), path);
  REQUIRE(r.size() == 4);
  CHECK(r.at("Triad") == doctest::Approx(26564.8));
  CHECK(r.at("Scale") == doctest::Approx(21224.7));
}

TEST_CASE("broken inputs give file:line: error:") {
  auto message = [](auto f) {
    try {
      f();
    } catch (const CalibrateError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message([] { parse_osu("# h\n1 0.2\nx 0.3\n", "a.txt"); }) == "a.txt:3: error: expected a size >= 0, got 'x'");
  CHECK(message([] { parse_osu("1 0.2\n2\n", "b.txt"); }) == "b.txt:2: error: expected 'size value', got '2'");
  CHECK(message([] { parse_osu("4 0.2\n2 0.3\n", "c.txt"); }) == "c.txt:2: error: sizes must increase");
  CHECK(message([] { parse_osu("# only a header\n", "d.txt"); }) ==
        "d.txt:1: error: no data rows (expected 'size value' lines)");
  CHECK(message([] { parse_osu("1 -3\n", "e.txt"); }) == "e.txt:1: error: expected a positive number, got '-3'");
  CHECK(message([] { parse_stream("Copy: inf 1 2 3\n", "f.txt"); }) ==
        "f.txt:1: error: expected a positive number, got 'inf'");
  CHECK(message([] { parse_stream("nothing here\n", "g.txt"); }) ==
        "g.txt:1: error: no STREAM 'Copy:/Scale:/Add:/Triad:' rows");
  CHECK(message([] { parse_ert("1 L1 EMP\n", "h.txt"); }) == "h.txt:1: error: no ERT '<value> GFLOPs EMP' line");
  CHECK(message([] { parse_ert("5 GFLOPs EMP\n", "i.txt"); }) ==
        "i.txt:1: error: no ERT '<value> <level> EMP' line (L1, DRAM ...)");
  CHECK(message([] { parse_ert("x GFLOPs EMP\n", "j.txt"); }) == "j.txt:1: error: expected a positive number, got 'x'");
}
