// The unit parsers and formatters of dimensioned values (design example 4, after SimGrid's
// src/xbt/xbt_parse_units.cpp): one suffix table per kind, case-significant, exact scale factors.
#include "machines/units.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <span>
#include <system_error>

#include "support/strings.hpp"

namespace augur::machines {
namespace {

/// One accepted suffix: value = number · multiplier / divisor. Both factors are integers that
/// doubles hold exactly, so "200ns" parses to the double nearest 2e-7 (one correctly rounded
/// division), which also makes format_quantity round-trip.
struct Suffix {
  std::string_view text;
  double multiplier;
  double divisor;
  bool preferred;  ///< used by format_quantity (bits and "f" spellings are accepted, not printed)
};

constexpr double kilo = 1e3;
constexpr double mega = 1e6;
constexpr double giga = 1e9;
constexpr double tera = 1e12;
constexpr double kibi = 1024.0;
constexpr double mebi = kibi * 1024.0;
constexpr double gibi = mebi * 1024.0;
constexpr double tebi = gibi * 1024.0;

// Order: the order of accepted_suffixes() (as in the error messages).
constexpr std::array time_suffixes{
    Suffix{"s", 1, 1, true},     Suffix{"ms", 1, kilo, true}, Suffix{"us", 1, mega, true}, Suffix{"ns", 1, giga, true},
    Suffix{"ps", 1, tera, true}, Suffix{"min", 60, 1, true},  Suffix{"h", 3600, 1, true},
};

// Bits per second are bytes per second divided by 8: "8bps" = 1Bps, "1Gbps" = 1.25e8 Bps.
constexpr std::array bandwidth_suffixes{
    Suffix{"Bps", 1, 1, true},           Suffix{"kBps", kilo, 1, true},       Suffix{"MBps", mega, 1, true},
    Suffix{"GBps", giga, 1, true},       Suffix{"TBps", tera, 1, true},       Suffix{"KiBps", kibi, 1, true},
    Suffix{"MiBps", mebi, 1, true},      Suffix{"GiBps", gibi, 1, true},      Suffix{"TiBps", tebi, 1, true},
    Suffix{"bps", 1, 8, false},          Suffix{"kbps", kilo / 8, 1, false},  Suffix{"Mbps", mega / 8, 1, false},
    Suffix{"Gbps", giga / 8, 1, false},  Suffix{"Tbps", tera / 8, 1, false},  Suffix{"Kibps", kibi / 8, 1, false},
    Suffix{"Mibps", mebi / 8, 1, false}, Suffix{"Gibps", gibi / 8, 1, false},
};

constexpr std::array bytes_suffixes{
    Suffix{"B", 1, 1, true},      Suffix{"kB", kilo, 1, true},  Suffix{"MB", mega, 1, true},
    Suffix{"GB", giga, 1, true},  Suffix{"TB", tera, 1, true},  Suffix{"KiB", kibi, 1, true},
    Suffix{"MiB", mebi, 1, true}, Suffix{"GiB", gibi, 1, true}, Suffix{"TiB", tebi, 1, true},
};

constexpr std::array flop_rate_suffixes{
    Suffix{"f", 1, 1, false},        Suffix{"kf", kilo, 1, false},    Suffix{"Mf", mega, 1, false},
    Suffix{"Gf", giga, 1, false},    Suffix{"Tf", tera, 1, false},    Suffix{"flops", 1, 1, true},
    Suffix{"kflops", kilo, 1, true}, Suffix{"Mflops", mega, 1, true}, Suffix{"Gflops", giga, 1, true},
    Suffix{"Tflops", tera, 1, true},
};

std::span<const Suffix> suffixes_of(UnitKind kind) {
  switch (kind) {
    case UnitKind::time:
      return time_suffixes;
    case UnitKind::bandwidth:
      return bandwidth_suffixes;
    case UnitKind::bytes:
      return bytes_suffixes;
    case UnitKind::flop_rate:
      return flop_rate_suffixes;
    default:
      return {};
  }
}

/// Reads a leading decimal number (optionally signed, with exponent); returns the rest.
/// from_chars accepts "inf" and "nan": the callers reject non-finite values.
bool read_number(std::string_view text, double& value, std::string_view& rest) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  if (digits.empty() || digits.front() == '+' || digits.front() == ' ') return false;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), value, std::chars_format::general);
  if (error != std::errc{}) return false;
  rest = digits.substr(static_cast<std::size_t>(end - digits.data()));
  return true;
}

[[noreturn]] void fail(UnitKind kind, std::string_view text, std::string_view expected) {
  throw UnitError("invalid " + std::string(to_string(kind)) + " '" + std::string(text) + "': " + std::string(expected));
}

/// Bounds that keep every price finite: a count fits an int (models store counts in 32 bits), a
/// time or real is at most 1e9 in size (a sum of 1e9 · 2^64 events stays finite), a rate is 0 or at least
/// 1 per second (a quantity divided by it stays finite).
constexpr double max_count = 2147483647;
constexpr double max_real = 1e9;

void check_range(UnitKind kind, std::string_view text, double value) {
  if (kind == UnitKind::time && value > max_real) fail(kind, text, "expected a time of at most 1e9 s");
  if ((kind == UnitKind::bandwidth || kind == UnitKind::flop_rate) && value != 0 && value < 1)
    fail(kind, text, kind == UnitKind::bandwidth ? "expected 0 or at least 1 Bps" : "expected 0 or at least 1 flops");
}

std::string expected_dimensioned(UnitKind kind) {
  return "expected a number followed by one of " + accepted_suffixes(kind);
}

/// Shortest "%g"-style text of `x` that `accept` takes, preferring one without an exponent
/// ("200" over "2e+02"); "" when even 17 digits fail. Tries precisions 1 to 17 in turn, but once
/// a text is accepted only one without an exponent can do better, and %g writes x rounded to p
/// digits, of decimal exponent X(p), with an exponent when X(p) < -4 or X(p) >= p. X(p) never
/// grows with p (rounding to more digits carries less), so: after an accepted or later text of
/// exponent X < -4 every longer one has an exponent too (stop), and the precisions below X
/// still write one (skip to X). Same result as trying all; `ParamSet::describe` of compare.sh's
/// machine 330,000 -> 250,000 instructions.
template <typename Accept>
std::string shortest_text(double x, Accept accept) {
  std::array<char, 64> buffer{};
  std::string first_accepted;
  int precision = 1;
  while (precision <= 17) {
    const auto result =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), x, std::chars_format::general, precision);
    std::string text(buffer.data(), result.ptr);
    const std::size_t e = text.find('e');
    const bool accepted = accept(text);
    if (accepted && e == std::string::npos) return text;
    if (accepted && first_accepted.empty()) first_accepted = text;
    if (first_accepted.empty() || e == std::string::npos) {
      ++precision;
      continue;
    }
    int exponent = 0;
    const char* digits = text.data() + e + 1;
    if (*digits == '+') ++digits;
    std::from_chars(digits, text.data() + text.size(), exponent);
    if (exponent < -4) break;
    precision = std::max(precision + 1, exponent);
  }
  return first_accepted;
}

std::string format_plain(double value) {
  return shortest_text(value, [value](const std::string& text) {
    double parsed = 0;
    std::from_chars(text.data(), text.data() + text.size(), parsed);
    return parsed == value;
  });
}

}  // namespace

std::string_view to_string(UnitKind kind) {
  switch (kind) {
    case UnitKind::time:
      return "time";
    case UnitKind::bandwidth:
      return "bandwidth";
    case UnitKind::bytes:
      return "bytes";
    case UnitKind::flop_rate:
      return "flop_rate";
    case UnitKind::count:
      return "count";
    case UnitKind::real:
      return "real";
    case UnitKind::boolean:
      return "boolean";
    case UnitKind::choice:
      return "choice";
    case UnitKind::int_list:
      return "int_list";
    case UnitKind::real_list:
      return "real_list";
    case UnitKind::size_table:
      return "size_table";
    case UnitKind::cluster_tree:
      return "cluster_tree";
    case UnitKind::path:
      return "path";
  }
  return "unknown";
}

std::string accepted_suffixes(UnitKind kind) {
  std::string joined;
  for (const Suffix& suffix : suffixes_of(kind)) {
    if (!joined.empty()) joined += ", ";
    joined += suffix.text;
  }
  return joined;
}

double parse_quantity(std::string_view text, UnitKind kind) {
  const std::string_view body = support::trim(text);
  double number = 0;
  std::string_view rest;
  switch (kind) {
    case UnitKind::boolean:
      if (body == "true") return 1;
      if (body == "false") return 0;
      fail(kind, text, "expected true or false");
    case UnitKind::count: {
      // Digits only: no sign, no fraction, no exponent.
      if (body.empty() || body.find_first_not_of("0123456789") != std::string_view::npos)
        fail(kind, text, "expected a non-negative integer");
      if (!read_number(body, number, rest) || !rest.empty()) fail(kind, text, "expected a non-negative integer");
      if (number > max_count) fail(kind, text, "expected a non-negative integer of at most 2147483647");
      return number;
    }
    case UnitKind::real:
      if (!read_number(body, number, rest) || !support::trim(rest).empty() || !std::isfinite(number))
        fail(kind, text, "expected a number");
      if (std::fabs(number) > max_real) fail(kind, text, "expected a number between -1e9 and 1e9");
      return number;
    case UnitKind::choice:
    case UnitKind::int_list:
    case UnitKind::real_list:
    case UnitKind::size_table:
    case UnitKind::cluster_tree:
    case UnitKind::path:
      fail(kind, text, "a " + std::string(to_string(kind)) + " is not a single quantity");
    default:
      break;
  }
  // Dimensioned kinds: a number, optional blanks, a suffix. A bare zero needs no unit.
  if (!read_number(body, number, rest) || !std::isfinite(number)) fail(kind, text, expected_dimensioned(kind));
  rest = support::trim(rest);
  double value = 0;
  if (rest.empty()) {
    if (number != 0) fail(kind, text, expected_dimensioned(kind));
  } else {
    const Suffix* found = nullptr;
    for (const Suffix& suffix : suffixes_of(kind))
      if (suffix.text == rest) found = &suffix;
    if (found == nullptr) fail(kind, text, expected_dimensioned(kind));
    value = number * found->multiplier / found->divisor;
  }
  if (value < 0 || std::signbit(value)) {
    if (value == 0) return 0;  // "-0s" is zero
    fail(kind, text, "expected a non-negative number followed by one of " + accepted_suffixes(kind));
  }
  check_range(kind, text, value);
  return value;
}

std::string format_quantity(double value, UnitKind kind) {
  switch (kind) {
    case UnitKind::boolean:
      return value != 0 ? "true" : "false";
    case UnitKind::count: {
      if (value >= 0 && value <= 9007199254740992.0 && value == std::floor(value))
        return std::to_string(static_cast<std::uint64_t>(value));
      return format_plain(value);
    }
    case UnitKind::real:
    case UnitKind::choice:
    case UnitKind::int_list:
    case UnitKind::real_list:
    case UnitKind::size_table:
    case UnitKind::cluster_tree:
    case UnitKind::path:
      return format_plain(value);
    default:
      break;
  }
  const auto suffixes = suffixes_of(kind);
  const Suffix* base = &suffixes.front();
  for (const Suffix& suffix : suffixes)
    if (suffix.preferred) {
      base = &suffix;
      break;
    }
  if (value == 0) return "0" + std::string(base->text);
  if (!std::isfinite(value)) return format_plain(value) + std::string(base->text);
  // Candidates: every preferred suffix whose shortest text parses back to exactly `value`.
  // Best: a mantissa >= 1 written without exponent, then the shortest text, then table order.
  std::string best;
  bool best_natural = false;
  for (const Suffix& suffix : suffixes) {
    if (!suffix.preferred) continue;
    const double mantissa = value * suffix.divisor / suffix.multiplier;
    std::string digits = shortest_text(mantissa, [&](const std::string& candidate) {
      double parsed = 0;
      std::from_chars(candidate.data(), candidate.data() + candidate.size(), parsed);
      return parsed * suffix.multiplier / suffix.divisor == value;
    });
    if (digits.empty()) continue;
    const bool natural = std::fabs(mantissa) >= 1 && digits.find('e') == std::string::npos;
    std::string text = digits + std::string(suffix.text);
    const bool better =
        best.empty() || (natural && !best_natural) || (natural == best_natural && text.size() < best.size());
    if (better) {
      best = std::move(text);
      best_natural = natural;
    }
  }
  if (best.empty()) best = format_plain(value) + std::string(base->text);
  return best;
}

}  // namespace augur::machines
