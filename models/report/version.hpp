// The version the reports name (CMake's PROJECT_VERSION).
#pragma once
#include <string_view>

namespace augur::models::report {

/// "0.1.0": the project's version, as `augur version` prints it.
std::string_view augur_version();
/// "augur 0.1.0": what made a report (JSON `generator`, the HTML page's header).
std::string_view generator();

}  // namespace augur::models::report
