// tools/bench/run_time.cpp (augur_run_time), which compare.sh measures both replayers with:
// exit statuses passed through, CPU of descendants counted, the timeout, bad usage.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

#include "tests/support/files.hpp"

namespace {

struct Measured {
  int status = -1;                       ///< augur_run_time's exit status
  std::map<std::string, double> values;  ///< its report, key → value
  std::string err;
};

Measured run_time(const augur::test::TempDir& dir, const std::string& args) {
  const std::string report = dir.file("report.txt"), err = dir.file("err.txt");
  const std::string cmd =
      std::string("'") + AUGUR_RUN_TIME_BINARY + "' -o '" + report + "' " + args + " > /dev/null 2> '" + err + "'";
  const int raw = std::system(cmd.c_str());
  Measured m;
  m.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  m.err = augur::test::slurp(err);
  std::istringstream in(augur::test::slurp(report));
  std::string key;
  double value = 0;
  while (in >> key >> value) {
    key.pop_back();  // "cpu_s:" → "cpu_s"
    m.values[key] = value;
  }
  return m;
}

}  // namespace

TEST_CASE("augur_run_time reports every key and passes the command's exit status through") {
  augur::test::TempDir dir;
  const Measured m = run_time(dir, "sh -c 'exit 3'");
  CHECK(m.status == 3);
  REQUIRE(m.values.size() == 6);
  CHECK(m.values.at("exit") == 3);
  CHECK(m.values.at("max_rss_kb") > 0);
  CHECK(m.values.at("wall_s") > 0);
  // Printed to the microsecond: the sum may differ from the parts' sum by the rounding of each.
  CHECK(std::abs(m.values.at("cpu_s") - (m.values.at("user_s") + m.values.at("system_s"))) <= 2e-6);
}

TEST_CASE("augur_run_time counts the CPU of the command's descendants") {
  augur::test::TempDir dir;
  // The busy loop runs in a grandchild: /usr/bin/time -v counts it, and so must we. 300,000
  // iterations of the shell take well over 10 ms of CPU on any machine that builds augur.
  const Measured m = run_time(dir, "sh -c \"sh -c 'i=0; while [ \\$i -lt 300000 ]; do i=\\$((i+1)); done'\"");
  REQUIRE(m.status == 0);
  CHECK(m.values.at("cpu_s") > 0.01);
  CHECK(m.values.at("cpu_s") <= m.values.at("wall_s") * 1.05 + 0.01);  // one core, give or take rounding
}

TEST_CASE("augur_run_time stops a command past its timeout with status 124") {
  augur::test::TempDir dir;
  const Measured m = run_time(dir, "-t 1 sleep 30");
  CHECK(m.status == 124);
  CHECK(m.values.at("exit") == 124);
  CHECK(m.values.at("wall_s") >= 0.9);
  CHECK(m.values.at("wall_s") < 10);  // SIGTERM ended it, not the SIGKILL 10 s later
}

TEST_CASE("augur_run_time refuses bad usage and reports a command it cannot start") {
  augur::test::TempDir dir;
  const Measured zero = run_time(dir, "-t 0 true");
  CHECK(zero.status == 125);
  CHECK(zero.err.find("-t needs a whole number of seconds") != std::string::npos);
  const Measured unknown = run_time(dir, "--frobnicate true");
  CHECK(unknown.status == 125);
  CHECK(unknown.err.find("unknown option '--frobnicate'") != std::string::npos);
  const Measured missing = run_time(dir, "/nonexistent/command");
  CHECK(missing.status == 127);
  CHECK(missing.err.find("cannot run /nonexistent/command") != std::string::npos);
  CHECK(missing.values.at("exit") == 127);
}
