// `augur predict PAR TRACE OUT.html [D1 D2 ...]`, the DVM Predictor's own command line: its HTML
// against the reports Predictor 3.1 wrote (../shared/dvm-samples), the grid it takes, its
// arguments and errors; and the interval depth (--depth) and processor list (--procs) of the DVM
// text report in `augur run` and `augur predict`.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace fs = std::filesystem;
using augur::test::AugurRun;
using augur::test::run_augur_in;
using augur::test::slurp;

namespace {
// The tests here read the full report: `run` and `step` print it with --detail (the summary,
// augur's default output, has tests of its own in first_hour_test.cpp).
augur::test::AugurRun run_augur(const std::string& args, const std::string& input = "") {
  const bool full = args.starts_with("run") || args.starts_with("step");
  return augur::test::run_augur(full ? args + " --detail" : args, input);
}
}  // namespace

namespace {

const std::string samples = std::string(AUGUR_SHARED_DIR) + "/dvm-samples";
const std::string mvs = samples + "/Predictor.mvs.par";
const std::string jac1d = samples + "/jac1d.ptr";
const std::string jac_int = samples + "/programs/jac/L200_int/jac.ptr";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}

/// Line numbers (0-based) of the title lines: the line after each "   <TITLE>".
std::vector<std::size_t> title_lines(const std::vector<std::string>& lines) {
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (lines[i] == "   <TITLE>") at.push_back(i + 1);
  return at;
}

/// `lines` with the given lines replaced by a mark.
std::vector<std::string> masked(std::vector<std::string> lines, const std::vector<std::size_t>& at) {
  for (std::size_t i : at)
    if (i < lines.size()) lines[i] = "(masked)";
  return lines;
}

/// Line number of value `k` (0 Type, 1 Level, 2 Count, 3 Line, 4 Expr, 5 File) of the first
/// INTERVAL table: the line after the k-th "<CENTER><FONT SIZE=-1>" of its value row.
std::size_t interval_value_line(const std::vector<std::string>& lines, int k) {
  auto row = std::find(lines.begin(), lines.end(), "<TD BGCOLOR=\"#FFFFCC\">");
  REQUIRE(row != lines.end());
  int seen = 0;
  for (auto i = row; i != lines.end(); ++i) {
    if (*i == "<CENTER><FONT SIZE=-1>" && seen++ == k) return static_cast<std::size_t>(i - lines.begin()) + 1;
  }
  FAIL("no value " << k << " in the INTERVAL table");
  return 0;
}

/// The first block's "Processors" cell as written (3.1 puts no end of line after the shape).
std::string processors_cell(const std::string& html) {
  const std::vector<std::string> lines = lines_of(html);
  const auto label =
      std::find(lines.begin(), lines.end(), "<TD BGCOLOR=\"#33CCFF\"><B><FONT SIZE=-1>Processors</FONT></B></TD>");
  REQUIRE(label != lines.end());
  REQUIRE(lines.end() - label > 4);
  return *(label + 4);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

/// The part of a text report from the line `header` to the next part ("--- "), interval (a line
/// of dashes) or the blank line that ends an interval.
std::string part(const std::string& text, const std::string& header) {
  const auto start = text.find(header);
  if (start == std::string::npos) return {};
  const auto end = std::min({text.find("\n---", start + header.size()), text.find("\n\n", start), text.size() - 1});
  return text.substr(start, end + 1 - start);
}

/// The interval of a text report whose header line is `header`, to its closing blank line.
std::string interval_block(const std::string& text, const std::string& header) {
  const auto start = text.find(header);
  if (start == std::string::npos) return {};
  const auto end = text.find("\n\n", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end + 1 - start);
}

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("augur predict reproduces Predictor 3.1's jac1d 2x2 report but the title") {
    // ../shared/dvm-samples/README.md: jac1d_2_2.pred_res.html is 3.1's run on jac1d.ptr with
    // Predictor.mvs.par and the grid 2 2, written to jac1d_2_2.html.
    const augur::test::TempDir d;
    const AugurRun r = run_augur_in(d.path.string(), "predict '" + mvs + "' '" + jac1d + "' jac1d_2_2.html 2 2");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.err.empty());
    CHECK(r.out ==
          "jac1d_2_2.html: grid 2x2 (4 processors), machine Predictor.mvs: execution time 0.008526 s, "
          "efficiency 0.2415\n");
    const std::string html = slurp(d.path / "jac1d_2_2.html");
    const std::string reference = slurp(samples + "/jac1d_2_2.pred_res.html");
    REQUIRE(!reference.empty());
    const auto ours = lines_of(html), theirs = lines_of(reference);
    REQUIRE(ours.size() == theirs.size());
    // The title names the output file as given, then the program: the only line 3.1 lets differ.
    REQUIRE(title_lines(ours) == std::vector<std::size_t>{6});
    CHECK(ours[6] == "jac1d_2_2.html :: augur");
    CHECK(theirs[6] == "jac1d_2_2.html :: Predictor 3.01, 29.05.2007   ");
    CHECK(masked(ours, {6}) == masked(theirs, {6}));
    CHECK(processors_cell(html) == "2x2</FONT></CENTER>");
    // Same inputs, same bytes.
    const AugurRun again = run_augur_in(d.path.string(), "predict '" + mvs + "' '" + jac1d + "' again.html 2 2");
    REQUIRE(again.status == 0);
    const auto second = lines_of(slurp(d.path / "again.html"));
    CHECK(masked(second, {6}) == masked(ours, {6}));
  }

  TEST_CASE("augur predict --text - prints the text report on standard output - not to a file named -") {
    const augur::test::TempDir d;
    const AugurRun r = run_augur_in(d.path.string(), "predict '" + mvs + "' '" + jac1d + "' j.html 2 2 --text -");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.find("Parallelization efficiency") != std::string::npos);
    CHECK(r.out.find("j.html: grid 2x2 (4 processors)") != std::string::npos);
    CHECK(!std::filesystem::exists(d.path / "-"));
  }

  TEST_CASE("augur predict overwrites the current system at psview_ as Predictor 3.1 does - augur run does not") {
    // tsk.ptr calls psview_ with SizeArray[0]=1 on the root system (difference Q1 of
    // docs/dvm-model.md). 3.1 copies the 1-processor view into the root object: its Processors
    // cell prints 1 and psview_'s own 8.11 µs of system time is the view's, so on 4x4 the system
    // part of insufficient parallelism is only that of the three calls before it, 15 × (1 + 1 +
    // 0.95) µs = 44.25 µs (0.0000 printed); augur run books psview_ on all 16 processors:
    // + 15 × 8.11 µs = 0.000165 s (0.0002 printed).
    const std::string tsk = samples + "/programs/tsk/std/tsk.ptr";
    const augur::test::TempDir d;
    const AugurRun r =
        run_augur_in(d.path.string(), "predict '" + mvs + "' '" + tsk + "' tsk_mvs_4_4.html 4 4 --json p.json");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.starts_with("tsk_mvs_4_4.html: grid 4x4 (16 processors)"));
    const std::string html = slurp(d.path / "tsk_mvs_4_4.html");
    const auto ours = lines_of(html), theirs = lines_of(slurp(samples + "/programs/tsk/std/html/tsk_mvs_4_4.html"));
    REQUIRE(ours.size() == theirs.size());
    const auto titles = title_lines(ours);
    CHECK(masked(ours, titles) == masked(theirs, titles));
    CHECK(processors_cell(html) == "1</FONT></CENTER>");
    const auto predicted = nlohmann::json::parse(slurp(d.path / "p.json")).at("variants").at(0);
    CHECK(predicted.at("characteristics").at("interval").at("insufficient_parallelism").at("sys").get<double>() ==
          doctest::Approx(44.25e-6).epsilon(1e-9));
    const AugurRun run = run_augur("run --trace 'dvm:" + tsk + "' --machine '" + mvs + "' --grid 4x4 --json " +
                                   (d.path / "r.json").string());
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const auto corrected = nlohmann::json::parse(slurp(d.path / "r.json")).at("variants").at(0);
    // 44.25 µs + 15 × 8.11 µs of psview_ = 165.9 µs.
    CHECK(corrected.at("characteristics").at("interval").at("insufficient_parallelism").at("sys").get<double>() ==
          doctest::Approx(165.9e-6).epsilon(1e-9));
    // Both name the difference they met; the full text report lists it.
    const std::vector<std::string> q1 = {
        "Q1 psview_: 3.1 overwrites the current processor system with the view; augur keeps it and makes the "
        "view current"};
    CHECK(corrected.at("differences_from_predictor").get<std::vector<std::string>>() == q1);
    CHECK(predicted.at("differences_from_predictor").get<std::vector<std::string>>() == q1);
    CHECK(run.out.find("Documented differences from the original Predictor met by this run") != std::string::npos);
    CHECK(run.out.find("    " + q1.front() + "\n") != std::string::npos);
  }

  TEST_CASE("augur run names 2.53's remote-buffer direction where it changes the bus's order") {
    // gausf's matrix lies on a template replicated along grid dimension 1: on 2x2 a receiver has
    // two holders, so 2.53's receiver-by-holder matrix orders the bus's messages otherwise (Q2);
    // on the 1-D grid 4 every receiver has one holder in the same order: no Q2.
    const std::string gausf = samples + "/programs/gausf/N10_std/gausf.ptr";
    const std::string old_bus = samples + "/oracle/pars/old_ethernet.par";
    const augur::test::TempDir d;
    for (const char* grid : {"2x2", "4"}) {
      const std::string json = (d.path / (std::string(grid) + ".json")).string();
      const AugurRun r =
          run_augur("run --trace 'dvm:" + gausf + "' --machine '" + old_bus + "' --grid " + grid + " --json " + json);
      REQUIRE_MESSAGE(r.status == 0, r.err);
      const auto met = nlohmann::json::parse(slurp(json))
                           .at("variants")
                           .at(0)
                           .at("differences_from_predictor")
                           .get<std::vector<std::string>>();
      // gausf's arrcpy_ from Init = -1 also meets Q3 on both grids.
      const bool q2 = std::any_of(met.begin(), met.end(), [](const std::string& m) {
        return m.starts_with("Q2 remote buffers: 2.53 fills the transfer matrix receiver by holder");
      });
      CHECK(q2 == (std::string(grid) == "2x2"));
      CHECK(std::any_of(met.begin(), met.end(), [](const std::string& m) { return m.starts_with("Q3 arrcpy_: "); }));
    }
  }

  TEST_CASE("augur predict gives Main the line of the trace's first event as Predictor 3.1 does") {
    // Predictor 3.1 (TraceLine::first_line_number): the root interval's line and file are those of
    // the first trace line carrying TIME, LINE and FILE, preamble included: jac1d.ptr's
    // call_mps_Barrier (LINE=25), not the first call after dvm_Init (getam_, LINE=20).
    const augur::test::TempDir d;
    const AugurRun r = run_augur_in(d.path.string(), "predict '" + mvs + "' '" + jac1d + "' j.html 2 2 --json j.json");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto ours = lines_of(slurp(d.path / "j.html"));
    CHECK(ours[interval_value_line(ours, 3)] == "25");
    CHECK(ours[interval_value_line(ours, 5)] == "jac1d.cdv");
    const auto json = nlohmann::json::parse(slurp(d.path / "j.json"));
    const auto& main = json["variants"][0]["characteristics"]["interval"];
    CHECK(main["source_line"] == 25);
    CHECK(main["source_file"] == "jac1d.cdv");
  }

  TEST_CASE("augur predict prints Predictor 3.1's -0.0000 load imbalance of jac1d on grid 2 and augur run 0.0000") {
    // 3.1 (Interval::CalcIdleAndImbalance) computes Load_imbalance_i = max_sys + max_usr − sys_i −
    // usr_i from sums of the very TimeDeltas AddTime added, identical on both processors here, so
    // each term is the rounding error of (sys + usr) − sys − usr: negative here, a few 1e-19 s,
    // printed "-0.0000". `augur predict` on a cluster-format machine sums the model's durations
    // as 3.1 does (the same sign); `augur run` sums clock differences (clock_after −
    // clock_before), whose last bits depend on each processor's clock: positive here.
    const augur::test::TempDir d;
    REQUIRE(run_augur_in(d.path.string(), "predict '" + mvs + "' '" + jac1d + "' j.html 2 --json p.json").status == 0);
    const auto ours = lines_of(slurp(d.path / "j.html"));
    const auto theirs = lines_of(slurp(samples + "/programs/jac1d/sample/html/jac1d_mvs_2.html"));
    REQUIRE(ours.size() == theirs.size());
    const auto label = std::find(theirs.begin(), theirs.end(),
                                 "<TD BGCOLOR=\"#33CCFF\"><B><FONT SIZE=-1>Load imbalance</FONT></B></TD>");
    REQUIRE(label != theirs.end());
    const auto at = static_cast<std::size_t>(label - theirs.begin()) + 4;
    CHECK(theirs[at] == "-0.0000");
    CHECK(ours[at] == "-0.0000");
    const std::string json = (d.path / "r.json").string();
    REQUIRE(run_augur("run --trace 'dvm:" + jac1d + "' --machine '" + mvs + "' --grid 2 --json " + json).status == 0);
    const auto imbalance = [](const fs::path& f) {
      return nlohmann::json::parse(slurp(f))
          .at("variants")
          .at(0)
          .at("characteristics")
          .at("interval")
          .at("load_imbalance")
          .get<double>();
    };
    const double predicted = imbalance(d.path / "p.json"), corrected = imbalance(json);
    CHECK(predicted < 0.0);
    CHECK(predicted > -1e-15);
    CHECK(corrected >= 0.0);
    CHECK(corrected < 1e-15);
  }

  TEST_CASE("augur predict reproduces Predictor 3.1's nested-interval report of jac L200_int but the titles") {
    const augur::test::TempDir d;
    const AugurRun r = run_augur_in(d.path.string(), "predict '" + mvs + "' '" + jac_int + "' jac_mvs_2_2.html 2 2");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string html = slurp(d.path / "jac_mvs_2_2.html");
    const std::string reference = slurp(samples + "/programs/jac/L200_int/html/jac_mvs_2_2.html");
    REQUIRE(!reference.empty());
    const auto ours = lines_of(html), theirs = lines_of(reference);
    // One block per interval below the program-level one (Main is not printed: fact 5), with
    // UP/PRED/NEXT/HOME navigation; only the first block's title names the file.
    CHECK(count(html, "<HTML>") == 5);
    const auto titles = title_lines(ours);
    REQUIRE(titles == title_lines(theirs));
    REQUIRE(titles.size() == 5);
    CHECK(ours[titles[0]] == "jac_mvs_2_2.html :: augur");
    CHECK(theirs[titles[0]] == "jac_mvs_2_2.html :: 3.1 (29.05.2007)");
    for (std::size_t k = 1; k < titles.size(); ++k) CHECK(ours[titles[k]] == "augur");
    CHECK(masked(ours, titles) == masked(theirs, titles));
  }

  TEST_CASE("augur predict takes the grid from its arguments or the par file's topology or one processor") {
    const augur::test::TempDir d;
    const std::string dir = d.path.string();
    // A 1-D grid: "4", as 3.1 prints the root system's sizes joined by 'x'.
    REQUIRE(run_augur_in(dir, "predict '" + mvs + "' '" + jac1d + "' four.html 4").status == 0);
    CHECK(processors_cell(slurp(d.path / "four.html")) == "4</FONT></CENTER>");
    // No extents: one processor, as 3.1 (SizeArray = {1}); the same report as with "1".
    fs::create_directories(d.path / "a");
    fs::create_directories(d.path / "b");
    REQUIRE(run_augur_in((d.path / "a").string(), "predict '" + mvs + "' '" + jac1d + "' one.html").status == 0);
    REQUIRE(run_augur_in((d.path / "b").string(), "predict '" + mvs + "' '" + jac1d + "' one.html 1").status == 0);
    const std::string none = slurp(d.path / "a" / "one.html");
    CHECK(processors_cell(none) == "1</FONT></CENTER>");
    CHECK(none == slurp(d.path / "b" / "one.html"));
    // An old-format Predictor.par with a topology: its grid when no extents are given, the
    // command line's otherwise.
    augur::test::write_file(
        d.file("topo.par"),
        "type = ethernet;\nstart time = 75;\nsend byte time = 0.2;\npower = 1.00;\ntopology = {2, 2};\n");
    const AugurRun topo = run_augur_in(dir, "predict topo.par '" + jac1d + "' topo.html");
    REQUIRE_MESSAGE(topo.status == 0, topo.err);
    CHECK(processors_cell(slurp(d.path / "topo.html")) == "2x2</FONT></CENTER>");
    CHECK(topo.out.find("topo.html: grid 2x2 (4 processors), machine topo:") == 0);
    REQUIRE(run_augur_in(dir, "predict topo.par '" + jac1d + "' topo4.html 4").status == 0);
    CHECK(processors_cell(slurp(d.path / "topo4.html")) == "4</FONT></CENTER>");
    // A YAML machine is accepted wherever a par file is.
    const AugurRun yaml = run_augur_in(dir, "predict '" + std::string(AUGUR_SOURCE_DIR) +
                                                "/machines/library/ethernet_bus.yaml' '" + jac1d + "' bus.html 2 2");
    REQUIRE_MESSAGE(yaml.status == 0, yaml.err);
    CHECK(processors_cell(slurp(d.path / "bus.html")) == "2x2</FONT></CENTER>");
  }

  TEST_CASE("augur predict titles the report with the output name as given and writes augur's reports on request") {
    const augur::test::TempDir d;
    fs::create_directories(d.path / "sub");
    const AugurRun plain = run_augur_in(d.path.string(), "predict '" + mvs + "' '" + jac1d + "' sub/plain.html 2 2");
    REQUIRE(plain.status == 0);
    const AugurRun r = run_augur_in(
        d.path.string(), "predict '" + mvs + "' '" + jac1d + "' sub/r.html 2 2 --extras --json r.json --text r.txt");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string html = slurp(d.path / "sub" / "r.html");
    CHECK(lines_of(html)[6] == "sub/r.html :: augur");
    // --extras appends augur's per-processor section after the 3.1 blocks, which stay as they are.
    std::string base = slurp(d.path / "sub" / "plain.html");
    REQUIRE(!base.empty());
    base.replace(base.find("sub/plain.html :: augur"), std::string("sub/plain.html").size(), "sub/r.html");
    REQUIRE(html.size() > base.size());
    CHECK(html.compare(0, base.size(), base) == 0);
    CHECK(html.find("<A NAME=\"augur\"></A>", base.size()) != std::string::npos);
    CHECK(base.find("<A NAME=\"augur\">") == std::string::npos);
    // --json and --text: augur's reports of the same run.
    const auto j = nlohmann::json::parse(slurp(d.path / "r.json"));
    const auto& variant = j.at("variants").at(0);
    CHECK(variant.at("grid") == "2x2");
    const auto& interval = variant.at("characteristics").at("interval");
    CHECK(interval.at("efficiency").get<double>() == doctest::Approx(0.2415).epsilon(2e-4));
    const std::string text = slurp(d.path / "r.txt");
    CHECK(text.find("Processor system=2*2\n") != std::string::npos);
    CHECK(text.find("Parallelization efficiency      0.2415 \n") != std::string::npos);
  }

  TEST_CASE("augur predict rejects bad arguments with a usage message or file and line and exit status 2") {
    const augur::test::TempDir d;
    const std::string dir = d.path.string();
    struct Case {
      std::string args, error;
    };
    const Case usage[] = {
        {"predict", "augur: error: predict needs PAR TRACE OUT.html [D1 D2 ...] (nothing given)\n"},
        {"predict a.par b.ptr", "augur: error: predict needs PAR TRACE OUT.html [D1 D2 ...] (2 arguments given)\n"},
        {"predict a.par b.ptr c.html 2x2",
         "augur: error: predict: processor grid extent '2x2' is not a positive integer (give the extents separated by "
         "spaces: 2 2 for a 2x2 grid)\n"},
        {"predict a.par b.ptr c.html 2 0",
         "augur: error: predict: processor grid extent '0' is not a positive integer (give the extents separated by "
         "spaces: 2 2 for a 2x2 grid)\n"},
        {"predict a.par b.ptr c.html --grid 2x2",
         "augur: error: --grid is not an option of predict (PAR, TRACE, OUT.html and the grid are its positional "
         "arguments)\n"},
        {"run --extras", "augur: error: --extras is an option of predict\n"},
    };
    for (const Case& c : usage) {
      INFO(c.args);
      const AugurRun r = run_augur_in(dir, c.args);
      CHECK(r.status == 2);
      CHECK(r.err.rfind(c.error, 0) == 0);
      CHECK(r.err.find("\nusage:\n") != std::string::npos);
      CHECK(r.err.find("augur predict PAR TRACE OUT.html [D1 D2 ...]") != std::string::npos);
    }
    // Input errors name the file (and the line where there is one); no report is written.
    const std::string unmapped = std::string(AUGUR_SOURCE_DIR) + "/tests/tools/fixtures/dvm/runam_unmapped.ptr";
    augur::test::write_file(d.file("bad.par"), "type = ethernet;\nstart tim = 75;\n");
    const Case input[] = {
        {"predict bad.par '" + jac1d + "' x.html 2",
         "bad.par:2:7: error: expected '=' after 'start time', found 'tim'\n"},
        {"predict '" + mvs + "' missing.ptr x.html 2", "missing.ptr: error: cannot open: No such file or directory\n"},
        {"predict '" + mvs + "' '" + jac1d + "' x.html 64 64",
         mvs + ": error: parameter 'clusters': the machine 'mvs' has 1024 processors, but the run has 4096\n"},
        {"predict '" + mvs + "' '" + jac1d + "' no/such/dir/x.html 2",
         "no/such/dir/x.html: error: cannot write the HTML report: No such file or directory\n"},
        {"predict '" + mvs + "' '" + unmapped + "' x.html 2",
         unmapped + ":137: error: runam_: abstract machine a300 was never mapped on a processor system (mapam_)\n"},
    };
    for (const Case& c : input) {
      INFO(c.args);
      const AugurRun r = run_augur_in(dir, c.args);
      CHECK(r.status == 2);
      CHECK(r.err == c.error);
      CHECK(r.out.empty());
      CHECK(!fs::exists(d.path / "x.html"));
    }
  }

  TEST_CASE("augur prints the per-processor part of the DVM text report for the listed processors only") {
    const std::string run = "run --trace 'dvm:" + jac1d + "' --machine '" + mvs + "' --grid 2x2";
    const AugurRun all = run_augur(run);
    REQUIRE_MESSAGE(all.status == 0, all.err);
    const std::string full = part(all.out, "--- The execution characteristics --- \n");
    REQUIRE(!full.empty());
    // The analyzer's layout: a 23-character name, then one 10-character column and a blank per
    // processor. Processors 2 and 3 (numbered from 1 as the report prints them) keep columns 2 and 3.
    std::string expected;
    for (const std::string& line : lines_of(full)) {
      if (line.size() < 23 + 4 * 11 || line.rfind("--- ", 0) == 0) {
        expected += line + "\n";
        continue;
      }
      expected += line.substr(0, 23) + line.substr(23 + 11, 2 * 11) + "\n";
    }
    CHECK(expected.find("                                2          3 \n") != std::string::npos);
    for (const std::string list : {"2-3", "3,2", "2,3,2-3"}) {
      INFO(list);
      const AugurRun some = run_augur(run + " --procs " + list);
      REQUIRE(some.status == 0);
      CHECK(part(some.out, "--- The execution characteristics --- \n") == expected);
      // The main and comparative parts always span every processor.
      CHECK(part(some.out, "--- The main characteristics --- \n") ==
            part(all.out, "--- The main characteristics --- \n"));
      CHECK(part(some.out, "--- The comparative characteristics --- \n") ==
            part(all.out, "--- The comparative characteristics --- \n"));
    }
    // 0 alone: no per-processor part (the analyzer's -n 0).
    const AugurRun none = run_augur(run + " --procs 0");
    REQUIRE(none.status == 0);
    CHECK(none.out.find("--- The execution characteristics ---") == std::string::npos);
    CHECK(part(none.out, "--- The comparative characteristics --- \n") ==
          part(all.out, "--- The comparative characteristics --- \n"));
    // Bad lists.
    for (const std::string bad : {"3-2", "a", "1,,2", "2,", "-1"}) {
      INFO(bad);
      const AugurRun r = run_augur(run + " --procs '" + bad + "'");
      CHECK(r.status == 2);
      CHECK(r.err.rfind("augur: error: --procs: '" + bad + "': ", 0) == 0);
    }
  }

  TEST_CASE("augur prints the DVM text report down to the interval level --depth gives") {
    const std::string run = "run --trace 'dvm:" + jac_int + "' --machine '" + mvs + "' --grid 2x2";
    const AugurRun all = run_augur(run);
    REQUIRE_MESSAGE(all.status == 0, all.err);
    CHECK(count(all.out, "INTERVAL (") == 5);
    CHECK(count(all.out, ") LEVEL=3 ") == 2);
    const AugurRun two = run_augur(run + " --depth 2");
    REQUIRE(two.status == 0);
    CHECK(count(two.out, "INTERVAL (") == 3);
    CHECK(count(two.out, ") LEVEL=3 ") == 0);
    // The intervals printed are printed as in the whole report.
    const std::string header = "INTERVAL ( NLINE=22 SOURCE=jac.fdv ) LEVEL=2 SEQ EXE_COUNT=1\n";
    const std::string block = interval_block(all.out, header);
    REQUIRE(block.size() > 1000);
    CHECK(interval_block(two.out, header) == block);
    // Levels are absolute, as printed: jac1d's only interval is Main at level 0.
    const AugurRun main = run_augur("run --trace 'dvm:" + jac1d + "' --machine '" + mvs + "' --grid 2 --depth 0");
    REQUIRE(main.status == 0);
    CHECK(count(main.out, "INTERVAL (") == 1);
    CHECK(main.out.find(") LEVEL=0  EXE_COUNT=1\n") != std::string::npos);
    const AugurRun bad = run_augur(run + " --depth -1");
    CHECK(bad.status == 2);
    CHECK(bad.err.rfind("augur: error: --depth: '-1' is not an interval level (0, 1, 2, ...)\n", 0) == 0);
  }

  TEST_CASE("augur predict writes the text report with the interval depth and processor list") {
    const augur::test::TempDir d;
    const AugurRun r = run_augur_in(
        d.path.string(), "predict '" + mvs + "' '" + jac_int + "' j.html 4 --text j.txt --depth 1 --procs 4");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string text = slurp(d.path / "j.txt");
    CHECK(text.rfind("augur: predict (1 variant)\n", 0) == 0);
    CHECK(count(text, "INTERVAL (") == 1);
    CHECK(text.find("INTERVAL ( NLINE=8 SOURCE=jac.fdv ) LEVEL=1 SEQ EXE_COUNT=1\n") != std::string::npos);
    CHECK(text.find("--- The execution characteristics --- \n" + std::string(23, ' ') + "         4 \n") !=
          std::string::npos);
    // The HTML keeps every interval.
    CHECK(count(slurp(d.path / "j.html"), "<HTML>") == 5);
  }

}  // TEST_SUITE
