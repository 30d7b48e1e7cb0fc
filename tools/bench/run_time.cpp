// augur_run_time: runs a command and reports its CPU time (user + system, of it and of every
// descendant it waited for), wall time and peak resident set size — what `/usr/bin/time -v`
// reports, with microseconds instead of its 10 ms steps. compare.sh measures both replayers with
// it: at 64 ranks augur takes a few milliseconds, which `time -v` prints as 0.00.
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string_view>

namespace {

const char* const usage_text =
    "usage: augur_run_time [-o FILE] [-t SECONDS] [--] COMMAND [ARG...]\n"
    "Runs COMMAND and writes, one 'key: value' per line, to FILE (default: stderr):\n"
    "  cpu_s       user + system CPU seconds of COMMAND and the descendants it waited for\n"
    "  user_s      user CPU seconds\n"
    "  system_s    system CPU seconds\n"
    "  wall_s      elapsed seconds\n"
    "  max_rss_kb  peak resident set size of the largest of them, KiB\n"
    "  exit        COMMAND's exit status (128 + N when signal N stopped it)\n"
    "Times in microseconds (six decimals). COMMAND runs in a process group of its own; SIGINT and\n"
    "SIGTERM are passed on to the group. -t: after SECONDS of wall time the group gets SIGTERM,\n"
    "10 s later SIGKILL, and the exit status is 124 (as timeout(1): no second process to pay for).\n"
    "Exits with COMMAND's status; 127: COMMAND could not be started; 125: augur_run_time's own\n"
    "error.\n";

volatile sig_atomic_t child_pid = 0;
volatile sig_atomic_t timed_out = 0;

void forward(int signal_number) {
  if (child_pid > 0) kill(-child_pid, signal_number);
}

void on_alarm(int) {
  if (child_pid <= 0) return;
  if (timed_out == 0) {
    timed_out = 1;
    kill(-child_pid, SIGTERM);
    alarm(10);
  } else {
    kill(-child_pid, SIGKILL);
  }
}

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

double now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// The command line: options, then COMMAND at argv[first].
struct Options {
  const char* out_path = nullptr;
  unsigned timeout_s = 0;
  int first = 1;
};

/// Reads the options into `options`; returns the exit status when there is nothing to run
/// (--help: 0, a usage error: 125), nothing otherwise.
std::optional<int> parse_options(int argc, char** argv, Options& options) {
  int& first = options.first;
  while (first < argc) {
    const std::string_view a = argv[first];
    if (a == "-h" || a == "--help") {
      std::fputs(usage_text, stdout);
      return 0;
    }
    if (a == "-o") {
      if (first + 1 >= argc) {
        std::fputs("augur_run_time: error: -o needs a file\n", stderr);
        return 125;
      }
      options.out_path = argv[first + 1];
      first += 2;
      continue;
    }
    if (a == "-t") {
      char* end = nullptr;
      const unsigned long t = first + 1 < argc ? std::strtoul(argv[first + 1], &end, 10) : 0;
      if (first + 1 >= argc || end == argv[first + 1] || *end != '\0' || t == 0 || t > 86400 * 7) {
        std::fputs("augur_run_time: error: -t needs a whole number of seconds, 1 to 604800\n", stderr);
        return 125;
      }
      options.timeout_s = static_cast<unsigned>(t);
      first += 2;
      continue;
    }
    if (a == "--") {
      ++first;
      break;
    }
    if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "augur_run_time: error: unknown option '%s'\n%s", argv[first], usage_text);
      return 125;
    }
    break;
  }
  if (first >= argc) {
    std::fputs(usage_text, stderr);
    return 125;
  }
  return std::nullopt;
}

/// SIGINT and SIGTERM go on to the command's group; SIGALRM is the timeout.
void install_handlers() {
  struct sigaction action {};
  action.sa_handler = forward;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  struct sigaction alarm_action {};
  alarm_action.sa_handler = on_alarm;
  sigemptyset(&alarm_action.sa_mask);
  sigaction(SIGALRM, &alarm_action, nullptr);
}

/// What one run of the command measured.
struct Measurement {
  int status = 0;  ///< as wait4 gives it
  rusage usage{};
  double wall = 0;
};

/// Runs `command` (argv style, null-terminated) in a process group of its own and waits for it;
/// nothing when fork or wait4 failed (the error is on stderr).
std::optional<Measurement> run(char** command, unsigned timeout_s) {
  Measurement m;
  const double start = now();
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "augur_run_time: error: fork: %s\n", std::strerror(errno));
    return std::nullopt;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execvp(command[0], command);
    std::fprintf(stderr, "augur_run_time: error: cannot run %s: %s\n", command[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // both sides: whichever runs first, the group exists before any kill
  child_pid = pid;
  if (timeout_s > 0) alarm(timeout_s);
  while (wait4(pid, &m.status, 0, &m.usage) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "augur_run_time: error: wait4: %s\n", std::strerror(errno));
      return std::nullopt;
    }
  }
  m.wall = now() - start;
  alarm(0);
  return m;
}

/// Writes the report to `out`; returns the exit status to pass on.
int report(FILE* out, const Measurement& m) {
  int code = WIFEXITED(m.status) ? WEXITSTATUS(m.status) : 128 + WTERMSIG(m.status);
  if (timed_out != 0) code = 124;
  const double user = seconds(m.usage.ru_utime);
  const double system = seconds(m.usage.ru_stime);
  std::fprintf(out, "cpu_s: %.6f\nuser_s: %.6f\nsystem_s: %.6f\nwall_s: %.6f\nmax_rss_kb: %ld\nexit: %d\n",
               user + system, user, system, m.wall, m.usage.ru_maxrss, code);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const std::optional<int> done = parse_options(argc, argv, options)) return *done;
  FILE* out = stderr;
  if (options.out_path != nullptr) {
    out = std::fopen(options.out_path, "w");
    if (out == nullptr) {
      std::fprintf(stderr, "augur_run_time: error: cannot write %s: %s\n", options.out_path, std::strerror(errno));
      return 125;
    }
  }
  install_handlers();
  const std::optional<Measurement> measured = run(argv + options.first, options.timeout_s);
  if (!measured) return 125;
  const int code = report(out, *measured);
  if (out != stderr) std::fclose(out);
  return code;
}
