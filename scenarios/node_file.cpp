// The `node:` map of a machine (spec §7.5, the roofline node): cores, performance per core,
// memory levels and math-function costs, read into a machines::NodeSpec with positioned errors.
#include <cmath>

#include "machines/units.hpp"
#include "scenarios/machine_file.hpp"

namespace augur::scenarios::detail {
namespace {

/// The scalar of `entry` as a quantity of `kind`, positive unless `zero_ok`; errors at the value.
double quantity(const std::string& file, const Entry& entry, machines::UnitKind kind, bool zero_ok) {
  const std::string text = scalar_value(file, entry);
  double value = 0;
  try {
    value = machines::parse_quantity(text, kind);
  } catch (const machines::UnitError& error) {
    fail_at(file, entry.value, "'" + entry.key + "': " + error.what());
  }
  if (!std::isfinite(value) || value < 0 || (!zero_ok && value == 0))
    fail_at(file, entry.value,
            "'" + entry.key + "' must be " + (zero_ok ? "non-negative" : "positive") + ", not '" + text + "'");
  return value;
}

machines::MemoryLevel parse_level(const std::string& file, const YAML::Node& node, int cores) {
  const MapReader map(file, node, "a memory level");
  map.allow_only({"name", "bandwidth_per_core", "bandwidth_per_node", "capacity"});
  machines::MemoryLevel level;
  level.name = scalar_value(file, map.require("name"));
  if (level.name.empty()) fail_at(file, map.require("name").value, "a memory level needs a name");
  const Entry* core = map.find("bandwidth_per_core");
  const Entry* whole = map.find("bandwidth_per_node");
  if (core == nullptr && whole == nullptr)
    fail_at(file, node, "memory level '" + level.name + "' needs bandwidth_per_core or bandwidth_per_node");
  using machines::UnitKind;
  if (core != nullptr) level.bw_per_core = quantity(file, *core, UnitKind::bandwidth, false);
  if (whole != nullptr) level.bw_per_node = quantity(file, *whole, UnitKind::bandwidth, false);
  // One given: a core alone may use the whole node's bandwidth; the node's is its cores' sum.
  if (core == nullptr) level.bw_per_core = level.bw_per_node;
  if (whole == nullptr) level.bw_per_node = level.bw_per_core * cores;
  if (const Entry* capacity = map.find("capacity")) level.capacity = quantity(file, *capacity, UnitKind::bytes, true);
  return level;
}

void parse_math(const std::string& file, const Entry& entry, machines::NodeSpec& node) {
  const MapReader map(file, entry.value, "'math'", entry.key_node);
  for (const Entry& cost : map.entries()) {
    machines::MathFn fn{};
    if (!machines::parse_math_fn(cost.key, fn)) {
      std::vector<std::string> names;
      for (std::size_t i = 0; i < machines::kMathFnCount; ++i)
        names.emplace_back(machines::math_fn_name(static_cast<machines::MathFn>(i)));
      fail_at(file, cost.key_node, unknown_message(cost.key, names, "math function"));
    }
    node.math_cost[static_cast<std::size_t>(fn)] = quantity(file, cost, machines::UnitKind::real, true);
  }
}

}  // namespace

machines::NodeSpec parse_node(const std::string& file, const Entry& entry) {
  const MapReader map(file, entry.value, "'node'", entry.key_node);
  map.allow_only({"cores", "performance", "memory", "math"});
  machines::NodeSpec node;
  node.cores = positive_int(file, map.require("cores").value, "core count");
  node.perf_per_core = quantity(file, map.require("performance"), machines::UnitKind::flop_rate, false);
  const Entry& memory = map.require("memory");
  if (!memory.value.IsSequence() || memory.value.size() == 0)
    fail_at(file, memory.value.IsNull() ? memory.key_node : memory.value,
            "'memory' must be a list of memory levels, fastest first (L1, ..., DRAM)");
  for (const YAML::Node& level : memory.value) {
    node.levels.push_back(parse_level(file, level, node.cores));
    for (std::size_t j = 0; j + 1 < node.levels.size(); ++j)
      if (node.levels[j].name == node.levels.back().name)
        fail_at(file, level, "memory level '" + node.levels.back().name + "' declared twice");
  }
  if (const Entry* math = map.find("math")) parse_math(file, *math, node);
  try {
    machines::validate(node);
  } catch (const machines::NodeSpecError& error) {
    fail_at(file, entry.value, error.what());
  }
  return node;
}

}  // namespace augur::scenarios::detail
