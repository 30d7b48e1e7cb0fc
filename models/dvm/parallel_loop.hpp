// Parallel loops (spec sections 6.1 and 6.2 dopl_): the iteration space of mappl_, its mapping on
// a template or array, the iteration block of every processor and the replication count cnt of
// identical blocks that insufficient parallelism is charged for.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/dvm/block.hpp"
#include "models/dvm/distributed_array.hpp"
#include "models/dvm/distribution.hpp"

namespace augur::models::dvm {

/// A parallel loop (crtpl_ + mappl_).
class ParallelLoop {
 public:
  /// The loop's axes: InInitIndexArray, InLastIndexArray, InStepArray (step ≠ 0; a negative step
  /// counts down from init). Throws std::invalid_argument for unequal lengths or a zero step.
  ParallelLoop(std::vector<Index> init, std::vector<Index> last, std::vector<Index> step);

  int rank() const { return static_cast<int>(init_.size()); }
  Index init(int axis) const { return init_[static_cast<std::size_t>(axis)]; }
  Index last(int axis) const { return last_[static_cast<std::size_t>(axis)]; }
  Index step(int axis) const { return step_[static_cast<std::size_t>(axis)]; }
  /// The loop variable's values on `axis`, ascending (step |InStep|).
  Range axis_range(int axis) const;
  /// The whole iteration space (one axis_range per axis).
  Block space() const;
  /// N: Π_axes iterations. predictor: Π (Higher − Lower + Step)/Step over the original's
  /// normalised bounds (see README), each factor at least 0.
  Index iteration_count(Fidelity fidelity) const;

  /// mappl_ on a template: pattern axis s gets coeff[s]·I + constant[s] of loop variable I.
  void map(const Template& pattern, const AlignParams& params);
  /// mappl_ on an aligned array (composed with the array's alignment).
  void map(const DistributedArray& pattern, const AlignParams& params);
  bool mapped() const { return templ_.has_value(); }
  /// The template the loop is (finally) mapped on. Throws std::logic_error before map().
  const Template& distribution() const;
  const ProcessorSystem& system() const { return distribution().system(); }
  /// One rule per template axis (linear rules name loop axes; t = coeff·I + constant).
  const std::vector<AxisRule>& rules() const { return rules_; }

  /// The iterations of `processor`: the loop space ∩ the preimage of its template pieces.
  /// augur: ranges of loop-variable values. predictor: the original's LoopBlock values (mapped
  /// axes hold offset + coeff·Lower + constant, unmapped axes the loop values; see README).
  Block block(int processor, Fidelity fidelity) const;
  /// Blocks of all processors of the system.
  std::vector<Block> blocks(Fidelity fidelity) const;

 private:
  Block predictor_block(int processor) const;

  std::vector<Index> init_;
  std::vector<Index> last_;
  std::vector<Index> step_;
  std::optional<Template> templ_;
  std::vector<AxisRule> rules_;
};

/// mappl_'s range checks of the DVM runtime (RTS errors 060.024–060.027): for every pattern axis
/// s that follows a loop axis l (AxisArray[s] = l + 1, CoeffArray[s] ≠ 0), coeff·v + constant must
/// lie inside [0, pattern_sizes[s]) for the first and the last value v the loop variable takes.
/// Returns what is wrong (empty when nothing is); an empty loop is not checked (the runtime skips
/// it too). Entries that name no loop axis are left to compose_rules.
std::string loop_bounds_problem(const ParallelLoop& loop, std::span<const Index> pattern_sizes,
                                const AlignParams& params);

/// The first loop axis without iterations as mappl_'s parameters (empty when the loop has some).
std::string empty_loop_reason(const ParallelLoop& loop);

/// cnt of spec 6.2 dopl_: for every processor with a non-empty block, the number of processors
/// (itself included) whose block is identical; 0 for an empty block.
std::vector<int> identical_block_counts(std::span<const Block> blocks);

}  // namespace augur::models::dvm
