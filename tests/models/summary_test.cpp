// The one-screen summary's pieces: wrapping, the time spelling, singular counts, the sweep table
// as text; and the JSON numbers without floating-point noise.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "models/report/json_numbers.hpp"
#include "models/report/summary.hpp"

using namespace augur::models::report;

TEST_CASE("wrap_text breaks at spaces within the width and indents the following lines") {
  // 10 columns: "  advice: " takes 10, so every word goes on a line of its own after the first.
  CHECK(wrap_text("aa bb cc", 10, "> ", "  ") == "> aa bb cc\n");
  CHECK(wrap_text("aaaa bbbb cccc", 10, "> ", "  ") == "> aaaa\n  bbbb\n  cccc\n");
  // A word longer than the width stays whole; runs of spaces collapse.
  CHECK(wrap_text("x  0123456789abc y", 8, "", "") == "x\n0123456789abc\ny\n");
  CHECK(wrap_text("", 8, "- ", "") == "- \n");
}

TEST_CASE("seconds_text is fixed-point with 6 decimals and never a 300-digit number") {
  CHECK(seconds_text(1.5) == "1.500000");
  CHECK(seconds_text(0) == "0.000000");
  CHECK(seconds_text(1e300) == "1.000000e+300");
  CHECK(seconds_text(-1e16) == "-1.000000e+16");
  CHECK(seconds_text(123456789012345.0) == "123456789012345.000000");
}

TEST_CASE("count_of says 1 processor and 2 processors") {
  CHECK(count_of(1, "processor") == "1 processor");
  CHECK(count_of(0, "wait") == "0 waits");
  CHECK(count_of(2, "wait") == "2 waits");
}

TEST_CASE("round_noise keeps 12 significant digits - so the shortest spelling is the figure") {
  CHECK(fmt::format("{}", round_noise(0.0002375000000001265)) == "0.0002375");
  CHECK(fmt::format("{}", round_noise(9.566666666668833e-06)) == "9.56666666667e-06");
  CHECK(fmt::format("{}", round_noise(0.1 + 0.2)) == "0.3");
  CHECK(round_noise(0) == 0);
  CHECK(std::isinf(round_noise(HUGE_VAL)));
  // Already short figures are unchanged.
  CHECK(round_noise(1.813870112) == 1.813870112);
  nlohmann::ordered_json j = {{"a", 0.1 + 0.2}, {"b", {1, 2.0000000000000004}}, {"c", "0.30000000000000004"}};
  round_numbers(j);
  CHECK(j.dump() == R"({"a":0.3,"b":[1,2.0],"c":"0.30000000000000004"})");
}

TEST_CASE("shortest_numbers respells the floating-point numbers of JSON text - nothing else") {
  // 0.024638030000000002 and 0.02463803 are the same double; integers and strings stay.
  CHECK(shortest_numbers(R"({"a": 0.024638030000000002, "b": [2.0, -1e-05, 7], "c": "0.10000000000000001"})") ==
        R"({"a": 0.02463803, "b": [2.0, -1e-05, 7], "c": "0.10000000000000001"})");
  CHECK(shortest_numbers(R"(["x\"0.30000000000000004", 1.5e+300])") == R"(["x\"0.30000000000000004", 1.5e+300])");
}

TEST_CASE("sweep_text has a row per variant with the swept values and the lost-time components") {
  VariantResult a, b;
  a.index = 1;
  a.processors = 2;
  a.machine_name = "m";
  a.swept = {{"machine.latency", "1us"}};
  a.outcome = "completed";
  a.predicted_time_s = 2;
  LpStats s;
  s.compute_s = 1;
  s.wait_s = 1;
  s.end_s = 2;
  a.lps = {s, s};  // 4 s of processor time, 2 computing: efficiency 50 %
  b = a;
  b.index = 2;
  b.swept = {{"machine.latency", "10us"}};
  b.outcome = "deadlock";
  const std::string t = sweep_text({a, b});
  std::istringstream lines(t);
  std::string header, row1, row2, note;
  std::getline(lines, header);
  std::getline(lines, row1);
  std::getline(lines, row2);
  std::getline(lines, note);
  CHECK(header.find("machine.latency") != std::string::npos);
  CHECK(row1 == "      1     2 m                   1us     2.000000   50.0    0.000000    2.000000    0.000000");
  CHECK(row2.find("10us") != std::string::npos);
  CHECK(note.find("(run ended by deadlock)") != std::string::npos);
}
