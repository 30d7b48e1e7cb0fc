// The HTML report and the sweep table through the `augur` executable: contents, self-containment,
// byte-identical output whatever --jobs, and the text report unchanged by the new options.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/analysis/characteristics.hpp"
#include "models/report/html_report.hpp"
#include "models/report/sweep_table.hpp"
#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace fs = std::filesystem;
using augur::test::slurp;

namespace {

const std::string source = AUGUR_SOURCE_DIR;

// Runs augur with `args`; its standard output and error into `out`; returns the exit status.
int run_augur(const std::string& args, const fs::path& out) {
  const augur::test::AugurRun r = augur::test::run_augur(args);
  augur::test::write_file(out.string(), r.out + r.err);
  return r.status;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("The sweep table quotes CSV fields and the HTML report escapes names") {
    // Two ranks for 2 s: compute 1.5 + 1.0, transfer 0.25 + 0, wait 0 + 0.5 → idle 4 − 3.25 = 0.75,
    // efficiency 2.5 / 4 = 0.625, lost = 0.25 + 0.5 + 0.75 = 1.5.
    augur::models::report::VariantResult v;
    v.index = 1;
    v.processors = 2;
    v.machine_name = "a,\"b\" <c>";
    v.machine_model = "loggp_smp";
    v.swept = {{"machine.latency", "1us"}};
    v.outcome = "completed";
    v.predicted_time_s = 2;
    v.lps.resize(2);
    v.lps[0].compute_s = 1.5;
    v.lps[0].transfer_s = 0.25;
    v.lps[1].compute_s = 1.0;
    v.lps[1].wait_s = 0.5;
    const auto rows = augur::models::report::sweep_rows({v});
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].idle_s == doctest::Approx(0.75));
    CHECK(rows[0].efficiency == doctest::Approx(0.625));
    CHECK(rows[0].lost_s == doctest::Approx(1.5));
    CHECK(rows[0].series() == "a,\"b\" <c> latency=1us");
    CHECK(augur::models::report::sweep_csv({v}) ==
          "variant,processors,machine,model,machine.latency,collectives,outcome,predicted_time_s,efficiency,compute_s,"
          "transfer_s,wait_s,idle_s,sleep_s,lost_s,trace\n"
          "1,2,\"a,\"\"b\"\" <c>\",loggp_smp,1us,,completed,2,0.625,2.5,0.25,0.5,0.75,0,1.5,\n");
    const std::string html = augur::models::report::html_report("s<1>", {v});
    CHECK(html.find("a,&quot;b&quot; &lt;c&gt;") != std::string::npos);
    CHECK(html.find("<c>") == std::string::npos);
    CHECK(html.find("<title>augur: s&lt;1&gt;</title>") != std::string::npos);
    CHECK(html.find("<h3>Characteristics</h3>") == std::string::npos);  // no interval tree
  }

  TEST_CASE("The HTML report has a Links table for a flow-level network run - and none otherwise") {
    // T = 2 s; link <x> of 1e9 B/s carried 5e8 B: utilisation 5e8 / (1e9 x 2) = 25.0 %, busy 1.5 s = 75.0 %.
    augur::models::report::VariantResult v;
    v.index = 1;
    v.processors = 2;
    v.machine_model = "flow_network";
    v.outcome = "completed";
    v.predicted_time_s = 2;
    v.lps.resize(2);
    v.lps[0].compute_s = 1;
    CHECK(augur::models::report::html_report("s", {v}).find("<h3>Links</h3>") == std::string::npos);
    v.links = {{"<x>", "shared", 1e9, 5e8, 1.5, 4}, {"idle", "shared", 1e9, 0, 0, 0}};
    const std::string html = augur::models::report::html_report("s", {v});
    CHECK(html.find("<h3>Links</h3>") != std::string::npos);
    CHECK(html.find("<tr><td>&lt;x&gt;</td><td>shared</td><td class=\"n\">1e+09</td><td class=\"n\">500000000</td>"
                    "<td class=\"n\">25.0 %</td><td class=\"n\">1.500000</td><td class=\"n\">75.0 %</td>"
                    "<td class=\"n\">4</td></tr>") != std::string::npos);
    CHECK(html.find("<td>idle</td>") == std::string::npos);  // carried nothing
  }

  TEST_CASE("DVM variants take the sweep row and the HTML summary from Main's characteristics - with the grid") {
    // Two processors (grid 2) for 2 s of execution on processor 0 and 1.5 s on processor 1:
    //   p0: CPU usr 1.5 (0.5 of it insufficient parallelism), communication 0.5 (real sync 0.25);
    //   p1: CPU usr 1.0 (0.5 insufficient), I/O 0.25, communication 0.25 (real sync 0).
    // Idle: p0 0, p1 2 − 1.5 = 0.5. Total = 2 × 2 = 4. Productive = (2.5 − 1) + 0.25 = 1.75;
    // efficiency 1.75 / 4 = 0.4375. Lost = insufficient 1 + communication 0.75 + idle 0.5 = 2.25
    // (= 4 − 1.75). Transfer = communication − real sync = 0.5; wait = 0.25.
    auto tree = std::make_shared<augur::models::analysis::IntervalTree>(2, "a.cdv", 7);
    auto& p0 = tree->root().proc(0);
    p0.execution = 2.0, p0.cpu_usr = 1.5, p0.insuff_usr = 0.5, p0.communication = 0.5, p0.real_sync = 0.25;
    p0.lost = 0.5 + 0.5;
    auto& p1 = tree->root().proc(1);
    p1.execution = 1.5, p1.cpu_usr = 1.0, p1.insuff_usr = 0.5, p1.io = 0.25, p1.communication = 0.25;
    p1.lost = 0.5 + 0.25;
    tree->root().operations[static_cast<std::size_t>(augur::models::analysis::OpKind::shadow)] = 3;
    augur::models::analysis::IntervalTree::close_interval(tree->root(), {0, 1});
    tree->integrate(augur::models::analysis::IntegrateRule::predictor);
    augur::models::report::VariantResult v;
    v.index = 1;
    v.processors = 2;
    v.grid = "2";
    v.machine_name = "m";
    v.machine_model = "dvm_cluster";
    v.collectives = "dvm";
    v.outcome = "completed";
    v.predicted_time_s = 2;
    v.intervals = tree;
    augur::models::report::VariantResult w = v;  // the same run on a 2-D grid
    w.index = 2;
    w.grid = "1x2";
    const auto rows = augur::models::report::sweep_rows({v, w});
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].grid == "2");
    CHECK(rows[0].efficiency == doctest::Approx(0.4375));
    CHECK(rows[0].compute_s == doctest::Approx(1.75));
    CHECK(rows[0].transfer_s == doctest::Approx(0.5));
    CHECK(rows[0].wait_s == doctest::Approx(0.25));
    CHECK(rows[0].idle_s == doctest::Approx(0.5));
    CHECK(rows[0].insufficient_s == doctest::Approx(1.0));
    CHECK(rows[0].lost_s == doctest::Approx(2.25));
    CHECK(rows[0].series() == "m 1-D");
    CHECK(rows[1].series() == "m 2-D");
    CHECK(augur::models::report::sweep_csv({v, w}) ==
          "variant,processors,grid,machine,model,collectives,outcome,predicted_time_s,efficiency,compute_s,transfer_s,"
          "wait_s,idle_s,insufficient_s,sleep_s,lost_s,trace\n"
          "1,2,2,m,dvm_cluster,dvm,completed,2,0.4375,1.75,0.5,0.25,0.5,1,0,2.25,\n"
          "2,2,1x2,m,dvm_cluster,dvm,completed,2,0.4375,1.75,0.5,0.25,0.5,1,0,2.25,\n");
    const auto json = augur::models::report::sweep_json("s", {v, w});
    CHECK(json["columns"].dump() ==
          "[\"variant\",\"processors\",\"grid\",\"machine\",\"model\",\"swept\",\"collectives\",\"outcome\","
          "\"predicted_time_s\",\"efficiency\",\"compute_s\",\"transfer_s\",\"wait_s\",\"idle_s\",\"insufficient_s\","
          "\"sleep_s\",\"lost_s\",\"trace\"]");
    CHECK(json["rows"][1]["grid"] == "1x2");
    CHECK(json["rows"][0]["efficiency"].get<double>() == doctest::Approx(0.4375));
    CHECK(json["rows"][0]["insufficient_s"].get<double>() == doctest::Approx(1.0));
    const std::string html = augur::models::report::html_report("s", {v, w});
    CHECK(html.find("<h2>Variant 2: 2 processors (grid 1x2), m</h2>") != std::string::npos);
    CHECK(html.find("<a href=\"#v2\" title=\"2 processors (grid 1x2), m\">2</a>") != std::string::npos);
    CHECK(html.find("<tr><th>Processor grid</th><td>2</td></tr>") != std::string::npos);
    CHECK(html.find("<tr><th>Efficiency</th><td>43.8 % ") != std::string::npos);
    CHECK(html.find("<tr><th>Lost time</th><td>2.250000 s (insufficient parallelism 1.000000 s, communication "
                    "0.750000 s, idle 0.500000 s)</td></tr>") != std::string::npos);
    CHECK(html.find("<tr><th>Operations</th><td>Shadow 3</td></tr>") != std::string::npos);
    CHECK(html.find("<th>Messages</th>") == std::string::npos);
    CHECK(html.find("<th>grid</th>") != std::string::npos);
    CHECK(html.find("<td>1x2</td>") != std::string::npos);
    CHECK(html.find("<svg id=\"v1-processors\"") != std::string::npos);  // bars from the characteristics
    // A message-passing table has neither the grid nor the insufficient-parallelism column.
    augur::models::report::VariantResult mp;
    mp.lps.resize(1);
    CHECK(augur::models::report::sweep_csv({mp}).find("grid") == std::string::npos);
    CHECK(augur::models::report::sweep_csv({mp}).find("insufficient_s") == std::string::npos);
  }
  TEST_CASE("augur shows a skeleton sweep's static estimate beside the simulated time in the HTML report") {
    // wave3d.yaml: N = 64, 128, 256 at 1, 8 and 64 processors, 9 skeleton variants.
    const fs::path d = augur::test::scratch_dir("augur_html_test_", "static");
    REQUIRE(run_augur("run '" + source + "/scenarios/examples/wave3d.yaml' --jobs 2 --html '" +
                          (d / "r.html").string() + "' --json '" + (d / "r.json").string() + "'",
                      d / "r.txt") == 0);
    const std::string html = slurp(d / "r.html");
    const auto report = nlohmann::json::parse(slurp(d / "r.json"));
    REQUIRE(report["variants"].size() == 9);
    CHECK(count(html, "<th>static estimate (s)</th>") == 1);  // the sweep table's column
    CHECK(count(html, "<h3>Static estimate (seed 002)</h3>") == 9);
    // The time plot: a simulated line per N and its static line; the efficiency plot: the simulated ones.
    CHECK(count(html, "<polyline") == 3 + 3 + 3);
    for (const char* n : {"64", "128", "256"})
      CHECK(count(html, std::string(">platform_cluster_64 program.N=") + n + " static</text>") == 1);
    for (const auto& v : report["variants"]) {
      const auto& program = v["static"]["program"];
      // The variant's sentence carries the JSON's figures (6 decimals, as the text report).
      const std::string sentence = fmt::format("<p>Simulated {:.6f} s, static {:.6f} s",
                                               v["predicted_time_s"].get<double>(), program["static_s"].get<double>());
      CHECK(count(html, sentence) >= 1);
      // The program's row: flops, then the bytes loaded and stored, messages, sent, received and calls.
      const std::string row = fmt::format(
          "<tr class=\"total\"><td>program</td><td class=\"n\">{:.6g}</td><td class=\"n\">{}</td>"
          "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
          "<td class=\"n\">{}</td>",
          program["flops"].get<double>(), program["bytes_loaded"].get<std::uint64_t>(),
          program["bytes_stored"].get<std::uint64_t>(), program["messages"].get<std::uint64_t>(),
          program["bytes_sent"].get<std::uint64_t>(), program["bytes_received"].get<std::uint64_t>(),
          program["mpi_calls"].get<std::uint64_t>());
      CHECK(count(html, row) >= 1);
    }
    // One process: no messages; 64 processes: each of the 64 ranks' rows (at most 256 listed).
    CHECK(report["variants"][0]["static"]["program"]["messages"] == 0);
  }
}  // TEST_SUITE

TEST_SUITE("golden") {
  TEST_CASE("augur writes the HTML report and the sweep table of a processor sweep") {
    const fs::path d = augur::test::scratch_dir("augur_html_test_", "sweep");
    const std::string scenario = "'" + source + "/scenarios/examples/default.yaml'";
    auto outputs = [&](const std::string& tag) {
      return " --html '" + (d / (tag + ".html")).string() + "' --csv '" + (d / (tag + ".csv")).string() +
             "' --sweep-json '" + (d / (tag + ".sweep.json")).string() + "' --json '" + (d / (tag + ".json")).string() +
             "'";
    };
    REQUIRE(run_augur("run " + scenario + " --jobs 1" + outputs("a"), d / "a.txt") == 0);
    REQUIRE(run_augur("run " + scenario + " --jobs 3" + outputs("b"), d / "b.txt") == 0);
    REQUIRE(run_augur("run " + scenario + " --jobs 1 --json '" + (d / "plain.json").string() + "'", d / "plain.txt") ==
            0);
    // Same bytes whatever the number of workers; the text and JSON reports do not change.
    for (const char* ext : {".html", ".csv", ".sweep.json", ".txt", ".json"}) {
      CAPTURE(ext);
      CHECK(slurp(d / (std::string("a") + ext)) == slurp(d / (std::string("b") + ext)));
    }
    CHECK(slurp(d / "a.txt") == slurp(d / "plain.txt"));
    CHECK(slurp(d / "a.json") == slurp(d / "plain.json"));

    // The sweep table: one row per variant, the predicted times of the JSON report.
    const auto report = nlohmann::json::parse(slurp(d / "a.json"));
    const auto sweep = nlohmann::json::parse(slurp(d / "a.sweep.json"));
    REQUIRE(sweep["rows"].size() == 3);
    const std::string csv = slurp(d / "a.csv");
    CHECK(csv.rfind("variant,processors,machine,model,collectives,outcome,predicted_time_s,efficiency,compute_s,"
                    "transfer_s,wait_s,idle_s,sleep_s,lost_s,trace\n",
                    0) == 0);
    CHECK(count(csv, "\n") == 4);
    for (std::size_t i = 0; i < 3; ++i) {
      const auto& row = sweep["rows"][i];
      const auto& v = report["variants"][i];
      CHECK(row["processors"] == v["processor_count"]);
      CHECK(row["predicted_time_s"].get<double>() == v["predicted_time_s"].get<double>());
      const double total = v["predicted_time_s"].get<double>() * v["processor_count"].get<double>();
      CHECK(row["efficiency"].get<double>() == doctest::Approx(v["totals"]["compute_s"].get<double>() / total));
      CHECK(row["compute_s"].get<double>() + row["transfer_s"].get<double>() + row["wait_s"].get<double>() +
                row["idle_s"].get<double>() + row["sleep_s"].get<double>() ==
            doctest::Approx(total));
      CHECK(csv.find("\n" + std::to_string(i + 1) + "," + std::to_string(row["processors"].get<int>()) + ",") !=
            std::string::npos);
    }

    // The HTML: self-contained (no scripts, no external resources), both plots, every section.
    const std::string html = slurp(d / "a.html");
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find(" src=") == std::string::npos);
    CHECK(count(html, "http") == count(html, "http://www.w3.org/2000/svg"));  // only the SVG namespace
    CHECK(count(html, "<svg id=\"scalability-time\"") == 1);
    CHECK(count(html, "<svg id=\"scalability-efficiency\"") == 1);
    CHECK(count(html, "<polyline") == 2);  // one line per machine: one machine, two plots
    for (int v = 1; v <= 3; ++v) {
      CHECK(html.find("<section id=\"v" + std::to_string(v) + "\">") != std::string::npos);
      CHECK(html.find("<svg id=\"v" + std::to_string(v) + "-processors\"") != std::string::npos);
    }
    CHECK(count(html, "<h3>Characteristics</h3>") == 3);
    // Per variant Main and the stencil's 6 phases between its allreduces and barrier (the 5 identical
    // ones of its set-up merged), each a characteristics block.
    CHECK(count(html, ") LEVEL=0 EXE_COUNT=1</h4>") == 3);
    CHECK(count(html, " TYPE=Phase</h4>") == 18);
    CHECK(count(html,
                "INTERVAL (NLINE=11 SOURCE=phase 3 (+4 alike): after allreduce #2 (rank0.txt.zst:9), before "
                "allreduce #3 (rank0.txt.zst:11)) LEVEL=1 EXE_COUNT=5 TYPE=Phase</h4>") == 3);
    CHECK(count(html, ">phase 1: from the start to allreduce #1 (rank0.txt.zst:3)</a>") == 3);
    CHECK(count(html, "<h3>Wait states</h3>") == 3);
    CHECK(count(html, "class=\"root-causes\"") == 3);
    CHECK(count(html, "<h4>Waiting by code position</h4>") == 3);
    CHECK(count(html, "<th title=\"direct waiting of others on this one\">caused (s)</th>") == 3);
    CHECK(count(html, "<h4>Advice</h4>") == 3);
    CHECK(html.find("<td>Allreduce</td>") != std::string::npos);
    CHECK(html.find("<td>Point-to-point</td>") != std::string::npos);
  }

  TEST_CASE("augur reports the bundled DVM scenario's variants with their grids and Main's figures") {
    const fs::path d = augur::test::scratch_dir("augur_html_test_", "dvm");
    REQUIRE(run_augur("run '" + source + "/scenarios/examples/dvm_jacobi.yaml' --jobs 2 --html '" +
                          (d / "r.html").string() + "' --csv '" + (d / "r.csv").string() + "' --sweep-json '" +
                          (d / "s.json").string() + "' --json '" + (d / "r.json").string() + "'",
                      d / "r.txt") == 0);
    const auto report = nlohmann::json::parse(slurp(d / "r.json"));
    const auto sweep = nlohmann::json::parse(slurp(d / "s.json"));
    const std::vector<std::string> grids{"1", "2", "4", "2x2", "4x4"};
    REQUIRE(sweep["rows"].size() == grids.size());
    for (std::size_t i = 0; i < grids.size(); ++i) {
      CAPTURE(i);
      const auto& row = sweep["rows"][i];
      const auto& main = report["variants"][i]["characteristics"]["interval"];
      CHECK(row["grid"] == grids[i]);
      CHECK(report["variants"][i]["grid"] == grids[i]);
      // Main's characteristics, not the (empty) per-rank statistics of a DVM run.
      CHECK(row["efficiency"].get<double>() == main["efficiency"].get<double>());
      CHECK(row["lost_s"].get<double>() == main["lost_time"].get<double>());
      CHECK(row["idle_s"].get<double>() == main["idle_time"].get<double>());
      CHECK(row["compute_s"].get<double>() == main["productive_time"]["total"].get<double>());
      CHECK(row["predicted_time_s"].get<double>() == main["execution_time"].get<double>());
      CHECK(row["compute_s"].get<double>() + row["transfer_s"].get<double>() + row["wait_s"].get<double>() +
                row["idle_s"].get<double>() + row["insufficient_s"].get<double>() ==
            doctest::Approx(main["total_time"].get<double>()));
    }
    // Golden: jac1d on 2x2 as `augur predict` and Predictor 3.1 give it (efficiency 0.2415).
    CHECK(sweep["rows"][3]["efficiency"].get<double>() == doctest::Approx(0.2415081450885906).epsilon(1e-12));
    CHECK(sweep["rows"][0]["efficiency"].get<double>() == 1.0);
    const std::string csv = slurp(d / "r.csv");
    CHECK(csv.rfind("variant,processors,grid,machine,model,collectives,outcome,predicted_time_s,efficiency,compute_s,"
                    "transfer_s,wait_s,idle_s,insufficient_s,sleep_s,lost_s,trace\n",
                    0) == 0);
    CHECK(csv.find("\n4,4,2x2,dvm_mvs,dvm_cluster,dvm,completed,0.0085257787") != std::string::npos);
    const std::string html = slurp(d / "r.html");
    CHECK(html.find("<h2>Variant 4: 4 processors (grid 2x2), dvm_mvs</h2>") != std::string::npos);
    CHECK(html.find("<tr><th>Efficiency</th><td>24.2 % ") != std::string::npos);
    CHECK(html.find("<tr><th>Efficiency</th><td>0.0 %") == std::string::npos);
    CHECK(html.find("<tr><th>Operations</th><td>I/O 14, Reduction 11, Shadow 11</td></tr>") != std::string::npos);
    // The diagnosis of each DVM variant: the processors wait for processor 0 (which prints) at
    // the reductions; in the sweep table that waiting is the wait column, the rest of the
    // communication the transfer column.
    CHECK(count(html, "<h3>Wait states</h3>") == 5);
    CHECK(count(html, "<h4>Advice</h4>") == 5);
    CHECK(html.find("<td>I/O at jac1d.cdv:48</td>") != std::string::npos);
    CHECK(sweep["rows"][0]["wait_s"].get<double>() == 0.0);
    const double waits_2x2 = report["variants"][3]["wait_states"]["patterns"]["wait_at_nxn"]["total_s"].get<double>();
    CHECK(waits_2x2 > 0.0);
    CHECK(sweep["rows"][3]["wait_s"].get<double>() == waits_2x2);
    CHECK(count(html, "<svg id=\"v") == 5);  // a bar chart per variant
    CHECK(count(html, "<polyline") == 4);    // 1-D and 2-D grids: two lines in each of the two plots
  }

  TEST_CASE("augur plots a parameter sweep at one processor count against the swept values") {
    const fs::path d = augur::test::scratch_dir("augur_html_test_", "latency");
    REQUIRE(run_augur("run '" + source + "/scenarios/examples/latency_sweep.yaml' --jobs 2 --html '" +
                          (d / "r.html").string() + "' --csv '" + (d / "r.csv").string() + "'",
                      d / "r.txt") == 0);
    const std::string csv = slurp(d / "r.csv");
    CHECK(csv.rfind("variant,processors,machine,model,machine.latency,collectives,", 0) == 0);
    CHECK(count(csv, "\n") == 4);
    CHECK(csv.find(",100us,") != std::string::npos);
    const std::string html = slurp(d / "r.html");
    CHECK(html.find("variant (4 processors)") != std::string::npos);
    CHECK(html.find(">100us</text>") != std::string::npos);
  }

  TEST_CASE("augur reports TI location regions as User intervals in the HTML report") {
    // Two ranks, two regions: a.c:10 entered twice, a.c:20 once (1 Gflop/s: 1e6 flops = 1 ms).
    const fs::path d = augur::test::scratch_dir("augur_html_test_", "regions");
    augur::test::write_file((d / "t.txt").string(),
                            "0 location a.c 10\n0 compute 3e6\n0 location a.c 20\n0 compute 1e6\n0 location a.c 10\n"
                            "0 compute 3e6\n0 barrier\n"
                            "1 location a.c 10\n1 compute 1e6\n1 location a.c 20\n1 compute 2e6\n1 location a.c 10\n"
                            "1 compute 1e6\n1 barrier\n");
    augur::test::write_file(
        (d / "m.yaml").string(),
        "{schema_version: 1, model: loggp_smp, cpu_speed: 1Gflops, latency: 1us, bandwidth: 10GBps}\n");
    REQUIRE(run_augur("run --trace 'ti:" + (d / "t.txt").string() + "' --machine '" + (d / "m.yaml").string() +
                          "' --html '" + (d / "r.html").string() + "'",
                      d / "r.txt") == 0);
    const std::string html = slurp(d / "r.html");
    CHECK(html.find("INTERVAL (NLINE=10 SOURCE=a.c) LEVEL=1 EXE_COUNT=2 TYPE=User") != std::string::npos);
    CHECK(html.find("INTERVAL (NLINE=20 SOURCE=a.c) LEVEL=1 EXE_COUNT=1 TYPE=User") != std::string::npos);
    CHECK(html.find(">a.c:10</a>") != std::string::npos);
    CHECK(html.find("id=\"sweep\"") == std::string::npos);  // one variant: no sweep section
  }
}  // TEST_SUITE
