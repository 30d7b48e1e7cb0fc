// Parsing and fitting for `augur calibrate`: OSU micro-benchmark, STREAM and ERT (Empirical
// Roofline Toolkit) text outputs; piecewise size tables; the machine YAML (machine_yaml.cpp).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
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

// One piece of a piecewise fit: the line of the points of sizes from `from` up to the next
// piece's `from` (exclusive).
struct Segment {
  double from = 0;  // bytes
  Line line;
};

// The points split at `knees` (ascending bytes: a point of size n ≤ knee belongs below it, as a
// message of eager_threshold bytes is still eager) and fit_line per piece; a piece starts at
// 0 or at knee + 1. Pieces without points are left out.
std::vector<Segment> fit_segments(const std::vector<Point>& seconds_by_size, const std::vector<double>& knees);

// The largest |t(n) − value| / value over the points (value > 0): how badly `line` fits them.
double worst_relative_error(const std::vector<Point>& seconds_by_size, const Line& line);

// ERT's summary ("<value> <name> EMP" lines, e.g. "908.43 GFLOPs EMP", "5647.33 L1 EMP"): the
// peak rate (the names holding "GFLOPs"), GFLOP/s, and each memory level's bandwidth, GB/s,
// in the order they first appear; the largest value when a name repeats. Both are of the whole
// node ERT ran on (all its MPI ranks and threads).
struct Ert {
  double gflops = 0;
  std::vector<std::pair<std::string, double>> levels;
};
Ert parse_ert(std::string_view text, const std::string& file);

}  // namespace augur::calibrate
