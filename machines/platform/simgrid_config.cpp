// SimGrid's --cfg options (see simgrid_config.hpp).
#include "machines/platform/simgrid_config.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "machines/platform/sg_units.hpp"

namespace augur::machines::platform {
namespace {

constexpr const char* accepted_options =
    "network/model, network/crosstraffic, network/TCP-gamma, smpi/host-speed, smpi/simulate-computation, "
    "smpi/send-is-detached-thresh, smpi/async-small-thresh, smpi/test, smpi/os, smpi/or, smpi/ois, smpi/bw-factor, "
    "smpi/lat-factor";

/// SimGrid's booleans: yes/no, on/off, true/false, 1/0.
std::string boolean(std::string_view name, std::string_view value) {
  if (value == "yes" || value == "on" || value == "true" || value == "1") return "true";
  if (value == "no" || value == "off" || value == "false" || value == "0") return "false";
  throw std::invalid_argument("option '" + std::string(name) + "': '" + std::string(value) +
                              "' is not a boolean (yes, no, on, off, true, false, 1, 0)");
}

/// A plain non-negative number (SimGrid's double and int options).
double number(std::string_view name, std::string_view value) {
  const std::string text(value);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0) || v > 1e18)
    throw std::invalid_argument("option '" + std::string(name) + "': '" + text + "' is not a non-negative number");
  return v;
}

/// True when every number of a SimGrid piecewise table "0:0:0:0:0" or "a:b;c:d" is zero.
bool all_zero(std::string_view value) {
  std::string token;
  for (std::size_t i = 0; i <= value.size(); ++i) {
    if (i == value.size() || value[i] == ':' || value[i] == ';') {
      char* end = nullptr;
      if (token.empty() || std::strtod(token.c_str(), &end) != 0 || *end != '\0') return false;
      token.clear();
    } else {
      token += value[i];
    }
  }
  return true;
}

[[noreturn]] void not_modelled(std::string_view name, std::string_view value, const char* fixed) {
  throw std::invalid_argument("option '" + std::string(name) + "': augur models only SimGrid's default (" + fixed +
                              "), not '" + std::string(value) + "'");
}

}  // namespace

std::pair<std::string, std::string> split_simgrid_option(std::string_view assignment) {
  const auto colon = assignment.find(':');
  if (colon == std::string_view::npos || colon == 0)
    throw std::invalid_argument("'" + std::string(assignment) + "': expected name:value (SimGrid's --cfg)");
  return {std::string(assignment.substr(0, colon)), std::string(assignment.substr(colon + 1))};
}

std::pair<std::string, std::string> simgrid_option(std::string_view name, std::string_view value) {
  const std::string v(value);
  if (name == "network/model") {
    if (v != "CM02" && v != "LV08" && v != "SMPI")
      throw std::invalid_argument("option 'network/model': '" + v + "' is not one of CM02, LV08, SMPI");
    return {"network_model", v};
  }
  if (name == "network/crosstraffic") return {"crosstraffic", boolean(name, value)};
  if (name == "network/TCP-gamma" || name == "network/TCP_gamma")
    return {"tcp_gamma", std::to_string(static_cast<long long>(number(name, value))) + "B"};
  if (name == "smpi/send-is-detached-thresh") {
    // detached (eager) when smaller than the option: the largest eager size is one byte less
    // (0, under which SMPI sends even empty messages by rendezvous, leaves them eager here)
    const auto threshold = static_cast<long long>(number(name, value));
    return {"eager_threshold", std::to_string(std::max(threshold - 1, 0LL)) + "B"};
  }
  if (name == "smpi/simulate-computation") return {"simulate_computation", boolean(name, value)};
  if (name == "smpi/host-speed") {
    try {
      (void)parse_sg_value(v, SgUnit::speed);
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument("option 'smpi/host-speed': " + std::string(error.what()));
    }
    return {"host_speed", v};
  }
  if (name == "smpi/lat-factor") return {"latency_factors", v};
  if (name == "smpi/bw-factor") return {"bandwidth_factors", v};
  if (name == "smpi/async-small-thresh") {
    if (number(name, value) != 0) not_modelled(name, value, "0");
    return {"", ""};
  }
  if (name == "smpi/test") {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.17gs", number(name, value));
    return {"test_time", seconds};
  }
  if (name == "smpi/os" || name == "smpi/or" || name == "smpi/ois") {
    if (!all_zero(value)) not_modelled(name, value, "0:0:0:0:0");
    return {"", ""};
  }
  throw std::invalid_argument("unknown SimGrid option '" + std::string(name) + "'; accepted: " + accepted_options);
}

}  // namespace augur::machines::platform
