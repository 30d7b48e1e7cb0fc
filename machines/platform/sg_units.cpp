// SimGrid's platform units (see sg_units.hpp).
#include "machines/platform/sg_units.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace augur::machines::platform {
namespace {

/// The multiplier of a prefix, 0 when unknown. Decimal prefixes as SimGrid writes them (k is
/// lower case), binary ones with an i.
double prefix_scale(std::string_view prefix, bool small_too) {
  static constexpr struct {
    std::string_view name;
    double scale;
  } table[] = {{"", 1},
               {"k", 1e3},
               {"M", 1e6},
               {"G", 1e9},
               {"T", 1e12},
               {"P", 1e15},
               {"E", 1e18},
               {"Ki", 1024.0},
               {"Mi", 1048576.0},
               {"Gi", 1073741824.0},
               {"Ti", 1099511627776.0}};
  for (const auto& entry : table)
    if (entry.name == prefix) return entry.scale;
  if (small_too) {
    static constexpr struct {
      std::string_view name;
      double scale;
    } small[] = {{"m", 1e-3}, {"u", 1e-6}, {"n", 1e-9}, {"p", 1e-12}, {"f", 1e-15}};
    for (const auto& entry : small)
      if (entry.name == prefix) return entry.scale;
  }
  return 0;
}

/// The multiplier of `unit` in SI base units, 0 when `unit` is not one of `kind`'s.
double unit_scale(std::string_view unit, SgUnit kind) {
  const auto strip = [&unit](std::string_view base) -> std::string_view {
    if (unit.size() >= base.size() && unit.substr(unit.size() - base.size()) == base)
      return unit.substr(0, unit.size() - base.size());
    return "#";
  };
  switch (kind) {
    case SgUnit::speed:
      for (std::string_view base : {"flops", "f"})
        if (const std::string_view p = strip(base); p != "#")
          if (const double s = prefix_scale(p, false); s > 0) return s;
      return 0;
    case SgUnit::bandwidth:
      if (const std::string_view p = strip("Bps"); p != "#") return prefix_scale(p, false);
      if (const std::string_view p = strip("bps"); p != "#") return prefix_scale(p, false) / 8;
      return 0;
    case SgUnit::time:
      if (unit == "w") return 7 * 86400.0;
      if (unit == "d") return 86400.0;
      if (unit == "h") return 3600.0;
      if (unit == "m") return 60.0;
      if (const std::string_view p = strip("s"); p != "#" && p.size() <= 1) return prefix_scale(p, true);
      return 0;
  }
  return 0;
}

const char* accepted(SgUnit kind) {
  switch (kind) {
    case SgUnit::speed:
      return "f, kf, Mf, Gf, Tf, Pf, Ef (or flops, kflops, …)";
    case SgUnit::bandwidth:
      return "Bps, kBps, MBps, GBps, TBps, KiBps, MiBps, GiBps, TiBps, bps, kbps, Mbps, Gbps, Tbps";
    case SgUnit::time:
      return "s, ms, us, ns, ps, m, h, d, w";
  }
  return "";
}

}  // namespace

double parse_sg_value(std::string_view text, SgUnit kind) {
  const std::string s(text);
  const char* begin = s.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value) || value < 0)
    throw std::invalid_argument("'" + s + "' is not a non-negative number with a unit (" + accepted(kind) + ")");
  const std::string_view unit(end);
  if (unit.empty()) {
    if (value == 0) return 0;
    throw std::invalid_argument("'" + s + "' has no unit; expected one of " + accepted(kind));
  }
  const double scale = unit_scale(unit, kind);
  if (scale <= 0)
    throw std::invalid_argument("unknown unit '" + std::string(unit) + "' in '" + s + "'; expected one of " +
                                accepted(kind));
  return value * scale;
}

}  // namespace augur::machines::platform
