// Fixed-point and right-aligned numbers for the text reports (see fixed_text.hpp).
#include "models/report/fixed_text.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <system_error>

namespace augur::models::report::detail {

void append_right(std::string& out, std::string_view text, int width) {
  if (static_cast<int>(text.size()) < width) out.append(static_cast<std::size_t>(width) - text.size(), ' ');
  out += text;
}

void append_fixed(std::string& out, double value, int precision, int width) {
  // 330 characters hold every double below 1e308 with up to 17 decimals; beyond, fmt writes it.
  std::array<char, 352> buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed,
                                    precision);
  if (result.ec != std::errc()) {
    out += fmt::format("{:>{}.{}f}", value, width, precision);
    return;
  }
  append_right(out, std::string_view(buffer.data(), static_cast<std::size_t>(result.ptr - buffer.data())), width);
}

void append_right(std::string& out, std::uint64_t value, int width) {
  std::array<char, 24> buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  append_right(out, std::string_view(buffer.data(), static_cast<std::size_t>(result.ptr - buffer.data())), width);
}

}  // namespace augur::models::report::detail
