// SimGrid platform files (machines/platform): units, routes through zones and gateways worked
// out by hand from fixtures/platform/*.xml, smpirun's hostfile and default placement, the --cfg
// options, and the simgrid_platform machine's prices (hand computations in the comments).
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "machines/network/network_machine.hpp"
#include "machines/platform/hostfile.hpp"
#include "machines/platform/platform.hpp"
#include "machines/platform/platform_error.hpp"
#include "machines/platform/platform_machine.hpp"
#include "machines/platform/sg_units.hpp"
#include "machines/platform/simgrid_config.hpp"

using namespace augur::machines::platform;
using augur::machines::ParamSet;

namespace {

const std::string fixtures = std::string(AUGUR_SOURCE_DIR) + "/tests/machines/fixtures/platform/";

using Hops = std::vector<std::pair<std::uint32_t, bool>>;

Hops hops(const Platform& p, const std::string& src, const std::string& dst) {
  augur::machines::network::Route r;
  p.topology.route(p.host_index(src), p.host_index(dst), r);
  Hops out;
  for (const auto& h : r) out.emplace_back(h.link, h.reverse);
  return out;
}

}  // namespace

TEST_CASE("SimGrid's units: speeds - bandwidths (bytes and bits) - times") {
  CHECK(parse_sg_value("98.095Mf", SgUnit::speed) == doctest::Approx(98.095e6));
  CHECK(parse_sg_value("1Gf", SgUnit::speed) == 1e9);
  CHECK(parse_sg_value("2kflops", SgUnit::speed) == 2e3);
  CHECK(parse_sg_value("41.279125MBps", SgUnit::bandwidth) == doctest::Approx(41.279125e6));
  CHECK(parse_sg_value("1Gbps", SgUnit::bandwidth) == 125e6);  // bits: / 8
  CHECK(parse_sg_value("1KiBps", SgUnit::bandwidth) == 1024);
  CHECK(parse_sg_value("59.904us", SgUnit::time) == doctest::Approx(59.904e-6));
  CHECK(parse_sg_value("1.461517ms", SgUnit::time) == doctest::Approx(1.461517e-3));
  CHECK(parse_sg_value("2m", SgUnit::time) == 120);
  CHECK(parse_sg_value("0", SgUnit::time) == 0);
  CHECK_THROWS_WITH_AS(parse_sg_value("5", SgUnit::time),
                       "'5' has no unit; expected one of s, ms, us, ns, ps, m, h, d, w", std::invalid_argument);
  CHECK_THROWS_AS(parse_sg_value("1GBs", SgUnit::bandwidth), std::invalid_argument);
  CHECK_THROWS_AS(parse_sg_value("1Kf", SgUnit::speed), std::invalid_argument);  // k is lower case
  CHECK_THROWS_AS(parse_sg_value("-1s", SgUnit::time), std::invalid_argument);
}

TEST_CASE("a platform of two zones joined by a zoneRoute: hosts - links and every kind of route") {
  const Platform p = read_platform(fixtures + "routed.xml");
  REQUIRE(p.hosts.size() == 4);
  CHECK(p.hosts[0].name == "a");
  CHECK(p.hosts[0].cores == 2);
  CHECK(p.hosts[1].speed == 500e6);  // the first pstate of "500Mf,100Mf"
  CHECK(p.hosts[2].name == "c-0.x");
  CHECK(p.hosts[3].speed == 2e9);
  REQUIRE(p.config.size() == 1);
  CHECK(p.config[0].first == "network/model");
  CHECK(p.config_lines[0] == 7);
  // links in declaration order: la 0, lb 1, aself 2, c_link_0 3, c_link_1 4, c_backbone 5, wan 6,
  // then SimGrid's __loopback__ 7 (498 MB/s, 15 us, FATPIPE)
  REQUIRE(p.topology.links().size() == 8);
  CHECK(p.topology.links()[7].bandwidth == 498e6);
  CHECK(p.topology.links()[7].latency == 15e-6);
  CHECK(p.topology.links()[5].bandwidth == 125e6);  // bb_bw 1Gbps
  CHECK(p.topology.links()[3].sharing == augur::machines::network::Sharing::splitduplex);
  // a → b as written (lb's UP half); b → a the symmetrical: reversed, each link the other way
  CHECK(hops(p, "a", "b") == Hops{{0, false}, {1, false}});
  CHECK(hops(p, "b", "a") == Hops{{1, true}, {0, true}});
  CHECK(hops(p, "a", "a") == Hops{{2, false}});
  // no route to itself written: SimGrid's __loopback__ (smpirun, 2 ranks on small_platform's
  // Tremblay, 1e6 B under CM02: 0.002023 s = 15 us + 1000016 B / 498 MB/s)
  CHECK(hops(p, "b", "b") == Hops{{7, false}});
  // a → c-0.x: a → gw (la), the zoneRoute (wan), the cluster's router → c-0.x (backbone, down)
  CHECK(hops(p, "a", "c-0.x") == Hops{{0, false}, {6, false}, {5, false}, {3, true}});
  // c-1.x → b: up and backbone to the router, wan back, gw → b (the reverse of b → gw's lb_DOWN)
  CHECK(hops(p, "c-1.x", "b") == Hops{{4, false}, {5, false}, {6, true}, {1, false}});
  // inside the cluster: up, backbone, down; without a loopback a host's route to itself too
  CHECK(hops(p, "c-0.x", "c-1.x") == Hops{{3, false}, {5, false}, {4, true}});
  CHECK(hops(p, "c-0.x", "c-0.x") == Hops{{3, false}, {5, false}, {3, true}});
  // the reports name the links by their ids, a splitduplex link's halves as SimGrid does
  CHECK(p.topology.link_name(0, false) == "la");
  CHECK(p.topology.link_name(1, true) == "lb_DOWN");
  CHECK(p.topology.link_name(3, false) == "c_link_0_UP");
  CHECK(p.topology.link_name(5, false) == "c_backbone");
  CHECK(p.topology.link_name(6, false) == "wan");
}

TEST_CASE("a Floyd zone takes the path of fewest links") {
  const Platform p = read_platform(fixtures + "floyd.xml");
  // h0 → r → h1 (2 links) beats the direct route of 3; the way back reverses both routes
  CHECK(hops(p, "h0", "h1") == Hops{{0, false}, {1, false}});
  CHECK(hops(p, "h1", "h0") == Hops{{1, true}, {0, true}});
}

TEST_CASE("a platform that is one cluster is built whole - SimGrid's hosts and links") {
  const Platform p = read_platform(std::string(AUGUR_SHARED_DIR) + "/ti-samples/platform.xml");
  REQUIRE(p.hosts.size() == 64);
  CHECK(p.hosts[63].name == "node-63");
  CHECK(p.hosts[5].speed == 1e9);
  // 64 private links then 64 loopbacks (Topology::cluster)
  CHECK(p.topology.links().size() == 128);
  CHECK(hops(p, "node-1", "node-2") == Hops{{1, false}, {2, true}});
  CHECK(hops(p, "node-7", "node-7") == Hops{{64 + 7, false}});
  // SimGrid's names: ID_link_N (its halves _UP, _DOWN), ID_link_N_loopback
  CHECK(p.topology.link_name(2, true) == "cluster_link_2_DOWN");
  CHECK(p.topology.link_name(64 + 7, false) == "cluster_link_7_loopback");
}

TEST_CASE("smpirun's hostfile and its default placement") {
  const Platform p = read_platform(fixtures + "routed.xml");
  // "c-1.x:2" stands for two lines; rank r on line r mod 3
  CHECK(parse_hostfile("c-1.x:2\n\n  b \n", "h", p, 5) == std::vector<int>{3, 3, 1, 3, 3});
  CHECK_THROWS_WITH_AS(parse_hostfile("a\nzz\n", "h", p, 2),
                       ("h:2: error: unknown host 'zz' (not in " + fixtures + "routed.xml)").c_str(), PlatformError);
  CHECK_THROWS_WITH_AS(parse_hostfile("a:x\n", "h", p, 2), "h:1: error: 'x' is not a count of processes (host:N)",
                       PlatformError);
  CHECK_THROWS_WITH_AS(parse_hostfile("\n", "h", p, 2), "h: error: the hostfile names no host", PlatformError);
  // without a hostfile: the hosts sorted by name (smpirun -np 3 on small_platform.xml puts rank
  // 1 on Bourassa: Boivin, Bourassa, Fafard, …), wrapping around
  const Platform small = parse_platform(
      "<platform version='4.1'><zone id='z' routing='None'><host id='T' speed='1f'/><host id='B' speed='1f'/>"
      "</zone></platform>",
      "s.xml");
  CHECK(default_mapping(small, 3) == std::vector<int>{1, 0, 1});
}

TEST_CASE("SimGrid's --cfg options map onto the machine's parameters") {
  using P = std::pair<std::string, std::string>;
  CHECK(simgrid_option("network/model", "CM02") == P{"network_model", "CM02"});
  CHECK(simgrid_option("network/crosstraffic", "0") == P{"crosstraffic", "false"});
  CHECK(simgrid_option("network/TCP-gamma", "1000") == P{"tcp_gamma", "1000B"});
  // SMPI detaches sends smaller than the option: 1023 B is the largest eager message
  CHECK(simgrid_option("smpi/send-is-detached-thresh", "1024") == P{"eager_threshold", "1023B"});
  CHECK(simgrid_option("smpi/simulate-computation", "no") == P{"simulate_computation", "false"});
  CHECK(simgrid_option("smpi/host-speed", "1f") == P{"host_speed", "1f"});
  CHECK(simgrid_option("smpi/bw-factor", "0:0.5") == P{"bandwidth_factors", "0:0.5"});
  CHECK(simgrid_option("smpi/test", "1e-4") == P{"test_time", "0.0001s"});
  CHECK(simgrid_option("smpi/test", "0.001") == P{"test_time", "0.001s"});
  CHECK(simgrid_option("smpi/os", "0:0:0:0:0") == P{"", ""});
  CHECK_THROWS_WITH_AS(simgrid_option("smpi/os", "0:1e-6:0:0:0"),
                       "option 'smpi/os': augur models only SimGrid's default (0:0:0:0:0), not '0:1e-6:0:0:0'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(simgrid_option("network/model", "IB"),
                       "option 'network/model': 'IB' is not one of CM02, LV08, SMPI", std::invalid_argument);
  try {
    simgrid_option("network/modle", "CM02");
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).starts_with("unknown SimGrid option 'network/modle'; accepted: network/model, "));
  }
  CHECK(split_simgrid_option("smpi/or:0:1") == P{"smpi/or", "0:1"});
  CHECK_THROWS_AS(split_simgrid_option("network/model"), std::invalid_argument);
}

TEST_CASE("the simgrid_platform machine prices compute per host and messages on the routes") {
  ParamSet params(platform_params(), "simgrid_platform");
  params.set("platform", fixtures + "routed.xml");
  params.set("network_model", "CM02");
  params.set("crosstraffic", "false");
  auto machine = make_platform_machine(params, 4);  // ranks on a, b, c-0.x, c-1.x (by name)
  // 1e9 flops on b (500 Mf): 2 s; on c-0.x (2 Gf): 0.5 s
  CHECK(machine->compute_time(1, 1e9) == doctest::Approx(2.0));
  CHECK(machine->compute_time(2, 1e9) == doctest::Approx(0.5));
  // a → b, 1e6 B alone: latency 1 us + 2 us, bandwidth min(1, 2) GB/s (TCP window 4 MiB / 6 us
  // is far above): 3e-6 + 1e6 / 1e9 = 0.001003 s
  CHECK(machine->transfer(0, 1, 1000000, 0).arrival == doctest::Approx(0.001003));
  machine->reset();
  // c-0.x → c-1.x: 50 + 10 + 50 us, 125 MB/s everywhere: 110e-6 + 1e6 / 125e6 = 0.00811 s
  CHECK(machine->transfer(2, 3, 1000000, 0).arrival == doctest::Approx(0.00811));
  // no computation simulated: 0
  params.set("simulate_computation", "false");
  CHECK(make_platform_machine(params, 4)->compute_time(1, 1e9) == 0);
}
