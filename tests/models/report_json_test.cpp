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
#include "models/report/result_json.hpp"

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

  TEST_CASE("links: the JSON lists every link - the text the most loaded - the advice names the bottleneck") {
    // T = 1.25 s. a: 1e9 B/s, 5e8 B, busy 1 s -> utilisation 5e8 / (1e9 x 1.25) = 0.4, busy 0.8;
    // b: 1e8 B/s, 1e8 B -> 0.8 (fewer bytes, slower link: more loaded); c carried nothing.
    VariantResult v = message_passing(2);
    v.links = {
        {"a", "shared", 1e9, 5e8, 1.0, 2}, {"b-up", "splitduplex", 1e8, 1e8, 1.25, 3}, {"c", "fatpipe", 1e9, 0, 0, 0}};
    CHECK(augur::models::report::most_loaded_links(v, 10) == std::vector<std::size_t>{1, 0});
    CHECK(augur::models::report::most_loaded_links(v, 1) == std::vector<std::size_t>{1});
    const auto j = augur::models::report::to_json("s", {v});
    const auto& links = j["variants"][0]["links"];
    REQUIRE(links.size() == 3);
    CHECK(links[0]["name"] == "a");
    CHECK(links[0]["utilisation"].get<double>() == doctest::Approx(0.4));
    CHECK(links[0]["busy_share"].get<double>() == doctest::Approx(0.8));
    CHECK(links[1]["utilisation"].get<double>() == doctest::Approx(0.8));
    CHECK(links[1]["peak_flows"] == 3);
    CHECK(links[2]["bytes"].get<double>() == 0);
    CHECK(streamed("s", {v}) == dumped("s", {v}));
    // the shard results (augur run --shard, augur merge) carry the links exactly
    const VariantResult back = augur::models::report::result_from_json(augur::models::report::result_to_json(v));
    REQUIRE(back.links.size() == 3);
    CHECK(back.links[1].name == "b-up");
    CHECK(back.links[1].bandwidth == 1e8);
    CHECK(back.links[1].bytes == 1e8);
    CHECK(back.links[1].busy == 1.25);
    CHECK(back.links[1].peak_flows == 3);
    CHECK(streamed("s", {back}) == streamed("s", {v}));
    // a model without links (loggp_smp, the others) has no `links` key
    CHECK_FALSE(augur::models::report::to_json("s", {message_passing(2)})["variants"][0].contains("links"));

    std::ostringstream text;
    augur::models::report::write_text(text, "s", {v});
    const std::size_t table = text.str().find("Most loaded links (2 of the 2 that carried data, 3 in all");
    REQUIRE(table != std::string::npos);
    CHECK(text.str().find("  b-up ", table) < text.str().find("  a ", table));
    CHECK(text.str().find("  c ", table) == std::string::npos);  // carried nothing
    // transfer dominates the lost time: the advice names b-up
    VariantResult slow = v;
    for (auto& s : slow.lps) {
      s.compute_s = 0.1;
      s.transfer_s = 1.0;
      s.wait_s = 0;
    }
    CHECK(augur::models::report::advice(slow).find("the most loaded link is b-up (80.0 % utilised, busy 100.0 % of "
                                                   "the time, up to 3 messages at once)") != std::string::npos);
  }
}
