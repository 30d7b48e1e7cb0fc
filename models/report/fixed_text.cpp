// Fixed-point and right-aligned numbers for the text reports (see fixed_text.hpp).
#include "models/report/fixed_text.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>

namespace augur::models::report::detail {

namespace {

/// Appends the `length` characters at `text` right-aligned in `width`, where the `room` bytes
/// before `text` may be overwritten: the padding goes there and the string grows once.
void append_padded(std::string& out, char* text, std::size_t length, int width, std::size_t room) {
  const std::size_t pad = static_cast<int>(length) < width ? static_cast<std::size_t>(width) - length : 0;
  if (pad <= room) {
    std::memset(text - pad, ' ', pad);
    out.append(text - pad, pad + length);
    return;
  }
  out.append(pad, ' ');
  out.append(text, length);
}

/// Room for a column's padding in front of a number written into a buffer.
constexpr std::size_t pad_room = 64;

}  // namespace

void append_right(std::string& out, std::string_view text, int width) {
  if (static_cast<int>(text.size()) < width) out.append(static_cast<std::size_t>(width) - text.size(), ' ');
  out += text;
}

void append_fixed(std::string& out, double value, int precision, int width) {
  if (std::fabs(value) >= fixed_limit) {  // not a 300-digit number: 1.0000e+300
    out += fmt::format("{:>{}.{}e}", value, width, precision);
    return;
  }
  std::array<char, pad_room + 352> buffer;
  char* const number = buffer.data() + pad_room;
  const auto result = std::to_chars(number, buffer.data() + buffer.size(), value, std::chars_format::fixed, precision);
  if (result.ec != std::errc()) {
    out += fmt::format("{:>{}.{}f}", value, width, precision);
    return;
  }
  append_padded(out, number, static_cast<std::size_t>(result.ptr - number), width, pad_room);
}

void append_right(std::string& out, std::uint64_t value, int width) {
  std::array<char, pad_room + 24> buffer;
  char* const number = buffer.data() + pad_room;
  const auto result = std::to_chars(number, buffer.data() + buffer.size(), value);
  append_padded(out, number, static_cast<std::size_t>(result.ptr - number), width, pad_room);
}

}  // namespace augur::models::report::detail
