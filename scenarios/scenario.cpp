// Scenario files (spec section 11): YAML → Scenario, `--set key=value` overrides and the
// expansion into variants. Every value is validated at load time and every error is positioned.
#include "scenarios/scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "engine/collective_kind.hpp"
#include "engine/log.hpp"
#include "engine/limits.hpp"
#include "scenarios/machine_file.hpp"
#include "scenarios/program_file.hpp"
#include "scenarios/yaml_util.hpp"
#include "traces/trace_format.hpp"

namespace augur::scenarios {
namespace fs = std::filesystem;
using detail::Entry;
using detail::fail_at;
using detail::MapReader;

namespace {

/// The file name of command-line overrides in errors.
constexpr const char* set_file = "--set";

const std::vector<std::string>& scenario_keys() {
  static const std::vector<std::string> keys = {"schema_version", "name",       "trace",   "machine",
                                                "overrides",      "processors", "grids",   "sweep",
                                                "model",          "outputs",    "program", "parameters"};
  return keys;
}

/// The names of every engine::CollectiveKind, in enum order (for "did you mean" and help).
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

std::string_view trim(std::string_view text) {
  constexpr std::string_view blanks = " \t\r\n";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

/// A relative `path` taken from a file in `base_dir` (as the user sees it from the working
/// directory); absolute paths and an empty base stay as they are.
std::string resolve_path(const std::string& base_dir, const std::string& path) {
  if (base_dir.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(base_dir) / path).lexically_normal().string();
}

/// "ti:PATH" → {"ti", "PATH"}; "PATH" → {"ti", "PATH"}. A prefix is a format when it is a word of
/// two or more lower-case letters, digits or underscores (so "C:/x" and "./a:b" stay paths).
/// Returns an error message, or "" when the reference is fine.
std::string split_trace_ref(std::string_view text, std::string& format, std::string& path) {
  format = traces::trace_formats().front().name;
  path = std::string(trim(text));
  const auto colon = path.find(':');
  if (colon != std::string::npos && colon >= 2 &&
      std::all_of(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(colon),
                  [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; })) {
    format = path.substr(0, colon);
    path = std::string(trim(std::string_view(path).substr(colon + 1)));
  }
  const traces::TraceFormat* known = traces::find_trace_format(format);
  if (known == nullptr) return detail::unknown_message(format, traces::trace_format_names(), "trace format");
  format = known->name;  // an alias (dvm:PATH) names the format too
  if (path.empty()) return "empty trace path";
  return {};
}

std::string invalid_choice(std::string_view what, const std::string& value, const std::vector<std::string>& choices) {
  std::string message = "invalid " + std::string(what) + " '" + value + "'";
  const std::string suggestion = machines::nearest_name(value, choices);
  message += suggestion.empty() ? "." : "; did you mean '" + suggestion + "'?";
  return message + " Valid values are: " + detail::join(choices);
}

/// Every `machine.<param>` key of `machine`, with `prefix` before it.
std::vector<std::string> machine_keys(const MachineDescription& machine, const std::string& prefix) {
  std::vector<std::string> keys;
  for (const auto& name : machine.params.names()) keys.push_back(prefix + "machine." + name);
  return keys;
}

/// Splits "1us,10us", "[1us, 10us]" or "[[1, 1], [2, 2]]" at the commas outside brackets.
/// Returns false on unbalanced brackets or an empty item.
bool split_values(std::string_view text, std::vector<std::string>& items) {
  text = trim(text);
  auto wrapped = [](std::string_view body) {
    if (body.size() < 2 || body.front() != '[' || body.back() != ']') return false;
    int depth = 0;
    for (std::size_t i = 0; i < body.size(); ++i) {
      depth += body[i] == '[' ? 1 : body[i] == ']' ? -1 : 0;
      if (depth == 0 && i + 1 < body.size()) return false;  // "[1],[2]" is two items
    }
    return true;
  };
  if (wrapped(text)) text = trim(text.substr(1, text.size() - 2));
  if (text.empty()) return true;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) return false;
    if (c == ',' && depth == 0) {
      const auto item = trim(text.substr(start, i - start));
      if (item.empty()) return false;
      items.emplace_back(item);
      start = i + 1;
    }
  }
  return depth == 0;
}

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

/// The machines a `machine.<param>` override or sweep axis applies to: the swept machines (when
/// the scenario has a `machine` axis) and the scenario's machine.
std::vector<MachineDescription*> machine_targets(Scenario& scenario) {
  std::vector<MachineDescription*> targets;
  for (auto& machine : scenario.swept_machines) targets.push_back(&machine);
  targets.push_back(&scenario.machine);
  return targets;
}

/// Why `param` = `value` does not suit every machine of the scenario (the message names the
/// machine when there is a machine axis), or "". `value` empty: only the parameter is checked.
std::string check_param_for_all(const Scenario& scenario, const std::string& param, const std::string& value) {
  const bool axis = !scenario.swept_machines.empty();
  std::vector<const MachineDescription*> targets;
  for (const auto& machine : scenario.swept_machines) targets.push_back(&machine);
  if (!axis) targets.push_back(&scenario.machine);
  for (const MachineDescription* machine : targets) {
    if (!machine->params.has(param)) {
      if (!axis) return detail::unknown_message(param, machine->params.names());
      return "'" + param + "' is not a parameter of the swept machine '" + machine->name + "' (model '" +
             machine->model + "'; its parameters are: " + detail::join(machine->params.names()) +
             "); overrides and machine.<parameter> axes must suit every swept machine";
    }
    if (value.empty()) continue;
    const std::string error = check_param_value(*machine, param, value);
    if (!error.empty()) return axis ? "swept machine '" + machine->name + "': " + error : error;
  }
  return {};
}

/// Whether the scenario's machine or one of its swept machines has `param` (then an error about
/// it names the machine that lacks it rather than calling the key unknown).
bool some_machine_has(const Scenario& scenario, const std::string& param) {
  if (scenario.machine.params.has(param)) return true;
  return std::any_of(scenario.swept_machines.begin(), scenario.swept_machines.end(),
                     [&](const MachineDescription& machine) { return machine.params.has(param); });
}

/// Resolves the values of a `machine` sweep axis (library names or paths; relative paths against
/// `base_dir`). Two machines of one name are an error: their variants could not be told apart.
/// `nodes` (one per ref, may be undefined) position the errors.
std::vector<MachineDescription> resolve_swept_machines(const std::vector<std::string>& refs,
                                                       const std::vector<YAML::Node>& nodes,
                                                       const std::string& base_dir, const std::string& file,
                                                       const machines::MachineRegistry& registry) {
  std::vector<MachineDescription> result;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    MachineDescription machine = detail::resolve_machine_ref(refs[i], base_dir, registry, file, nodes[i]);
    for (const auto& earlier : result)
      if (earlier.name == machine.name)
        fail_at(file, nodes[i],
                "the machine sweep axis names machine '" + machine.name +
                    "' twice (variants and plot lines are told apart by the machine name)");
    result.push_back(std::move(machine));
  }
  return result;
}

/// A program skeleton's parameter setting (`parameters:`, `program.N`): "" when `name` is a
/// parameter of the scenario's program, else the error.
std::string check_program_parameter(const Scenario& scenario, const std::string& name) {
  if (!scenario.program) return "'program." + name + "' needs a program skeleton ('program:' or --program)";
  const auto& names = scenario.program->names;
  const auto end = names.begin() + static_cast<std::ptrdiff_t>(scenario.program->defaults.size());
  if (std::find(names.begin(), end, name) != end) return {};
  return "the program " + scenario.program->file + " has no parameter '" + name + "' (parameters: " +
         (names.begin() == end ? std::string("none") : detail::join(std::vector<std::string>(names.begin(), end))) +
         ")";
}

/// Loads the skeleton a `program` trace names (again when an override changed the path).
void load_program(Scenario& scenario) {
  if (scenario.trace_format != "program") {
    scenario.program.reset();
    return;
  }
  if (!scenario.program || scenario.program->file != scenario.trace_path)
    scenario.program = load_program_file(scenario.trace_path);
}

/// `parameters: {N: 64}`: fixed values of the program's parameters.
void parse_parameters(const std::string& file, const Entry& entry, Scenario& scenario) {
  const MapReader map(file, entry.value, "'parameters'", entry.key_node);
  for (const Entry& p : map.entries()) {
    if (const std::string error = check_program_parameter(scenario, p.key); !error.empty())
      fail_at(file, p.key_node, error);
    const std::string text = detail::scalar_value(file, p);
    try {
      program_value(text, file, p.key);
    } catch (const ConfigError& e) {
      fail_at(file, p.value, e.message());
    }
    scenario.program_values.emplace_back(p.key, text);
  }
}

/// What the scenario file said, with the nodes needed for errors found after the overrides.
struct Loaded {
  Scenario scenario;
  YAML::Node trace_node;
};

void parse_trace(const std::string& file, const Entry& entry, const std::string& base_dir, Scenario& scenario) {
  std::string format;
  std::string path;
  if (entry.value.IsMap()) {
    const MapReader map(file, entry.value, "'trace'", entry.key_node);
    map.allow_only({"format", "path"});
    const Entry& path_entry = map.require("path");
    std::string text = detail::scalar_value(file, path_entry);
    if (const Entry* format_entry = map.find("format")) {
      format = detail::scalar_value(file, *format_entry);
      const traces::TraceFormat* known = traces::find_trace_format(format);
      if (known == nullptr)
        fail_at(file, format_entry->value,
                detail::unknown_message(format, traces::trace_format_names(), "trace format"));
      format = known->name;
    } else {
      format = traces::trace_formats().front().name;
    }
    path = std::string(trim(text));
    if (path.empty()) fail_at(file, path_entry.value, "empty trace path");
  } else if (entry.value.IsScalar()) {
    const std::string error = split_trace_ref(entry.value.Scalar(), format, path);
    if (!error.empty()) fail_at(file, entry.value, error);
  } else {
    fail_at(file, entry.value.IsNull() ? entry.key_node : entry.value,
            "expected a trace path (\"ti:PATH\") or a map {format, path} for 'trace', found " +
                detail::describe_type(entry.value));
  }
  scenario.trace_format = format;
  scenario.trace_path = resolve_path(base_dir, path);
}

MachineDescription parse_machine(const std::string& file, const Entry& entry, const std::string& base_dir,
                                 const machines::MachineRegistry& registry) {
  if (entry.value.IsScalar())
    return detail::resolve_machine_ref(std::string(trim(entry.value.Scalar())), base_dir, registry, file, entry.value);
  if (entry.value.IsMap()) {
    MachineDescription machine =
        detail::parse_machine_map(file, entry.value, entry.key_node, detail::MachineForm::inline_map, registry);
    if (machine.name.empty()) machine.name = "inline";
    return machine;
  }
  fail_at(file, entry.value.IsNull() ? entry.key_node : entry.value,
          "expected a machine name, a path or an inline machine map for 'machine', found " +
              detail::describe_type(entry.value));
}

/// `overrides:` apply to the scenario's machine and to every machine of a `machine` sweep axis;
/// each must suit every one of them.
void parse_overrides(const std::string& file, const Entry& entry, Scenario& scenario) {
  const MapReader map(file, entry.value, "'overrides'", entry.key_node);
  const bool axis = !scenario.swept_machines.empty();
  for (const Entry& override_entry : map.entries()) {
    const std::string error = check_param_for_all(scenario, override_entry.key, "");
    if (!error.empty()) fail_at(file, override_entry.key_node, error);
    for (MachineDescription* machine : machine_targets(scenario)) {
      try {
        detail::set_param(file, machine->params, override_entry);
      } catch (const ConfigError& bad) {
        if (!axis) throw;
        throw ConfigError(bad.file(), bad.line(), bad.col(), "swept machine '" + machine->name + "': " + bad.message());
      }
    }
  }
}

/// The `machine` sweep axis: a list of library names or paths.
std::vector<MachineDescription> parse_machine_axis(const std::string& file, const Entry& axis,
                                                   const std::string& base_dir,
                                                   const machines::MachineRegistry& registry) {
  if (!axis.value.IsSequence())
    fail_at(file, axis.value.IsNull() ? axis.key_node : axis.value,
            "expected a list of machines (library names or paths) for 'machine', found " +
                detail::describe_type(axis.value));
  if (axis.value.size() == 0) fail_at(file, axis.value, "empty list of machines for 'machine'");
  std::vector<std::string> refs;
  std::vector<YAML::Node> nodes;
  for (const YAML::Node& item : axis.value) {
    if (!item.IsScalar())
      fail_at(file, item,
              "expected a machine name or path in the list of 'machine', found " + detail::describe_type(item));
    refs.emplace_back(trim(item.Scalar()));
    nodes.push_back(item);
  }
  return resolve_swept_machines(refs, nodes, base_dir, file, registry);
}

std::vector<int> parse_processors(const std::string& file, const Entry& entry) {
  const YAML::Node& node = entry.value;
  if (node.IsScalar()) return {detail::positive_int(file, node, "processor count")};
  if (!node.IsSequence())
    fail_at(file, node.IsNull() ? entry.key_node : node,
            "expected a positive integer or a list of positive integers for '" + entry.key + "', found " +
                detail::describe_type(node));
  if (node.size() == 0)
    fail_at(file, node, "empty list for '" + entry.key + "' (leave the key out to use the trace's rank count)");
  std::vector<int> counts;
  for (const YAML::Node& item : node) counts.push_back(detail::positive_int(file, item, "processor count"));
  return counts;
}

std::vector<std::vector<int>> parse_grids(const std::string& file, const Entry& entry) {
  const YAML::Node& node = entry.value;
  std::vector<std::vector<int>> grids;
  auto one = [&](const YAML::Node& item) {
    std::vector<int> grid;
    std::string error;
    if (item.IsSequence()) {
      for (const YAML::Node& d : item) grid.push_back(detail::positive_int(file, d, "grid size"));
      if (grid.empty()) error = "empty grid";
    } else if (item.IsScalar()) {
      error = parse_grid(item.Scalar(), grid);
    } else {
      error = "expected a grid such as 2x2, found " + detail::describe_type(item);
    }
    if (!error.empty()) fail_at(file, item, error);
    grids.push_back(std::move(grid));
  };
  if (node.IsSequence()) {
    if (node.size() == 0) fail_at(file, node, "empty list for 'grids'");
    for (const YAML::Node& item : node) one(item);
  } else {
    one(node);
  }
  return grids;
}

/// The values of a `program.<parameter>` sweep axis: constant expressions.
std::vector<std::string> program_axis(const std::string& file, const Entry& axis) {
  if (!axis.value.IsSequence() || axis.value.size() == 0)
    fail_at(file, axis.value.IsNull() ? axis.key_node : axis.value,
            "expected a non-empty list of values for '" + axis.key + "', found " + detail::describe_type(axis.value));
  std::vector<std::string> values;
  for (const YAML::Node& item : axis.value) {
    if (!item.IsScalar())
      fail_at(file, item, "expected a value for '" + axis.key + "', found " + detail::describe_type(item));
    try {
      program_value(item.Scalar(), file, axis.key);
    } catch (const ConfigError& e) {
      fail_at(file, item, e.message());
    }
    values.push_back(item.Scalar());
  }
  return values;
}

void parse_sweep(const std::string& file, const Entry& entry, Scenario& scenario, bool processors_given) {
  const MapReader map(file, entry.value, "'sweep'", entry.key_node);
  std::vector<std::string> candidates = machine_keys(scenario.machine, "");
  candidates.insert(candidates.begin(), {"processors", "machine"});
  for (const Entry& axis : map.entries()) {
    if (axis.key == "machine") {  // resolved before the overrides (parse_scenario)
      std::vector<std::string> names;
      for (const auto& machine : scenario.swept_machines) names.push_back(machine.name);
      scenario.sweep.emplace_back(axis.key, std::move(names));
      continue;
    }
    if (axis.key == "processors") {
      if (processors_given)
        fail_at(file, axis.key_node, "'processors' is given both at the top level and in 'sweep'; keep one");
      scenario.processors = parse_processors(file, axis);
      continue;
    }
    if (axis.key.starts_with("program.")) {
      if (const std::string error = check_program_parameter(scenario, axis.key.substr(8)); !error.empty())
        fail_at(file, axis.key_node, error);
      scenario.sweep.emplace_back(axis.key, program_axis(file, axis));
      continue;
    }
    const std::string param = axis.key.starts_with("machine.") ? axis.key.substr(8) : std::string();
    if (param.empty() || !scenario.machine.params.has(param))
      fail_at(file, axis.key_node, detail::unknown_message(axis.key, candidates));
    if (const std::string error = check_param_for_all(scenario, param, ""); !error.empty())
      fail_at(file, axis.key_node, error);
    if (!axis.value.IsSequence())
      fail_at(file, axis.value.IsNull() ? axis.key_node : axis.value,
              "expected a list of values for '" + axis.key + "', found " + detail::describe_type(axis.value));
    if (axis.value.size() == 0) fail_at(file, axis.value, "empty list of values for '" + axis.key + "'");
    std::vector<std::string> values;
    for (const YAML::Node& item : axis.value) {
      std::string text = detail::param_value_text(file, item, axis.key);
      const std::string error = check_param_for_all(scenario, param, text);
      if (!error.empty()) fail_at(file, item, error);
      values.push_back(std::move(text));
    }
    scenario.sweep.emplace_back(axis.key, std::move(values));
  }
}

void parse_model(const std::string& file, const Entry& entry, ModelOptions& model) {
  const MapReader map(file, entry.value, "'model'", entry.key_node);
  map.allow_only({"collectives", "algorithms", "eager_transfer"});
  if (const Entry* collectives = map.find("collectives")) {
    model.collectives = std::string(trim(detail::scalar_value(file, *collectives)));
    if (model.collectives.empty()) fail_at(file, collectives->value, "empty value for 'collectives'");
  }
  if (const Entry* algorithms = map.find("algorithms")) {
    const MapReader kinds(file, algorithms->value, "'algorithms'", algorithms->key_node);
    for (const Entry& kind : kinds.entries()) {
      if (!is_collective_kind(kind.key))
        fail_at(file, kind.key_node, detail::unknown_message(kind.key, collective_kind_names(), "collective kind"));
      const std::string algorithm(trim(detail::scalar_value(file, kind)));
      if (algorithm.empty()) fail_at(file, kind.value, "empty algorithm name for '" + kind.key + "'");
      model.algorithms[kind.key] = algorithm;
    }
  }
  if (const Entry* eager = map.find("eager_transfer")) {
    const std::string choice = detail::scalar_value(file, *eager);
    if (std::find(eager_transfer_choices().begin(), eager_transfer_choices().end(), choice) ==
        eager_transfer_choices().end())
      fail_at(file, eager->value, invalid_choice("eager_transfer", choice, eager_transfer_choices()));
    model.eager_transfer = choice;
  }
}

void parse_outputs(const std::string& file, const Entry& entry, Outputs& outputs) {
  const MapReader map(file, entry.value, "'outputs'", entry.key_node);
  map.allow_only({"json", "text", "event_log"});
  if (const Entry* json = map.find("json")) outputs.json = detail::scalar_value(file, *json);
  if (const Entry* text = map.find("text")) outputs.text = detail::scalar_value(file, *text);
  if (const Entry* log = map.find("event_log")) outputs.event_log = detail::scalar_value(file, *log);
}

Loaded parse_scenario(const detail::Document& document, const std::string& base_dir,
                      const machines::MachineRegistry& registry) {
  const std::string& file = document.file;
  const MapReader root(file, document.root, "the scenario");
  root.allow_only(scenario_keys());
  detail::check_schema_version(file, root.require("schema_version"));

  Loaded loaded;
  Scenario& scenario = loaded.scenario;
  scenario.file = file;
  if (const Entry* name = root.find("name")) scenario.name = detail::scalar_value(file, *name);
  const Entry* program = root.find("program");
  if (program != nullptr && root.find("trace") != nullptr)
    fail_at(file, program->key_node, "give either 'trace' or 'program', not both");
  if (program != nullptr) {
    scenario.trace_format = "program";
    scenario.trace_path = resolve_path(base_dir, detail::scalar_value(file, *program));
    loaded.trace_node = program->value;
  } else {
    const Entry& trace = root.require("trace");
    parse_trace(file, trace, base_dir, scenario);
    loaded.trace_node = trace.value;
  }
  load_program(scenario);
  if (const Entry* parameters = root.find("parameters")) parse_parameters(file, *parameters, scenario);
  // The machine comes first: overrides and sweep keys are validated against its model. A
  // `machine` sweep axis replaces the top-level key; its machines are resolved here too.
  const Entry* sweep_entry = root.find("sweep");
  if (sweep_entry != nullptr) {
    const MapReader sweep_map(file, sweep_entry->value, "'sweep'", sweep_entry->key_node);
    if (const Entry* axis = sweep_map.find("machine")) {
      if (root.find("machine") != nullptr)
        fail_at(file, axis->key_node, "'machine' is given both at the top level and in 'sweep'; keep one");
      scenario.swept_machines = parse_machine_axis(file, *axis, base_dir, registry);
      scenario.machine = scenario.swept_machines.front();
    }
  }
  if (scenario.swept_machines.empty())
    scenario.machine = parse_machine(file, root.require("machine"), base_dir, registry);
  if (const Entry* overrides = root.find("overrides")) parse_overrides(file, *overrides, scenario);
  const Entry* processors = root.find("processors");
  if (processors != nullptr) scenario.processors = parse_processors(file, *processors);
  if (sweep_entry != nullptr) parse_sweep(file, *sweep_entry, scenario, processors != nullptr);
  if (const Entry* grids = root.find("grids")) {
    if (processors != nullptr) fail_at(file, grids->key_node, "give either 'processors' or 'grids', not both");
    scenario.grids = parse_grids(file, *grids);
  }
  if (const Entry* model = root.find("model")) parse_model(file, *model, scenario.model);
  if (const Entry* outputs = root.find("outputs")) parse_outputs(file, *outputs, scenario.outputs);
  return loaded;
}

std::string placeholder_error(const Scenario& scenario) {
  if (scenario.processors.empty() && scenario.trace_path.find("{P}") != std::string::npos)
    return "the trace path '" + scenario.trace_path +
           "' contains {P} but no processor counts are given (set 'processors')";
  return {};
}

/// The scenarios folder's info line: what a scenario (file and --set overrides) asks to run.
void log_scenario(spdlog::logger& lg, const Scenario& scenario) {
  std::string axes;
  for (const auto& [key, values] : scenario.sweep) {
    axes +=
        fmt::format("{}{} ({} value{})", axes.empty() ? "" : ", ", key, values.size(), values.size() == 1 ? "" : "s");
  }
  std::string counts;
  for (const int p : scenario.processors) counts += (counts.empty() ? "" : " ") + std::to_string(p);
  for (const auto& grid : scenario.grids) counts += (counts.empty() ? "" : " ") + grid_name(grid);
  // A scenario built from the command line is named "(command line)" as its file.
  const std::string origin = scenario.file.empty() || scenario.file.starts_with('(')
                                 ? std::string("from the command line")
                                 : fmt::format("{} ('{}')", scenario.file, scenario.name);
  lg.info("scenario {}: {} trace {}, machine {} ({}), processors: {}, sweep: {}", origin, scenario.trace_format,
          scenario.trace_path, scenario.machine.name, scenario.machine.model,
          counts.empty() ? std::string("the trace's") : counts, axes.empty() ? std::string("none") : axes);
}

Scenario finish(Loaded loaded, const machines::MachineRegistry& registry, const std::vector<std::string>& overrides,
                const std::vector<std::string>& origins) {
  const std::string trace_before = loaded.scenario.trace_path;
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    try {
      apply_override(loaded.scenario, overrides[i], registry);
    } catch (const ConfigError& e) {
      if (e.file() != set_file || i >= origins.size() || origins[i] == set_file) throw;
      throw ConfigError(origins[i], e.line(), e.col(), e.message());
    }
  }
  load_program(loaded.scenario);
  for (const auto& [key, values] : loaded.scenario.sweep) {
    if (!key.starts_with("program.")) continue;
    if (const std::string e = check_program_parameter(loaded.scenario, key.substr(8)); !e.empty())
      throw ConfigError(set_file, 0, 0, e);
  }
  for (const auto& [name, value] : loaded.scenario.program_values) {
    if (const std::string e = check_program_parameter(loaded.scenario, name); !e.empty())
      throw ConfigError(set_file, 0, 0, e);
  }
  const std::string error = placeholder_error(loaded.scenario);
  if (!error.empty()) {
    if (loaded.scenario.trace_path == trace_before) fail_at(loaded.scenario.file, loaded.trace_node, error);
    throw ConfigError(set_file, 0, 0, error);
  }
  if (auto* lg = engine::logger_at(engine::Folder::scenarios, spdlog::level::info)) log_scenario(*lg, loaded.scenario);
  return std::move(loaded.scenario);
}

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

std::string default_scenario_path() {
  const char* from_environment = std::getenv("AUGUR_DEFAULT_SCENARIO");
  if (from_environment != nullptr && *from_environment != '\0') return from_environment;
  return AUGUR_SOURCE_DIR "/scenarios/examples/default.yaml";
}

Scenario load_scenario_file(const std::string& path, const machines::MachineRegistry& registry,
                            const std::vector<std::string>& overrides, const std::vector<std::string>& origins) {
  return detail::with_positions([&] {
    const detail::Document document = detail::parse_file(path);
    try {
      return finish(parse_scenario(document, fs::path(path).parent_path().string(), registry), registry, overrides,
                    origins);
    } catch (const YAML::Exception& error) {  // a yaml-cpp surprise still gets the file and position
      throw detail::yaml_error(path, error);
    }
  });
}

Scenario load_scenario_text(const std::string& text, const std::string& file, const std::string& base_dir,
                            const machines::MachineRegistry& registry, const std::vector<std::string>& overrides,
                            const std::vector<std::string>& origins) {
  return detail::with_positions([&] {
    const detail::Document document = detail::parse_text(text, file);
    try {
      return finish(parse_scenario(document, base_dir, registry), registry, overrides, origins);
    } catch (const YAML::Exception& error) {
      throw detail::yaml_error(file, error);
    }
  });
}

void apply_override(Scenario& scenario, const std::string& assignment, const machines::MachineRegistry& registry) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos) set_error("expected key=value, got '" + assignment + "'");
  const std::string key(trim(std::string_view(assignment).substr(0, equals)));
  const std::string value(trim(std::string_view(assignment).substr(equals + 1)));

  if (key == "name") {
    scenario.name = value;
  } else if (key == "trace") {
    std::string format;
    std::string path;
    const std::string error = split_trace_ref(value, format, path);
    if (!error.empty()) set_error(error);
    scenario.trace_format = format;
    scenario.trace_path = path;  // relative to the working directory, like any command-line path
  } else if (key == "machine") {
    // Replaces the whole machine: `overrides:` and earlier `machine.*` values belonged to the old
    // one (possibly another model). Later `--set machine.<param>=…` apply to the new machine.
    // A `machine` sweep axis goes too: the scenario runs on this one machine.
    Scenario changed = scenario;  // all or nothing: the sweep is checked before anything changes
    changed.machine = detail::resolve_machine_ref(value, "", registry, set_file, YAML::Node());
    changed.swept_machines.clear();
    if (const std::size_t at = find_axis(changed, "machine"); at < changed.sweep.size())
      changed.sweep.erase(changed.sweep.begin() + static_cast<std::ptrdiff_t>(at));
    check_sweep_against_machine(changed);
    scenario = std::move(changed);
  } else if (key == "sweep.machine") {
    // Replaces the machine axis (or appends it; an empty value removes it). Like `machine=`, the
    // new machines come without the file's `overrides:`; later `machine.*` values apply to all.
    std::vector<std::string> refs;
    if (!split_values(value, refs)) set_error("invalid list '" + value + "' for '" + key + "'");
    Scenario changed = scenario;
    const std::size_t at = find_axis(changed, "machine");
    if (refs.empty()) {  // the scenario keeps the first machine of the axis
      if (at < changed.sweep.size()) changed.sweep.erase(changed.sweep.begin() + static_cast<std::ptrdiff_t>(at));
      changed.swept_machines.clear();
    } else {
      changed.swept_machines =
          resolve_swept_machines(refs, std::vector<YAML::Node>(refs.size()), "", set_file, registry);
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
  } else if (key == "processors" || key == "sweep.processors") {
    scenario.processors = processors_from_text(key, value);
    scenario.grids.clear();
  } else if (key == "grids") {
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
  } else if (key.starts_with("machine.") && some_machine_has(scenario, key.substr(8))) {
    // With a machine axis: every swept machine takes the value (all or nothing).
    const std::string error = check_param_for_all(scenario, key.substr(8), value);
    if (!error.empty()) set_error(error);
    try {
      for (MachineDescription* machine : machine_targets(scenario)) machine->params.set(key.substr(8), value);
    } catch (const machines::ParamError& param_error) {
      set_error(param_error.what());
    }
  } else if (key == "model.collectives") {
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
  } else if (key == "outputs.json") {
    scenario.outputs.json = value;
  } else if (key == "outputs.text") {
    scenario.outputs.text = value;
  } else if (key == "outputs.event_log") {
    scenario.outputs.event_log = value;
  } else if (key == "program") {
    scenario.trace_format = "program";
    scenario.trace_path = value;
  } else if (key.starts_with("program.") || key.starts_with("sweep.program.")) {
    apply_program_override(scenario, key, value);
  } else if (key.starts_with("sweep.machine.") && some_machine_has(scenario, key.substr(14))) {
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
  } else {
    const std::string suggestion = machines::nearest_name(key, override_keys(scenario));
    if (!suggestion.empty()) set_error("unknown key '" + key + "'; did you mean '" + suggestion + "'?");
    set_error("unknown key '" + key +
              "'; valid keys are: name, trace, machine, processors, machine.<parameter>, "
              "model.collectives, model.algorithms.<collective kind>, model.eager_transfer, "
              "outputs.json, outputs.text, outputs.event_log, sweep.processors, sweep.machine, "
              "program, program.<parameter>, sweep.program.<parameter>, "
              "sweep.machine.<parameter> (parameters of machine model '" +
              scenario.machine.model + "': " + detail::join(scenario.machine.params.names()) + ")");
  }
}

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
                        "the 'machine' sweep axis (" + detail::join(names) +
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
