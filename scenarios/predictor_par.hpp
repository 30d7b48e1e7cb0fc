// Legacy DVM Predictor machine files `Predictor.par` (spec 3.3), both formats, read into a
// MachineDescription: the old format onto `bus` / `transputer_grid`, the cluster format of
// Predictor 3.1 onto `dvm_cluster`. Errors are ConfigError "file:line:col: error: …".
#pragma once
#include <string>
#include <string_view>

#include "machines/registry.hpp"
#include "scenarios/scenario.hpp"

namespace augur::scenarios {

/// True when `path` ends in `.par` (any case), or when `text` (the file's content) reads as
/// `key = value;` statements or starts with a `//` comment rather than as YAML.
bool looks_like_predictor_par(const std::string& path, std::string_view text);

/// Reads a Predictor.par machine file. Throws ConfigError (cannot open, syntax, unknown key,
/// undefined cluster, …) with the file and the position of the defect.
MachineDescription load_predictor_par(const std::string& path, const machines::MachineRegistry& registry);

/// Same, from text; `file` names it in errors and becomes the description's source.
MachineDescription parse_predictor_par(std::string_view text, const std::string& file,
                                       const machines::MachineRegistry& registry);

}  // namespace augur::scenarios
