// SimGrid's configuration options (--cfg=name:value, <config><prop>) that matter to a replay,
// mapped onto the parameters of the simgrid_platform machine model.
#pragma once
#include <string>
#include <string_view>
#include <utility>

namespace augur::machines::platform {

/// The machine parameter and its value (as augur writes it) for SimGrid's option `name` set to
/// `value`: network/model → network_model, network/crosstraffic → crosstraffic,
/// network/TCP-gamma → tcp_gamma, smpi/send-is-detached-thresh → eager_threshold,
/// smpi/simulate-computation → simulate_computation, smpi/host-speed → host_speed,
/// smpi/lat-factor and smpi/bw-factor → latency_factors and bandwidth_factors; smpi/test,
/// smpi/os, smpi/or, smpi/ois and smpi/async-small-thresh are accepted at SimGrid's defaults
/// (→ {"", ""}: nothing to set). Throws std::invalid_argument: an unknown name (the message lists
/// the accepted ones) or a value augur cannot take.
std::pair<std::string, std::string> simgrid_option(std::string_view name, std::string_view value);

/// "name:value" split at the first colon; std::invalid_argument when there is none.
std::pair<std::string, std::string> split_simgrid_option(std::string_view assignment);

}  // namespace augur::machines::platform
