// Parsing and fitting for `augur calibrate`: OSU micro-benchmark and STREAM text outputs.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace augur::calibrate {

// Bad input: the message is "file:line: error: ...".
struct CalibrateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Point {
  double size = 0;   // message size, bytes
  double value = 0;  // osu_latency: microseconds; osu_bw / osu_bibw: MB/s
};

// The data rows of an osu_latency / osu_bw / osu_bibw output ("# ..." lines are headers).
// Sizes must be ≥ 0 and strictly increasing, values finite and positive.
std::vector<Point> parse_osu(std::string_view text, const std::string& file);

// Least-squares line t(n) = latency + n / bandwidth over (size, seconds) points:
// slope = Σ(n−n̄)(t−t̄) / Σ(n−n̄)², intercept = t̄ − slope·n̄. A single point or a
// non-positive slope gives bandwidth 0 (unknown); the intercept is clamped at 0.
struct Line {
  double latency = 0;    // seconds
  double bandwidth = 0;  // bytes per second; 0 = unknown
};
Line fit_line(const std::vector<Point>& seconds_by_size);

// STREAM's "Copy: / Scale: / Add: / Triad:" rows: function name → best rate in MB/s
// (of the last such row, when the output holds several runs).
std::map<std::string, double> parse_stream(std::string_view text, const std::string& file);

}  // namespace augur::calibrate
