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

}  // namespace

int main(int argc, char** argv) {
  const char* out_path = nullptr;
  unsigned timeout_s = 0;
  int first = 1;
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
      out_path = argv[first + 1];
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
      timeout_s = static_cast<unsigned>(t);
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
  FILE* out = stderr;
  if (out_path != nullptr) {
    out = std::fopen(out_path, "w");
    if (out == nullptr) {
      std::fprintf(stderr, "augur_run_time: error: cannot write %s: %s\n", out_path, std::strerror(errno));
      return 125;
    }
  }

  struct sigaction action {};
  action.sa_handler = forward;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  struct sigaction alarm_action {};
  alarm_action.sa_handler = on_alarm;
  sigemptyset(&alarm_action.sa_mask);
  sigaction(SIGALRM, &alarm_action, nullptr);

  const double start = now();
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "augur_run_time: error: fork: %s\n", std::strerror(errno));
    return 125;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execvp(argv[first], argv + first);
    std::fprintf(stderr, "augur_run_time: error: cannot run %s: %s\n", argv[first], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // both sides: whichever runs first, the group exists before any kill
  child_pid = pid;
  if (timeout_s > 0) alarm(timeout_s);
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "augur_run_time: error: wait4: %s\n", std::strerror(errno));
      return 125;
    }
  }
  const double wall = now() - start;
  alarm(0);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (timed_out != 0) code = 124;
  const double user = seconds(usage.ru_utime);
  const double system = seconds(usage.ru_stime);
  std::fprintf(out, "cpu_s: %.6f\nuser_s: %.6f\nsystem_s: %.6f\nwall_s: %.6f\nmax_rss_kb: %ld\nexit: %d\n",
               user + system, user, system, wall, usage.ru_maxrss, code);
  if (out != stderr) std::fclose(out);
  return code;
}
