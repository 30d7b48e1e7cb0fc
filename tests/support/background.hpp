// A program run in the background by a test: standard output and error to files, stopped by its
// process id when the test ends early.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/files.hpp"

extern char** environ;

namespace augur::test {

class Background {
 public:
  /// Starts `argv` (argv[0] found on PATH) with stdin from /dev/null, stdout to `out` and stderr
  /// to `err`.
  Background(const std::vector<std::string>& argv, const std::filesystem::path& out, const std::filesystem::path& err)
      : err_(err) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const int rc = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
  }
  ~Background() {
    if (running()) {
      ::kill(pid_, SIGTERM);
      wait(std::chrono::seconds(10));
      if (running()) ::kill(pid_, SIGKILL);
      wait(std::chrono::seconds(10));
    }
  }
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

  bool running() const { return !status_; }
  /// The exit status once it has ended within `limit` (128 + signal when killed), else nothing.
  std::optional<int> wait(std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!status_) {
      int raw = 0;
      if (::waitpid(pid_, &raw, WNOHANG) == pid_) {
        status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
      } else if (std::chrono::steady_clock::now() >= until) {
        break;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    return status_;
  }
  /// The first line of its standard error that contains `marker`, waiting for it at most `limit`;
  /// "" when none came.
  std::string err_line(const std::string& marker, std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
      const std::string err = slurp(err_);
      if (const auto at = err.find(marker); at != std::string::npos) {
        const auto begin = err.rfind('\n', at);
        const auto end = err.find('\n', at);
        if (end != std::string::npos)
          return err.substr(begin == std::string::npos ? 0 : begin + 1,
                            end - (begin == std::string::npos ? 0 : begin + 1));
      }
      const bool ended = wait(std::chrono::seconds(0)).has_value();
      if (std::chrono::steady_clock::now() >= until || (ended && slurp(err_) == err)) return {};
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

 private:
  pid_t pid_ = 0;
  std::filesystem::path err_;
  std::optional<int> status_;
};

}  // namespace augur::test
