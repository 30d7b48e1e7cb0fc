// Tests of the legacy Predictor.par reader (spec 3.3): every shipped sample loads, both formats
// map onto the right model, and every defect of a broken file is pinned with its position.
#include "scenarios/predictor_par.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "machines/dvm_cluster/dvm_cluster_machine.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/scenario.hpp"

namespace scen = augur::scenarios;
using scen::ConfigError;

namespace {

const augur::machines::MachineRegistry& registry() {
  static const augur::machines::MachineRegistry instance = [] {
    augur::machines::MachineRegistry built;
    augur::machines::register_builtin_machines(built);
    return built;
  }();
  return instance;
}

std::string samples(const std::string& name) { return AUGUR_SHARED_DIR "/dvm-samples/" + name; }
std::string library(const std::string& name) { return AUGUR_SOURCE_DIR "/machines/library/" + name; }
// Tests run in tests/ (CTest's WORKING_DIRECTORY), so fixtures are relative paths.
std::string broken_par(const std::string& name) { return "scenarios/fixtures/par/" + name; }

scen::MachineDescription load(const std::string& path) { return scen::load_machine_file(path, registry()); }
scen::MachineDescription parse(const std::string& text) {
  return scen::parse_predictor_par(text, "inline.par", registry());
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("PredictorPar loads every shipped machine file") {
    const std::vector<std::string> files = {"Predictor.mvs.par",
                                            "Predictor-NCI.par",
                                            "oracle/pars/eth75.par",
                                            "oracle/pars/trp75.par",
                                            "oracle/pars/old_ethernet.par",
                                            "oracle/pars/old_transputer.par"};
    for (const auto& file : files) {
      CAPTURE(file);
      const auto machine = load(samples(file));
      CHECK(machine.source == samples(file));
      const auto& info = registry().get(machine.model);
      CHECK(info.create(machine.params, 4) != nullptr);
    }
    // Every *.par in the samples folder is either a machine or (pred_trc.par, the runtime's trace
    // settings) rejected with a clear message.
    int machines = 0;
    for (const auto& entry : std::filesystem::directory_iterator(samples(""))) {
      if (entry.path().extension() != ".par") continue;
      if (entry.path().filename() == "pred_trc.par") {
        CHECK_THROWS_WITH_AS(load(entry.path().string()),
                             doctest::Contains("pred_trc.par: error: not a Predictor machine file"), ConfigError);
        continue;
      }
      CHECK_NOTHROW(load(entry.path().string()));
      ++machines;
    }
    CHECK(machines == 2);
  }

  TEST_CASE("PredictorPar maps the cluster format onto dvm_cluster") {
    const auto mvs = load(samples("Predictor.mvs.par"));
    CHECK(mvs.model == "dvm_cluster");
    CHECK(mvs.name == "Predictor.mvs");
    CHECK(mvs.params.text("clusters") ==
          "mvs = {512 x mvsp2} myrinet(1) 7us 0.004us; mvsp2 = {2 x mvsp1} myrinet(1) 1us 0.001us; "
          "mvsp1 = 1");
    // The library's YAML equivalents describe the same machines, parameter for parameter.
    CHECK(load(library("dvm_mvs.yaml")).params.describe() == mvs.params.describe());
    CHECK(load(library("dvm_eth75.yaml")).params.describe() ==
          load(samples("oracle/pars/eth75.par")).params.describe());
    CHECK(scen::resolve_machine("dvm_mvs", registry()).params.describe() == mvs.params.describe());
    // TStart, TByte are 3.1's µs / 1000000 exactly: processors 0, 2 (different nodes) pay
    // 7us + 1000·0.004us = 11us.
    augur::machines::DvmClusterMachine machine(mvs.params, 4);
    CHECK(machine.transfer(0, 2, 1000, 0).arrival == 7.0 / 1000000 + 1000.0 * (0.004 / 1000000));
  }

  TEST_CASE("PredictorPar prices eth75 and trp75 alike as 3.1 does") {
    auto eth = registry().get("dvm_cluster").create(load(samples("oracle/pars/eth75.par")).params, 4);
    auto trp = registry().get("dvm_cluster").create(load(samples("oracle/pars/trp75.par")).params, 4);
    const std::vector<std::vector<std::uint64_t>> matrix = {
        {0, 800, 0, 8}, {800, 0, 800, 0}, {0, 800, 0, 800}, {8, 0, 800, 0}};
    const std::vector<double> ready = {1e-3, 2e-3, 0.5e-3, 0};
    CHECK(eth->dvm_pricing().matrix_cost_at(matrix, ready) == trp->dvm_pricing().matrix_cost_at(matrix, ready));
  }

  TEST_CASE("PredictorPar maps the old format onto bus and transputer_grid") {
    const auto ethernet = load(samples("oracle/pars/old_ethernet.par"));
    CHECK(ethernet.model == "bus");
    CHECK(ethernet.params.number("start_time") == 75.0 / 1000000);
    CHECK(ethernet.params.number("byte_time") == 0.2 / 1000000);
    CHECK(ethernet.params.integer("channels") == 1);
    CHECK_FALSE(ethernet.params.flag("symmetric_transfers"));
    CHECK(load(samples("oracle/pars/old_transputer.par")).model == "transputer_grid");

    // myrinet(4): four symmetric channels; scale and power carried over; case, repeated blanks,
    // comments and statements over several lines do not matter; search and weight are ignored.
    const auto myrinet = parse(
        "// old format\nTYPE   =  Myrinet ( 4 ) ;\nStart Time = 20;\nsend byte\n time = 0.01;\n"
        "scale = 2;  power = 0.5;\nsearch = 1;\nweight = {1, 2(3)};\n");
    CHECK(myrinet.model == "bus");
    CHECK(myrinet.params.integer("channels") == 4);
    CHECK(myrinet.params.flag("symmetric_transfers"));
    CHECK(myrinet.params.number("scale") == 2);
    CHECK(myrinet.params.list("power") == std::vector<double>{0.5});
    CHECK(myrinet.name == "inline");

    // network = ethernet; a topology is the suggested grid, and the transputer's `grid`.
    CHECK(parse("type = network; start time = 1; send byte time = 1;").params.integer("channels") == 1);
    const auto grid = parse("type = transputer; start = 10; send = 1; topology = {2, 0:1};");
    CHECK(grid.topology == std::vector<int>{2, 2});
    CHECK(grid.params.list("grid") == std::vector<double>{2, 2});

    // procpowers + mapping: processors 0..1 of cluster 1 have power 2, 2..3 power 0.5; the
    // mapping takes 0..3 with step 2 → powers [2, 0.5].
    const auto powers = parse(
        "type = ethernet; start time = 1; send byte time = 1;\n"
        "procpowers = { 1 { 0 1 : 2.0, 2 3 : 0.5 } };\nmapping = { 1 : 0 3 : 2 };\n");
    CHECK(powers.params.list("power") == std::vector<double>{2, 0.5});
  }

  TEST_CASE("PredictorPar is accepted wherever a machine is") {
    // By content, without the .par extension.
    const auto sniffed = load("scenarios/fixtures/par_machine.txt");
    CHECK(sniffed.model == "dvm_cluster");
    CHECK(sniffed.params.text("clusters") == "eth = {4 x p1} ethernet 75us 0.2us; p1 = 1");
    // As a scenario's machine and through resolve_machine (the CLI's --machine).
    CHECK(scen::resolve_machine(samples("oracle/pars/eth75.par"), registry()).model == "dvm_cluster");
    const auto scenario =
        scen::load_scenario_text("schema_version: 1\ntrace: ti:t.txt\nmachine: " + samples("Predictor.mvs.par") + "\n",
                                 "inline.yaml", ".", registry());
    CHECK(scenario.machine.model == "dvm_cluster");
    CHECK(scenario.machine.name == "Predictor.mvs");
    CHECK(scen::looks_like_predictor_par("x.PAR", ""));
    CHECK_FALSE(scen::looks_like_predictor_par("x.yaml", "# c\nmodel: bus\nx: a=b\n"));
    CHECK(scen::looks_like_predictor_par("x.txt", "\n  type = ethernet;\n"));
  }

  TEST_CASE("PredictorPar pins every defect of a broken file") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"missing_semicolon.par", ":3:1: error: expected ';' at the end of the statement, found 'p1'"},
        {"undefined_subcluster.par", ":2:12: error: cluster 'p2' is not defined; did you mean 'p1'?"},
        {"unknown_property.par", ":3:5: error: unknown cluster property 'tstrat'; did you mean 'tstart'?"},
        {"property_before_definition.par",
         ":2:1: error: cluster 'eth' is not defined yet: define it ('eth = {…};') before its "
         "properties (Predictor 3.1 ignores them)"},
        {"unknown_commtype.par",
         ":3:16: error: unknown CommType 'infiniband': expected ethernet, transputer, myrinet(n) or "
         "OTHER.commtype"},
        {"undefined_root.par", ":1:11: error: cluster 'mvs' is not defined"},
        {"duplicate_cluster.par", ":4:1: error: cluster 'eth' is defined twice (first at line 2)"},
        {"cycle.par", ":3:10: error: cluster 'a' contains itself (through 'b')"},
        {"myrinet_zero.par", ":3:24: error: myrinet(n) needs at least 1 channel"},
        {"unit_suffix.par", ":3:16: error: expected ';' at the end of the statement, found 'us'"},
        {"unexpected_character.par", ":2:10: error: unexpected character '*'"},
        {"mixed_formats.par",
         ":2:1: error: 'type = …' belongs to the old format; a cluster-format file ('cluster = …') "
         "gives each cluster's network as NAME.CommType"},
        {"zero_power.par", ":3:6: error: the power of processor 'p1' must be positive"},
        {"old_unknown_type.par",
         ":1:8: error: unknown machine type 'token_ring': expected ethernet, network, transputer or "
         "myrinet(n)"},
        {"old_unknown_key.par",
         ":4:1: error: unknown setting 'powr' of an old-format Predictor.par; did you mean 'power'?"},
        {"old_missing_type_value.par", ":3:8: error: expected ethernet, network, transputer or myrinet(n), found ';'"},
        {"old_missing_type.par",
         ": error: missing 'type = ethernet|network|transputer|myrinet(n);' (old-format Predictor.par)"},
        {"old_bad_number.par", ":2:14: error: expected start time in microseconds, found 'abc'"},
        {"old_procpowers_without_mapping.par",
         ":4:1: error: procpowers needs a mapping statement (Predictor's error 25)"},
        {"not_a_machine.par",
         ": error: not a Predictor machine file: it has neither 'cluster = NAME;' (the cluster format "
         "of Predictor 3.1) nor 'type = ethernet|network|transputer|myrinet(n);' (the old format)"},
    };
    for (const auto& [file, message] : cases) {
      CAPTURE(file);
      CHECK_THROWS_WITH_AS(load(broken_par(file)), (broken_par(file) + message).c_str(), ConfigError);
    }
    CHECK_THROWS_WITH_AS(load(broken_par("no_such_file.par")),
                         "scenarios/fixtures/par/no_such_file.par: error: cannot open the machine file", ConfigError);
  }
}  // TEST_SUITE
