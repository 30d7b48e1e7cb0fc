#include "tools/calibrate/calibrate.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

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
}
