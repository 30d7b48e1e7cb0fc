// The roofline node model: see roofline.hpp.
#include "machines/roofline/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "machines/units.hpp"

namespace augur::machines {

namespace {

constexpr std::array<std::string_view, kMathFnCount> kNames = {"sin", "cos", "tan", "exp", "log", "sqrt", "pow", "div"};

bool positive(double x) { return std::isfinite(x) && x > 0; }

void validate_level(const MemoryLevel& level) {
  if (level.name.empty()) throw NodeSpecError("memory level without a name");
  if (!positive(level.bw_per_core) || !positive(level.bw_per_node))
    throw NodeSpecError("memory level '" + level.name + "': bandwidths must be positive");
  if (!std::isfinite(level.capacity) || level.capacity < 0)
    throw NodeSpecError("memory level '" + level.name + "': capacity must be non-negative");
}

}  // namespace

std::string_view math_fn_name(MathFn fn) { return kNames.at(static_cast<std::size_t>(fn)); }

bool parse_math_fn(std::string_view name, MathFn& fn) {
  for (std::size_t i = 0; i < kMathFnCount; ++i)
    if (kNames[i] == name) {
      fn = static_cast<MathFn>(i);
      return true;
    }
  return false;
}

void validate(const NodeSpec& node) {
  if (node.cores < 1) throw NodeSpecError("node: cores must be at least 1");
  if (!positive(node.perf_per_core)) throw NodeSpecError("node: performance must be positive");
  if (node.levels.empty()) throw NodeSpecError("node: at least one memory level is needed");
  for (std::size_t i = 0; i < node.levels.size(); ++i) {
    validate_level(node.levels[i]);
    for (std::size_t j = 0; j < i; ++j)
      if (node.levels[j].name == node.levels[i].name)
        throw NodeSpecError("memory level '" + node.levels[i].name + "' declared twice");
  }
  for (std::size_t i = 0; i < kMathFnCount; ++i)
    if (!std::isfinite(node.math_cost[i]) || node.math_cost[i] < 0)
      throw NodeSpecError("math cost of '" + std::string(kNames[i]) + "' must be non-negative");
}

std::size_t level_index(const NodeSpec& node, std::string_view name) {
  std::string names;
  for (std::size_t i = 0; i < node.levels.size(); ++i) {
    if (node.levels[i].name == name) return i;
    names += (i ? ", " : "") + node.levels[i].name;
  }
  throw NodeSpecError("unknown memory level '" + std::string(name) + "' (levels: " + names + ")");
}

double total_flops(const NodeSpec& node, const ComputeWork& work) {
  double flops = work.flops;
  for (std::size_t i = 0; i < kMathFnCount; ++i) flops += work.math_calls[i] * node.math_cost[i];
  return flops;
}

std::string format_node(const NodeSpec& node) {
  std::string text =
      std::to_string(node.cores) + " cores x " + format_quantity(node.perf_per_core, UnitKind::flop_rate);
  for (const MemoryLevel& level : node.levels) {
    text += "; " + level.name + " " + format_quantity(level.bw_per_core, UnitKind::bandwidth) + "/core " +
            format_quantity(level.bw_per_node, UnitKind::bandwidth) + "/node";
    if (level.capacity > 0) text += " " + format_quantity(level.capacity, UnitKind::bytes);
  }
  std::string costs;
  for (std::size_t i = 0; i < kMathFnCount; ++i)
    if (node.math_cost[i] > 0)
      costs += (costs.empty() ? "; " : ", ") + std::string(kNames[i]) + " " +
               format_quantity(node.math_cost[i], UnitKind::real);
  return text + costs;
}

int active_cores(const NodeSpec& node, int proc, int processes) {
  // Node k holds ranks [k·cores, min((k+1)·cores, P)).
  const int first = (std::max(proc, 0) / node.cores) * node.cores;
  return std::clamp(processes - first, 1, node.cores);
}

double core_bandwidth(const NodeSpec& node, std::size_t level, int active_cores) {
  const MemoryLevel& l = node.levels.at(level);
  const int active = std::clamp(active_cores, 1, node.cores);
  return std::min(l.bw_per_core, l.bw_per_node / active);
}

double memory_time(const NodeSpec& node, const ComputeWork& work, std::size_t level, int active_cores) {
  double t = work.bytes / core_bandwidth(node, level, active_cores);
  const std::size_t split = std::min(work.level_bytes.size(), node.levels.size());
  for (std::size_t k = 0; k < split; ++k)
    if (work.level_bytes[k] > 0) t += work.level_bytes[k] / core_bandwidth(node, k, active_cores);
  return t;
}

double roofline_time(const NodeSpec& node, const ComputeWork& work, std::size_t level, int active_cores) {
  const double t_flops = total_flops(node, work) / node.perf_per_core;
  return std::max(t_flops, memory_time(node, work, level, active_cores));
}

}  // namespace augur::machines
