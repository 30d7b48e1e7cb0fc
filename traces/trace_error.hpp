// Errors of trace readers: always "file:line: error: message" (exit status 2 in the CLI).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace augur::traces {

/// A malformed or unreadable trace. what() is "file:line: error: message" (line 0: no line).
class TraceError : public std::runtime_error {
 public:
  TraceError(const std::string& file, std::uint64_t line, const std::string& message);
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  std::uint64_t line_;
  std::string message_;
};

}  // namespace augur::traces
