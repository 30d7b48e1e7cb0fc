// The `augur` command line: run, check, step, info.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace augur::machines {
class MachineRegistry;
}

namespace augur::tools {

/// Exit statuses of the command line.
enum ExitStatus : int {
  exit_ok = 0,          ///< every variant completed
  exit_run_failed = 1,  ///< a variant deadlocked, failed at run time, or hit a limit
  exit_bad_input = 2,   ///< a scenario, machine, trace or command-line error (file:line: error: …)
};

/// Runs the command line `args` (without the program name). Output on `out`, diagnostics on
/// `err`, stepping commands from `in`.
int run_cli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);

struct CommandLine;
/// `augur calibrate KIND=FILE...` (tools/calibrate.cpp).
int calibrate_command(const CommandLine& cl, std::ostream& out, std::ostream& err);
/// `augur convert FORMAT:PATH [ti:|otf2:]OUT_DIR [--machine M]` (tools/convert.cpp).
int convert_command(const CommandLine& cl, const machines::MachineRegistry& registry, std::ostream& out,
                    std::ostream& err);

}  // namespace augur::tools
