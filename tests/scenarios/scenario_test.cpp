// Scenario and machine YAML: the examples, library lookup, overrides, sweeps, --set, and one
// broken file per defect with its exact position and message (design examples 3 and 10).
#include "scenarios/scenario.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/collective_kind.hpp"
#include "machines/registry.hpp"
#include "scenarios/config_error.hpp"

namespace {

using augur::scenarios::ConfigError;
using augur::scenarios::Scenario;
namespace scen = augur::scenarios;

const augur::machines::MachineRegistry& registry() {
  static const augur::machines::MachineRegistry instance = [] {
    augur::machines::MachineRegistry built;
    augur::machines::register_builtin_machines(built);
    return built;
  }();
  return instance;
}

// Tests run in /work/main/tests (CTest's WORKING_DIRECTORY), so fixtures are relative paths.
std::string broken(const std::string& name) { return "scenarios/fixtures/broken/" + name; }
std::string example(const std::string& name) { return AUGUR_SOURCE_DIR "/scenarios/examples/" + name; }

Scenario load_broken(const std::string& name) { return scen::load_scenario_file(broken(name), registry()); }
scen::MachineDescription load_broken_machine(const std::string& name) {
  return scen::load_machine_file(broken(name), registry());
}

/// A scenario from text whose relative paths resolve against `base`.
Scenario from_text(const std::string& text, const std::string& base = "base",
                   const std::vector<std::string>& overrides = {}) {
  return scen::load_scenario_text(text, "inline.yaml", base, registry(), overrides);
}

/// Relative comparison: doctest's Approx adds an absolute scale of 1, which would make every
/// microsecond equal to every other.
doctest::Approx near(double value) { return doctest::Approx(value).scale(0); }

/// Sets an environment variable for one scope and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      old_ = old;
      had_ = true;
    }
    if (value != nullptr)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

const std::string header = "schema_version: 1\ntrace: ti:t.txt\nmachine: platform_cluster_64\n";

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("ConfigError formats file line and column") {
    CHECK(std::string(ConfigError("a.yaml", 3, 7, "bad").what()) == "a.yaml:3:7: error: bad");
    CHECK(std::string(ConfigError("a.yaml", 3, 0, "bad").what()) == "a.yaml:3: error: bad");
    CHECK(std::string(ConfigError("a.yaml", 0, 0, "bad").what()) == "a.yaml: error: bad");
    CHECK(std::string(ConfigError("", 0, 0, "bad").what()) == "error: bad");
    const ConfigError error("b.yaml", 2, 5, "worse");
    CHECK(error.file() == "b.yaml");
    CHECK(error.line() == 2);
    CHECK(error.col() == 5);
    CHECK(error.message() == "worse");
  }

  // ---- machines ------------------------------------------------------------------------------

  TEST_CASE("load_machine_file reads a library machine") {
    const auto machine = scen::load_machine_file(scen::machine_library_dir() + "/platform_cluster_64.yaml", registry());
    CHECK(machine.name == "platform_cluster_64");
    CHECK(machine.model == "loggp_smp");
    CHECK(machine.source == scen::machine_library_dir() + "/platform_cluster_64.yaml");
    CHECK_FALSE(machine.description.empty());
    CHECK(machine.params.number("latency") == near(1e-6));
    CHECK(machine.params.number("bandwidth") == near(10e9));
    CHECK(machine.params.number("eager_threshold") == near(65536));
  }

  TEST_CASE("load_machine_file accepts the minimal flow form") {
    const auto machine = scen::load_machine_file("scenarios/fixtures/minimal_machine.yaml", registry());
    CHECK(machine.name == "minimal_machine");  // no name: key, so the file stem
    CHECK(machine.model == "loggp_smp");
    CHECK(machine.params.number("cpu_speed") == near(1e9));
    CHECK(machine.params.number("latency") == near(1e-6));
    CHECK(machine.params.number("bandwidth") == near(1e10));
    CHECK(machine.params.text("mapping") == "block");  // a default
  }

  TEST_CASE("Every machine of the library loads") {
    int loaded = 0;
    for (const auto& entry : std::filesystem::directory_iterator(scen::machine_library_dir())) {
      if (entry.path().extension() != ".yaml") continue;
      CAPTURE(entry.path().string());
      CHECK_NOTHROW(scen::load_machine_file(entry.path().string(), registry()));
      ++loaded;
    }
    CHECK(loaded >= 2);
  }

  TEST_CASE("resolve_machine finds library names and paths") {
    const auto bus = scen::resolve_machine("ethernet_bus", registry());
    CHECK(bus.model == "bus");
    CHECK(bus.name == "ethernet_bus");
    CHECK(bus.params.number("start_time") == near(75e-6));
    CHECK(scen::resolve_machine("ethernet_bus.yaml", registry()).model == "bus");
    const auto file = scen::resolve_machine("scenarios/fixtures/minimal_machine.yaml", registry());
    CHECK(file.source == "scenarios/fixtures/minimal_machine.yaml");
    CHECK_THROWS_WITH_AS(scen::resolve_machine("ethernet_buss", registry()),
                         doctest::Contains("error: unknown machine 'ethernet_buss': no such file, and no "
                                           "'ethernet_buss.yaml' in the machine library"),
                         ConfigError);
    CHECK_THROWS_WITH_AS(scen::resolve_machine("ethernet_buss", registry()),
                         doctest::Contains("; did you mean 'ethernet_bus'? Library machines: dvm_bus_eth, dvm_eth75, "
                                           "dvm_mvs, dvm_transputer, ethernet_bus, platform_cluster_64"),
                         ConfigError);
  }

  TEST_CASE("machine_library_dir follows AUGUR_MACHINE_PATH") {
    {
      const ScopedEnv unset("AUGUR_MACHINE_PATH", nullptr);
      CHECK(scen::machine_library_dir() == AUGUR_SOURCE_DIR "/machines/library");
    }
    const ScopedEnv library("AUGUR_MACHINE_PATH", "scenarios/fixtures/library");
    CHECK(scen::machine_library_dir() == "scenarios/fixtures/library");
    const auto machine = scen::resolve_machine("tiny_bus", registry());
    CHECK(machine.name == "tiny bus");  // the name: key wins over the file stem
    CHECK(machine.params.number("start_time") == near(1e-6));
    CHECK_THROWS_WITH_AS(scen::resolve_machine("ethernet_bus", registry()),
                         doctest::Contains("Library machines: tiny_bus"), ConfigError);
  }

  // ---- the examples --------------------------------------------------------------------------

  TEST_CASE("default_scenario_path names the bundled default") {
    {
      const ScopedEnv unset("AUGUR_DEFAULT_SCENARIO", nullptr);
      CHECK(scen::default_scenario_path() == example("default.yaml"));
    }
    const ScopedEnv elsewhere("AUGUR_DEFAULT_SCENARIO", "elsewhere.yaml");
    CHECK(scen::default_scenario_path() == "elsewhere.yaml");
  }

  TEST_CASE("The default example runs prk-stencil at 4 8 and 16 ranks") {
    const Scenario scenario = scen::load_scenario_file(example("default.yaml"), registry());
    CHECK(scenario.file == example("default.yaml"));
    CHECK(scenario.name == "prk-stencil on the 64-node cluster");
    CHECK(scenario.trace_format == "ti");
    CHECK(scenario.trace_path == example("traces/prk-stencil-{P}/trace.txt"));
    CHECK(scenario.machine.name == "platform_cluster_64");
    CHECK(scenario.processors == std::vector<int>{4, 8, 16});
    CHECK(scenario.sweep.empty());
    CHECK(scenario.model.collectives == "default");
    CHECK(scenario.model.eager_transfer == "match");
    const auto variants = scenario.variants();
    REQUIRE(variants.size() == 3);
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const int p = scenario.processors[i];
      CHECK(variants[i].processors == p);
      CHECK(variants[i].trace_path == example("traces/prk-stencil-" + std::to_string(p) + "/trace.txt"));
      CHECK(variants[i].swept.empty());
      CHECK(std::filesystem::exists(variants[i].trace_path));
    }
  }

  TEST_CASE("The latency_sweep example expands into three variants") {
    const Scenario scenario = scen::load_scenario_file(example("latency_sweep.yaml"), registry());
    CHECK(scenario.trace_path == example("traces/tiny-4/ti_index.txt"));
    CHECK(std::filesystem::exists(scenario.trace_path));
    CHECK(scenario.machine.name == "inline");
    CHECK(scenario.machine.source.empty());
    CHECK(scenario.machine.model == "loggp_smp");
    CHECK(scenario.processors.empty());
    const auto variants = scenario.variants();
    REQUIRE(variants.size() == 3);
    const double latencies[] = {1e-6, 1e-5, 1e-4};
    const char* texts[] = {"1us", "10us", "100us"};
    for (std::size_t i = 0; i < 3; ++i) {
      CHECK(variants[i].processors == 0);  // the trace's rank count
      CHECK(variants[i].trace_path == scenario.trace_path);
      CHECK(variants[i].machine.params.number("latency") == near(latencies[i]));
      REQUIRE(variants[i].swept.size() == 1);
      CHECK(variants[i].swept[0].first == "machine.latency");
      CHECK(variants[i].swept[0].second == texts[i]);
    }
  }

  TEST_CASE("The bus_vs_grid example runs on the ethernet bus") {
    const Scenario scenario = scen::load_scenario_file(example("bus_vs_grid.yaml"), registry());
    CHECK(scenario.machine.name == "ethernet_bus");
    CHECK(scenario.machine.model == "bus");
    CHECK(scenario.processors == std::vector<int>{4});
    CHECK(scenario.trace_path == example("traces/prk-stencil-4/trace.txt"));
    CHECK(std::filesystem::exists(scenario.trace_path));
    // The comparison its comment suggests.
    const Scenario grid = scen::load_scenario_file(example("bus_vs_grid.yaml"), registry(),
                                                   {"machine=transputer_4x4", "machine.grid=2x2"});
    CHECK(grid.machine.model == "transputer_grid");
    CHECK(grid.machine.params.list("grid") == std::vector<double>{2, 2});
  }

  TEST_CASE("Every variant of every example builds its machine") {
    for (const char* name : {"default.yaml", "latency_sweep.yaml", "bus_vs_grid.yaml", "dvm_jacobi.yaml",
                             "dvm_jacobi_machines.yaml", "wave3d.yaml"}) {
      CAPTURE(name);
      const Scenario scenario = scen::load_scenario_file(example(name), registry());
      for (const auto& variant : scenario.variants()) {
        const int processors = variant.processors > 0 ? variant.processors : 4;
        CHECK(registry().get(variant.machine.model).create(variant.machine.params, processors) != nullptr);
      }
    }
  }

  // ---- scenario features ---------------------------------------------------------------------

  TEST_CASE("The dvm_jacobi_machines example sweeps five grids over three machines") {
    const Scenario scenario = scen::load_scenario_file(example("dvm_jacobi_machines.yaml"), registry());
    CHECK(scenario.trace_format == "ptr");
    CHECK(std::filesystem::exists(scenario.trace_path));
    REQUIRE(scenario.sweep.size() == 1);
    CHECK(scenario.sweep[0].first == "machine");
    const std::vector<std::string> names = {"dvm_mvs", "dvm_bus_eth", "dvm_transputer"};
    const std::vector<std::string> models = {"dvm_cluster", "bus", "transputer_grid"};
    CHECK(scenario.sweep[0].second == names);
    const auto variants = scenario.variants();
    REQUIRE(variants.size() == 15);
    const std::vector<std::vector<int>> grids = {{1}, {2}, {4}, {2, 2}, {4, 4}};
    for (std::size_t i = 0; i < variants.size(); ++i) {
      CAPTURE(i);
      // The grid is the outer loop, the machine axis the inner one.
      CHECK(variants[i].grid == grids[i / 3]);
      CHECK(variants[i].machine.name == names[i % 3]);
      CHECK(variants[i].machine.model == models[i % 3]);
      REQUIRE(variants[i].swept.size() == 1);
      CHECK(variants[i].swept[0] == std::pair<std::string, std::string>("machine", names[i % 3]));
    }
    CHECK(variants[14].processors == 16);
    // The transputer follows the run's grid; the bus is the old-format Ethernet.
    CHECK(variants[2].machine.params.list("grid").empty());
    CHECK(variants[1].machine.params.number("start_time") == near(75e-6));
    CHECK(variants[1].machine.params.number("byte_time") == near(0.2e-6));
  }

  TEST_CASE("A machine axis combines with parameter axes in file order") {
    const Scenario scenario = from_text(
        "schema_version: 1\ntrace: ti:t.txt\nprocessors: [2, 4]\noverrides: {byte_time: 1us}\n"
        "sweep:\n  machine.scale: [1, 2]\n  machine: [ethernet_bus, transputer_4x4]\n");
    CHECK(scenario.swept_machines.size() == 2);
    CHECK(scenario.machine.name == "ethernet_bus");  // the first swept machine
    const auto variants = scenario.variants();
    REQUIRE(variants.size() == 8);
    const char* machines[] = {"ethernet_bus", "transputer_4x4"};
    const char* scales[] = {"1", "2"};
    for (std::size_t i = 0; i < variants.size(); ++i) {
      CAPTURE(i);
      CHECK(variants[i].processors == (i < 4 ? 2 : 4));
      REQUIRE(variants[i].swept.size() == 2);
      CHECK(variants[i].swept[0].first == "machine.scale");
      CHECK(variants[i].swept[0].second == scales[(i / 2) % 2]);
      CHECK(variants[i].swept[1].first == "machine");
      CHECK(variants[i].swept[1].second == machines[i % 2]);
      CHECK(variants[i].machine.name == machines[i % 2]);
      // The swept scale and the override reach both machines; the rest is each machine's own.
      CHECK(variants[i].machine.params.number("scale") == near((i / 2) % 2 == 0 ? 1.0 : 2.0));
      CHECK(variants[i].machine.params.number("byte_time") == near(1e-6));
      CHECK(variants[i].machine.params.number("start_time") == near(i % 2 == 0 ? 75e-6 : 10e-6));
    }
  }

  TEST_CASE("A swept machine path resolves against the scenario folder") {
    const Scenario scenario =
        from_text("schema_version: 1\ntrace: ti:t.txt\nsweep: {machine: [minimal_machine.yaml, ethernet_bus]}\n",
                  "scenarios/fixtures");
    const auto variants = scenario.variants();
    REQUIRE(variants.size() == 2);
    CHECK(variants[0].machine.source == "scenarios/fixtures/minimal_machine.yaml");
    CHECK(variants[0].swept[0].second == "minimal_machine");
    CHECK(variants[1].machine.name == "ethernet_bus");
    CHECK_THROWS_WITH_AS(
        from_text("schema_version: 1\ntrace: ti:t.txt\nsweep: {machine: [ethernet_bus, ethernet_bus.yaml]}\n"),
        doctest::Contains("inline.yaml:3:33: error: the machine sweep axis names machine 'ethernet_bus' twice"),
        ConfigError);
    CHECK_THROWS_WITH_AS(from_text("schema_version: 1\ntrace: ti:t.txt\nsweep: {machine: []}\n"),
                         doctest::Contains("inline.yaml:3:18: error: empty list of machines for 'machine'"),
                         ConfigError);
    CHECK_THROWS_WITH_AS(from_text("schema_version: 1\ntrace: ti:t.txt\nsweep: {machine: ethernet_bus}\n"),
                         doctest::Contains("inline.yaml:3:18: error: expected a list of machines"), ConfigError);
  }

  TEST_CASE("--set sweep.machine sets replaces and removes the machine axis") {
    const std::string text =
        "schema_version: 1\ntrace: dvm:t.ptr\ngrids: [2, 4]\nsweep: {machine: [dvm_mvs, dvm_bus_eth]}\n";
    const Scenario replaced = from_text(text, "base", {"sweep.machine=dvm_transputer,dvm_eth75,dvm_mvs"});
    REQUIRE(replaced.sweep.size() == 1);
    CHECK(replaced.sweep[0].second == std::vector<std::string>{"dvm_transputer", "dvm_eth75", "dvm_mvs"});
    CHECK(replaced.variants().size() == 6);
    CHECK(replaced.variants()[1].machine.name == "dvm_eth75");
    // Appended as the last (fastest) axis to a scenario with one machine.
    const Scenario appended = from_text(
        "schema_version: 1\ntrace: ti:t.txt\nmachine: ethernet_bus\n"
        "sweep: {machine.scale: [1, 2]}\n",
        "base", {"sweep.machine=ethernet_bus,transputer_4x4"});
    REQUIRE(appended.sweep.size() == 2);
    CHECK(appended.sweep[1].first == "machine");
    CHECK(appended.variants()[1].swept[1].second == "transputer_4x4");
    // machine.<param> reaches every swept machine.
    const Scenario both = from_text(text, "base", {"sweep.machine=dvm_bus_eth,dvm_transputer", "machine.scale=3"});
    for (const auto& variant : both.variants()) CHECK(variant.machine.params.number("scale") == near(3.0));
    // machine= drops the axis; sweep.machine= keeps the first machine.
    const Scenario one = from_text(text, "base", {"machine=dvm_eth75"});
    CHECK(one.sweep.empty());
    CHECK(one.swept_machines.empty());
    CHECK(one.variants()[0].machine.name == "dvm_eth75");
    const Scenario removed = from_text(text, "base", {"sweep.machine="});
    CHECK(removed.sweep.empty());
    CHECK(removed.variants().size() == 2);
    CHECK(removed.variants()[0].machine.name == "dvm_mvs");
  }

  TEST_CASE("--set errors with a machine axis name the machine") {
    const std::string text = "schema_version: 1\ntrace: dvm:t.ptr\nsweep: {machine: [dvm_transputer, dvm_bus_eth]}\n";
    CHECK_THROWS_WITH_AS(from_text(text, "base", {"machine.grid=2x2"}),
                         doctest::Contains("--set: error: 'grid' is not a parameter of the swept machine "
                                           "'dvm_bus_eth' (model 'bus'"),
                         ConfigError);
    // A parameter the first swept machine lacks is not an unknown key either.
    CHECK_THROWS_WITH_AS(from_text("schema_version: 1\ntrace: dvm:t.ptr\nsweep: {machine: [dvm_mvs, dvm_bus_eth]}\n",
                                   "base", {"sweep.machine.scale=1,2"}),
                         doctest::Contains("--set: error: 'scale' is not a parameter of the swept machine "
                                           "'dvm_mvs' (model 'dvm_cluster'"),
                         ConfigError);
    CHECK_THROWS_WITH_AS(from_text(text, "base", {"sweep.machine=dvm_mvs,dvm_bus_ehh"}),
                         doctest::Contains("--set: error: unknown machine 'dvm_bus_ehh'"), ConfigError);
    CHECK_THROWS_WITH_AS(from_text(text, "base", {"sweep.machine=dvm_mvs,dvm_mvs"}),
                         doctest::Contains("--set: error: the machine sweep axis names machine 'dvm_mvs' twice"),
                         ConfigError);
    // A parameter axis that the new machines do not all have.
    CHECK_THROWS_WITH_AS(
        from_text("schema_version: 1\ntrace: ti:t.txt\nmachine: ethernet_bus\nsweep: {machine.scale: [1, 2]}\n", "base",
                  {"sweep.machine=ethernet_bus,platform_cluster_64"}),
        doctest::Contains("--set: error: sweep 'machine.scale': 'scale' is not a parameter of the swept machine "
                          "'platform_cluster_64'"),
        ConfigError);
    CHECK_THROWS_WITH_AS(from_text(text, "base", {"sweep.machin=dvm_mvs"}),
                         doctest::Contains("did you mean 'sweep.machine'?"), ConfigError);
  }

  TEST_CASE("An inline machine in the machine-file format") {
    const Scenario scenario = from_text(
        "schema_version: 1\ntrace: t.txt\n"
        "machine: {model: loggp_smp, cpu_speed: 1Gflops, latency: 1us, bandwidth: 10GBps, power: [1, 2]}\n");
    CHECK(scenario.machine.name == "inline");
    CHECK(scenario.machine.params.number("bandwidth") == near(1e10));
    CHECK(scenario.machine.params.list("power") == std::vector<double>{1, 2});
    const Scenario named =
        from_text("schema_version: 1\ntrace: t.txt\nmachine:\n  schema_version: 1\n  name: mine\n  model: bus\n");
    CHECK(named.machine.name == "mine");
    CHECK(named.machine.model == "bus");
  }

  TEST_CASE("The overrides section applies after the machine") {
    const Scenario scenario = from_text(header + "overrides:\n  latency: 2us\n  mapping: round_robin\n");
    CHECK(scenario.machine.params.number("latency") == near(2e-6));
    CHECK(scenario.machine.params.text("mapping") == "round_robin");
    CHECK(scenario.machine.params.number("bandwidth") == near(10e9));  // from the library
  }

  TEST_CASE("The sweep expands processors times axes in file order") {
    const Scenario scenario = from_text(header +
                                        "processors: [2, 4]\n"
                                        "sweep:\n"
                                        "  machine.latency: [1us, 2us]\n"
                                        "  machine.bandwidth: [1GBps, 2GBps, 4GBps]\n");
    REQUIRE(scenario.sweep.size() == 2);
    CHECK(scenario.sweep[0].first == "machine.latency");
    CHECK(scenario.sweep[1].first == "machine.bandwidth");
    const auto variants = scenario.variants();
    REQUIRE(variants.size() == 12);  // 2 processor counts x 2 latencies x 3 bandwidths
    auto check_variant = [&](std::size_t i, int p, const char* latency, const char* bandwidth) {
      CAPTURE(i);
      CHECK(variants[i].processors == p);
      REQUIRE(variants[i].swept.size() == 2);
      CHECK(variants[i].swept[0] == std::pair<std::string, std::string>{"machine.latency", latency});
      CHECK(variants[i].swept[1] == std::pair<std::string, std::string>{"machine.bandwidth", bandwidth});
    };
    check_variant(0, 2, "1us", "1GBps");
    check_variant(1, 2, "1us", "2GBps");
    check_variant(2, 2, "1us", "4GBps");
    check_variant(3, 2, "2us", "1GBps");
    check_variant(5, 2, "2us", "4GBps");
    check_variant(6, 4, "1us", "1GBps");
    check_variant(11, 4, "2us", "4GBps");
    CHECK(variants[5].machine.params.number("latency") == near(2e-6));
    CHECK(variants[5].machine.params.number("bandwidth") == near(4e9));
    CHECK(scenario.machine.params.number("latency") == near(1e-6));  // the base is untouched
  }

  TEST_CASE("A swept list parameter keeps its list") {
    const Scenario scenario = from_text(header + "sweep:\n  machine.power: [[1, 1], [2, 2]]\n");
    const auto variants = scenario.variants();
    REQUIRE(variants.size() == 2);
    CHECK(variants[1].swept[0].second == "[2, 2]");
    CHECK(variants[1].machine.params.list("power") == std::vector<double>{2, 2});
  }

  TEST_CASE("Sweeping processors is the processor list") {
    const Scenario scenario = from_text(header + "sweep:\n  processors: [1, 2]\n");
    CHECK(scenario.processors == std::vector<int>{1, 2});
    CHECK(scenario.sweep.empty());
    CHECK(scenario.variants().size() == 2);
    CHECK(from_text(header + "processors: 8\n").processors == std::vector<int>{8});
  }

  TEST_CASE("The processor count replaces every {P} of the trace path") {
    const Scenario scenario =
        from_text("schema_version: 1\ntrace: ti:run-{P}/p{P}.txt\nmachine: ethernet_bus\nprocessors: [2, 16]\n");
    CHECK(scenario.trace_path == "base/run-{P}/p{P}.txt");
    const auto variants = scenario.variants();
    REQUIRE(variants.size() == 2);
    CHECK(variants[0].trace_path == "base/run-2/p2.txt");
    CHECK(variants[1].trace_path == "base/run-16/p16.txt");
    Scenario without = scenario;
    without.processors.clear();
    CHECK_THROWS_WITH_AS(without.variants(), doctest::Contains("contains {P} but no processor counts"), ConfigError);
  }

  TEST_CASE("Relative paths resolve against the scenario folder") {
    CHECK(from_text("schema_version: 1\ntrace: t.txt\nmachine: ethernet_bus\n", "some/dir").trace_path ==
          "some/dir/t.txt");
    CHECK(from_text("schema_version: 1\ntrace: ../t.txt\nmachine: ethernet_bus\n", "some/dir").trace_path ==
          "some/t.txt");
    CHECK(from_text("schema_version: 1\ntrace: /abs/t.txt\nmachine: ethernet_bus\n", "some/dir").trace_path ==
          "/abs/t.txt");
    CHECK(from_text("schema_version: 1\ntrace: t.txt\nmachine: ethernet_bus\n", "").trace_path == "t.txt");
    const Scenario mapped =
        from_text("schema_version: 1\ntrace: {format: ptr, path: run/t.ptr}\nmachine: ethernet_bus\n", "d");
    CHECK(mapped.trace_format == "ptr");
    CHECK(mapped.trace_path == "d/run/t.ptr");
    // The machine file is looked up beside the scenario first (not in the working directory).
    const Scenario beside =
        from_text("schema_version: 1\ntrace: t.txt\nmachine: minimal_machine.yaml\n", "scenarios/fixtures");
    CHECK(beside.machine.source == "scenarios/fixtures/minimal_machine.yaml");
    CHECK(beside.machine.name == "minimal_machine");
  }

  TEST_CASE("The model and outputs sections are read") {
    const Scenario scenario = from_text(header +
                                        "model:\n"
                                        "  collectives: analytic\n"
                                        "  algorithms: {bcast: binomial, reduce_scatter: ring}\n"
                                        "  eager_transfer: send\n"
                                        "outputs: {json: out.json, text: out.txt, event_log: events.log}\n");
    CHECK(scenario.model.collectives == "analytic");
    CHECK(scenario.model.algorithms ==
          std::map<std::string, std::string>{{"bcast", "binomial"}, {"reduce_scatter", "ring"}});
    CHECK(scenario.model.eager_transfer == "send");
    CHECK(scenario.outputs.json == "out.json");  // relative to the working directory: not resolved
    CHECK(scenario.outputs.text == "out.txt");
    CHECK(scenario.outputs.event_log == "events.log");
  }

  TEST_CASE("Every collective kind of the engine may have an algorithm") {
    std::string algorithms = "model:\n  algorithms:\n";
    for (int kind = 0; kind <= static_cast<int>(augur::engine::CollectiveKind::exscan); ++kind)
      algorithms +=
          "    " + std::string(augur::engine::to_string(static_cast<augur::engine::CollectiveKind>(kind))) + ": ring\n";
    const Scenario scenario = from_text(header + algorithms);
    CHECK(scenario.model.algorithms.size() == 15);
    CHECK(scenario.model.algorithms.at("reduce_scatter") == "ring");
  }

  // ---- --set ---------------------------------------------------------------------------------

  TEST_CASE("--set changes each kind of key") {
    Scenario scenario = scen::load_scenario_file(example("default.yaml"), registry());
    auto set = [&](const std::string& assignment) { scen::apply_override(scenario, assignment, registry()); };
    set("name=renamed");
    CHECK(scenario.name == "renamed");
    set("trace=ti:other-{P}.txt");
    CHECK(scenario.trace_path == "other-{P}.txt");  // command-line paths: the working directory
    set("trace=plain.txt");
    CHECK(scenario.trace_format == "ti");
    CHECK(scenario.trace_path == "plain.txt");
    set("processors=1,2,3");
    CHECK(scenario.processors == std::vector<int>{1, 2, 3});
    set("processors=[2, 4]");
    CHECK(scenario.processors == std::vector<int>{2, 4});
    set("sweep.processors=8");
    CHECK(scenario.processors == std::vector<int>{8});
    set("machine.latency = 3us");
    CHECK(scenario.machine.params.number("latency") == near(3e-6));
    set("machine.power=[1, 2]");
    CHECK(scenario.machine.params.list("power") == std::vector<double>{1, 2});
    set("model.collectives=analytic");
    CHECK(scenario.model.collectives == "analytic");
    set("model.algorithms.bcast=binomial");
    CHECK(scenario.model.algorithms.at("bcast") == "binomial");
    set("model.algorithms.bcast=");
    CHECK(scenario.model.algorithms.empty());
    set("model.eager_transfer=send");
    CHECK(scenario.model.eager_transfer == "send");
    set("outputs.json=a.json");
    set("outputs.text=a.txt");
    set("outputs.event_log=a.log");
    CHECK(scenario.outputs.json == "a.json");
    CHECK(scenario.outputs.text == "a.txt");
    CHECK(scenario.outputs.event_log == "a.log");
    set("sweep.machine.latency=1us,10us");
    set("sweep.machine.bandwidth=[1GBps, 2GBps]");
    REQUIRE(scenario.sweep.size() == 2);
    CHECK(scenario.sweep[0].second == std::vector<std::string>{"1us", "10us"});
    set("sweep.machine.latency=5us");  // replaces the axis in place
    CHECK(scenario.sweep[0] == std::pair<std::string, std::vector<std::string>>{"machine.latency", {"5us"}});
    set("sweep.machine.latency=");  // removes it
    REQUIRE(scenario.sweep.size() == 1);
    CHECK(scenario.sweep[0].first == "machine.bandwidth");
    CHECK_THROWS_WITH_AS(set("machine=ethernet_bus"),
                         "--set: error: the sweep key 'machine.bandwidth' is not a parameter of machine model 'bus'",
                         ConfigError);
    CHECK(scenario.machine.model == "loggp_smp");  // a failed --set changes nothing
    set("sweep.machine.bandwidth=");
    set("machine=ethernet_bus");
    CHECK(scenario.machine.model == "bus");
    CHECK_FALSE(scenario.machine.params.has("latency"));
  }

  TEST_CASE("--set machine replaces the machine and its earlier overrides") {
    const Scenario scenario =
        from_text(header + "overrides: {latency: 9us}\n", "base", {"machine=smp_cluster", "machine.bandwidth=1GBps"});
    CHECK(scenario.machine.name == "smp_cluster");
    CHECK(scenario.machine.params.number("latency") != near(9e-6));
    CHECK(scenario.machine.params.number("bandwidth") == near(1e9));
  }

  TEST_CASE("--set errors name the key") {
    Scenario scenario = scen::load_scenario_file(example("default.yaml"), registry());
    auto set = [&](const std::string& assignment) { scen::apply_override(scenario, assignment, registry()); };
    CHECK_THROWS_WITH_AS(set("machine.latncy=1us"),
                         "--set: error: unknown key 'machine.latncy'; did you mean 'machine.latency'?", ConfigError);
    CHECK_THROWS_WITH_AS(set("procesors=4"), "--set: error: unknown key 'procesors'; did you mean 'processors'?",
                         ConfigError);
    CHECK_THROWS_WITH_AS(set("model.algorithms.allreduse=ring"),
                         "--set: error: unknown key 'model.algorithms.allreduse'; did you mean "
                         "'model.algorithms.allreduce'?",
                         ConfigError);
    CHECK_THROWS_WITH_AS(set("sweep.machine.latncy=1us"),
                         "--set: error: unknown key 'sweep.machine.latncy'; did you mean 'sweep.machine.latency'?",
                         ConfigError);
    CHECK_THROWS_WITH_AS(set("colour=red"),
                         doctest::Contains("--set: error: unknown key 'colour'; valid keys are: name, trace, "
                                           "machine, processors, machine.<parameter>, "),
                         ConfigError);
    CHECK_THROWS_WITH_AS(set("processors"), "--set: error: expected key=value, got 'processors'", ConfigError);
    CHECK_THROWS_WITH_AS(set("machine.latency=5 parsecs"),
                         doctest::Contains("--set: error: parameter 'latency': invalid time '5 parsecs'"), ConfigError);
    CHECK_THROWS_WITH_AS(set("processors=4,0"),
                         "--set: error: invalid processor count '0' for 'processors': expected a positive integer",
                         ConfigError);
    CHECK_THROWS_WITH_AS(set("sweep.machine.latency=1us,2 eons"),
                         doctest::Contains("--set: error: parameter 'latency': invalid time '2 eons'"), ConfigError);
    CHECK_THROWS_WITH_AS(set("model.eager_transfer=eager"),
                         "--set: error: invalid eager_transfer 'eager'. Valid values are: match, send", ConfigError);
    CHECK_THROWS_WITH_AS(set("trace=otf:x.otf"), "--set: error: unknown trace format 'otf'; did you mean 'otf2'?",
                         ConfigError);
    CHECK_THROWS_WITH_AS(set("machine=no_such_machine"),
                         doctest::Contains("--set: error: unknown machine 'no_such_machine'"), ConfigError);
    CHECK(scenario.machine.params.number("latency") == near(1e-6));  // nothing half-applied
  }

  TEST_CASE("--set machine rechecks the sweep against the new model") {
    CHECK_THROWS_WITH_AS(scen::load_scenario_file(example("latency_sweep.yaml"), registry(), {"machine=ethernet_bus"}),
                         "--set: error: the sweep key 'machine.latency' is not a parameter of machine model 'bus'",
                         ConfigError);
  }

  TEST_CASE("--set processors to nothing leaves {P} without a value") {
    CHECK_THROWS_WITH_AS(scen::load_scenario_file(example("default.yaml"), registry(), {"processors="}),
                         doctest::Contains("default.yaml:7:8: error: the trace path '"), ConfigError);
  }

  // ---- broken files: one defect each, pinned with file:line:col and the message ---------------

  TEST_CASE("Broken scenario with an unknown key") {
    CHECK_THROWS_WITH_AS(load_broken("unknown_key.yaml"),
                         doctest::Contains("unknown_key.yaml:5:1: error: unknown key 'procesors'; did you mean "
                                           "'processors'?"),
                         ConfigError);
  }

  TEST_CASE("Broken machine with a bad unit") {
    CHECK_THROWS_WITH_AS(load_broken_machine("bad_unit.yaml"),
                         doctest::Contains("bad_unit.yaml:4:10: error: parameter 'latency': invalid time '5 "
                                           "parsecs': expected a number followed by one of s, ms, us, ns"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario whose machine file has a bad unit points into the machine file") {
    CHECK_THROWS_WITH_AS(load_broken("machine_file_with_bad_unit.yaml"),
                         doctest::Contains("scenarios/fixtures/broken/bad_unit.yaml:4:10: error: parameter "
                                           "'latency': invalid time '5 parsecs'"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario without schema_version") {
    CHECK_THROWS_WITH_AS(load_broken("missing_schema_version.yaml"),
                         doctest::Contains("missing_schema_version.yaml:2:1: error: missing required key "
                                           "'schema_version'"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a future schema_version") {
    CHECK_THROWS_WITH_AS(load_broken("wrong_schema_version.yaml"),
                         doctest::Contains("wrong_schema_version.yaml:2:17: error: unsupported schema_version 2 "
                                           "(this augur reads 1)"),
                         ConfigError);
  }

  TEST_CASE("Broken machine with an unknown model") {
    CHECK_THROWS_WITH_AS(
        load_broken_machine("unknown_model.yaml"),
        doctest::Contains(
            "unknown_model.yaml:3:8: error: unknown machine model 'logp_smp'; did "
            "you mean 'loggp_smp'? Valid values are: bus, dvm_cluster, flow_network, loggp_smp, simgrid_platform, "
            "transputer_grid"),
        ConfigError);
  }

  TEST_CASE("Broken machine with an unknown parameter") {
    CHECK_THROWS_WITH_AS(load_broken_machine("unknown_machine_param.yaml"),
                         doctest::Contains("unknown_machine_param.yaml:5:1: error: unknown key 'latncy'; did you "
                                           "mean 'latency'?"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a bad sweep value") {
    CHECK_THROWS_WITH_AS(load_broken("bad_sweep_value.yaml"),
                         doctest::Contains("bad_sweep_value.yaml:6:26: error: parameter 'latency': invalid time "
                                           "'10 furlongs'"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a processor count of zero") {
    CHECK_THROWS_WITH_AS(load_broken("bad_processors.yaml"),
                         doctest::Contains("bad_processors.yaml:5:17: error: invalid processor count '0': expected "
                                           "a positive integer"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a YAML syntax error") {
    CHECK_THROWS_WITH_AS(load_broken("syntax_error.yaml"),
                         doctest::Contains("syntax_error.yaml:5:8: error: end of sequence flow not found"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a scalar where a map belongs") {
    CHECK_THROWS_WITH_AS(load_broken("scalar_for_map.yaml"),
                         doctest::Contains("scalar_for_map.yaml:5:10: error: expected a map for 'outputs', found "
                                           "a scalar"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a map where a value belongs") {
    CHECK_THROWS_WITH_AS(load_broken("map_for_scalar.yaml"),
                         doctest::Contains("map_for_scalar.yaml:3:7: error: expected a single value for 'name', "
                                           "found a map"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario naming an unknown library machine") {
    CHECK_THROWS_WITH_AS(load_broken("unknown_library_machine.yaml"),
                         doctest::Contains("unknown_library_machine.yaml:4:10: error: unknown machine "
                                           "'platfrom_cluster_64': no such file"),
                         ConfigError);
    CHECK_THROWS_WITH_AS(load_broken("unknown_library_machine.yaml"),
                         doctest::Contains("; did you mean 'platform_cluster_64'? Library machines: "), ConfigError);
  }

  TEST_CASE("Broken scenario with a bad eager_transfer choice") {
    CHECK_THROWS_WITH_AS(load_broken("bad_eager_transfer.yaml"),
                         doctest::Contains("bad_eager_transfer.yaml:7:19: error: invalid eager_transfer 'sned'; "
                                           "did you mean 'send'? Valid values are: match, send"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario sweeping an unknown machine") {
    CHECK_THROWS_WITH_AS(load_broken("unknown_swept_machine.yaml"),
                         doctest::Contains("unknown_swept_machine.yaml:5:22: error: unknown machine "
                                           "'dvm_bus_ehh': no such file"),
                         ConfigError);
    CHECK_THROWS_WITH_AS(load_broken("unknown_swept_machine.yaml"),
                         doctest::Contains("; did you mean 'dvm_bus_eth'? Library machines: dvm_bus_eth, dvm_eth75, "
                                           "dvm_mvs, dvm_transputer, ethernet_bus, "),
                         ConfigError);
  }

  TEST_CASE("Broken scenario overriding a parameter one swept machine lacks") {
    CHECK_THROWS_WITH_AS(load_broken("swept_machine_bad_override.yaml"),
                         doctest::Contains("swept_machine_bad_override.yaml:7:3: error: 'grid' is not a parameter "
                                           "of the swept machine 'dvm_bus_eth' (model 'bus'; its parameters are: "
                                           "byte_time, channels, "),
                         ConfigError);
    CHECK_THROWS_WITH_AS(load_broken("swept_machine_bad_axis.yaml"),
                         doctest::Contains("swept_machine_bad_axis.yaml:6:3: error: 'start_time' is not a "
                                           "parameter of the swept machine 'dvm_mvs' (model 'dvm_cluster'"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a machine and a machine axis") {
    CHECK_THROWS_WITH_AS(load_broken("machine_and_machine_axis.yaml"),
                         doctest::Contains("machine_and_machine_axis.yaml:6:3: error: 'machine' is given both at "
                                           "the top level and in 'sweep'; keep one"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with an unknown collective kind") {
    CHECK_THROWS_WITH_AS(load_broken("unknown_collective_kind.yaml"),
                         doctest::Contains("unknown_collective_kind.yaml:8:5: error: unknown collective kind "
                                           "'allreduse'; did you mean 'allreduce'?"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a duplicate key") {
    CHECK_THROWS_WITH_AS(load_broken("duplicate_key.yaml"),
                         doctest::Contains("duplicate_key.yaml:6:1: error: duplicate key 'name' (first given at "
                                           "line 3)"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario overriding an unknown parameter") {
    CHECK_THROWS_WITH_AS(load_broken("unknown_override.yaml"),
                         doctest::Contains("unknown_override.yaml:7:3: error: unknown key 'bandwith'; did you "
                                           "mean 'bandwidth'?"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario sweeping an unknown parameter") {
    CHECK_THROWS_WITH_AS(load_broken("unknown_sweep_key.yaml"),
                         doctest::Contains("unknown_sweep_key.yaml:5:9: error: unknown key 'machine.latncy'; did "
                                           "you mean 'machine.latency'?"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario sweeping a single value") {
    CHECK_THROWS_WITH_AS(load_broken("sweep_not_a_list.yaml"),
                         doctest::Contains("sweep_not_a_list.yaml:6:20: error: expected a list of values for "
                                           "'machine.latency', found a scalar"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with an unknown trace format") {
    CHECK_THROWS_WITH_AS(load_broken("unknown_trace_format.yaml"),
                         doctest::Contains("unknown_trace_format.yaml:3:8: error: unknown trace format 'tii'; did "
                                           "you mean 'ti'?"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with an inline machine without model") {
    CHECK_THROWS_WITH_AS(load_broken("inline_machine_without_model.yaml"),
                         doctest::Contains("inline_machine_without_model.yaml:5:3: error: missing required key "
                                           "'model'"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a bad list item points at the item") {
    CHECK_THROWS_WITH_AS(load_broken("bad_list_item.yaml"),
                         doctest::Contains("bad_list_item.yaml:4:40: error: parameter 'power': item 2 of '[1, "
                                           "fast, 1]': invalid real 'fast'"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with {P} and no processors") {
    CHECK_THROWS_WITH_AS(load_broken("placeholder_without_processors.yaml"),
                         doctest::Contains("placeholder_without_processors.yaml:3:8: error: the trace path "
                                           "'scenarios/fixtures/broken/traces/stencil-{P}/trace.txt' contains {P} "
                                           "but no processor counts are given (set 'processors')"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario with a key without value") {
    CHECK_THROWS_WITH_AS(load_broken("empty_value.yaml"),
                         doctest::Contains("empty_value.yaml:4:1: error: expected a machine name, a path or an "
                                           "inline machine map for 'machine', found nothing"),
                         ConfigError);
  }

  TEST_CASE("Broken scenario without trace") {
    CHECK_THROWS_WITH_AS(load_broken("missing_trace.yaml"),
                         doctest::Contains("missing_trace.yaml:2:1: error: missing required key 'trace'"), ConfigError);
  }

  TEST_CASE("A missing file an empty document and a folder are errors") {
    CHECK_THROWS_WITH_AS(load_broken("no_such_file.yaml"),
                         "scenarios/fixtures/broken/no_such_file.yaml: error: cannot open: No such file or directory",
                         ConfigError);
    CHECK_THROWS_WITH_AS(scen::load_machine_file("scenarios/fixtures", registry()),
                         "scenarios/fixtures: error: cannot open: Is a directory", ConfigError);
    CHECK_THROWS_WITH_AS(from_text(""), "inline.yaml: error: expected a map for the scenario, found nothing",
                         ConfigError);
    CHECK_THROWS_WITH_AS(from_text("- 1\n- 2\n"),
                         "inline.yaml:1:1: error: expected a map for the scenario, found a list", ConfigError);
  }

}  // TEST_SUITE
