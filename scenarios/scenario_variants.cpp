// The expansion of a scenario into variants: processor counts or grids times the sweep axes
// (spec section 11), and the processor grids' text form.
#include <fmt/format.h>

#include <algorithm>

#include "engine/limits.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/scenario_values.hpp"

namespace augur::scenarios {
using detail::placeholder_error;

std::string parse_grid(const std::string& text, std::vector<int>& grid) {
  grid.clear();
  std::string item;
  auto flush = [&]() -> bool {
    if (item.empty()) return true;
    if (item.size() > 6 || !std::all_of(item.begin(), item.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
      return false;
    const int v = std::stoi(item);
    if (v < 1) return false;
    grid.push_back(v);
    item.clear();
    return true;
  };
  for (char ch : text) {
    if (ch == 'x' || ch == 'X' || ch == ' ' || ch == '*') {
      if (!flush()) break;
    } else {
      item += ch;
    }
  }
  if (!flush() || grid.empty())
    return "invalid processor grid '" + text + "' (expected sizes separated by 'x', e.g. 2x2 or 4)";
  return {};
}

std::string grid_name(const std::vector<int>& grid) {
  std::string name;
  for (std::size_t i = 0; i < grid.size(); ++i) name += (i ? "x" : "") + std::to_string(grid[i]);
  return name;
}

namespace {

/// The most variants a scenario may have: each is a run, and each holds its machine's parameters
/// before it runs; a sweep of millions is a mistake, not a study.
constexpr std::uint64_t max_variants = 100000;

void check_variant_count(const Scenario& scenario, std::size_t counts) {
  std::uint64_t n = counts;
  for (const auto& axis : scenario.sweep) n = std::min<std::uint64_t>(n * axis.second.size(), max_variants + 1);
  if (n > max_variants) {
    std::string sizes = std::to_string(counts);
    for (const auto& axis : scenario.sweep) sizes += fmt::format(" x {}", axis.second.size());
    throw ConfigError(scenario.file, 0, 0,
                      fmt::format("the sweep has more than {} variants ({}); sweep fewer values", max_variants, sizes));
  }
}

}  // namespace

std::vector<Variant> Scenario::variants() const {
  const std::string error = placeholder_error(*this);
  if (!error.empty()) throw ConfigError(file, 0, 0, error);
  std::vector<int> counts = processors.empty() ? std::vector<int>{0} : processors;
  if (!grids.empty()) {
    counts.clear();
    for (const auto& g : grids) {
      std::int64_t n = 1;
      for (int d : g) n = std::min<std::int64_t>(n * d, std::int64_t{engine::max_lps} + 1);
      if (n > engine::max_lps)
        throw ConfigError(
            file, 0, 0,
            fmt::format("the processor grid {} has more than {} processors", grid_name(g), engine::max_lps));
      counts.push_back(static_cast<int>(n));
    }
  }
  for (const int n : counts) {
    if (n > static_cast<int>(engine::max_lps))
      throw ConfigError(file, 0, 0,
                        fmt::format("{} processors are more than augur runs (at most {})", n, engine::max_lps));
  }
  check_variant_count(*this, counts.size());
  for (const auto& [key, values] : sweep)
    if (values.empty()) throw ConfigError(file, 0, 0, "empty list of values for sweep '" + key + "'");
  std::size_t machine_axis = sweep.size();
  for (std::size_t axis = 0; axis < sweep.size(); ++axis)
    if (sweep[axis].first == "machine") machine_axis = axis;
  if (machine_axis < sweep.size()) {
    const auto& names = sweep[machine_axis].second;
    bool same = names.size() == swept_machines.size();
    for (std::size_t i = 0; same && i < names.size(); ++i) same = names[i] == swept_machines[i].name;
    if (!same)
      throw ConfigError(file, 0, 0,
                        "the 'machine' sweep axis (" + support::join(names) +
                            ") does not match the loaded swept machines; set it with 'sweep.machine'");
  }

  std::vector<Variant> result;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    const int count = counts[c];
    // An odometer over the sweep axes: the last axis turns fastest, so the order is the
    // nested loops written in file order.
    std::vector<std::size_t> index(sweep.size(), 0);
    while (true) {
      Variant variant;
      variant.processors = count;
      if (!grids.empty()) variant.grid = grids[c];
      variant.trace_path = trace_path;
      const std::string p = std::to_string(count);
      for (auto at = variant.trace_path.find("{P}"); at != std::string::npos;
           at = variant.trace_path.find("{P}", at + p.size()))
        variant.trace_path.replace(at, 3, p);
      // The machine first (a machine axis may come after the parameter axes it meets).
      variant.machine = machine_axis < sweep.size() ? swept_machines[index[machine_axis]] : machine;
      for (std::size_t axis = 0; axis < sweep.size(); ++axis) {
        const auto& [key, values] = sweep[axis];
        const std::string& value = values[index[axis]];
        if (axis != machine_axis && !key.starts_with("program.")) {
          try {
            variant.machine.params.set(key.substr(8), value);
          } catch (const machines::ParamError& param_error) {
            const std::string on =
                machine_axis < sweep.size() ? " on machine '" + variant.machine.name + "'" : std::string();
            throw ConfigError(file, 0, 0, "sweep '" + key + "'" + on + ": " + param_error.what());
          }
        }
        variant.swept.emplace_back(key, value);
      }
      result.push_back(std::move(variant));
      std::size_t axis = sweep.size();
      while (axis > 0 && ++index[axis - 1] == sweep[axis - 1].second.size()) index[--axis] = 0;
      if (axis == 0) break;
    }
  }
  return result;
}

}  // namespace augur::scenarios
