// Routes of SimGrid's fat tree and dragonfly (machines/network/fat_tree.cpp, dragonfly.cpp),
// worked out by hand from the link numbering in those files, their notation's parsing, and two
// flows sharing a fat tree's oversubscribed up-link.
#include <doctest/doctest.h>

#include <stdexcept>

#include "machines/network/flow_network.hpp"
#include "machines/network/network_machine.hpp"
#include "machines/network/topology.hpp"

using augur::machines::flow_network_params;
using augur::machines::FlowNetworkMachine;
using augur::machines::ParamError;
using augur::machines::ParamSet;
using namespace augur::machines::network;

namespace {

/// The route as (link, reverse) pairs.
std::vector<std::pair<std::uint32_t, bool>> hops(const Topology& t, int src, int dst) {
  Route r;
  t.route(src, dst, r);
  std::vector<std::pair<std::uint32_t, bool>> out;
  for (const auto& h : r) out.emplace_back(h.link, h.reverse);
  return out;
}

using Hops = std::vector<std::pair<std::uint32_t, bool>>;

/// Finish time of two flows of `bytes` started together at 0 (no latency, no cross-traffic).
std::pair<double, double> two_flows(const Topology& t, int a, int b, int c, int d, double bytes) {
  NetworkOptions o;
  o.tcp_gamma = 0;
  o.crosstraffic = false;
  FlowNetwork net(t.links(), o);
  Route r1, r2, back;
  t.route(a, b, r1);
  t.route(c, d, r2);
  net.start(r1, back, bytes, 0);
  net.start(r2, back, bytes, 0);
  std::pair<double, double> when{-1, -1};
  std::vector<std::uint32_t> done;
  for (double now = net.next_event(); now < 1e300; now = net.next_event()) {
    done.clear();
    net.advance_to(now, &done);
    for (auto id : done) (id == 0 ? when.first : when.second) = now;
  }
  return when;
}

}  // namespace

TEST_SUITE("machines") {
  TEST_CASE("fat tree of 2 levels (down 4 4 - up 1 2 - parallel 1 1): up by d-mod-k to a common ancestor then down") {
    // 16 hosts, 4 edge switches of 4 hosts, 2 core switches. Links: host h's up-link = h;
    // edge switch e's port p (to core p) = 16 + 2e + p.
    const Link link{1e9, 0, Sharing::splitduplex};
    const auto tree = Topology::fat_tree(parse_fat_tree("2;4,4;1,2;1,1"), link, {});
    CHECK(tree.hosts() == 16);
    CHECK(tree.links().size() == 24);
    // 0 → 1: same edge switch: host 0 up, host 1 down.
    CHECK(hops(tree, 0, 1) == Hops{{0, false}, {1, true}});
    // 0 → 5: edge 0 takes port 5 mod 2 = 1 (core 1); core 1 reaches edge 1 over edge 1's port 1.
    CHECK(hops(tree, 0, 5) == Hops{{0, false}, {17, false}, {19, true}, {5, true}});
    // 5 → 0: edge 1 takes port 0 mod 2 = 0 (core 0), down edge 0's port 0.
    CHECK(hops(tree, 5, 0) == Hops{{5, false}, {18, false}, {16, true}, {0, true}});
  }

  TEST_CASE("fat tree: two flows share the oversubscribed up-link only when d-mod-k says so") {
    // 1 GB/s links, 1 MB each. 0 → 4 and 2 → 6 both leave edge 0 by port 4 mod 2 = 6 mod 2 = 0:
    // 0.5 GB/s each, 2 ms. 0 → 4 and 1 → 5 leave by ports 0 and 1: 1 GB/s each, 1 ms.
    const auto tree = Topology::fat_tree(parse_fat_tree("2;4,4;1,2;1,1"), {1e9, 0, Sharing::splitduplex}, {});
    const auto shared = two_flows(tree, 0, 4, 2, 6, 1e6);
    CHECK(shared.first == doctest::Approx(2e-3).epsilon(1e-12));
    CHECK(shared.second == doctest::Approx(2e-3).epsilon(1e-12));
    const auto apart = two_flows(tree, 0, 4, 1, 5, 1e6);
    CHECK(apart.first == doctest::Approx(1e-3).epsilon(1e-12));
    CHECK(apart.second == doctest::Approx(1e-3).epsilon(1e-12));
  }

  TEST_CASE("fat tree: parallel links - a shared policy - the loopback") {
    // 2;2,2;1,1;2,2: 4 hosts, 2 edge switches, 1 core switch; 2 parallel links everywhere.
    // Host h's ports: 2h (parallel 0), 2h + 1 (parallel 1); edge e's: 8 + 2e + p.
    const auto tree =
        Topology::fat_tree(parse_fat_tree("2;2,2;1,1;2,2"), {1e9, 1e-6, Sharing::fatpipe}, {1e9, 0, Sharing::shared});
    CHECK(tree.links().size() == 12 + 4);
    CHECK(tree.links()[0].sharing == Sharing::shared);  // SimGrid: not splitduplex → shared
    CHECK(tree.links()[12].sharing == Sharing::fatpipe);
    // 0 → 3: up port 3 mod 2 = 1, then port (3 div 2) mod 2 = 1 of edge 0. Down from the core:
    // scan from (0 mod 2) · 2 = 0: child port 1 (edge 1, parallel 0) over edge 1's port 0 = 10;
    // the scan goes on at 2 on edge 1 and finds 3 (host 1 of edge 1, parallel 1): port 2·3 + 1.
    CHECK(hops(tree, 0, 3) == Hops{{1, false}, {9, false}, {10, true}, {7, true}});
    CHECK(hops(tree, 2, 2) == Hops{{14, false}});
  }

  TEST_CASE(
      "dragonfly (groups 2 1 - chassis 2 1 - routers 4 1 - hosts 4): green - black and blue hops as SimGrid routes "
      "them") {
    // 64 hosts; links: host h = h; green 64 + 6 · chassis + pair (pairs of 4 blades: 01 02 03
    // 12 13 23); black 88 + 4 · group + blade; blue 96.
    const auto fly = Topology::dragonfly(parse_dragonfly("2,1;2,1;4,1;4"), {1e9, 0, Sharing::splitduplex}, {});
    CHECK(fly.hosts() == 64);
    REQUIRE(fly.links().size() == 97);
    // 0 (group 0, chassis 0, blade 0) → 63 (group 1, chassis 1, blade 3): green to blade 1 (the
    // router wired to group 1), blue, green to blade 3 in chassis 0 of group 1, black to chassis 1.
    CHECK(hops(fly, 0, 63) == Hops{{0, false}, {64, false}, {96, false}, {78, false}, {95, false}, {63, true}});
    CHECK(hops(fly, 63, 0) == Hops{{63, false}, {84, true}, {92, true}, {96, true}, {64, true}, {0, true}});
    // 16 → 24 (group 0, chassis 1, blades 0 → 2): the green hop in chassis 1, then SimGrid goes
    // on from chassis 0 and adds the black link of blade 2 between chassis 0 and 1.
    CHECK(hops(fly, 16, 24) == Hops{{16, false}, {71, false}, {90, false}, {24, true}});
    // same router: up and down
    CHECK(hops(fly, 1, 2) == Hops{{1, false}, {2, true}});
  }

  TEST_CASE("fat tree and dragonfly notation: SimGrid's topo_parameters") {
    const auto shape = parse_fat_tree("3;4,4,2;1,2,2;1,1,2");
    CHECK(shape.down == std::vector<int>{4, 4, 2});
    CHECK(shape.parallel == std::vector<int>{1, 1, 2});
    CHECK_THROWS_AS(parse_fat_tree("2;4,4;1,2"), std::invalid_argument);
    CHECK_THROWS_AS(parse_fat_tree("2;4,4;1,2;1"), std::invalid_argument);
    CHECK_THROWS_AS(parse_fat_tree("2;4,0;1,2;1,1"), std::invalid_argument);
    const auto fly = parse_dragonfly("3,1;2,2;3,1;2");
    CHECK(fly.groups == 3);
    CHECK(fly.black == 2);
    CHECK(fly.hosts == 2);
    CHECK_THROWS_AS(parse_dragonfly("3,1;2,1;3;2"), std::invalid_argument);
    CHECK_THROWS_AS(parse_dragonfly("3,1;2,1;3,1;x"), std::invalid_argument);
    // SimGrid's route needs router g of chassis 0 for group g
    CHECK_THROWS_AS(Topology::dragonfly(parse_dragonfly("5,1;1,1;4,1;1"), {1e9, 0, Sharing::shared}, {}),
                    std::invalid_argument);
  }

  TEST_CASE("flow_network: a 64-KiB message is rendezvous as in SMPI") {
    // SMPI detaches a send below smpi/send-is-detached-thresh = 65,536 B: eager up to 65,535 B.
    const ParamSet params(flow_network_params(), "flow_network");
    CHECK(FlowNetworkMachine(params, 2).eager_threshold() == 65535);
  }

  TEST_CASE("flow_network: a fat tree or dragonfly too small or ill-shaped is a parameter error") {
    ParamSet params(flow_network_params(), "flow_network");
    params.set("topology", "fat_tree");
    CHECK_THROWS_WITH_AS(FlowNetworkMachine(params, 4), "parameter 'fat_tree_down': a fat tree has 1 to 16 levels",
                         ParamError);
    params.set("fat_tree_down", "[2, 2]");
    params.set("fat_tree_up", "[1, 2]");
    CHECK(FlowNetworkMachine(params, 4).topology().hosts() == 4);  // parallel [] = all 1
    CHECK_THROWS_WITH_AS(FlowNetworkMachine(params, 5),
                         "parameter 'topology': the fat_tree holds 4 hosts, 5 are needed", ParamError);
    params.set("topology", "dragonfly");
    params.set("dragonfly_groups", "[2, 1]");
    CHECK_THROWS_WITH_AS(FlowNetworkMachine(params, 4), "parameter 'dragonfly_chassis': expected [count, links]",
                         ParamError);
  }
}
