// The one configuration error: formats "file:line:col: error: message" once, at construction.
#include "scenarios/config_error.hpp"

namespace augur::scenarios {
namespace {

/// "file:line:col: error: message"; a 0 line or column is unknown and left out, and so is an
/// empty file name (then the text starts with "error: ").
std::string format_error(const std::string& file, int line, int col, const std::string& message) {
  std::string text = file;
  if (line > 0) {
    text += ":" + std::to_string(line);
    if (col > 0) text += ":" + std::to_string(col);
  }
  if (!text.empty()) text += ": ";
  return text + "error: " + message;
}

}  // namespace

ConfigError::ConfigError(const std::string& file, int line, int col, const std::string& message)
    : std::runtime_error(format_error(file, line, col, message)),
      file_(file),
      line_(line),
      col_(col),
      message_(message) {}

}  // namespace augur::scenarios
