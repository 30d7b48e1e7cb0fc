// Numbers of the JSON and CSV reports without floating-point noise: the sums and differences
// behind them carry rounding errors in their last digits (0.0002375000000001265 for 0.0002375),
// which the shortest round-trip spelling of the raw double shows. Rounded to
// `significant_digits` first, the shortest spelling is the figure itself.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace augur::models::report {

/// Significant digits of the numbers in JSON and CSV: a time of 1,000 s to the nanosecond; the
/// digits beyond are rounding noise of the sums.
inline constexpr int significant_digits = 12;

/// `x` rounded to `significant_digits` significant decimal digits (the double nearest to that
/// decimal); zero, infinities and NaN unchanged.
double round_noise(double x);

/// Every floating-point number in `j`, nested ones included, rounded with round_noise.
void round_numbers(nlohmann::ordered_json& j);

/// JSON text `text` (as nlohmann's dump writes it) with every floating-point number respelled in
/// its shortest round-trip form (fmt's "{}", ".0" kept on integral values): nlohmann's Grisu2
/// reads back exactly but is not always shortest (0.024638030000000002 for 0.02463803). Strings
/// and integers are left as they are.
std::string shortest_numbers(std::string_view text);

}  // namespace augur::models::report
