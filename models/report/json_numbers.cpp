// Rounding the numbers of the JSON and CSV reports.
#include "models/report/json_numbers.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

#include <fmt/format.h>

namespace augur::models::report {

double round_noise(double x) {
  if (!std::isfinite(x) || x == 0) return x;
  char text[40];
  const auto written =
      std::to_chars(text, text + sizeof text, x, std::chars_format::scientific, significant_digits - 1);
  double rounded = x;
  std::from_chars(text, written.ptr, rounded);
  return rounded;
}

std::string shortest_numbers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        in_string = false;
      ++i;
      continue;
    }
    if (c == '"') in_string = true;
    if (c != '-' && (c < '0' || c > '9')) {
      out += c;
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    bool is_float = false;
    while (end < text.size() && std::string_view("0123456789.eE+-").find(text[end]) != std::string_view::npos) {
      is_float = is_float || text[end] == '.' || text[end] == 'e' || text[end] == 'E';
      ++end;
    }
    double value = 0;
    if (!is_float || std::from_chars(text.data() + i, text.data() + end, value).ec != std::errc()) {
      out.append(text.substr(i, end - i));
    } else {
      const std::string spelled = fmt::format("{}", value);
      out += spelled;
      if (spelled.find_first_of(".en") == std::string::npos) out += ".0";
    }
    i = end;
  }
  return out;
}

void round_numbers(nlohmann::ordered_json& j) {
  if (j.is_number_float()) {
    auto& value = j.get_ref<nlohmann::ordered_json::number_float_t&>();
    value = round_noise(value);
  } else if (j.is_structured()) {
    for (auto& element : j) round_numbers(element);
  }
}

}  // namespace augur::models::report
