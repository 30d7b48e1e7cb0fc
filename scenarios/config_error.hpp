// The one error type of configuration: "file:line:col: error: message" (1-based line/col).
#pragma once
#include <stdexcept>
#include <string>

namespace augur::scenarios {

/// A configuration mistake with its position. line/col 0 = unknown (then omitted from what()).
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& file, int line, int col, const std::string& message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int col() const { return col_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int col_;
  std::string message_;
};

}  // namespace augur::scenarios
