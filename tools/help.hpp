// The command line's help and guidance: the help of each command, "did you mean" for mistyped
// commands and options, `augur version` and `augur info machines`.
#pragma once
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "machines/registry.hpp"
#include "support/edit_distance.hpp"

namespace augur::tools {

/// The version of this build (CMake's PROJECT_VERSION, models/report/version.hpp).
std::string_view version();

/// The commands of the command line, in the order `augur --help` lists them.
const std::vector<std::string>& command_names();

/// Every option any command takes ("--trace", "--json", ...), for "did you mean".
const std::vector<std::string>& option_names();

/// The help of `command` ("run", "step", "check", "info", "predict"): what it does and every
/// option it takes; "" for a command without its own help.
std::string command_help(const std::string& command);

/// `augur info machines [NAME]`: without NAME, one line per ready machine of the library
/// (machines/library/*.yaml: name, model, description) and per machine model; with NAME, that
/// library machine's parameters, or that model's parameters with units and defaults. Throws
/// std::runtime_error for an unknown NAME (with a "did you mean").
void info_machines(std::ostream& out, const machines::MachineRegistry& registry, const std::string& name);

}  // namespace augur::tools
