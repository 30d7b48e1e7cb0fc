// The spec text of the synthetic Lib-DVM trace: parse_dvm_jacobi_spec and to_string
// (synthetic_dvm_writer.hpp).
#include <charconv>
#include <cmath>
#include <string>

#include "tools/bench/synthetic_dvm_writer.hpp"
#include "traces/trace_error.hpp"

namespace augur::bench {

using traces::TraceError;

namespace {

[[noreturn]] void spec_error(std::string_view text, const std::string& message) {
  throw TraceError("dvm-jacobi:" + std::string(text), 0, message);
}

}  // namespace

DvmJacobiSpec parse_dvm_jacobi_spec(std::string_view text) {
  DvmJacobiSpec spec;
  bool have_n = false, have_i = false;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) spec_error(text, "expected KEY=VALUE, got '" + std::string(item) + "'");
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    auto integer = [&](std::int64_t lo, std::int64_t hi) {
      std::int64_t v = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (error != std::errc{} || end != value.data() + value.size() || v < lo || v > hi) {
        spec_error(text, "'" + std::string(key) + "' must be an integer in " + std::to_string(lo) + ".." +
                             std::to_string(hi) + ", got '" + std::string(value) + "'");
      }
      return v;
    };
    if (key == "N") {
      spec.size = integer(3, std::int64_t{1} << 40);
      have_n = true;
    } else if (key == "I") {
      spec.iterations = static_cast<std::uint64_t>(integer(0, std::int64_t{1} << 40));
      have_i = true;
    } else if (key == "D") {
      spec.rank = static_cast<int>(integer(1, 3));
    } else if (key == "t") {
      double v = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (error != std::errc{} || end != value.data() + value.size() || !(v > 0) || !std::isfinite(v)) {
        spec_error(text, "'t' must be a positive number of seconds, got '" + std::string(value) + "'");
      }
      spec.element_time = v;
    } else if (key == "intervals") {
      spec.intervals = integer(0, 1) == 1;
    } else {
      spec_error(text, "unknown key '" + std::string(key) + "' (valid keys: N, I, D, t, intervals)");
    }
  }
  if (!have_n || !have_i) spec_error(text, "N and I are required (e.g. N=1000,I=200)");
  double volume = 1;
  for (int d = 0; d < spec.rank; ++d) volume *= static_cast<double>(spec.size);
  if (volume > 9e15) spec_error(text, "N^D is too large");
  return spec;
}

std::string to_string(const DvmJacobiSpec& spec) {
  char t[32];
  const auto result = std::to_chars(t, t + sizeof t, spec.element_time);
  return "N=" + std::to_string(spec.size) + ",I=" + std::to_string(spec.iterations) +
         ",D=" + std::to_string(spec.rank) + ",t=" + std::string(t, result.ptr) +
         ",intervals=" + (spec.intervals ? "1" : "0");
}

}  // namespace augur::bench
