// `augur calibrate KIND=FILE...`: a loggp_smp machine (YAML on standard output) from OSU
// micro-benchmark and STREAM outputs; the fits are tools/calibrate/calibrate.hpp's.
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>

#include "tools/calibrate/calibrate.hpp"
#include "tools/cli.hpp"
#include "tools/cli_options.hpp"

namespace augur::tools {
namespace {

using calibrate::CalibrateError;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CalibrateError(path + ": error: cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// KIND=FILE arguments: kind → path; throws CalibrateError for an unknown kind or a repeat.
std::map<std::string, std::string> inputs(const CommandLine& cl) {
  std::map<std::string, std::string> files;
  for (const std::string& a : cl.positional) {
    const auto eq = a.find('=');
    const std::string kind = a.substr(0, eq);
    if (eq == std::string::npos || (kind != "osu_latency" && kind != "osu_bw" && kind != "stream"))
      throw CalibrateError(
          fmt::format("calibrate: error: '{}': expected osu_latency=FILE, osu_bw=FILE or stream=FILE", a));
    if (!files.emplace(kind, a.substr(eq + 1)).second)
      throw CalibrateError(fmt::format("calibrate: error: {}= given twice", kind));
  }
  if (!files.contains("osu_latency")) throw CalibrateError("calibrate: error: needs osu_latency=FILE");
  return files;
}

/// osu_latency rows (size B, one-way µs) as (size, seconds).
std::vector<calibrate::Point> seconds(std::vector<calibrate::Point> rows) {
  for (auto& p : rows) p.value *= 1e-6;
  return rows;
}

}  // namespace

int calibrate_command(const CommandLine& cl, std::ostream& out, std::ostream& err) {
  try {
    const auto files = inputs(cl);
    const std::string& lat_file = files.at("osu_latency");
    const auto fit = calibrate::fit_line(seconds(calibrate::parse_osu(read_text(lat_file), lat_file)));
    double bandwidth = fit.bandwidth;  // bytes/s from the latency slope, unless osu_bw is given
    if (files.contains("osu_bw")) {
      const std::string& f = files.at("osu_bw");
      bandwidth = 0;
      for (const auto& p : calibrate::parse_osu(read_text(f), f)) bandwidth = std::max(bandwidth, p.value * 1e6);
    }
    std::ostringstream yaml;
    yaml << fmt::format("# augur calibrate: latency = intercept of the least-squares line over {}\n", lat_file);
    yaml << "schema_version: 1\nmodel: loggp_smp\n" << fmt::format("latency: {:.6g}us\n", fit.latency * 1e6);
    if (bandwidth > 0) yaml << fmt::format("bandwidth: {:.6g}MBps\n", bandwidth / 1e6);
    if (files.contains("stream")) {
      const std::string& f = files.at("stream");
      const auto rates = calibrate::parse_stream(read_text(f), f);
      const auto triad = rates.contains("Triad") ? rates.at("Triad") : rates.begin()->second;
      // A comment, not a key: the machine models price compute by flops until the roofline node
      // model (spec 7.5) reads `node:`; the file must stay one `augur run` accepts.
      yaml << fmt::format("# STREAM Triad, DRAM bandwidth per node: {:.6g}MBps ({})\n", triad, f);
    }
    out << yaml.str();
    return exit_ok;
  } catch (const CalibrateError& e) {
    err << e.what() << "\n";
    return exit_bad_input;
  }
}

}  // namespace augur::tools
