// DVM processor systems (spec section 6.1): a grid of processors numbered row-major with the last
// dimension fastest, Manhattan distances, and the sub-systems crtps_ and psview_ make of a parent.
#pragma once
#include <optional>
#include <span>
#include <vector>

namespace augur::models::dvm {

/// A processor system (the original's VM): a grid of processors of rank ≥ 1. Processor k of the
/// system is processor `root_processor(k)` of the root system it was carved from. A plain value:
/// the (AM, PS) stack of task parallelism keeps copies of these.
class ProcessorSystem {
 public:
  /// The root system: a grid of `sizes` (every size ≥ 1). Throws std::invalid_argument otherwise.
  explicit ProcessorSystem(std::vector<int> sizes);

  /// crtps_: the box init[d] ≤ coordinate_d ≤ last[d] (0-based, inclusive) of `parent` as a
  /// system of its own, of the parent's rank. Throws std::invalid_argument when the box is not
  /// inside the parent or the ranks differ.
  static ProcessorSystem subsystem(const ProcessorSystem& parent, std::span<const int> init, std::span<const int> last);

  /// psview_: the first Π sizes processors of `parent` (in the parent's numbering) viewed as a
  /// grid of `sizes`. Throws std::invalid_argument when the view needs more processors.
  static ProcessorSystem view(const ProcessorSystem& parent, std::vector<int> sizes);

  /// The root system this one was carved from (itself for a root).
  ProcessorSystem root() const;

  int rank() const { return static_cast<int>(sizes_.size()); }
  int size(int dim) const { return sizes_[static_cast<std::size_t>(dim)]; }
  const std::vector<int>& sizes() const { return sizes_; }
  int processor_count() const { return static_cast<int>(root_.size()); }

  /// Grid coordinates of `processor`: processor = Σ_d coordinate_d · Π_{e>d} size_e.
  std::vector<int> coordinates(int processor) const;
  /// One coordinate of `processor`.
  int coordinate(int processor, int dim) const;
  /// The processor at `coordinates` (each inside the grid).
  int processor(std::span<const int> coordinates) const;
  /// The processor `shift` steps away along `dim`, or nothing outside the grid (no wrap-around).
  std::optional<int> neighbour(int processor, int dim, int shift) const;
  /// Manhattan distance Σ_d |a_d − b_d| in this grid.
  int distance(int a, int b) const;
  /// The centre processor, coordinates ⌊size_d / 2⌋ (the transputer reduction's root).
  int centre() const;

  /// Number of `processor` in the root system.
  int root_processor(int processor) const { return root_[static_cast<std::size_t>(processor)]; }
  const std::vector<int>& root_processors() const { return root_; }
  const std::vector<int>& root_sizes() const { return root_sizes_; }

  bool operator==(const ProcessorSystem&) const = default;

 private:
  ProcessorSystem(std::vector<int> sizes, std::vector<int> root, std::vector<int> root_sizes);

  std::vector<int> sizes_;
  std::vector<int> strides_;     ///< strides_[d] = Π_{e>d} size_e
  std::vector<int> root_;        ///< root processor of each processor
  std::vector<int> root_sizes_;  ///< grid of the root system
};

}  // namespace augur::models::dvm
