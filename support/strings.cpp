// trim and join.
#include "support/strings.hpp"

namespace augur::support {

std::string_view trim(std::string_view text) {
  constexpr std::string_view blanks = " \t\r\n";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

std::string join(std::span<const std::string> words, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) joined += separator;
    joined += words[i];
  }
  return joined;
}

}  // namespace augur::support
