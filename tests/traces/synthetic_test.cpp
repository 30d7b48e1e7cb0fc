// Tests of the synthetic benchmark workload: the on-the-fly source against the TI files written
// for tools/bench/ti_gen (read back through open_ti_trace), the workload by hand, the spec string.
#include "traces/synthetic/synthetic_trace.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/bench/synthetic_ti_writer.hpp"
#include "traces/ti/ti_trace.hpp"
#include "traces/trace_error.hpp"

#include "tests/support/files.hpp"
#include "tests/support/mp_records.hpp"

namespace fs = std::filesystem;
using augur::bench::write_synthetic_ti;
using augur::test::check_same_record;
using augur::test::TempDir;
using augur::test::write_file;
using augur::traces::MpOpKind;
using augur::traces::MpRecord;
using augur::traces::MpTraceSource;
using augur::traces::TraceError;
using augur::traces::synthetic::make_synthetic_trace;
using augur::traces::synthetic::parse_synthetic_spec;
using augur::traces::synthetic::synthetic_action_count;
using augur::traces::synthetic::SyntheticSpec;

namespace {

std::vector<MpRecord> read_rank(MpTraceSource& source, int rank) {
  std::vector<MpRecord> records;
  MpRecord record;
  while (source.next(rank, record)) {
    CHECK(record.counts.empty());
    CHECK(record.text.empty());
    records.push_back(record);
  }
  return records;
}

void check_files_match_source(const SyntheticSpec& spec, int zstd_level) {
  const TempDir dir;
  const auto written = write_synthetic_ti(spec, dir.path.string(), zstd_level);
  CHECK(written.actions == synthetic_action_count(spec));
  if (zstd_level > 0) {
    CHECK(fs::exists(dir.path / "rank4.txt.zst"));
    CHECK_FALSE(fs::exists(dir.path / "rank4.txt"));
  }
  const auto from_files = augur::traces::ti::open_ti_trace(written.index);
  const auto on_the_fly = make_synthetic_trace(spec);
  REQUIRE(from_files->rank_count() == spec.ranks);
  REQUIRE(on_the_fly->rank_count() == spec.ranks);
  std::uint64_t total = 0;
  for (int rank = 0; rank < spec.ranks; ++rank) {
    CAPTURE(rank);
    const std::vector<MpRecord> a = read_rank(*from_files, rank);
    const std::vector<MpRecord> b = read_rank(*on_the_fly, rank);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CAPTURE(i);
      check_same_record(a[i], b[i]);
    }
    total += a.size();
  }
  CHECK(total == synthetic_action_count(spec));
}

std::string spec_error(const std::string& text) {
  try {
    parse_synthetic_spec(text);
  } catch (const TraceError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("SyntheticTrace yields record for record what open_ti_trace reads from ti_gen's files") {
    check_files_match_source(SyntheticSpec{5, 12}, 0);
  }

  TEST_CASE("SyntheticTrace matches ti_gen's zstd-compressed files too") {
    check_files_match_source(SyntheticSpec{5, 12}, 3);
  }

  TEST_CASE("SyntheticTrace follows the issue-4 workload") {
    // P=5, I=12: 2 + 4·12 + ⌊12/10⌋ = 51 actions per rank, 255 in all.
    const SyntheticSpec spec{5, 12};
    CHECK(synthetic_action_count(spec) == 255);
    const auto source = make_synthetic_trace(spec);
    const std::vector<MpRecord> r3 = read_rank(*source, 3);
    REQUIRE(r3.size() == 51);
    CHECK(r3[0].kind == MpOpKind::init);
    CHECK(r3[1].kind == MpOpKind::compute);
    CHECK(r3[1].amount == 4e6);  // (1 + 3 mod 4) ms at 1 Gflop/s
    CHECK(r3[2].kind == MpOpKind::irecv);
    CHECK(r3[2].peer == 2);
    CHECK(r3[2].bytes == 1000);
    CHECK(r3[3].kind == MpOpKind::isend);
    CHECK(r3[3].peer == 4);
    CHECK(r3[3].bytes == 1000);
    CHECK(r3[4].kind == MpOpKind::waitall);
    CHECK(r3[4].count == 2);
    // The allreduce closes iteration 10 (index 9): line 2 + 4·10 = 42.
    CHECK(r3[41].kind == MpOpKind::allreduce);
    CHECK(r3[41].line == 42);
    CHECK(r3[41].bytes == 8);
    CHECK(r3[42].kind == MpOpKind::compute);
    CHECK(r3[50].kind == MpOpKind::finalize);
    CHECK(r3[50].line == 51);
    std::size_t allreduces = 0;
    for (const MpRecord& r : r3) allreduces += r.kind == MpOpKind::allreduce ? 1 : 0;
    CHECK(allreduces == 1);
    // The ring wraps around at both ends.
    const std::vector<MpRecord> r0 = read_rank(*source, 0);
    CHECK(r0[1].amount == 1e6);
    CHECK(r0[2].peer == 4);
    CHECK(r0[3].peer == 1);
    const std::vector<MpRecord> r4 = read_rank(*source, 4);
    CHECK(r4[2].peer == 3);
    CHECK(r4[3].peer == 0);
    MpRecord after_end;
    CHECK_FALSE(source->next(4, after_end));
  }

  TEST_CASE("SyntheticTrace holds a million ranks in a few bytes each") {
    const SyntheticSpec spec = parse_synthetic_spec("P=1000000,I=10");
    CHECK(synthetic_action_count(spec) == 43'000'000);  // 10^6 × (2 + 40 + 1)
    const auto source = make_synthetic_trace(spec);
    MpRecord record;
    REQUIRE(source->next(999'999, record));
    CHECK(record.kind == MpOpKind::init);
    REQUIRE(source->next(999'999, record));
    CHECK(record.amount == 4e6);
    REQUIRE(source->next(999'999, record));
    CHECK(record.peer == 999'998);
    REQUIRE(source->next(999'999, record));
    CHECK(record.peer == 0);
    CHECK_THROWS_AS(source->next(1'000'000, record), std::out_of_range);
  }

  TEST_CASE("parse_synthetic_spec reads P and I in any order and names each defect") {
    const SyntheticSpec a = parse_synthetic_spec("P=64,I=200");
    CHECK(a.ranks == 64);
    CHECK(a.iterations == 200);
    const SyntheticSpec b = parse_synthetic_spec(" I = 3 , P = 1 ");
    CHECK(b.ranks == 1);
    CHECK(b.iterations == 3);
    CHECK(augur::traces::synthetic::to_string(a) == "P=64,I=200");
    CHECK(spec_error("P=4") == "synthetic:P=4: error: missing key 'I' (expected P=<ranks>,I=<iterations>)");
    CHECK(spec_error("I=4") == "synthetic:I=4: error: missing key 'P' (expected P=<ranks>,I=<iterations>)");
    CHECK(spec_error("P=0,I=1") == "synthetic:P=0,I=1: error: P must be at least 1");
    CHECK(spec_error("P=4,I=x") == "synthetic:P=4,I=x: error: 'x' is not a decimal number (key 'I')");
    CHECK(spec_error("P=-4,I=1") == "synthetic:P=-4,I=1: error: '-4' is not a decimal number (key 'P')");
    CHECK(spec_error("P=4,Q=1") == "synthetic:P=4,Q=1: error: unknown key 'Q' (valid keys: P, I)");
    CHECK(spec_error("P=4,P=5,I=1") == "synthetic:P=4,P=5,I=1: error: key 'P' given twice");
    CHECK(spec_error("P=4,,I=1") ==
          "synthetic:P=4,,I=1: error: expected KEY=VALUE items separated by commas (P=<ranks>,I=<iterations>), "
          "found ''");
    CHECK(spec_error("P=3000000000,I=1") ==
          "synthetic:P=3000000000,I=1: error: '3000000000' is too large for key 'P' (at most 16777216)");
  }
}
