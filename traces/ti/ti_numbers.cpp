// The numbers of a TI field: the general conversions (from_chars, read like strtod) and the
// one-pass exact decimal.
#include "traces/ti/ti_numbers.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace augur::traces::ti {
namespace {

/// A whole field as a double, like strtod but without hex and leading blanks.
bool parse_double(std::string_view text, double& value) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (ec == std::errc::result_out_of_range && ptr == last) {
    // A number beyond a double's range reads as strtod reads it (an infinity, or 0 for a tiny
    // one), so that "1e309" is out of range like "inf" rather than not a number.
    value = std::strtod(std::string(first, last).c_str(), nullptr);
    return true;
  }
  return ec == std::errc() && ptr == last && first != last;
}

}  // namespace

NumberStatus parse_count(std::string_view text, std::uint64_t& value) {
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (ec == std::errc() && ptr == last) return NumberStatus::ok;
  double real = 0;
  if (!parse_double(text, real) || std::isnan(real)) return NumberStatus::not_a_number;
  if (real < 0) return NumberStatus::negative;
  if (!(real < 18446744073709551616.0)) return NumberStatus::out_of_range;  // 2^64
  value = static_cast<std::uint64_t>(real);
  return NumberStatus::ok;
}

NumberStatus parse_amount(std::string_view text, double& value) {
  if (!parse_double(text, value) || std::isnan(value)) return NumberStatus::not_a_number;
  if (!std::isfinite(value)) return NumberStatus::out_of_range;
  if (value < 0) return NumberStatus::negative;
  return NumberStatus::ok;
}

NumberStatus parse_int(std::string_view text, std::int32_t& value) {
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (ec == std::errc() && ptr == last) return NumberStatus::ok;
  if (ec == std::errc::result_out_of_range && ptr == last) return NumberStatus::out_of_range;
  double real = 0;
  return parse_double(text, real) ? NumberStatus::not_an_integer : NumberStatus::not_a_number;
}

std::string quoted(std::string_view text) {
  constexpr std::size_t limit = 40;
  // Appends rather than "'" + std::string: g++ 12 -O3 warns falsely on the latter (PR105651).
  std::string result(1, '\'');
  result.append(text.substr(0, limit));
  result.append(text.size() > limit ? "...'" : "'");
  return result;
}

std::string number_message(NumberStatus status, std::string_view text, const std::string& field) {
  std::string what;
  switch (status) {
    case NumberStatus::ok:
      break;
    case NumberStatus::not_a_number:
      what = " is not a number";
      break;
    case NumberStatus::not_an_integer:
      what = " is not an integer";
      break;
    case NumberStatus::negative:
      what = " is negative";
      break;
    case NumberStatus::out_of_range:
      what = " is out of range";
      break;
  }
  return quoted(text) + what + " (field '" + field + "')";
}

std::string ranks_phrase(int rank_count) { return std::to_string(rank_count) + (rank_count == 1 ? " rank" : " ranks"); }

}  // namespace augur::traces::ti
