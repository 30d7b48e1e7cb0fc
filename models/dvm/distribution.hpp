// Templates (the original's AMView) distributed on a processor system (spec section 6.1): the
// distr_ axis map, BLOCK pieces of ⌈N/p⌉, weighted pieces (setelw_, processor powers), block
// multiples (blkdiv_), and the original Predictor's own arithmetic for number-for-number runs.
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "models/dvm/block.hpp"
#include "models/dvm/processor_system.hpp"

namespace augur::models::dvm {

/// Whose geometry to compute. `augur`: the model of spec 6.1 (exact preimages, ⌈N/p⌉ pieces).
/// `predictor`: the arithmetic of the original Predictor (3.1 and 2.53 share it): proportional
/// pieces in double precision with truncation, its preimage rounding and its loop coordinates.
/// docs/dvm-model.md lists every place where the two differ.
enum class Fidelity { augur, predictor };

/// How a template axis of n elements is cut among the p coordinates of a grid dimension.
enum class SplitRule {
  /// augur: equal weights → pieces of L = ⌈n/p⌉ (rounded up to the blkdiv_ multiple m):
  /// piece c = [c·L, min(n, (c+1)·L) − 1]; unequal weights → boundaries
  /// b_c = m·⌊n·(Σ_{j<c} w_j) / (m·Σ_j w_j)⌋, b_p = n, piece c = [b_c, b_{c+1} − 1].
  standard,
  /// The original's array blocks (Block(da, p, 1)): v = n/Σw (v = ⌈v⌉ rounded up to the multiple
  /// when blkdiv_ was called), s = Σ_{j<c} v·w_j, lo = trunc(s), hi = trunc(trunc(s) + v·w_c − 1),
  /// and hi = n − 1 whenever hi + 1 ≥ n − 1.
  predictor_array,
  /// The original's loop blocks (LoopBlock(pl, p, 1)): as predictor_array but
  /// hi = trunc(s + v·w_c − 1) and no widening of the last piece.
  predictor_loop,
};

/// The pieces of [0, n) on coordinates 0 … weights.size()−1 of a grid dimension. `multiple` is
/// the blkdiv_ multiple, 0 when blkdiv_ was not called (the predictor rules distinguish that from
/// 1). Pieces may be empty; under the predictor rules they may also overlap or leave gaps, as in
/// the original.
std::vector<Range> split_axis(Index n, std::span<const double> weights, Index multiple, SplitRule rule);

/// A template: an index space of rank ≥ 1, optionally distributed on a processor system.
class Template {
 public:
  /// crtamv_: sizes ≥ 1. Throws std::invalid_argument otherwise.
  explicit Template(std::vector<Index> sizes);

  int rank() const { return static_cast<int>(sizes_.size()); }
  Index size(int axis) const { return sizes_[static_cast<std::size_t>(axis)]; }
  const std::vector<Index>& sizes() const { return sizes_; }

  /// distr_ / redis_: axis_array[d] = the 1-based template axis distributed (BLOCK) along grid
  /// dimension d, 0 = the template is replicated along d. Missing entries mean 0 and entries
  /// beyond the grid's rank are ignored (as in the original); DistrParamArray is not needed
  /// (BLOCK only). Throws std::invalid_argument for a negative axis, an axis > rank or an axis
  /// given twice.
  void distribute(const ProcessorSystem& system, std::span<const int> axis_array);
  bool distributed() const { return system_.has_value(); }
  /// The processor system distributed on. Throws std::logic_error before distribute().
  const ProcessorSystem& system() const;
  /// Template axis (0-based) distributed along grid dimension `grid_dim`, −1 when replicated.
  int axis_of_dim(int grid_dim) const { return axis_of_dim_[static_cast<std::size_t>(grid_dim)]; }
  /// Grid dimension template axis `axis` is distributed along, −1 when it is not distributed.
  int dim_of_axis(int axis) const { return dim_of_axis_[static_cast<std::size_t>(axis)]; }

  /// blkdiv_: AMVAxisDiv, one multiple (≥ 1) per template axis in axis order.
  void set_multiples(std::vector<Index> multiples);
  const std::vector<Index>& multiples() const { return multiples_; }
  /// Coordinate weights per grid dimension (setelw_ / processor powers, see coordinate_weights).
  /// Used when they match the grid distributed on; ignored otherwise (uniform weights).
  void set_weights(std::vector<std::vector<double>> weights);
  /// The weights of grid dimension `grid_dim` in use (1.0 each when none match).
  std::vector<double> weights(int grid_dim) const;

  /// The piece of distributed axis `axis` on grid coordinate `coordinate`.
  Range piece(int axis, int coordinate, SplitRule rule) const;
  /// The template's own local block on `processor`: the pieces of the distributed axes, whole
  /// ranges elsewhere; empty when any piece is.
  Block block(int processor, SplitRule rule) const;

 private:
  Index multiple_for(int axis, SplitRule rule) const;

  std::vector<Index> sizes_;
  std::optional<ProcessorSystem> system_;
  std::vector<int> axis_of_dim_;
  std::vector<int> dim_of_axis_;
  std::vector<Index> multiples_;
  std::vector<std::vector<double>> weights_;
};

/// The original's setpsw_ (it runs at distr_ when no weights were set, with raw weights 1): per
/// grid dimension d and coordinate j,
///   w[d][j] = raw[d][j] / min_j raw[d][j] · (Σ_{k: coord_d(k) = j} (power_k / m)^(1/rank)) / (P /
///   size_d)
/// with m = min(100000, min_k power_k) and P / size_d an integer division. `raw` may have fewer
/// dimensions than the grid (the rest count as 1.0); empty `powers` means 1.0 each. A dimension
/// whose minimum raw weight is ≤ 0 is not normalised. Throws std::invalid_argument for sizes
/// that do not match the grid.
std::vector<std::vector<double>> coordinate_weights(const ProcessorSystem& system,
                                                    const std::vector<std::vector<double>>& raw,
                                                    std::span<const double> powers);

/// setelw_: raw coordinate weights from the template elements' loads (WeightNumber[d] loads of
/// grid dimension d, consecutive in LoadWeight). augur: the loads of dimension d are cut into
/// size_d consecutive groups minimising the largest group load (the optimisation the original
/// performs and then discards) and the weight of a coordinate is its number of elements.
/// predictor: dimension d with WeightNumber[d] ≥ size_d takes the first size_d values of
/// LoadWeight (from its start, for every dimension, as the original does); other dimensions 1.0.
/// Both: a dimension with 0 < WeightNumber[d] < size_d keeps weights 1.0, as the DVM runtime
/// ignores such loads. Throws std::invalid_argument when LoadWeight is shorter than the counts
/// require.
std::vector<std::vector<double>> load_weights(const ProcessorSystem& system, std::span<const Index> weight_numbers,
                                              std::span<const double> loads, Fidelity fidelity);

}  // namespace augur::models::dvm
