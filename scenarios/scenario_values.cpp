// The values scenario files and `--set` overrides share (scenarios/scenario_values.hpp).
#include "scenarios/scenario_values.hpp"

#include <algorithm>

#include "engine/collective_kind.hpp"
#include "machines/registry.hpp"
#include "scenarios/machine_file.hpp"
#include "traces/trace_format.hpp"

namespace augur::scenarios::detail {

std::vector<std::string> collective_kind_names() {
  std::vector<std::string> names;
  for (int kind = 0; kind <= static_cast<int>(engine::CollectiveKind::exscan); ++kind)
    names.emplace_back(engine::to_string(static_cast<engine::CollectiveKind>(kind)));
  return names;
}

bool is_collective_kind(std::string_view name) { return engine::collective_kind_from_string(name).has_value(); }

const std::vector<std::string>& eager_transfer_choices() {
  static const std::vector<std::string> choices = {"match", "send"};
  return choices;
}

std::string split_trace_ref(std::string_view text, std::string& format, std::string& path) {
  format = traces::trace_formats().front().name;
  path = std::string(support::trim(text));
  const auto colon = path.find(':');
  if (colon != std::string::npos && colon >= 2 &&
      std::all_of(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(colon),
                  [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; })) {
    format = path.substr(0, colon);
    path = std::string(support::trim(std::string_view(path).substr(colon + 1)));
  }
  const traces::TraceFormat* known = traces::find_trace_format(format);
  if (known == nullptr) return unknown_message(format, traces::trace_format_names(), "trace format");
  format = known->name;  // an alias (dvm:PATH) names the format too
  if (path.empty()) return "empty trace path";
  return {};
}

std::string invalid_choice(std::string_view what, const std::string& value, const std::vector<std::string>& choices) {
  std::string message = "invalid " + std::string(what) + " '" + value + "'";
  const std::string suggestion = support::nearest_name(value, choices);
  message += suggestion.empty() ? "." : "; did you mean '" + suggestion + "'?";
  return message + " Valid values are: " + support::join(choices);
}

std::vector<std::string> machine_keys(const MachineDescription& machine, const std::string& prefix) {
  std::vector<std::string> keys;
  for (const auto& name : machine.params.names()) keys.push_back(prefix + "machine." + name);
  return keys;
}

bool split_values(std::string_view text, std::vector<std::string>& items) {
  text = support::trim(text);
  auto wrapped = [](std::string_view body) {
    if (body.size() < 2 || body.front() != '[' || body.back() != ']') return false;
    int depth = 0;
    for (std::size_t i = 0; i < body.size(); ++i) {
      depth += body[i] == '[' ? 1 : body[i] == ']' ? -1 : 0;
      if (depth == 0 && i + 1 < body.size()) return false;  // "[1],[2]" is two items
    }
    return true;
  };
  if (wrapped(text)) text = support::trim(text.substr(1, text.size() - 2));
  if (text.empty()) return true;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) return false;
    if (c == ',' && depth == 0) {
      const auto item = support::trim(text.substr(start, i - start));
      if (item.empty()) return false;
      items.emplace_back(item);
      start = i + 1;
    }
  }
  return depth == 0;
}

namespace {

/// A parameter value, validated against `machine` without changing it; the error message or "".
std::string check_param_value(const MachineDescription& machine, const std::string& param, const std::string& value) {
  machines::ParamSet copy = machine.params;
  try {
    copy.set(param, value);
  } catch (const machines::ParamError& error) {
    return error.what();
  }
  return {};
}

}  // namespace

std::vector<MachineDescription*> machine_targets(Scenario& scenario) {
  std::vector<MachineDescription*> targets;
  for (auto& machine : scenario.swept_machines) targets.push_back(&machine);
  targets.push_back(&scenario.machine);
  return targets;
}

std::string check_param_for_all(const Scenario& scenario, const std::string& param, const std::string& value) {
  const bool axis = !scenario.swept_machines.empty();
  std::vector<const MachineDescription*> targets;
  for (const auto& machine : scenario.swept_machines) targets.push_back(&machine);
  if (!axis) targets.push_back(&scenario.machine);
  for (const MachineDescription* machine : targets) {
    if (!machine->params.has(param)) {
      if (!axis) return unknown_message(param, machine->params.names());
      return "'" + param + "' is not a parameter of the swept machine '" + machine->name + "' (model '" +
             machine->model + "'; its parameters are: " + support::join(machine->params.names()) +
             "); overrides and machine.<parameter> axes must suit every swept machine";
    }
    if (value.empty()) continue;
    const std::string error = check_param_value(*machine, param, value);
    if (!error.empty()) return axis ? "swept machine '" + machine->name + "': " + error : error;
  }
  return {};
}

bool some_machine_has(const Scenario& scenario, const std::string& param) {
  if (scenario.machine.params.has(param)) return true;
  return std::any_of(scenario.swept_machines.begin(), scenario.swept_machines.end(),
                     [&](const MachineDescription& machine) { return machine.params.has(param); });
}

std::vector<MachineDescription> resolve_swept_machines(const std::vector<std::string>& refs,
                                                       const std::vector<YAML::Node>& nodes,
                                                       const std::string& base_dir, const std::string& file,
                                                       const machines::MachineRegistry& registry) {
  std::vector<MachineDescription> result;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    MachineDescription machine = resolve_machine_ref(refs[i], base_dir, registry, file, nodes[i]);
    for (const auto& earlier : result)
      if (earlier.name == machine.name)
        fail_at(file, nodes[i],
                "the machine sweep axis names machine '" + machine.name +
                    "' twice (variants and plot lines are told apart by the machine name)");
    result.push_back(std::move(machine));
  }
  return result;
}

std::string placeholder_error(const Scenario& scenario) {
  if (scenario.processors.empty() && scenario.trace_path.find("{P}") != std::string::npos)
    return "the trace path '" + scenario.trace_path +
           "' contains {P} but no processor counts are given (set 'processors')";
  return {};
}

}  // namespace augur::scenarios::detail
