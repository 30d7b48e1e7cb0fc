// The PRK stencil skeleton (scenarios/examples/programs/prk_stencil.yaml) against the PRK stencil
// TI samples it models (scenarios/examples/traces/prk-stencil-{4,8,16}) on the same machine.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace fs = std::filesystem;

namespace {

const std::string source = AUGUR_SOURCE_DIR;

// The JSON report of `augur run ARGS --machine platform_cluster_64 --processors 4,8,16`.
nlohmann::json report_of(const std::string& args, const fs::path& json) {
  const auto r = augur::test::run_augur(args + " --machine platform_cluster_64 --processors 4,8,16 --json '" +
                                        json.string() + "'");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  return nlohmann::json::parse(augur::test::slurp(json));
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("the PRK stencil skeleton predicts the PRK stencil TI samples at 4 8 and 16 ranks") {
    const fs::path d = augur::test::scratch_dir("augur_prk_skeleton_test_", "stencil");
    const auto trace = report_of("run --trace 'ti:" + source + "/scenarios/examples/traces/prk-stencil-{P}/trace.txt'",
                                 d / "trace.json");
    const auto skeleton =
        report_of("run --program '" + source + "/scenarios/examples/programs/prk_stencil.yaml'", d / "skeleton.json");
    REQUIRE(trace["variants"].size() == 3);
    REQUIRE(skeleton["variants"].size() == 3);
    // Relative error of the skeleton's predicted time, per rank count. The compute costs were
    // calibrated on the 4-rank trace (its slowest rank of each iteration: 1.7663e9 flops over 101
    // iterations of 4e6 points = 4.372 per point), so 4 ranks is in-sample and 8 and 16 are
    // predictions. The skeleton is deterministic: every rank costs the same per point. The traces
    // are not: their compute is measured CPU time, and the simulated time follows the slowest rank
    // of every iteration. Summed over the iterations, that slowest rank is above the median
    // iteration by 3.5 % (4 ranks), 13.7 % (8 ranks: 22 of its 800 iteration blocks are over 1.3x
    // the median, against 3 of 400 and 6 of 1584) and 5.2 % (16 ranks). That noise of the 8-rank
    // recording is what the skeleton cannot predict: it stays 12.3 % below it.
    const double within[] = {0.02, 0.14, 0.02};
    for (std::size_t i = 0; i < 3; ++i) {
      const auto& t = trace["variants"][i];
      const auto& s = skeleton["variants"][i];
      CAPTURE(t["processor_count"]);
      REQUIRE(s["processor_count"] == t["processor_count"]);
      // Same communication, message for message: the halo's faces (R = 2 rows or columns of the
      // tile, 8-byte doubles) and PRK's 13 collectives per rank.
      CHECK(s["totals"]["messages_sent"] == t["totals"]["messages_sent"]);
      CHECK(s["totals"]["bytes_sent"] == t["totals"]["bytes_sent"]);
      CHECK(s["totals"]["collectives"] == t["totals"]["collectives"]);
      const double predicted = s["predicted_time_s"].get<double>(), replayed = t["predicted_time_s"].get<double>();
      const double error = (predicted - replayed) / replayed;
      CAPTURE(predicted);
      CAPTURE(replayed);
      CHECK(std::abs(error) < within[i]);
      // The skeleton's compute is the traces' within 3 % in total (7.225 s against 7.064, 7.322
      // and 7.011 s): the per-point cost holds at every tile size.
      CHECK(s["totals"]["compute_s"].get<double>() ==
            doctest::Approx(t["totals"]["compute_s"].get<double>()).epsilon(0.03));
    }
    // The 8-rank miss is a shortfall (the skeleton has no noise), not an excess.
    CHECK(skeleton["variants"][1]["predicted_time_s"].get<double>() <
          trace["variants"][1]["predicted_time_s"].get<double>());
  }
}  // TEST_SUITE
