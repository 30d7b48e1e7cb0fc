// ACROSS loops through the binary: an ACROSS loop on a 3-D processor grid through `augur run` as
// Predictor 3.1 prices it (tests/tools/fixtures/dvm/across_3d.ptr on 2x2x2 processors of a cluster
// whose messages never wait for a channel, every figure of the Shadow pipeline computed by hand),
// and the difference Q4 that old-format runs of an ACROSS loop report.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

TEST_SUITE("golden") {
  TEST_CASE("an ACROSS loop on a 2x2x2 grid books 3.1's pipeline by hand") {
    // across_3d.ptr: an 8x8x8 array (BLOCK, BLOCK, BLOCK), shadows 1, one ACROSS loop 0..7 on
    // every axis (new group: low shadows 1, an upward sweep of width 1 along each grid
    // dimension), a single dopl_ with DoPL = 0 whose TIME is 512 µs: 1 µs per iteration, 4x4x4
    // = 64 per processor. Every call before it is replicated, so the clocks are equal at the
    // pipeline (no synchronisation). The machine: 8 processors, 8 channels, Ts = 1 µs, Tb = 0.01
    // µs/byte. The pipeline (tests/models/dvm_across31_test.cpp, "DoPL=0 on 2x2x2"): one block
    // of 64 per position, faces of 16 elements priced as 16 bytes = 1.16 µs;
    //   position 0: no wait; finishes at 64;
    //   1, 2, 4 (one predecessor): wait 65.16 + 1.16 = 66.32 µs, lost system time 64 µs;
    //   3, 5, 6 (two): wait 2 · 130.32 + 1.16 = 261.80 µs, lost 129.16 µs;
    //   7 (three): wait 3 · 195.48 + 1.16 = 587.60 µs, lost 194.32 µs.
    // Shadow communication = 3 · 66.32 + 3 · 261.80 + 587.60 = 1571.96 µs. Clocks after it:
    // 0; 64 + 66.32 = 130.32 (×3); 129.16 + 261.80 = 390.96 (×3); 194.32 + 587.60 = 781.92:
    // time variation = 781.92 + 3 · 651.60 + 3 · 390.96 = 3909.60 µs.
    const augur::test::TempDir d;
    augur::test::write_file(d.file("c8.par"),
                            "cluster = c;\nsearch=0;\nc = {8 x P1};\nc.CommType = myrinet (8);\nc.TStart = 1;\n"
                            "c.TByte = 0.01;\nP1 = 1.00;\n");
    const std::string trace = std::string(AUGUR_SOURCE_DIR) + "/tests/tools/fixtures/dvm/across_3d.ptr";
    const std::string json = d.file("a.json");
    const augur::test::AugurRun r = augur::test::run_augur("run --trace 'dvm:" + trace + "' --machine '" +
                                                           d.file("c8.par") + "' --grid 2x2x2 --json '" + json + "'");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto doc = nlohmann::json::parse(augur::test::slurp(json));
    const auto& in = doc.at("variants").at(0).at("characteristics").at("interval");
    const auto& shadow = in.at("collectives").at("shadow");
    CHECK(shadow.at("operations") == 1);
    CHECK(shadow.at("synchronization").get<double>() == 0.0);
    CHECK(shadow.at("communication").get<double>() == doctest::Approx(1571.96e-6).epsilon(1e-6));
    CHECK(shadow.at("time_variation").get<double>() == doctest::Approx(3909.60e-6).epsilon(1e-6));
    const auto& procs = in.at("per_processor");
    REQUIRE(procs.size() == 8);
    const double wait[8] = {0, 66.32, 66.32, 261.80, 66.32, 261.80, 261.80, 587.60};
    const double lost[8] = {0, 64, 64, 129.16, 64, 129.16, 129.16, 194.32};
    // Every processor's other system insufficient parallelism is the same (replicated calls):
    // the pipeline's losses are its difference from processor 0's.
    const double base = procs.at(0).at("insufficient_parallelism_sys").get<double>();
    for (std::size_t p = 0; p < 8; ++p) {
      CAPTURE(p);
      CHECK(procs.at(p).at("communication").get<double>() == doctest::Approx(wait[p] * 1e-6).epsilon(1e-6));
      CHECK(procs.at(p).at("insufficient_parallelism_sys").get<double>() - base ==
            doctest::Approx(lost[p] * 1e-6).epsilon(1e-6));
    }
  }

  TEST_CASE("augur run and augur predict name 2.53's ACROSS pipeline on an old-format machine") {
    const std::string samples = std::string(AUGUR_SHARED_DIR) + "/dvm-samples";
    const std::string sor = samples + "/programs/sor/N10_std/sor.ptr";
    const std::string old_bus = samples + "/oracle/pars/old_ethernet.par";
    const augur::test::TempDir d;
    const augur::test::AugurRun run = augur::test::run_augur("run --trace 'dvm:" + sor + "' --machine '" + old_bus +
                                                             "' --grid 2x2 --json '" + d.file("r.json") + "'");
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const augur::test::AugurRun predict =
        augur::test::run_augur_in(d.path.string(), "predict '" + old_bus + "' '" + sor + "' s.html 2 2 --json p.json");
    REQUIRE_MESSAGE(predict.status == 0, predict.err);
    for (const char* json : {"r.json", "p.json"}) {
      const auto met = nlohmann::json::parse(augur::test::slurp(d.path / json))
                           .at("variants")
                           .at(0)
                           .at("differences_from_predictor")
                           .get<std::vector<std::string>>();
      CAPTURE(json);
      CHECK(std::count_if(met.begin(), met.end(), [](const std::string& m) { return m.starts_with("Q4 ACROSS: "); }) ==
            1);
    }
  }

  TEST_CASE("augur predict with an old-format .par runs 2.53's ACROSS of a loop over one axis") {
    // across_1d.ptr on grid 4 (old_ethernet: Ts = 75 µs; TByte = 0, see docs/dvm-model.md): a
    // loop 1..62 over one axis has no pipeline in 2.53. Position i = 1 … 3 waits Ts plus its
    // predecessor's lead (none for position 1); the clocks differ only by the first dopl_'s
    // 1 µs of iterations, split 15, 16, 16, 15 of 62:
    //   1: 75 µs; 2: 75 + (c1 + 75 − c2) = 150 µs; 3: 75 + (c2 + 150 − c3) = 225 + 1/62 µs.
    // Then every position computes the loop's 2 ms / 4 = 500 µs, whatever its block.
    const std::string samples = std::string(AUGUR_SHARED_DIR) + "/dvm-samples";
    const std::string old_bus = samples + "/oracle/pars/old_ethernet.par";
    const std::string trace = std::string(AUGUR_SOURCE_DIR) + "/tests/tools/fixtures/dvm/across_1d.ptr";
    const augur::test::TempDir d;
    const augur::test::AugurRun r =
        augur::test::run_augur_in(d.path.string(), "predict '" + old_bus + "' '" + trace + "' a.html 4 --json a.json");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto doc = nlohmann::json::parse(augur::test::slurp(d.path / "a.json"));
    const auto& in = doc.at("variants").at(0).at("characteristics").at("interval");
    CHECK(in.at("collectives").at("shadow").at("communication").get<double>() ==
          doctest::Approx((450 + 1.0 / 62) * 1e-6).epsilon(1e-9));
    const auto& procs = in.at("per_processor");
    REQUIRE(procs.size() == 4);
    const double wait[4] = {0, 75, 150, 225 + 1.0 / 62};
    const double share[4] = {0, 1.0 / 62, 1.0 / 62, 0};
    for (std::size_t p = 0; p < 4; ++p) {
      CAPTURE(p);
      CHECK(procs.at(p).at("communication").get<double>() == doctest::Approx(wait[p] * 1e-6).epsilon(1e-9));
      // Every other call is replicated: the CPU times differ only by the first dopl_'s shares.
      CHECK(procs.at(p).at("cpu").get<double>() - procs.at(0).at("cpu").get<double>() ==
            doctest::Approx(share[p] * 1e-6).epsilon(1e-9));
    }
  }
}
