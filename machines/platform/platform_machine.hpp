// The simgrid_platform machine model: a SimGrid platform file (hosts, links, routes) priced by
// the flow-level network (machines/network) with ranks placed as smpirun places them.
#pragma once
#include <memory>
#include <vector>

#include "machines/machine_model.hpp"
#include "machines/param.hpp"

namespace augur::machines::platform {

/// common_params() then platform, hostfile, network_model, crosstraffic, tcp_gamma, the factor
/// tables, simulate_computation and host_speed.
std::vector<ParamSpec> platform_params();

/// A flow_network machine on the platform file `platform`: ranks on hosts by `hostfile` (or
/// smpirun's default), compute priced at each host's speed. Throws PlatformError for a broken
/// platform file or hostfile, ParamError for parameters.
std::unique_ptr<MachineModel> make_platform_machine(const ParamSet& params, int processors);

}  // namespace augur::machines::platform
