// Ranges and blocks: canonical progressions, intersection by the Chinese remainder theorem,
// volumes, faces and block differences.
#include "models/dvm/block.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace augur::models::dvm {

Index floor_div(Index a, Index b) {
  const Index q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

Index ceil_div(Index a, Index b) {
  const Index q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

Range make_range(Index lo, Index hi, Index step) {
  if (step < 1) throw std::invalid_argument("range step " + std::to_string(step) + " (must be >= 1)");
  if (lo > hi) return Range{};
  // hi snapped down onto the progression: lo + ⌊(hi − lo)/step⌋·step
  hi = lo + (hi - lo) / step * step;
  return Range{lo, hi, lo == hi ? 1 : step};
}

namespace {

/// x with a·x ≡ 1 (mod m), for gcd(a, m) = 1 and m ≥ 1.
Index inverse_mod(Index a, Index m) {
  Index r0 = m, r1 = ((a % m) + m) % m, s0 = 0, s1 = 1;
  while (r1 != 0) {
    const Index q = r0 / r1;
    const Index r2 = r0 - q * r1;
    r0 = r1;
    r1 = r2;
    const Index s2 = s0 - q * s1;
    s0 = s1;
    s1 = s2;
  }
  return ((s0 % m) + m) % m;
}

}  // namespace

Range intersect(const Range& a, const Range& b) {
  if (a.empty() || b.empty()) return Range{};
  const Index lo = std::max(a.lo, b.lo);
  const Index hi = std::min(a.hi, b.hi);
  if (lo > hi) return Range{};
  if (a.step == 1 && b.step == 1) return Range{lo, hi, 1};
  // x ≡ a.lo (mod s), x ≡ b.lo (mod t): solvable iff g = gcd(s, t) divides b.lo − a.lo; then
  // x = a.lo + s·k with (s/g)·k ≡ (b.lo − a.lo)/g (mod t/g), period lcm(s, t) = s/g·t.
  const Index s = a.step, t = b.step, g = std::gcd(s, t);
  const Index diff = b.lo - a.lo;
  if (diff % g != 0) return Range{};
  const Index m = t / g;
  const Index rhs = ((diff / g) % m + m) % m;
  const Index k = rhs * inverse_mod(s / g, m) % m;
  const Index period = s / g * t;
  const Index x0 = a.lo + s * k;
  const Index first = x0 + ceil_div(lo - x0, period) * period;
  if (first > hi) return Range{};
  return make_range(first, hi, period);
}

Block Block::whole(std::span<const Index> sizes) {
  std::vector<Range> dims;
  dims.reserve(sizes.size());
  for (Index n : sizes) dims.push_back(make_range(0, n - 1));
  return Block(std::move(dims));
}

Block Block::empty_of_rank(int rank) { return Block(std::vector<Range>(static_cast<std::size_t>(rank), Range{})); }

bool Block::empty() const {
  return std::any_of(dims_.begin(), dims_.end(), [](const Range& r) { return r.empty(); });
}

Index Block::volume() const {
  Index v = 1;
  for (const Range& r : dims_) v *= r.count();
  return v;
}

Index Block::face(int d) const {
  const int dims[] = {d};
  return extent_product_except(dims);
}

Index Block::extent_product_except(std::span<const int> dims) const {
  if (empty()) return 0;
  Index v = 1;
  for (int e = 0; e < rank(); ++e)
    if (std::find(dims.begin(), dims.end(), e) == dims.end()) v *= extent(e);
  return v;
}

bool operator==(const Block& a, const Block& b) {
  if (a.rank() != b.rank()) return false;
  if (a.empty() || b.empty()) return a.empty() && b.empty();
  return a.dims_ == b.dims_;
}

Block intersect(const Block& a, const Block& b) {
  if (a.rank() != b.rank())
    throw std::invalid_argument("block intersection of ranks " + std::to_string(a.rank()) + " and " +
                                std::to_string(b.rank()));
  std::vector<Range> dims(static_cast<std::size_t>(a.rank()));
  for (int d = 0; d < a.rank(); ++d) dims[static_cast<std::size_t>(d)] = intersect(a.dim(d), b.dim(d));
  return Block(std::move(dims));
}

std::vector<Block> subtract(const Block& a, const Block& b) {
  if (a.rank() != b.rank())
    throw std::invalid_argument("block difference of ranks " + std::to_string(a.rank()) + " and " +
                                std::to_string(b.rank()));
  for (const Range& r : b.dims())
    if (!r.empty() && r.step != 1)
      throw std::invalid_argument("block difference: the subtracted block must have step 1");
  if (a.empty()) return {};
  if (intersect(a, b).empty()) return {a};
  // Peel dimension by dimension: the parts of `rest` below and above b in dimension d are
  // outside b; what lies inside b's range in d carries on to the next dimension.
  std::vector<Block> parts;
  Block rest = a;
  for (int d = 0; d < a.rank(); ++d) {
    const Range& r = rest.dim(d);
    const Range& cut = b.dim(d);
    const Range below = intersect(r, Range{r.lo, cut.lo - 1, 1});
    const Range above = intersect(r, Range{cut.hi + 1, r.hi, 1});
    if (!below.empty()) {
      Block part = rest;
      part.set_dim(d, below);
      parts.push_back(std::move(part));
    }
    if (!above.empty()) {
      Block part = rest;
      part.set_dim(d, above);
      parts.push_back(std::move(part));
    }
    rest.set_dim(d, intersect(r, cut));
  }
  return parts;
}

}  // namespace augur::models::dvm
