// End-to-end runs of program skeletons on a machine with a roofline node (spec §7.5): the
// simulated compute time of compute-bound and memory-bound phases, the node bandwidth shared by
// the processes of a node, math-function costs, and the static estimate beside them — every
// expected time computed by hand in the comment beside it.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace {

// 4 cores of 10 Gflop/s per node; L1 100 GB/s per core; DRAM 20 GB/s per core, 40 GB/s per node;
// sin 20 flops; the file chooses L1.
const std::string machine = std::string(AUGUR_SOURCE_DIR) + "/tests/scenarios/fixtures/node/node_cluster.yaml";

/// The JSON report of the skeleton `program` (one compute phase) on `processes` processes.
nlohmann::json run(const std::string& name, const std::string& program, int processes, const std::string& sets = "") {
  const auto dir = augur::test::scratch_dir("augur_roofline_", name);
  augur::test::write_file((dir / "p.yaml").string(), program);
  const auto r =
      augur::test::run_augur("run --program " + (dir / "p.yaml").string() + " --machine " + machine + " --processors " +
                             std::to_string(processes) + " " + sets + " --json " + (dir / "out.json").string());
  REQUIRE_MESSAGE(r.status == 0, r.err);
  return nlohmann::json::parse(augur::test::slurp(dir / "out.json"))["variants"][0];
}

// 1e9 flops and 4e9 bytes loaded per process.
const std::string streaming = "program:\n  - compute: {flops: 1000000000, loads: 4000000000B}\n";

double compute_s(const nlohmann::json& v, int rank) { return v["processors"][rank]["compute_s"].get<double>(); }

}  // namespace

TEST_SUITE("roofline") {
  TEST_CASE("compute-bound at L1 - memory-bound at DRAM") {
    // L1: max(1e9 / 10e9, 4e9 / 100e9) = max(0.1, 0.04) = 0.1 s
    CHECK(compute_s(run("l1", streaming, 1), 0) == doctest::Approx(0.1));
    // DRAM, alone on its node: min(20e9, 40e9 / 1) = 20e9 B/s → 4e9 / 20e9 = 0.2 s
    const auto dram = run("dram", streaming, 1, "--set machine.memory_level=DRAM");
    CHECK(compute_s(dram, 0) == doctest::Approx(0.2));
    CHECK(dram["predicted_time_s"].get<double>() == doctest::Approx(0.2));
  }

  TEST_CASE("the processes of a node share its bandwidth") {
    // 6 processes: ranks 0-3 share a node, min(20e9, 40e9 / 4) = 10e9 → 0.4 s; ranks 4, 5 share
    // the second, min(20e9, 40e9 / 2) = 20e9 → 0.2 s; the run ends at 0.4 s.
    const auto v = run("shared", streaming, 6, "--set machine.memory_level=DRAM");
    CHECK(compute_s(v, 0) == doctest::Approx(0.4));
    CHECK(compute_s(v, 3) == doctest::Approx(0.4));
    CHECK(compute_s(v, 5) == doctest::Approx(0.2));
    CHECK(v["predicted_time_s"].get<double>() == doctest::Approx(0.4));
    // The static estimate: no messages, 2 MPI calls (init, finalize) → T_comm = 2 · latency;
    // T_DRAM = 0.4 s + T_comm, T_L1 = max(0.1, 4e9 / 100e9 = 0.04) + T_comm.
    const auto& s = v["static"];
    CHECK(s["memory_level"] == "DRAM");
    const double comm = 2 * s["latency_s"].get<double>();
    CHECK(s["program"]["comm_s"].get<double>() == doctest::Approx(comm));
    CHECK(s["program"]["time_s"]["DRAM"].get<double>() == doctest::Approx(0.4 + comm));
    CHECK(s["program"]["time_s"]["L1"].get<double>() == doctest::Approx(0.1 + comm));
    CHECK(s["processes"][5]["time_s"]["DRAM"].get<double>() == doctest::Approx(0.2 + comm));
    CHECK(s["program"]["bytes_loaded"] == 24000000000ULL);  // 6 × 4e9
    CHECK(s["program"]["difference_s"].get<double>() == doctest::Approx(0.4 - (0.4 + comm)));
  }

  TEST_CASE("math functions cost their flops") {
    // 1e9 + 1e8 sin × 20 flops + 1e8 sqrt × 4 flops = 3.4e9 flops → 3.4e9 / 10e9 = 0.34 s.
    const auto v =
        run("math", "program:\n  - compute: {flops: 1000000000, math: {sin: 100000000, sqrt: 100000000}}\n", 2);
    CHECK(compute_s(v, 1) == doctest::Approx(0.34));
    CHECK(v["static"]["processes"][1]["flops"].get<double>() == doctest::Approx(3.4e9));
  }

  TEST_CASE("the sweep table has the static time beside the simulated one") {
    const auto dir = augur::test::scratch_dir("augur_roofline_", "csv");
    augur::test::write_file((dir / "p.yaml").string(), streaming);
    const auto r = augur::test::run_augur("run --program " + (dir / "p.yaml").string() + " --machine " + machine +
                                          " --processors 1,2 --csv " + (dir / "t.csv").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string csv = augur::test::slurp(dir / "t.csv");
    CHECK(csv.find(",lost_s,static_s,trace\n") != std::string::npos);
    // Simulated 0.1 s (compute-bound at L1) on 1 and 2 processes; static 0.1 s alone (no network:
    // T_comm = 0), 0.1 s + 2 calls (init, finalize) × 1 us (loggp_smp's latency) on 2.
    CHECK(csv.find("\n1,1,node_cluster,loggp_smp,default,completed,0.1,1,0.1,0,0,0,0,0,0.1,") != std::string::npos);
    CHECK(csv.find("\n2,2,node_cluster,loggp_smp,default,completed,0.1,1,0.2,0,0,0,0,0,0.100002,") !=
          std::string::npos);
    CHECK(r.out.find("static_s") != std::string::npos);  // the summary's sweep table
  }

  TEST_CASE("bytes split by level - each part at its own level and the rest at the chosen one") {
    // Per process: 1e9 flops (0.1 s); 8e9 B at L1 and 2e9 B at DRAM; 1e9 B loaded, not split.
    const std::string split =
        "program:\n  - compute: {flops: 1000000000, bytes: {L1: 8000000000B, DRAM: 2000000000B}, "
        "loads: 1000000000B}\n";
    // 4 processes on one node: L1 min(100e9, 400e9 / 4) = 100e9 B/s, DRAM min(20e9, 40e9 / 4) =
    // 10e9 B/s. Split: 8e9 / 100e9 + 2e9 / 10e9 = 0.08 + 0.2 = 0.28 s; the 1e9 unsplit at L1 (the
    // file's choice): + 0.01 s = 0.29 s, above the flops' 0.1 s.
    const auto v = run("split", split, 4);
    CHECK(compute_s(v, 2) == doctest::Approx(0.29));
    // At DRAM the unsplit part takes 1e9 / 10e9 = 0.1 s: 0.28 + 0.1 = 0.38 s.
    CHECK(compute_s(run("split_dram", split, 4, "--set machine.memory_level=DRAM"), 2) == doctest::Approx(0.38));
    // The static estimate: T_l = max(0.1, 0.28 + unsplit / bw_l) + T_comm, T_comm = 2 calls ·
    // latency; the split bytes reported per level.
    const auto& s = v["static"];
    const double comm = 2 * s["latency_s"].get<double>();
    CHECK(s["program"]["time_s"]["L1"].get<double>() == doctest::Approx(0.29 + comm));
    CHECK(s["program"]["time_s"]["DRAM"].get<double>() == doctest::Approx(0.38 + comm));
    CHECK(s["program"]["bytes_by_level"]["L1"] == 32000000000ULL);  // 4 × 8e9
    CHECK(s["processes"][3]["bytes_by_level"]["DRAM"] == 2000000000ULL);
    CHECK(s["program"]["bytes_loaded"] == 44000000000ULL);  // 4 × (8 + 2 + 1)e9
    // Without a split the static JSON has no bytes_by_level.
    CHECK_FALSE(run("unsplit", streaming, 1)["static"]["program"].contains("bytes_by_level"));
  }

  TEST_CASE("a memory level the node does not have is a file:line:col error - exit 2") {
    const auto dir = augur::test::scratch_dir("augur_roofline_", "unknown_level");
    const std::string program = (dir / "p.yaml").string();
    augur::test::write_file(program, "program:\n  - compute: {flops: 1, bytes: {L1: 8B, L3: 8B}}\n");
    const auto r = augur::test::run_augur("run --program " + program + " --machine " + machine + " --processors 2");
    CHECK(r.status == 2);
    CHECK(r.err.find(program + ":2:41: error: unknown memory level 'L3' (the machine's node has L1, DRAM)") !=
          std::string::npos);
    // A machine without a node does not price memory traffic: the names are not checked.
    const auto plain = augur::test::run_augur("run --program " + program + " --machine smp_cluster --processors 2");
    CHECK_MESSAGE(plain.status == 0, plain.err);
  }

  TEST_CASE("a machine without a node prices flops alone - as before") {
    // The default machine (1 Gflop/s): 1e9 / 1e9 = 1 s whatever the bytes.
    const auto dir = augur::test::scratch_dir("augur_roofline_", "plain");
    augur::test::write_file((dir / "p.yaml").string(), streaming);
    const auto r = augur::test::run_augur("run --program " + (dir / "p.yaml").string() +
                                          " --machine smp_cluster --set machine.cpu_speed=1Gflops --processors 2 "
                                          "--json " +
                                          (dir / "out.json").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto v = nlohmann::json::parse(augur::test::slurp(dir / "out.json"))["variants"][0];
    CHECK(compute_s(v, 0) == doctest::Approx(1.0));
    CHECK(v["static"]["levels"].empty());
  }
}
