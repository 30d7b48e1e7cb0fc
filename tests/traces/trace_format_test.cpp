// Tests of the trace-format registry: names, aliases, the program model and the opener of each.
#include "traces/trace_format.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

TEST_SUITE("traces") {
  using augur::traces::find_trace_format;
  using augur::traces::ProgramModel;

  TEST_CASE("Trace formats are found by name or alias") {
    const auto* ti = find_trace_format("ti");
    REQUIRE(ti != nullptr);
    CHECK(ti->model == ProgramModel::message_passing);
    CHECK((ti->open != nullptr));
    const auto* dvm = find_trace_format("dvm");
    REQUIRE(dvm != nullptr);
    CHECK(dvm->name == "ptr");  // the alias leads to the canonical entry
    CHECK(dvm->model == ProgramModel::dvm);
    CHECK((dvm->open == nullptr));
    CHECK(find_trace_format("ptr") == dvm);
    CHECK(find_trace_format("tii") == nullptr);
    CHECK(find_trace_format("") == nullptr);
    CHECK(augur::traces::trace_formats().front().name == "ti");  // the default of a bare path
    CHECK(augur::traces::trace_format_names() ==
          std::vector<std::string>{"ti", "ptr", "dvm", "otf2", "synthetic", "program"});
  }

  TEST_CASE("The synthetic format opens its spec without files") {
    const auto* synthetic = find_trace_format("synthetic");
    REQUIRE(synthetic != nullptr);
    const auto source = synthetic->open("P=3,I=2");
    CHECK(source->rank_count() == 3);
    CHECK_THROWS(synthetic->open("P=3,Q=1"));
  }
}
