// Tests of the bus model (spec 7.1, 6.3) against hand computations, plus the parts every model
// shares (compute pricing, power ratios) and the registry of built-in models.
#include "machines/bus/bus_machine.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "machines/registry.hpp"

using augur::engine::CollectiveKind;
using augur::machines::bus_params;
using augur::machines::BusMachine;
using augur::machines::MachineRegistry;
using augur::machines::ParamError;
using augur::machines::ParamSet;

namespace {

/// Ts = 75us, Tb = 0.2us per byte, so a 1000-byte message takes 75 + 200 = 275us.
ParamSet bus_setup(const char* channels = "1", const char* scale = "1") {
  ParamSet params(bus_params(), "bus");
  params.set("start_time", "75us");
  params.set("byte_time", "0.2us");
  params.set("channels", channels);
  params.set("scale", scale);
  return params;
}

doctest::Approx seconds(double value) { return doctest::Approx(value).epsilon(1e-12); }

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// Reads a flat machine file (key: value lines, # comments) into the ParamSet of its model;
/// enough for the library files, not a YAML parser.
ParamSet read_library_machine(const std::string& file, const MachineRegistry& registry) {
  std::ifstream in(std::string(AUGUR_SOURCE_DIR) + "/machines/library/" + file);
  REQUIRE_MESSAGE(in.good(), file);
  std::vector<std::pair<std::string, std::string>> entries;
  std::string model;
  for (std::string line; std::getline(in, line);) {
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    const auto colon = line.find(':');
    REQUIRE_MESSAGE(colon != std::string::npos, line);
    const std::string key = trimmed(line.substr(0, colon));
    const std::string value = trimmed(line.substr(colon + 1));
    if (key == "model")
      model = value;
    else if (key != "schema_version" && key != "description")
      entries.emplace_back(key, value);
  }
  ParamSet params = make_params(registry.get(model));
  for (const auto& [key, value] : entries) params.set(key, value);
  return params;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("BusMachine prices one message as Ts plus Tb times n") {
    BusMachine bus(bus_setup(), 4);
    const auto t = bus.transfer(0, 1, 1024, 0);
    // Ts + Tb·n = 75e-6 + 0.2e-6·1024 = 2.798e-4 s
    CHECK(t.arrival == seconds(2.798e-4));
    CHECK(t.start == 0.0);
    CHECK(t.sender_free == 0.0);  // the sender's CPU is not held by the bus
    CHECK(t.recv_overhead == 0.0);
  }

  TEST_CASE("BusMachine serialises simultaneous messages on one channel") {
    BusMachine bus(bus_setup(), 4);
    // each: Ts + Tb·1000 = 75us + 200us = 275us; they follow one another on the bus
    const auto a = bus.transfer(0, 1, 1000, 0);
    const auto b = bus.transfer(2, 3, 1000, 0);
    const auto c = bus.transfer(1, 2, 1000, 0);
    CHECK(a.arrival == seconds(275e-6));
    CHECK(b.start == seconds(275e-6));
    CHECK(b.arrival == seconds(550e-6));  // 2·275us
    CHECK(c.start == seconds(550e-6));
    CHECK(c.arrival == seconds(825e-6));  // 3·275us
  }

  TEST_CASE("BusMachine spreads simultaneous messages over two channels") {
    BusMachine bus(bus_setup("2"), 4);
    // channels 0 and 1 take the first two at once; the third waits for channel 0 (lowest index)
    CHECK(bus.transfer(0, 1, 1000, 0).arrival == seconds(275e-6));
    CHECK(bus.transfer(2, 3, 1000, 0).arrival == seconds(275e-6));
    const auto third = bus.transfer(1, 2, 1000, 0);
    CHECK(third.start == seconds(275e-6));
    CHECK(third.arrival == seconds(550e-6));
  }

  TEST_CASE("BusMachine starts a later message when it is ready") {
    BusMachine bus(bus_setup(), 2);
    bus.transfer(0, 1, 1000, 0);  // bus busy until 275us
    const auto later = bus.transfer(1, 0, 0, 1e-3);
    // empty message ready at 1ms on a free bus: 1ms + Ts = 1.075e-3 s
    CHECK(later.start == 1e-3);
    CHECK(later.arrival == seconds(1.075e-3));
  }

  TEST_CASE("BusMachine sends a message to oneself for free") {
    BusMachine bus(bus_setup(), 2);
    const auto self = bus.transfer(1, 1, 1000, 5e-6);
    CHECK(self.arrival == 5e-6);
    // and the bus is still free: the next message starts at once
    CHECK(bus.transfer(0, 1, 1000, 5e-6).start == 5e-6);
  }

  TEST_CASE("BusMachine scale multiplies communication") {
    BusMachine bus(bus_setup("1", "2"), 2);
    // σ·(Ts + Tb·n) = 2·275us = 550us
    CHECK(bus.transfer(0, 1, 1000, 0).arrival == seconds(550e-6));
  }

  TEST_CASE("BusMachine reset frees every channel") {
    BusMachine bus(bus_setup(), 2);
    bus.transfer(0, 1, 1000, 0);
    bus.reset();
    CHECK(bus.transfer(0, 1, 1000, 0).start == 0.0);
  }

  TEST_CASE("BusMachine matrix_cost is the Predictor bus formula") {
    const std::vector<std::vector<std::uint64_t>> matrix{
        {999, 1000, 0},  // the diagonal is ignored
        {0, 0, 500},
        {0, 0, 0},
    };
    // Σ (Ts + Tb·T) = (75 + 200) + (75 + 100) = 450us; / min(3, 1)
    BusMachine one(bus_setup(), 3);
    CHECK(one.dvm_pricing().matrix_cost(matrix) == seconds(450e-6));
    // two channels: 450us / min(3, 2) = 225us
    BusMachine two(bus_setup("2"), 3);
    CHECK(two.dvm_pricing().matrix_cost(matrix) == seconds(225e-6));
    // σ = 2: 900us
    BusMachine scaled(bus_setup("1", "2"), 3);
    CHECK(scaled.dvm_pricing().matrix_cost(matrix) == seconds(900e-6));
    // no traffic: 0
    CHECK(one.dvm_pricing().matrix_cost({{0, 0}, {0, 0}}) == 0.0);
  }

  TEST_CASE("BusMachine symmetric_transfers prices max of both directions once per pair") {
    ParamSet params = bus_setup();
    params.set("symmetric_transfers", "true");
    BusMachine bus(params, 3);
    // pair (0, 1): U = max(1000, 0) = 1000 → 75 + 200 = 275us (Predictor 2.53's Myrinet: the two
    // directions of a pair travel together); pair (1, 2): max(500, 1000) = 1000 → 275us; 550us
    CHECK(bus.dvm_pricing().matrix_cost({{0, 1000, 0}, {0, 0, 500}, {0, 1000, 0}}) == seconds(550e-6));
    // without it, three messages: 275 + 175 + 275 = 725us
    BusMachine plain(bus_setup(), 3);
    CHECK(plain.dvm_pricing().matrix_cost({{0, 1000, 0}, {0, 0, 500}, {0, 1000, 0}}) == seconds(725e-6));
  }

  TEST_CASE("BusMachine collective_time counts serialised messages") {
    BusMachine bus(bus_setup(), 4);
    // bcast: (P−1)·(Ts + Tb·n) = 3·275us = 825us
    CHECK(bus.collective_time(CollectiveKind::bcast, 4, 1000, 0) == seconds(825e-6));
    // allreduce: 2(P−1)·275us = 1650us
    CHECK(bus.collective_time(CollectiveKind::allreduce, 4, 1000, 0) == seconds(1650e-6));
    // barrier: 2(P−1)·Ts = 6·75us = 450us
    CHECK(bus.collective_time(CollectiveKind::barrier, 4, 0, 0) == seconds(450e-6));
    // alltoall: P(P−1)·275us = 12·275us = 3300us
    CHECK(bus.collective_time(CollectiveKind::alltoall, 4, 1000, 0) == seconds(3300e-6));
    // scan: a chain of (P−1) messages = 825us
    CHECK(bus.collective_time(CollectiveKind::scan, 4, 1000, 0) == seconds(825e-6));
    CHECK(bus.collective_time(CollectiveKind::bcast, 1, 1000, 0) == 0.0);
    // two channels halve the rooted ones: 825us / 2 = 412.5us
    BusMachine two(bus_setup("2"), 4);
    CHECK(two.collective_time(CollectiveKind::bcast, 4, 1000, 0) == seconds(412.5e-6));
  }

  TEST_CASE("BusMachine rejects zero channels") {
    CHECK_THROWS_WITH_AS(BusMachine(bus_setup("0"), 2), "parameter 'channels': a bus needs at least 1 channel",
                         ParamError);
  }

  TEST_CASE("MachineModel compute_time divides flops by speed and power") {
    ParamSet params = bus_setup();
    params.set("cpu_speed", "2Gflops");
    params.set("power", "[1, 0.5]");
    BusMachine bus(params, 4);
    // flops / (cpu_speed·power): 1e9 / (2e9·1) = 0.5 s; 1e9 / (2e9·0.5) = 1 s
    CHECK(bus.compute_time(0, 1e9) == 0.5);
    CHECK(bus.compute_time(1, 1e9) == 1.0);
    // processors past the list repeat its last value (0.5)
    CHECK(bus.compute_time(3, 1e9) == 1.0);
    // recorded seconds / power: 2 / 0.5 = 4 s
    CHECK(bus.scaled_time(1, 2.0) == 4.0);
    CHECK(bus.scaled_time(0, 2.0) == 2.0);
  }

  TEST_CASE("MachineModel common parameters have their defaults") {
    BusMachine bus(ParamSet(bus_params()), 3);
    CHECK(bus.eager_threshold() == 65536);
    CHECK(bus.processors() == 3);
    CHECK(bus.compute_time(2, 1e9) == 1.0);  // 1Gflops, power [] = 1
    CHECK(bus.model_name() == "bus");
  }

  TEST_CASE("MachineModel rejects a non-positive power") {
    ParamSet params = bus_setup();
    params.set("power", "[1, 0]");
    CHECK_THROWS_WITH_AS(BusMachine(params, 2), "parameter 'power': item 2 must be a positive number, not 0",
                         ParamError);
  }

  TEST_CASE("MachineRegistry lists the built-in models") {
    MachineRegistry registry;
    augur::machines::register_builtin_machines(registry);
    REQUIRE(registry.all().size() == 6);
    CHECK(registry.find("bus") != nullptr);
    CHECK(registry.find("dvm_cluster") != nullptr);
    CHECK(registry.find("transputer_grid") != nullptr);
    CHECK(registry.find("loggp_smp") != nullptr);
    CHECK(registry.find("flow_network") != nullptr);
    CHECK(registry.find("ethernet") == nullptr);
    for (const auto& info : registry.all()) {
      CHECK_FALSE(info.description.empty());
      const auto params = make_params(info);
      CHECK(params.has("cpu_speed"));
      if (info.name == "simgrid_platform") {  // its defaults name no platform file
        CHECK_THROWS_WITH_AS(info.create(params, 4), "parameter 'platform': no platform file given", ParamError);
        continue;
      }
      const auto machine = info.create(params, 4);
      CHECK(machine->model_name() == info.name);
    }
  }

  TEST_CASE("MachineRegistry suggests the nearest model name") {
    MachineRegistry registry;
    augur::machines::register_builtin_machines(registry);
    CHECK_THROWS_WITH_AS(registry.get("loggp"),
                         "unknown machine model 'loggp'; did you mean 'loggp_smp'? Valid values "
                         "are: bus, dvm_cluster, flow_network, loggp_smp, simgrid_platform, transputer_grid",
                         ParamError);
    CHECK_THROWS_WITH_AS(registry.get("buss"),
                         "unknown machine model 'buss'; did you mean 'bus'? Valid values are: "
                         "bus, dvm_cluster, flow_network, loggp_smp, simgrid_platform, transputer_grid",
                         ParamError);
    CHECK_THROWS_WITH_AS(
        registry.get("hypercube"),
        "unknown machine model 'hypercube'. Valid values are: bus, dvm_cluster, flow_network, loggp_smp, "
        "simgrid_platform, transputer_grid",
        ParamError);
  }

  TEST_CASE("MachineRegistry accepts every library machine") {
    MachineRegistry registry;
    augur::machines::register_builtin_machines(registry);
    const auto cluster = read_library_machine("platform_cluster_64.yaml", registry);
    const auto machine = registry.get("loggp_smp").create(cluster, 64);
    // the sample platform: 1us + n / 10GBps between hosts, n / 10GBps to oneself
    CHECK(machine->transfer(0, 63, 1000, 0).arrival == 1e-6 + 1000 / 1e10);
    CHECK(machine->transfer(5, 5, 1000, 0).arrival == 1000 / 1e10);
    CHECK(machine->eager_threshold() == 65536);
    const auto ethernet = read_library_machine("ethernet_bus.yaml", registry);
    // Ts + Tb·n = 75us + 0.08us·1000 = 155us
    CHECK(registry.get("bus").create(ethernet, 4)->transfer(0, 1, 1000, 0).arrival == seconds(155e-6));
    const auto transputer = read_library_machine("transputer_4x4.yaml", registry);
    CHECK(registry.get("transputer_grid").create(transputer, 16)->processors() == 16);
    const auto smp = read_library_machine("smp_cluster.yaml", registry);
    // ranks 0 and 1 share a node: o + 0.3us + 1000/20GBps = 0.2 + 0.3 + 0.05 = 0.55us
    CHECK(registry.get("loggp_smp").create(smp, 16)->transfer(0, 1, 1000, 0).arrival == seconds(0.55e-6));
  }

  TEST_CASE("MachineRegistry names the model in parameter errors") {
    MachineRegistry registry;
    augur::machines::register_builtin_machines(registry);
    auto params = make_params(registry.get("loggp_smp"));
    CHECK_THROWS_WITH_AS(params.set("latncy", "1us"),
                         "unknown parameter 'latncy' of machine model 'loggp_smp'; did you mean "
                         "'latency'?",
                         ParamError);
  }
}  // TEST_SUITE
