// The flow_network machine model: hosts on a routed topology (cluster, torus), every message a
// flow sharing its links max-min fairly (SimGrid's CM02, LV08 and SMPI network models).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "machines/machine_model.hpp"
#include "machines/network/flow_network.hpp"
#include "machines/network/topology.hpp"

namespace augur::machines {

/// common_params() then topology, hosts, dims, the link, backbone and loopback characteristics,
/// network_model, crosstraffic, tcp_gamma, the factor tables, processes_per_node and mapping.
std::vector<ParamSpec> flow_network_params();
/// The eager threshold of the SMPI-like models (flow_network, simgrid_platform): 65,535 B.
ParamSpec smpi_eager_threshold_param();

/// A message from p to q is a flow over the route between their hosts, started at `ready`.
/// Program models that follow `flow_events()` learn its arrival when the network reaches it
/// (exact). `transfer` (GetCost, analytic pricing, eager messages priced at send) advances the
/// network to `ready` (exact up to then: every earlier flow is known) and returns as arrival the
/// flow's completion if no other flow started later.
class FlowNetworkMachine final : public MachineModel, public FlowEvents {
 public:
  FlowNetworkMachine(const ParamSet& params, int processors);
  /// A given topology (a SimGrid platform file, machines/platform): rank r runs on host
  /// `rank_hosts[r]`, whose speed (flop/s) is `host_speeds[host]`; `params` holds the network
  /// model's options (network_model, crosstraffic, tcp_gamma, the factor tables) and the common
  /// parameters.
  /// A host running more ranks than its `host_cores` shares them as SimGrid's CPU model does:
  /// a CPU of capacity speed × cores, each computation at most one core's speed, max-min fair.
  FlowNetworkMachine(const ParamSet& params, int processors, network::Topology topology, std::vector<int> rank_hosts,
                     std::vector<double> host_speeds, const std::vector<int>& host_cores);

  std::string model_name() const override { return "flow_network"; }
  Transfer transfer(int src, int dst, std::uint64_t bytes, SimTime ready) override;
  /// One message's time between hosts 0 and 1 alone, T(n), in the loggp_smp formulas.
  SimTime collective_time(engine::CollectiveKind kind, int processors, std::uint64_t bytes, int root) const override;
  void reset() override;
  FlowEvents* flow_events() override { return this; }
  std::uint32_t start_flow(int src, int dst, std::uint64_t bytes, SimTime ready) override;
  SimTime next_completion() override { return network_.next_event(); }
  void complete_until(SimTime t, std::vector<std::uint32_t>& finished) override { network_.advance_to(t, &finished); }
  void record_link_usage() override { network_.record_usage(true); }
  std::vector<LinkUsage> link_usage() const override { return network::link_usage(topology_, network_); }
  std::uint32_t start_compute(int rank, double flops, SimTime ready) override;

  /// Host of rank `rank`: the given mapping, else block → rank / ppn; round_robin → rank mod hosts.
  int host_of(int rank) const;
  /// With host speeds: flops / (speed of the rank's host · power[rank]); 0 when the computations
  /// are not simulated (simulate_computation false); else MachineModel's.
  SimTime compute_time(int proc, double flops) const override;
  /// The `test_time` parameter (SimGrid's smpi/test).
  SimTime test_time() const override { return test_time_; }
  const network::Topology& topology() const { return topology_; }
  const network::FlowNetwork& network() const { return network_; }

 private:
  SimTime alone(int src_host, int dst_host, std::uint64_t bytes) const;

  network::Topology topology_;
  network::NetworkOptions options_;
  network::FlowNetwork network_;
  std::uint64_t envelope_ = 16;  ///< message_envelope: bytes added to every flow
  SimTime test_time_ = 1e-4;
  int processes_per_node_ = 1;
  bool round_robin_ = false;
  std::vector<int> rank_hosts_;          ///< empty: by processes_per_node and mapping
  std::vector<double> host_speeds_;      ///< empty: cpu_speed everywhere
  std::vector<std::uint32_t> cpu_link_;  ///< per host: its CPU in network_, or no_flow (a core per rank)
  bool simulate_computation_ = true;
  /// The route from `from` to `to`, from the last two computed for `from` when one went there.
  const network::Route& route_from_cache(int from, int to);
  struct RouteCacheEntry {
    int from = -1;
    int to = -1;
    network::Route route;
  };
  static constexpr int route_cache_size = 65536;
  std::vector<std::array<RouteCacheEntry, 2>> route_cache_;  ///< per source: the latest, the one before
  network::Route back_route_;
};

}  // namespace augur::machines
