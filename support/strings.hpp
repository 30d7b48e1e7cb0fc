// The code base's string helpers: one trim, one join.
#pragma once
#include <span>
#include <string>
#include <string_view>

namespace augur::support {

/// `text` without its leading and trailing blanks (space, tab, carriage return, newline).
std::string_view trim(std::string_view text);

/// The words joined by `separator` ("a, b, c"); "" for none.
std::string join(std::span<const std::string> words, std::string_view separator = ", ");

}  // namespace augur::support
