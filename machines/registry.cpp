// The registry of machine models and the one explicit list of the built-in ones
// (design example 1: no static self-registration, an unknown name lists the valid ones).
#include "machines/registry.hpp"

#include <algorithm>

#include "engine/log.hpp"
#include "machines/bus/bus_machine.hpp"
#include "machines/dvm_cluster/dvm_cluster_machine.hpp"
#include "machines/loggp_smp/loggp_smp_machine.hpp"
#include "machines/network/network_machine.hpp"
#include "machines/platform/platform_machine.hpp"
#include "machines/transputer_grid/transputer_grid_machine.hpp"
#include "support/edit_distance.hpp"
#include "support/strings.hpp"

namespace augur::machines {

void MachineRegistry::add(MachineModelInfo info) {
  if (find(info.name) != nullptr) throw ParamError("machine model '" + info.name + "' is registered twice");
  models_.push_back(std::move(info));
}

const MachineModelInfo* MachineRegistry::find(std::string_view name) const {
  for (const auto& info : models_)
    if (info.name == name) return &info;
  return nullptr;
}

const MachineModelInfo& MachineRegistry::get(std::string_view name) const {
  if (const auto* info = find(name)) return *info;
  std::vector<std::string> names;
  for (const auto& info : models_) names.push_back(info.name);
  std::sort(names.begin(), names.end());
  const std::string suggestion = support::nearest_name(name, names);
  std::string message = "unknown machine model '" + std::string(name) + "'";
  message += suggestion.empty() ? "." : "; did you mean '" + suggestion + "'?";
  throw ParamError(message + " Valid values are: " + support::join(names));
}

std::unique_ptr<MachineModel> MachineRegistry::create(std::string_view name, const ParamSet& params,
                                                      int processors) const {
  std::unique_ptr<MachineModel> machine = get(name).create(params, processors);
  if (auto* lg = engine::logger_at(engine::Folder::machines, spdlog::level::info)) {
    lg->info("machine model {} for {} processors", name, processors);
  }
  if (auto* lg = engine::logger_at(engine::Folder::machines, spdlog::level::debug)) {
    for (const auto& [param, value] : params.describe()) lg->debug("  {} = {}", param, value);
  }
  return machine;
}

ParamSet make_params(const MachineModelInfo& info) { return ParamSet(info.params, info.name); }

namespace {

template <typename Model>
MachineModelInfo::Factory factory() {
  return [](const ParamSet& params, int processors) -> std::unique_ptr<MachineModel> {
    return std::make_unique<Model>(params, processors);
  };
}

}  // namespace

void register_builtin_machines(MachineRegistry& registry) {
  registry.add({
      "bus",
      "A shared bus (Ethernet, or N buses/channels as Myrinet in the DVM Predictor): every "
      "message occupies the earliest free bus for scale * (start_time + byte_time * bytes), so "
      "simultaneous messages are serialised. GetCost is the Predictor's closed form "
      "scale * sum(Ts + Tb * T[p][q]) / min(P, channels) (spec 6.3, 7.1).",
      bus_params(),
      factory<BusMachine>(),
  });
  registry.add({
      "transputer_grid",
      "A 1-D, 2-D or 3-D grid of processors with links to their neighbours (transputers): a "
      "message crosses the Manhattan distance in hops, store-and-forward with pipelining in "
      "packets of the optimal size; optional per-link contention with dimension-order routing "
      "(spec 6.3, 7.2).",
      transputer_grid_params(),
      factory<TransputerGridMachine>(),
  });
  registry.add({
      "loggp_smp",
      "A cluster of SMP nodes: between nodes LogGP (Alexandrov et al. 1995: latency L, overhead "
      "o, gap g, gap per byte G = 1/bandwidth) with MTU fragmentation and up/down link "
      "contention per node; inside a node a shared-memory channel with its own latency and "
      "bandwidth. With latency 1us and bandwidth 10GBps it reproduces SimGrid's cluster of the "
      "sample platform (spec 5, 7.3).",
      loggp_smp_params(),
      factory<LoggpSmpMachine>(),
  });
  registry.add({
      "dvm_cluster",
      "The cluster tree of the DVM Predictor 3.1 (cluster-format Predictor.par files): processors "
      "are the leaves of nested clusters, each cluster with its channels, TStart and TByte. A "
      "message goes through the smallest cluster holding both processors, on its least-busy "
      "channel, from max(sender clock, channel free) for TStart + bytes * TByte; channels stay "
      "busy across operations. GetCost sends the transfer matrix message by message at each "
      "sender's clock with 3.1's exact arithmetic (float sender clocks, its min_start rule) "
      "(spec 6.6). Cluster-format Predictor.par files load onto this model.",
      dvm_cluster_params(),
      factory<DvmClusterMachine>(),
  });
  registry.add({
      "flow_network",
      "Hosts on a routed network (a cluster with private links and an optional backbone, or a "
      "torus), SimGrid's flow-level model: a message is a flow that pays its route's latency, "
      "then shares every link of its route max-min fairly with the flows it meets (shared, "
      "splitduplex or fatpipe links, TCP window bound, 5 % cross-traffic, the CM02, LV08 or SMPI "
      "factors) (docs/network.md).",
      flow_network_params(),
      factory<FlowNetworkMachine>(),
  });
  registry.add({
      "simgrid_platform",
      "A SimGrid platform file (XML v4.1: zones with Full, Floyd, Dijkstra or None routing, "
      "hosts, links, routes, clusters, fat trees, tori, dragonflies) on the flow_network model: "
      "ranks placed as smpirun places them (hostfile), compute priced at each host's speed "
      "(machines/platform/README.md). `--machine FILE.xml` selects it.",
      platform::platform_params(),
      platform::make_platform_machine,
  });
}

}  // namespace augur::machines
