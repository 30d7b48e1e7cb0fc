// AUGUR_VERSION is defined for this file only (models/report/CMakeLists.txt), so that a new version
// recompiles one file.
#include "models/report/version.hpp"

namespace augur::models::report {

std::string_view augur_version() { return AUGUR_VERSION; }
std::string_view generator() { return "augur " AUGUR_VERSION; }

}  // namespace augur::models::report
