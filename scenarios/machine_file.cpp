// Machine descriptions from YAML (the format of machines/library/*.yaml) and the machine library:
// every value is validated by the model's parameter declarations, every error is positioned.
#include "scenarios/machine_file.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "machines/platform/platform.hpp"
#include "machines/platform/platform_error.hpp"
#include "machines/platform/simgrid_config.hpp"
#include "scenarios/predictor_par.hpp"
#include "support/edit_distance.hpp"
#include "support/strings.hpp"

namespace augur::scenarios {
namespace fs = std::filesystem;

namespace detail {
namespace {

/// The keys of a machine map that are not parameters of the model.
const std::vector<std::string>& fixed_machine_keys() {
  static const std::vector<std::string> keys = {"schema_version", "model", "description", "name", "node"};
  return keys;
}

bool is_file(const fs::path& path) {
  std::error_code ignored;
  return fs::is_regular_file(path, ignored);
}

/// Stems of the *.yaml files in `dir`, sorted; empty when the folder is missing.
std::vector<std::string> library_names(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
    if (it->path().extension() == ".yaml" && is_file(it->path())) names.push_back(it->path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

void check_schema_version(const std::string& file, const Entry& entry) {
  const std::string text = scalar_value(file, entry);
  const bool digits = !text.empty() && text.size() < 10 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits)
    fail_at(file, entry.value, "invalid schema_version '" + text + "': expected " + std::to_string(schema_version));
  if (std::stoi(text) != schema_version)
    fail_at(file, entry.value,
            "unsupported schema_version " + text + " (this augur reads " + std::to_string(schema_version) + ")");
}

void set_param(const std::string& file, machines::ParamSet& params, const Entry& entry) {
  if (entry.value.IsNull()) fail_at(file, entry.key_node, "no value given for '" + entry.key + "'");
  if (entry.value.IsMap())
    fail_at(file, entry.value, "expected a value or a list for '" + entry.key + "', found a map");
  try {
    if (entry.value.IsSequence()) {
      std::vector<std::string> items;
      for (const YAML::Node& item : entry.value) {
        if (!item.IsScalar())
          fail_at(file, item,
                  "expected a single value in the list of '" + entry.key + "', found " + describe_type(item));
        items.push_back(item.Scalar());
      }
      params.set_list(entry.key, items);
    } else {
      params.set(entry.key, entry.value.Scalar());
    }
  } catch (const machines::ParamError& error) {
    // Point at the first list item that is wrong by itself, if there is one.
    if (entry.value.IsSequence())
      for (const YAML::Node& item : entry.value) {
        machines::ParamSet trial = params;
        try {
          trial.set(entry.key, item.Scalar());
        } catch (const machines::ParamError&) {
          fail_at(file, item, error.what());
        }
      }
    fail_at(file, entry.value, error.what());
  }
}

std::string param_value_text(const std::string& file, const YAML::Node& node, const std::string& what) {
  if (node.IsScalar()) return node.Scalar();
  if (node.IsSequence()) return flow_text(file, node, what);
  fail_at(file, node, "expected a value for '" + what + "', found " + describe_type(node));
}

MachineDescription parse_machine_map(const std::string& file, const YAML::Node& node, const YAML::Node& owner,
                                     MachineForm form, const machines::MachineRegistry& registry) {
  const MapReader map(file, node, form == MachineForm::file ? "the machine" : "'machine'", owner);
  if (form == MachineForm::file)
    check_schema_version(file, map.require("schema_version"));
  else if (const Entry* version = map.find("schema_version"))
    check_schema_version(file, *version);

  const Entry& model_entry = map.require("model");
  MachineDescription machine;
  machine.model = scalar_value(file, model_entry);
  const machines::MachineModelInfo* info = nullptr;
  try {
    info = &registry.get(machine.model);
  } catch (const machines::ParamError& error) {
    fail_at(file, model_entry.value, error.what());
  }
  machine.params = machines::make_params(*info);
  if (const Entry* description = map.find("description")) machine.description = scalar_value(file, *description);
  if (const Entry* name = map.find("name")) machine.name = scalar_value(file, *name);

  if (const Entry* node_entry = map.find("node")) machine.params.set_node(parse_node(file, *node_entry));

  const auto& fixed = fixed_machine_keys();
  for (const Entry& entry : map.entries()) {
    if (std::find(fixed.begin(), fixed.end(), entry.key) != fixed.end()) continue;
    if (entry.key == machines::kMemoryLevelParam && !machine.params.node())
      fail_at(file, entry.key_node, "'memory_level' chooses a level of the machine's node: declare a `node:` map");
    if (!machine.params.has(entry.key)) {
      std::vector<std::string> candidates = fixed;
      for (const auto& param : machine.params.names()) candidates.push_back(param);
      fail_at(file, entry.key_node, unknown_message(entry.key, candidates));
    }
    set_param(file, machine.params, entry);
  }
  return machine;
}

std::optional<MachineDescription> parse_flat_machine(const std::vector<FlatEntry>& entries,
                                                     const machines::MachineRegistry& registry) {
  const auto value_of = [&entries](std::string_view key) -> const std::string_view* {
    for (const FlatEntry& entry : entries)
      if (entry.key == key) return &entry.value;
    return nullptr;
  };
  const std::string_view* version = value_of("schema_version");
  const std::string_view* model = value_of("model");
  if (version == nullptr || model == nullptr || *version != std::to_string(schema_version)) return std::nullopt;
  if (value_of("node") != nullptr) return std::nullopt;  // a map: read (or rejected) as YAML
  const machines::MachineModelInfo* info = registry.find(*model);
  if (info == nullptr) return std::nullopt;
  MachineDescription machine;
  machine.model = std::string(*model);
  machine.params = machines::make_params(*info);
  if (const std::string_view* description = value_of("description")) machine.description = std::string(*description);
  if (const std::string_view* name = value_of("name")) machine.name = std::string(*name);
  const auto& fixed = fixed_machine_keys();
  for (const FlatEntry& entry : entries) {
    if (std::find(fixed.begin(), fixed.end(), entry.key) != fixed.end()) continue;
    if (!machine.params.has(entry.key)) return std::nullopt;
    try {
      machine.params.set(std::string(entry.key), std::string(entry.value));
    } catch (const machines::ParamError&) {
      return std::nullopt;
    }
  }
  return machine;
}

MachineDescription resolve_machine_ref(const std::string& ref, const std::string& base_dir,
                                       const machines::MachineRegistry& registry, const std::string& file,
                                       const YAML::Node& at) {
  if (ref.empty()) fail_at(file, at, "empty machine name");
  if (!base_dir.empty() && fs::path(ref).is_relative()) {
    const fs::path beside = (fs::path(base_dir) / ref).lexically_normal();
    if (is_file(beside)) return load_machine_file(beside.string(), registry);
  }
  if (is_file(ref)) return load_machine_file(ref, registry);
  if (std::error_code ec; fs::is_directory(ref, ec))
    fail_at(file, at,
            "machine '" + ref +
                "' is a folder: expected a machine file (.yaml, Predictor .par or SimGrid .xml) or a library name");
  const std::string dir = machine_library_dir();
  const std::string stem = fs::path(ref).extension() == ".yaml" ? fs::path(ref).stem().string() : ref;
  const fs::path in_library = fs::path(dir) / (stem + ".yaml");
  if (ref.find('/') == std::string::npos && is_file(in_library))
    return load_machine_file(in_library.string(), registry);

  const auto names = library_names(dir);
  std::string message =
      "unknown machine '" + ref + "': no such file, and no '" + stem + ".yaml' in the machine library (" + dir + ")";
  message += support::did_you_mean(stem, names);
  message += names.empty() ? std::string(" The library is empty.") : " Library machines: " + support::join(names);
  fail_at(file, at, message);
}

}  // namespace detail

std::string machine_library_dir() {
  const char* from_environment = std::getenv("AUGUR_MACHINE_PATH");
  if (from_environment != nullptr && *from_environment != '\0') return from_environment;
  return AUGUR_SOURCE_DIR "/machines/library";
}

MachineDescription load_machine_file(const std::string& path, const machines::MachineRegistry& registry) {
  // A legacy Predictor.par (spec 3.3) is accepted wherever a machine file is.
  if (fs::path(path).extension() == ".par" || fs::path(path).extension() == ".PAR")
    return load_predictor_par(path, registry);
  std::optional<std::string> text;  // unreadable: parse_file below says why
  try {
    text = detail::read_config_file(path);
  } catch (const ConfigError&) {
  }
  if (text && machines::platform::looks_like_platform(path, *text)) return load_platform(path, *text, registry);
  if (text && looks_like_predictor_par(path, *text)) return parse_predictor_par(*text, path, registry);
  // The usual machine file, flat `key: value` lines that all hold, is read without YAML nodes
  // (~150 k instructions, a fifth of a tiny run's); anything else, and every error, as a YAML
  // document.
  if (text && !detail::PrecisePositions::active()) {
    if (const auto entries = detail::scan_flat_map(*text)) {
      if (std::optional<MachineDescription> machine = detail::parse_flat_machine(*entries, registry)) {
        machine->source = path;
        if (machine->name.empty()) machine->name = fs::path(path).stem().string();
        return std::move(*machine);
      }
    }
  }
  return detail::with_positions([&] {
    const detail::Document document = text ? detail::parse_text(*text, path) : detail::parse_file(path);
    try {
      MachineDescription machine =
          detail::parse_machine_map(document.file, document.root, YAML::Node(), detail::MachineForm::file, registry);
      machine.source = path;
      if (machine.name.empty()) machine.name = fs::path(path).stem().string();
      return machine;
    } catch (const YAML::Exception& error) {  // a yaml-cpp surprise still gets the file and position
      throw detail::yaml_error(path, error);
    }
  });
}

MachineDescription load_platform(const std::string& path, const std::string& text,
                                 const machines::MachineRegistry& registry) {
  // Read once here so that a broken file is reported at load time, with its line; the machine
  // model reads it again when it is built (platform_machine.cpp).
  try {
    const machines::platform::Platform platform = machines::platform::parse_platform(text, path);
    MachineDescription machine;
    machine.model = "simgrid_platform";
    machine.params = machines::make_params(registry.get(machine.model));
    machine.params.set("platform", path);
    machine.source = path;
    machine.name = fs::path(path).stem().string();
    machine.description = "SimGrid platform " + fs::path(path).filename().string() + ": " +
                          std::to_string(platform.hosts.size()) + " hosts";
    // <config><prop id value>: SimGrid options, as --cfg would set them (the command line's win)
    for (std::size_t i = 0; i < platform.config.size(); ++i) {
      try {
        const auto [param, value] =
            machines::platform::simgrid_option(platform.config[i].first, platform.config[i].second);
        if (!param.empty()) machine.params.set(param, value);
      } catch (const std::exception& error) {
        throw ConfigError(path, platform.config_lines[i], 0, error.what());
      }
    }
    return machine;
  } catch (const machines::platform::PlatformError& error) {
    throw ConfigError(error.file(), error.line(), 0, error.message());
  }
}

MachineDescription resolve_machine(const std::string& ref, const machines::MachineRegistry& registry) {
  return detail::resolve_machine_ref(ref, "", registry, "", YAML::Node());
}

}  // namespace augur::scenarios
