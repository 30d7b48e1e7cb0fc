// The values scenario files and `--set` overrides share (scenarios folder only): trace
// references, lists, choices and the checks of machine parameters against every machine of a
// scenario (its machine and the machines of a `machine` sweep axis).
#pragma once
#include "support/strings.hpp"
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/scenario.hpp"
#include "scenarios/yaml_util.hpp"

namespace augur::scenarios::detail {

/// The file name of command-line overrides in errors.
inline constexpr const char* set_file = "--set";

/// The names of every engine::CollectiveKind, in enum order (for "did you mean" and help).
std::vector<std::string> collective_kind_names();

bool is_collective_kind(std::string_view name);

/// The values of `model.eager_transfer`.
const std::vector<std::string>& eager_transfer_choices();

/// "ti:PATH" → {"ti", "PATH"}; "PATH" → {"ti", "PATH"}. A prefix is a format when it is a word of
/// two or more lower-case letters, digits or underscores (so "C:/x" and "./a:b" stay paths).
/// Returns an error message, or "" when the reference is fine.
std::string split_trace_ref(std::string_view text, std::string& format, std::string& path);

/// "invalid WHAT 'VALUE'", a "did you mean" and the valid values.
std::string invalid_choice(std::string_view what, const std::string& value, const std::vector<std::string>& choices);

/// Every `machine.<param>` key of `machine`, with `prefix` before it.
std::vector<std::string> machine_keys(const MachineDescription& machine, const std::string& prefix);

/// Splits "1us,10us", "[1us, 10us]" or "[[1, 1], [2, 2]]" at the commas outside brackets.
/// Returns false on unbalanced brackets or an empty item.
bool split_values(std::string_view text, std::vector<std::string>& items);

/// The machines a `machine.<param>` override or sweep axis applies to: the swept machines (when
/// the scenario has a `machine` axis) and the scenario's machine.
std::vector<MachineDescription*> machine_targets(Scenario& scenario);

/// Why `param` = `value` does not suit every machine of the scenario (the message names the
/// machine when there is a machine axis), or "". `value` empty: only the parameter is checked.
std::string check_param_for_all(const Scenario& scenario, const std::string& param, const std::string& value);

/// Whether the scenario's machine or one of its swept machines has `param` (then an error about
/// it names the machine that lacks it rather than calling the key unknown).
bool some_machine_has(const Scenario& scenario, const std::string& param);

/// Resolves the values of a `machine` sweep axis (library names or paths; relative paths against
/// `base_dir`). Two machines of one name are an error: their variants could not be told apart.
/// `nodes` (one per ref, may be undefined) position the errors.
std::vector<MachineDescription> resolve_swept_machines(const std::vector<std::string>& refs,
                                                       const std::vector<YAML::Node>& nodes,
                                                       const std::string& base_dir, const std::string& file,
                                                       const machines::MachineRegistry& registry);

/// Why the scenario cannot expand into variants yet (a {P} trace path without processor
/// counts), or "".
std::string placeholder_error(const Scenario& scenario);

}  // namespace augur::scenarios::detail
