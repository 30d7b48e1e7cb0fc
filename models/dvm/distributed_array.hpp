// Distributed arrays (spec section 6.1): align_ of an array on a template or on another array
// (AxisArray, CoeffArray, ConstArray), resolved to one rule per template axis, and the local
// block of every processor (with replication along the grid dimensions the array is not split on).
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "models/dvm/block.hpp"
#include "models/dvm/distribution.hpp"
#include "models/dvm/processor_system.hpp"

namespace augur::models::dvm {

/// The parameters of align_, realn_, mappl_ and crtrbl_, one entry per axis of the pattern (the
/// template or array aligned on): axis[s] = 1-based axis of the aligned object mapped on pattern
/// axis s (pattern index = coeff[s]·i + constant[s]), −1 = replicated along s, 0 (or coeff 0) =
/// the object sits at pattern index constant[s].
struct AlignParams {
  std::vector<int> axis;
  std::vector<Index> coeff;
  std::vector<Index> constant;
};

/// How an aligned object (array or loop) meets one template axis.
enum class AxisRuleKind {
  linear,      ///< template index = coeff·i + constant for the object's axis `source_axis`
  replicated,  ///< the object is copied along this template axis
  constant,    ///< the object sits at template index `constant`
  bounded,     ///< replicated, but only where coeff·j + constant hits the axis for 0 ≤ j < bound
               ///< (aligned on an array replicated along an axis of that array)
};

/// One template axis's rule.
struct AxisRule {
  AxisRuleKind kind = AxisRuleKind::replicated;
  int source_axis = -1;  ///< linear: the object's axis (0-based)
  Index coeff = 1;       ///< linear, bounded
  Index constant = 0;    ///< linear, bounded: offset; constant: the template index
  Index bound = 0;       ///< bounded: extent of the intermediate array's axis
  bool operator==(const AxisRule&) const = default;
};

/// Composes `params` (one entry per pattern axis, naming axes of an object of rank
/// `object_rank`) with the pattern's own rules (one per template axis, naming pattern axes; a
/// template is its own pattern with identity rules) into the object's rules per template axis.
/// Throws std::invalid_argument for arrays of the wrong length, an axis outside the object, or an
/// object axis used twice.
std::vector<AxisRule> compose_rules(const std::vector<AxisRule>& pattern_rules, std::span<const Index> pattern_sizes,
                                    const AlignParams& params, int object_rank, const char* what);

/// The identity rules of a template (template axis t ← axis t, coefficient 1, constant 0).
std::vector<AxisRule> identity_rules(int rank);

/// The grid dimension an array axis is split along, and the direction of the split
/// (+1 when the axis runs with the grid coordinate, −1 for a negative coefficient).
struct MappedAxis {
  int grid_dim = -1;
  int direction = 1;
  bool operator==(const MappedAxis&) const = default;
};

/// A distributed array (crtda_) and its alignment.
class DistributedArray {
 public:
  /// crtda_: sizes ≥ 1, element size, declared shadow widths (empty = 0 each).
  DistributedArray(std::vector<Index> sizes, Index type_size, std::vector<Index> low_shadow = {},
                   std::vector<Index> high_shadow = {});

  int rank() const { return static_cast<int>(sizes_.size()); }
  Index size(int axis) const { return sizes_[static_cast<std::size_t>(axis)]; }
  const std::vector<Index>& sizes() const { return sizes_; }
  Index type_size() const { return type_size_; }
  Index low_shadow(int axis) const { return low_shadow_[static_cast<std::size_t>(axis)]; }
  Index high_shadow(int axis) const { return high_shadow_[static_cast<std::size_t>(axis)]; }

  /// align_ / realn_ on a distributed template.
  void align(const Template& pattern, const AlignParams& params);
  /// align_ / realn_ on an aligned array (the rules compose: t = A·(c·i + k) + B).
  void align(const DistributedArray& pattern, const AlignParams& params);
  /// The same array and rules on `distribution` (a redistributed copy of its template).
  DistributedArray with_template(const Template& distribution) const;

  bool aligned() const { return templ_.has_value(); }
  /// The template the array is (finally) aligned on. Throws std::logic_error before align().
  const Template& distribution() const;
  const ProcessorSystem& system() const { return distribution().system(); }
  /// One rule per template axis.
  const std::vector<AxisRule>& rules() const { return rules_; }

  /// The grid dimension array axis `axis` is split along, if any.
  std::optional<MappedAxis> mapped_axis(int axis) const;
  /// Grid dimensions along which every copy of an element is repeated (the template is
  /// replicated there, or the array is replicated along the template axis distributed there).
  std::vector<int> replicated_dims() const;
  /// No axis split and no processor excluded: every processor with a non-empty template block
  /// holds the whole array (the original's Repl).
  bool fully_replicated() const;

  /// The local block of `processor`: the array indices it owns (empty when none).
  Block block(int processor, Fidelity fidelity) const;
  /// Local blocks of all processors of the system.
  std::vector<Block> blocks(Fidelity fidelity) const;

 private:
  std::vector<Index> sizes_;
  Index type_size_;
  std::vector<Index> low_shadow_;
  std::vector<Index> high_shadow_;
  std::optional<Template> templ_;
  std::vector<AxisRule> rules_;
};

/// {i : lo ≤ a·i + b ≤ hi} for a ≠ 0 (exact floor/ceil), any sign of i.
Range linear_preimage(const Range& piece, Index a, Index b);
/// linear_preimage ∩ [0, n − 1].
Range preimage(const Range& piece, Index a, Index b, Index n);
/// The original's LS::transform: the same with C's truncating division and its corrections
/// (it keeps index 0 when ⌊(hi − b)/a⌋ = 0 although a·0 + b < lo).
Range predictor_preimage(const Range& piece, Index a, Index b, Index n);

}  // namespace augur::models::dvm
