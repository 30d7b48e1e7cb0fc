// The transputer grid (spec 7.2, 6.3): processors on a 1-D/2-D/3-D grid with links to their
// neighbours; messages are stored and forwarded hop by hop, pipelined in packets.
#pragma once
#include <cstdint>
#include <vector>

#include "machines/machine_model.hpp"

namespace augur::machines {

/// Every parameter of the transputer grid model: common_params() then start_time, byte_time,
/// grid, link_contention, scale.
std::vector<ParamSpec> transputer_grid_params();

/// Store-and-forward cost of `bytes` bytes over `distance` hops with the optimal packet size
/// (spec 6.3): D = 0 → 0; D = 1 → Ts + Tb·B; D ≥ 2 → S = ⌊√(Ts·B / (Tb·(D−1)))⌋ clamped to
/// [1, B], k = ⌊B/S⌋, e = B mod S, C = (Ts + Tb·S)(D + k − 1) + (e > 0 ? Ts + Tb·e : 0).
/// An empty message costs Ts per hop. Not scaled by sigma.
SimTime pipelined_cost(SimTime start_time, SimTime byte_time, std::uint64_t bytes, int distance);

class TransputerGridMachine;

/// The DVM queries on a transputer grid in the DVM Predictor's closed forms (spec 6.2, 6.3);
/// `arrange` may set the grid's shape, the others leave its links alone.
class TransputerDvmPricing final : public DvmPricing {
 public:
  explicit TransputerDvmPricing(TransputerGridMachine& machine) : machine_(machine) {}

  /// Spec 6.3: sigma · pipelined_cost(B, D), D = the largest distance between processors with
  /// traffic, B = the largest message at that distance.
  SimTime matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) override;
  /// matrix_cost (ready is ignored: the seed prices a matrix from time 0); every processor's
  /// `end_per_proc` is the cost, whether it takes part or not — the pipelines of all pairs run
  /// together and the grid is done when the farthest pair is (the seed's time stamps of aarrcp_
  /// and remote buffers, Predictor 2.53 CommCost::GetCost mach_TRANSPUTER).
  SimTime matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix, const std::vector<SimTime>& ready,
                         std::vector<SimTime>* end_per_proc = nullptr) override;
  /// Spec 6.2 StartR on a transputer grid: t = σ(Ts + Tb·n)·(D(0, centre) + Σ_{split d}
  /// ⌊shape[d]/2⌋), measured on `grid`'s own shape: centre = (⌊shape[d]/2⌋)_d, so D(0, centre) =
  /// Σ_d ⌊shape[d]/2⌋ (Predictor 2.53 RedGroup::StartR, mach_TRANSPUTER). 0 when no dimension is
  /// split.
  SimTime grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split, std::uint64_t bytes) override;
  /// The seed's srmem_ formula (seed_broadcast_times with this grid's Ts, Tb, σ).
  std::vector<SimTime> broadcast_times(const std::vector<int>& processors, std::uint64_t bytes) override;
  /// With grid [] the machine takes the program's grid (the Predictor's transputer is the
  /// processor system's grid: old-format Predictor.par files without `topology`). A grid given
  /// as a parameter is kept.
  void arrange(const std::vector<int>& shape) override;

 private:
  TransputerGridMachine& machine_;
};

/// A grid of transputers numbered row-major (last dimension fastest). Stateful only with
/// link_contention: remembers when each directed link is free.
class TransputerGridMachine final : public MachineModel {
 public:
  /// Reads the parameters; throws ParamError when the grid does not hold `processors`.
  TransputerGridMachine(const ParamSet& params, int processors);

  std::string model_name() const override { return "transputer_grid"; }
  /// sigma · pipelined_cost(B, Manhattan distance). With link_contention the message follows
  /// dimension-order routing and starts when every link of its route is free; the links stay
  /// busy until it arrives. The sender's CPU is not held: sender_free = ready.
  Transfer transfer(int src, int dst, std::uint64_t bytes, SimTime ready) override;
  /// Tree and pipeline estimates on the grid (formulas in the .cpp).
  SimTime collective_time(engine::CollectiveKind kind, int processors, std::uint64_t bytes, int root) const override;
  /// The Predictor's closed forms of GetCost, StartR and srmem_, and the adoption of the
  /// program's grid (TransputerDvmPricing).
  DvmPricing& dvm_pricing() override { return pricing_; }
  void reset() override;

  /// Manhattan distance between processors `a` and `b` (hops).
  int distance(int a, int b) const;
  /// Coordinate of processor `proc` along dimension `dim`.
  int coordinate(int proc, std::size_t dim) const;
  /// The grid shape (a line of P processors when the grid parameter is []).
  const std::vector<int>& shape() const { return shape_; }

 private:
  friend class TransputerDvmPricing;
  /// Sets shape_ and the strides and link table that follow from it.
  void set_shape(std::vector<int> shape);
  /// Index of the directed link leaving `proc` along `dim` in direction `up` (+1) or down.
  std::size_t link_index(int proc, std::size_t dim, bool up) const;
  /// Largest distance from `proc` to any processor of the grid.
  int eccentricity(int proc) const;
  SimTime cost(std::uint64_t bytes, int hops) const;

  SimTime start_time_;  ///< Ts per hop, s
  SimTime byte_time_;   ///< Tb, s per byte
  bool link_contention_;
  double scale_;     ///< sigma
  bool grid_given_;  ///< the grid parameter was not []
  std::vector<int> shape_;
  std::vector<int> stride_;         ///< processors between neighbours along each dimension
  std::vector<SimTime> link_free_;  ///< per directed link: when it is free again
  TransputerDvmPricing pricing_{*this};
};

}  // namespace augur::machines
