// Running the `augur` executable from a test: exit status, standard output and error, optionally
// in a given working directory (the Predictor's command line names its output relative to it).
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/support/files.hpp"

namespace augur::test {

/// What a run of the executable gave.
struct AugurRun {
  int status = -1;  ///< exit status (a crash shows as 128 + the signal, as the shell reports it)
  std::string out;
  std::string err;
};

/// Runs `augur ARGS` (ARGS a shell fragment, quote paths with spaces) with `input` as its
/// standard input (empty by default), in `cwd` when given. Outputs are captured in files private
/// to this process (ctest runs the cases of a file as concurrent processes), removed at exit.
inline AugurRun run_augur_in(const std::string& cwd, const std::string& args, const std::string& input = "") {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path d = std::filesystem::temp_directory_path() / ("augur_run_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  static const struct RemovedAtExit {
    std::filesystem::path dir;
    ~RemovedAtExit() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } removed_at_exit{d};
  const std::string id = std::to_string(counter++);
  const std::filesystem::path in = d / ("in" + id), out = d / ("out" + id), err = d / ("err" + id);
  write_file(in.string(), input);
  std::string cmd = cwd.empty() ? std::string() : "cd '" + cwd + "' && ";
  cmd += std::string("'") + AUGUR_BINARY + "' " + args + " < '" + in.string() + "' > '" + out.string() + "' 2> '" +
         err.string() + "'";
  const int raw = std::system(cmd.c_str());
  AugurRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::error_code ignored;
  for (const std::filesystem::path& f : {in, out, err}) std::filesystem::remove(f, ignored);
  return r;
}

/// run_augur_in the test's working directory.
inline AugurRun run_augur(const std::string& args, const std::string& input = "") {
  return run_augur_in("", args, input);
}

}  // namespace augur::test
