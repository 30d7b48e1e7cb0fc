// Trace at 2, predict 4 (tools/validate): fit_compute.py on the TI conversion of the stencil
// recorded at 2 ranks (tests/data/otf2/stencil2d_2p) against the medians taken here, and the
// skeleton tools/validate/stencil2d.yaml with the fitted values: its compute and its messages.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path scratch = fs::path(AUGUR_SCRATCH_DIR) / "stencil-fit";
const std::string source = AUGUR_SOURCE_DIR;

/// The median of the compute between consecutive `waitall`s of one TI rank file.
double median_iteration(const fs::path& rank_file) {
  std::ifstream in(rank_file);
  std::vector<double> samples;
  bool started = false;
  double current = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string rank, action;
    double value = 0;
    words >> rank >> action;
    if (action == "waitall") {
      if (started) samples.push_back(current);
      started = true;
      current = 0;
    } else if (action == "compute" && words >> value) {
      current += value;
    }
  }
  REQUIRE(samples.size() == 19);  // 20 iterations, one waitall each
  std::sort(samples.begin(), samples.end());
  return samples[9];  // 19 samples: the 10th
}

/// `augur run ARGS --json`: the first variant.
nlohmann::json variant(const std::string& args, const std::string& name) {
  const fs::path json = scratch / (name + ".json");
  const auto r = augur::test::run_augur(args + " --wait-states off --json '" + json.string() + "'");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  return nlohmann::json::parse(augur::test::slurp(json)).at("variants").at(0);
}

}  // namespace

TEST_SUITE("tools") {
  TEST_CASE("trace at 2 - predict 4: the stencil's skeleton fitted to its 2-rank recording") {
    fs::create_directories(scratch);
    const std::string untar =
        "tar --zstd -xf '" + source + "/tests/data/otf2/stencil2d_2p.tar.zst' -C '" + scratch.string() + "'";
    REQUIRE(std::system(untar.c_str()) == 0);
    const fs::path ti = scratch / "ti";
    fs::remove_all(ti);
    const auto c = augur::test::run_augur("convert 'otf2:" + (scratch / "stencil2d_2p/traces.otf2").string() + "' '" +
                                          ti.string() + "'");
    REQUIRE_MESSAGE(c.status == 0, c.err);
    const fs::path fitted = scratch / "fit.txt";
    const std::string fit = "python3 '" + source + "/tools/validate/fit_compute.py' '" + ti.string() +
                            "' --iterations 20 > '" + fitted.string() + "' 2>/dev/null";
    REQUIRE(std::system(fit.c_str()) == 0);
    std::istringstream out(augur::test::slurp(fitted));
    std::string setup_word, iter_word;
    out >> setup_word >> iter_word;
    REQUIRE(setup_word.rfind("setup_flops=", 0) == 0);
    REQUIRE(iter_word.rfind("iter_flops=", 0) == 0);
    const double setup = std::stod(setup_word.substr(12)), iter = std::stod(iter_word.substr(11));
    // The fit is the mean over the 2 ranks of each rank's median iteration (rounded to a flop).
    const double m0 = median_iteration(ti / "rank0.txt"), m1 = median_iteration(ti / "rank1.txt");
    CHECK(iter == doctest::Approx((m0 + m1) / 2).epsilon(1e-5));
    // In this recording rank 0 was descheduled for milliseconds in some iterations (recorded as
    // compute): its mean iteration is 10 times its median; the median keeps the update's cost.
    CHECK(m0 < 2e5);
    CHECK(setup > 0);

    const std::string skeleton = "run --program '" + source +
                                 "/tools/validate/stencil2d.yaml' --set program.iter_flops=" + iter_word.substr(11) +
                                 " --set program.setup_flops=" + setup_word.substr(12);
    // At 2 ranks: each rank computes setup + 20 iterations (1 Gflop/s on the default machine).
    const auto two = variant(skeleton + " --processors 2", "two");
    for (const auto& rank : two.at("processors"))
      CHECK(rank.at("compute_s").get<double>() == doctest::Approx((setup + 20 * iter) * 1e-9).epsilon(1e-9));
    // At 4 ranks the skeleton sends what the 4-rank recording sends (tests/tools/otf2_replay_test:
    // a 2 x 2 grid, 2 neighbours each, 20 halos of 768 B; 4 allreduces of 6 messages of 8 B).
    const auto four = variant(skeleton + " --processors 4", "four");
    CHECK(four.at("totals").at("messages_sent") == 4 * 2 * 20 + 4 * 6);
    CHECK(four.at("totals").at("bytes_sent") == 4 * 2 * 20 * 768 + 4 * 6 * 8);
    CHECK(four.at("totals").at("end_s").get<double>() > (setup + 20 * iter) * 1e-9);
  }
}
