// The PRK stencil skeleton (scenarios/examples/programs/prk_stencil.yaml) against the PRK stencil
// TI samples it models (scenarios/examples/traces/prk-stencil-{4,8,16}) on the same machine.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"
#include "traces/ti/ti_trace.hpp"
#include "traces/ti/ti_writer.hpp"

namespace fs = std::filesystem;
using augur::traces::MpOpKind;
using augur::traces::MpRecord;

namespace {

/// A PRK stencil sample with its rank-to-rank noise taken out: block k of every rank (the k-th
/// compute over 3e6 flops before the first reduce: the initialisation, then the stencil of each of
/// the 101 iterations) becomes the median of block k over the ranks. The rest is the sample's.
class MedianBlocks final : public augur::traces::MpTraceSource {
 public:
  explicit MedianBlocks(augur::traces::MpTraceSource& in)
      : records_(static_cast<std::size_t>(in.rank_count())), next_(records_.size(), 0) {
    std::vector<std::vector<std::size_t>> blocks(records_.size());
    for (std::size_t r = 0; r < records_.size(); ++r) {
      MpRecord rec;
      bool before_reduce = true;
      while (in.next(static_cast<int>(r), rec)) {
        rec.counts = {};  // the stencil's records use neither span
        rec.text = {};
        before_reduce = before_reduce && rec.kind != MpOpKind::reduce;
        if (before_reduce && rec.kind == MpOpKind::compute && rec.amount > 3e6) blocks[r].push_back(records_[r].size());
        records_[r].push_back(rec);
      }
      REQUIRE(blocks[r].size() == 102);  // initialisation + 101 iterations
    }
    for (std::size_t k = 0; k < 102; ++k) {
      std::vector<double> amounts;
      for (std::size_t r = 0; r < records_.size(); ++r) amounts.push_back(records_[r][blocks[r][k]].amount);
      std::sort(amounts.begin(), amounts.end());
      const std::size_t n = amounts.size();  // even: the mean of the middle two
      const double median = (amounts[n / 2 - 1] + amounts[n / 2]) / 2;
      for (std::size_t r = 0; r < records_.size(); ++r) records_[r][blocks[r][k]].amount = median;
    }
  }
  int rank_count() const override { return static_cast<int>(records_.size()); }
  bool next(int rank, MpRecord& out) override {
    const auto r = static_cast<std::size_t>(rank);
    if (next_[r] >= records_[r].size()) return false;
    out = records_[r][next_[r]++];
    return true;
  }
  std::string file_name(int rank) const override { return "median rank " + std::to_string(rank); }

 private:
  std::vector<std::vector<MpRecord>> records_;
  std::vector<std::size_t> next_;
};

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
    // recording is what the skeleton cannot predict: it stays 12.3 % below it. No calibration
    // reaches 2 % at all three: the skeleton's time is proportional to its per-point costs within
    // 0.1 % (its messages take microseconds an iteration), so its 8-to-4-rank ratio stays 0.500,
    // while within 2 % of both samples needs 0.546 or more (theirs: 0.568). The next
    // test takes the noise out and shows the rest within 3 %.
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

  TEST_CASE("without the samples' rank-to-rank noise the PRK stencil skeleton is within 3 % at 4 8 and 16 ranks") {
    // Why 8 ranks misses: not the program. Its grid (PRK: "Tiles in x/y-direction = 2/4"; the
    // skeleton's MPI_Dims_create {4, 2}, rank 0 sends 4000 doubles to rank 2, 2000 to rank 1),
    // its faces and messages match rank for rank, and its median stencil block costs 4.26 flops a
    // point against 4.21 (4 ranks) and 4.17 (16). The recording is noisier: rank 7's
    // initialisation took 56.2e6 flops against the others' 15e6 (all wait for it at the next
    // allreduce), ranks 0-4 took 1.7-2x the usual block over the last iteration, and in 29 of the
    // other iterations a single rank took 1.15-2.5x the median. With every big block replaced by the median over the
    // ranks (MedianBlocks), the replayed times become 1.7586, 0.8976 and 0.4398 s (times P: 7.03,
    // 7.18, 7.04 s, against 7.26, 8.25, 7.33 s for the samples as recorded), and the skeleton is
    // within 3 % of all three: +2.8 %, +0.7 %, +2.9 % — above by the 4-rank critical path's noise
    // that its per-point cost was calibrated on.
    const fs::path d = augur::test::scratch_dir("augur_prk_skeleton_test_", "median");
    const auto skeleton =
        report_of("run --program '" + source + "/scenarios/examples/programs/prk_stencil.yaml'", d / "skeleton.json");
    const auto raw = report_of("run --trace 'ti:" + source + "/scenarios/examples/traces/prk-stencil-{P}/trace.txt'",
                               d / "trace.json");
    for (const int p : {4, 8, 16}) {
      const auto in = augur::traces::ti::open_ti_trace(source + "/scenarios/examples/traces/prk-stencil-" +
                                                       std::to_string(p) + "/trace.txt");
      MedianBlocks median(*in);
      augur::traces::ti::write_ti_trace(median, d / ("median-" + std::to_string(p)));
    }
    const auto median = report_of("run --trace 'ti:" + (d / "median-{P}/trace.txt").string() + "'", d / "median.json");
    double noise[3] = {};
    for (std::size_t i = 0; i < 3; ++i) {
      CAPTURE(i);
      const double m = median["variants"][i]["predicted_time_s"].get<double>();
      const double s = skeleton["variants"][i]["predicted_time_s"].get<double>();
      CAPTURE(m);
      CAPTURE(s);
      CHECK(std::abs(s - m) / m < 0.03);
      noise[i] = raw["variants"][i]["predicted_time_s"].get<double>() / m - 1;
    }
    // What the noise adds to the replayed time: 3.1 % (4 ranks), 14.9 % (8), 4.1 % (16).
    CHECK(noise[0] < 0.05);
    CHECK(noise[1] > 0.12);
    CHECK(noise[2] < 0.05);
  }
}  // TEST_SUITE
