// Lib-DVM traces on which the original Predictor crashes (../shared/dvm-samples/README.md, facts
// 6 and 7; issue 3): ACROSS loops on 1-D grids, runam_/stopam_ without getam_, setelw_ without
// weights; and bad input: setelw_ weights that are negative, cut short, too few or all 0, handles
// no creating call returned, loops with a zero step, outside their pattern or empty. Hand-made
// traces in tests/tools/fixtures/dvm/ run through `augur run`: each gives a result whose figures
// are checked by hand (with the exact warning when the input is legal but odd), or the exact
// `file:line: error:` and exit status 2, never a crash or a silently lost time.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

using augur::test::AugurRun;
using augur::test::run_augur_in;
using augur::test::slurp;

namespace {

const std::string fixtures = std::string(AUGUR_SOURCE_DIR) + "/tests/tools/fixtures/dvm";
const std::string mvs = std::string(AUGUR_SHARED_DIR) + "/dvm-samples/Predictor.mvs.par";

/// `augur run` of a fixture (named relative to the fixtures folder, as errors then name it) on
/// `grid`, the full report on stdout (--detail), the JSON report in `json` when given.
AugurRun run_fixture(const std::string& trace, const std::string& grid, const std::string& json = "") {
  return run_augur_in(fixtures, "run --detail --trace 'dvm:" + trace + "' --machine '" + mvs + "' --grid " + grid +
                                    (json.empty() ? std::string() : " --json '" + json + "'"));
}

/// The report root's figures of the JSON report's only variant.
nlohmann::json root_interval(const std::string& json) {
  const auto doc = nlohmann::json::parse(slurp(json));
  const auto& v = doc.at("variants").at(0);
  REQUIRE(v.at("outcome") == "completed");
  return v.at("characteristics").at("interval");
}

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("augur models an ACROSS loop on 1-D grids where Predictor 3.1 divides by zero") {
    // across_1d.ptr: a 64-element array on a 1-D template, an ACROSS loop over 1..62 (shadow groups
    // of width 1 below and above), whose iterations took 2 ms (the second dopl_'s call TIME) after
    // a first dopl_ call of 1 us.
    const augur::test::TempDir d;
    REQUIRE(run_fixture("across_1d.ptr", "1", d.file("1.json")).status == 0);
    const auto one = root_interval(d.file("1.json"));
    const double e1 = one.at("execution_time").get<double>();
    CHECK(one.at("efficiency").get<double>() == doctest::Approx(1.0));
    CHECK(one.at("collectives").at("shadow").at("operations").get<int>() >= 1);
    // BLOCK pieces of 64 / P elements; the largest loop block has b iterations of 62, and dopl_
    // divides the loop's time (2 ms + 1 us) by it: nothing of the pipeline can make the run shorter
    // than E1 - 2.001 ms * (62 - b) / 62, and P processors make it shorter than one.
    const struct {
      const char* grid;
      int block;
    } grids[] = {{"2", 31}, {"4", 16}, {"8", 8}};
    double previous = e1;
    for (const auto& g : grids) {
      INFO("grid " << g.grid);
      const std::string json = d.file(std::string(g.grid) + ".json");
      const AugurRun r = run_fixture("across_1d.ptr", g.grid, json);
      REQUIRE_MESSAGE(r.status == 0, r.err);
      const auto root = root_interval(json);
      const double e = root.at("execution_time").get<double>();
      const double floor = e1 - 0.002001 * (62 - g.block) / 62;
      CHECK(e >= floor - 1e-12);
      CHECK(e < previous);
      previous = e;
      const double efficiency = root.at("efficiency").get<double>();
      CHECK(efficiency > 0);
      CHECK(efficiency <= 1);
      CHECK(root.at("collectives").at("shadow").at("operations").get<int>() >= 1);
    }
    // A 2-D grid with the 1-D array: split along the first dimension, replicated along the second.
    const AugurRun two_d = run_fixture("across_1d.ptr", "2x2", d.file("2x2.json"));
    REQUIRE_MESSAGE(two_d.status == 0, two_d.err);
    CHECK(root_interval(d.file("2x2.json")).at("execution_time").get<double>() >= e1 - 0.002001 * 31 / 62 - 1e-12);
  }

  TEST_CASE("augur runs a task-parallel trace whose runam_ and stopam_ come without getam_") {
    // runam_without_getam.ptr: Fortran-style tasks (crtps_, getamr_, mapam_, runam_ ... stopam_, no
    // getam_ anywhere), recorded on one processor: both tasks are mapped on processor [0..0]; the
    // last stopam_ has no runam_ left to end and is ignored.
    const augur::test::TempDir d;
    REQUIRE(run_fixture("runam_without_getam.ptr", "1", d.file("1.json")).status == 0);
    const double e1 = root_interval(d.file("1.json")).at("execution_time").get<double>();
    CHECK(e1 > 0.001);  // the first task's loop alone took 1 ms
    for (const int p : {2, 4}) {
      INFO("grid " << p);
      const std::string json = d.file(std::to_string(p) + ".json");
      const AugurRun r = run_fixture("runam_without_getam.ptr", std::to_string(p), json);
      REQUIRE_MESSAGE(r.status == 0, r.err);
      // Every task runs where the trace maps it (processor 0): the same execution time, the other
      // processors idle, efficiency 1/P.
      const auto root = root_interval(json);
      CHECK(root.at("execution_time").get<double>() == doctest::Approx(e1).epsilon(1e-12));
      CHECK(root.at("efficiency").get<double>() == doctest::Approx(1.0 / p).epsilon(1e-9));
    }
    // The trace's subsystems are 1-D: on a 2-D grid crtps_ is refused with its line.
    // The function's name once (the model's message names crtps_ as well: it is not repeated).
    const AugurRun r = run_fixture("runam_without_getam.ptr", "2x2");
    CHECK(r.status == 2);
    CHECK(r.err == "runam_without_getam.ptr:23: error: crtps_: 1 initial and 1 last indices for a parent of rank 2\n");
  }

  TEST_CASE("augur stops with file and line when runam_ names an abstract machine never mapped") {
    // runam_unmapped.ptr: the second task's mapam_ is missing.
    for (const char* grid : {"1", "4"}) {
      INFO("grid " << grid);
      const AugurRun r = run_fixture("runam_unmapped.ptr", grid);
      CHECK(r.status == 2);
      CHECK(r.err ==
            "runam_unmapped.ptr:137: error: runam_: abstract machine a300 was never mapped on a processor system "
            "(mapam_)\n");
      CHECK(r.out.find("run ended by error:") != std::string::npos);
    }
  }

  TEST_CASE("augur stops with file and line at setelw_ without weights and distributes by the weights otherwise") {
    // setelw_without_weights.ptr: a WGT_BLOCK program traced without LoadWeightTrace=1 (fact 7).
    for (const char* grid : {"1", "2", "4"}) {
      INFO("grid " << grid);
      const AugurRun r = run_fixture("setelw_without_weights.ptr", grid);
      CHECK(r.status == 2);
      CHECK(r.err ==
            "setelw_without_weights.ptr:28: error: setelw_ without WeightNumber: record the trace with "
            "LoadWeightTrace=1; WeightArrayTrace=1;\n");
    }
    // setelw_with_weights.ptr: 16 elements, LoadWeight 3 1 1 1, a loop over all of them that took
    // 1.6 ms (+ 1 us of the first dopl_ call). Predictor 3.1 takes LoadWeight[0 .. s-1] as the
    // coordinate weights: on 2 processors 3 : 1, processor 0 holds 12 elements; on 4 processors
    // 3 : 1 : 1 : 1, pieces of 16/6 elements, processor 0 holds 8.
    const augur::test::TempDir d;
    REQUIRE(run_fixture("setelw_with_weights.ptr", "1", d.file("1.json")).status == 0);
    const double e1 = root_interval(d.file("1.json")).at("execution_time").get<double>();
    REQUIRE(run_fixture("setelw_with_weights.ptr", "2", d.file("2.json")).status == 0);
    REQUIRE(run_fixture("setelw_with_weights.ptr", "4", d.file("4.json")).status == 0);
    const double e2 = root_interval(d.file("2.json")).at("execution_time").get<double>();
    CHECK(e2 == doctest::Approx(e1 - 0.001601 * (16 - 12) / 16).epsilon(1e-12));
    CHECK(root_interval(d.file("4.json")).at("execution_time").get<double>() ==
          doctest::Approx(e1 - 0.001601 * (16 - 8) / 16).epsilon(1e-12));
    // The same trace without setelw_: equal halves of 8 elements, a shorter run.
    std::string trace = slurp(fixtures + "/setelw_with_weights.ptr");
    const auto from = trace.find("call_setelw_"), to = trace.find("call_distr_");
    REQUIRE(from != std::string::npos);
    REQUIRE(to > from);
    trace.erase(from, to - from);
    augur::test::write_file(d.file("plain.ptr"), trace);
    REQUIRE(run_augur_in(d.path.string(), "run --trace dvm:plain.ptr --machine '" + mvs + "' --grid 1 --json p1.json")
                .status == 0);
    REQUIRE(run_augur_in(d.path.string(), "run --trace dvm:plain.ptr --machine '" + mvs + "' --grid 2 --json p2.json")
                .status == 0);
    const double p1 = root_interval(d.file("p1.json")).at("execution_time").get<double>();
    const double p2 = root_interval(d.file("p2.json")).at("execution_time").get<double>();
    CHECK(p2 == doctest::Approx(p1 - 0.001601 * 8 / 16).epsilon(1e-12));
    CHECK(p2 < e2);
  }

  TEST_CASE("augur stops at setelw_ with a negative weight or fewer LoadWeight values than WeightNumber says") {
    // The DVM runtime rejects negative load weights (RTS err 032.092) whatever the grid.
    for (const char* grid : {"1", "2", "4", "8"}) {
      INFO("grid " << std::string(grid));
      const AugurRun r = run_fixture("setelw_negative_weight.ptr", grid);
      CHECK(r.status == 2);
      CHECK(r.err ==
            "setelw_negative_weight.ptr:28: error: setelw_: LoadWeight[2]=-1 is negative (the DVM runtime "
            "rejects negative load weights)\n");
      // setelw_cut_short.ptr: WeightNumber[0]=8 with LoadWeight[0..3] only.
      const AugurRun cut = run_fixture("setelw_cut_short.ptr", grid);
      CHECK(cut.status == 2);
      CHECK(cut.err ==
            "setelw_cut_short.ptr:28: error: setelw_: WeightNumber[0]=8 but the call has 4 LoadWeight values "
            "(a cut trace?)\n");
    }
  }

  TEST_CASE("augur divides equally - with a warning - where the DVM runtime does not use setelw_'s weights") {
    const augur::test::TempDir d;
    // setelw_with_weights.ptr on 8 processors: 4 weights for 8 coordinates. The runtime solves its
    // partition only with WeightNumber >= the dimension's size; otherwise BLOCK pieces of 2: the
    // largest holds 2 of the 16 iterations, E8 = E1 - 1.601 ms * 14/16 at most (communication none).
    REQUIRE(run_fixture("setelw_with_weights.ptr", "1", d.file("1.json")).status == 0);
    const double e1 = root_interval(d.file("1.json")).at("execution_time").get<double>();
    const AugurRun eight = run_fixture("setelw_with_weights.ptr", "8", d.file("8.json"));
    REQUIRE(eight.status == 0);
    CHECK(eight.out.find("  setelw_with_weights.ptr:28: warning: setelw_: WeightNumber[0]=4 load weights for the 8 "
                         "processors of grid dimension 0: the DVM runtime does not use them, the dimension is divided "
                         "equally\n") != std::string::npos);
    CHECK(root_interval(d.file("8.json")).at("execution_time").get<double>() ==
          doctest::Approx(e1 - 0.001601 * 14 / 16).epsilon(1e-12));
    // setelw_zero_weights.ptr: LoadWeight 0 0 0 0. The runtime's partition of zero loads
    // gives every coordinate the same weight: equal halves on 2 processors, the loop's time kept
    // (before: every block empty, the 1.6 ms lost even on one processor).
    const AugurRun z1 = run_fixture("setelw_zero_weights.ptr", "1", d.file("z1.json"));
    REQUIRE(z1.status == 0);
    CHECK(root_interval(d.file("z1.json")).at("execution_time").get<double>() == doctest::Approx(e1).epsilon(1e-12));
    const AugurRun z2 = run_fixture("setelw_zero_weights.ptr", "2", d.file("z2.json"));
    REQUIRE(z2.status == 0);
    CHECK(z2.out.find("  setelw_zero_weights.ptr:28: warning: setelw_: the load weights of grid dimension 0 are all 0: "
                      "the dimension is divided equally, as the DVM runtime does\n") != std::string::npos);
    CHECK(root_interval(d.file("z2.json")).at("execution_time").get<double>() ==
          doctest::Approx(e1 - 0.001601 * 8 / 16).epsilon(1e-12));
    // The warning is given once, in the JSON report as well.
    const auto doc = nlohmann::json::parse(slurp(d.file("z2.json")));
    CHECK(doc.at("variants").at(0).at("warnings").size() == 1);
  }

  TEST_CASE("augur stops with file and line when a call names a shadow group - reduction group or loop never created") {
    // loop_groups.ptr: a loop over 1..14 of a 16-element array, with a shadow renewal before it and
    // a reduction after it, every handle returned by its creating call: a result on every grid.
    for (const char* grid : {"1", "2", "4"}) {
      INFO("grid " << std::string(grid));
      const AugurRun ok = run_fixture("loop_groups.ptr", grid);
      CHECK_MESSAGE(ok.status == 0, ok.err);
      CHECK(ok.err.empty());
      const struct {
        const char* trace;
        const char* message;
      } bad[] = {
          {"shadow_unknown_group.ptr",
           "shadow_unknown_group.ptr:67: error: strtsh_: ShadowGroupRef=5200 is not a shadow group (no crtshg_ "
           "returned "
           "it)\n"},
          {"reduction_unknown_group.ptr",
           "reduction_unknown_group.ptr:125: error: strtrd_: RedGroupRef=6200 is not a reduction group (no crtrg_ "
           "returned it)\n"},
          {"loop_unknown_ref.ptr",
           "loop_unknown_ref.ptr:113: error: dopl_: LoopRef=e200 is not a parallel loop (no crtpl_ returned it)\n"},
      };
      for (const auto& b : bad) {
        INFO(b.trace);
        const AugurRun r = run_fixture(b.trace, grid);
        CHECK(r.status == 2);
        CHECK(r.err == b.message);
      }
    }
  }

  TEST_CASE(
      "augur stops at a mappl_ whose step is 0 or whose range leaves its pattern, and keeps an empty loop's time") {
    for (const char* grid : {"1", "4"}) {
      INFO("grid " << std::string(grid));
      // The model's own message ("mappl_: InStepArray…") with the function's name once.
      const AugurRun zero = run_fixture("loop_zero_step.ptr", grid);
      CHECK(zero.status == 2);
      CHECK(zero.err == "loop_zero_step.ptr:82: error: mappl_: InStepArray[0]=0 (a loop step must not be 0)\n");
      // 1..16 over an array of 16 (RTS err 060.027): before, iteration 16 had no owner and its
      // share of the loop's time was lost.
      const AugurRun out = run_fixture("loop_outside_array.ptr", grid);
      CHECK(out.status == 2);
      CHECK(out.err ==
            "loop_outside_array.ptr:82: error: mappl_: loop axis 0 (InInitIndexArray[0]=1, "
            "InLastIndexArray[0]=16, InStepArray[0]=1) takes the value 16: CoeffArray[0]=1 * 16 + "
            "ConstArray[0]=0 = 16 lies outside dimension 0 of the pattern, [0, 15]\n");
    }
    // loop_empty.ptr: loop_groups.ptr with 14..1 step 1, which the runtime maps as an empty loop.
    // Its dopl_ times (1.4 ms + 1 us + 2.5 us) are ordinary calls: on one processor the same time
    // as the loop of loop_groups.ptr (whose single processor runs all of it), on 2 and 4 processors
    // every processor runs them (before: the 1.4 ms were dropped on every grid).
    const augur::test::TempDir d;
    REQUIRE(run_fixture("loop_groups.ptr", "1", d.file("g1.json")).status == 0);
    const double g1 = root_interval(d.file("g1.json")).at("execution_time").get<double>();
    const std::string warning =
        "  loop_empty.ptr:82: warning: mappl_: empty loop (InInitIndexArray[0]=14, InLastIndexArray[0]=1, "
        "InStepArray[0]=1): its dopl_ times are counted as ordinary calls\n";
    const AugurRun e1 = run_fixture("loop_empty.ptr", "1", d.file("e1.json"));
    REQUIRE(e1.status == 0);
    CHECK(e1.out.find(warning) != std::string::npos);
    CHECK(root_interval(d.file("e1.json")).at("execution_time").get<double>() == doctest::Approx(g1).epsilon(1e-12));
    for (const char* grid : {"2", "4"}) {
      INFO("grid " << std::string(grid));
      const std::string json = d.file(std::string("e") + grid + ".json");
      const AugurRun r = run_fixture("loop_empty.ptr", grid, json);
      REQUIRE(r.status == 0);
      CHECK(r.out.find(warning) != std::string::npos);
      const auto root = root_interval(json);
      CHECK(root.at("execution_time").get<double>() >= g1 - 1e-12);
      CHECK(root.at("execution_time").get<double>() > 0.0014);  // the loop's time on every processor
    }
  }

}  // TEST_SUITE
