// TI traces replayed on the flow_network model against SimGrid 3.32's `smpirun -replay` on the
// same platforms (tools/bench/network_compare.sh writes the table; the figures below are
// SimGrid's printed "Simulation time"): the sample cluster, a 4x4x4 TORUS cluster, a FAT_TREE
// and a DRAGONFLY, under network/model CM02 (crosstraffic 0) and SMPI (SimGrid's default).
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "tests/tools/run_augur.hpp"

using augur::test::run_augur;

namespace {

/// augur's predicted time for TRACE (a ti-samples folder) on MACHINE with extra --set options.
double predicted(const std::string& trace, const std::string& machine, const std::string& sets) {
  const auto r = run_augur("run --trace ti:" + std::string(AUGUR_SHARED_DIR) + "/ti-samples/" + trace +
                           "/trace.txt --machine " + machine + " " + sets + " --wait-states off --characteristics off");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const auto at = r.out.find("predicted time ");
  REQUIRE(at != std::string::npos);
  return std::strtod(r.out.c_str() + at + 15, nullptr);
}

const std::string cm02 = "--set machine.network_model=CM02 --set machine.crosstraffic=false";

}  // namespace

TEST_SUITE("integration") {
  TEST_CASE("flow_network reproduces SimGrid on the sample cluster") {
    // smpirun -np 8 -platform ti-samples/platform.xml -replay prk-stencil-8/trace.txt: 1.031500 s
    CHECK(predicted("prk-stencil-8", "platform_cluster_64_flow", "") == doctest::Approx(1.031500).epsilon(2e-6));
    // the same with --cfg=network/model:CM02 --cfg=network/crosstraffic:0: 1.031075 s
    CHECK(predicted("prk-stencil-8", "platform_cluster_64_flow", cm02) == doctest::Approx(1.031075).epsilon(2e-6));
  }

  TEST_CASE("flow_network reproduces SimGrid on a 4x4x4 torus - where messages share links") {
    // <cluster topology="TORUS" topo_parameters="4,4,4" bw="10GBps" lat="0.5us" …>, the transposes'
    // simultaneous messages cross shared torus links: SimGrid 0.386213 s (SMPI), 0.379732 s (CM02),
    // against 0.371553 s and 0.365010 s on the non-blocking cluster.
    CHECK(predicted("prk-transpose-4", "torus_4x4x4", "") == doctest::Approx(0.386213).epsilon(3e-6));
    CHECK(predicted("prk-transpose-4", "torus_4x4x4", cm02) == doctest::Approx(0.379732).epsilon(3e-6));
  }

  TEST_CASE("flow_network reproduces SimGrid on a 2:1 oversubscribed fat tree and a dragonfly") {
    // <cluster topology="FAT_TREE" topo_parameters="2;8,8;1,4;1,1"> (16 ranks on 2 edge switches
    // of 8 hosts, 4 up-links each) and topology="DRAGONFLY" topo_parameters="2,1;2,1;4,1;4",
    // links 10GBps / 0.5us, tools/bench/network_compare.sh: SimGrid's times below.
    CHECK(predicted("prk-transpose-16", "platform_fat_tree_64", "") == doctest::Approx(0.121027).epsilon(2e-5));
    CHECK(predicted("prk-transpose-16", "platform_fat_tree_64", cm02) == doctest::Approx(0.109961).epsilon(2e-5));
    CHECK(predicted("prk-transpose-8", "platform_dragonfly_64", "") == doctest::Approx(0.242192).epsilon(1e-5));
    CHECK(predicted("prk-transpose-8", "platform_dragonfly_64", cm02) == doctest::Approx(0.229770).epsilon(1e-5));
  }
}
