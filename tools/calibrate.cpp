// `augur calibrate KIND=FILE... [cores=N] [performance=GFLOPS] [eager=BYTES]`: a loggp_smp machine
// (YAML on standard output) from OSU micro-benchmark, STREAM and ERT outputs; the parsing and
// fits are tools/calibrate/calibrate.hpp's, the machine file tools/calibrate/machine_yaml.hpp's.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>

#include "tools/calibrate/calibrate.hpp"
#include "tools/calibrate/machine_yaml.hpp"
#include "tools/cli.hpp"
#include "tools/cli_options.hpp"

namespace augur::tools {
namespace {

using calibrate::CalibrateError;

constexpr std::array<const char*, 8> file_kinds = {"osu_latency",  "osu_bw",         "osu_bibw", "osu_latency_intra",
                                                   "osu_bw_intra", "osu_bibw_intra", "stream",   "ert"};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CalibrateError(path + ": error: cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A positive number of a setting (cores=, performance=, eager=) up to `most`; `whole`: an integer.
double setting(const std::string& kind, const std::string& value, bool whole, double most = 1e12) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || *end != '\0' || !std::isfinite(v) || v <= 0 || (whole && v != std::floor(v)) || v > most)
    throw CalibrateError(
        fmt::format("calibrate: error: {}={}: expected a positive {}", kind, value, whole ? "whole number" : "number"));
  return v;
}

/// KIND=FILE and setting arguments into `c`; throws CalibrateError for an unknown kind or a repeat.
void read_arguments(const CommandLine& cl, calibrate::Calibration& c) {
  std::map<std::string, std::string> seen;
  for (const std::string& a : cl.positional) {
    const auto eq = a.find('=');
    const std::string kind = a.substr(0, eq), value = eq == std::string::npos ? "" : a.substr(eq + 1);
    const bool is_file = std::find(file_kinds.begin(), file_kinds.end(), kind) != file_kinds.end();
    const bool is_setting = kind == "cores" || kind == "performance" || kind == "eager";
    if (eq == std::string::npos || (!is_file && !is_setting))
      throw CalibrateError(fmt::format(
          "calibrate: error: '{}': expected KIND=FILE (osu_latency, osu_bw, osu_bibw, each also _intra; stream, "
          "ert) or cores=N, performance=GFLOPS, eager=BYTES",
          a));
    if (!seen.emplace(kind, value).second) throw CalibrateError(fmt::format("calibrate: error: {}= given twice", kind));
    if (is_file) c.files[kind] = value;
  }
  if (!seen.contains("osu_latency")) throw CalibrateError("calibrate: error: needs osu_latency=FILE");
  if (seen.contains("cores")) c.cores = static_cast<int>(setting("cores", seen.at("cores"), true, 1e6));
  if (seen.contains("performance")) c.performance = setting("performance", seen.at("performance"), false) * 1e9;
  if (seen.contains("eager")) c.knee = setting("eager", seen.at("eager"), true);
}

/// The parsed contents of every input file.
void read_files(calibrate::Calibration& c) {
  const std::map<std::string, std::vector<calibrate::Point>*> osu = {
      {"osu_latency", &c.latency},   {"osu_bw", &c.bw},
      {"osu_bibw", &c.bibw},         {"osu_latency_intra", &c.latency_intra},
      {"osu_bw_intra", &c.bw_intra}, {"osu_bibw_intra", &c.bibw_intra}};
  for (const auto& [kind, file] : c.files) {
    const std::string text = read_text(file);
    if (osu.contains(kind))
      *osu.at(kind) = calibrate::parse_osu(text, file);
    else if (kind == "stream")
      c.stream = calibrate::parse_stream(text, file);
    else
      c.ert = calibrate::parse_ert(text, file);
  }
}

}  // namespace

int calibrate_command(const CommandLine& cl, std::ostream& out, std::ostream& err) {
  try {
    calibrate::Calibration c;
    read_arguments(cl, c);
    read_files(c);
    out << calibrate::machine_yaml(c);
    return exit_ok;
  } catch (const CalibrateError& e) {
    err << e.what() << "\n";
    return exit_bad_input;
  }
}

}  // namespace augur::tools
