// The monitor's one page (HTML, CSS and script in one text), compiled into the binary.
#pragma once
#include <string_view>

namespace augur::tools::monitor {

/// The page. It reads the token from its own URL, opens the WebSocket `/ws?token=…`, draws the
/// states it receives and sends the commands of monitor.hpp as text.
std::string_view page_html();

}  // namespace augur::tools::monitor
