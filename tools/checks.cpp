// The command line's values and files checked before a run (checks.hpp).
#include "tools/checks.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace augur::tools {
namespace {

namespace fs = std::filesystem;

/// The same file: by identity when both exist, else by their absolute normal paths. A path that
/// exists and is not a regular file (a device, a FIFO) is never the same as anything.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  const auto sa = fs::status(a, ec), sb = fs::status(b, ec);
  if ((fs::exists(sa) && !fs::is_regular_file(sa)) || (fs::exists(sb) && !fs::is_regular_file(sb))) return false;
  if (fs::exists(sa) && fs::exists(sb)) return fs::equivalent(a, b, ec) && !ec;
  const fs::path ca = fs::weakly_canonical(a, ec);
  if (ec) return false;
  const fs::path cb = fs::weakly_canonical(b, ec);
  return !ec && ca == cb;
}

}  // namespace

/// `message` fit for a terminal: control bytes (but newlines and tabs) written as \xNN, and each
/// line cut at 400 bytes, so that a binary file or a 10 MB token named in an error stays readable.
std::string printable(const std::string& message) {
  constexpr std::size_t max_line = 400;
  std::string out;
  std::size_t column = 0, cut = 0;
  for (const char c : message) {
    if (c == '\n') {
      if (cut > 0) out += fmt::format("... ({} more bytes)", cut);
      out += c;
      column = cut = 0;
    } else if (column >= max_line) {
      ++cut;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += (byte < 0x20 && c != '\t') || byte == 0x7f ? fmt::format("\\x{:02x}", byte) : std::string(1, c);
      ++column;
    }
  }
  if (cut > 0) out += fmt::format("... ({} more bytes)", cut);
  return out;
}

/// The value of a count option (--jobs, --max-events): a decimal integer from 1 to `max`.
std::uint64_t option_count(const std::string& option, const std::string& text, std::uint64_t max) {
  std::uint64_t n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || error == std::errc::invalid_argument || end != text.data() + text.size())
    throw std::invalid_argument(fmt::format("{}: '{}' is not a positive integer", option, text));
  if (error == std::errc::result_out_of_range || n > max || n == 0)
    throw std::invalid_argument(fmt::format("{}: '{}' is out of range (1 to {})", option, text, max));
  return n;
}

/// The value of --max-time: a positive finite number of seconds.
double option_seconds(const std::string& option, const std::string& text) {
  double x = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || !std::isfinite(x) || !(x > 0))
    throw std::invalid_argument(fmt::format("{}: '{}' is not a positive number of seconds", option, text));
  return x;
}

void check_outputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [what, path] = outputs[i];
    for (const auto& [input, input_path] : inputs) {
      if (!input_path.empty() && same_file(path, input_path))
        throw std::runtime_error(
            fmt::format("augur: error: {} '{}' is {}, an input: choose another output file", what, path, input));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (same_file(path, outputs[j].second))
        throw std::runtime_error(fmt::format("augur: error: {} and {} both write '{}': give each output its own file",
                                             outputs[j].first, what, path));
    }
  }
}

}  // namespace augur::tools
