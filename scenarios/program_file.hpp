// Program skeleton files (YAML) turned into traces::skeleton::Program (program_file.cpp).
#pragma once
#include <memory>
#include <string>

#include "traces/skeleton/program.hpp"

namespace augur::scenarios {

/// Loads a skeleton file: `name`, `parameters` (name → default expression, in order), `program`
/// (the phases). Throws ConfigError ("file:line:col: error: ...") for any defect, expressions
/// included.
std::shared_ptr<const traces::skeleton::Program> load_program_file(const std::string& path);

/// Same, from text (`file` names it in errors).
std::shared_ptr<const traces::skeleton::Program> load_program_text(const std::string& text, const std::string& file);

/// The value of a parameter setting (`--set program.N=64`, a sweep value): a constant expression
/// ("64", "2^10", "4KiB"). Throws ConfigError in `file` (line 0) when it is not one.
double program_value(const std::string& text, const std::string& file, const std::string& key);

}  // namespace augur::scenarios
