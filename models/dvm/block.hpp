// Index boxes of the DVM data model (spec section 6.1): a Range per dimension (an arithmetic
// progression lo, lo+step, …, hi), blocks as their product, intersection, volume, faces and
// the difference of two blocks.
#pragma once
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace augur::models::dvm {

/// An element, iteration or template index.
using Index = std::int64_t;

/// ⌊a / b⌋ for b ≠ 0 (C++'s `/` truncates toward zero).
Index floor_div(Index a, Index b);
/// ⌈a / b⌉ for b ≠ 0.
Index ceil_div(Index a, Index b);

/// The indices lo, lo+step, …, ≤ hi (step ≥ 1). Canonical form (as `make_range` builds it): hi
/// lies on the progression, a single index has step 1, and every empty range is {0, −1, 1}.
struct Range {
  Index lo = 0;
  Index hi = -1;
  Index step = 1;

  bool empty() const { return lo > hi; }
  /// Number of indices: (hi − lo)/step + 1, or 0.
  Index count() const { return empty() ? 0 : (hi - lo) / step + 1; }
  bool contains(Index i) const { return !empty() && i >= lo && i <= hi && (i - lo) % step == 0; }
  bool operator==(const Range&) const = default;
};

/// The canonical range of lo, lo+step, … ≤ hi. Throws std::invalid_argument for step < 1.
Range make_range(Index lo, Index hi, Index step = 1);
/// The indices common to `a` and `b` (a progression again: the steps combine to their lcm).
Range intersect(const Range& a, const Range& b);

/// A rectangular set of indices: one Range per dimension. A block with any empty dimension is
/// empty; a block of rank 0 holds one index (a scalar).
class Block {
 public:
  Block() = default;
  explicit Block(std::vector<Range> dims) : dims_(std::move(dims)) {}
  /// [0, size_d − 1] in every dimension.
  static Block whole(std::span<const Index> sizes);
  /// An empty block of rank `rank`.
  static Block empty_of_rank(int rank);

  int rank() const { return static_cast<int>(dims_.size()); }
  const Range& dim(int d) const { return dims_[static_cast<std::size_t>(d)]; }
  void set_dim(int d, Range range) { dims_[static_cast<std::size_t>(d)] = range; }
  const std::vector<Range>& dims() const { return dims_; }

  bool empty() const;
  /// Number of indices: Π_d count_d (0 when empty).
  Index volume() const;
  /// count of dimension d.
  Index extent(int d) const { return dim(d).count(); }
  /// Face size along `d`: Π_{e≠d} count_e (0 when empty).
  Index face(int d) const;
  /// Π over the dimensions not listed in `dims` of count_e (0 when empty).
  Index extent_product_except(std::span<const int> dims) const;

  /// Equal ranks and either both empty or equal ranges.
  friend bool operator==(const Block& a, const Block& b);

 private:
  std::vector<Range> dims_;
};

/// a ∩ b, dimension by dimension (equal ranks).
Block intersect(const Block& a, const Block& b);
/// a \ b as disjoint blocks (none when a ⊆ b; {a} when they are disjoint). Every range of `b`
/// must have step 1 (holders' blocks always do); throws std::invalid_argument otherwise.
std::vector<Block> subtract(const Block& a, const Block& b);

}  // namespace augur::models::dvm
