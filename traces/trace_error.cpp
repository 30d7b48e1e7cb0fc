// TraceError: the one exception of trace readers, formatted "file:line: error: message".
#include "traces/trace_error.hpp"

namespace augur::traces {
namespace {

std::string format_trace_error(const std::string& file, std::uint64_t line, const std::string& message) {
  std::string text = file;
  if (line > 0) {
    text += ':';
    text += std::to_string(line);
  }
  text += ": error: ";
  text += message;
  return text;
}

}  // namespace

TraceError::TraceError(const std::string& file, std::uint64_t line, const std::string& message)
    : std::runtime_error(format_trace_error(file, line, message)), file_(file), line_(line), message_(message) {}

}  // namespace augur::traces
