// Checks of the command line before a run: option values, and the files a command reads and
// writes (no output may be one of its inputs or another of its outputs); messages made printable.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace augur::tools {

/// A file and what names it ("--json", "the trace", "outputs.json").
using NamedPath = std::pair<std::string, std::string>;

/// `message` fit for a terminal: control bytes (but newlines and tabs) written as \xNN, and each
/// line cut at 400 bytes, so that a binary file or a 10 MB token named in an error stays readable.
std::string printable(const std::string& message);

/// The value of a count option (--jobs, --max-events): a decimal integer from 1 to `max`; else
/// throws std::invalid_argument naming `option`.
std::uint64_t option_count(const std::string& option, const std::string& text, std::uint64_t max);

/// The value of --max-time: a positive finite number of seconds; else throws std::invalid_argument.
double option_seconds(const std::string& option, const std::string& text);

/// Throws std::runtime_error "augur: error: …" when an output is an input or another output.
/// Paths are compared as files (the same file by two names is the same); files that are not
/// regular files (/dev/null, a FIFO) are never in conflict.
void check_outputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

}  // namespace augur::tools
