// Tests of the per-link usage of flow-level networks (docs/network.md, docs/reports.md) against
// hand computations: bytes, busy time and peak flows of shared links, the links a torus route
// crosses, the generated and the platform's link names, and loggp_smp's link_contention.
#include <doctest/doctest.h>

#include "machines/loggp_smp/loggp_smp_machine.hpp"
#include "machines/network/flow_network.hpp"
#include "machines/network/topology.hpp"

using augur::machines::LinkUsage;
using augur::machines::loggp_smp_params;
using augur::machines::LoggpSmpMachine;
using augur::machines::ParamError;
using augur::machines::ParamSet;
using namespace augur::machines::network;

namespace {

NetworkOptions plain() {
  NetworkOptions o;
  o.tcp_gamma = 0;
  o.crosstraffic = false;
  return o;
}

void run_out(FlowNetwork& net) {
  for (double t = net.next_event(); t < 1e300; t = net.next_event()) net.advance_to(t);
}

const LinkUsage& named(const std::vector<LinkUsage>& links, const std::string& name) {
  for (const auto& l : links)
    if (l.name == name) return l;
  FAIL("no link " << name);
  return links.front();
}

ParamSet loggp(const char* contention) {
  ParamSet params(loggp_smp_params(), "loggp_smp");
  params.set("link_contention", contention);
  return params;
}

/// Two messages of 1e6 B leave node 0 at 0, to nodes 1 and 2 (L = 1 us, 10 GB/s): their
/// arrivals through the machine's flow events (fair) or its transfer (off, fifo).
std::vector<double> two_from_one_node(LoggpSmpMachine& machine) {
  if (machine.flow_events() == nullptr)
    return {machine.transfer(0, 1, 1000000, 0).arrival, machine.transfer(0, 2, 1000000, 0).arrival};
  auto& flows = *machine.flow_events();
  std::vector<double> when(2, -1);
  const std::uint32_t a = flows.start_flow(0, 1, 1000000, 0);
  const std::uint32_t b = flows.start_flow(0, 2, 1000000, 0);
  std::vector<std::uint32_t> done;
  for (double t = flows.next_completion(); t < 1e300; t = flows.next_completion()) {
    done.clear();
    flows.complete_until(t, done);
    for (auto id : done) when[id == a ? 0 : id == b ? 1 : 0] = t;
  }
  return when;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("link usage: two flows on one link - bytes - busy time - peak") {
    // One shared link of 100 B/s, no latency. A: 100 B at 0; B: 25 B at 0.5 s; C: 100 B at 2 s.
    // A alone to 0.5 s (50 B), then 50 B/s each: B done at 1.0 s, A has 25 B left at 100 B/s:
    // done at 1.25 s. Idle until 2 s; C alone: done at 3 s. Bytes 100 + 25 + 100 = 225; busy
    // 1.25 + 1 = 2.25 s (not the idle 0.75 s); two flows at once at most.
    const std::vector<Link> links{{100, 0, Sharing::shared}};
    FlowNetwork net(links, plain());
    net.record_usage(true);
    net.start({{0, false}}, {}, 100, 0);
    net.start({{0, false}}, {}, 25, 0.5);
    net.advance_to(2);
    net.start({{0, false}}, {}, 100, 2);
    run_out(net);
    const auto usage = net.usage();
    REQUIRE(usage.size() == 1);
    CHECK(usage[0].bytes == doctest::Approx(225));
    CHECK(usage[0].busy == doctest::Approx(2.25));
    CHECK(usage[0].peak_flows == 2);
  }

  TEST_CASE("link usage: busy time counts to now while a flow is active - off costs nothing") {
    // 100 B at 100 B/s from 0: at 0.4 s 40 B moved? The bytes are settled when rates change;
    // the busy time is counted to the network's time: 0.4 s.
    const std::vector<Link> links{{100, 0, Sharing::shared}};
    FlowNetwork net(links, plain());
    net.record_usage(true);
    net.start({{0, false}}, {}, 100, 0);
    net.advance_to(0.4);
    CHECK(net.usage()[0].busy == doctest::Approx(0.4));
    CHECK(net.usage()[0].peak_flows == 1);
    FlowNetwork quiet(links, plain());
    quiet.start({{0, false}}, {}, 100, 0);
    run_out(quiet);
    CHECK(quiet.usage().empty());
  }

  TEST_CASE("link usage: a torus route loads the links it crosses - and only them") {
    // 4x4 torus, splitduplex. From (0,0) to (1,3): x first, forward over (0,0)'s x link; then y
    // from 0 to 3, one step backward (the shorter way): over (1,3)'s y link in reverse, i.e.
    // from (1,0) towards (1,3), named `torus:(1,0)-y`. Each carries the 1000 B, busy
    // latency .. end = 1000 / 1e9 = 1e-6 s.
    const auto torus = Topology::torus({4, 4}, {1e9, 1e-7, Sharing::splitduplex}, {});
    FlowNetwork net(torus.links(), plain());
    net.record_usage(true);
    Route route;
    torus.route(0, 13, route);
    net.start(route, {}, 1000, 0);
    run_out(net);
    const auto links = link_usage(torus, net);
    CHECK(links.size() == 64);  // 16 hosts x 2 dimensions x 2 directions
    int used = 0;
    for (const auto& l : links) used += l.bytes > 0 ? 1 : 0;
    CHECK(used == 2);
    CHECK(named(links, "torus:(0,0)+x").bytes == doctest::Approx(1000));
    CHECK(named(links, "torus:(0,0)+x").busy == doctest::Approx(1e-6));
    CHECK(named(links, "torus:(1,0)-y").bytes == doctest::Approx(1000));
    CHECK(named(links, "torus:(1,3)+y").bytes == 0);  // the same link's other direction
  }

  TEST_CASE("link names: cluster - fat tree - dragonfly - a platform's own") {
    const Link up{1e9, 0, Sharing::splitduplex};
    const auto cluster = Topology::cluster(3, up, {1e10, 0, Sharing::shared}, {1e11, 0, Sharing::fatpipe});
    CHECK(cluster.link_name(2, false) == "host2-up");
    CHECK(cluster.link_name(2, true) == "host2-down");
    CHECK(cluster.link_name(4, false) == "host1-loopback");
    CHECK(cluster.link_name(6, false) == "backbone");
    // fat tree 2;4,4;1,2;1,1: level 0 has 16 nodes x 1 port, level 1 four switches x 2 ports
    const auto tree = Topology::fat_tree({{4, 4}, {1, 2}, {1, 1}}, up, {});
    CHECK(tree.link_name(5, false) == "fat_tree:L0:5-p0-up");
    CHECK(tree.link_name(16 + 3, true) == "fat_tree:L1:1-p1-down");
    // dragonfly 1,1;1,1;3,1;1: three hosts, then the green links (0,1), (0,2), (1,2) of the chassis
    const auto fly = Topology::dragonfly({1, 1, 1, 1, 3, 1, 1}, up, {});
    CHECK(fly.link_name(1, false) == "host1-up");
    CHECK(fly.link_name(3 + 2, false) == "green:(0,0,1)-(0,0,2)");
    CHECK(fly.link_name(3 + 2, true) == "green:(0,0,2)-(0,0,1)");
    // a platform's names: SimGrid's, its halves of a splitduplex link _UP and _DOWN
    auto table = Topology::table(2, {{1e9, 0, Sharing::shared}, up}, {{}, {{0, false}, {1, true}}, {}, {}});
    CHECK(table.link_name(1, true) == "link1-down");
    table.set_link_names({"backbone", "l1"});
    CHECK(table.link_name(0, false) == "backbone");
    CHECK(table.link_name(1, true) == "l1_DOWN");
  }

  TEST_CASE("loggp_smp link_contention: off - fifo - fair on two messages leaving one node") {
    // L = 1 us, 10 GB/s, 1e6 B each: alone L + n/B = 1e-6 + 1e-4 = 1.01e-4 s.
    // off: nothing reserved, both arrive at 1.01e-4 s.
    LoggpSmpMachine off(loggp("off"), 3);
    const auto free = two_from_one_node(off);
    CHECK(free[0] == doctest::Approx(1.01e-4));
    CHECK(free[1] == doctest::Approx(1.01e-4));
    // fifo: the second waits for node 0's up-link, free at n/B = 1e-4: 1e-4 + 1.01e-4 = 2.01e-4.
    LoggpSmpMachine fifo(loggp("fifo"), 3);
    const auto queued = two_from_one_node(fifo);
    CHECK(queued[0] == doctest::Approx(1.01e-4));
    CHECK(queued[1] == doctest::Approx(2.01e-4));
    // fair: both pay L, then share the up-link at 5e9 B/s: 1e-6 + 1e6 / 5e9 = 2.01e-4 s each.
    LoggpSmpMachine fair(loggp("fair"), 3);
    fair.record_link_usage();
    const auto shared = two_from_one_node(fair);
    CHECK(shared[0] == doctest::Approx(2.01e-4));
    CHECK(shared[1] == doctest::Approx(2.01e-4));
    const auto links = fair.link_usage();
    CHECK(named(links, "node0-up").bytes == doctest::Approx(2e6));
    CHECK(named(links, "node0-up").peak_flows == 2);
    CHECK(named(links, "node0-up").busy == doctest::Approx(2e-4));
    CHECK(named(links, "node1-down").bytes == doctest::Approx(1e6));
  }

  TEST_CASE("loggp_smp link_contention: the booleans of earlier files - fair's limits") {
    // true is fifo, false is off (the parameter was a boolean)
    LoggpSmpMachine yes(loggp("true"), 3);
    CHECK(two_from_one_node(yes)[1] == doctest::Approx(2.01e-4));
    LoggpSmpMachine no(loggp("false"), 3);
    CHECK(two_from_one_node(no)[1] == doctest::Approx(1.01e-4));
    CHECK(no.flow_events() == nullptr);
    CHECK(no.link_usage().empty());
    // fair: a node's own messages use shared memory (L_intra + n / B_intra = 0 + 1e6 / 1e10),
    // MTU fragments each pay L (n = 10000, MTU 4096: 3 fragments, 3 us + 1e-6 s)
    ParamSet params = loggp("fair");
    params.set("processes_per_node", "2");
    params.set("mtu", "4096B");
    LoggpSmpMachine fair(params, 4);
    CHECK(fair.transfer(0, 1, 1000000, 0).arrival == doctest::Approx(1e-4));
    CHECK(fair.transfer(0, 2, 10000, 1).arrival == doctest::Approx(1 + 4e-6));
    ParamSet with_gap = loggp("fair");
    with_gap.set("gap", "1us");
    CHECK_THROWS_AS(LoggpSmpMachine(with_gap, 2), ParamError);
  }
}
