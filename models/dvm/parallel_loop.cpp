// Parallel loops: iteration spaces, mappl_ on templates and arrays, per-processor iteration
// blocks (spec 6.1) and the replication count of dopl_ (spec 6.2; the original's LoopBlock).
#include "models/dvm/parallel_loop.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace augur::models::dvm {

namespace {

/// The original's normalised bounds of one axis (ParLoop::SaveLoopParams): a negative step
/// becomes positive with Higher = init and Lower = last, or last + step − r when
/// r = (init − last) mod step (C remainder) is not 0.
struct PredictorAxis {
  Index lower;
  Index higher;
  Index step;
};

PredictorAxis predictor_axis(Index init, Index last, Index step) {
  if (step >= 0) return {init, last, step};
  const Index rest = (init - last) % step;
  return {rest != 0 ? last + step - rest : last, init, -step};
}

}  // namespace

ParallelLoop::ParallelLoop(std::vector<Index> init, std::vector<Index> last, std::vector<Index> step)
    : init_(std::move(init)), last_(std::move(last)), step_(std::move(step)) {
  if (init_.size() != last_.size() || init_.size() != step_.size())
    throw std::invalid_argument("mappl_: " + std::to_string(init_.size()) + " initial, " +
                                std::to_string(last_.size()) + " last indices and " + std::to_string(step_.size()) +
                                " steps");
  for (std::size_t l = 0; l < step_.size(); ++l)
    if (step_[l] == 0)
      throw std::invalid_argument("mappl_: InStepArray[" + std::to_string(l) + "]=0 (a loop step must not be 0)");
}

Range ParallelLoop::axis_range(int axis) const {
  const Index a = init(axis), z = last(axis), s = step(axis);
  if (s > 0) return a > z ? Range{} : make_range(a, z, s);
  if (a < z) return Range{};
  // init, init + s, … ≥ last: count = (init − last)/|s| + 1, lowest = init − (count − 1)·|s|
  const Index count = (a - z) / -s + 1;
  return make_range(a - (count - 1) * -s, a, -s);
}

Block ParallelLoop::space() const {
  std::vector<Range> dims;
  for (int l = 0; l < rank(); ++l) dims.push_back(axis_range(l));
  return Block(std::move(dims));
}

Index ParallelLoop::iteration_count(Fidelity fidelity) const {
  if (fidelity == Fidelity::augur) return space().volume();
  Index count = 1;
  for (int l = 0; l < rank(); ++l) {
    const PredictorAxis p = predictor_axis(init(l), last(l), step(l));
    count *= std::max<Index>(0, (p.higher - p.lower + p.step) / p.step);
  }
  return count;
}

void ParallelLoop::map(const Template& pattern, const AlignParams& params) {
  std::vector<AxisRule> rules =
      compose_rules(identity_rules(pattern.rank()), pattern.sizes(), params, rank(), "mappl_");
  for (std::size_t t = 0; t < rules.size(); ++t)
    if (rules[t].kind == AxisRuleKind::bounded && rules[t].coeff == 1 && rules[t].constant == 0 &&
        rules[t].bound == pattern.size(static_cast<int>(t)))
      rules[t] = AxisRule{};
  templ_ = pattern;
  rules_ = std::move(rules);
}

void ParallelLoop::map(const DistributedArray& pattern, const AlignParams& params) {
  if (!pattern.aligned()) throw std::invalid_argument("mappl_: the pattern array is not aligned");
  rules_ = compose_rules(pattern.rules(), pattern.sizes(), params, rank(), "mappl_");
  templ_ = pattern.distribution();
}

const Template& ParallelLoop::distribution() const {
  if (!templ_) throw std::logic_error("parallel loop used before mappl_");
  return *templ_;
}

Block ParallelLoop::block(int processor, Fidelity fidelity) const {
  if (fidelity == Fidelity::predictor) return predictor_block(processor);
  const Template& t = distribution();
  const ProcessorSystem& ps = t.system();
  Block b = space();
  if (b.empty()) return Block::empty_of_rank(rank());
  for (int d = 0; d < ps.rank(); ++d) {
    const int axis = t.axis_of_dim(d);
    if (axis < 0) continue;
    const Range piece = t.piece(axis, ps.coordinate(processor, d), SplitRule::standard);
    if (piece.empty()) return Block::empty_of_rank(rank());
    const AxisRule& rule = rules_[static_cast<std::size_t>(axis)];
    switch (rule.kind) {
      case AxisRuleKind::linear: {
        // loop values I on the progression with coeff·I + constant inside the piece
        const Range r = intersect(b.dim(rule.source_axis), linear_preimage(piece, rule.coeff, rule.constant));
        if (r.empty()) return Block::empty_of_rank(rank());
        b.set_dim(rule.source_axis, r);
        break;
      }
      case AxisRuleKind::bounded:
        if (preimage(piece, rule.coeff, rule.constant, rule.bound).empty()) return Block::empty_of_rank(rank());
        break;
      case AxisRuleKind::constant:
        if (rule.constant < piece.lo || rule.constant > piece.hi) return Block::empty_of_rank(rank());
        break;
      case AxisRuleKind::replicated:
        break;
    }
  }
  return b;
}

Block ParallelLoop::predictor_block(int processor) const {
  const Template& t = distribution();
  const ProcessorSystem& ps = t.system();
  std::vector<PredictorAxis> axes;
  std::vector<Index> lo, hi;
  for (int l = 0; l < rank(); ++l) {
    axes.push_back(predictor_axis(init(l), last(l), step(l)));
    if (axes.back().lower > axes.back().higher) return Block::empty_of_rank(rank());
    lo.push_back(axes.back().lower);  // LoopLS(Lower, Higher, 1): the loop's values
    hi.push_back(axes.back().higher);
  }
  for (int d = 0; d < ps.rank(); ++d) {
    const int axis = t.axis_of_dim(d);
    if (axis < 0) continue;
    const Range piece = t.piece(axis, ps.coordinate(processor, d), SplitRule::predictor_loop);
    if (piece.empty()) return Block::empty_of_rank(rank());
    const AxisRule& rule = rules_[static_cast<std::size_t>(axis)];
    switch (rule.kind) {
      case AxisRuleKind::linear: {
        // LoopLS::transform with B' = coeff·Lower + constant over Higher − Lower + 1 offsets;
        // the result is shifted by B' (not by Lower) and is empty when it starts below 0
        const auto l = static_cast<std::size_t>(rule.source_axis);
        const Index shift = rule.coeff * axes[l].lower + rule.constant;
        const Range r = predictor_preimage(piece, rule.coeff, shift, axes[l].higher - axes[l].lower + 1);
        if (r.empty() || r.lo + shift < 0) return Block::empty_of_rank(rank());
        lo[l] = r.lo + shift;
        hi[l] = r.hi + shift;
        break;
      }
      case AxisRuleKind::bounded: {
        const Range r = predictor_preimage(piece, rule.coeff, rule.constant, rule.bound);
        if (r.empty() || r.lo + rule.constant < 0) return Block::empty_of_rank(rank());
        break;
      }
      case AxisRuleKind::constant:
        if (rule.constant < piece.lo || rule.constant > piece.hi) return Block::empty_of_rank(rank());
        break;
      case AxisRuleKind::replicated:
        break;
    }
  }
  std::vector<Range> dims;
  for (std::size_t l = 0; l < axes.size(); ++l) {
    // Lower = Step·⌈Lower/Step⌉ (in double), Upper = Step·trunc(Upper/Step)
    const Index s = axes[l].step;
    const Index first = s * static_cast<Index>(std::ceil(static_cast<double>(lo[l]) / static_cast<double>(s)));
    const Index final = s * (hi[l] / s);
    if (first > final || first < 0) return Block::empty_of_rank(rank());
    dims.push_back(make_range(first, final, s));
  }
  return Block(std::move(dims));
}

std::vector<Block> ParallelLoop::blocks(Fidelity fidelity) const {
  std::vector<Block> all;
  const int count = system().processor_count();
  all.reserve(static_cast<std::size_t>(count));
  for (int p = 0; p < count; ++p) all.push_back(block(p, fidelity));
  return all;
}

std::string loop_bounds_problem(const ParallelLoop& loop, std::span<const Index> pattern_sizes,
                                const AlignParams& params) {
  const Block space = loop.space();
  if (space.empty()) return {};
  for (std::size_t s = 0; s < params.axis.size() && s < pattern_sizes.size(); ++s) {
    const int l = params.axis[s] - 1;
    const Index coeff = s < params.coeff.size() ? params.coeff[s] : 0;
    const Index constant = s < params.constant.size() ? params.constant[s] : 0;
    if (l < 0 || l >= loop.rank() || coeff == 0) continue;
    // the values in the order the loop takes them: init first, the last one reached last
    const Range r = space.dim(l);
    const bool down = loop.step(l) < 0;
    const Index values[] = {down ? r.hi : r.lo, down ? r.lo : r.hi};
    for (const Index v : values) {
      const Index index = coeff * v + constant;
      if (index >= 0 && index < pattern_sizes[s]) continue;
      const std::string ls = std::to_string(l), ss = std::to_string(s);
      return "loop axis " + ls + " (InInitIndexArray[" + ls + "]=" + std::to_string(loop.init(l)) +
             ", InLastIndexArray[" + ls + "]=" + std::to_string(loop.last(l)) + ", InStepArray[" + ls +
             "]=" + std::to_string(loop.step(l)) + ") takes the value " + std::to_string(v) + ": CoeffArray[" + ss +
             "]=" + std::to_string(coeff) + " * " + std::to_string(v) + " + ConstArray[" + ss +
             "]=" + std::to_string(constant) + " = " + std::to_string(index) + " lies outside dimension " + ss +
             " of the pattern, [0, " + std::to_string(pattern_sizes[s] - 1) + "]";
    }
  }
  return {};
}

std::string empty_loop_reason(const ParallelLoop& loop) {
  for (int l = 0; l < loop.rank(); ++l) {
    if (!loop.axis_range(l).empty()) continue;
    const std::string ls = std::to_string(l);
    return "InInitIndexArray[" + ls + "]=" + std::to_string(loop.init(l)) + ", InLastIndexArray[" + ls +
           "]=" + std::to_string(loop.last(l)) + ", InStepArray[" + ls + "]=" + std::to_string(loop.step(l));
  }
  return {};
}

std::vector<int> identical_block_counts(std::span<const Block> blocks) {
  std::vector<int> counts(blocks.size(), 0);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].empty()) continue;
    counts[i] =
        static_cast<int>(std::count_if(blocks.begin(), blocks.end(), [&](const Block& b) { return b == blocks[i]; }));
  }
  return counts;
}

}  // namespace augur::models::dvm
