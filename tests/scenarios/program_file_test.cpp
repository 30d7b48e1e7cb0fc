// Tests of program skeletons: the file format and its errors (scenarios/program_file), and the
// records they expand to (traces/skeleton) — the synthetic workload record for record, the
// exchange patterns by hand.
#include "scenarios/program_file.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "machines/registry.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/scenario.hpp"
#include "traces/skeleton/skeleton_trace.hpp"
#include "traces/synthetic/synthetic_trace.hpp"

#include "tests/support/mp_records.hpp"

namespace fs = std::filesystem;
using augur::scenarios::ConfigError;
using augur::scenarios::load_program_file;
using augur::scenarios::load_program_text;
using augur::traces::MpOpKind;
using augur::traces::MpRecord;
using augur::traces::MpTraceSource;
using augur::traces::skeleton::balanced_dims;
using augur::traces::skeleton::ExprError;
using augur::traces::skeleton::make_skeleton_trace;

namespace {

const std::string examples = AUGUR_SOURCE_DIR "/scenarios/examples/programs/";
const std::string broken = AUGUR_SOURCE_DIR "/tests/scenarios/fixtures/skeleton/broken/";

std::vector<MpRecord> records_of(MpTraceSource& source, int rank) {
  std::vector<MpRecord> records;
  MpRecord r;
  while (source.next(rank, r)) records.push_back(r);
  return records;
}

/// The records of `rank` of the skeleton `text` run by `ranks` processes.
std::vector<MpRecord> expand(const std::string& text, int ranks, int rank,
                             const std::vector<std::pair<std::string, double>>& values = {}) {
  const auto source = make_skeleton_trace(load_program_text(text, "test.yaml"), ranks, values);
  return records_of(*source, rank);
}

MpRecord message(MpOpKind kind, int rank, int peer, int tag, std::uint64_t bytes, std::uint64_t line) {
  MpRecord r;
  r.kind = kind;
  r.rank = rank;
  r.peer = peer;
  r.tag = tag;
  r.bytes = bytes;
  r.line = line;
  return r;
}

MpRecord waitall(int rank, std::uint64_t count, std::uint64_t line) {
  MpRecord r;
  r.kind = MpOpKind::waitall;
  r.rank = rank;
  r.count = count;
  r.line = line;
  return r;
}

}  // namespace

TEST_CASE("skeleton: the synthetic workload's skeleton gives its records - record for record") {
  const auto program = load_program_file(examples + "synthetic.yaml");
  for (const auto& [ranks, iterations] : std::vector<std::pair<int, int>>{{1, 0}, {1, 5}, {3, 25}, {8, 20}, {5, 10}}) {
    CAPTURE(ranks);
    CAPTURE(iterations);
    const auto from_skeleton = make_skeleton_trace(program, ranks, {{"I", iterations}});
    augur::traces::synthetic::SyntheticSpec spec;
    spec.ranks = ranks;
    spec.iterations = static_cast<std::uint32_t>(iterations);
    const auto synthetic = augur::traces::synthetic::make_synthetic_trace(spec);
    REQUIRE(from_skeleton->rank_count() == ranks);
    for (int rank = 0; rank < ranks; ++rank) {
      const auto a = records_of(*from_skeleton, rank);
      const auto b = records_of(*synthetic, rank);
      REQUIRE(a.size() == b.size());
      CHECK(a.size() == augur::traces::synthetic::synthetic_actions_per_rank(spec));
      for (std::size_t i = 0; i < a.size(); ++i) augur::test::check_same_record(a[i], b[i]);
    }
  }
}

TEST_CASE("skeleton: a halo on a 2x2 grid - by hand") {
  // Ranks row-major: rank = 2·c0 + c1. Rank 0 = (0,0): upper neighbours 2 (dimension 0) and 1
  // (dimension 1); rank 3 = (1,1): lower neighbours 1 and 2. Faces: 8 bytes × dim0 = 16.
  const std::string text = "program:\n  - halo: {dims: 2, bytes: 8B * dim0}\n";
  const auto r0 = expand(text, 4, 0);
  REQUIRE(r0.size() == 7);  // init, 2 irecv, 2 isend, waitall, finalize
  CHECK(r0[0].kind == MpOpKind::init);
  augur::test::check_same_record(r0[1], message(MpOpKind::irecv, 0, 2, 0, 16, 2));  // from the upper in dim 0
  augur::test::check_same_record(r0[2], message(MpOpKind::irecv, 0, 1, 2, 16, 3));
  augur::test::check_same_record(r0[3], message(MpOpKind::isend, 0, 2, 1, 16, 4));  // travelling up dim 0
  augur::test::check_same_record(r0[4], message(MpOpKind::isend, 0, 1, 3, 16, 5));
  augur::test::check_same_record(r0[5], waitall(0, 4, 6));
  CHECK(r0[6].kind == MpOpKind::finalize);
  const auto r3 = expand(text, 4, 3);
  augur::test::check_same_record(r3[1], message(MpOpKind::irecv, 3, 1, 1, 16, 2));  // tag 1: rank 1 sent it up
  augur::test::check_same_record(r3[2], message(MpOpKind::irecv, 3, 2, 3, 16, 3));
  augur::test::check_same_record(r3[3], message(MpOpKind::isend, 3, 1, 0, 16, 4));
  augur::test::check_same_record(r3[4], message(MpOpKind::isend, 3, 2, 2, 16, 5));
}

TEST_CASE("skeleton: a periodic 1-D halo with a given grid and per-dimension faces") {
  // P = 3, grid [3], periodic: rank 0's lower neighbour is 2, its upper 1.
  const auto r0 = expand("program:\n  - halo: {grid: [P], bytes: [100], periodic: true}\n", 3, 0);
  REQUIRE(r0.size() == 7);
  augur::test::check_same_record(r0[1], message(MpOpKind::irecv, 0, 2, 1, 100, 2));
  augur::test::check_same_record(r0[2], message(MpOpKind::irecv, 0, 1, 0, 100, 3));
  augur::test::check_same_record(r0[3], message(MpOpKind::isend, 0, 2, 0, 100, 4));
  augur::test::check_same_record(r0[4], message(MpOpKind::isend, 0, 1, 1, 100, 5));
}

TEST_CASE("skeleton: MPI_Dims_create's balanced grids") {
  CHECK(balanced_dims(12, 2) == std::vector<int>{4, 3});
  CHECK(balanced_dims(16, 3) == std::vector<int>{4, 2, 2});
  CHECK(balanced_dims(24, 3) == std::vector<int>{4, 3, 2});  // 3 → [3,1,1], then 2, 2, 2 → [3,2,2] → [3,4,2]
  CHECK(balanced_dims(64, 3) == std::vector<int>{4, 4, 4});
  CHECK(balanced_dims(7, 2) == std::vector<int>{7, 1});
  CHECK(balanced_dims(1, 3) == std::vector<int>{1, 1, 1});
}

TEST_CASE("skeleton: pairwise all-to-all - p2p - collectives - loops and regions") {
  const auto pw = expand("program:\n  - pairwise: {bytes: 4KiB}\n", 3, 1);
  REQUIRE(pw.size() == 4);  // init, P - 1 = 2 steps, finalize
  CHECK((pw[1].kind == MpOpKind::send_recv && pw[1].peer == 2 && pw[1].peer2 == 0 && pw[1].bytes == 4096 &&
         pw[1].bytes2 == 4096));
  CHECK((pw[2].peer == 0 && pw[2].peer2 == 2));

  const std::string p2p = "program:\n  - p2p: {to: \"if(rank < P - 1, rank + 1, -1)\", from: rank - 1, bytes: 10}\n";
  const auto first = expand(p2p, 3, 0);  // no source below rank 0: the send alone
  REQUIRE(first.size() == 4);
  augur::test::check_same_record(first[1], message(MpOpKind::isend, 0, 1, 0, 10, 2));
  augur::test::check_same_record(first[2], waitall(0, 1, 3));
  const auto last = expand(p2p, 3, 2);
  augur::test::check_same_record(last[1], message(MpOpKind::irecv, 2, 1, 0, 10, 2));

  const std::string text =
      "parameters: {N: 8, steps: N / 2}\n"
      "program:\n"
      "  - region:\n"
      "      name: solver\n"
      "      body:\n"
      "        - loop: {count: steps, body: [{compute: {flops: N^3 / P, bytes: 16B * N}}]}\n"
      "        - bcast: {bytes: 8, root: P - 1}\n"
      "  - reduce_scatter: {bytes: 4, flops: 2}\n"
      "  - barrier\n";
  const auto r = expand(text, 2, 1, {{"N", 4}});  // steps = 4 / 2 = 2; flops 64 / 2 = 32
  REQUIRE(r.size() == 8);
  CHECK((r[1].kind == MpOpKind::location && r[1].text == "solver" && r[1].count == 3));
  CHECK((r[2].kind == MpOpKind::compute && r[2].amount == 32 && r[2].bytes == 64));
  CHECK((r[3].kind == MpOpKind::compute && r[3].line == 4));
  CHECK((r[4].kind == MpOpKind::bcast && r[4].bytes == 8 && r[4].root == 1));
  CHECK((r[5].kind == MpOpKind::reduce_scatter && r[5].amount == 2 && r[5].bytes == 0));
  CHECK(r[6].kind == MpOpKind::barrier);
  CHECK(r[7].kind == MpOpKind::finalize);
  // reduce_scatter's per-rank bytes are `counts`, valid until the source's next read.
  const auto source = make_skeleton_trace(load_program_text(text, "test.yaml"), 2, {{"N", 4}});
  MpRecord record;
  for (int i = 0; i < 6; ++i) REQUIRE(source->next(0, record));
  CHECK(record.kind == MpOpKind::reduce_scatter);
  CHECK(std::vector<std::uint64_t>(record.counts.begin(), record.counts.end()) == std::vector<std::uint64_t>{4, 4});
}

TEST_CASE("skeleton: values an expression cannot take are positioned errors when expanded") {
  const std::string p2p = "program:\n  - p2p: {to: rank + 1, bytes: 10}\n";
  CHECK_THROWS_WITH_AS(expand(p2p, 3, 2), "test.yaml:2:15: error: to (a rank) must be at most 2, got 3", ExprError);
  CHECK_THROWS_WITH_AS(expand("program:\n  - loop: {count: P - 3, body: [barrier]}\n", 2, 0),
                       "test.yaml:2:19: error: the loop count must not be negative, got -1", ExprError);
  CHECK_THROWS_WITH_AS(expand("program:\n  - halo: {grid: [2, 2], bytes: 1}\n", 3, 0),
                       "test.yaml:2:5: error: the halo's grid has 4 processes but P = 3", ExprError);
  CHECK_THROWS_WITH_AS(expand("program:\n  - compute: {flops: 2^70}\n", 1, 0),
                       "test.yaml:2:22: error: flops must be at most 1e+18, got 1180591620717411303424", ExprError);
  CHECK_THROWS_WITH_AS(expand("parameters: {N: 1}\nprogram: [barrier]\n", 2, 0, {{"M", 1}}),
                       "test.yaml:1:1: error: the program has no parameter 'M'", ExprError);
}

TEST_CASE("skeleton: every broken skeleton is a file:line:col error") {
  // Each fixture's first line is "# <the expected message>".
  int files = 0;
  for (const auto& entry : fs::directory_iterator(broken)) {
    const std::string path = entry.path().string();
    CAPTURE(path);
    std::string expected;
    {
      std::ifstream in(path);
      std::getline(in, expected);
    }
    REQUIRE(expected.starts_with("# "));
    expected = path + ":" + expected.substr(2);
    CHECK_THROWS_WITH_AS(load_program_file(path), expected.c_str(), ConfigError);
    ++files;
  }
  CHECK(files >= 10);
}

TEST_CASE("skeleton: a scenario's program - parameters and a sweep over a parameter and P") {
  augur::machines::MachineRegistry registry;
  augur::machines::register_builtin_machines(registry);
  const std::string text =
      "schema_version: 1\n"
      "program: synthetic.yaml\n"
      "machine: platform_cluster_64\n"
      "processors: [2, 4]\n"
      "sweep: {program.I: [10, 2^5]}\n";
  const auto scenario = augur::scenarios::load_scenario_text(text, "s.yaml", examples, registry);
  REQUIRE(scenario.program != nullptr);
  CHECK(scenario.trace_format == "program");
  const auto variants = scenario.variants();
  REQUIRE(variants.size() == 4);  // 2 process counts × 2 values of I
  CHECK(variants[3].processors == 4);
  CHECK(variants[3].swept == std::vector<std::pair<std::string, std::string>>{{"program.I", "2^5"}});

  const auto fixed = augur::scenarios::load_scenario_text(
      "schema_version: 1\nprogram: synthetic.yaml\nmachine: ethernet_bus\nparameters: {I: 3}\n", "s.yaml", examples,
      registry);
  CHECK(fixed.program_values == std::vector<std::pair<std::string, std::string>>{{"I", "3"}});
  CHECK_THROWS_WITH_AS(augur::scenarios::load_scenario_text(
                           "schema_version: 1\nprogram: synthetic.yaml\nmachine: ethernet_bus\nparameters: {J: 3}\n",
                           "s.yaml", examples, registry),
                       doctest::Contains("s.yaml:4:14: error: the program"), ConfigError);
  CHECK_THROWS_WITH_AS(
      augur::scenarios::load_scenario_text(
          "schema_version: 1\nprogram: synthetic.yaml\nmachine: ethernet_bus\nsweep: {program.I: [1, x]}\n", "s.yaml",
          examples, registry),
      "s.yaml:4:24: error: invalid value 'x' for 'program.I': unknown name 'x' (known: none)", ConfigError);
  CHECK_THROWS_WITH_AS(
      augur::scenarios::load_scenario_text("schema_version: 1\nprogram: a.yaml\ntrace: ti:b\nmachine: ethernet_bus\n",
                                           "s.yaml", examples, registry),
      "s.yaml:2:1: error: give either 'trace' or 'program', not both", ConfigError);
}
