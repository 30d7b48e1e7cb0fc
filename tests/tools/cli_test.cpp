// End-to-end tests of the `augur` executable: fidelity against SimGrid on the sample traces,
// deadlock reports, determinism, stepping, exit statuses.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace fs = std::filesystem;
using augur::test::slurp;

namespace {

fs::path temp_dir(const std::string& name) { return augur::test::scratch_dir("augur_cli_test_", name); }

using Result = augur::test::AugurRun;
// The tests here read the full report: `run` and `step` print it with --detail (the summary,
// augur's default output, has tests of its own in first_hour_test.cpp).
augur::test::AugurRun run_augur(const std::string& args, const std::string& input = "") {
  const bool full = args.starts_with("run") || args.starts_with("step");
  return augur::test::run_augur(full ? args + " --detail" : args, input);
}

const std::string shared = AUGUR_SHARED_DIR;
const std::string source = AUGUR_SOURCE_DIR;

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("augur predicts every PRK sample within 2 percent of SimGrid CM02") {
    // The minimal machine file of the acceptance check: equivalent to ti-samples/platform.xml
    // (1 Gflop/s hosts, host-to-host 1 us latency and 10 GB/s).
    const fs::path d = temp_dir("prk");
    std::ofstream(d / "m.yaml")
        << "{schema_version: 1, model: loggp_smp, cpu_speed: 1Gflops, latency: 1us, bandwidth: 10GBps}\n";
    std::ifstream tsv(shared + "/ti-samples/predictions.tsv");
    REQUIRE(tsv);
    std::string line;
    std::getline(tsv, line);
    int checked = 0;
    while (std::getline(tsv, line)) {
      std::vector<std::string> f;
      std::stringstream ss(line);
      for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
      if (f[0].rfind("prk-", 0) != 0) continue;
      const double simgrid = std::stod(f[10]);  // replay_cm02_sim_s
      const Result r = run_augur("run --trace ti:" + shared + "/ti-samples/" + f[0] + "/trace.txt --machine " +
                                 (d / "m.yaml").string() + " --json " + (d / "out.json").string());
      REQUIRE_MESSAGE(r.status == 0, r.err);
      const auto j = nlohmann::json::parse(slurp(d / "out.json"));
      const double ours = j["variants"][0]["predicted_time_s"].get<double>();
      const double dev = (ours - simgrid) / simgrid;
      MESSAGE(f[0] << ": augur " << ours << " s, SimGrid " << simgrid << " s, deviation " << dev * 100 << " %");
      CHECK(std::abs(dev) < 0.02);
      ++checked;
    }
    CHECK(checked == 9);
  }

  TEST_CASE("augur replays the old-grammar SimGrid example") {
    const Result r = run_augur("run --trace ti:" + shared +
                               "/ti-samples/simgrid-example-32/trace.txt --machine platform_cluster_64");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.find("32 processors") != std::string::npos);
    // Idle dominates its lost time: the advice names the first and the last rank to finish (the
    // rank table's end_s column: rank 13 at 72.004586 s, rank 0 at 74.102635 s, the run's end).
    CHECK(r.out.find("idle (finished early) dominates the lost time") != std::string::npos);
    CHECK(r.out.find("some ranks finish much earlier (rank 13 at 72.004586 s, rank 0 last at 74.102635 s)") !=
          std::string::npos);
  }

  TEST_CASE("augur shows the per-rank waiting times of tiny-4") {
    const fs::path d = temp_dir("tiny");
    const Result r =
        run_augur("run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --machine platform_cluster_64 --json " +
                  (d / "t.json").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.find("wait_s") != std::string::npos);
    const auto j = nlohmann::json::parse(slurp(d / "t.json"));
    const auto& p = j["variants"][0]["processors"];
    REQUIRE(p.size() == 4);
    // compute = flops / 1 Gflop/s, plus the allreduce's 1e6 flops run after it:
    // rank 0: 1e9 + 1e6 → 1.001 s; rank 1: 2.001 s; rank 2: 0.501 s; rank 3: 0.5 + 3 + 0.001 = 3.501 s.
    CHECK(p[0]["compute_s"].get<double>() == doctest::Approx(1.001));
    CHECK(p[1]["compute_s"].get<double>() == doctest::Approx(2.001));
    CHECK(p[2]["compute_s"].get<double>() == doctest::Approx(0.501));
    CHECK(p[3]["compute_s"].get<double>() == doctest::Approx(3.501));
    // Rank 0 sends 1 MB (rendezvous) at 1 s and waits for rank 1's receive at 2 s (late receiver);
    // everyone but rank 3 waits about 3 s at the final barrier: waits exceed 3 s on ranks 0..2.
    CHECK(p[0]["wait_s"].get<double>() > 3.9);
    CHECK(p[1]["wait_s"].get<double>() > 3.0);
    CHECK(p[2]["wait_s"].get<double>() > 4.4);
    CHECK(p[3]["wait_s"].get<double>() < 1.6);
  }

  TEST_CASE("augur reports the wait-for cycle of two ranks that both receive first") {
    const fs::path d = temp_dir("deadlock");
    std::ofstream(d / "rank0.txt") << "0 init\n0 recv 1 0 8 0\n0 send 1 0 8 0\n0 finalize\n";
    std::ofstream(d / "rank1.txt") << "1 init\n1 recv 0 0 8 0\n1 send 0 0 8 0\n1 finalize\n";
    std::ofstream(d / "trace.txt") << "rank0.txt\nrank1.txt\n";
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = run_augur("run --trace ti:" + (d / "trace.txt").string());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MESSAGE("deadlock detected in " << seconds << " s");
    CHECK(r.status == 1);
    CHECK(r.out.find("run ended by deadlock") != std::string::npos);
    CHECK(r.out.find("wait-for cycle: LP 0 -> LP 1 -> LP 0") != std::string::npos);
    CHECK(r.out.find("LP 0 (clock 0.000000000 s) waits for a message from rank 1 (tag 0) (at ") != std::string::npos);
    CHECK(r.out.find("rank0.txt:2)") != std::string::npos);
  }

  TEST_CASE("augur gives byte-identical JSON and event logs on two runs") {
    const fs::path d = temp_dir("determinism");
    for (int i = 0; i < 2; ++i) {
      const Result r = run_augur("run --jobs 2 --json " + (d / ("r" + std::to_string(i) + ".json")).string() +
                                 " --event-log " + (d / ("e" + std::to_string(i) + ".log")).string());
      REQUIRE_MESSAGE(r.status == 0, r.err);
    }
    CHECK(slurp(d / "r0.json") == slurp(d / "r1.json"));
    const std::string log0 = slurp(d / "e0.v1.log");
    CHECK(log0.size() > 1000);
    CHECK(log0 == slurp(d / "e1.v1.log"));
    CHECK(slurp(d / "e0.v3.log") == slurp(d / "e1.v3.log"));
    // A parallel run equals a serial one.
    const Result serial = run_augur("run --jobs 1 --json " + (d / "serial.json").string());
    REQUIRE(serial.status == 0);
    CHECK(slurp(d / "serial.json") == slurp(d / "r0.json"));
  }

  TEST_CASE("augur step follows scripted commands") {
    const Result r = run_augur("step --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt",
                               "break lp 2\ncontinue\nprint 2\nblocked\nbreak kind waitall\ndelete\nstep 3\nbreak "
                               "event 40\ncontinue\nprint 9\nquit\n");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.find("[event 1] t=1.000000000 lp=0 compute") != std::string::npos);
    CHECK(r.out.find("breakpoint on LP 2") != std::string::npos);
    CHECK(r.out.find("LP 2: clock=") != std::string::npos);
    CHECK(r.out.find("trace position: ") != std::string::npos);
    CHECK(r.out.find("[event 40]") != std::string::npos);
    CHECK(r.out.find("no LP 9 (there are 4)") != std::string::npos);
    CHECK(r.out.find("run ended by stopped") != std::string::npos);
  }

  TEST_CASE("augur rejects a broken trace with file line and exit status 2") {
    const fs::path d = temp_dir("broken");
    std::ofstream(d / "rank0.txt") << "0 init\n0 compute 10\n0 sned 1 0 8\n";
    std::ofstream(d / "trace.txt") << "rank0.txt\n";
    const Result r = run_augur("run --trace ti:" + (d / "trace.txt").string());
    CHECK(r.status == 2);
    CHECK(r.err.find("rank0.txt:3: error: unknown action 'sned'") != std::string::npos);
  }

  TEST_CASE("augur rejects bad command lines with exit status 2") {
    CHECK(run_augur("run --bogus").status == 2);
    const Result r = run_augur("run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --set machine.latncy=1us");
    CHECK(r.status == 2);
    CHECK(r.err.find("latency") != std::string::npos);
  }

  TEST_CASE("augur info lists the machine models with their parameters") {
    const Result r = run_augur("info machines");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("bus") != std::string::npos);
    CHECK(r.out.find("transputer_grid") != std::string::npos);
    CHECK(r.out.find("loggp_smp") != std::string::npos);
    CHECK(run_augur("info machines loggp_smp").out.find("eager_threshold") != std::string::npos);
    // Within one machine the parameters' docs start in one column, also when a kind name
    // (cluster_tree) or a default (the cluster tree) is longer than usual: the long default goes
    // on a line of its own.
    const Result cluster = run_augur("info machines dvm_cluster");
    REQUIRE(cluster.status == 0);
    std::istringstream lines(cluster.out);
    std::set<std::size_t> doc_columns;
    for (std::string line; std::getline(lines, line);) {
      const auto at = line.find(" default ");
      if (line.rfind("    ", 0) != 0 || at == std::string::npos) continue;
      const auto value = line.find_first_not_of(' ', at + 9);
      doc_columns.insert(line.find_first_not_of(' ', line.find(' ', value)));
    }
    CHECK(doc_columns.size() == 1);
    CHECK(cluster.out.find("default (below)") != std::string::npos);
    CHECK(cluster.out.find("default: eth = {64 x cpu} ethernet 75us 0.2us; cpu = 1") != std::string::npos);
    CHECK(run_augur("info formats").status == 0);
    CHECK(run_augur("info collectives").out.find("allreduce") != std::string::npos);
  }

  TEST_CASE("augur check lists every swept machine and each DVM variant's grid") {
    const Result r = run_augur("check " + source + "/scenarios/examples/dvm_jacobi_machines.yaml");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.find("ok: scenario 'DVM Jacobi across grids on a cluster, a bus and a transputer grid', machines "
                     "dvm_mvs (dvm_cluster), dvm_bus_eth (bus), dvm_transputer (transputer_grid), 15 variants\n") !=
          std::string::npos);
    CHECK(r.out.find("  variant 15: processors=16 grid=4x4 trace=") != std::string::npos);
    CHECK(r.out.find("jac1d.ptr machine=dvm_transputer\n") != std::string::npos);
    const Result one = run_augur("check " + source + "/scenarios/examples/default.yaml");
    REQUIRE_MESSAGE(one.status == 0, one.err);
    CHECK(one.out.find(", machine ") != std::string::npos);
    CHECK(one.out.find("grid=") == std::string::npos);
  }

  TEST_CASE("augur runs every bundled example scenario") {
    for (const auto& entry : fs::directory_iterator(source + "/scenarios/examples")) {
      if (entry.path().extension() != ".yaml") continue;
      const Result r = run_augur("run " + entry.path().string());
      CHECK_MESSAGE(r.status == 0, entry.path().string() << ": " << r.err);
      CHECK(r.out.find("predicted time:") != std::string::npos);
    }
  }

  TEST_CASE("augur sweeps the DVM Jacobi example over grids and machines") {
    const fs::path d = temp_dir("dvm_machines");
    const std::string scenario = source + "/scenarios/examples/dvm_jacobi_machines.yaml";
    const Result r = run_augur("run " + scenario + " --jobs 2 --sweep-json " + (d / "s.json").string() + " --html " +
                               (d / "r.html").string() + " --csv " + (d / "s.csv").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto doc = nlohmann::json::parse(slurp(d / "s.json"));
    const auto& rows = doc.at("rows");
    REQUIRE(rows.size() == 15);
    const char* machines[] = {"dvm_mvs", "dvm_bus_eth", "dvm_transputer"};
    const char* grids[] = {"1", "2", "4", "2x2", "4x4"};
    std::map<std::string, double> time_4x4;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CAPTURE(i);
      const auto& row = rows[i];
      CHECK(row.at("outcome") == "completed");
      CHECK(row.at("grid") == grids[i / 3]);
      CHECK(row.at("machine") == machines[i % 3]);
      CHECK(row.at("swept").at("machine") == machines[i % 3]);
      const double efficiency = row.at("efficiency").get<double>();
      CHECK(efficiency > 0.0);
      CHECK(efficiency <= 1.0 + 1e-12);
      if (i / 3 == 4) time_4x4[machines[i % 3]] = row.at("predicted_time_s").get<double>();
    }
    // One processor costs the same everywhere; on 16 the shared bus is the slowest, the cluster the fastest.
    CHECK(rows[0].at("predicted_time_s") == rows[1].at("predicted_time_s"));
    CHECK(time_4x4["dvm_bus_eth"] > time_4x4["dvm_transputer"]);
    CHECK(time_4x4["dvm_transputer"] > time_4x4["dvm_mvs"]);
    // The plots: a line per machine and grid dimension, in both the time and the efficiency plot.
    const std::string html = slurp(d / "r.html");
    for (const char* machine : machines) {
      for (const char* dims : {" 1-D<", " 2-D<"}) {
        // The machine's name once (the swept `machine` value is not repeated as "machine=...").
        const std::string legend = std::string("class=\"legend\">") + machine + dims;
        CAPTURE(legend);
        const auto first = html.find(legend);
        REQUIRE(first != std::string::npos);
        CHECK(html.find(legend, first + 1) != std::string::npos);
      }
    }
    // The same run serially, and --set sweep.machine narrows the axis.
    const Result serial = run_augur("run " + scenario + " --jobs 1 --csv " + (d / "serial.csv").string());
    REQUIRE_MESSAGE(serial.status == 0, serial.err);
    CHECK(slurp(d / "serial.csv") == slurp(d / "s.csv"));
    // One `machine` column in the CSV: the swept machine is that column, not a second one.
    const std::string csv = slurp(d / "s.csv");
    const std::string header = csv.substr(0, csv.find('\n'));
    CAPTURE(header);
    CHECK(header.find(",machine,") != std::string::npos);
    CHECK(header.find(",machine,") == header.rfind(",machine"));
    const Result narrowed =
        run_augur("run " + scenario + " --set sweep.machine=dvm_eth75 --sweep-json " + (d / "n.json").string());
    REQUIRE_MESSAGE(narrowed.status == 0, narrowed.err);
    const auto narrow = nlohmann::json::parse(slurp(d / "n.json")).at("rows");
    REQUIRE(narrow.size() == 5);
    CHECK(narrow[4].at("machine") == "dvm_eth75");
    const Result bad = run_augur("run " + scenario + " --set sweep.machine=dvm_mvs,dvm_bus");
    CHECK(bad.status != 0);
    CHECK(bad.err.find("--set: error: unknown machine 'dvm_bus'") != std::string::npos);
    CHECK(bad.err.find("Library machines: dvm_bus_eth, ") != std::string::npos);
  }
}

TEST_SUITE("golden") {
  TEST_CASE("augur stops at an event limit with a partial report") {
    const Result r = run_augur("run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --max-events 10");
    CHECK(r.status == 1);
    CHECK(r.out.find("run ended by event_limit") != std::string::npos);
    const Result t = run_augur("run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --max-time 1.5");
    CHECK(t.status == 1);
    CHECK(t.out.find("run ended by time_limit") != std::string::npos);
  }

  TEST_CASE("augur prices collectives analytically or with a chosen algorithm") {
    const fs::path d = temp_dir("analytic");
    const std::string trace = "run --trace ti:" + shared + "/ti-samples/prk-stencil-4/trace.txt ";
    const Result a = run_augur(trace + "--set model.collectives=analytic --json " + (d / "a.json").string());
    REQUIRE_MESSAGE(a.status == 0, a.err);
    const Result b =
        run_augur(trace + "--set model.algorithms.allreduce=recursive_doubling --json " + (d / "b.json").string());
    REQUIRE_MESSAGE(b.status == 0, b.err);
    const double ta = nlohmann::json::parse(slurp(d / "a.json"))["variants"][0]["predicted_time_s"].get<double>();
    const double tb = nlohmann::json::parse(slurp(d / "b.json"))["variants"][0]["predicted_time_s"].get<double>();
    // The stencil is compute bound: 52 tiny collectives change the prediction by far less than 1 %.
    CHECK(ta == doctest::Approx(1.813871).epsilon(0.01));
    CHECK(tb == doctest::Approx(1.813871).epsilon(0.01));
  }

  TEST_CASE("augur replays on the bus and the transputer grid") {
    const std::string trace = "run --trace ti:" + shared + "/ti-samples/prk-stencil-16/trace.txt ";
    const Result bus = run_augur(trace + "--machine ethernet_bus");
    CHECK_MESSAGE(bus.status == 0, bus.err);
    CHECK(bus.out.find("(bus)") != std::string::npos);
    const Result grid = run_augur(trace + "--machine transputer_4x4");
    CHECK_MESSAGE(grid.status == 0, grid.err);
    CHECK(grid.out.find("(transputer_grid)") != std::string::npos);
  }
}

TEST_SUITE("golden") {
  TEST_CASE("augur with SMPI corrections predicts every PRK sample within 1 percent of SimGrid SMPI") {
    std::ifstream tsv(shared + "/ti-samples/predictions.tsv");
    REQUIRE(tsv);
    std::string line;
    std::getline(tsv, line);
    const fs::path d = temp_dir("smpi");
    int checked = 0;
    while (std::getline(tsv, line)) {
      std::vector<std::string> f;
      std::stringstream ss(line);
      for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
      if (f[0].rfind("prk-", 0) != 0) continue;
      const double simgrid = std::stod(f[9]);  // replay_smpi_sim_s: SimGrid's default SMPI model
      const Result r = run_augur("run --trace ti:" + shared + "/ti-samples/" + f[0] +
                                 "/trace.txt --machine platform_cluster_64_smpi --json " + (d / "out.json").string());
      REQUIRE_MESSAGE(r.status == 0, r.err);
      const double ours = nlohmann::json::parse(slurp(d / "out.json"))["variants"][0]["predicted_time_s"].get<double>();
      MESSAGE(f[0] << ": augur " << ours << " s, SimGrid SMPI " << simgrid << " s, deviation "
                   << (ours - simgrid) / simgrid * 100 << " %");
      CHECK(std::abs(ours - simgrid) / simgrid < 0.01);
      ++checked;
    }
    CHECK(checked == 9);
  }
}

TEST_SUITE("golden") {
  TEST_CASE("augur prints no progress line when stderr is not a terminal") {
    const Result r = run_augur("run --jobs 2");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
  }

  TEST_CASE("augur logs what each folder read and ran from --log and SPDLOG_LEVEL - at the simulated time") {
    const std::string trace = "run --trace ti:" + shared + "/ti-samples/prk-transpose-4/trace.txt --jobs 1";
    const Result quiet = run_augur(trace);
    REQUIRE(quiet.status == 0);
    CHECK(quiet.err.empty());
    // The environment first (another program's logger in it is ignored), --log over it.
    REQUIRE(::setenv("SPDLOG_LEVEL", "info,traces=trace,some_other_program=debug", 1) == 0);
    const Result r = run_augur(trace + " --log models=debug,machines=warn");
    REQUIRE(::unsetenv("SPDLOG_LEVEL") == 0);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out == quiet.out);  // logging changes no output
    const auto has = [&](const std::string& line) {
      CHECK_MESSAGE(r.err.find(line) != std::string::npos, line, "\nnot in:\n", r.err);
    };
    has("[-] [scenarios] [info] scenario from the command line: ti trace " + shared +
        "/ti-samples/prk-transpose-4/trace.txt, machine platform_cluster_64 (loggp_smp), processors: the trace's, "
        "sweep: none\n");
    has("[-] [tools] [info] variant 1/1: " + shared + "/ti-samples/prk-transpose-4/trace.txt on platform_cluster_64\n");
    has("[-] [traces] [info] TI trace " + shared +
        "/ti-samples/prk-transpose-4/trace.txt: an index of 4 rank files (4 beside the index, 4 compressed)");
    has("[-] [models] [debug] message-passing model: 4 ranks, eager messages move when the receive is posted, "
        "collectives: barrier=default,");
    has("[0.000000000] [traces] [trace] rank 3: reading " + shared + "/ti-samples/prk-transpose-4/rank3.txt.zst\n");
    // A rank's file ends when its last action is read: at the simulated time of its turn.
    has("[0.365009558] [traces] [trace] rank 0: " + shared +
        "/ti-samples/prk-transpose-4/rank0.txt.zst ends after line 153\n");
    has("[0.365009558] [engine] [info] run completed: 1288 events in 1721 steps, last LP clock 0.365009558 s\n");
    has("[-] [tools] [info] variant 1/1: completed, predicted 0.365009558 s, 1288 events, 0 warnings, ");
    CHECK(r.err.find("[machines]") == std::string::npos);  // --log machines=warn over the environment's info
    CHECK(r.err.find("[engine] [debug]") == std::string::npos);

    REQUIRE(::setenv("SPDLOG_LEVEL", "engine=chatty", 1) == 0);
    const Result bad = run_augur(trace);
    REQUIRE(::unsetenv("SPDLOG_LEVEL") == 0);
    CHECK(bad.status == 2);
    CHECK(
        bad.err.starts_with("augur: error: SPDLOG_LEVEL: unknown level 'chatty' (expected trace, debug, info, warn, "
                            "error, critical, off)\n"));
  }
}

TEST_SUITE("golden") {
  TEST_CASE("augur separates messages received in the wrong order from the rest of the late-sender waiting") {
    // 1 Gflop/s, 1 us, 10 GB/s: an 8-byte eager message starts moving when it is sent. Rank 1
    // computes 3 s before sending to rank 0, rank 2 1 s (or 4 s); rank 0 receives from 1 first.
    const fs::path d = temp_dir("wrong_order");
    std::ofstream(d / "m.yaml")
        << "{schema_version: 1, model: loggp_smp, cpu_speed: 1Gflops, latency: 1us, bandwidth: 10GBps}\n";
    struct Case {
      const char* name;
      std::string rank0, rank1, rank2;
      double late_sender, wrong_order;
      std::uint64_t wrong_count;
      const char* site;  // where rank 0 waits most
    };
    const std::string sends1 = "1 init\n1 compute 3e9\n1 send 0 0 8 0\n1 finalize\n";
    const std::string sends2_at_1 = "2 init\n2 compute 1e9\n2 send 0 0 8 0\n2 finalize\n";
    const Case cases[] = {
        // Rank 0 waits 3 s for rank 1 while rank 2's message, sent at 1 s, is already there: the
        // whole wait is in the wrong order; the receive from 2 then completes at once.
        {"other sender earlier", "0 init\n0 recv 1 0 8 0\n0 recv 2 0 8 0\n0 finalize\n", sends1, sends2_at_1, 3.0, 3.0,
         1, "recv after the start (rank 0: recv #1)"},
        // Rank 2 sends at 4 s, after rank 1: 3 s waited in order, then about 1 s more for rank 2.
        {"other sender later", "0 init\n0 recv 1 0 8 0\n0 recv 2 0 8 0\n0 finalize\n", sends1,
         "2 init\n2 compute 4e9\n2 send 0 0 8 0\n2 finalize\n", 4.0, 0.0, 0, "recv after the start (rank 0: recv #1)"},
        // The same sender, another tag: tag 5 sent at 1 s, tag 0 at 3 s, received tag 0 first.
        {"same sender other tag", "0 init\n0 recv 1 0 8 0\n0 recv 1 5 8 0\n0 finalize\n",
         "1 init\n1 compute 1e9\n1 send 0 5 8 0\n1 compute 2e9\n1 send 0 0 8 0\n1 finalize\n",
         "2 init\n2 compute 3e9\n2 finalize\n", 3.0, 3.0, 1, "recv after the start (rank 0: recv #1)"},
        // Both receives posted, the wait on rank 1's first while rank 2's is already matched.
        {"wait on the later of two posted receives",
         "0 init\n0 irecv 1 0 8 0\n0 irecv 2 0 8 0\n0 wait 1 0 0\n0 wait 2 0 0\n0 finalize\n", sends1, sends2_at_1, 3.0,
         3.0, 1, "wait after irecv (rank 0: wait #1)"},
        // A waitall waits for both together: no order to get wrong.
        {"waitall", "0 init\n0 irecv 1 0 8 0\n0 irecv 2 0 8 0\n0 waitall\n0 finalize\n", sends1, sends2_at_1, 3.0, 0.0,
         0, "waitall after irecv (rank 0: waitall #1)"},
    };
    for (const Case& c : cases) {
      const std::string name = c.name;
      CAPTURE(name);
      std::ofstream(d / "rank0.txt") << c.rank0;
      std::ofstream(d / "rank1.txt") << c.rank1;
      std::ofstream(d / "rank2.txt") << c.rank2;
      std::ofstream(d / "trace.txt") << "rank0.txt\nrank1.txt\nrank2.txt\n";
      const Result r =
          run_augur("run --trace ti:" + (d / "trace.txt").string() + " --machine " + (d / "m.yaml").string() +
                    " --json " + (d / "w.json").string() + " --html " + (d / "w.html").string());
      REQUIRE_MESSAGE(r.status == 0, r.err);
      const auto ws = nlohmann::json::parse(slurp(d / "w.json"))["variants"][0]["wait_states"];
      const auto& rank0 = ws["processors"][0];
      CHECK(rank0["late_sender_s"].get<double>() == doctest::Approx(c.late_sender).epsilon(1e-5));
      CHECK(rank0["late_sender_wrong_order_s"].get<double>() == doctest::Approx(c.wrong_order).epsilon(1e-5));
      // Where rank 0 waits: the call and the one before it.
      REQUIRE(!ws["by_site"].empty());
      CHECK(ws["by_site"][0]["site"] == c.site);
      CHECK(r.out.find(std::string("s  ") + c.site + " (") != std::string::npos);
      const auto& wrong = ws["patterns"]["late_sender"]["wrong_order"];
      CHECK(wrong["total_s"].get<double>() == doctest::Approx(c.wrong_order).epsilon(1e-5));
      CHECK(wrong["count"].get<std::uint64_t>() == c.wrong_count);
      // The text report says so when it happens, and the advice points at it (waiting is the lost
      // time: rank 0 waits 3 s while ranks 1 and 2 compute).
      CHECK((r.out.find("messages in wrong order: ") != std::string::npos) == (c.wrong_count > 0));
      CHECK((r.out.find("messages received in the wrong order") != std::string::npos) == (c.wrong_count > 0));
      CHECK((slurp(d / "w.html").find("<p>Messages in wrong order: ") != std::string::npos) == (c.wrong_count > 0));
      // Rank 1, late by 3 s, is the one that makes the others wait (rank 2 too in the second case).
      CHECK(r.out.find("the ranks that make others wait most: 1 (3.0000") != std::string::npos);
    }
  }

  TEST_CASE("augur bounds the wrong-order check of a wait and says so") {
    // Rank 1 computes 1 s and sends 100 MB to rank 0 (10 ms at 10 GB/s); rank 2 sends 300 small
    // messages to rank 0 while it moves. When rank 0's receive completes, the 300 are queued, all
    // sent after the awaited message: the check looks at 256 of them, counts the wait as in order
    // and the run warns that the wrong-order figure is a lower bound.
    const fs::path d = temp_dir("wrong_order_limit");
    std::ofstream(d / "m.yaml")
        << "{schema_version: 1, model: loggp_smp, cpu_speed: 1Gflops, latency: 1us, bandwidth: 10GBps}\n";
    std::string r0 = "0 init\n0 recv 1 0 100000000 0\n", r2 = "2 init\n2 compute 1.001e9\n";
    for (int i = 0; i < 300; ++i) {
      r0 += "0 recv 2 0 8 0\n";
      r2 += "2 send 0 0 8 0\n";
    }
    std::ofstream(d / "rank0.txt") << r0 << "0 finalize\n";
    std::ofstream(d / "rank1.txt") << "1 init\n1 compute 1e9\n1 send 0 0 100000000 0\n1 finalize\n";
    std::ofstream(d / "rank2.txt") << r2 << "2 finalize\n";
    std::ofstream(d / "trace.txt") << "rank0.txt\nrank1.txt\nrank2.txt\n";
    const Result r = run_augur("run --trace ti:" + (d / "trace.txt").string() + " --machine " +
                               (d / "m.yaml").string() + " --json " + (d / "w.json").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto ws = nlohmann::json::parse(slurp(d / "w.json"))["variants"][0]["wait_states"];
    CHECK(ws["processors"][0]["late_sender_s"].get<double>() == doctest::Approx(1.0).epsilon(1e-4));
    CHECK(ws["patterns"]["late_sender"]["wrong_order"]["count"] == 0);
    CHECK(r.out.find("wait states: 1 late-sender wait(s) found more than 256 messages and requests queued at the "
                     "receiver") != std::string::npos);
  }

  TEST_CASE("augur's advice says whether latency or bytes make the transfer time") {
    // prk-p2p-16: 165,071 messages of 1,319,728 bytes in all (the rank table's totals): 7.995 bytes
    // on average, latency-bound. prk-transpose-4: 303 messages of about 6.3 MB: bytes-bound.
    const Result p2p =
        run_augur("run --trace ti:" + shared + "/ti-samples/prk-p2p-16/trace.txt --machine platform_cluster_64");
    REQUIRE_MESSAGE(p2p.status == 0, p2p.err);
    CHECK(p2p.out.find("transfer dominates the lost time") != std::string::npos);
    CHECK(
        p2p.out.find("% of the transfer time is point_to_point): its 165071 messages carry 8 bytes on average, so each "
                     "costs its latency more than its bytes") != std::string::npos);
    const Result tr =
        run_augur("run --trace ti:" + shared + "/ti-samples/prk-transpose-4/trace.txt --machine platform_cluster_64");
    REQUIRE_MESSAGE(tr.status == 0, tr.err);
    CHECK(tr.out.find("its 303 messages carry ") != std::string::npos);
    CHECK(tr.out.find(" KiB on average, so their bytes cost most: less data, or more bandwidth") != std::string::npos);
  }

  TEST_CASE("augur wait states of tiny-4 agree with SimGrid's per-action log") {
    // tiny-4/platform.xml: private links 125 MBps / 50 us to a 1.25 GBps / 1 us backbone, so host to
    // host 101 us and 125 MBps, priced by SimGrid's default SMPI model (size-dependent factors). A
    // 1 MB message: 101e-6·11.6436 + 1e6 / (125e6·0.940694) = 0.009680 s, as in simgrid-output.txt.
    const fs::path d = temp_dir("tiny_smpi");
    std::ofstream(d / "m.yaml")
        << "schema_version: 1\nmodel: loggp_smp\ncpu_speed: 1Gflops\nlatency: 101us\nbandwidth: 125MBps\n"
           "latency_factors: \"65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;"
           "732:1.9503;257:1.95341;0:2.01467\"\n"
           "bandwidth_factors: \"65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
           "1426:0.608902;732:0.341987;257:0.338112;0:0.812084\"\n";
    const Result r = run_augur("run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --machine " +
                               (d / "m.yaml").string() + " --json " + (d / "t.json").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto j = nlohmann::json::parse(slurp(d / "t.json"))["variants"][0];
    // SimGrid's run ends at 5.041146 s.
    CHECK(j["predicted_time_s"].get<double>() == doctest::Approx(5.041146).epsilon(1e-4));
    const auto& w = j["wait_states"]["processors"];
    auto get = [&](int rank, const char* key) { return w[static_cast<std::size_t>(rank)][key].get<double>(); };
    // From simgrid-output.txt (each action's end time minus its duration = its start):
    // rank 0 sends 1 MB at 1.0 (rendezvous); rank 1 posts the receive at 2.0 (after its compute):
    //   late receiver on rank 0: 2.0 − 1.0 = 1.0 s.
    CHECK(get(0, "late_receiver_s") == doctest::Approx(1.0).epsilon(1e-6));
    // rank 2 posts its receive at 0.5; rank 1's send starts when its receive ends, 2.009680:
    //   late sender on rank 2: 2.009680 − 0.5 = 1.509680 s.
    CHECK(get(2, "late_sender_s") == doctest::Approx(1.509680).epsilon(1e-6));
    // rank 3 posts at 0.5; rank 2's send starts at 2.019361: 1.519361 s.
    CHECK(get(3, "late_sender_s") == doctest::Approx(1.519361).epsilon(1e-6));
    // rank 0 posts its receive from 3 at 2.009680 (its send done); rank 3 sends at 2.029041: 0.019361 s.
    CHECK(get(0, "late_sender_s") == doctest::Approx(0.019361).epsilon(1e-6));
    CHECK(get(1, "late_sender_s") == doctest::Approx(0.0));
    // Barrier entries (end of each rank's previous action): rank 0 2.040120, ranks 1 and 2
    // 2.040459, rank 3 5.040739 (after its 3 s compute): waits 3.000619, 3.000280, 3.000280, 0.
    // Ours differ by < 0.1 ms (the allreduce before the barrier is priced without SimGrid's
    // bandwidth sharing).
    CHECK(get(0, "wait_at_barrier_s") == doctest::Approx(3.000619).epsilon(3e-5));
    CHECK(get(1, "wait_at_barrier_s") == doctest::Approx(3.000280).epsilon(3e-5));
    CHECK(get(2, "wait_at_barrier_s") == doctest::Approx(3.000280).epsilon(3e-5));
    CHECK(get(3, "wait_at_barrier_s") == doctest::Approx(0.0));
    // rank 3's wait is propagated: rank 2 was itself waiting for rank 1 (1.509680 s indirect).
    CHECK(get(3, "indirect_s") == doctest::Approx(1.509680).epsilon(1e-5));
    // Who made the others wait (direct parts only): rank 1 — rank 0's late receiver (1.0 s) and
    // rank 2's late sender (1.509680 s); rank 2 — rank 3's late sender less what rank 2 only passed
    // on (1.519361 − 1.509680 = 0.009681 s); rank 3 — the barrier (3.000619 + 2 × 3.000280 s) and
    // the part of rank 0's 0.019361 s wait after its own wait ended at 2.019361 (it was receiving
    // rank 2's 1 MB until 2.029041: 0.009680 s direct). The allreduce's waits for its last entry
    // (< 1 ms) come on top.
    CHECK(get(1, "caused_s") == doctest::Approx(2.509680).epsilon(1e-3));
    CHECK(get(2, "caused_s") == doctest::Approx(0.009681).epsilon(0.1));
    CHECK(get(3, "caused_s") == doctest::Approx(9.001179 + 0.009680).epsilon(1e-4));
    double caused = 0, waited = 0, indirect = 0;
    for (int rank = 0; rank < 4; ++rank) {
      caused += get(rank, "caused_s");
      indirect += get(rank, "indirect_s");
      for (const char* k : {"late_sender_s", "late_receiver_s", "wait_at_barrier_s", "early_reduce_s",
                            "late_broadcast_s", "wait_at_nxn_s"}) {
        waited += get(rank, k);
      }
    }
    CHECK(caused == doctest::Approx(waited - indirect));
  }
}

TEST_SUITE("golden") {
  TEST_CASE("augur reports the characteristics of tiny-4 per phase between its global synchronisations") {
    // tiny-4 on platform_cluster_64 (1 Gflop/s; 1 MB at 10 GB/s + 1 us = 101 us). Rank 0's trace:
    // line 5 allreduce, line 6 barrier: phase 1 runs to the allreduce, phase 2 to the barrier.
    const fs::path d = temp_dir("tiny_phases");
    const std::string trace =
        "run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --machine platform_cluster_64 ";
    const Result r = run_augur(trace + "--json " + (d / "t.json").string());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto v = nlohmann::json::parse(slurp(d / "t.json"))["variants"][0];
    REQUIRE(v.contains("characteristics"));
    const auto& main = v["characteristics"]["interval"];
    CHECK(main["type"] == "Main");
    // Productive = every computation: 1.001 + 2.001 + 0.501 + 3.501 = 7.004 s (allreduce flops
    // included); efficiency = 7.004 / (4 × execution), execution within microseconds of the run.
    CHECK(main["productive_time"]["cpu"].get<double>() == doctest::Approx(7.004));
    CHECK(main["execution_time"].get<double>() == doctest::Approx(v["predicted_time_s"].get<double>()).epsilon(1e-5));
    CHECK(main["efficiency"].get<double>() ==
          doctest::Approx(7.004 / (4 * main["execution_time"].get<double>())).epsilon(1e-9));
    // Point-to-point: 4 sends of 1 MB, each busy 101 us on the sender (rendezvous) and the receiver:
    // transfer 8 × 101 us; waiting: rank 0 1 s for rank 1's receive, ranks 2 and 3 about 1.5 s each.
    const auto& p2p = main["collectives"]["point_to_point"];
    CHECK(p2p["operations"] == 4);
    CHECK(p2p["transfer"].get<double>() == doctest::Approx(8 * 101e-6).epsilon(1e-6));
    CHECK(p2p["waiting"].get<double>() == doctest::Approx(4.0).epsilon(1e-3));
    CHECK(p2p["real_synchronization"].get<double>() == p2p["waiting"].get<double>());
    REQUIRE(main["intervals"].size() == 2);
    const auto& p1 = main["intervals"][0];
    const auto& p2 = main["intervals"][1];
    CHECK(p1["type"] == "Phase");
    CHECK(p1["source_file"] == "phase 1: from the start to allreduce #1 (rank0.txt:5)");
    CHECK(p1["source_line"] == 5);
    CHECK(p1["exe_count"] == 1);
    // Phase 1: CPU 1.001 + 2.001 + 0.501 + 0.501 = 4.004; load imbalance Σ(2.001 − CPU) = 1 + 0 +
    // 1.5 + 1.5 = 4; rank 1 computes until 2.0, the ring then takes 4 × 101 us and the allreduce
    // about 1 ms of reduction flops: execution ≈ 2.0014.
    CHECK(p1["productive_time"]["cpu"].get<double>() == doctest::Approx(4.004));
    CHECK(p1["load_imbalance"].get<double>() == doctest::Approx(4.0));
    CHECK(p1["execution_time"].get<double>() == doctest::Approx(2.0014).epsilon(1e-4));
    CHECK(p1["collectives"]["allreduce"]["operations"] == 1);
    CHECK_FALSE(p1["collectives"].contains("barrier"));
    CHECK(p2["source_file"] == "phase 2: after allreduce #1 (rank0.txt:5), before barrier #1 (rank0.txt:6)");
    CHECK(p2["source_line"] == 6);
    // Phase 2: rank 3 computes 3 s while ranks 0..2 wait at the barrier: productive 3, load
    // imbalance and barrier waiting 3 × 3 = 9, efficiency 3 / (4 × 3).
    CHECK(p2["productive_time"]["cpu"].get<double>() == doctest::Approx(3.0));
    CHECK(p2["load_imbalance"].get<double>() == doctest::Approx(9.0));
    CHECK(p2["collectives"]["barrier"]["waiting"].get<double>() == doctest::Approx(9.0).epsilon(1e-5));
    CHECK(p2["collectives"]["barrier"]["synchronization"].get<double>() == doctest::Approx(9.0).epsilon(1e-5));
    CHECK(p2["execution_time"].get<double>() == doctest::Approx(3.0).epsilon(1e-5));
    CHECK(p2["efficiency"].get<double>() == doctest::Approx(0.25).epsilon(1e-5));
    CHECK_FALSE(p2["collectives"].contains("point_to_point"));
    // Main adds its phases (Integrate).
    CHECK(main["load_imbalance"].get<double>() == doctest::Approx(13.0));
    CHECK(main["execution_time"].get<double>() ==
          doctest::Approx(p1["execution_time"].get<double>() + p2["execution_time"].get<double>()));

    // The text report prints the same intervals in the analyzer's layout, with the operation kinds
    // that occur and Transfer beside Communic.
    CHECK(r.out.find("Processor system=4\n") != std::string::npos);
    CHECK(r.out.find("INTERVAL ( NLINE=0 SOURCE=" + shared +
                     "/ti-samples/tiny-4/ti_index.txt ) LEVEL=0  EXE_COUNT=1") != std::string::npos);
    CHECK(r.out.find("INTERVAL ( NLINE=6 SOURCE=phase 2: after allreduce #1 (rank0.txt:5), before barrier #1 "
                     "(rank0.txt:6) ) LEVEL=1 PHASE EXE_COUNT=1\n") != std::string::npos);
    CHECK(r.out.find("                  Nop   Communic   Transfer  Real_sync    Synchro  Variation \n"
                     "Point-to-point      4     4.0013     0.0008     4.0005     0.0000     0.0000 \n"
                     "Barrier             1     9.0000     0.0000     9.0000     9.0000     0.0000 \n"
                     "Allreduce           1     0.0003     0.0000     0.0003     0.0003     0.0000 \n") !=
          std::string::npos);
    CHECK(r.out.find("Productive time                 3.0000 ( CPU= 3.0000 Sys= 0.0000 I/O= 0.0000 )") !=
          std::string::npos);
    // … before the wait states, root causes and advice.
    CHECK(r.out.find("INTERVAL (") < r.out.find("  wait states (s):"));
    CHECK(r.out.find("  advice: ") != std::string::npos);

    // --depth 0: Main only; --characteristics off: none, the rest of the report as before.
    const Result shallow = run_augur(trace + "--depth 0");
    REQUIRE(shallow.status == 0);
    CHECK(shallow.out.find("INTERVAL ( NLINE=0 ") != std::string::npos);
    CHECK(shallow.out.find("PHASE") == std::string::npos);
    const Result off = run_augur(trace + "--characteristics off --json " + (d / "off.json").string());
    REQUIRE_MESSAGE(off.status == 0, off.err);
    CHECK(off.out.find("INTERVAL (") == std::string::npos);
    CHECK(off.out.find("  wait states (s):") != std::string::npos);
    const auto o = nlohmann::json::parse(slurp(d / "off.json"))["variants"][0];
    CHECK_FALSE(o.contains("characteristics"));
    CHECK(o["predicted_time_s"] == v["predicted_time_s"]);
    CHECK(o["wait_states"] == v["wait_states"]);
    CHECK(run_augur(trace + "--characteristics maybe").status == 2);
  }

  TEST_CASE("augur --wait-states off predicts the same times without the diagnosis") {
    const fs::path d = temp_dir("nowaits");
    // Message passing (tiny-4): the same predicted time, per-rank times and characteristics; no
    // wait states, causes, positions or advice, and a warning that says so.
    const std::string trace =
        "run --trace ti:" + shared + "/ti-samples/tiny-4/ti_index.txt --machine platform_cluster_64 --jobs 1 ";
    const Result full = run_augur(trace + "--json " + (d / "full.json").string());
    REQUIRE_MESSAGE(full.status == 0, full.err);
    const Result off = run_augur(trace + "--wait-states off --json " + (d / "off.json").string());
    REQUIRE_MESSAGE(off.status == 0, off.err);
    const std::string note = "wait states, root causes and advice not computed (--wait-states off)";
    CHECK(full.out.find("  wait states (s):") != std::string::npos);
    CHECK(full.out.find(note) == std::string::npos);
    CHECK(off.out.find("  wait states (s):") == std::string::npos);
    CHECK(off.out.find("  advice: ") == std::string::npos);
    CHECK(off.out.find("  " + note + "\n") != std::string::npos);
    CHECK(off.out.find("INTERVAL ( NLINE=0 ") != std::string::npos);
    const auto f = nlohmann::json::parse(slurp(d / "full.json"))["variants"][0];
    const auto o = nlohmann::json::parse(slurp(d / "off.json"))["variants"][0];
    CHECK(f.contains("wait_states"));
    CHECK_FALSE(o.contains("wait_states"));
    CHECK(o["warnings"] == nlohmann::json::array({note}));
    CHECK(o["predicted_time_s"] == f["predicted_time_s"]);
    CHECK(o["processors"] == f["processors"]);
    CHECK(o["characteristics"] == f["characteristics"]);
    // Prediction only: with --characteristics off as well, the times alone.
    const Result bare =
        run_augur(trace + "--wait-states off --characteristics off --json " + (d / "bare.json").string());
    REQUIRE_MESSAGE(bare.status == 0, bare.err);
    const auto b = nlohmann::json::parse(slurp(d / "bare.json"))["variants"][0];
    CHECK_FALSE(b.contains("characteristics"));
    CHECK_FALSE(b.contains("wait_states"));
    CHECK(b["predicted_time_s"] == f["predicted_time_s"]);
    CHECK(b["processors"] == f["processors"]);
    CHECK(run_augur(trace + "--wait-states maybe").status == 2);

    // DVM (jac1d on 2x2): the same predicted time and characteristics, no wait states or advice.
    const std::string dvm = "run --trace dvm:" + source +
                            "/scenarios/examples/traces/jac1d/jac1d.ptr --machine dvm_mvs "
                            "--grid 2x2 --jobs 1 ";
    const Result dfull = run_augur(dvm + "--json " + (d / "dfull.json").string());
    REQUIRE_MESSAGE(dfull.status == 0, dfull.err);
    const Result doff = run_augur(dvm + "--wait-states off --json " + (d / "doff.json").string());
    REQUIRE_MESSAGE(doff.status == 0, doff.err);
    CHECK(dfull.out.find("  advice: ") != std::string::npos);
    CHECK(doff.out.find("  advice: ") == std::string::npos);
    CHECK(doff.out.find("  wait states (s):") == std::string::npos);
    CHECK(doff.out.find("  wait states: ") == std::string::npos);
    CHECK(doff.out.find("  " + note + "\n") != std::string::npos);
    const auto df = nlohmann::json::parse(slurp(d / "dfull.json"))["variants"][0];
    const auto dn = nlohmann::json::parse(slurp(d / "doff.json"))["variants"][0];
    CHECK(df.contains("wait_states"));
    CHECK_FALSE(dn.contains("wait_states"));
    CHECK(dn["predicted_time_s"] == df["predicted_time_s"]);
    CHECK(dn["characteristics"] == df["characteristics"]);
  }

  TEST_CASE("augur names the phases of a trace file by the lines of rank 0's global collectives") {
    // One file with both ranks' actions; rank 0's allreduce on line 3, its barrier on line 5, its
    // alltoall (also synchronising) on line 7, its bcast (rooted: no phase boundary) on line 2.
    const fs::path d = temp_dir("phase_lines");
    augur::test::write_file((d / "t.txt").string(),
                            "0 compute 1e6\n0 bcast 8\n0 allreduce 1 0\n0 compute 2e6\n0 barrier\n0 compute 1e6\n"
                            "0 alltoall 8 8\n1 compute 3e6\n1 bcast 8\n1 allreduce 1 0\n1 compute 1e6\n1 barrier\n"
                            "1 compute 1e6\n1 alltoall 8 8\n");
    const Result r =
        run_augur("run --trace 'ti:" + (d / "t.txt").string() + "' --json '" + (d / "t.json").string() + "'");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto main = nlohmann::json::parse(slurp(d / "t.json"))["variants"][0]["characteristics"]["interval"];
    REQUIRE(main["intervals"].size() == 3);  // the empty phase after the alltoall is left out
    CHECK(main["intervals"][0]["source_file"] == "phase 1: from the start to allreduce #1 (t.txt:3)");
    CHECK(main["intervals"][0]["collectives"]["bcast"]["operations"] == 1);
    CHECK(main["intervals"][1]["source_file"] == "phase 2: after allreduce #1 (t.txt:3), before barrier #1 (t.txt:5)");
    CHECK(main["intervals"][2]["source_file"] == "phase 3: after barrier #1 (t.txt:5), before alltoall #1 (t.txt:7)");
    CHECK(main["intervals"][2]["source_line"] == 7);
  }
}

TEST_SUITE("golden") {
  TEST_CASE("augur's text report of a run cut to 64 processors totals over all of them - as the DVM analyzer") {
    // 66 ranks at 1 Gflop/s: rank 65 computes 3 ms, the others 1 ms, then a barrier. Compute over
    // all ranks: 65 × 1 + 3 = 68 ms (64 ms over the 64 shown). Load imbalance (max CPU − own CPU):
    // 2 ms on ranks 0-64, 0 on rank 65: 130 ms, Tmid 130 / 66 = 1.97 ms, Tmax at the last
    // processor reaching 2 ms (number 65 from 1), Tmin at number 66. User CPU: Tmax 3 ms at 66.
    const fs::path d = temp_dir("cut66");
    std::string trace;
    for (int r = 0; r < 66; ++r)
      trace += std::to_string(r) + (r == 65 ? " compute 3e6\n" : " compute 1e6\n") + std::to_string(r) + " barrier\n";
    augur::test::write_file((d / "t.txt").string(), trace);
    augur::test::write_file(
        (d / "m.yaml").string(),
        "{schema_version: 1, model: loggp_smp, cpu_speed: 1Gflops, latency: 1us, bandwidth: 10GBps}\n");
    const Result r =
        run_augur("run --trace 'ti:" + (d / "t.txt").string() + "' --machine '" + (d / "m.yaml").string() + "'");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string& t = r.out;
    auto count = [&](const std::string& what) {
      std::size_t n = 0;
      for (auto at = t.find(what); at != std::string::npos; at = t.find(what, at + 1)) ++n;
      return n;
    };
    // The per-rank and wait-state tables: 64 rows, then what the total row sums.
    CHECK(count("  ... 2 more ranks (see --json); the total is over all 66 ranks\n") == 2);
    CHECK(t.find("\n      63 ") != std::string::npos);
    CHECK(t.find("\n      64 ") == std::string::npos);
    CHECK(t.find("\n   total     0.068000 ") != std::string::npos);
    // The characteristics: the note first, then main and comparative parts over all 66 processors.
    const auto note = t.find(
        "  (main and comparative characteristics over all 66 processors; execution characteristics "
        "of processors 0-63 of 66, all of them in the JSON report)\n");
    REQUIRE(note != std::string::npos);
    CHECK(note < t.find("Processor system=66\n"));
    CHECK(t.find("Processors                          66\n") != std::string::npos);
    CHECK(t.find("Productive time                 0.0680 ( CPU= 0.0680 Sys= 0.0000 I/O= 0.0000 )\n") !=
          std::string::npos);
    CHECK(t.find("Load imbalance                  0.1300\n") != std::string::npos);
    // Processors numbered from 0 as the ranks of the tables above: rank 65 computes longest.
    CHECK(t.find("Processors numbered from 0, as the ranks in the other tables\n") != std::string::npos);
    CHECK(t.find("Load imbalance              0.0000    65     0.0020    64     0.0020 \n") != std::string::npos);
    CHECK(t.find("User CPU time               0.0010     0     0.0030    65     0.0010 \n") != std::string::npos);
    // The execution part lists processors 0-63 only.
    const auto exec = t.find("--- The execution characteristics --- \n");
    REQUIRE(exec != std::string::npos);
    const std::string numbers = t.substr(exec, t.find('\n', t.find('\n', exec) + 1) - exec);
    CHECK(numbers.find("         0 ") != std::string::npos);
    CHECK(numbers.find("        63 ") != std::string::npos);
    CHECK(numbers.find("        64 ") == std::string::npos);
  }
}  // TEST_SUITE
