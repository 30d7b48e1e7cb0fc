// Numbers of the text reports appended in place: fixed-point with a precision and right-aligned
// in a column — the bytes of fmt's "{:>W.Pf}" by std::to_chars, without a format string to parse
// per number (a report appends thousands).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace augur::models::report::detail {

/// From this magnitude on (and for infinities) append_fixed writes the exponent form: a time
/// of 1e300 s is not spelled with 300 digits.
inline constexpr double fixed_limit = 1e15;

/// Appends `value` with `precision` digits after the point, right-aligned in `width` characters
/// (wider when it needs more): fmt::format("{:>{}.{}f}", value, width, precision), byte for
/// byte — both round the exact binary value to nearest, ties to even — below fixed_limit in
/// magnitude, fmt::format("{:>{}.{}e}", ...) from there on.
void append_fixed(std::string& out, double value, int precision, int width = 0);

/// Appends `value` in decimal, right-aligned in `width` characters.
void append_right(std::string& out, std::uint64_t value, int width);

/// Appends `text` right-aligned in `width` characters.
void append_right(std::string& out, std::string_view text, int width);

}  // namespace augur::models::report::detail
