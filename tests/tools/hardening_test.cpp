// The defects of issue 28 ("no crash, no hang, no silent lie"), each run through the `augur`
// executable with the command as input: non-UTF-8 names into JSON, pipes and FIFOs as
// traces, non-finite results, values out of range, memory bombs, outputs, errors' words.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace fs = std::filesystem;
using augur::test::run_augur;
using augur::test::slurp;
using augur::test::write_file;

namespace {

const std::string shared = AUGUR_SHARED_DIR;
const std::string tiny = shared + "/ti-samples/tiny-4/all_ranks.txt";

fs::path dir(const std::string& name) { return augur::test::scratch_dir("augur_hardening_", name); }

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

/// A machine file: the library's cluster with `extra` lines (later keys win).
fs::path machine(const fs::path& d, const std::string& extra) {
  const fs::path m = d / "m.yaml";
  write_file(m.string(), "schema_version: 1\nmodel: loggp_smp\n" + extra);
  return m;
}

/// `sh -c command` with a time limit: its exit status, or -1 when it ran over (a hang).
int shell(const std::string& command, int seconds = 30) {
  const int raw = std::system(("timeout -s KILL " + std::to_string(seconds) + " sh -c \"" + command + "\"").c_str());
  if (!WIFEXITED(raw)) return -2;
  return WEXITSTATUS(raw) == 137 ? -1 : WEXITSTATUS(raw);
}

bool has_temporaries(const fs::path& d) {
  for (const auto& e : fs::directory_iterator(d)) {
    const std::string name = e.path().filename().string();
    if (name.find(".tmp") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_SUITE("hardening") {
  TEST_CASE("a non-UTF-8 name reaches the JSON escaped - the text as it is") {
    const fs::path d = dir("latin1");
    write_file((d / "t.txt").string(), "0 init\n0 location f\xff.c 3\n0 compute 5\n0 finalize\n");
    write_file((d / "o.json").string(), "old");
    const auto r = run_augur("run --trace ti:" + q(d / "t.txt") + " --json " + q(d / "o.json"));
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string json = slurp(d / "o.json");
    const auto j = nlohmann::json::parse(json);                // valid UTF-8 JSON
    CHECK(json.find("f\xef\xbf\xbd.c") != std::string::npos);  // the byte 0xff as U+FFFD
    CHECK(r.out.find("f\xff.c") != std::string::npos);         // the text keeps the byte
    CHECK(j["variants"][0]["outcome"] == "completed");
  }

  TEST_CASE("a Latin-1 scenario name and a CP1251 DVM FILE= give valid JSON") {
    const fs::path d = dir("cp1251");
    write_file((d / "s.yaml").string(),
               "schema_version: 1\nname: \"caf\xe9\"\ntrace: ti:" + tiny + "\nmachine: platform_cluster_64\n");
    auto r = run_augur("run " + q(d / "s.yaml") + " --json " + q(d / "o.json"));
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(nlohmann::json::parse(slurp(d / "o.json"))["scenario"] == "caf\xef\xbf\xbd");
    std::string ptr = slurp(shared + "/dvm-samples/jac1d.ptr");
    for (std::size_t at = ptr.find("FILE=jac1d"); at != std::string::npos; at = ptr.find("FILE=jac1d", at))
      ptr.replace(at, 10, "FILE=\xff\xe0\xea");  // "яак" in CP1251
    write_file((d / "r.ptr").string(), ptr);
    r = run_augur("run --trace dvm:" + q(d / "r.ptr") + " --machine dvm_mvs --grid 2x2 --json " + q(d / "d.json"));
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(slurp(d / "d.json").find("\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd") != std::string::npos);
    CHECK(nlohmann::json::parse(slurp(d / "d.json"))["variants"].size() == 1);
  }

  TEST_CASE("a shared trace from a pipe or a FIFO is refused - not read as empty or waited for") {
    const fs::path d = dir("fifo");
    const std::string augur = std::string("'") + AUGUR_BINARY + "'";
    CHECK(shell("cat " + tiny + " | " + augur + " run --trace ti:/dev/stdin > " + q(d / "out") + " 2> " +
                q(d / "err")) == 2);
    CHECK(slurp(d / "err").find("must be a regular file") != std::string::npos);
    REQUIRE(mkfifo((d / "ff").c_str(), 0600) == 0);
    CHECK(shell("cat " + tiny + " > " + q(d / "ff") + " & " + augur + " run --trace ti:" + q(d / "ff") +
                " > /dev/null 2> " + q(d / "err2")) == 2);
    CHECK(slurp(d / "err2").find("not a pipe or a device") != std::string::npos);
  }

  TEST_CASE("machine parameters that cannot give a finite time are refused at load time") {
    const fs::path d = dir("nonfinite");
    for (const std::string bad : {"cpu_speed: 1e-300flops", "latency: 1e308s", "bandwidth_factors: '0:0'",
                                  "latency_factors: '0:-1'", "processes_per_node: 4294967297"}) {
      const auto r = run_augur("run --trace ti:" + tiny + " --machine " + q(machine(d, bad + "\n")));
      CHECK_MESSAGE(r.status == 2, bad);
      CHECK_MESSAGE(r.err.find("m.yaml") != std::string::npos, r.err);
      CHECK(r.err.find("error:") != std::string::npos);
    }
    write_file((d / "bus.yaml").string(), "schema_version: 1\nmodel: bus\nchannels: 4294967296\n");
    CHECK(run_augur("run --trace ti:" + tiny + " --machine " + q(d / "bus.yaml")).status == 2);
  }

  TEST_CASE("a DVM TIME= beyond 1e9 s is refused - a run whose predicted time is not finite has failed") {
    const fs::path d = dir("dvm_inf");
    std::string ptr = slurp(shared + "/dvm-samples/jac1d.ptr");
    const std::size_t at = ptr.find("TIME=", ptr.find("call_dopl_"));
    ptr.replace(at, ptr.find(' ', at) - at, "TIME=1e308");
    write_file((d / "t.ptr").string(), ptr);
    auto r = run_augur("run --trace dvm:" + q(d / "t.ptr") + " --machine dvm_mvs");
    CHECK(r.status == 2);
    CHECK(r.err.find("TIME=1e308 is out of range (at most 1e9 s)") != std::string::npos);
    // Two computations of 1e308 flops at 1 flop/s: each finite, their sum is not.
    write_file((d / "t.txt").string(), "0 init\n0 compute 1e308\n0 compute 1e308\n0 finalize\n");
    r = run_augur("run --trace ti:" + q(d / "t.txt") + " --machine " + q(machine(d, "cpu_speed: 1flops\n")) +
                  " --json " + q(d / "o.json"));
    CHECK(r.status == 1);
    const auto j = nlohmann::json::parse(slurp(d / "o.json"));
    CHECK(j["variants"][0]["outcome"] == "failed");
    CHECK(j["variants"][0]["message"].get<std::string>().find("the predicted time is not finite") != std::string::npos);
  }

  TEST_CASE("counts and options out of range are refused - not truncated") {
    const std::string run = "run --trace ti:" + tiny + " ";
    for (const std::string bad : {"--jobs 0", "--jobs -1", "--max-time -1", "--max-time nan", "--max-events 0",
                                  "--set model.collectives=bogus"}) {
      const auto r = run_augur(run + bad);
      CHECK_MESSAGE(r.status == 2, bad, r.err);
    }
    const std::string dvm = "run --trace dvm:" + shared + "/dvm-samples/jac1d.ptr --machine dvm_mvs ";
    for (const std::string grid : {"65536x65536", "65537x65537"}) {
      const auto r = run_augur(dvm + "--grid " + grid);
      CHECK(r.status == 2);
      CHECK(r.err.find("more than 16777216 processors") != std::string::npos);
    }
  }

  TEST_CASE("memory bombs end with a clear error") {
    const fs::path d = dir("bombs");
    auto r = run_augur("run --trace synthetic:P=1000000000,I=1");
    CHECK(r.status == 2);
    CHECK(r.err.find("too large for key 'P'") != std::string::npos);
    write_file((d / "s.txt").string(), "0 init\n0 compute 1\n0 finalize\n1000000 init\n");
    r = run_augur("run --trace ti:" + q(d / "s.txt"));
    CHECK(r.status == 2);
    CHECK(r.err.find("rank 1000000 named in a shared trace file of 4 actions") != std::string::npos);
    r = run_augur("run --trace ti:/dev/zero");
    CHECK(r.status == 2);
    CHECK(r.err.find("line longer than 16 MiB") != std::string::npos);
    // A small compressed file that expands to one long line.
    REQUIRE(shell("head -c 20000000 /dev/zero | tr '\\\\0' 0 | zstd -q -o " + q(d / "line.txt.zst")) == 0);
    CHECK(fs::file_size(d / "line.txt.zst") < 100000);
    r = run_augur("run --trace ti:" + q(d / "line.txt.zst"));
    CHECK(r.status == 2);
    CHECK(r.err.find("line longer than 16 MiB") != std::string::npos);
    std::string sweep = "schema_version: 1\ntrace: ti:" + tiny + "\nmachine: platform_cluster_64\nsweep:\n";
    // 10^7 variants: seven axes of ten values each.
    for (const auto& [key, unit] : std::vector<std::pair<std::string, std::string>>{{"latency", "us"},
                                                                                    {"overhead", "us"},
                                                                                    {"gap", "us"},
                                                                                    {"bandwidth", "GBps"},
                                                                                    {"intra_node_latency", "us"},
                                                                                    {"mtu", "B"},
                                                                                    {"cpu_speed", "Gflops"}}) {
      sweep += "  machine." + key + ": [";
      for (int i = 1; i <= 10; ++i) sweep += (i > 1 ? ", " : "") + std::to_string(i) + unit;
      sweep += "]\n";
    }
    write_file((d / "sweep.yaml").string(), sweep);
    r = run_augur("check " + q(d / "sweep.yaml"));
    CHECK(r.status == 2);
    CHECK(r.err.find("more than 100000 variants") != std::string::npos);
  }
}

TEST_SUITE("hardening") {
  TEST_CASE("an output onto an input or onto another output is refused - inputs stay whole") {
    const fs::path d = dir("outputs");
    write_file((d / "t.txt").string(), slurp(tiny));
    auto r = run_augur("run --trace ti:" + q(d / "t.txt") + " --json " + q(d / "t.txt"));
    CHECK(r.status == 2);
    CHECK(r.err.find("is the trace, an input") != std::string::npos);
    CHECK(slurp(d / "t.txt") == slurp(tiny));
    write_file((d / "s.yaml").string(),
               "schema_version: 1\ntrace: ti:" + tiny + "\nmachine: platform_cluster_64\noutputs: {json: s.yaml}\n");
    const std::string scenario = slurp(d / "s.yaml");
    r = augur::test::run_augur_in(d.string(), "run s.yaml");
    CHECK(r.status == 2);
    CHECK(slurp(d / "s.yaml") == scenario);
    r = run_augur("run --trace ti:" + tiny + " --json " + q(d / "x") + " --html " + q(d / "x"));
    CHECK(r.status == 2);
    CHECK(r.err.find("both write") != std::string::npos);
    CHECK_FALSE(fs::exists(d / "x"));
  }

  TEST_CASE("write errors end with exit status 2 and a message") {
    auto r = run_augur("run --trace ti:" + tiny + " --text /dev/full");
    CHECK(r.status == 2);
    CHECK(r.err.find("/dev/full: error: cannot write the text report") != std::string::npos);
    r = run_augur("run --trace ti:" + tiny + " --json /dev/full");
    CHECK(r.status == 2);
    const fs::path d = dir("full");
    CHECK(shell(std::string("'") + AUGUR_BINARY + "' run --trace ti:" + tiny + " > /dev/full 2> " + q(d / "err")) == 2);
    CHECK(slurp(d / "err").find("standard output") != std::string::npos);
  }

  TEST_CASE("SIGINT during a run leaves neither partial outputs nor temporary files") {
    const fs::path d = dir("sigint");
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const std::string chrome = (d / "c.json").string(), paraver = (d / "p").string(), log = (d / "e.txt").string();
      execl(AUGUR_BINARY, AUGUR_BINARY, "run", "--trace", "synthetic:P=64,I=1000000", "--chrome-trace", chrome.c_str(),
            "--paraver", paraver.c_str(), "--event-log", log.c_str(), "--json", (d / "o.json").c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    // Wait until the run writes its temporaries, then interrupt it.
    for (int i = 0; i < 600 && !has_temporaries(d); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(has_temporaries(d));
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status));
    CHECK(fs::is_empty(d));
  }

  TEST_CASE("stepper commands are whole numbers - existing LPs and complete breakpoints") {
    const std::string step = "step --trace ti:" + tiny;
    auto r = run_augur(step, "break event -5\nbreak event 1e3\nstep abc\nstep -1\nbreak lp 99\nquit\n");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("18446744073709551611") == std::string::npos);
    CHECK(r.out.find("breakpoint at event 1\n") == std::string::npos);
    CHECK(r.out.find("usage: break event N") != std::string::npos);
    CHECK(r.out.find("usage: step [N]") != std::string::npos);
    CHECK(r.out.find("no LP 99 (there are 4: 0 to 3)") != std::string::npos);
    CHECK(r.out.find("[event 2]") == std::string::npos);  // neither "step abc" nor "step -1" stepped
    r = run_augur(step, "break lp 1 kind recv\ncontinue\nquit\n");
    CHECK(r.out.find("breakpoint on LP 1 at recv events") != std::string::npos);
    const auto stop = r.out.find("lp=1 recv");
    CHECK(stop != std::string::npos);
    r = run_augur("step", "quit\n");
    CHECK(r.out.find("the commands step variant 1") != std::string::npos);
  }

  TEST_CASE("errors name the option or file at fault - and print what they quote readably") {
    auto r = run_augur("run --trace ti:" + tiny + " --machine nope");
    CHECK(r.err.rfind("--machine: error: unknown machine 'nope'", 0) == 0);
    r = run_augur("run --trace ti:" + tiny + " --processors 0");
    CHECK(r.err.rfind("--processors: error:", 0) == 0);
    r = run_augur("run --trace dvm:" + shared + "/dvm-samples/jac1d.ptr --grid 0x2");
    CHECK(r.err.rfind("--grid: error: invalid processor grid '0x2'", 0) == 0);
    r = run_augur("run --trace foo:bar");
    CHECK(r.err.rfind("--trace: error:", 0) == 0);
    const fs::path d = dir("messages");
    write_file((d / "bom.txt").string(), "\xef\xbb\xbf" + slurp(tiny));
    r = run_augur("run --trace ti:" + q(d / "bom.txt"));
    CHECK(r.status == 2);
    CHECK(r.err.find("byte order mark") != std::string::npos);
    write_file((d / "y.yaml").string(), "schema_version: 1\nname: a: b\n");
    r = run_augur("check " + q(d / "y.yaml"));
    CHECK(r.err.find("quote a value") != std::string::npos);
    r = run_augur("run --trace ti:" + tiny + " --machine " + q(d));
    CHECK(r.err.find("is a folder") != std::string::npos);
    write_file((d / "n.txt").string(), "0 init\n0 compute 1e309\n0 finalize\n");
    r = run_augur("run --trace ti:" + q(d / "n.txt"));
    CHECK(r.err.find("'1e309' is out of range") != std::string::npos);
    r = run_augur("run --trace 'ti:\x1b[31m" + std::string(5000, 'x') + "'");
    CHECK(r.status == 2);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(r.err.find("\\x1b[31m") != std::string::npos);
    CHECK(r.err.size() < 2000);
  }
}
