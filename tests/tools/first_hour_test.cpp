// The first hour with augur: the summary on one screen, the help, the machine library, the
// version, "did you mean", JSON on standard output, numbers without noise, singular counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace fs = std::filesystem;
using augur::test::AugurRun;
using augur::test::run_augur;

namespace {

const std::string shared = AUGUR_SHARED_DIR;
const std::string source = AUGUR_SOURCE_DIR;

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::size_t widest_line(const std::string& text) {
  std::istringstream in(text);
  std::size_t widest = 0;
  for (std::string line; std::getline(in, line);) widest = std::max(widest, line.size());
  return widest;
}

}  // namespace

TEST_SUITE("tools") {
  TEST_CASE("augur run prints a summary of the default scenario on one screen") {
    const AugurRun r = run_augur("run");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(lines(r.out) <= 60);
    CHECK(widest_line(r.out) <= 100);
    // Per variant: time, efficiency, the lost-time split, the top wait state, the advice.
    CHECK(r.out.find("variant 1: 4 processors, machine platform_cluster_64 (loggp_smp)\n") != std::string::npos);
    CHECK(r.out.find("  predicted time 1.813870 s, efficiency 97.4 %, 6015 events\n") != std::string::npos);
    CHECK(r.out.find("  lost time 0.191122 s: waiting 0.189362 s (99.1 %), transfer 0.001750 s (0.9 %)") !=
          std::string::npos);
    CHECK(r.out.find("  top wait state: late_sender ") != std::string::npos);
    CHECK(r.out.find("  advice: efficiency 97.4 % (compute over processors x time); waiting dominates") !=
          std::string::npos);
    // The phases under 1 % of the time are not listed, and the line says so.
    CHECK(r.out.find("not shown: shorter than 5 % of the time") != std::string::npos);
    // Then the sweep table, a row per variant.
    const auto table = r.out.find("sweep table");
    REQUIRE(table != std::string::npos);
    CHECK(r.out.find("\n      3    16 platform_cluster_64", table) != std::string::npos);
    // Not the full report.
    CHECK(r.out.find("INTERVAL (") == std::string::npos);
    CHECK(r.out.find("compute_s   transfer_s") == std::string::npos);
  }

  TEST_CASE("--detail prints the full report on standard output - --text FILE writes it - the summary stays") {
    const std::string trace = "--trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt";
    const AugurRun detail = run_augur("run " + trace + " --detail");
    REQUIRE(detail.status == 0);
    CHECK(detail.out.find("INTERVAL (") != std::string::npos);
    CHECK(detail.out.find("  advice: ") != std::string::npos);
    CHECK(detail.out.find("the full report: --detail") == std::string::npos);
    const fs::path d = augur::test::scratch_dir("augur_first_hour_", "text");
    const AugurRun file = run_augur("run " + trace + " --text " + (d / "r.txt").string());
    REQUIRE(file.status == 0);
    CHECK(augur::test::slurp(d / "r.txt") == detail.out);
    CHECK(file.out.find("predicted time ") != std::string::npos);
    CHECK(file.out.find("INTERVAL (") == std::string::npos);
  }

  TEST_CASE("--json - writes the JSON report on standard output") {
    const AugurRun r = run_augur("run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --json -");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const nlohmann::json j = nlohmann::json::parse(r.out);  // nothing else on stdout
    CHECK(j["variants"].size() == 1);
    CHECK(!fs::exists("-"));
  }

  TEST_CASE("JSON and CSV numbers carry no floating-point noise") {
    const fs::path d = augur::test::scratch_dir("augur_first_hour_", "numbers");
    const AugurRun r = run_augur("run --json " + (d / "r.json").string() + " --csv " + (d / "s.csv").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    // 13 or more significant digits in a row is noise: at most 12 are written.
    const std::regex noisy("[1-9][0-9]*\\.?[0-9]{13,}|0\\.0*[1-9][0-9]{12,}");
    const std::string json = augur::test::slurp(d / "r.json");
    CHECK(json.find("1.81387") != std::string::npos);
    CHECK(!std::regex_search(json, noisy));
    CHECK(!std::regex_search(augur::test::slurp(d / "s.csv"), noisy));
  }

  TEST_CASE("one processor and one wait are singular") {
    const AugurRun r = run_augur("run --trace dvm:" + shared + "/dvm-samples/jac1d.ptr --machine " + shared +
                                 "/dvm-samples/Predictor.mvs.par --grid 1 --detail");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.find("variant 1: 1 processor (grid 1)") != std::string::npos);
    CHECK(r.out.find("1 processors") == std::string::npos);
    CHECK(run_augur("run --trace synthetic:P=2,I=1 --detail").out.find("(1 waits") == std::string::npos);
  }

  TEST_CASE("processors are numbered from 0 in every table of a message-passing run - from 1 in DVM's") {
    const std::string tiny = "run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --detail";
    const AugurRun mp = run_augur(tiny);
    REQUIRE_MESSAGE(mp.status == 0, mp.err);
    CHECK(mp.out.find("Processors numbered from 0, as the ranks in the other tables\n") != std::string::npos);
    const auto exec = mp.out.find("--- The execution characteristics --- \n");
    REQUIRE(exec != std::string::npos);
    const std::string numbers = mp.out.substr(exec + 39, mp.out.find('\n', exec + 39) - exec - 39);
    CHECK(numbers == "                                0          1          2          3 ");
    // --procs takes the numbers the report prints: ranks 0 and 2.
    const AugurRun some = run_augur(tiny + " --procs 0,2");
    REQUIRE(some.status == 0);
    const auto at = some.out.find("--- The execution characteristics --- \n") + 39;
    CHECK(some.out.substr(at, some.out.find('\n', at) - at) == "                                0          2 ");
    const AugurRun dvm = run_augur("run --trace dvm:" + shared + "/dvm-samples/jac1d.ptr --machine " + shared +
                                   "/dvm-samples/Predictor.mvs.par --grid 2x2 --detail");
    REQUIRE_MESSAGE(dvm.status == 0, dvm.err);
    CHECK(dvm.out.find("Processors numbered from 1, as the DVM analyzer numbers them") != std::string::npos);
  }

  TEST_CASE("HTML: one machine column - a compact navigation - a title without a scenario name") {
    const fs::path d = augur::test::scratch_dir("augur_first_hour_", "html");
    const AugurRun r =
        run_augur("run " + source + "/scenarios/examples/dvm_jacobi_machines.yaml --html " + (d / "r.html").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string html = augur::test::slurp(d / "r.html");
    const auto table = html.find("<table class=\"sweep\">");
    REQUIRE(table != std::string::npos);
    const std::string header = html.substr(table, html.find("</tr>", table) - table);
    CHECK(header.find("<th>machine</th>") != std::string::npos);
    CHECK(header.find("<th>machine</th>", header.find("<th>machine</th>") + 1) == std::string::npos);
    const auto nav = html.find("<nav>");
    REQUIRE(nav != std::string::npos);
    const std::string links = html.substr(nav, html.find("</nav>", nav) - nav);
    CHECK(links.find(">variant ") == std::string::npos);  // a number per variant, details in tooltips
    CHECK(links.find("\">15</a>") != std::string::npos);
    // A scenario without a name: titled by its trace and machine.
    augur::test::write_file(
        (d / "s.yaml").string(),
        "schema_version: 1\ntrace: ti:" + shared + "/ti-samples/tiny-4/ti_index.txt\nmachine: platform_cluster_64\n");
    const AugurRun unnamed = run_augur("run " + (d / "s.yaml").string() + " --html " + (d / "s.html").string());
    REQUIRE_MESSAGE(unnamed.status == 0, unnamed.err);
    const std::string title = "augur: " + shared + "/ti-samples/tiny-4/ti_index.txt on platform_cluster_64";
    CHECK(augur::test::slurp(d / "s.html").find("<title>" + title + "</title>") != std::string::npos);
    CHECK(unnamed.out.rfind(title + " (1 variant)\n", 0) == 0);
  }

  TEST_CASE("augur info machines lists the machine library one line each - and shows one") {
    const AugurRun r = run_augur("info machines");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    for (const auto& f : fs::directory_iterator(source + "/machines/library")) {
      const std::string name = f.path().stem().string();
      CHECK_MESSAGE(r.out.find("\n  " + name + " ") != std::string::npos, name);
    }
    CHECK(r.out.find("\n  loggp_smp ") != std::string::npos);  // and the models
    CHECK(lines(r.out) < 30);
    CHECK(widest_line(r.out) <= 100);
    const AugurRun one = run_augur("info machines platform_cluster_64");
    REQUIRE(one.status == 0);
    CHECK(one.out.find("platform_cluster_64 (model loggp_smp") == 0);
    CHECK(one.out.find("    latency") != std::string::npos);
    const AugurRun typo = run_augur("info machines platform_cluster_46");
    CHECK(typo.status == 2);
    CHECK(typo.err.find("did you mean 'platform_cluster_64'?") != std::string::npos);
  }

  TEST_CASE("augur version prints the project's version") {
    std::ifstream cmake(source + "/CMakeLists.txt");
    std::string text((std::istreambuf_iterator<char>(cmake)), std::istreambuf_iterator<char>());
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex("project\\(augur VERSION ([0-9.]+)")));
    CHECK(run_augur("version").out == "augur " + m[1].str() + "\n");
    CHECK(run_augur("--version").out == "augur " + m[1].str() + "\n");
  }

  TEST_CASE("augur run --help is the help of run: every trace kind and the per-variant files") {
    const AugurRun r = run_augur("run --help");
    REQUIRE(r.status == 0);
    for (const char* s :
         {"usage: augur run", "ti:PATH", "dvm:PATH", "synthetic:P=", "F.v1.json, F.v2.json", "--detail", "--json FILE"})
      CHECK_MESSAGE(r.out.find(s) != std::string::npos, s);
    CHECK(r.out.find("augur predict") == std::string::npos);  // not the general usage
    CHECK(widest_line(r.out) <= 100);
    CHECK(run_augur("help run").out == r.out);
    CHECK(run_augur("--help").out.find("augur predict") != std::string::npos);
  }

  TEST_CASE("a mistyped command or option gets a did-you-mean") {
    const AugurRun cmd = run_augur("rnu");
    CHECK(cmd.status == 2);
    CHECK(cmd.err.find("unknown command 'rnu'; did you mean 'run'?") != std::string::npos);
    const AugurRun opt = run_augur("run --jsn x.json");
    CHECK(opt.status == 2);
    CHECK(opt.err.find("unknown option '--jsn'; did you mean '--json'?") != std::string::npos);
    CHECK(run_augur("info machine").err.find("did you mean 'machines'?") != std::string::npos);
  }
}
