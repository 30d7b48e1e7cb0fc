// The streamed JSON report (write_json) against the document it streams (to_json(...).dump(2)):
// byte for byte, for message-passing runs with per-rank figures and wait states, a DVM run with
// characteristics, a run that failed, special characters in names, and no variants at all.
#include <doctest/doctest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "models/analysis/characteristics.hpp"
#include "models/report/report.hpp"

namespace {

using augur::models::report::VariantResult;

std::string streamed(const std::string& scenario, const std::vector<VariantResult>& variants) {
  std::ostringstream out;
  augur::models::report::write_json(out, scenario, variants);
  return out.str();
}

std::string dumped(const std::string& scenario, const std::vector<VariantResult>& variants) {
  return augur::models::report::to_json(scenario, variants).dump(2) + "\n";
}

VariantResult message_passing(int ranks) {
  VariantResult v;
  v.index = 1;
  v.processors = ranks;
  v.trace = "t/\"quoted\"\\path";
  v.machine_name = "m\u00e9";
  v.machine_model = "loggp_smp";
  v.machine_params = {{"latency", "1us"}, {"bandwidth", "1GBps"}};
  v.swept = {{"machine.latency", "1us"}};
  v.outcome = "completed";
  v.predicted_time_s = 1.25;
  v.events = 99;
  v.lps.resize(static_cast<std::size_t>(ranks));
  v.waits.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    auto& s = v.lps[static_cast<std::size_t>(r)];
    s.compute_s = 0.1 * r + 1.0 / 3.0;
    s.wait_s = r % 2 ? 1e-17 : 0.0;
    s.messages_sent = static_cast<std::uint64_t>(r);
    v.waits[static_cast<std::size_t>(r)].patterns[0].total_s = 0.5 * r;
    v.waits[static_cast<std::size_t>(r)].patterns[0].count = static_cast<std::uint64_t>(r);
  }
  v.waits_by_operation.resize(3);
  v.waits_by_operation[0].total_s = 3;
  v.waits_by_operation[0].count = 4;
  v.explained_by_operation = {2.5, 0, 0};
  v.causes = {{"compute between wait and irecv (rank 0: after wait #2, before irecv #2)", 1.5, 2.0, 3}};
  v.warnings = {"a warning with a \t tab"};
  return v;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("write_json streams exactly the JSON document of the results") {
    std::vector<VariantResult> variants;
    variants.push_back(message_passing(5));
    // A DVM run: characteristics, DVM wait operations, no per-rank statistics.
    VariantResult dvm;
    dvm.index = 2;
    dvm.processors = 2;
    dvm.grid = "2";
    dvm.wait_operations = augur::models::report::WaitOperations::dvm;
    dvm.outcome = "completed";
    dvm.intervals = std::make_shared<augur::models::analysis::IntervalTree>(2, "t.cdv", 7);
    dvm.intervals->root().proc(0).execution = 2;
    dvm.intervals->root().proc(1).execution = 1;
    augur::models::analysis::IntervalTree::close_interval(dvm.intervals->root(), {0, 1});
    dvm.intervals->integrate(augur::models::analysis::IntegrateRule::predictor);
    dvm.waits.resize(2);
    dvm.waits[1].patterns[5].total_s = 1;
    dvm.waits[1].patterns[5].count = 1;
    dvm.waits_by_operation.resize(5);
    dvm.waits_by_operation[1] = dvm.waits[1].patterns[5];
    dvm.explained_by_operation.assign(5, 0.0);
    variants.push_back(dvm);
    // A run that failed before producing anything.
    VariantResult failed;
    failed.index = 3;
    failed.outcome = "error";
    failed.message = "x.txt:3:7: error: bad";
    variants.push_back(failed);

    const std::string s = streamed("sc\u00e8ne \"1\"", variants);
    CHECK(s == dumped("sc\u00e8ne \"1\"", variants));
    CHECK(s.find("\"processors\": [\n        {\n          \"rank\": 0,") != std::string::npos);
    CHECK(streamed("empty", {}) == dumped("empty", {}));
    CHECK(streamed("one", {message_passing(1)}) == dumped("one", {message_passing(1)}));
  }
}
