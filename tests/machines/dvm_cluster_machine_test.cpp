// Tests of the dvm_cluster model (Predictor 3.1's CommSend and GetCost, spec 6.6) against hand
// computations, and of the cluster-tree notation of its `clusters` parameter.
#include "machines/dvm_cluster/dvm_cluster_machine.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "machines/bus/bus_machine.hpp"
#include "machines/registry.hpp"

using augur::engine::CollectiveKind;
using augur::machines::dvm_cluster_params;
using augur::machines::DvmClusterMachine;
using augur::machines::format_cluster_tree;
using augur::machines::MachineRegistry;
using augur::machines::ParamError;
using augur::machines::ParamSet;
using augur::machines::parse_cluster_tree;

namespace {

ParamSet cluster_setup(const std::string& clusters) {
  ParamSet params(dvm_cluster_params(), "dvm_cluster");
  params.set("clusters", clusters);
  return params;
}

/// One channel, Ts = 75us, Tb = 0.2us per byte (oracle/pars/eth75.par).
const char* const eth75 = "eth = {64 x p1} ethernet 75us 0.2us; p1 = 1.00";
/// Predictor.mvs.par: 512 nodes of 2 processors.
const char* const mvs =
    "mvs = {512 x mvsP2} myrinet(1) 7us 0.004us; mvsP2 = {2 x mvsP1} myrinet(1) 1us 0.001us; "
    "mvsP1 = 1.00";

/// 3.1 stores TStart and TByte as µs / 1000000 (Ps.cpp); augur's "us" suffix divides the same way.
const double ts75 = 75.0 / 1000000;
const double tb02 = 0.2 / 1000000;

/// The sender's clock as 3.1 sees it: CommSend(float send_proc_time, …).
double as_float(double clock) { return static_cast<double>(static_cast<float>(clock)); }

using Matrix = std::vector<std::vector<std::uint64_t>>;

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("DvmClusterMachine serialises two messages on a one-channel cluster") {
    DvmClusterMachine machine(cluster_setup(eth75), 2);
    // 0 → 1: Ts + Tb·n = 75e-6 + 0.2e-6·1024 = 2.798e-4 s, from 0.
    const auto first = machine.transfer(0, 1, 1024, 0);
    CHECK(first.start == 0);
    CHECK(first.arrival == 0 + ts75 + 1024.0 * tb02);
    CHECK(first.arrival == doctest::Approx(2.798e-4).epsilon(1e-12));
    CHECK(first.sender_free == 0);
    // 1 → 0, also ready at 0: the only channel is busy until 2.798e-4, so it starts then and
    // ends 2.798e-4 later, at 5.596e-4 s.
    const auto second = machine.transfer(1, 0, 1024, 0);
    CHECK(second.start == first.arrival);
    CHECK(second.arrival == first.arrival + ts75 + 1024.0 * tb02);
    CHECK(second.arrival == doctest::Approx(5.596e-4).epsilon(1e-12));
    // reset() frees the channel.
    machine.reset();
    CHECK(machine.transfer(1, 0, 1024, 0).start == 0);
    // A message to oneself uses no channel and costs nothing.
    const auto self = machine.transfer(1, 1, 1024, 0.5);
    CHECK(self.arrival == 0.5);
  }

  TEST_CASE("DvmClusterMachine takes the least busy channel of myrinet(2)") {
    DvmClusterMachine machine(cluster_setup("net = {4 x cpu} myrinet(2) 10us 1us; cpu = 1"), 4);
    // Each 100-byte message takes 10us + 100·1us = 110us.
    const auto a = machine.transfer(0, 1, 100, 0);  // channel 0: 0 .. 110us
    const auto b = machine.transfer(2, 3, 100, 0);  // channel 1 is free: 0 .. 110us
    CHECK(a.start == 0);
    CHECK(b.start == 0);
    CHECK(b.arrival == doctest::Approx(110e-6).epsilon(1e-12));
    // Both channels free at 110us: the first of equals (channel 0) takes it: 110 .. 220us.
    const auto c = machine.transfer(0, 2, 100, 0);
    CHECK(c.start == a.arrival);
    CHECK(c.arrival == doctest::Approx(220e-6).epsilon(1e-12));
    // Channel 1 (free at 110us) is now the least busy: 110 .. 110 + 10 + 10 = 130us.
    const auto d = machine.transfer(1, 3, 10, 0);
    CHECK(d.start == b.arrival);
    CHECK(d.arrival == doctest::Approx(130e-6).epsilon(1e-12));
  }

  TEST_CASE("DvmClusterMachine uses the smallest cluster holding both processors") {
    DvmClusterMachine machine(cluster_setup(mvs), 4);
    CHECK(machine.tree_processors() == 1024);
    // Leaves depth first: processors 0, 1 share the first mvsP2; 2, 3 the second.
    CHECK(machine.common_cluster(0, 1) == "mvsP2");
    CHECK(machine.common_cluster(2, 3) == "mvsP2");
    CHECK(machine.common_cluster(0, 2) == "mvs");
    CHECK(machine.common_cluster(1, 3) == "mvs");
    // 0 → 1 in mvsP2: TStart + n·TByte = 1us + 1000·0.001us = 2us.
    const auto near = machine.transfer(0, 1, 1000, 0);
    CHECK(near.arrival == 1.0 / 1000000 + 1000.0 * (0.001 / 1000000));
    CHECK(near.arrival == doctest::Approx(2e-6).epsilon(1e-12));
    // 2 → 3 uses the other mvsP2's own channel: it starts at 0 too.
    CHECK(machine.transfer(2, 3, 1000, 0).start == 0);
    // 0 → 2 crosses mvs: 7us + 1000·0.004us = 11us, on mvs's channel (free).
    const auto far = machine.transfer(0, 2, 1000, 0);
    CHECK(far.start == 0);
    CHECK(far.arrival == doctest::Approx(11e-6).epsilon(1e-12));
    // 1 → 3 also crosses mvs and waits for its single channel: 11us .. 22us.
    const auto far2 = machine.transfer(1, 3, 1000, 0);
    CHECK(far2.start == far.arrival);
    CHECK(far2.arrival == doctest::Approx(22e-6).epsilon(1e-12));
  }

  TEST_CASE("DvmClusterMachine rounds the sender clock to a float as 3.1 does") {
    DvmClusterMachine machine(cluster_setup("net = {2 x cpu} ethernet 1us 0us; cpu = 1"), 2);
    // float(0.1) = 0.100000001490116119384765625: the message starts there, not at 0.1.
    const auto sent = machine.transfer(0, 1, 8, 0.1);
    CHECK(sent.start == 0.100000001490116119384765625);
    CHECK(sent.start != 0.1);
    CHECK(sent.arrival == 0.100000001490116119384765625 + 1.0 / 1000000);
    CHECK(sent.sender_free == 0.1);
    // GetCost of that one message: max_end − min_start = (f + Ts) − f, which is not exactly Ts.
    machine.reset();
    const Matrix one = {{0, 8}, {0, 0}};
    const double f = as_float(0.1);
    CHECK(machine.dvm_pricing().matrix_cost_at(one, {0.1, 0.0}) == (f + 1.0 / 1000000) - f);
  }

  TEST_CASE("DvmClusterMachine prices a 2x2 matrix like 3.1's GetCost") {
    DvmClusterMachine machine(cluster_setup(eth75), 2);
    // Row-major: 0 → 1 then 1 → 0, both senders at 0, one channel:
    // 0 → 1: 0 .. 2.798e-4; 1 → 0 waits: 2.798e-4 .. 5.596e-4. cost = 5.596e-4 − 0.
    const Matrix both = {{0, 1024}, {1024, 0}};
    std::vector<double> ends;
    const double cost = machine.dvm_pricing().matrix_cost_at(both, {0.0, 0.0}, &ends);
    const double end1 = ts75 + 1024.0 * tb02;
    const double end2 = end1 + ts75 + 1024.0 * tb02;
    CHECK(cost == end2);
    CHECK(cost == doctest::Approx(5.596e-4).epsilon(1e-12));
    REQUIRE(ends.size() == 2);
    CHECK(ends[0] == end2);  // 0 sent the first and received the second
    CHECK(ends[1] == end2);
    // Occupancy persists: the channel is busy until 5.596e-4 for the next operation.
    CHECK(machine.transfer(0, 1, 0, 0).start == end2);
    // An empty matrix costs 0 (3.1 would return uninitialised memory) and touches nothing.
    machine.reset();
    CHECK(machine.dvm_pricing().matrix_cost_at({{0, 0}, {0, 0}}, {1.0, 2.0}, &ends) == 0);
    CHECK(ends == std::vector<double>{0, 0});
  }

  TEST_CASE("DvmClusterMachine keeps GetCost's min_start quirk") {
    // Sender 0 is ready at 1ms, sender 1 at 0; one channel.
    // 0 → 1 (first): BeginTime = f(1e-3), min_start = f(1e-3), ends f + 75us + 200us.
    // 1 → 0 (second): its sender is ready at 0 but the channel is busy, so BeginTime = end1,
    // which is not < min_start: min_start stays f(1e-3) although a sender was ready earlier.
    const Matrix matrix = {{0, 1000}, {1000, 0}};
    const double f = as_float(1e-3);
    {
      DvmClusterMachine machine(cluster_setup(eth75), 2);
      const double end1 = f + ts75 + 1000.0 * tb02;
      const double end2 = end1 + ts75 + 1000.0 * tb02;
      const double cost = machine.dvm_pricing().matrix_cost_at(matrix, {1e-3, 0.0});
      CHECK(cost == end2 - (f - (f - f)));  // min_start = BeginTime − WaitStart = f − 0
      CHECK(cost == doctest::Approx(0.55e-3).epsilon(1e-9));
    }
    {
      // With two channels the second message starts at its sender's clock 0 < min_start:
      // min_start = BeginTime − WaitStart = 0 − 0, cost = end1 − 0 = f + 275us.
      DvmClusterMachine machine(cluster_setup("net = {2 x cpu} myrinet(2) 75us 0.2us; cpu = 1"), 2);
      std::vector<double> ends;
      const double cost = machine.dvm_pricing().matrix_cost_at(matrix, {1e-3, 0.0}, &ends);
      const double end1 = f + ts75 + 1000.0 * tb02;
      CHECK(cost == end1);
      CHECK(ends[0] == end1);
      CHECK(ends[1] == end1);
    }
  }

  TEST_CASE("DvmClusterMachine needs enough processors and reads leaf powers") {
    CHECK_THROWS_WITH_AS(DvmClusterMachine(cluster_setup("n = {2 x c} ethernet 1us 1us; c = 1"), 3),
                         "parameter 'clusters': the machine 'n' has 2 processors, but the run has 3", ParamError);
    // Processors 0, 1 are `fast` (power 2), processor 2 is `slow` (power 0.5): recorded
    // durations are divided by the power.
    DvmClusterMachine machine(cluster_setup("n = {2 x fast, slow} ethernet 1us 1us; fast = 2; slow = 0.5"), 3);
    CHECK(machine.scaled_time(0, 1.0) == 0.5);
    CHECK(machine.scaled_time(1, 1.0) == 0.5);
    CHECK(machine.scaled_time(2, 1.0) == 2.0);
    // An explicit `power` list takes precedence over the leaves.
    auto params = cluster_setup("n = {2 x fast, slow} ethernet 1us 1us; fast = 2; slow = 0.5");
    params.set("power", "[1]");
    CHECK(DvmClusterMachine(params, 3).scaled_time(2, 1.0) == 1.0);
  }

  TEST_CASE("DvmClusterMachine collectives use the bus formulas of the enclosing cluster") {
    DvmClusterMachine machine(cluster_setup(mvs), 4);
    // P = 2: processors 0, 1 are in one mvsP2: m(n) = 1us + 0.001us·n, c = min(2, 1) = 1.
    // bcast of 1000 bytes: (P−1)·m(1000) = 2us.
    CHECK(machine.collective_time(CollectiveKind::bcast, 2, 1000, 0) == doctest::Approx(2e-6).epsilon(1e-12));
    // P = 4 spans mvs: m(n) = 7us + 0.004us·n; allreduce 2(P−1)·m(1000) = 6·11us = 66us.
    CHECK(machine.collective_time(CollectiveKind::allreduce, 4, 1000, 0) == doctest::Approx(66e-6).epsilon(1e-12));
    CHECK(machine.collective_time(CollectiveKind::barrier, 1, 0, 0) == 0);
  }

  TEST_CASE("DvmClusterMachine matrix_cost prices from time 0 and resets") {
    DvmClusterMachine machine(cluster_setup(eth75), 2);
    machine.transfer(0, 1, 1000000, 0);  // channel busy for a long time
    // matrix_cost is a pricing query: cleared before and after, all senders at 0.
    CHECK(machine.dvm_pricing().matrix_cost({{0, 1024}, {1024, 0}}) == doctest::Approx(5.596e-4).epsilon(1e-12));
    CHECK(machine.transfer(0, 1, 0, 0).start == 0);
  }

  TEST_CASE("BusDvmPricing matrix_cost_at ignores the clocks") {
    ParamSet params(augur::machines::bus_params(), "bus");
    params.set("start_time", "75us");
    params.set("byte_time", "0.2us");
    augur::machines::BusMachine bus(params, 3);
    // Bus GetCost: Σ(Ts + Tb·n) / min(P, channels) = (75 + 200)us = 275us; ready is ignored.
    std::vector<double> ends;
    const double cost = bus.dvm_pricing().matrix_cost_at({{0, 1000, 0}, {0, 0, 0}, {0, 0, 0}}, {5.0, 5.0, 5.0}, &ends);
    CHECK(cost == doctest::Approx(275e-6).epsilon(1e-12));
    CHECK(ends == std::vector<double>{cost, cost, 0});
  }

  TEST_CASE("Cluster tree notation parses formats and rejects defects") {
    const auto tree = parse_cluster_tree(
        "mvs = {512 x mvsP2} myrinet(1) 7us 0.004us\n mvsP2 = {2x mvsP1} myrinet (1) 1us 0.001us;\n"
        "mvsP1 = 1.00\n");
    REQUIRE(tree.size() == 3);
    CHECK(tree[0].parts[0].count == 512);
    CHECK(tree[0].channels == 1);
    CHECK(tree[0].start_time == 7.0 / 1000000);
    CHECK(tree[0].byte_time == 0.004 / 1000000);  // exactly 3.1's atof("0.004") / 1000000
    CHECK(tree[2].is_processor());
    CHECK(format_cluster_tree(tree) ==
          "mvs = {512 x mvsP2} myrinet(1) 7us 0.004us; mvsP2 = {2 x mvsP1} "
          "myrinet(1) 1us 0.001us; mvsP1 = 1");
    CHECK(format_cluster_tree(parse_cluster_tree("e = {c} ethernet 75us 0.2us; c = 1")) ==
          "e = {c} ethernet 75us 0.2us; c = 1");
    // The canonical text parses back to the same values.
    const auto again = parse_cluster_tree(format_cluster_tree(tree));
    CHECK(again[0].byte_time == tree[0].byte_time);
    CHECK(again[1].start_time == tree[1].start_time);

    CHECK_THROWS_WITH_AS(parse_cluster_tree("a = {2 x b} ethernet 1us 1us; a = 1"), "cluster 'a' is defined twice",
                         ParamError);
    CHECK_THROWS_WITH_AS(parse_cluster_tree("a = {2 x bb} ethernet 1us 1us; b = 1"),
                         "cluster 'a' contains 'bb', which is not defined; did you mean 'b'?", ParamError);
    CHECK_THROWS_WITH_AS(parse_cluster_tree("a = {2 x b} ethernet 1us 1us; b = {a} ethernet 1us 1us"),
                         "cluster 'a' contains itself (through 'b')", ParamError);
    CHECK_THROWS_WITH_AS(parse_cluster_tree("a = {2 x b} ethernet 1us 1us; b = 1; c = 1"),
                         "cluster 'c' is not part of the machine 'a' (the first definition is the whole machine)",
                         ParamError);
    CHECK_THROWS_WITH_AS(parse_cluster_tree("a = {2 x b} token_ring 1us 1us; b = 1"),
                         "in 'a = {2 x b} token_ring 1us 1us': expected the network after '}': ethernet, "
                         "transputer or myrinet(n)",
                         ParamError);
    CHECK_THROWS_WITH_AS(parse_cluster_tree("a = {2 x b} ethernet 1 1us; b = 1"),
                         doctest::Contains("in 'a = {2 x b} ethernet 1 1us': the start time TStart: invalid time '1'"),
                         ParamError);
    CHECK_THROWS_WITH_AS(parse_cluster_tree("a = {2 x b} myrinet(0) 1us 1us; b = 1"),
                         "in 'a = {2 x b} myrinet(0) 1us 1us': myrinet(n) needs at least 1 channel", ParamError);
    CHECK_THROWS_WITH_AS(parse_cluster_tree("a = 0"), "in 'a = 0': the power of processor 'a' must be positive",
                         ParamError);
    // Through ParamSet the parameter is named.
    ParamSet params(dvm_cluster_params(), "dvm_cluster");
    CHECK_THROWS_WITH_AS(params.set("clusters", "a = {2 x b} ethernet 1us 1us"),
                         "parameter 'clusters': cluster 'a' contains 'b', which is not defined", ParamError);
  }

  TEST_CASE("MachineRegistry lists dvm_cluster with a working default") {
    MachineRegistry registry;
    register_builtin_machines(registry);
    const auto& info = registry.get("dvm_cluster");
    auto machine = info.create(make_params(info), 64);
    CHECK(machine->model_name() == "dvm_cluster");
    // Default: eth75 (64 processors, one channel, 75us + 0.2us/byte).
    CHECK(machine->transfer(0, 63, 1000, 0).arrival == ts75 + 1000.0 * tb02);
    CHECK_THROWS_AS(info.create(make_params(info), 65), ParamError);
  }
}  // TEST_SUITE
