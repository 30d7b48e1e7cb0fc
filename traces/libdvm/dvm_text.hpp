// Private to traces/libdvm: the number and token conversions of the Lib-DVM reader
// (std::from_chars / std::to_chars, no locale, no allocation).
#pragma once
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

namespace augur::traces::libdvm {

/// Outcome of converting one field.
enum class DvmNumber : std::uint8_t { ok, bad, out_of_range };

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// `text` without its leading blanks.
inline std::string_view skip_blanks(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && is_blank(text[i])) ++i;
  return text.substr(i);
}

/// `value` without one trailing ';' (the runtime ends most values with it).
inline std::string_view strip_semicolon(std::string_view value) {
  if (!value.empty() && value.back() == ';') value.remove_suffix(1);
  return value;
}

/// A hexadecimal handle as the runtime prints it (`%lx`, no prefix; `NULL` or `(nil)` for a
/// null pointer); an optional `0x` is accepted.
inline DvmNumber parse_dvm_hex(std::string_view text, std::uint64_t& value) {
  if (text == "NULL" || text == "(nil)") {
    value = 0;
    return DvmNumber::ok;
  }
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.empty()) return DvmNumber::bad;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value, 16);
  if (ptr != last) return DvmNumber::bad;
  if (ec == std::errc::result_out_of_range) return DvmNumber::out_of_range;
  return ec == std::errc() ? DvmNumber::ok : DvmNumber::bad;
}

/// A decimal integer with an optional sign.
inline DvmNumber parse_dvm_integer(std::string_view text, std::int64_t& value) {
  if (text.size() > 1 && text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return DvmNumber::bad;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (ptr != last) return DvmNumber::bad;
  if (ec == std::errc::result_out_of_range) return DvmNumber::out_of_range;
  return ec == std::errc() ? DvmNumber::ok : DvmNumber::bad;
}

/// A finite real in fixed or scientific notation.
inline DvmNumber parse_dvm_real(std::string_view text, double& value) {
  if (text.size() > 1 && text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return DvmNumber::bad;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value, std::chars_format::general);
  if (ptr != last) return DvmNumber::bad;
  if (ec == std::errc::result_out_of_range) return DvmNumber::out_of_range;
  if (ec != std::errc()) return DvmNumber::bad;
  return std::isfinite(value) ? DvmNumber::ok : DvmNumber::out_of_range;
}

/// `value` printed with 8 decimals (`%8.8lf`, the precision of every TIME the runtime and the
/// Predictor's merge write).
inline std::string_view format_dvm_time(double value, char (&buffer)[64]) {
  const auto [ptr, ec] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 8);
  if (ec != std::errc()) return "nan";
  return {buffer, static_cast<std::size_t>(ptr - buffer)};
}

/// `value` as it reads back after being printed with 8 decimals: exactly the double a reader of
/// the Predictor's merged file gets.
inline double round_dvm_time(double value) {
  char buffer[64];
  const std::string_view printed = format_dvm_time(value, buffer);
  double result = value;
  std::from_chars(printed.data(), printed.data() + printed.size(), result);
  return result;
}

/// Splits a parameter line into tokens separated by blanks and ';'. A token NAME=value (blanks
/// allowed before '=') calls on_param(NAME, value without a trailing ';'), the value running to
/// the next blank; any other token calls on_token(token without a trailing ';').
template <typename OnParam, typename OnToken>
void scan_dvm_tokens(std::string_view text, OnParam&& on_param, OnToken&& on_token) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    while (i < n && (is_blank(text[i]) || text[i] == ';')) ++i;
    if (i == n) break;
    const std::size_t start = i;
    while (i < n && text[i] != '=' && !is_blank(text[i])) ++i;
    const std::size_t name_end = i;
    std::size_t eq = i;
    while (eq < n && is_blank(text[eq])) ++eq;
    if (eq < n && text[eq] == '=' && name_end > start) {
      std::size_t value_end = eq + 1;
      while (value_end < n && !is_blank(text[value_end])) ++value_end;
      on_param(text.substr(start, name_end - start),
               strip_semicolon(text.substr(eq + 1, value_end - eq - 1)));
      i = value_end;
      continue;
    }
    if (i < n && text[i] == '=') ++i;  // a lone '=' without a name
    if (name_end > start) on_token(strip_semicolon(text.substr(start, name_end - start)));
  }
}

/// FNV-1a hash of a name.
inline std::uint32_t hash_dvm_name(std::string_view name) {
  std::uint32_t hash = 2166136261U;
  for (const char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619U;
  }
  return hash;
}

/// A fixed open-addressing table from names (views of static storage) to small values: one
/// hash and usually one comparison per lookup, where a binary search over the names costs
/// several comparisons. Filled once, then read-only.
template <std::size_t Size>
class DvmNameTable {
 public:
  static_assert((Size & (Size - 1)) == 0, "the size is a power of two");
  void insert(std::string_view name, std::uint8_t value) {
    std::size_t slot = hash_dvm_name(name) & (Size - 1);
    while (!names_[slot].empty()) slot = (slot + 1) & (Size - 1);
    names_[slot] = name;
    values_[slot] = value;
  }
  /// The value of `name`, or `missing`.
  std::uint8_t find(std::string_view name, std::uint8_t missing) const {
    for (std::size_t slot = hash_dvm_name(name) & (Size - 1); !names_[slot].empty();
         slot = (slot + 1) & (Size - 1)) {
      if (names_[slot] == name) return values_[slot];
    }
    return missing;
  }

 private:
  std::array<std::string_view, Size> names_{};
  std::array<std::uint8_t, Size> values_{};
};

/// `text` in quotes for a message, shortened when long.
inline std::string quoted_dvm(std::string_view text) {
  constexpr std::size_t limit = 40;
  std::string result(1, '\'');
  result.append(text.substr(0, limit));
  result.append(text.size() > limit ? "...'" : "'");
  return result;
}

}  // namespace augur::traces::libdvm
