// Scenario files (spec section 11): YAML → Scenario, then the `--set key=value` overrides
// (scenario_override.cpp). Every value is validated at load time and every error is positioned.
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
#include "scenarios/scenario_values.hpp"
#include "scenarios/yaml_util.hpp"
#include "traces/trace_format.hpp"

namespace augur::scenarios {
namespace fs = std::filesystem;
using detail::Entry;
using detail::fail_at;
using detail::MapReader;
using namespace detail;  // the scenarios folder's shared values (scenario_values.hpp)

namespace {

const std::vector<std::string>& scenario_keys() {
  static const std::vector<std::string> keys = {"schema_version", "name",       "trace",   "machine",
                                                "overrides",      "processors", "grids",   "sweep",
                                                "model",          "outputs",    "program", "parameters"};
  return keys;
}

/// A relative `path` taken from a file in `base_dir` (as the user sees it from the working
/// directory); absolute paths and an empty base stay as they are.
std::string resolve_path(const std::string& base_dir, const std::string& path) {
  if (base_dir.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(base_dir) / path).lexically_normal().string();
}

/// A program skeleton's parameter setting (`parameters:`, `program.N`): "" when `name` is a
/// parameter of the scenario's program, else the error.
std::string check_program_parameter(const Scenario& scenario, const std::string& name) {
  if (!scenario.program) return "'program." + name + "' needs a program skeleton ('program:' or --program)";
  const auto& names = scenario.program->names;
  const auto end = names.begin() + static_cast<std::ptrdiff_t>(scenario.program->defaults.size());
  if (std::find(names.begin(), end, name) != end) return {};
  return "the program " + scenario.program->file + " has no parameter '" + name + "' (parameters: " +
         (names.begin() == end ? std::string("none") : support::join(std::vector<std::string>(names.begin(), end))) +
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
    path = std::string(support::trim(text));
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
    return detail::resolve_machine_ref(std::string(support::trim(entry.value.Scalar())), base_dir, registry, file,
                                       entry.value);
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
    refs.emplace_back(support::trim(item.Scalar()));
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
    model.collectives = std::string(support::trim(detail::scalar_value(file, *collectives)));
    if (model.collectives.empty()) fail_at(file, collectives->value, "empty value for 'collectives'");
  }
  if (const Entry* algorithms = map.find("algorithms")) {
    const MapReader kinds(file, algorithms->value, "'algorithms'", algorithms->key_node);
    for (const Entry& kind : kinds.entries()) {
      if (!is_collective_kind(kind.key))
        fail_at(file, kind.key_node, detail::unknown_message(kind.key, collective_kind_names(), "collective kind"));
      const std::string algorithm(support::trim(detail::scalar_value(file, kind)));
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

}  // namespace augur::scenarios
