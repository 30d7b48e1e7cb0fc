// The static estimate of seed 002 (models/report/static_estimate) and the skeleton records it
// reads: a compute phase's loads, stores and math calls; every formula against a hand computation
// in the comments.
#include "models/report/static_estimate.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "machines/registry.hpp"
#include "scenarios/program_file.hpp"
#include "scenarios/scenario.hpp"
#include "traces/skeleton/program.hpp"
#include "traces/skeleton/skeleton_trace.hpp"

namespace {

using augur::models::report::StaticEstimate;
using augur::models::report::StaticFigures;
using augur::traces::MpOpKind;
using augur::traces::MpRecord;
namespace scen = augur::scenarios;

const augur::machines::MachineRegistry& registry() {
  static const augur::machines::MachineRegistry instance = [] {
    augur::machines::MachineRegistry built;
    augur::machines::register_builtin_machines(built);
    return built;
  }();
  return instance;
}

// Per rank: compute 1000·N flops, N sin calls, loads 8·200·N B, stores 4·200·N B; two ring steps of
// 1000 B; an 8-byte allreduce of 1 flop.
const std::string program_text =
    "parameters: {N: 100}\n"
    "program:\n"
    "  - compute: {flops: 1000 * N, loads: 8B * 200 * N, stores: 4B * 200 * N, math: {sin: N}}\n"
    "  - loop: {count: 2, body: [{ring: {bytes: 1000B}}]}\n"
    "  - allreduce: {bytes: 8B, flops: 1}\n";

std::unique_ptr<augur::traces::MpTraceSource> source(int ranks) {
  return augur::traces::skeleton::make_skeleton_trace(scen::load_program_text(program_text, "static.yaml"), ranks, {});
}

// node_cluster.yaml: 4 cores of 10 Gflop/s; L1 100 GB/s per core (400 per node); DRAM 20 GB/s
// per core, 40 per node; sin 20 flops.
std::unique_ptr<augur::machines::MachineModel> node_machine(int ranks) {
  const auto m = scen::load_machine_file("scenarios/fixtures/node/node_cluster.yaml", registry());
  return registry().get(m.model).create(m.params, ranks);
}

}  // namespace

TEST_SUITE("static") {
  TEST_CASE("a compute phase's record carries its traffic - the stored part and the math calls") {
    auto s = source(4);
    MpRecord r;
    REQUIRE(s->next(1, r));  // init
    REQUIRE(s->next(1, r));
    CHECK(r.kind == MpOpKind::compute);
    CHECK(r.amount == 100000);  // 1000 · 100
    CHECK(r.bytes == 240000);   // (8 + 4) · 200 · 100
    CHECK(r.bytes2 == 80000);   // 4 · 200 · 100
    REQUIRE(r.counts.size() == 8);
    CHECK(r.counts[0] == 100);  // sin
    CHECK(r.counts[1] == 0);    // cos
  }

  TEST_CASE("bytes split by level - the records carry them and the source names the levels") {
    const auto program = scen::load_program_text(
        "parameters: {N: 10}\nprogram:\n"
        "  - compute: {flops: 1, bytes: {DRAM: 2B * N, L1: 8B * N}, stores: 4B}\n"
        "  - compute: {flops: 1, bytes: {L1: 1B}}\n",
        "split.yaml");
    REQUIRE(program->levels == std::vector<std::string>{"DRAM", "L1"});  // in order of first mention
    CHECK(program->level_at[1].line == 3);
    CHECK(program->level_at[1].column == 47);
    auto s = augur::traces::skeleton::make_skeleton_trace(program, 2, {});
    CHECK(s->memory_levels() == program->levels);
    MpRecord r;
    REQUIRE(s->next(1, r));  // init
    REQUIRE(s->next(1, r));
    CHECK(r.bytes == 104);  // 2 · 10 + 8 · 10 + 4: the record's bytes hold all the traffic
    CHECK(r.bytes2 == 4);
    REQUIRE(r.level_bytes.size() == 2);
    CHECK(r.level_bytes[0] == 20);  // DRAM
    CHECK(r.level_bytes[1] == 80);  // L1
    REQUIRE(s->next(1, r));
    CHECK(r.bytes == 1);
    REQUIRE(r.level_bytes.size() == 2);
    CHECK(r.level_bytes[0] == 0);
    CHECK(r.level_bytes[1] == 1);
    augur::traces::skeleton::check_memory_levels(*program, {"L1", "DRAM"});
    CHECK_THROWS_WITH_AS(augur::traces::skeleton::check_memory_levels(*program, {"L1", "L2"}),
                         "split.yaml:3:33: error: unknown memory level 'DRAM' (the machine's node has L1, L2)",
                         augur::traces::skeleton::ExprError);
  }

  TEST_CASE("the formulas with bytes split by level - by hand") {
    const auto machine = node_machine(4);  // 4 processes on a node: L1 100e9 B/s, DRAM 10e9 B/s each
    StaticFigures f;
    f.flops = 1e5;             // 1e5 / 10e9 = 10e-6 s
    f.bytes_loaded = 1081000;  // 80000 B not split, 800000 at L1, 201000 at DRAM
    f.level_bytes = {800000, 201000};
    f.mpi_calls = 2;  // T_comm = 2 · 1e-6 = 2e-6 s
    augur::models::report::apply_static_formulas(f, *machine, 0, 1e-6, 1e9);
    REQUIRE(f.time.size() == 2);
    // L1: 80000 / 100e9 + 800000 / 100e9 + 201000 / 10e9 = 0.8e-6 + 8e-6 + 20.1e-6 = 28.9e-6 s
    CHECK(f.time[0] == doctest::Approx(28.9e-6 + 2e-6));
    // DRAM: 80000 / 10e9 + 8e-6 + 20.1e-6 = 36.1e-6 s
    CHECK(f.time[1] == doctest::Approx(36.1e-6 + 2e-6));
    // Compute-bound: 1e6 flops = 100e-6 s at every level.
    f.flops = 1e6;
    augur::models::report::apply_static_formulas(f, *machine, 0, 1e-6, 1e9);
    CHECK(f.time[0] == doctest::Approx(102e-6));
    CHECK(f.time[1] == doctest::Approx(102e-6));
  }

  TEST_CASE("the figures of a process and the formulas - by hand") {
    const auto machine = node_machine(4);
    auto s = source(4);
    const StaticEstimate e = augur::models::report::static_estimate(*s, *machine);
    REQUIRE(e.levels == std::vector<std::string>{"L1", "DRAM"});
    CHECK(e.chosen == 0);  // memory_level: L1
    REQUIRE(e.processes.size() == 4);
    const StaticFigures& f = e.processes[2];
    CHECK(f.flops == 102001);  // 100000 + 100 sin · 20 + 1 (allreduce)
    CHECK(f.bytes_loaded == 160000);
    CHECK(f.bytes_stored == 80000);
    CHECK(f.messages == 2);       // one isend per ring step
    CHECK(f.bytes_sent == 2008);  // 2 · 1000 + the allreduce's 8
    CHECK(f.bytes_received == 2008);
    CHECK(f.mpi_calls == 9);  // init, 2 × (irecv, isend, waitall), allreduce, finalize
    // The probe: latency and bandwidth of one message alone from 0 to 3 on this machine.
    machine->reset();
    const double latency = machine->transfer(0, 3, 0, 0).arrival;
    CHECK(e.latency == latency);
    CHECK(e.bandwidth > 0);

    // The formulas with latency 1 us and bandwidth 1 GB/s:
    StaticFigures g = f;
    augur::models::report::apply_static_formulas(g, *machine, 2, 1e-6, 1e9);
    // T_comm = 9 · 1e-6 + (2008 + 2008) / 1e9 = 9e-6 + 4.016e-6 = 13.016e-6 s
    CHECK(g.t_comm == doctest::Approx(13.016e-6));
    REQUIRE(g.time.size() == 2);
    // flops: 102001 / 10e9 = 10.2001e-6 s; memory 240000 B: L1 min(100e9, 400e9 / 4) → 2.4e-6 s,
    // compute-bound: T_L1 = 10.2001e-6 + 13.016e-6 = 23.2161e-6 s
    CHECK(g.time[0] == doctest::Approx(23.2161e-6));
    // DRAM, 4 processes on the node: min(20e9, 40e9 / 4) = 10e9 → 24e-6 s, memory-bound:
    // T_DRAM = 24e-6 + 13.016e-6 = 37.016e-6 s
    CHECK(g.time[1] == doctest::Approx(37.016e-6));
    // Two processes: they share the node by two, min(20e9, 20e9) = 20e9 → 12e-6 s, still memory-bound.
    const auto two = node_machine(2);
    StaticFigures h = f;
    augur::models::report::apply_static_formulas(h, *two, 1, 1e-6, 1e9);
    CHECK(h.time[1] == doctest::Approx(12e-6 + 13.016e-6));
  }

  TEST_CASE("the program: counts summed - times the largest - without a node flops / cpu_speed") {
    const auto machine = node_machine(4);
    auto s = source(4);
    const StaticEstimate e = augur::models::report::static_estimate(*s, *machine);
    CHECK(e.program.flops == 4 * 102001);
    CHECK(e.program.messages == 8);
    CHECK(e.program.mpi_calls == 36);
    CHECK(e.program.time[1] == doctest::Approx(e.processes[0].time[1]));  // every rank alike

    const auto bus = registry().get("bus").create(augur::machines::make_params(registry().get("bus")), 4);
    auto s2 = source(4);
    const StaticEstimate plain = augur::models::report::static_estimate(*s2, *bus);
    CHECK(plain.levels.empty());
    const StaticFigures& f = plain.processes[0];
    CHECK(f.flops == 100001);  // math calls have no cost without a node
    REQUIRE(f.time.size() == 1);
    // 100001 / 1 Gflop/s + T_comm
    CHECK(f.time[0] == doctest::Approx(100001e-9 + f.t_comm));
    CHECK(f.t_comm == doctest::Approx(9 * plain.latency + 4016 / plain.bandwidth));
  }

  TEST_CASE("the text and JSON sections") {
    const auto machine = node_machine(4);
    auto s = source(4);
    const StaticEstimate e = augur::models::report::static_estimate(*s, *machine);
    std::ostringstream text;
    augur::models::report::write_static_text(text, e, 1e-4, 2);
    CHECK(text.str().find("memory level L1") != std::string::npos);
    CHECK(text.str().find("... 2 more ranks") != std::string::npos);
    CHECK(text.str().find("T_DRAM_s") != std::string::npos);
    const auto j = augur::models::report::static_json(e, 1e-4);
    CHECK(j["memory_level"] == "L1");
    CHECK(j["program"]["static_s"].get<double>() == doctest::Approx(e.program.time[0]));
    CHECK(j["program"]["difference_s"].get<double>() == doctest::Approx(1e-4 - e.program.time[0]));
    CHECK(j["processes"].size() == 4);
    CHECK(j["processes"][3]["time_s"]["DRAM"].get<double>() == doctest::Approx(e.processes[3].time[1]));
  }
}
