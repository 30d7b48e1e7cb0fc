// Fixed-point and right-aligned numbers for the text reports (see fixed_text.hpp).
#include "models/report/fixed_text.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>

namespace augur::models::report::detail {

namespace {

__extension__ using uint128 = unsigned __int128;

constexpr std::array<std::uint64_t, 18> powers_of_ten{1ULL,
                                                      10ULL,
                                                      100ULL,
                                                      1000ULL,
                                                      10000ULL,
                                                      100000ULL,
                                                      1000000ULL,
                                                      10000000ULL,
                                                      100000000ULL,
                                                      1000000000ULL,
                                                      10000000000ULL,
                                                      100000000000ULL,
                                                      1000000000000ULL,
                                                      10000000000000ULL,
                                                      100000000000000ULL,
                                                      1000000000000000ULL,
                                                      10000000000000000ULL,
                                                      100000000000000000ULL};

/// Writes `quotient` / 10^precision with `precision` decimals (and a '-' when `negative`) into
/// `out`; returns the length.
std::size_t write_scaled(bool negative, std::uint64_t quotient, int precision, char* out) {
  std::array<char, 20> digits;
  const auto written = std::to_chars(digits.data(), digits.data() + digits.size(), quotient);
  auto count = static_cast<std::size_t>(written.ptr - digits.data());
  const auto decimals = static_cast<std::size_t>(precision);
  char* o = out;
  if (negative) *o++ = '-';
  if (count <= decimals) {  // 0.00ddd
    *o++ = '0';
    *o++ = '.';
    std::memset(o, '0', decimals - count);
    o += decimals - count;
    std::memcpy(o, digits.data(), count);
    o += count;
  } else {
    std::memcpy(o, digits.data(), count - decimals);
    o += count - decimals;
    if (decimals > 0) {
      *o++ = '.';
      std::memcpy(o, digits.data() + count - decimals, decimals);
      o += decimals;
    }
  }
  return static_cast<std::size_t>(o - out);
}

/// The report's usual case in exact integer arithmetic: a finite `value` below 2^52 in
/// magnitude, `precision` <= 17 and value x 10^precision below 10^19. value = m x 2^-s exactly
/// (m < 2^53), so value x 10^precision = m x 10^precision / 2^s with a numerator below 2^110:
/// the quotient rounded to nearest, ties to even, is the printed digits. Writes them with the
/// point and sign into `out` and returns the length, or 0 when the value is outside that case.
std::size_t fixed_exact(double value, int precision, char* out) {
  if (precision < 0 || precision >= static_cast<int>(powers_of_ten.size())) return 0;
  const auto bits = std::bit_cast<std::uint64_t>(value);
  const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
  std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  int shift = 1074;               // subnormal: value = mantissa x 2^-1074
  if (biased == 0x7ff) return 0;  // inf, nan
  if (biased != 0) {
    mantissa |= std::uint64_t{1} << 52;
    shift = 1075 - biased;
  }
  if (shift <= 0) return 0;  // 2^52 and above
  const uint128 scaled = static_cast<uint128>(mantissa) * powers_of_ten[static_cast<std::size_t>(precision)];
  uint128 quotient = 0;
  if (shift < 128) {
    quotient = scaled >> shift;
    const uint128 remainder = scaled - (quotient << shift);
    const uint128 half = static_cast<uint128>(1) << (shift - 1);
    if (remainder > half || (remainder == half && (quotient & 1) != 0)) ++quotient;
  }  // else scaled < 2^110 <= half: rounds to 0
  if (quotient >= static_cast<uint128>(10000000000000000000ULL)) return 0;
  return write_scaled((bits >> 63) != 0, static_cast<std::uint64_t>(quotient), precision, out);
}

/// The powers of ten a double holds exactly, for fixed_fast.
constexpr std::array<double, 10> double_powers_of_ten{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

/// The report's common case without 128-bit arithmetic: |value| x 10^precision (precision <= 9)
/// below 2^50 in magnitude, rounded from its double product. The product of two exact doubles is
/// within 2^-53 of itself of the real product, so when its fraction is more than 2^-50 of it away
/// from one half the real product rounds to the same integer — ties included, which always fall
/// inside that margin. Returns 0 (fixed_exact decides) inside the margin and outside the case.
std::size_t fixed_fast(double value, int precision, char* out) {
  if (precision < 0 || precision >= static_cast<int>(double_powers_of_ten.size())) return 0;
  const double scaled = std::fabs(value) * double_powers_of_ten[static_cast<std::size_t>(precision)];
  if (!(scaled < 0x1p50)) return 0;                                // large, infinite or NaN
  std::uint64_t quotient = static_cast<std::uint64_t>(scaled);     // the floor: scaled >= 0
  const double fraction = scaled - static_cast<double>(quotient);  // exact below 2^52
  const double margin = scaled * 0x1p-50;
  if (fraction > 0.5 + margin) {
    ++quotient;
  } else if (!(fraction < 0.5 - margin)) {
    return 0;  // too near a half to tell from the double product
  }
  return write_scaled(std::signbit(value), quotient, precision, out);
}

/// Appends the `length` characters at `text` right-aligned in `width`, where the `room` bytes
/// before `text` may be overwritten: the padding goes there and the string grows once (each
/// append call costs ~50 instructions, and a report appends thousands of numbers).
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
  std::size_t length = fixed_fast(value, precision, number);
  if (length == 0) length = fixed_exact(value, precision, number);
  if (length != 0) {
    append_padded(out, number, length, width, pad_room);
    return;
  }
  // 330 characters hold every double below 1e308 with up to 17 decimals; beyond, fmt writes it.
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
