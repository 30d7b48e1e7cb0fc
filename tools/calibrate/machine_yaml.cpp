// The machine YAML of `augur calibrate` from the parsed benchmark outputs (machine_yaml.hpp).
#include "tools/calibrate/machine_yaml.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace augur::calibrate {
namespace {

constexpr double min_latency_factor = 1e-6;

/// osu_latency rows (size B, one-way µs) as (size, seconds).
std::vector<Point> seconds(std::vector<Point> rows) {
  for (auto& p : rows) p.value *= 1e-6;
  return rows;
}

/// The best rate of an osu_bw / osu_bibw output in B/s (0 when not given).
double best_rate(const std::vector<Point>& rows) {
  double best = 0;
  for (const auto& p : rows) best = std::max(best, p.value * 1e6);
  return best;
}

/// One direction's bandwidth from osu_bw, else osu_bibw / 2, else `line` (0: unknown).
double bandwidth_of(const std::vector<Point>& bw, const std::vector<Point>& bibw, double line) {
  if (!bw.empty()) return best_rate(bw);
  if (!bibw.empty()) return best_rate(bibw) / 2;
  return line;
}

/// "size:factor;…" from the largest size down, as SimGrid writes its factor tables.
std::string table(const std::vector<Segment>& pieces, double (*factor)(const Segment&, double), double base) {
  std::string out;
  for (auto it = pieces.rbegin(); it != pieces.rend(); ++it)
    out += fmt::format("{}{:.0f}:{:.6g}", out.empty() ? "" : ";", it->from, factor(*it, base));
  return out;
}

/// A piece's latency over the first's; at least 1e-6: a piece whose line meets the axis at or below
/// 0 (fit_line clamps it to 0) has next to no latency, and a factor of 0 is no factor.
double latency_factor(const Segment& s, double base) {
  return base > 0 ? std::max(s.line.latency / base, min_latency_factor) : 1.0;
}
double bandwidth_factor(const Segment& s, double base) {
  return base > 0 && s.line.bandwidth > 0 ? s.line.bandwidth / base : 1.0;
}

/// The network keys: latency, bandwidth, the size tables when the single line fits badly.
void network(std::string& y, const Calibration& c) {
  const auto pts = seconds(c.latency);
  const Line line = fit_line(pts);
  const double worst = worst_relative_error(pts, line);
  const auto pieces = fit_segments(pts, {c.knee});
  const bool split = worst > c.bad_fit && pieces.size() > 1 &&
                     std::all_of(pieces.begin(), pieces.end(), [](const Segment& s) { return s.line.bandwidth > 0; });
  const double latency = split ? pieces.front().line.latency : line.latency;
  const double bandwidth = bandwidth_of(c.bw, c.bibw, split ? pieces.back().line.bandwidth : line.bandwidth);
  y += fmt::format("# one line through {} fits within {:.1f} % at worst{}\n", c.files.at("osu_latency"), 100 * worst,
                   split ? fmt::format(": split at {:.0f} B, a line per piece", c.knee) : std::string());
  y += fmt::format("latency: {:.6g}us\n", latency * 1e6);
  if (bandwidth > 0) y += fmt::format("bandwidth: {:.6g}MBps\n", bandwidth / 1e6);
  if (split) {
    y += fmt::format("eager_threshold: {:.0f}B\n", c.knee);
    y += "latency_factors: \"" + table(pieces, latency_factor, latency) + "\"\n";
    if (bandwidth > 0) y += "bandwidth_factors: \"" + table(pieces, bandwidth_factor, bandwidth) + "\"\n";
  }
}

/// intra_node_latency and intra_node_bandwidth from the _intra inputs.
void intra_node(std::string& y, const Calibration& c) {
  double line_bw = 0;
  if (!c.latency_intra.empty()) {
    const Line line = fit_line(seconds(c.latency_intra));
    y += fmt::format("intra_node_latency: {:.6g}us\n", line.latency * 1e6);
    line_bw = line.bandwidth;
  }
  const double bw = bandwidth_of(c.bw_intra, c.bibw_intra, line_bw);
  if (bw > 0) y += fmt::format("intra_node_bandwidth: {:.6g}MBps\n", bw / 1e6);
}

/// The roofline node: ERT's levels (GB/s per node), STREAM's Triad as DRAM (MB/s per node).
void node(std::string& y, const Calibration& c) {
  std::vector<std::pair<std::string, double>> levels;  // B/s per node
  for (const auto& [name, gbps] : c.ert.levels) levels.emplace_back(name, gbps * 1e9);
  if (!c.stream.empty()) {
    const double triad = (c.stream.contains("Triad") ? c.stream.at("Triad") : c.stream.begin()->second) * 1e6;
    auto dram = std::find_if(levels.begin(), levels.end(), [](const auto& l) { return l.first == "DRAM"; });
    if (dram == levels.end())
      levels.emplace_back("DRAM", triad);
    else
      dram->second = triad;
  }
  const double perf = c.performance > 0 ? c.performance : c.ert.gflops * 1e9 / c.cores;
  if (!(perf > 0))
    throw CalibrateError("calibrate: error: a node needs a flop rate: give ert=FILE or performance=GFLOPS");
  y += fmt::format("cpu_speed: {:.6g}Gflops\nprocesses_per_node: {}\nnode:\n  cores: {}\n", perf / 1e9, c.cores,
                   c.cores);
  y += fmt::format("  performance: {:.6g}Gflops\n  memory:\n", perf / 1e9);
  for (const auto& [name, bps] : levels)
    y += fmt::format("    - {{name: {}, bandwidth_per_node: {:.6g}MBps}}\n", name, bps / 1e6);
}

}  // namespace

std::string machine_yaml(const Calibration& c) {
  std::string y = "# augur calibrate";
  for (const auto& [kind, file] : c.files) y += fmt::format(" {}={}", kind, file);
  y += "\nschema_version: 1\nmodel: loggp_smp\n";
  network(y, c);
  intra_node(y, c);
  if (c.ert.gflops > 0 || !c.stream.empty()) {
    if (c.ert.gflops > 0) y += fmt::format("# ERT peak {:.6g} GFLOP/s per node over {} cores\n", c.ert.gflops, c.cores);
    if (!c.stream.empty()) y += "# STREAM Triad: the DRAM level\n";
    node(y, c);
  }
  return y;
}

}  // namespace augur::calibrate
