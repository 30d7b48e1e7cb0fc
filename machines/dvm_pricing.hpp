// The DVM model's pricing queries (spec 6.2, 6.3): transfer matrices (GetCost), grid reductions
// (StartR), the I/O broadcast (srmem_) and the processor grid, apart from the generic MachineModel.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/sim_time.hpp"

namespace augur::machines {

using engine::SimTime;
class MachineModel;

/// A group of a machine's processors arranged as a grid (a DVM processor system): row-major,
/// the last dimension fastest.
struct ProcessorGrid {
  std::vector<int> shape;       ///< extent of every dimension
  std::vector<int> processors;  ///< the machine processor at each grid position (Π shape of them)
};

/// What the DVM model asks a machine beyond messages and collectives. A machine answers through
/// `MachineModel::dvm_pricing()`: by default a SimulatedDvmPricing over itself; the bus,
/// transputer grid and dvm_cluster models give their closed forms. Each query but `arrange` is a
/// pricing query, not part of a run (the simulated ones reset the contention state before and after).
class DvmPricing {
 public:
  virtual ~DvmPricing() = default;

  /// Price of a transfer matrix T[p][q] (bytes from p to q), spec section 6.3 GetCost, every
  /// sender ready at time 0.
  virtual SimTime matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) = 0;

  /// Price of a transfer matrix when each sender is ready at its own clock (Predictor 3.1's
  /// GetCost: messages sent one by one in row-major order). `ready[p]` = clock of processor p.
  /// Returns the cost (time from the first send to the last arrival); when `end_per_proc` is
  /// given, it receives for every processor the latest arrival among messages it sent or received
  /// (0 when none).
  virtual SimTime matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix,
                                 const std::vector<SimTime>& ready, std::vector<SimTime>* end_per_proc = nullptr) = 0;

  /// A reduction over `grid` (spec 6.2 StartR): the processors differ in their partial results
  /// only along the grid dimensions d with `split[d]` (the loop is split there and replicated
  /// along the others); the B = Π_{split d} shape[d] partial results of `bytes` bytes are
  /// combined on one processor and the result is sent to all L processors of the grid. 0 when no
  /// dimension is split.
  virtual SimTime grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split,
                                      std::uint64_t bytes) = 0;

  /// A broadcast of `bytes` bytes from `processors[0]` to every processor of the list, message
  /// after message (the DVM I/O processor's srmem_): for each position, the time from the start
  /// until that processor is done (position 0 → 0).
  virtual std::vector<SimTime> broadcast_times(const std::vector<int>& processors, std::uint64_t bytes) = 0;

  /// The grid the program lays its processors out on (DVM: the root processor system), row-major.
  /// Models whose topology was left unspecified adopt it (transputer_grid with grid []); the
  /// default ignores it. Call before the run; a shape of another processor count is ignored.
  virtual void arrange(const std::vector<int>& shape) { (void)shape; }
};

/// The default answers: the messages simulated on a MachineModel with its `transfer`.
class SimulatedDvmPricing : public DvmPricing {
 public:
  explicit SimulatedDvmPricing(MachineModel& machine) : machine_(machine) {}

  /// Every message p → q (p ≠ q, T > 0) ready at 0, sent in row-major order; the last arrival.
  SimTime matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) override;
  /// Ignores `ready` and returns matrix_cost(matrix); `end_per_proc` holds that cost for every
  /// processor with traffic (arrivals counted from 0).
  SimTime matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix, const std::vector<SimTime>& ready,
                         std::vector<SimTime>* end_per_proc = nullptr) override;
  /// The B − 1 processors with coordinate 0 on every unsplit dimension send to position 0 at
  /// time 0, then position 0 sends the result to the L − 1 others once the last partial result
  /// has arrived; the cost is the last arrival (on one bus: the bus formula exactly).
  SimTime grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split, std::uint64_t bytes) override;
  /// Position k → arrival of its message, all sent at time 0 in list order.
  std::vector<SimTime> broadcast_times(const std::vector<int>& processors, std::uint64_t bytes) override;

 private:
  MachineModel& machine_;
};

/// The seed's srmem_ broadcast (spec 6.2 I/O, Predictor 2.53 ModelIO srmem): position i of P is
/// done after Δ_i = σ · Σ_{j=0..i} (Ts + j·Tb·bytes), i.e. Δ_0 = σTs, Δ_i = Δ_{i−1} + σ(Ts + i·Tb·bytes).
std::vector<SimTime> seed_broadcast_times(int processors, SimTime start_time, SimTime byte_time, double scale,
                                          std::uint64_t bytes);

}  // namespace augur::machines
