// Private to scenarios/: the machine-file format (machines/library/*.yaml), shared by machine
// files, inline `machine:` maps and the scenario's `overrides:` and `sweep:` sections.
#pragma once
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "machines/registry.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/yaml_util.hpp"

namespace augur::scenarios::detail {

/// The schema_version this build reads.
inline constexpr int schema_version = 1;

/// Machine files must say `schema_version: 1`; an inline `machine:` map may leave it out.
enum class MachineForm { file, inline_map };

/// Checks a `schema_version:` entry: an integer, equal to 1.
void check_schema_version(const std::string& file, const Entry& entry);

/// Reads a map in the machine-file format (schema_version, model, description, name, then the
/// model's parameters). `owner` is the key the map hangs under (for a missing map), if any.
MachineDescription parse_machine_map(const std::string& file, const YAML::Node& node, const YAML::Node& owner,
                                     MachineForm form, const machines::MachineRegistry& registry);

/// A machine file of flat `key: value` lines (scan_flat_map) read as parse_machine_map reads it
/// for MachineForm::file, without YAML nodes — or nothing when anything would be an error there
/// (a missing or other schema_version, an unknown model or parameter, a bad value): the caller
/// then reads the file as YAML, which reports the error at its position.
std::optional<MachineDescription> parse_flat_machine(const std::vector<FlatEntry>& entries,
                                                     const machines::MachineRegistry& registry);

/// Sets the parameter `entry.key` of `params` from its YAML value: a scalar through
/// ParamSet::set, a list through ParamSet::set_list. Bad values are reported at the value.
void set_param(const std::string& file, machines::ParamSet& params, const Entry& entry);

/// The `node:` entry of a machine map (node_file.cpp): cores, performance (per core), memory
/// (a list of levels, fastest first: name, bandwidth_per_core and/or bandwidth_per_node, capacity)
/// and math (function: flops per call). Errors at the offending key or value.
machines::NodeSpec parse_node(const std::string& file, const Entry& entry);

/// The text of one value for a parameter (a scalar, or a list written back as "[a, b]").
std::string param_value_text(const std::string& file, const YAML::Node& node, const std::string& what);

/// Resolves a machine reference: `base_dir`/ref (when base_dir is not empty), then ref as a path,
/// then the machine library. An unknown name is reported in `file` at `at` (0:0 when undefined).
MachineDescription resolve_machine_ref(const std::string& ref, const std::string& base_dir,
                                       const machines::MachineRegistry& registry, const std::string& file,
                                       const YAML::Node& at);

}  // namespace augur::scenarios::detail
