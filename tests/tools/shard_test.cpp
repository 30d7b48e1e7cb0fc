// Sharded sweeps through the `augur` executable: `run --shard K/N --partial FILE` on every shard,
// then `merge`, give the files and the standard output of a single run byte for byte; bad shard
// specifications and incomplete or mixed shard sets are input errors (exit status 2).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace fs = std::filesystem;
using augur::test::run_augur;
using augur::test::slurp;

namespace {

const std::string source = AUGUR_SOURCE_DIR;
const std::string sweep16 = source + "/tests/tools/fixtures/sweep16.yaml";
const char* const reports[] = {"r.json", "r.txt", "r.html", "r.csv", "s.json"};

/// The report options writing every report into `dir`.
std::string report_options(const fs::path& dir) {
  const std::string d = dir.string() + "/";
  return "--json " + d + "r.json --text " + d + "r.txt --html " + d + "r.html --csv " + d + "r.csv --sweep-json " + d +
         "s.json";
}

/// Runs `scenario` whole and in `shards` shards merged (extra: options of run and merge); checks that
/// every report and the standard output are the same bytes.
void check_merge_equals_single(const std::string& name, const std::string& scenario, int shards,
                               const std::string& extra = "") {
  const fs::path dir = augur::test::scratch_dir("shard_", name);
  fs::create_directories(dir / "single");
  fs::create_directories(dir / "merged");
  const auto single = run_augur("run " + scenario + " " + extra + " " + report_options(dir / "single"));
  REQUIRE(single.status == 0);
  std::string parts;
  for (int k = 0; k < shards; ++k) {
    const std::string part = (dir / ("part" + std::to_string(k) + ".json")).string();
    const auto shard = run_augur("run " + scenario + " " + extra + " --shard " + std::to_string(k) + "/" +
                                 std::to_string(shards) + " --partial " + part + " --jobs 1");
    REQUIRE_MESSAGE(shard.status == 0, shard.err);
    parts += " " + part;
  }
  const auto merged = run_augur("merge" + parts + " " + extra + " " + report_options(dir / "merged"));
  REQUIRE_MESSAGE(merged.status == 0, merged.err);
  CHECK(merged.out == single.out);
  CHECK(merged.out.find("efficiency") != std::string::npos);
  for (const char* f : reports) {
    INFO(f);
    const std::string whole = slurp(dir / "single" / f);
    CHECK(!whole.empty());
    CHECK(slurp(dir / "merged" / f) == whole);
  }
}

}  // namespace

TEST_CASE("a 16-variant sweep in 4 shards merges into the single run's reports - byte for byte") {
  check_merge_equals_single("sweep16", sweep16, 4);
  // The shards hold 4 variants each: 0/4 the 1st, 5th, 9th and 13th.
  const fs::path dir = augur::test::scratch_dir("shard_", "sweep16_summary");
  const auto shard = run_augur("run " + sweep16 + " --shard 0/4 --partial " + (dir / "p.json").string());
  REQUIRE(shard.status == 0);
  for (const char* v : {"variant 1:", "variant 5:", "variant 9:", "variant 13:"})
    CHECK(shard.out.find(v) != std::string::npos);
  for (const char* v : {"variant 2:", "variant 16:"}) CHECK(shard.out.find(v) == std::string::npos);
}

TEST_CASE("DVM variants (interval trees - the report's root interval) merge byte for byte") {
  check_merge_equals_single("dvm", source + "/scenarios/examples/dvm_jacobi_machines.yaml", 4, "--detail");
}

TEST_CASE("message-passing characteristics and wait states merge byte for byte") {
  check_merge_equals_single("default", source + "/scenarios/examples/default.yaml", 2, "--detail --depth 1");
}

TEST_CASE("bad shard specifications are input errors") {
  const fs::path dir = augur::test::scratch_dir("shard_", "errors");
  const std::string part = " --partial " + (dir / "p.json").string();
  const auto too_many = run_augur("run " + sweep16 + " --shard 0/17" + part);
  CHECK(too_many.status == 2);
  CHECK(too_many.err.find("16 variants, fewer than 17 shards") != std::string::npos);
  const auto out_of_range = run_augur("run " + sweep16 + " --shard 4/4" + part);
  CHECK(out_of_range.status == 2);
  CHECK(out_of_range.err.find("shard 4 of 4 does not exist (K is 0 to N - 1)") != std::string::npos);
  for (const char* bad : {"1", "a/4", "1/0", "-1/4", "1/4/2"}) {
    INFO(bad);
    const auto r = run_augur("run " + sweep16 + " --shard " + bad + part);
    CHECK(r.status == 2);
    CHECK(r.err.find("--shard: ") != std::string::npos);
  }
  const auto no_partial = run_augur("run " + sweep16 + " --shard 0/4");
  CHECK(no_partial.status == 2);
  CHECK(no_partial.err.find("--shard needs --partial FILE") != std::string::npos);
  const auto with_html = run_augur("run " + sweep16 + " --shard 0/4 --html x.html" + part);
  CHECK(with_html.status == 2);
  CHECK(with_html.err.find("--html: with --shard the reports are written by augur merge") != std::string::npos);
  CHECK(!fs::exists(dir / "p.json"));
}

TEST_CASE("merge refuses an incomplete - repeated or mixed set of shards") {
  const fs::path dir = augur::test::scratch_dir("shard_", "merge_errors");
  const auto p = [&](const std::string& n) { return (dir / n).string(); };
  REQUIRE(run_augur("run " + sweep16 + " --shard 0/2 --partial " + p("a0.json")).status == 0);
  REQUIRE(run_augur("run " + sweep16 + " --shard 1/2 --partial " + p("a1.json")).status == 0);
  REQUIRE(
      run_augur("run " + sweep16 + " --set machine.cpu_speed=2Gflops --shard 1/2 --partial " + p("b1.json")).status ==
      0);
  const auto missing = run_augur("merge " + p("a0.json") + " --csv " + p("m.csv"));
  CHECK(missing.status == 2);
  CHECK(missing.err.find("a0.json: error: shard 1/2 is missing") != std::string::npos);
  const auto twice = run_augur("merge " + p("a0.json") + " " + p("a1.json") + " " + p("a1.json"));
  CHECK(twice.status == 2);
  CHECK(twice.err.find("a1.json: error: shard 1/2 again") != std::string::npos);
  const auto mixed = run_augur("merge " + p("a0.json") + " " + p("b1.json"));
  CHECK(mixed.status == 2);
  CHECK(mixed.err.find("b1.json: error: a shard of another run") != std::string::npos);
  const auto not_shard = run_augur("merge " + sweep16);
  CHECK(not_shard.status == 2);
  CHECK(not_shard.err.find("sweep16.yaml: error: not a readable shard file") != std::string::npos);
  const auto onto_input = run_augur("merge " + p("a0.json") + " " + p("a1.json") + " --json " + p("a1.json"));
  CHECK(onto_input.status == 2);
  CHECK(!fs::exists(dir / "m.csv"));
  const auto ok = run_augur("merge " + p("a1.json") + " " + p("a0.json") + " --csv " + p("m.csv"));
  CHECK(ok.status == 0);
  CHECK(slurp(dir / "m.csv").find("\n16,") != std::string::npos);
}
