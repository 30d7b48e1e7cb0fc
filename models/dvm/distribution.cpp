// Template distribution: the distr_ axis map, the three split rules of an axis, and the weight
// preparation of setpsw_ / setelw_ (spec section 6.1; the original's Block, LoopBlock, setpsw).
#include "models/dvm/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace augur::models::dvm {

namespace {

std::vector<Range> split_standard(Index n, std::span<const double> weights, Index multiple) {
  const auto parts = static_cast<Index>(weights.size());
  const Index m = std::max<Index>(multiple, 1);
  std::vector<Range> pieces;
  pieces.reserve(weights.size());
  double total = 0;
  for (double w : weights) total += w;
  const bool uniform = std::all_of(weights.begin(), weights.end(), [&](double w) { return w == weights[0]; });
  if (uniform || total <= 0) {
    // L = ⌈n/p⌉ rounded up to a multiple of m; piece c = [c·L, min(n, (c+1)·L) − 1]
    const Index length = ceil_div(ceil_div(n, parts), m) * m;
    for (Index c = 0; c < parts; ++c) pieces.push_back(make_range(c * length, std::min(n, (c + 1) * length) - 1));
    return pieces;
  }
  // b_c = m·⌊n·C_c / (m·W)⌋ with C_c = Σ_{j<c} w_j, b_p = n; piece c = [b_c, b_{c+1} − 1]
  std::vector<Index> bounds(weights.size() + 1, 0);
  long double before = 0;
  for (std::size_t c = 1; c < weights.size(); ++c) {
    before += weights[c - 1];
    const long double units =
        static_cast<long double>(n) * before / (static_cast<long double>(m) * static_cast<long double>(total));
    const auto b = static_cast<Index>(std::floor(units + 1e-9L)) * m;
    bounds[c] = std::clamp(b, bounds[c - 1], n);
  }
  bounds[weights.size()] = n;
  for (std::size_t c = 0; c < weights.size(); ++c) pieces.push_back(make_range(bounds[c], bounds[c + 1] - 1));
  return pieces;
}

/// The original's double-precision cut (Block(da, p, 1) and LoopBlock(pl, p, 1)).
std::vector<Range> split_predictor(Index n, std::span<const double> weights, Index multiple, bool array) {
  double total = 0;
  for (double w : weights) total += w;
  if (total == 0) total = 1;
  double v = static_cast<double>(n) / total;
  if (multiple > 0) {
    // blkdiv_: L = ⌈v⌉ rounded up to a multiple of the divisor
    auto length = static_cast<Index>(std::ceil(v));
    if (length % multiple > 0) length = (length / multiple + 1) * multiple;
    v = static_cast<double>(length);
  }
  std::vector<Range> pieces;
  pieces.reserve(weights.size());
  double s = 0;  // Σ_{j<c} v·w_j, summed in the original's order
  for (double w : weights) {
    const auto lo = static_cast<Index>(s);
    Index hi = 0;
    if (array) {
      // hi = trunc(trunc(s) + (v·w − 1)), widened to n − 1 when hi + 1 ≥ n − 1
      hi = static_cast<Index>(static_cast<double>(lo) + (v * w - 1));
      if (hi + 1 >= n - 1) hi = n - 1;
    } else {
      // hi = trunc(s + (v·w − 1))
      hi = static_cast<Index>(s + (v * w - 1));
    }
    pieces.push_back(make_range(lo, hi));
    s += v * w;
  }
  return pieces;
}

}  // namespace

std::vector<Range> split_axis(Index n, std::span<const double> weights, Index multiple, SplitRule rule) {
  if (weights.empty()) throw std::invalid_argument("split_axis: no grid coordinates");
  switch (rule) {
    case SplitRule::standard:
      return split_standard(n, weights, multiple);
    case SplitRule::predictor_array:
      return split_predictor(n, weights, multiple, true);
    case SplitRule::predictor_loop:
      return split_predictor(n, weights, multiple, false);
  }
  return {};
}

Template::Template(std::vector<Index> sizes) : sizes_(std::move(sizes)) {
  if (sizes_.empty()) throw std::invalid_argument("crtamv_: a template needs rank >= 1");
  for (Index n : sizes_)
    if (n < 1)
      throw std::invalid_argument("crtamv_: template size " + std::to_string(n) + " (every size must be >= 1)");
  dim_of_axis_.assign(sizes_.size(), -1);
}

void Template::distribute(const ProcessorSystem& system, std::span<const int> axis_array) {
  std::vector<int> axis_of_dim(static_cast<std::size_t>(system.rank()), -1);
  std::vector<int> dim_of_axis(sizes_.size(), -1);
  for (int d = 0; d < system.rank() && d < static_cast<int>(axis_array.size()); ++d) {
    const int axis = axis_array[static_cast<std::size_t>(d)];
    if (axis == 0) continue;
    if (axis < 0 || axis > rank())
      throw std::invalid_argument("distr_: AxisArray[" + std::to_string(d) + "]=" + std::to_string(axis) +
                                  " for a template of rank " + std::to_string(rank()));
    if (dim_of_axis[static_cast<std::size_t>(axis - 1)] >= 0)
      throw std::invalid_argument("distr_: template axis " + std::to_string(axis) +
                                  " distributed along two grid dimensions");
    axis_of_dim[static_cast<std::size_t>(d)] = axis - 1;
    dim_of_axis[static_cast<std::size_t>(axis - 1)] = d;
  }
  system_ = system;
  axis_of_dim_ = std::move(axis_of_dim);
  dim_of_axis_ = std::move(dim_of_axis);
}

const ProcessorSystem& Template::system() const {
  if (!system_) throw std::logic_error("template used before distr_");
  return *system_;
}

void Template::set_multiples(std::vector<Index> multiples) {
  for (Index m : multiples)
    if (m < 1) throw std::invalid_argument("blkdiv_: divisor " + std::to_string(m) + " (must be >= 1)");
  multiples_ = std::move(multiples);
}

void Template::set_weights(std::vector<std::vector<double>> weights) {
  for (const auto& dim : weights)
    for (double w : dim)
      if (!std::isfinite(w) || w < 0)
        throw std::invalid_argument("coordinate weight " + std::to_string(w) + " (weights must be finite and >= 0)");
  weights_ = std::move(weights);
}

std::vector<double> Template::weights(int grid_dim) const {
  const ProcessorSystem& ps = system();
  const auto d = static_cast<std::size_t>(grid_dim);
  bool match = static_cast<int>(weights_.size()) == ps.rank();
  for (std::size_t e = 0; match && e < weights_.size(); ++e)
    match = static_cast<int>(weights_[e].size()) == ps.size(static_cast<int>(e));
  if (match) return weights_[d];
  return std::vector<double>(static_cast<std::size_t>(ps.size(grid_dim)), 1.0);
}

Index Template::multiple_for(int axis, SplitRule rule) const {
  if (multiples_.empty()) return 0;
  // The original indexes AMVAxisDiv by the grid dimension instead of the template axis.
  const int index = rule == SplitRule::standard ? axis : dim_of_axis(axis);
  if (index < 0 || index >= static_cast<int>(multiples_.size())) return 1;
  return multiples_[static_cast<std::size_t>(index)];
}

Range Template::piece(int axis, int coordinate, SplitRule rule) const {
  const int d = dim_of_axis(axis);
  if (d < 0) throw std::logic_error("template axis " + std::to_string(axis) + " is not distributed");
  const std::vector<double> w = weights(d);
  return split_axis(size(axis), w, multiple_for(axis, rule), rule)[static_cast<std::size_t>(coordinate)];
}

Block Template::block(int processor, SplitRule rule) const {
  const ProcessorSystem& ps = system();
  Block b = Block::whole(sizes_);
  for (int d = 0; d < ps.rank(); ++d) {
    const int axis = axis_of_dim(d);
    if (axis < 0) continue;
    const Range r = piece(axis, ps.coordinate(processor, d), rule);
    if (r.empty()) return Block::empty_of_rank(rank());
    b.set_dim(axis, r);
  }
  return b;
}

std::vector<std::vector<double>> coordinate_weights(const ProcessorSystem& system,
                                                    const std::vector<std::vector<double>>& raw,
                                                    std::span<const double> powers) {
  const int count = system.processor_count();
  if (!powers.empty() && static_cast<int>(powers.size()) != count)
    throw std::invalid_argument("coordinate weights: " + std::to_string(powers.size()) + " powers for " +
                                std::to_string(count) + " processors");
  if (static_cast<int>(raw.size()) > system.rank())
    throw std::invalid_argument("coordinate weights: " + std::to_string(raw.size()) +
                                " dimensions for a grid of rank " + std::to_string(system.rank()));
  auto power = [&](int k) { return powers.empty() ? 1.0 : powers[static_cast<std::size_t>(k)]; };
  double lowest = 100000.0;  // m = min(100000, min_k power_k), as the original starts its search
  for (int k = 0; k < count; ++k) lowest = std::min(lowest, power(k));
  const double exponent = 1.0 / system.rank();
  std::vector<std::vector<double>> result(static_cast<std::size_t>(system.rank()));
  for (int d = 0; d < system.rank(); ++d) {
    const int size = system.size(d);
    std::vector<double> own(static_cast<std::size_t>(size), 1.0);
    if (d < static_cast<int>(raw.size())) {
      if (static_cast<int>(raw[static_cast<std::size_t>(d)].size()) != size)
        throw std::invalid_argument("coordinate weights: " + std::to_string(raw[static_cast<std::size_t>(d)].size()) +
                                    " weights for grid dimension " + std::to_string(d) + " of size " +
                                    std::to_string(size));
      own = raw[static_cast<std::size_t>(d)];
    }
    // calc_j = raw_j / min raw (no normalisation when the minimum is not positive)
    double minimum = 1e7;
    for (double w : own) minimum = std::min(minimum, w);
    if (minimum > 0)
      for (double& w : own) w /= minimum;
    const int per_coordinate = count / size;
    auto& out = result[static_cast<std::size_t>(d)];
    out.resize(static_cast<std::size_t>(size));
    for (int j = 0; j < size; ++j) {
      // (Σ_{k on coordinate j} (power_k/m)^(1/rank)) / (P / size_d)
      double sum = 0;
      for (int k = 0; k < count; ++k)
        if (system.coordinate(k, d) == j) sum += std::pow(power(k) / lowest, exponent);
      sum /= per_coordinate;
      out[static_cast<std::size_t>(j)] = sum * own[static_cast<std::size_t>(j)];
    }
  }
  return result;
}

namespace {

/// Elements per coordinate when `loads` are cut into at most `parts` consecutive groups whose
/// largest load is minimal (bisection on that load, then a greedy fill).
std::vector<double> balanced_counts(std::span<const double> loads, int parts) {
  std::vector<double> counts(static_cast<std::size_t>(parts), 0.0);
  double total = 0, largest = 0;
  for (double w : loads) {
    if (w < 0) throw std::invalid_argument("setelw_: negative load weight " + std::to_string(w));
    total += w;
    largest = std::max(largest, w);
  }
  if (total <= 0) return std::vector<double>(static_cast<std::size_t>(parts), 1.0);
  auto groups_needed = [&](double limit) {
    int groups = 1;
    double current = 0;
    for (double w : loads) {
      if (current + w <= limit) {
        current += w;
      } else {
        ++groups;
        current = w;
      }
    }
    return groups;
  };
  double low = std::max(largest, total / parts), high = total;
  for (int i = 0; i < 200 && high - low > 1e-12 * total; ++i) {
    const double mid = (low + high) / 2;
    if (groups_needed(mid) <= parts)
      high = mid;
    else
      low = mid;
  }
  std::size_t group = 0;
  double current = 0;
  for (double w : loads) {
    if (current + w > high && counts[group] > 0 && group + 1 < counts.size()) {
      ++group;
      current = 0;
    }
    current += w;
    counts[group] += 1;
  }
  return counts;
}

}  // namespace

std::vector<std::vector<double>> load_weights(const ProcessorSystem& system, std::span<const Index> weight_numbers,
                                              std::span<const double> loads, Fidelity fidelity) {
  std::vector<std::vector<double>> raw(static_cast<std::size_t>(system.rank()));
  std::size_t start = 0;
  for (int d = 0; d < system.rank(); ++d) {
    const auto size = static_cast<std::size_t>(system.size(d));
    const Index number = d < static_cast<int>(weight_numbers.size()) ? weight_numbers[static_cast<std::size_t>(d)] : 0;
    auto& out = raw[static_cast<std::size_t>(d)];
    out.assign(size, 1.0);
    if (number <= 0) continue;
    if (fidelity == Fidelity::predictor) {
      if (number < static_cast<Index>(size)) continue;
      if (loads.size() < size)
        throw std::invalid_argument("setelw_: LoadWeight has " + std::to_string(loads.size()) + " values, " +
                                    std::to_string(size) + " needed");
      out.assign(loads.begin(), loads.begin() + static_cast<std::ptrdiff_t>(size));
      continue;
    }
    const auto n = static_cast<std::size_t>(number);
    if (loads.size() < start + n)
      throw std::invalid_argument("setelw_: LoadWeight has " + std::to_string(loads.size()) + " values, " +
                                  std::to_string(start + n) + " needed");
    // Fewer loads than coordinates: the DVM runtime does not use them (setelw_ solves the
    // partition only when WeightNumber[d] >= the dimension's size); the dimension stays uniform.
    if (number >= static_cast<Index>(size)) out = balanced_counts(loads.subspan(start, n), system.size(d));
    start += n;
  }
  return raw;
}

}  // namespace augur::models::dvm
