// The parts of MachineModel every model shares: the common parameters (cpu_speed, power,
// eager_threshold) and compute pricing (spec 7.4).
#include "machines/machine_model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace augur::machines {

std::vector<ParamSpec> common_params() {
  return {
      {"cpu_speed",
       UnitKind::flop_rate,
       "1Gflops",
       "speed of one processor; a compute block of f flops takes f / (cpu_speed * power)",
       {}},
      {"power",
       UnitKind::real_list,
       "[]",
       "speed of each processor relative to the one that recorded the trace; [] = 1 for all, "
       "a shorter list repeats its last value",
       {}},
      {"eager_threshold",
       UnitKind::bytes,
       "64KiB",
       "messages larger than this use rendezvous (like SimGrid's smpi/send-is-detached-thresh)",
       {}},
  };
}

MachineModel::MachineModel(const ParamSet& params, int processors)
    : processors_(processors),
      cpu_speed_(params.number("cpu_speed")),
      power_(params.list("power")),
      eager_threshold_(static_cast<std::uint64_t>(params.number("eager_threshold"))),
      node_(params.node()),
      memory_level_(params.memory_level()) {
  if (processors_ < 1) throw ParamError("a machine needs at least 1 processor, not " + std::to_string(processors));
  if (!(cpu_speed_ > 0))
    throw ParamError("parameter 'cpu_speed': must be positive, not " +
                     format_quantity(cpu_speed_, UnitKind::flop_rate));
  for (std::size_t i = 0; i < power_.size(); ++i)
    if (!(power_[i] > 0) || !std::isfinite(power_[i]))
      throw ParamError("parameter 'power': item " + std::to_string(i + 1) + " must be a positive number, not " +
                       format_quantity(power_[i], UnitKind::real));
}

double MachineModel::power(int proc) const {
  // [] means 1 everywhere; a list shorter than the processors repeats its last value.
  if (power_.empty()) return 1.0;
  const auto index = std::min(static_cast<std::size_t>(std::max(proc, 0)), power_.size() - 1);
  return power_[index];
}

SimTime MachineModel::compute_time(int proc, double flops) const {
  // t = flops / (cpu_speed · power[proc])
  return flops / (cpu_speed_ * power(proc));
}

SimTime MachineModel::compute_time(int proc, const ComputeWork& work) const {
  if (!node_) return compute_time(proc, work.flops);
  // t = max((flops + Σ calls·cost) / perf, bytes / min(bw_core, bw_node / active)) / power[proc]
  return roofline_time(*node_, work, memory_level_, active_cores(*node_, proc, processors_)) / power(proc);
}

double MachineModel::flop_rate(int proc) const { return (node_ ? node_->perf_per_core : cpu_speed_) * power(proc); }

SimTime MachineModel::scaled_time(int proc, SimTime seconds) const {
  // t = recorded seconds / power[proc]; without a power list every processor's is 1, and x / 1 is x
  // (the DVM model asks this twice per call and processor).
  if (power_.empty()) return seconds;
  return seconds / power(proc);
}

}  // namespace augur::machines
