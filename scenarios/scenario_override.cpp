// `--set key=value` overrides of a loaded scenario (spec section 11): every key a scenario file
// has, checked as the file's values are, all or nothing where a change touches several machines.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "machines/registry.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/program_file.hpp"
#include "scenarios/machine_file.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/scenario_values.hpp"

namespace augur::scenarios {
using namespace detail;  // the scenarios folder's shared values (scenario_values.hpp)

namespace {

[[noreturn]] void set_error(const std::string& message) { throw ConfigError(set_file, 0, 0, message); }

std::vector<int> processors_from_text(const std::string& key, const std::string& value) {
  std::vector<std::string> items;
  if (!split_values(value, items)) set_error("invalid list '" + value + "' for '" + key + "'");
  std::vector<int> counts;
  for (const auto& item : items) {
    int count = 0;
    if (!detail::parse_positive_int(item, count))
      set_error("invalid processor count '" + item + "' for '" + key + "': expected a positive integer");
    counts.push_back(count);
  }
  return counts;
}

/// Checks every `machine.*` sweep axis against the scenario's (possibly new) machine or machines.
void check_sweep_against_machine(const Scenario& scenario) {
  for (const auto& [key, values] : scenario.sweep) {
    if (!key.starts_with("machine.")) continue;  // "machine" holds machine names
    const std::string param = key.substr(8);
    if (scenario.swept_machines.empty() && !scenario.machine.params.has(param))
      set_error("the sweep key '" + key + "' is not a parameter of machine model '" + scenario.machine.model + "'");
    if (const std::string error = check_param_for_all(scenario, param, ""); !error.empty())
      set_error("sweep '" + key + "': " + error);
    for (const auto& value : values) {
      const std::string error = check_param_for_all(scenario, param, value);
      if (!error.empty()) set_error("sweep '" + key + "': " + error);
    }
  }
}

/// The position of the axis `key` in `scenario.sweep`, or its size.
std::size_t find_axis(const Scenario& scenario, const std::string& key) {
  std::size_t at = 0;
  while (at < scenario.sweep.size() && scenario.sweep[at].first != key) ++at;
  return at;
}

/// Every key `--set` accepts for this scenario, for "did you mean".
std::vector<std::string> override_keys(const Scenario& scenario) {
  std::vector<std::string> keys = {"name",
                                   "trace",
                                   "machine",
                                   "processors",
                                   "model.collectives",
                                   "model.eager_transfer",
                                   "outputs.json",
                                   "outputs.text",
                                   "outputs.event_log",
                                   "sweep.processors",
                                   "sweep.machine"};
  for (const auto& key : machine_keys(scenario.machine, "")) keys.push_back(key);
  for (const auto& key : machine_keys(scenario.machine, "sweep.")) keys.push_back(key);
  for (const auto& kind : collective_kind_names()) keys.push_back("model.algorithms." + kind);
  return keys;
}

/// `trace=FORMAT:PATH`, relative to the working directory like any command-line path.
void set_trace(Scenario& scenario, const std::string& value) {
  std::string format;
  std::string path;
  const std::string error = split_trace_ref(value, format, path);
  if (!error.empty()) set_error(error);
  scenario.trace_format = format;
  scenario.trace_path = path;
}

/// `machine=REF` replaces the whole machine: `overrides:` and earlier `machine.*` values belonged
/// to the old one (possibly another model). Later `--set machine.<param>=…` apply to the new
/// machine. A `machine` sweep axis goes too: the scenario runs on this one machine.
void set_machine(Scenario& scenario, const std::string& value, const machines::MachineRegistry& registry) {
  Scenario changed = scenario;  // all or nothing: the sweep is checked before anything changes
  changed.machine = resolve_machine_ref(value, "", registry, set_file, YAML::Node());
  changed.swept_machines.clear();
  if (const std::size_t at = find_axis(changed, "machine"); at < changed.sweep.size())
    changed.sweep.erase(changed.sweep.begin() + static_cast<std::ptrdiff_t>(at));
  check_sweep_against_machine(changed);
  scenario = std::move(changed);
}

/// `sweep.machine=A,B` replaces the machine axis (or appends it; an empty value removes it).
/// Like `machine=`, the new machines come without the file's `overrides:`; later `machine.*`
/// values apply to all.
void set_machine_axis(Scenario& scenario, const std::string& key, const std::string& value,
                      const machines::MachineRegistry& registry) {
  std::vector<std::string> refs;
  if (!split_values(value, refs)) set_error("invalid list '" + value + "' for '" + key + "'");
  Scenario changed = scenario;
  const std::size_t at = find_axis(changed, "machine");
  if (refs.empty()) {  // the scenario keeps the first machine of the axis
    if (at < changed.sweep.size()) changed.sweep.erase(changed.sweep.begin() + static_cast<std::ptrdiff_t>(at));
    changed.swept_machines.clear();
  } else {
    changed.swept_machines = resolve_swept_machines(refs, std::vector<YAML::Node>(refs.size()), "", set_file, registry);
    changed.machine = changed.swept_machines.front();
    std::vector<std::string> names;
    for (const auto& machine : changed.swept_machines) names.push_back(machine.name);
    if (at < changed.sweep.size())
      changed.sweep[at].second = std::move(names);
    else
      changed.sweep.emplace_back("machine", std::move(names));
    check_sweep_against_machine(changed);
  }
  scenario = std::move(changed);
}

/// `grids=2x2,4x4`: the processor grids instead of processor counts.
void set_grids(Scenario& scenario, const std::string& value) {
  std::vector<std::string> items;
  if (!split_values(value, items) || items.empty()) set_error("invalid list '" + value + "' for 'grids'");
  scenario.grids.clear();
  for (const auto& item : items) {
    std::vector<int> grid;
    const std::string error = parse_grid(item, grid);
    if (!error.empty()) set_error(error);
    scenario.grids.push_back(std::move(grid));
  }
  scenario.processors.clear();
}

/// `machine.<param>=VALUE`: with a machine axis, every swept machine takes the value (all or
/// nothing).
void set_machine_param(Scenario& scenario, const std::string& param, const std::string& value) {
  const std::string error = check_param_for_all(scenario, param, value);
  if (!error.empty()) set_error(error);
  try {
    for (MachineDescription* machine : machine_targets(scenario)) machine->params.set(param, value);
  } catch (const machines::ParamError& param_error) {
    set_error(param_error.what());
  }
}

/// The `model.*` keys; false when `key` is none of them.
bool set_model_key(Scenario& scenario, const std::string& key, const std::string& value) {
  if (key == "model.collectives") {
    if (value.empty()) set_error("empty value for 'model.collectives'");
    scenario.model.collectives = value;
  } else if (key.starts_with("model.algorithms.") && is_collective_kind(key.substr(17))) {
    if (value.empty())
      scenario.model.algorithms.erase(key.substr(17));
    else
      scenario.model.algorithms[key.substr(17)] = value;
  } else if (key == "model.eager_transfer") {
    if (std::find(eager_transfer_choices().begin(), eager_transfer_choices().end(), value) ==
        eager_transfer_choices().end())
      set_error(invalid_choice("eager_transfer", value, eager_transfer_choices()));
    scenario.model.eager_transfer = value;
  } else {
    return false;
  }
  return true;
}

/// The `outputs.*` keys; false when `key` is none of them.
bool set_output_key(Scenario& scenario, const std::string& key, const std::string& value) {
  if (key == "outputs.json") {
    scenario.outputs.json = value;
  } else if (key == "outputs.text") {
    scenario.outputs.text = value;
  } else if (key == "outputs.event_log") {
    scenario.outputs.event_log = value;
  } else {
    return false;
  }
  return true;
}

/// `sweep.machine.<param>=V1,V2`: replaces or appends the parameter's axis ("" removes it).
void set_param_axis(Scenario& scenario, const std::string& key, const std::string& value) {
  const std::string axis = key.substr(6);
  const std::string param = key.substr(14);
  std::vector<std::string> values;
  if (!split_values(value, values)) set_error("invalid list '" + value + "' for '" + key + "'");
  if (const std::string error = check_param_for_all(scenario, param, ""); !error.empty()) set_error(error);
  for (const auto& item : values) {
    const std::string error = check_param_for_all(scenario, param, item);
    if (!error.empty()) set_error(error);
  }
  auto found = std::find_if(scenario.sweep.begin(), scenario.sweep.end(),
                            [&](const auto& existing) { return existing.first == axis; });
  if (values.empty()) {  // "sweep.machine.latency=" removes the axis
    if (found != scenario.sweep.end()) scenario.sweep.erase(found);
  } else if (found != scenario.sweep.end()) {
    found->second = std::move(values);
  } else {
    scenario.sweep.emplace_back(axis, std::move(values));
  }
}

/// The error of a key `--set` does not know: the nearest key, else every valid one.
[[noreturn]] void unknown_key(const Scenario& scenario, const std::string& key) {
  const std::string suggestion = support::nearest_name(key, override_keys(scenario));
  if (!suggestion.empty()) set_error("unknown key '" + key + "'; did you mean '" + suggestion + "'?");
  set_error("unknown key '" + key +
            "'; valid keys are: name, trace, machine, processors, machine.<parameter>, "
            "model.collectives, model.algorithms.<collective kind>, model.eager_transfer, "
            "outputs.json, outputs.text, outputs.event_log, sweep.processors, sweep.machine, "
            "program, program.<parameter>, sweep.program.<parameter>, "
            "sweep.machine.<parameter> (parameters of machine model '" +
            scenario.machine.model + "': " + support::join(scenario.machine.params.names()) + ")");
}

/// `program.N=64` (a fixed value) or `sweep.program.N=32,64` (an axis; empty: removed). The name
/// is checked once the overrides are applied (finish), when the program is known.
void apply_program_override(Scenario& scenario, const std::string& key, const std::string& value) {
  const bool axis = key.starts_with("sweep.");
  const std::string name = key.substr(axis ? 14 : 8);
  auto& fixed = scenario.program_values;
  std::erase_if(fixed, [&](const auto& nv) { return nv.first == name; });
  const auto found = find_axis(scenario, "program." + name);
  if (found < scenario.sweep.size()) scenario.sweep.erase(scenario.sweep.begin() + static_cast<std::ptrdiff_t>(found));
  if (!axis) {
    program_value(value, set_file, key);
    fixed.emplace_back(name, value);
    return;
  }
  std::vector<std::string> values;
  if (!split_values(value, values)) set_error("invalid list '" + value + "' for '" + key + "'");
  for (const auto& v : values) program_value(v, set_file, key);
  if (!values.empty()) scenario.sweep.emplace_back("program." + name, std::move(values));
}

}  // namespace

void apply_override(Scenario& scenario, const std::string& assignment, const machines::MachineRegistry& registry) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos) set_error("expected key=value, got '" + assignment + "'");
  const std::string key(support::trim(std::string_view(assignment).substr(0, equals)));
  const std::string value(support::trim(std::string_view(assignment).substr(equals + 1)));

  if (key == "name") {
    scenario.name = value;
  } else if (key == "trace") {
    set_trace(scenario, value);
  } else if (key == "machine") {
    set_machine(scenario, value, registry);
  } else if (key == "sweep.machine") {
    set_machine_axis(scenario, key, value, registry);
  } else if (key == "processors" || key == "sweep.processors") {
    scenario.processors = processors_from_text(key, value);
    scenario.grids.clear();
  } else if (key == "grids") {
    set_grids(scenario, value);
  } else if (key.starts_with("machine.") && some_machine_has(scenario, key.substr(8))) {
    set_machine_param(scenario, key.substr(8), value);
  } else if (set_model_key(scenario, key, value) || set_output_key(scenario, key, value)) {
    return;
  } else if (key.starts_with("sweep.machine.") && some_machine_has(scenario, key.substr(14))) {
    set_param_axis(scenario, key, value);
  } else if (key == "program") {
    scenario.trace_format = "program";
    scenario.trace_path = value;
  } else if (key.starts_with("program.") || key.starts_with("sweep.program.")) {
    apply_program_override(scenario, key, value);
  } else {
    unknown_key(scenario, key);
  }
}

}  // namespace augur::scenarios
