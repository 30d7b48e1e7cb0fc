// OSU, STREAM and ERT parsing and the least-squares fits of `augur calibrate` (calibrate.hpp).
#include "calibrate.hpp"

#include <algorithm>

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace augur::calibrate {
namespace {

[[noreturn]] void fail(const std::string& file, int line, const std::string& what) {
  throw CalibrateError(file + ":" + std::to_string(line) + ": error: " + what);
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// A finite positive number (or zero when `allow_zero`).
double number(const std::string& word, const std::string& file, int line, bool allow_zero = false) {
  char* end = nullptr;
  const double v = std::strtod(word.c_str(), &end);
  if (end == word.c_str() || *end != '\0' || !std::isfinite(v) || v < 0 || (v == 0 && !allow_zero))
    fail(file, line,
         std::string(allow_zero ? "expected a size >= 0" : "expected a positive number") + ", got '" + word + "'");
  return v;
}

}  // namespace

std::vector<Point> parse_osu(std::string_view text, const std::string& file) {
  std::istringstream in{std::string(text)};
  std::vector<Point> points;
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    const auto w = words(line);
    if (w.empty() || w[0][0] == '#') continue;
    if (w.size() < 2) fail(file, lineno, "expected 'size value', got '" + line + "'");
    const Point p{number(w[0], file, lineno, true), number(w[1], file, lineno)};
    if (!points.empty() && p.size <= points.back().size) fail(file, lineno, "sizes must increase");
    points.push_back(p);
  }
  if (points.empty()) fail(file, lineno, "no data rows (expected 'size value' lines)");
  return points;
}

Line fit_line(const std::vector<Point>& pts) {
  if (pts.empty()) return {};
  double mn = 0, mt = 0;
  for (const auto& p : pts) mn += p.size, mt += p.value;
  mn /= static_cast<double>(pts.size());
  mt /= static_cast<double>(pts.size());
  double sxy = 0, sxx = 0;
  for (const auto& p : pts) {
    sxy += (p.size - mn) * (p.value - mt);
    sxx += (p.size - mn) * (p.size - mn);
  }
  const double slope = sxx > 0 ? sxy / sxx : 0;
  if (slope <= 0) return {std::max(0.0, mt), 0};
  return {std::max(0.0, mt - slope * mn), 1 / slope};
}

std::map<std::string, double> parse_stream(std::string_view text, const std::string& file) {
  std::istringstream in{std::string(text)};
  std::map<std::string, double> rates;
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    const auto w = words(line);
    if (w.size() < 2) continue;
    for (const char* name : {"Copy:", "Scale:", "Add:", "Triad:"})
      if (w[0] == name) rates[w[0].substr(0, w[0].size() - 1)] = number(w[1], file, lineno);
  }
  if (rates.empty()) fail(file, lineno, "no STREAM 'Copy:/Scale:/Add:/Triad:' rows");
  return rates;
}

std::vector<Segment> fit_segments(const std::vector<Point>& pts, const std::vector<double>& knees) {
  std::vector<Segment> out;
  double from = 0;
  std::size_t i = 0;
  for (std::size_t k = 0; k <= knees.size(); ++k) {
    const bool last = k == knees.size();
    std::vector<Point> piece;
    for (; i < pts.size() && (last || pts[i].size <= knees[k]); ++i) piece.push_back(pts[i]);
    if (!piece.empty()) out.push_back({from, fit_line(piece)});
    if (!last) from = knees[k] + 1;
  }
  return out;
}

double worst_relative_error(const std::vector<Point>& pts, const Line& line) {
  double worst = 0;
  for (const auto& p : pts) {
    const double t = line.latency + (line.bandwidth > 0 ? p.size / line.bandwidth : 0.0);
    if (p.value > 0) worst = std::max(worst, std::abs(t - p.value) / p.value);
  }
  return worst;
}

Ert parse_ert(std::string_view text, const std::string& file) {
  std::istringstream in{std::string(text)};
  Ert ert;
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    const auto w = words(line);
    const auto emp = std::find(w.begin(), w.end(), "EMP");
    if (w.size() < 3 || emp == w.end() || emp - w.begin() < 2) continue;
    std::string name;
    for (auto it = w.begin() + 1; it != emp; ++it) name += (name.empty() ? "" : " ") + *it;
    const double value = number(w[0], file, lineno);
    if (name.find("GFLOPs") != std::string::npos) {
      ert.gflops = std::max(ert.gflops, value);
      continue;
    }
    auto at = std::find_if(ert.levels.begin(), ert.levels.end(), [&](const auto& l) { return l.first == name; });
    if (at == ert.levels.end())
      ert.levels.emplace_back(name, value);
    else
      at->second = std::max(at->second, value);
  }
  if (ert.gflops == 0) fail(file, lineno, "no ERT '<value> GFLOPs EMP' line");
  if (ert.levels.empty()) fail(file, lineno, "no ERT '<value> <level> EMP' line (L1, DRAM ...)");
  return ert;
}

}  // namespace augur::calibrate
