// Alignment of arrays (align_ on templates and on arrays, composed into one rule per template
// axis) and the local blocks they own (spec section 6.1; the original's AlnDA and Block).
#include "models/dvm/distributed_array.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

namespace augur::models::dvm {

std::vector<AxisRule> identity_rules(int rank) {
  std::vector<AxisRule> rules(static_cast<std::size_t>(rank));
  for (int t = 0; t < rank; ++t) rules[static_cast<std::size_t>(t)] = AxisRule{AxisRuleKind::linear, t, 1, 0, 0};
  return rules;
}

std::vector<AxisRule> compose_rules(const std::vector<AxisRule>& pattern_rules, std::span<const Index> pattern_sizes,
                                    const AlignParams& params, int object_rank, const char* what) {
  const std::size_t pattern_rank = pattern_sizes.size();
  if (params.axis.size() != pattern_rank || params.coeff.size() != pattern_rank ||
      params.constant.size() != pattern_rank)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(params.axis.size()) + " axes, " +
                                std::to_string(params.coeff.size()) + " coefficients and " +
                                std::to_string(params.constant.size()) + " constants for a pattern of rank " +
                                std::to_string(pattern_rank));
  std::vector<bool> used(static_cast<std::size_t>(object_rank), false);
  for (std::size_t s = 0; s < pattern_rank; ++s) {
    const int axis = params.axis[s];
    if (axis == -1 || axis == 0 || params.coeff[s] == 0) continue;
    if (axis < -1 || axis > object_rank)
      throw std::invalid_argument(std::string(what) + ": AxisArray[" + std::to_string(s) + "]=" + std::to_string(axis) +
                                  " for an object of rank " + std::to_string(object_rank));
    if (used[static_cast<std::size_t>(axis - 1)])
      throw std::invalid_argument(std::string(what) + ": axis " + std::to_string(axis) + " mapped on two pattern axes");
    used[static_cast<std::size_t>(axis - 1)] = true;
  }
  std::vector<AxisRule> rules = pattern_rules;
  for (AxisRule& rule : rules) {
    if (rule.kind != AxisRuleKind::linear) continue;  // the pattern's own replication/constant
    const auto s = static_cast<std::size_t>(rule.source_axis);
    const Index a = rule.coeff, b = rule.constant;  // template index t = a·s_index + b
    const int axis = params.axis[s];
    const Index c = params.coeff[s], k = params.constant[s];  // s_index = c·i + k
    if (axis == -1) {
      rule = AxisRule{AxisRuleKind::bounded, -1, a, b, pattern_sizes[s]};
    } else if (axis == 0 || c == 0) {
      rule = AxisRule{AxisRuleKind::constant, -1, 1, a * k + b, 0};  // t = a·k + b
    } else {
      rule = AxisRule{AxisRuleKind::linear, axis - 1, a * c, a * k + b, 0};  // t = (a·c)·i + a·k + b
    }
  }
  return rules;
}

Range linear_preimage(const Range& piece, Index a, Index b) {
  if (piece.empty()) return Range{};
  // a > 0: ⌈(lo − b)/a⌉ ≤ i ≤ ⌊(hi − b)/a⌋; a < 0: ⌈(hi − b)/a⌉ ≤ i ≤ ⌊(lo − b)/a⌋
  const Index lo = a > 0 ? ceil_div(piece.lo - b, a) : ceil_div(piece.hi - b, a);
  const Index hi = a > 0 ? floor_div(piece.hi - b, a) : floor_div(piece.lo - b, a);
  return make_range(lo, hi);
}

Range preimage(const Range& piece, Index a, Index b, Index n) {
  if (n <= 0) return Range{};
  return intersect(linear_preimage(piece, a, b), Range{0, n - 1, 1});
}

Range predictor_preimage(const Range& piece, Index a, Index b, Index n) {
  if (piece.empty()) return Range{};
  // LS::transform: truncating quotients of the piece's ends and their remainders
  const Index q1 = (piece.lo - b) / a, q2 = (piece.hi - b) / a;
  Index rest = (piece.lo - b) % a, rest_hi = (piece.hi - b) % a;
  if (a < 0) {
    const Index t = rest;
    rest = rest_hi;
    rest_hi = -t;
  }
  Index lo = std::min(q1, q2), hi = std::max(q1, q2);
  if ((lo < 0 && hi < 0) || lo >= n || (hi == 0 && rest_hi < 0)) return Range{};
  if (rest != 0 && hi != 0) ++lo;
  lo = std::max<Index>(lo, 0);
  hi = std::min<Index>(hi, n - 1);
  return make_range(lo, hi);
}

DistributedArray::DistributedArray(std::vector<Index> sizes, Index type_size, std::vector<Index> low_shadow,
                                   std::vector<Index> high_shadow)
    : sizes_(std::move(sizes)),
      type_size_(std::abs(type_size)),
      low_shadow_(std::move(low_shadow)),
      high_shadow_(std::move(high_shadow)) {
  if (sizes_.empty()) throw std::invalid_argument("crtda_: an array needs rank >= 1");
  for (Index n : sizes_)
    if (n < 1) throw std::invalid_argument("crtda_: array size " + std::to_string(n) + " (must be >= 1)");
  if (low_shadow_.empty()) low_shadow_.assign(sizes_.size(), 0);
  if (high_shadow_.empty()) high_shadow_.assign(sizes_.size(), 0);
  if (low_shadow_.size() != sizes_.size() || high_shadow_.size() != sizes_.size())
    throw std::invalid_argument("crtda_: shadow widths for " + std::to_string(low_shadow_.size()) + " and " +
                                std::to_string(high_shadow_.size()) + " dimensions of an array of rank " +
                                std::to_string(sizes_.size()));
  for (std::size_t d = 0; d < sizes_.size(); ++d)
    if (low_shadow_[d] < 0 || high_shadow_[d] < 0)
      throw std::invalid_argument("crtda_: negative shadow width in dimension " + std::to_string(d));
}

void DistributedArray::align(const Template& pattern, const AlignParams& params) {
  std::vector<AxisRule> rules =
      compose_rules(identity_rules(pattern.rank()), pattern.sizes(), params, rank(), "align_");
  // Replicated along a whole template axis: no bound to check.
  for (std::size_t t = 0; t < rules.size(); ++t)
    if (rules[t].kind == AxisRuleKind::bounded && rules[t].coeff == 1 && rules[t].constant == 0 &&
        rules[t].bound == pattern.size(static_cast<int>(t)))
      rules[t] = AxisRule{};
  templ_ = pattern;
  rules_ = std::move(rules);
}

void DistributedArray::align(const DistributedArray& pattern, const AlignParams& params) {
  if (!pattern.aligned()) throw std::invalid_argument("align_: the pattern array is not aligned");
  rules_ = compose_rules(pattern.rules_, pattern.sizes_, params, rank(), "align_");
  templ_ = pattern.templ_;
}

DistributedArray DistributedArray::with_template(const Template& distribution) const {
  if (aligned() && distribution.sizes() != templ_->sizes())
    throw std::invalid_argument("redistribution changes the template's sizes");
  DistributedArray copy = *this;
  copy.templ_ = distribution;
  return copy;
}

const Template& DistributedArray::distribution() const {
  if (!templ_) throw std::logic_error("array used before align_");
  return *templ_;
}

std::optional<MappedAxis> DistributedArray::mapped_axis(int axis) const {
  const Template& t = distribution();
  for (int a = 0; a < t.rank(); ++a) {
    const AxisRule& rule = rules_[static_cast<std::size_t>(a)];
    if (rule.kind == AxisRuleKind::linear && rule.source_axis == axis && t.dim_of_axis(a) >= 0)
      return MappedAxis{t.dim_of_axis(a), rule.coeff > 0 ? 1 : -1};
  }
  return std::nullopt;
}

std::vector<int> DistributedArray::replicated_dims() const {
  const Template& t = distribution();
  std::vector<int> dims;
  for (int d = 0; d < t.system().rank(); ++d) {
    const int axis = t.axis_of_dim(d);
    if (axis < 0) {
      dims.push_back(d);
      continue;
    }
    const AxisRuleKind kind = rules_[static_cast<std::size_t>(axis)].kind;
    if (kind == AxisRuleKind::replicated || kind == AxisRuleKind::bounded) dims.push_back(d);
  }
  return dims;
}

bool DistributedArray::fully_replicated() const {
  const Template& t = distribution();
  for (int d = 0; d < t.system().rank(); ++d) {
    const int axis = t.axis_of_dim(d);
    if (axis >= 0 && rules_[static_cast<std::size_t>(axis)].kind != AxisRuleKind::replicated) return false;
  }
  return true;
}

Block DistributedArray::block(int processor, Fidelity fidelity) const {
  const Template& t = distribution();
  const ProcessorSystem& ps = t.system();
  const SplitRule split = fidelity == Fidelity::augur ? SplitRule::standard : SplitRule::predictor_array;
  auto invert = fidelity == Fidelity::augur ? preimage : predictor_preimage;
  Block b = Block::whole(sizes_);
  for (int d = 0; d < ps.rank(); ++d) {
    const int axis = t.axis_of_dim(d);
    if (axis < 0) continue;  // replicated along d
    const Range piece = t.piece(axis, ps.coordinate(processor, d), split);
    if (piece.empty()) return Block::empty_of_rank(rank());
    const AxisRule& rule = rules_[static_cast<std::size_t>(axis)];
    switch (rule.kind) {
      case AxisRuleKind::linear: {
        // the indices i of the array axis with coeff·i + constant inside the piece
        const Range r = invert(piece, rule.coeff, rule.constant, size(rule.source_axis));
        if (r.empty()) return Block::empty_of_rank(rank());
        b.set_dim(rule.source_axis, r);
        break;
      }
      case AxisRuleKind::bounded:
        if (invert(piece, rule.coeff, rule.constant, rule.bound).empty()) return Block::empty_of_rank(rank());
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

std::vector<Block> DistributedArray::blocks(Fidelity fidelity) const {
  std::vector<Block> all;
  const int count = system().processor_count();
  all.reserve(static_cast<std::size_t>(count));
  for (int p = 0; p < count; ++p) all.push_back(block(p, fidelity));
  return all;
}

}  // namespace augur::models::dvm
