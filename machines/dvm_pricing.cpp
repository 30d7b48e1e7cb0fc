// The DVM pricing every machine answers by simulation (SimulatedDvmPricing): GetCost (spec 6.3),
// the grid reduction and the I/O broadcast (spec 6.2), and the seed's srmem_ formula.
#include "machines/dvm_pricing.hpp"

#include <algorithm>

#include "machines/machine_model.hpp"

namespace augur::machines {

SimTime SimulatedDvmPricing::matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) {
  // Every message p -> q (p != q, T[p][q] > 0) ready at 0, sent in row-major order; the cost is
  // the last arrival. GetCost is a pricing query, not part of a run: the contention state is
  // cleared before and after.
  machine_.reset();
  SimTime last = 0;
  for (std::size_t p = 0; p < matrix.size(); ++p)
    for (std::size_t q = 0; q < matrix[p].size(); ++q)
      if (p != q && matrix[p][q] > 0)
        last = std::max(last, machine_.transfer(static_cast<int>(p), static_cast<int>(q), matrix[p][q], 0).arrival);
  machine_.reset();
  return last;
}

SimTime SimulatedDvmPricing::matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix,
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

SimTime SimulatedDvmPricing::grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split,
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
  machine_.reset();
  // Gather: the B − 1 other partial results to position 0, all sent at time 0.
  SimTime gathered = 0;
  for (std::size_t k = 1; k < count; ++k)
    if (holds_a_part(k)) gathered = std::max(gathered, machine_.transfer(grid.processors[k], root, bytes, 0).arrival);
  // Broadcast: the result to the L − 1 others once everything has arrived.
  SimTime last = gathered;
  for (std::size_t k = 1; k < count; ++k)
    last = std::max(last, machine_.transfer(root, grid.processors[k], bytes, gathered).arrival);
  machine_.reset();
  return last;
}

std::vector<SimTime> SimulatedDvmPricing::broadcast_times(const std::vector<int>& processors, std::uint64_t bytes) {
  // processors[0] sends to each other processor in list order, every message ready at 0.
  std::vector<SimTime> times(processors.size(), 0.0);
  machine_.reset();
  for (std::size_t k = 1; k < processors.size(); ++k)
    times[k] = machine_.transfer(processors[0], processors[k], bytes, 0).arrival;
  machine_.reset();
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
