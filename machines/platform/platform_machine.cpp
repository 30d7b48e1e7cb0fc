// The simgrid_platform machine model (see platform_machine.hpp); platform files are read once per
// path and shared by the variants.
#include "machines/platform/platform_machine.hpp"

#include <map>
#include <mutex>

#include "machines/network/network_machine.hpp"
#include "machines/platform/hostfile.hpp"
#include "machines/platform/platform.hpp"

namespace augur::machines::platform {

std::vector<ParamSpec> platform_params() {
  auto specs = common_params();
  for (ParamSpec& spec : specs) {
    if (spec.name == "cpu_speed") spec.doc = "not used: compute is priced at each host's speed in the platform file";
    if (spec.name == "eager_threshold") spec = smpi_eager_threshold_param();
  }
  specs.push_back({"platform", UnitKind::path, "", "the SimGrid platform file (XML v4.1)", {}});
  specs.push_back(
      {"hostfile", UnitKind::path, "", "smpirun's hostfile (host or host:N per line); \"\" = hosts by name", {}});
  for (const ParamSpec& spec : flow_network_params())
    for (const char* name : {"network_model", "crosstraffic", "tcp_gamma", "latency_factors", "bandwidth_factors",
                             "message_envelope", "test_time"})
      if (spec.name == name) specs.push_back(spec);
  specs.push_back({"simulate_computation",
                   UnitKind::boolean,
                   "true",
                   "false: computations take no time (SimGrid's smpi/simulate-computation)",
                   {}});
  specs.push_back({"host_speed",
                   UnitKind::flop_rate,
                   "20000f",
                   "SimGrid's smpi/host-speed: scales benchmarked code, no effect on a replay",
                   {}});
  return specs;
}

namespace {

/// The platform of `path`, read on first use (a sweep builds a machine per variant).
std::shared_ptr<const Platform> platform_of(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Platform>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& entry = cache[path];
  if (!entry) entry = std::make_shared<const Platform>(read_platform(path));
  return entry;
}

}  // namespace

std::unique_ptr<MachineModel> make_platform_machine(const ParamSet& params, int processors) {
  if (params.text("platform").empty()) throw ParamError("parameter 'platform': no platform file given");
  const auto platform = platform_of(params.text("platform"));
  std::vector<int> ranks = params.text("hostfile").empty()
                               ? default_mapping(*platform, processors)
                               : read_hostfile(params.text("hostfile"), *platform, processors);
  std::vector<double> speeds;
  std::vector<int> cores;
  for (const PlatformHost& host : platform->hosts) {
    speeds.push_back(host.speed);
    cores.push_back(host.cores);
  }
  ParamSet network = params;
  if (params.text("network_model") != "SMPI") {
    // SimGrid applies smpi/lat-factor and smpi/bw-factor under its SMPI model only
    network.set("latency_factors", "");
    network.set("bandwidth_factors", "");
  }
  return std::make_unique<FlowNetworkMachine>(network, processors, platform->topology, std::move(ranks),
                                              std::move(speeds), cores);
}

}  // namespace augur::machines::platform
