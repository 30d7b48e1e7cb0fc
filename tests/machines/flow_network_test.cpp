// Tests of the flow-level network (machines/network/) against hand computations: max-min
// sharing on one and two bottlenecks, a finishing flow freeing bandwidth, the sharing policies,
// cross-traffic, the TCP-window bound, factors, torus routes and the flow_network model.
#include <doctest/doctest.h>

#include "machines/network/flow_network.hpp"
#include "machines/network/maxmin.hpp"
#include "machines/network/network_machine.hpp"
#include "machines/network/topology.hpp"

using augur::machines::flow_network_params;
using augur::machines::FlowNetworkMachine;
using augur::machines::ParamSet;
using namespace augur::machines::network;

namespace {

doctest::Approx seconds(double value) { return doctest::Approx(value).epsilon(1e-12); }

/// No factors, no window bound, no cross-traffic unless asked.
NetworkOptions plain(bool crosstraffic = false) {
  NetworkOptions o;
  o.tcp_gamma = 0;
  o.crosstraffic = crosstraffic;
  return o;
}

/// Runs the network until empty; the finish time of every flow by id.
std::vector<double> finish_times(FlowNetwork& net, std::size_t flows) {
  std::vector<double> when(flows, -1);
  std::vector<std::uint32_t> done;
  for (double t = net.next_event(); t < 1e300; t = net.next_event()) {
    done.clear();
    net.advance_to(t, &done);
    for (auto id : done) when[id] = t;
  }
  return when;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("max-min: two flows on one link share it equally") {
    // link 100 B/s, two flows of 100 B from 0: 50 B/s each, both done at 100 / 50 = 2 s
    FlowNetwork net({{100, 0, Sharing::shared}}, plain());
    net.start({{0, false}}, {}, 100, 0);
    net.start({{0, false}}, {}, 100, 0);
    CHECK(net.rate(0) == doctest::Approx(50));
    const auto when = finish_times(net, 2);
    CHECK(when[0] == seconds(2));
    CHECK(when[1] == seconds(2));
  }

  TEST_CASE("max-min: three flows with two bottlenecks") {
    // L1 = 10, L2 = 20; a on L1, b on L1 and L2, c on L2. Shares: L1 10/2 = 5, L2 20/2 = 10,
    // so L1 is the first bottleneck: a = b = 5; L2 keeps 20 − 5 = 15 for c alone.
    MaxMinSystem s;
    s.capacity = {10, 20};
    s.fatpipe = {0, 0};
    s.variables = {{1, 0, {{0, 1}}}, {1, 0, {{0, 1}, {1, 1}}}, {1, 0, {{1, 1}}}};
    const auto x = solve_maxmin(s);
    CHECK(x[0] == doctest::Approx(5));
    CHECK(x[1] == doctest::Approx(5));
    CHECK(x[2] == doctest::Approx(15));
  }

  TEST_CASE("max-min: penalties weigh the shares") {
    // one link of 30, penalties 1 and 2: x = s / p with s / 1 + s / 2 = 30 → s = 20: 20 and 10
    MaxMinSystem s;
    s.capacity = {30};
    s.fatpipe = {0};
    s.variables = {{1, 0, {{0, 1}}}, {2, 0, {{0, 1}}}};
    const auto x = solve_maxmin(s);
    CHECK(x[0] == doctest::Approx(20));
    CHECK(x[1] == doctest::Approx(10));
  }

  TEST_CASE("a flow ending frees bandwidth for the others") {
    // link 100 B/s; A = 50 B, B = 150 B: 50 B/s each until A ends at 1 s, then B alone at
    // 100 B/s for its last 100 B: done at 2 s.
    FlowNetwork net({{100, 0, Sharing::shared}}, plain());
    net.start({{0, false}}, {}, 50, 0);
    net.start({{0, false}}, {}, 150, 0);
    const auto when = finish_times(net, 2);
    CHECK(when[0] == seconds(1));
    CHECK(when[1] == seconds(2));
  }

  TEST_CASE("computations share a CPU of two cores - each at most one core's speed") {
    // CPU of 2 cores × 100 flop/s (capacity 200), each computation bounded by 100:
    // A = 100 flops and B = 300 at 0 run at 100 each; C = 150 at 0.5 makes three: 200/3 each.
    // At 0.5 A has 50 left, B 250, C 150. A ends at 0.5 + 50/(200/3) = 1.25; then B and C
    // run at 100 each: B has 250 − 50 = 200 left (done at 3.25), C 150 − 50 = 100 (done at 2.25).
    FlowNetwork net({}, plain());
    const std::uint32_t cpu = net.add_link({200, 0, Sharing::shared});
    net.start_work(cpu, 100, 100, 0);
    net.start_work(cpu, 300, 100, 0);
    net.start_work(cpu, 150, 100, 0.5);
    const auto when = finish_times(net, 3);
    CHECK(when[0] == seconds(1.25));
    CHECK(when[1] == seconds(3.25));
    CHECK(when[2] == seconds(2.25));
  }

  TEST_CASE("a flow starting later slows the first") {
    // link 100 B/s; A = 200 B at 0 alone (100 B/s) until B = 50 B starts at 1 s: 50 B/s each,
    // B ends at 2 s, A has 200 − 100 − 50 = 50 B left at 100 B/s: done at 2.5 s.
    FlowNetwork net({{100, 0, Sharing::shared}}, plain());
    net.start({{0, false}}, {}, 200, 0);
    CHECK(net.projected_finish(0) == seconds(2));
    net.start({{0, false}}, {}, 50, 1);
    CHECK(net.projected_finish(0) == seconds(2.5));
    const auto when = finish_times(net, 2);
    CHECK(when[1] == seconds(2));
    CHECK(when[0] == seconds(2.5));
  }

  TEST_CASE("the changes of one instant are solved together - as one after the other") {
    // L0: 100 B/s, no latency; L1: a 1 s fat pipe. A = 50 B and B = 200 B on L0 from 0 (50 B/s
    // each); C = 100 B over L1 then L0, started at 0, joins L0 at 1 s (penalty = latency 1, as
    // B's without latency). At 1 s A ends (50 B moved) and C joins: one solve of {B, C} gives
    // 50 B/s each, what solving after A's end (B alone: 100) and again after C's join gives.
    // C's 100 B end at 3 s; B has 200 − 50 − 100 = 50 B left then, alone at 100 B/s: 3.5 s.
    FlowNetwork net({{100, 0, Sharing::shared}, {1e9, 1, Sharing::fatpipe}}, plain());
    net.start({{0, false}}, {}, 50, 0);
    net.start({{0, false}}, {}, 200, 0);
    net.start({{1, false}, {0, false}}, {}, 100, 0);
    std::vector<std::uint32_t> done;
    net.advance_to(1, &done);  // A's end and C's join, both at 1 s: solved when asked
    CHECK(done == std::vector<std::uint32_t>{0});
    CHECK(net.rate(1) == doctest::Approx(50));
    CHECK(net.rate(2) == doctest::Approx(50));
    // a flow started at the same instant after the solve joins the next one: D = 25 B on L0
    // (no latency) makes three at 100/3 B/s from 1 s: D ends at 1.75 s, B and C then have
    // 150 − 25 and 100 − 25 left at 50 B/s: C at 1.75 + 75/50 = 3.25 s, B with 50 left
    // alone at 100 B/s: 3.75 s. (D takes A's id.)
    const std::uint32_t d = net.start({{0, false}}, {}, 25, 1);
    CHECK(d == 0);
    CHECK(net.rate(1) == doctest::Approx(100.0 / 3));
    const auto when = finish_times(net, 3);
    CHECK(when[d] == seconds(1.75));
    CHECK(when[2] == seconds(3.25));
    CHECK(when[1] == seconds(3.75));
  }

  TEST_CASE("shared - splitduplex and fatpipe links") {
    // 100 B each way over a 100 B/s link: shared → 50 B/s each, 2 s; splitduplex → one
    // capacity per direction, 1 s; fatpipe (same direction) → each alone, 1 s.
    for (const auto& [sharing, expected] : std::vector<std::pair<Sharing, double>>{
             {Sharing::shared, 2}, {Sharing::splitduplex, 1}, {Sharing::fatpipe, 1}}) {
      FlowNetwork net({{100, 0, sharing}}, plain());
      const bool back = sharing != Sharing::fatpipe;
      net.start({{0, false}}, {}, 100, 0);
      net.start({{0, back}}, {}, 100, 0);
      const auto when = finish_times(net, 2);
      CHECK(when[0] == seconds(expected));
      CHECK(when[1] == seconds(expected));
    }
  }

  TEST_CASE("cross-traffic loads the back route at 5 %") {
    // splitduplex 100 B/s, A forward and B backward, 100 B each: each direction carries one flow
    // at weight 1 and the other at 0.05: 1.05·x = 100, x = 100/1.05, done at 1.05 s.
    FlowNetwork net({{100, 0, Sharing::splitduplex}}, plain(true));
    net.start({{0, false}}, {{0, true}}, 100, 0);
    net.start({{0, true}}, {{0, false}}, 100, 0);
    auto when = finish_times(net, 2);
    CHECK(when[0] == seconds(1.05));
    CHECK(when[1] == seconds(1.05));
    // one flow on a shared link is both route and back route there: weight 1.05 again
    FlowNetwork alone({{100, 0, Sharing::shared}}, plain(true));
    alone.start({{0, false}}, {{0, true}}, 100, 0);
    when = finish_times(alone, 1);
    CHECK(when[0] == seconds(1.05));
  }

  TEST_CASE("TCP window bounds the rate by gamma / (2 latency)") {
    // 1 GB/s link with 1 ms latency, gamma 1e4 B: rate ≤ 1e4 / 2e-3 = 5e6 B/s; 5e6 B take
    // 1 ms + 1 s.
    NetworkOptions o = plain();
    o.tcp_gamma = 1e4;
    FlowNetwork net({{1e9, 1e-3, Sharing::shared}}, o);
    net.start({{0, false}}, {}, 5e6, 0);
    const auto when = finish_times(net, 1);
    CHECK(when[0] == seconds(1.001));
  }

  TEST_CASE("latency and bandwidth factors by size") {
    // LV08's constants: 1 us · 13.01 + 1e6 B / (1e9 · 0.97)
    NetworkOptions o = plain();
    o.latency_factors = {0, 13.01};
    o.bandwidth_factors = {0, 0.97};
    FlowNetwork net({{1e9, 1e-6, Sharing::shared}}, o);
    net.start({{0, false}}, {}, 1e6, 0);
    const auto when = finish_times(net, 1);
    CHECK(when[0] == seconds(13.01e-6 + 1e6 / 0.97e9));
    CHECK(size_factor({65472, 11.6436, 1426, 1.61075, 0, 2.01467}, 2000) == 1.61075);
  }

  TEST_CASE("torus routes: dimension order - the shorter way round") {
    const Link link{1e9, 1e-6, Sharing::splitduplex};
    const auto ring = Topology::torus({4}, link, {});
    Route r;
    ring.route(0, 3, r);  // backward one hop over host 3's link (3 → 0), reversed
    REQUIRE(r.size() == 1);
    CHECK(r[0].link == 3);
    CHECK(r[0].reverse);
    const auto grid = Topology::torus({4, 4}, link, {});
    grid.route(0, 5, r);  // (0,0) → (1,1): host 0's dim-0 link (0·2+0), then host 1's dim-1 link (1·2+1)
    REQUIRE(r.size() == 2);
    CHECK(r[0].link == 0);
    CHECK(r[1].link == 3);
    CHECK_FALSE(r[1].reverse);
  }

  TEST_CASE("flow_network on the sample cluster prices like CM02") {
    // private links 10 GB/s, 0.5 us, splitduplex; no window effect (gamma / 2 us ≫ 10 GB/s):
    // 1 MB and SMPI's 16-byte envelope alone take 1 us + (1e6 + 16) / 1e10 s.
    ParamSet params(flow_network_params(), "flow_network");
    params.set("network_model", "CM02");
    params.set("crosstraffic", "false");
    FlowNetworkMachine machine(params, 4);
    CHECK(machine.transfer(0, 1, 1000000, 0).arrival == seconds(1e-6 + 1e-4 + 16e-10));
    // two messages into host 3 at once share its down link: 2 (MB + 16 B) at 10 GB/s after 1 us
    machine.reset();
    machine.transfer(0, 3, 1000000, 0);
    CHECK(machine.transfer(1, 3, 1000000, 0).arrival == seconds(1e-6 + 2e-4 + 32e-10));
    // without the envelope (message_envelope 0): the bytes alone
    params.set("message_envelope", "0B");
    FlowNetworkMachine bare(params, 4);
    CHECK(bare.transfer(0, 1, 1000000, 0).arrival == seconds(1e-6 + 1e-4));
  }
}
