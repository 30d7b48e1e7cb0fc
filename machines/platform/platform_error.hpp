// The error of a SimGrid platform file, a hostfile or a --cfg option: "file:line: error: message".
#pragma once
#include <stdexcept>
#include <string>

namespace augur::machines::platform {

/// A positioned input error; what() is "file:line: error: message" (line 0: "file: error: …").
class PlatformError : public std::runtime_error {
 public:
  PlatformError(const std::string& file, int line, const std::string& message)
      : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": error: " + message),
        file_(file),
        line_(line),
        message_(message) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

}  // namespace augur::machines::platform
