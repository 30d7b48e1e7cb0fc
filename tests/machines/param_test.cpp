// Tests of ParamSet: defaults, parsing by kind, lists, choices and the "did you mean" errors.
#include "machines/param.hpp"

#include <doctest/doctest.h>

using augur::machines::ParamError;
using augur::machines::ParamSet;
using augur::machines::ParamSpec;
using augur::machines::UnitKind;

namespace {

std::vector<ParamSpec> sample_specs() {
  return {
      {"latency", UnitKind::time, "1us", "network latency", {}},
      {"bandwidth", UnitKind::bandwidth, "10GBps", "network bandwidth", {}},
      {"mtu", UnitKind::bytes, "0", "largest fragment", {}},
      {"processes_per_node", UnitKind::count, "1", "processes per node", {}},
      {"scale", UnitKind::real, "1", "communication factor", {}},
      {"link_contention", UnitKind::boolean, "true", "model contention", {}},
      {"mapping", UnitKind::choice, "block", "rank to node", {"block", "round_robin"}},
      {"grid", UnitKind::int_list, "[]", "grid shape", {}},
      {"power", UnitKind::real_list, "[]", "relative speeds", {}},
  };
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("ParamSet starts from the declared defaults") {
    const ParamSet params(sample_specs());
    CHECK(params.number("latency") == 1e-6);
    CHECK(params.number("bandwidth") == 1e10);
    CHECK(params.number("mtu") == 0.0);
    CHECK(params.integer("processes_per_node") == 1);
    CHECK(params.flag("link_contention"));
    CHECK(params.text("mapping") == "block");
    CHECK(params.list("grid").empty());
    CHECK(params.has("scale"));
    CHECK_FALSE(params.has("scal"));
    REQUIRE(params.spec("mapping") != nullptr);
    CHECK(params.spec("mapping")->choices.size() == 2);
  }

  TEST_CASE("ParamSet set parses by the declared kind") {
    ParamSet params(sample_specs());
    params.set("latency", "1.5us");
    params.set("mtu", "4KiB");
    params.set("processes_per_node", "8");
    params.set("link_contention", "false");
    params.set("mapping", "round_robin");
    CHECK(params.number("latency") == 1.5e-6);
    CHECK(params.number("mtu") == 4096.0);
    CHECK(params.integer("processes_per_node") == 8);
    CHECK_FALSE(params.flag("link_contention"));
    CHECK(params.text("mapping") == "round_robin");
  }

  TEST_CASE("ParamSet reads lists in brackets and shape notation") {
    ParamSet params(sample_specs());
    params.set("grid", "[4, 4]");
    CHECK(params.list("grid") == std::vector<double>{4, 4});
    params.set("grid", "2x3x4");
    CHECK(params.list("grid") == std::vector<double>{2, 3, 4});
    params.set("grid", "[]");
    CHECK(params.list("grid").empty());
    params.set("power", "[1, 0.5]");
    CHECK(params.list("power") == std::vector<double>{1, 0.5});
    params.set_list("grid", {"8", "2"});
    CHECK(params.list("grid") == std::vector<double>{8, 2});
  }

  TEST_CASE("ParamSet rejects bad list items with the item number") {
    ParamSet params(sample_specs());
    CHECK_THROWS_WITH_AS(params.set("grid", "[4, a]"),
                         "parameter 'grid': item 2 of '[4, a]': invalid count 'a': expected a "
                         "non-negative integer",
                         ParamError);
    CHECK_THROWS_WITH_AS(params.set("grid", "[4, 4"),
                         "parameter 'grid': invalid list '[4, 4': expected items in brackets, "
                         "e.g. [4, 4], or a shape like 4x4",
                         ParamError);
    CHECK_THROWS_WITH_AS(params.set_list("latency", {"1us"}), "parameter 'latency': expected a single time, not a list",
                         ParamError);
  }

  TEST_CASE("ParamSet suggests the nearest parameter name") {
    ParamSet params(sample_specs(), "loggp_smp");
    CHECK_THROWS_WITH_AS(params.set("latncy", "1us"),
                         "unknown parameter 'latncy' of machine model 'loggp_smp'; did you mean "
                         "'latency'?",
                         ParamError);
    ParamSet anonymous(sample_specs());
    CHECK_THROWS_WITH_AS(anonymous.set("bandwith", "1GBps"), "unknown parameter 'bandwith'; did you mean 'bandwidth'?",
                         ParamError);
  }

  TEST_CASE("ParamSet lists the valid names when nothing is close") {
    ParamSet params(sample_specs(), "loggp_smp");
    CHECK_THROWS_WITH_AS(params.set("colour", "red"),
                         "unknown parameter 'colour' of machine model 'loggp_smp'; valid "
                         "parameters are: bandwidth, grid, latency, link_contention, mapping, "
                         "mtu, power, processes_per_node, scale",
                         ParamError);
  }

  TEST_CASE("ParamSet rejects a bad value with the unit error") {
    ParamSet params(sample_specs());
    CHECK_THROWS_WITH_AS(params.set("latency", "5 parsecs"),
                         "parameter 'latency': invalid time '5 parsecs': expected a number "
                         "followed by one of s, ms, us, ns, ps, min, h",
                         ParamError);
    CHECK_THROWS_WITH_AS(params.set("mapping", "blok"),
                         "parameter 'mapping': invalid value 'blok'; did you mean 'block'? Valid "
                         "values are: block, round_robin",
                         ParamError);
    CHECK_THROWS_WITH_AS(params.set("link_contention", "yes"),
                         "parameter 'link_contention': invalid boolean 'yes': expected true or "
                         "false",
                         ParamError);
    // A failed set keeps the previous value.
    CHECK(params.number("latency") == 1e-6);
  }

  TEST_CASE("ParamSet describe is sorted and uses natural units") {
    ParamSet params(sample_specs());
    params.set("mtu", "65536B");
    params.set("grid", "4x4");
    const auto lines = params.describe();
    using Line = std::pair<std::string, std::string>;
    const std::vector<Line> expected{
        {"bandwidth", "10GBps"}, {"grid", "[4, 4]"}, {"latency", "1us"}, {"link_contention", "true"},
        {"mapping", "block"},    {"mtu", "64KiB"},   {"power", "[]"},    {"processes_per_node", "1"},
        {"scale", "1"},
    };
    REQUIRE(lines.size() == expected.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
      CHECK(lines[i].first == expected[i].first);
      CHECK(lines[i].second == expected[i].second);
    }
  }

}  // TEST_SUITE
