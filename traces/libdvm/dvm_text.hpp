// Private to traces/libdvm: the number and token conversions of the Lib-DVM reader
// (std::from_chars / std::to_chars, no locale, no allocation).
#pragma once
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>

#include "traces/text_scan.hpp"

namespace augur::traces::libdvm {

/// Outcome of converting one field (the value a parse_dvm_ function leaves means something only
/// with `ok`).
enum class DvmNumber : std::uint8_t { ok, bad, out_of_range };

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
/// null pointer); an optional `0x` is accepted. Same verdicts as std::from_chars(…, 16) (digits
/// then the end of the text, else `bad`; too many digits: `out_of_range`), without its call.
inline DvmNumber parse_dvm_hex(std::string_view text, std::uint64_t& value) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
  } else if (text == "NULL" || text == "(nil)") {
    value = 0;
    return DvmNumber::ok;
  }
  if (text.empty()) return DvmNumber::bad;
  std::uint64_t v = 0;
  bool overflow = false;
  for (const char c : text) {
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a') + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A') + 10;
    } else {
      return DvmNumber::bad;
    }
    overflow = overflow || (v >> 60) != 0;
    v = (v << 4) | digit;
  }
  if (overflow) return DvmNumber::out_of_range;
  value = v;
  return DvmNumber::ok;
}

/// A decimal integer with an optional sign. Same verdicts as std::from_chars after dropping
/// one leading '+' (so `+-5` reads as -5, as before), without its call.
inline DvmNumber parse_dvm_integer(std::string_view text, std::int64_t& value) {
  if (text.size() > 1 && text[0] == '+') text.remove_prefix(1);
  std::size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) i = 1;
  if (i == text.size()) return DvmNumber::bad;
  std::uint64_t magnitude = 0;
  bool overflow = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return DvmNumber::bad;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (magnitude > (UINT64_MAX - digit) / 10) overflow = true;
    magnitude = magnitude * 10 + digit;
  }
  constexpr std::uint64_t limit = std::uint64_t{1} << 63;  // |INT64_MIN|
  if (overflow || magnitude > (negative ? limit : limit - 1)) return DvmNumber::out_of_range;
  value = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  return DvmNumber::ok;
}

/// A finite real in fixed or scientific notation. `[-]digits[.digits]` with at most 15
/// significant digits and 22 decimals (every TIME the runtime prints) is m / 10^k in double:
/// both are exact, and IEEE division rounds correctly, so the result is the double
/// std::from_chars gives; anything else goes to std::from_chars.
/// The eight characters at `at` as a number when they are all decimal digits (`value` then set).
inline bool eight_digits(const char* at, std::uint64_t& value) {
  if constexpr (std::endian::native != std::endian::little) return false;
  std::uint64_t word = load_word<std::uint64_t>(at);
  // Digits are 0x30…0x39: the high nibble 3, and adding 6 leaves it 3.
  if (((word & 0xF0F0F0F0F0F0F0F0) | (((word + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4)) != 0x3333333333333333) {
    return false;
  }
  word -= 0x3030303030303030;
  // Pairs, then fours, then the eight (the first character is the lowest byte).
  word = (word * 10) + (word >> 8);
  word = (((word & 0x000000FF000000FF) * (100 + (1000000ULL << 32))) +
          (((word >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32)))) >>
         32;
  value = word;
  return true;
}

inline DvmNumber parse_dvm_real(std::string_view text, double& value) {
  if (text.size() > 1 && text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return DvmNumber::bad;
  {
    static constexpr double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    std::size_t i = text[0] == '-' ? 1 : 0;
    const std::size_t int_start = i;
    std::uint64_t m = 0;
    int digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      m = m * 10 + static_cast<std::uint64_t>(text[i] - '0');
      if (m != 0) ++digits;
    }
    // At most 15 significant digits: m < 10^15 (in the integer part m may wrap: digits decides).
    constexpr std::uint64_t limit = 1'000'000'000'000'000;
    bool simple = i > int_start && digits <= 15;
    int decimals = 0;
    if (simple && i < text.size() && text[i] == '.') {
      ++i;
      const std::size_t frac_start = i;
      // Eight decimals at a time (a TIME has eight) while m stays below the limit, then one by
      // one; a digit that takes m to the limit stops the loop before it (the general path then).
      std::uint64_t eight = 0;
      while (text.size() - i >= 8 && m < 10'000'000 && decimals <= 14 && eight_digits(text.data() + i, eight)) {
        m = m * 100'000'000 + eight;
        i += 8;
        decimals += 8;
      }
      for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && decimals <= 22; ++i, ++decimals) {
        m = m * 10 + static_cast<std::uint64_t>(text[i] - '0');
        if (m >= limit) break;
      }
      simple = i > frac_start;
    }
    if (simple && i == text.size() && m < limit && decimals <= 22) {
      // m < 10^15 < 2^53: exact; 10^decimals ≤ 10^22: exact.
      const double magnitude = static_cast<double>(m) / powers[decimals];
      value = text[0] == '-' ? -magnitude : magnitude;
      return DvmNumber::ok;
    }
  }
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
  const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 8);
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
/// allowed before '=', and after it when there are some before) calls on_param(NAME, value
/// without a trailing ';'), the value running to the next blank; any other token calls
/// on_token(token without a trailing ';').
template <typename OnParam, typename OnToken>
void scan_dvm_tokens(std::string_view text, OnParam&& on_param, OnToken&& on_token) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    while (i < n && (is_blank(text[i]) || text[i] == ';')) ++i;
    if (i == n) break;
    const std::size_t start = i;
    i = static_cast<std::size_t>(find_first_of<'=', ' ', '\t'>(text.data() + i, text.data() + n) - text.data());
    const std::size_t name_end = i;
    std::size_t eq = i;
    while (eq < n && is_blank(text[eq])) ++eq;
    if (eq < n && text[eq] == '=' && name_end > start) {
      std::size_t value_start = eq + 1;
      // `NAME = value` (setelw_'s weights): blanks on both sides of '=' precede the value. A
      // blank after '=' alone (`NAME= 2`) leaves the value empty, as before.
      if (eq > name_end) {
        while (value_start < n && is_blank(text[value_start])) ++value_start;
      }
      const auto value_end =
          static_cast<std::size_t>(find_blank(text.data() + value_start, text.data() + n) - text.data());
      on_param(text.substr(start, name_end - start),
               strip_semicolon(text.substr(value_start, value_end - value_start)));
      i = value_end;
      continue;
    }
    if (i < n && text[i] == '=') ++i;  // a lone '=' without a name
    if (name_end > start) on_token(strip_semicolon(text.substr(start, name_end - start)));
  }
}

/// Hash of a name for DvmNameTable: its length and its first and last 8 bytes (names are
/// identifiers of a few to a few dozen characters), a few instructions whatever the length.
inline std::uint32_t hash_dvm_name(std::string_view name) {
  const std::size_t n = name.size();
  std::uint64_t head = 0;
  std::uint64_t tail = 0;
  if (n >= 8) {
    std::memcpy(&head, name.data(), 8);
    std::memcpy(&tail, name.data() + n - 8, 8);
  } else {
    for (const char c : name) head = (head << 8) | static_cast<unsigned char>(c);
  }
  std::uint64_t h = (head * 0x9E3779B97F4A7C15ULL) ^ (tail * 0xC2B2AE3D27D4EB4FULL) ^ n;
  h ^= h >> 32;
  h *= 0x94D049BB133111EBULL;
  return static_cast<std::uint32_t>(h >> 32);
}

/// A fixed open-addressing table from names (views of static storage) to small values: one
/// hash and usually one comparison per lookup, where a binary search over the names costs
/// several comparisons. Filled once, then read-only.
template <std::size_t Size>
class DvmNameTable {
 public:
  static_assert((Size & (Size - 1)) == 0, "the size is a power of two");
  void insert(std::string_view name, std::uint8_t value) {
    const std::uint32_t hash = hash_dvm_name(name);
    std::size_t slot = hash & (Size - 1);
    while (!names_[slot].empty()) slot = (slot + 1) & (Size - 1);
    names_[slot] = name;
    hashes_[slot] = hash;
    values_[slot] = value;
  }
  /// The value of `name`, or `missing`. The full hash is compared first: the characters only
  /// for the (almost always right) slot whose hash matches.
  std::uint8_t find(std::string_view name, std::uint8_t missing) const {
    const std::uint32_t hash = hash_dvm_name(name);
    for (std::size_t slot = hash & (Size - 1); !names_[slot].empty(); slot = (slot + 1) & (Size - 1)) {
      if (hashes_[slot] == hash && names_[slot] == name) return values_[slot];
    }
    return missing;
  }

 private:
  std::array<std::string_view, Size> names_{};
  std::array<std::uint32_t, Size> hashes_{};
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
