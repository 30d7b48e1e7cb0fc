// The message-passing model on a flow network (docs/network.md): a message's arrival counts the
// flows that start after it and share its links, because completions are events the scheduler
// orders with the ranks' steps; what each link carried.
#include <doctest/doctest.h>

#include "engine/scheduler.hpp"
#include "machines/network/network_machine.hpp"
#include "models/mp/mp_program.hpp"
#include "tests/models/mp_test_support.hpp"

using namespace augur;
using namespace augur::test;
using traces::MpOpKind;

namespace {

/// The sample cluster under CM02 without cross-traffic, bytes without SMPI's envelope.
machines::ParamSet two_senders_params() {
  machines::ParamSet params(machines::flow_network_params(), "flow_network");
  params.set("network_model", "CM02");
  params.set("crosstraffic", "false");
  params.set("message_envelope", "0B");  // the bytes alone, as the hand computations
  return params;
}

/// Ranks 0 and 1 send 1e6 B and (after 1e4 flops) 5e5 B to rank 2, which posted both receives.
MemoryTrace two_senders_trace() {
  return MemoryTrace(
      {{rec(MpOpKind::send, 2, 0, 1000000)},
       {rec(MpOpKind::compute, -1, 0, 0, 10000), rec(MpOpKind::send, 2, 0, 500000)},
       {rec(MpOpKind::irecv, 0, 0, 1000000), rec(MpOpKind::irecv, 1, 0, 500000), rec(MpOpKind::waitall)}});
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("MpProgram on flow_network: two messages share the receiver's link") {
    // Sample cluster, CM02 without cross-traffic: 1 us route latency, 10 GB/s private links.
    // Rank 0 sends 1e6 B at 0; rank 1 computes 1e4 flops (10 us at 1 Gflop/s), then sends 5e5 B;
    // rank 2 has posted both receives (rendezvous: the sizes exceed 64 KiB). Rank 0's flow is
    // alone on 2's down link from 1 us (latency paid) to 11 us (rank 1's latency paid):
    // 1e-5 s · 1e10 B/s = 1e5 B. Then 5 GB/s each: rank 1's 5e5 B take 1e-4 s → done at
    // 1.11e-4 s; rank 0 has then moved 6e5 B, its last 4e5 B alone take 4e-5 s → 1.51e-4 s.
    const machines::ParamSet params = two_senders_params();
    MemoryTrace trace = two_senders_trace();
    machines::FlowNetworkMachine machine(params, 3);
    models::mp::MpProgram program(trace, machine, {});
    engine::Scheduler s(3);
    const auto result = s.run(program);
    CHECK(result.outcome == engine::RunOutcome::completed);
    CHECK(s.lp(1).clock == doctest::Approx(1.11e-4).epsilon(1e-9));
    CHECK(s.lp(0).clock == doctest::Approx(1.51e-4).epsilon(1e-9));
    CHECK(s.lp(2).clock == doctest::Approx(1.51e-4).epsilon(1e-9));
  }

  TEST_CASE("MpProgram on flow_network: link usage of two messages on one link") {
    // The run above with the usage recorded. host2-down carries both messages: 1e6 + 5e5 B,
    // busy from rank 0's latency end (1 us) to the last completion (1.51e-4 s): 1.5e-4 s, two
    // flows at once. host0-up: 1e6 B, busy 1 us .. 1.51e-4 s = 1.5e-4 s, one flow. host1-up:
    // 5e5 B, busy 11 us .. 1.11e-4 s = 1e-4 s. The other links carried nothing.
    const machines::ParamSet params = two_senders_params();
    MemoryTrace trace = two_senders_trace();
    machines::FlowNetworkMachine machine(params, 3);
    models::mp::MpProgram program(trace, machine, {});
    machine.record_link_usage();
    engine::Scheduler s(3);
    CHECK(s.run(program).outcome == engine::RunOutcome::completed);
    const std::vector<machines::LinkUsage> links = machine.link_usage();
    REQUIRE(links.size() == 6);  // 3 splitduplex private links, up then down
    const auto find = [&](const std::string& name) {
      for (const auto& l : links)
        if (l.name == name) return l;
      FAIL("no link " << name);
      return machines::LinkUsage{};
    };
    const auto down2 = find("host2-down");
    CHECK(down2.bytes == doctest::Approx(1.5e6));
    CHECK(down2.busy == doctest::Approx(1.5e-4).epsilon(1e-9));
    CHECK(down2.peak_flows == 2);
    CHECK(down2.sharing == "splitduplex");
    CHECK(down2.bandwidth == 1e10);
    const auto up0 = find("host0-up");
    CHECK(up0.bytes == doctest::Approx(1e6));
    CHECK(up0.busy == doctest::Approx(1.5e-4).epsilon(1e-9));
    CHECK(up0.peak_flows == 1);
    const auto up1 = find("host1-up");
    CHECK(up1.bytes == doctest::Approx(5e5));
    CHECK(up1.busy == doctest::Approx(1e-4).epsilon(1e-9));
    for (const char* idle : {"host0-down", "host1-down", "host2-up"}) {
      CHECK(find(idle).bytes == 0);
      CHECK(find(idle).busy == 0);
      CHECK(find(idle).peak_flows == 0);
    }
  }

  TEST_CASE("MpProgram on flow_network: no usage recorded unless asked") {
    machines::ParamSet params(machines::flow_network_params(), "flow_network");
    MemoryTrace trace({{rec(MpOpKind::send, 1, 0, 1000)}, {rec(MpOpKind::recv, 0, 0, 1000)}});
    machines::FlowNetworkMachine machine(params, 2);
    models::mp::MpProgram program(trace, machine, {});
    engine::Scheduler s(2);
    CHECK(s.run(program).outcome == engine::RunOutcome::completed);
    CHECK(machine.link_usage().empty());
  }
}
