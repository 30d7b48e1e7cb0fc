// Tests of the LogGP SMP model (spec 7.3, 5) against hand computations: ping-pong with and
// without MTU, overhead, gap, link contention, intra-node and self messages, mappings,
// collectives, GetCost by simulation, and the SimGrid sample platform.
#include "machines/loggp_smp/loggp_smp_machine.hpp"

#include <doctest/doctest.h>

using augur::engine::CollectiveKind;
using augur::machines::loggp_smp_params;
using augur::machines::LoggpSmpMachine;
using augur::machines::ParamError;
using augur::machines::ParamSet;

namespace {

/// Defaults: L = 1us, o = 0, g = 0, bandwidth 10GBps (G = 1e-10 s/B), no MTU, 1 process per
/// node, link contention on.
ParamSet loggp(std::initializer_list<std::pair<const char*, const char*>> values = {}) {
  ParamSet params(loggp_smp_params(), "loggp_smp");
  for (const auto& [name, text] : values) params.set(name, text);
  return params;
}

doctest::Approx seconds(double value) { return doctest::Approx(value).epsilon(1e-12); }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("LoggpSmpMachine ping-pong without MTU") {
    LoggpSmpMachine machine(loggp(), 2);
    // ping: L + n·G = 1e-6 + 1000/1e10 = 1.1e-6 s
    const auto ping = machine.transfer(0, 1, 1000, 0);
    CHECK(ping.arrival == seconds(1.1e-6));
    // pong, sent when the ping arrives: 2·1.1e-6 = 2.2e-6 s
    const auto pong = machine.transfer(1, 0, 1000, ping.arrival);
    CHECK(pong.arrival == seconds(2.2e-6));
  }

  TEST_CASE("LoggpSmpMachine ping-pong with MTU fragmentation") {
    LoggpSmpMachine machine(loggp({{"mtu", "4096B"}}), 2);
    // n = 10000 = 2·4096 + 1808: 2·(L + 4096G) + (L + 1808G) = 3L + 10000G
    // = 3e-6 + 1e-6 = 4e-6 s
    const auto ping = machine.transfer(0, 1, 10000, 0);
    CHECK(ping.arrival == seconds(4e-6));
    const auto pong = machine.transfer(1, 0, 10000, ping.arrival);
    CHECK(pong.arrival == seconds(8e-6));  // 2·4e-6
    // n = 8192 = 2·4096 exactly: 2·(L + 4096G) = 2e-6 + 8192e-10 = 2.8192e-6 s (no empty tail)
    CHECK(machine.network_time(8192) == seconds(2.8192e-6));
    // n <= MTU: one fragment, L + nG = 1e-6 + 4096e-10 = 1.4096e-6 s
    CHECK(machine.network_time(4096) == seconds(1.4096e-6));
    // the link is held for all but the first latency: W = 4e-6 − 1e-6 = 3e-6 s
    CHECK(machine.wire_time(10000) == seconds(3e-6));
  }

  TEST_CASE("LoggpSmpMachine matches the SimGrid sample platform exactly") {
    // platform.xml: 1us and 10GBps host to host, 0us and 10GBps loopback
    LoggpSmpMachine machine(loggp({{"cpu_speed", "1Gflops"}, {"latency", "1us"}, {"bandwidth", "10GBps"}}), 64);
    for (const std::uint64_t n : {0ULL, 1ULL, 1000ULL, 65536ULL, 1000000ULL}) {
      machine.reset();
      // host to host: 1us + n / 10e9 s, to the last bit
      CHECK(machine.transfer(3, 40, n, 0).arrival == 1e-6 + static_cast<double>(n) / 1e10);
      // to oneself: n / 10e9 s
      CHECK(machine.transfer(7, 7, n, 0).arrival == static_cast<double>(n) / 1e10);
    }
    CHECK(machine.compute_time(0, 1e9) == 1.0);
  }

  TEST_CASE("LoggpSmpMachine overhead delays injection and costs the receiver") {
    LoggpSmpMachine machine(loggp({{"overhead", "0.5us"}}), 2);
    const auto t = machine.transfer(0, 1, 1000, 1e-6);
    // sender busy o: sender_free = 1e-6 + 0.5e-6 = 1.5e-6 s
    CHECK(t.sender_free == seconds(1.5e-6));
    // arrival = ready + o + L + nG = 1 + 0.5 + 1 + 0.1 = 2.6e-6 s
    CHECK(t.arrival == seconds(2.6e-6));
    CHECK(t.recv_overhead == seconds(0.5e-6));
  }

  TEST_CASE("LoggpSmpMachine gap spaces injections of one node") {
    LoggpSmpMachine machine(loggp({{"gap", "2us"}, {"link_contention", "false"}}), 3);
    const auto first = machine.transfer(0, 1, 1000, 0);
    const auto second = machine.transfer(0, 2, 1000, 0);
    // first: inject 0, arrival L + nG = 1.1e-6 s
    CHECK(first.arrival == seconds(1.1e-6));
    // second: inject = max(0 + o, 0 + g) = 2e-6; arrival = 2e-6 + 1.1e-6 = 3.1e-6 s
    CHECK(second.start == seconds(2e-6));
    CHECK(second.sender_free == seconds(2e-6));
    CHECK(second.arrival == seconds(3.1e-6));
    // another node is not held by node 0's gap
    CHECK(machine.transfer(1, 2, 1000, 0).arrival == seconds(1.1e-6));
    // once the gap has passed, no wait: ready 10us → arrival 11.1us
    CHECK(machine.transfer(0, 1, 1000, 10e-6).arrival == seconds(11.1e-6));
  }

  TEST_CASE("LoggpSmpMachine serialises two messages into one node") {
    LoggpSmpMachine machine(loggp(), 3);
    // n = 10000: W = nG = 1e-6 s each; both target node 2's down-link
    const auto a = machine.transfer(0, 2, 10000, 0);
    const auto b = machine.transfer(1, 2, 10000, 0);
    // a: start 0, arrival L + W = 2e-6 s
    CHECK(a.arrival == seconds(2e-6));
    // b: start = max(0, up[1] = 0, down[2] = 1e-6) = 1e-6; arrival 1e-6 + 2e-6 = 3e-6 s
    CHECK(b.start == seconds(1e-6));
    CHECK(b.arrival == seconds(3e-6));
    // the sender is free after its overhead (0) all the same
    CHECK(b.sender_free == 0.0);
  }

  TEST_CASE("LoggpSmpMachine serialises two messages out of one node") {
    LoggpSmpMachine machine(loggp(), 3);
    machine.transfer(0, 1, 10000, 0);
    // up[0] busy until W = 1e-6: arrival 1e-6 + 2e-6 = 3e-6 s
    CHECK(machine.transfer(0, 2, 10000, 0).arrival == seconds(3e-6));
  }

  TEST_CASE("LoggpSmpMachine without contention overlaps messages") {
    LoggpSmpMachine machine(loggp({{"link_contention", "false"}}), 3);
    machine.transfer(0, 2, 10000, 0);
    // both arrive at L + W = 2e-6 s
    CHECK(machine.transfer(1, 2, 10000, 0).arrival == seconds(2e-6));
  }

  TEST_CASE("LoggpSmpMachine reset forgets contention") {
    LoggpSmpMachine machine(loggp(), 3);
    machine.transfer(0, 2, 10000, 0);
    machine.reset();
    CHECK(machine.transfer(1, 2, 10000, 0).arrival == seconds(2e-6));
  }

  TEST_CASE("LoggpSmpMachine prices intra-node and self messages by shared memory") {
    LoggpSmpMachine machine(loggp({{"processes_per_node", "2"},
                                   {"intra_node_latency", "0.3us"},
                                   {"intra_node_bandwidth", "20GBps"},
                                   {"mtu", "100B"}}),
                            4);
    // ranks 0 and 1 share node 0: 0.3e-6 + 1000/2e10 = 0.3e-6 + 0.05e-6 = 0.35e-6 s (no MTU)
    CHECK(machine.transfer(0, 1, 1000, 0).arrival == seconds(0.35e-6));
    CHECK(machine.transfer(1, 1, 1000, 0).arrival == seconds(0.35e-6));
    // intra-node messages do not touch the links: 0→2 (node 1) is not delayed by them.
    // With MTU 100: 10 fragments of 100 B: 10·(L + 100G) = 10·(1e-6 + 1e-8) = 1.01e-5 s
    CHECK(machine.transfer(0, 2, 1000, 0).arrival == seconds(1.01e-5));
  }

  TEST_CASE("LoggpSmpMachine intra-node bandwidth defaults to the network bandwidth") {
    LoggpSmpMachine machine(loggp({{"processes_per_node", "2"}}), 2);
    // n / 10GBps = 1000 / 1e10 = 1e-7 s, latency 0
    CHECK(machine.transfer(0, 1, 1000, 0).arrival == 1000 / 1e10);
  }

  TEST_CASE("LoggpSmpMachine maps ranks block-wise or round-robin") {
    // P = 5, 2 per node: nodes = ⌈5/2⌉ = 3
    LoggpSmpMachine block(loggp({{"processes_per_node", "2"}}), 5);
    CHECK(block.nodes() == 3);
    CHECK(block.node_of(0) == 0);  // r / 2
    CHECK(block.node_of(1) == 0);
    CHECK(block.node_of(2) == 1);
    CHECK(block.node_of(4) == 2);
    LoggpSmpMachine spread(loggp({{"processes_per_node", "2"}, {"mapping", "round_robin"}}), 5);
    CHECK(spread.node_of(0) == 0);  // r mod 3
    CHECK(spread.node_of(1) == 1);
    CHECK(spread.node_of(3) == 0);
    CHECK(spread.node_of(4) == 1);
    // 0→1: shared memory with block (1000/1e10 = 1e-7 s), the network with round_robin (1.1e-6 s)
    CHECK(block.transfer(0, 1, 1000, 0).arrival == seconds(1e-7));
    CHECK(spread.transfer(0, 1, 1000, 0).arrival == seconds(1.1e-6));
    // 0→3: the network with block, shared memory with round_robin
    CHECK(block.transfer(0, 3, 1000, 0).arrival == seconds(1.1e-6));
    CHECK(spread.transfer(0, 3, 1000, 0).arrival == seconds(1e-7));
  }

  TEST_CASE("LoggpSmpMachine collective_time uses the LogGP formulas") {
    LoggpSmpMachine machine(loggp({{"overhead", "0.5us"}}), 8);
    // T(n) = L + 2o + nG = 1 + 1 + 0.1 = 2.1us; ⌈log2 8⌉ = 3
    // bcast: 3·2.1 = 6.3us; allreduce: 2·3·2.1 = 12.6us; barrier: 3·(L + 2o) = 6us
    CHECK(machine.collective_time(CollectiveKind::bcast, 8, 1000, 0) == seconds(6.3e-6));
    CHECK(machine.collective_time(CollectiveKind::reduce, 8, 1000, 0) == seconds(6.3e-6));
    CHECK(machine.collective_time(CollectiveKind::allreduce, 8, 1000, 0) == seconds(12.6e-6));
    CHECK(machine.collective_time(CollectiveKind::barrier, 8, 0, 0) == seconds(6e-6));
    // alltoall and allgather: (P−1)·T(n) = 7·2.1 = 14.7us
    CHECK(machine.collective_time(CollectiveKind::alltoall, 8, 1000, 0) == seconds(14.7e-6));
    CHECK(machine.collective_time(CollectiveKind::allgather, 8, 1000, 0) == seconds(14.7e-6));
    // gather: T(n) + (P−2)·max(g, o, nG) = 2.1 + 6·0.5 = 5.1us
    CHECK(machine.collective_time(CollectiveKind::gather, 8, 1000, 0) == seconds(5.1e-6));
    // P = 5: ⌈log2 5⌉ = 3 rounds, bcast 6.3us; P = 1: nothing
    CHECK(machine.collective_time(CollectiveKind::bcast, 5, 1000, 0) == seconds(6.3e-6));
    CHECK(machine.collective_time(CollectiveKind::bcast, 1, 1000, 0) == 0.0);
  }

  TEST_CASE("LoggpSmpMachine collective_time on one node uses shared memory") {
    LoggpSmpMachine machine(loggp({{"processes_per_node", "4"}, {"intra_node_latency", "0.3us"}}), 4);
    // T(n) = 0.3us + 2·0 + 1000/1e10 = 0.4us; bcast: ⌈log2 4⌉ = 2 rounds: 0.8us
    CHECK(machine.collective_time(CollectiveKind::bcast, 4, 1000, 0) == seconds(0.8e-6));
  }

  TEST_CASE("LoggpSmpMachine matrix_cost simulates the messages") {
    LoggpSmpMachine machine(loggp(), 3);
    // 0→1 and 0→2, 10000 B each, ready at 0: the second waits for up[0] (W = 1us):
    // arrivals 2us and 3us → 3us
    CHECK(machine.dvm_pricing().matrix_cost({{0, 10000, 10000}, {0, 0, 0}, {0, 0, 0}}) == seconds(3e-6));
    // the call leaves no contention behind
    CHECK(machine.transfer(0, 1, 10000, 0).arrival == seconds(2e-6));
  }

  TEST_CASE("LoggpSmpMachine rejects a zero bandwidth") {
    CHECK_THROWS_WITH_AS(LoggpSmpMachine(loggp({{"bandwidth", "0"}}), 2), "parameter 'bandwidth': must be positive",
                         ParamError);
    CHECK_THROWS_WITH_AS(LoggpSmpMachine(loggp({{"processes_per_node", "0"}}), 2),
                         "parameter 'processes_per_node': a node holds at least 1 process", ParamError);
  }
}  // TEST_SUITE

TEST_SUITE("unit") {
  TEST_CASE("LoggpSmpMachine applies SMPI's size-dependent corrections") {
    // The tiny-4 platform (host to host 101 us, 125 MBps) with SMPI's default factors: a 1 MB
    // message takes L·11.6436 + n / (B·0.940694) = 101e-6·11.6436 + 1e6 / (125e6·0.940694)
    // = 1.1760036e-3 + 8.504359e-3 = 9.680363e-3 s (SimGrid's log: rank 1's recv 0.009680 s).
    LoggpSmpMachine machine(loggp({{"latency", "101us"},
                                   {"bandwidth", "125MBps"},
                                   {"latency_factors", "65472:11.6436;15424:3.48845;0:2.01467"},
                                   {"bandwidth_factors", "0:0.812084;65472:0.940694;15424:0.697866"}}),
                            2);
    const auto big = machine.transfer(0, 1, 1000000, 0);
    CHECK(big.arrival == seconds(101e-6 * 11.6436 + 1e6 / (125e6 * 0.940694)));
    CHECK(big.arrival == doctest::Approx(0.009680).epsilon(1e-4));
    // 8 bytes fall in the 0 row: 101e-6·2.01467 + 8 / (125e6·0.812084).
    const auto small = machine.transfer(1, 0, 8, 1.0);
    CHECK(small.arrival - 1.0 == seconds(101e-6 * 2.01467 + 8 / (125e6 * 0.812084)));
  }

  TEST_CASE("LoggpSmpMachine rejects a malformed factor table") {
    CHECK_THROWS_WITH_AS(loggp({{"latency_factors", "65472=11"}}),
                         doctest::Contains("parameter 'latency_factors': invalid entry '65472=11'"), ParamError);
  }
}
