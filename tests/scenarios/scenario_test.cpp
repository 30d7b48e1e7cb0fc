#include <doctest/doctest.h>
#include <filesystem>
#include <iostream>
#include "machines/registry.hpp"
#include "scenarios/scenario.hpp"
using namespace augur;
TEST_CASE("probe") {
  machines::MachineRegistry registry;
  machines::register_builtin_machines(registry);
  for (const auto& e : std::filesystem::directory_iterator("scenarios/fixtures/broken")) {
    const std::string p = e.path().string();
    try {
      const bool machine = p.find("bad_unit") != std::string::npos || p.find("unknown_model") != std::string::npos || p.find("machine_param") != std::string::npos;
      if (machine) scenarios::load_machine_file(p, registry); else scenarios::load_scenario_file(p, registry);
      std::cout << p << ": NO ERROR\n";
    } catch (const std::exception& x) { std::cout << x.what() << "\n"; }
  }
}
