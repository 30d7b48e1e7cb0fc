// Private to traces/ti: the numbers of a TI field — plain digits and short decimals converted in
// one pass while they are scanned, anything else by from_chars; the messages of a bad number.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "traces/text_scan.hpp"

namespace augur::traces::ti {

enum class NumberStatus : std::uint8_t { ok, not_a_number, not_an_integer, negative, out_of_range };

/// A non-negative element count: integers directly, anything else like strtod then truncated.
NumberStatus parse_count(std::string_view text, std::uint64_t& value);
/// A finite, non-negative amount (flops, seconds).
NumberStatus parse_amount(std::string_view text, double& value);
/// A 32-bit integer.
NumberStatus parse_int(std::string_view text, std::int32_t& value);

/// A field quoted for a message, shortened when it is very long.
std::string quoted(std::string_view text);
/// "'x' is not a number (field 'count')".
std::string number_message(NumberStatus status, std::string_view text, const std::string& field);
/// "1 rank", "4 ranks".
std::string ranks_phrase(int rank_count);

/// The decimal digits from `p` on as a number (wrapping past T's range): `p` moves past them.
template <typename T>
inline T read_digits(const char*& p, const char* end) {
  T result = 0;
  while (p != end) {
    const auto digit = static_cast<unsigned>(static_cast<unsigned char>(*p) - '0');
    if (digit > 9) break;
    result = static_cast<T>(result * 10 + digit);
    ++p;
  }
  return result;
}

/// Reads the field at `p` (a non-blank) to its end (the next blank or `end`), converting it on
/// the way: true, with its value, when it is 1 to `max_digits` plain decimal digits — the common
/// case, in one pass over the characters. Otherwise false, `p` at the field's end, for the
/// general conversion of the whole field. (Digits beyond `max_digits` wrap T harmlessly: the
/// value is then discarded.)
template <std::size_t max_digits, typename T>
inline bool scan_digits(const char*& p, const char* end, T& value) {
  const char* const start = p;
  const T result = read_digits<T>(p, end);
  const auto digits = static_cast<std::size_t>(p - start);
  if (digits != 0 && digits <= max_digits && (p == end || is_blank(*p))) {
    value = result;
    return true;
  }
  while (p != end && !is_blank(*p)) ++p;
  return false;
}

/// Powers of ten a double holds exactly.
inline constexpr std::array<double, 23> exact_powers_of_ten{1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                            1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                            1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/// `<digits>[.<digits>][(e|E)[+|-]<digits>]` with at most 15 digits before the exponent and a
/// resulting power of ten within ±22, the form SimGrid's tracer writes amounts in ("2.33722e+06"):
/// the digits (< 10^15 < 2^53) and the power of ten are exact doubles, so one IEEE multiplication
/// or division gives the correctly rounded value — the value from_chars gives (Clinger's fast
/// path). Reads the field at `at` (a non-blank) in one pass: true, `at` at the field's end (the
/// next blank or `end`), when the whole field has that form; false for anything else (`at`
/// somewhere in the field), which from_chars then reads.
inline bool exact_decimal(const char*& at, const char* end, double& value) {
  std::uint64_t mantissa = 0;
  int digits = 0;
  int exponent = 0;
  const auto digit_at = [&] { return static_cast<unsigned>(static_cast<unsigned char>(*at) - '0'); };
  while (at != end && digit_at() <= 9) {
    mantissa = mantissa * 10 + digit_at();
    ++digits;
    ++at;
  }
  if (digits == 0) return false;
  if (at != end && *at == '.') {
    ++at;
    const int before = digits;
    while (at != end && digit_at() <= 9) {
      mantissa = mantissa * 10 + digit_at();
      ++digits;
      --exponent;
      ++at;
    }
    if (digits == before) return false;  // "1.": left to from_chars
  }
  if (digits > 15) return false;
  if (at != end && (*at == 'e' || *at == 'E')) {
    ++at;
    const bool negative = at != end && *at == '-';
    if (at != end && (*at == '+' || *at == '-')) ++at;
    int value_digits = 0;
    int power = 0;
    while (at != end && digit_at() <= 9 && value_digits < 3) {
      power = power * 10 + static_cast<int>(digit_at());
      ++value_digits;
      ++at;
    }
    if (value_digits == 0) return false;
    exponent += negative ? -power : power;
  }
  if ((at != end && !is_blank(*at)) || exponent < -22 || exponent > 22) return false;
  const auto m = static_cast<double>(mantissa);
  value = exponent >= 0 ? m * exact_powers_of_ten[static_cast<std::size_t>(exponent)]
                        : m / exact_powers_of_ten[static_cast<std::size_t>(-exponent)];
  return true;
}

}  // namespace augur::traces::ti
