// The parts of MachineModel every model shares: the common parameters (cpu_speed, power,
// eager_threshold), compute pricing (spec 7.4), and the defaults that price by simulation: GetCost
// (spec 6.3), the grid reduction and the I/O broadcast (spec 6.2).
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

SimTime MachineModel::matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) {
  // Every message p -> q (p != q, T[p][q] > 0) ready at 0, sent in row-major order; the cost is
  // the last arrival. GetCost is a pricing query, not part of a run: the contention state is
  // cleared before and after.
  reset();
  SimTime last = 0;
  for (std::size_t p = 0; p < matrix.size(); ++p)
    for (std::size_t q = 0; q < matrix[p].size(); ++q)
      if (p != q && matrix[p][q] > 0)
        last = std::max(last, transfer(static_cast<int>(p), static_cast<int>(q), matrix[p][q], 0).arrival);
  reset();
  return last;
}

SimTime MachineModel::matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix,
                                     [[maybe_unused]] const std::vector<SimTime>& ready,
                                     std::vector<SimTime>* end_per_proc) {
  // Models without a notion of per-sender clocks price the matrix as a whole (matrix_cost);
  // every processor that sends or receives is busy until that cost.
  const SimTime cost = matrix_cost(matrix);
  if (end_per_proc != nullptr) {
    end_per_proc->assign(matrix.size(), 0.0);
    for (std::size_t p = 0; p < matrix.size(); ++p)
      for (std::size_t q = 0; q < matrix[p].size() && q < matrix.size(); ++q)
        if (p != q && matrix[p][q] > 0) (*end_per_proc)[p] = (*end_per_proc)[q] = cost;
  }
  return cost;
}

SimTime MachineModel::grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split,
                                          std::uint64_t bytes) {
  const std::size_t rank = grid.shape.size();
  bool any = false;
  for (std::size_t d = 0; d < rank && d < split.size(); ++d) any = any || split[d];
  const std::size_t count = grid.processors.size();
  if (!any || count <= 1) return 0;
  // Row-major coordinates: stride[d] = Π_{e>d} shape[e].
  std::vector<std::size_t> stride(rank, 1);
  for (std::size_t d = rank; d-- > 1;) stride[d - 1] = stride[d] * static_cast<std::size_t>(grid.shape[d]);
  const auto holds_a_part = [&](std::size_t k) {
    // One distinct partial result per coordinate along the split dimensions: the processors
    // with coordinate 0 on every unsplit dimension hold them all.
    for (std::size_t d = 0; d < rank; ++d) {
      const bool split_here = d < split.size() && split[d];
      if (!split_here && (k / stride[d]) % static_cast<std::size_t>(grid.shape[d]) != 0) return false;
    }
    return true;
  };
  const int root = grid.processors[0];
  reset();
  // Gather: the B − 1 other partial results to position 0, all sent at time 0.
  SimTime gathered = 0;
  for (std::size_t k = 1; k < count; ++k)
    if (holds_a_part(k)) gathered = std::max(gathered, transfer(grid.processors[k], root, bytes, 0).arrival);
  // Broadcast: the result to the L − 1 others once everything has arrived.
  SimTime last = gathered;
  for (std::size_t k = 1; k < count; ++k)
    last = std::max(last, transfer(root, grid.processors[k], bytes, gathered).arrival);
  reset();
  return last;
}

std::vector<SimTime> MachineModel::broadcast_times(const std::vector<int>& processors, std::uint64_t bytes) {
  // processors[0] sends to each other processor in list order, every message ready at 0.
  std::vector<SimTime> times(processors.size(), 0.0);
  reset();
  for (std::size_t k = 1; k < processors.size(); ++k)
    times[k] = transfer(processors[0], processors[k], bytes, 0).arrival;
  reset();
  return times;
}

std::vector<SimTime> seed_broadcast_times(int processors, SimTime start_time, SimTime byte_time, double scale,
                                          std::uint64_t bytes) {
  // Δ_0 = σTs; Δ_i = Δ_{i−1} + σ(Ts + i·Tb·bytes): cumulative, as Predictor 2.53's srmem adds
  // TimeDelta += i·tbyte·account + tstart to processor i.
  std::vector<SimTime> times(static_cast<std::size_t>(std::max(processors, 0)), 0.0);
  SimTime delta = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    delta += static_cast<double>(i) * byte_time * static_cast<double>(bytes) + start_time;
    times[i] = scale * delta;
  }
  return times;
}

}  // namespace augur::machines
