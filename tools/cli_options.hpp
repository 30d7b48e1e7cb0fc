// The command line of `augur`: the options and arguments of every subcommand, parsed into a
// CommandLine. A bad command line throws UsageError (the caller prints it with the usage, exit 2).
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/report/interval_report.hpp"
#include "tools/merge.hpp"
#include "tools/monitor/server.hpp"
#include "tools/runner.hpp"

namespace augur::tools {

/// The usage of `augur` (`augur --help`, and after a command-line error).
extern const char* const usage_text;

struct CommandLine {
  std::string command = "run";
  std::string scenario;
  std::vector<std::string> sets;     // in order; --trace/--machine/--processors/--grid become sets too
  std::vector<std::string> origins;  // the option of each set ("--processors"), named in its errors
  std::string json;
  std::string text;
  std::string html;
  std::string csv;
  std::string sweep_json;
  std::string event_log;
  std::string chrome_trace;
  std::string paraver;
  std::string otf2;  // --otf2 DIR
  std::string log_levels;
  std::optional<Shard> shard;                // --shard K/N
  std::string partial;                       // --partial FILE: the shard file
  std::vector<std::string> arguments;        // the command line as given (a shard file's run key)
  std::optional<monitor::Endpoint> monitor;  // --monitor [ADDR:PORT]
  unsigned jobs = 0;
  std::uint64_t max_events = 0;
  double max_time = 0;
  CharacteristicsMode characteristics = CharacteristicsMode::automatic;  // --characteristics
  bool wait_states = true;                                               // --wait-states
  models::report::TextReportOptions text_options;                        // --depth, --procs
  bool detail = false;               // --detail: the full report on stdout instead of the summary
  bool help = false;                 // --help: the help of the command (none named: the usage)
  bool command_named = false;        // the first argument named the command
  bool extras = false;               // predict: augur's section after the 3.1 blocks
  std::vector<std::string> options;  // every option given, in order (predict checks them)
  std::vector<std::string> positional;
};

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The command line `args` (without the program name): the command, its options in order and
/// its positional arguments, checked as far as they can be without reading a file.
CommandLine parse_command_line(const std::vector<std::string>& args);

}  // namespace augur::tools
