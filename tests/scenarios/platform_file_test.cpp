// SimGrid platform files as machine files (scenarios/machine_file.cpp, load_platform): the
// machine they make, their <config> applied, a scenario naming one beside it, their errors.
#include <doctest/doctest.h>

#include <string>

#include "machines/registry.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/scenario.hpp"

namespace scen = augur::scenarios;

namespace {

const augur::machines::MachineRegistry& registry() {
  static const augur::machines::MachineRegistry r = [] {
    augur::machines::MachineRegistry m;
    augur::machines::register_builtin_machines(m);
    return m;
  }();
  return r;
}

const std::string fixtures = std::string(AUGUR_SOURCE_DIR) + "/tests/machines/fixtures/platform/";

}  // namespace

TEST_CASE("a platform file is a simgrid_platform machine with its <config> applied") {
  const auto machine = scen::load_machine_file(fixtures + "routed.xml", registry());
  CHECK(machine.model == "simgrid_platform");
  CHECK(machine.name == "routed");
  CHECK(machine.description == "SimGrid platform routed.xml: 4 hosts");
  CHECK(machine.params.text("platform") == fixtures + "routed.xml");
  CHECK(machine.params.text("network_model") == "CM02");  // <prop id="network/model" value="CM02"/>
  CHECK(machine.params.text("hostfile").empty());
}

TEST_CASE("a scenario names a platform file beside it - --set machine.hostfile places the ranks") {
  const auto s = scen::load_scenario_text("schema_version: 1\ntrace: ti:t.txt\nmachine: routed.xml\n", "inline.yaml",
                                          fixtures, registry(), {"machine.hostfile=h.txt"});
  CHECK(s.machine.model == "simgrid_platform");
  CHECK(s.machine.params.text("platform") == fixtures + "routed.xml");
  CHECK(s.machine.params.text("hostfile") == "h.txt");
}

TEST_CASE("a broken platform file is a ConfigError at its line") {
  CHECK_THROWS_WITH_AS(scen::load_machine_file(fixtures + "broken/dangling_link.xml", registry()),
                       (fixtures + "broken/dangling_link.xml:7: error: unknown link 'nowhere' (links are declared "
                                   "before the routes using them)")
                           .c_str(),
                       scen::ConfigError);
  CHECK_THROWS_WITH_AS(scen::load_machine_file(fixtures + "broken/unknown_option.xml", registry()),
                       doctest::Contains("unknown_option.xml:4: error: unknown SimGrid option 'network/modle'"),
                       scen::ConfigError);
}
