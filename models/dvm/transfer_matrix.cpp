// Transfer matrices of redistribution, shadow exchanges and remote access (spec section 6.2; the
// original's CommCost::Update, BoundUpdate, CopyUpdate and CopyUpdateDistr).
#include "models/dvm/transfer_matrix.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

namespace augur::models::dvm {

TransferMatrix::TransferMatrix(int processors)
    : n_(processors), bytes_(static_cast<std::size_t>(processors) * static_cast<std::size_t>(processors), 0) {}

void TransferMatrix::add(int from, int to, Index bytes) {
  if (from != to) bytes_[index(from, to)] += bytes;
}

Index TransferMatrix::total() const { return std::accumulate(bytes_.begin(), bytes_.end(), Index{0}); }

TransferMatrix& TransferMatrix::operator+=(const TransferMatrix& other) {
  if (other.n_ != n_)
    throw std::invalid_argument("adding transfer matrices of " + std::to_string(n_) + " and " +
                                std::to_string(other.n_) + " processors");
  for (std::size_t i = 0; i < bytes_.size(); ++i) bytes_[i] += other.bytes_[i];
  return *this;
}

TransferMatrix TransferMatrix::transposed() const {
  TransferMatrix t(n_);
  for (int p = 0; p < n_; ++p)
    for (int q = 0; q < n_; ++q) t.bytes_[t.index(q, p)] = bytes_[index(p, q)];
  return t;
}

TransferMatrix TransferMatrix::to_root(const ProcessorSystem& system) const {
  int count = 1;
  for (int s : system.root_sizes()) count *= s;
  TransferMatrix root(count);
  for (int p = 0; p < n_; ++p)
    for (int q = 0; q < n_; ++q) root.add(system.root_processor(p), system.root_processor(q), at(p, q));
  return root;
}

namespace {

void check_per_processor(const ProcessorSystem& system, std::size_t count, const char* what) {
  if (static_cast<int>(count) != system.processor_count())
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(count) + " blocks for " +
                                std::to_string(system.processor_count()) + " processors");
}

}  // namespace

TransferMatrix gather_matrix(const ProcessorSystem& system, std::span<const Block> holders,
                             std::span<const Block> needs, Index type_size, Sources sources) {
  check_per_processor(system, holders.size(), "transfer matrix");
  check_per_processor(system, needs.size(), "transfer matrix");
  const int n = system.processor_count();
  TransferMatrix t(n);
  for (int q = 0; q < n; ++q) {
    const Block& need = needs[static_cast<std::size_t>(q)];
    if (need.empty()) continue;
    if (sources == Sources::every) {
      // T[p][q] += |holder_p ∩ need_q|·type_size for p ≠ q
      for (int p = 0; p < n; ++p)
        if (p != q) t.add(p, q, intersect(holders[static_cast<std::size_t>(p)], need).volume() * type_size);
      continue;
    }
    std::vector<Block> missing = subtract(need, holders[static_cast<std::size_t>(q)]);
    if (missing.empty()) continue;
    std::vector<int> order;
    for (int p = 0; p < n; ++p)
      if (p != q && !holders[static_cast<std::size_t>(p)].empty()) order.push_back(p);
    // nearest holder first: Manhattan distance to q, then the lower number
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return system.distance(a, q) < system.distance(b, q); });
    for (int p : order) {
      if (missing.empty()) break;
      const Block& held = holders[static_cast<std::size_t>(p)];
      std::vector<Block> still;
      for (const Block& part : missing) {
        t.add(p, q, intersect(part, held).volume() * type_size);
        for (Block& rest : subtract(part, held)) still.push_back(std::move(rest));
      }
      missing = std::move(still);
    }
  }
  return t;
}

TransferMatrix update_matrix(const ProcessorSystem& system, std::span<const Block> old_blocks,
                             std::span<const Block> new_blocks, Index type_size, Sources sources) {
  check_per_processor(system, old_blocks.size(), "update");
  check_per_processor(system, new_blocks.size(), "update");
  if (std::equal(old_blocks.begin(), old_blocks.end(), new_blocks.begin()))
    return TransferMatrix(system.processor_count());
  return gather_matrix(system, old_blocks, new_blocks, type_size, sources);
}

std::vector<Block> lift_blocks(const ProcessorSystem& system, std::span<const Block> blocks) {
  check_per_processor(system, blocks.size(), "lift");
  if (blocks.empty()) return {};
  int count = 1;
  for (int s : system.root_sizes()) count *= s;
  std::vector<Block> lifted(static_cast<std::size_t>(count), Block::empty_of_rank(blocks[0].rank()));
  for (int p = 0; p < system.processor_count(); ++p)
    lifted[static_cast<std::size_t>(system.root_processor(p))] = blocks[static_cast<std::size_t>(p)];
  return lifted;
}

namespace {

/// Both block lists in one frame: the common system, or the root system when they differ.
struct Frame {
  ProcessorSystem system;
  std::vector<Block> first;
  std::vector<Block> second;
};

Frame common_frame(const ProcessorSystem& a, std::vector<Block> first, const ProcessorSystem& b,
                   std::vector<Block> second) {
  if (a == b) return Frame{a, std::move(first), std::move(second)};
  if (a.root_sizes() != b.root_sizes()) throw std::invalid_argument("arrays on processor systems of different roots");
  return Frame{a.root(), lift_blocks(a, first), lift_blocks(b, second)};
}

}  // namespace

TransferMatrix update_matrix(const DistributedArray& old_array, const DistributedArray& new_array, Fidelity fidelity) {
  Frame frame =
      common_frame(old_array.system(), old_array.blocks(fidelity), new_array.system(), new_array.blocks(fidelity));
  const Sources sources =
      fidelity == Fidelity::predictor && old_array.replicated_dims().empty() ? Sources::every : Sources::nearest;
  return update_matrix(frame.system, frame.first, frame.second, old_array.type_size(), sources);
}

namespace {

/// The processor across the `side` (−1 lower, +1 upper) edge of p's block in `dim`.
std::optional<int> shadow_neighbour(const ProcessorSystem& system, std::span<const Block> blocks, int p,
                                    const ShadowDim& dim, int side, Fidelity fidelity) {
  const int move = side * dim.direction;
  if (fidelity == Fidelity::predictor) return system.neighbour(p, dim.grid_dim, move);
  const Range& own = blocks[static_cast<std::size_t>(p)].dim(dim.array_dim);
  const Index wanted = side < 0 ? own.lo - 1 : own.hi + 1;
  for (std::optional<int> q = system.neighbour(p, dim.grid_dim, move); q;
       q = system.neighbour(*q, dim.grid_dim, move)) {
    const Block& other = blocks[static_cast<std::size_t>(*q)];
    if (!other.empty() && other.dim(dim.array_dim).contains(wanted)) return q;
  }
  return std::nullopt;
}

}  // namespace

TransferMatrix shadow_matrix(const ProcessorSystem& system, std::span<const Block> blocks,
                             std::span<const Index> array_sizes, std::span<const ShadowDim> dims,
                             const ShadowWidths& widths, Index type_size, Fidelity fidelity) {
  check_per_processor(system, blocks.size(), "shadow");
  if (widths.low.size() != array_sizes.size() || widths.high.size() != array_sizes.size())
    throw std::invalid_argument("shadow: widths for " + std::to_string(widths.low.size()) + " and " +
                                std::to_string(widths.high.size()) + " dimensions of an array of rank " +
                                std::to_string(array_sizes.size()));
  const int n = system.processor_count();
  TransferMatrix t(n);
  // corner sets: augur every subset of ≥ 2 split dimensions; predictor array dimensions 0 and 1
  std::vector<std::vector<std::size_t>> corner_sets;
  if (widths.corners && dims.size() >= 2) {
    if (fidelity == Fidelity::predictor) {
      std::vector<std::size_t> pair;
      for (int a = 0; a < 2; ++a)
        for (std::size_t k = 0; k < dims.size(); ++k)
          if (dims[k].array_dim == a) pair.push_back(k);
      if (pair.size() == 2) corner_sets.push_back(pair);
    } else {
      for (unsigned mask = 0; mask < (1u << dims.size()); ++mask) {
        std::vector<std::size_t> set;
        for (std::size_t k = 0; k < dims.size(); ++k)
          if (mask & (1u << k)) set.push_back(k);
        if (set.size() >= 2) corner_sets.push_back(set);
      }
    }
  }
  for (int p = 0; p < n; ++p) {
    const Block& b = blocks[static_cast<std::size_t>(p)];
    if (b.empty()) continue;
    // side −1: the block has lower neighbours, they need high-width layers; side +1: upper, low
    auto width = [&](const ShadowDim& d, int side) {
      const auto a = static_cast<std::size_t>(d.array_dim);
      return side < 0 ? widths.high[a] : widths.low[a];
    };
    auto has_side = [&](const ShadowDim& d, int side) {
      const Range& r = b.dim(d.array_dim);
      return side < 0 ? r.lo > 0 : r.hi < array_sizes[static_cast<std::size_t>(d.array_dim)] - 1;
    };
    for (const ShadowDim& d : dims)
      for (int side : {-1, 1}) {
        if (!has_side(d, side) || width(d, side) <= 0) continue;
        if (auto q = shadow_neighbour(system, blocks, p, d, side, fidelity))
          t.add(p, *q, b.face(d.array_dim) * width(d, side) * type_size);
      }
    for (const auto& set : corner_sets) {
      for (unsigned sides = 0; sides < (1u << set.size()); ++sides) {
        std::vector<int> coords = system.coordinates(p);
        std::vector<int> corner_dims;
        Index bytes = type_size;
        bool ok = true;
        for (std::size_t i = 0; i < set.size() && ok; ++i) {
          const ShadowDim& d = dims[set[i]];
          const int side = (sides & (1u << i)) ? 1 : -1;
          const auto q = has_side(d, side) && width(d, side) > 0
                             ? shadow_neighbour(system, blocks, p, d, side, fidelity)
                             : std::nullopt;
          if (!q) {
            ok = false;
            break;
          }
          coords[static_cast<std::size_t>(d.grid_dim)] = system.coordinate(*q, d.grid_dim);
          corner_dims.push_back(d.array_dim);
          bytes *= width(d, side);  // Π_{a∈S} width_a(side)
        }
        if (!ok) continue;
        t.add(p, system.processor(coords), bytes * b.extent_product_except(corner_dims));
      }
    }
  }
  return t;
}

TransferMatrix shadow_matrix(const DistributedArray& array, const ShadowWidths& widths, Fidelity fidelity) {
  ShadowWidths resolved = widths;
  if (resolved.low.empty()) resolved.low.assign(static_cast<std::size_t>(array.rank()), -1);
  if (resolved.high.empty()) resolved.high.assign(static_cast<std::size_t>(array.rank()), -1);
  if (static_cast<int>(resolved.low.size()) != array.rank() || static_cast<int>(resolved.high.size()) != array.rank())
    throw std::invalid_argument("inssh_: widths for " + std::to_string(resolved.low.size()) + " and " +
                                std::to_string(resolved.high.size()) + " dimensions of an array of rank " +
                                std::to_string(array.rank()));
  std::vector<ShadowDim> dims;
  for (int a = 0; a < array.rank(); ++a) {
    auto& low = resolved.low[static_cast<std::size_t>(a)];
    auto& high = resolved.high[static_cast<std::size_t>(a)];
    if (low == -1) low = array.low_shadow(a);
    if (high == -1) high = array.high_shadow(a);
    if (low < 0 || high < 0)
      throw std::invalid_argument("inssh_: shadow width below -1 in dimension " + std::to_string(a));
    if (auto m = array.mapped_axis(a)) dims.push_back(ShadowDim{a, m->grid_dim, m->direction});
  }
  const std::vector<Block> blocks = array.blocks(fidelity);
  return shadow_matrix(array.system(), blocks, array.sizes(), dims, resolved, array.type_size(), fidelity);
}

CopySide normalise_copy_side(std::span<const Index> sizes, const CopySide& side) {
  const std::size_t rank = sizes.size();
  if (side.init.size() != rank || side.last.size() != rank || side.step.size() != rank)
    throw std::invalid_argument("arrcpy_: " + std::to_string(side.init.size()) + " initial, " +
                                std::to_string(side.last.size()) + " last indices and " +
                                std::to_string(side.step.size()) + " steps for an array of rank " +
                                std::to_string(rank));
  CopySide out = side;
  for (std::size_t d = 0; d < rank; ++d) {
    if (side.init[d] == -1) {
      out.init[d] = 0;
      out.last[d] = sizes[d] - 1;
      out.step[d] = 1;
      continue;
    }
    if (side.init[d] < 0 || side.init[d] >= sizes[d])
      throw std::invalid_argument("arrcpy_: initial index " + std::to_string(side.init[d]) + " outside dimension " +
                                  std::to_string(d) + " of size " + std::to_string(sizes[d]));
    out.last[d] = std::clamp<Index>(side.last[d], 0, sizes[d] - 1);
    if (out.step[d] == 0) out.step[d] = 1;
  }
  return out;
}

namespace {

Range side_range(Index init, Index last, Index step) {
  if (step > 0) return init > last ? Range{} : make_range(init, last, step);
  if (init < last) return Range{};
  // init, init + step, … ≥ last, ascending
  const Index count = (init - last) / -step + 1;
  return make_range(init - (count - 1) * -step, init, -step);
}

}  // namespace

Block copy_region(const CopySide& side) {
  std::vector<Range> dims;
  for (std::size_t d = 0; d < side.init.size(); ++d)
    dims.push_back(side_range(side.init[d], side.last[d], side.step[d]));
  return Block(std::move(dims));
}

Block copy_read_block(const Block& written, const CopySide& to, const CopySide& from) {
  const auto rank = static_cast<std::size_t>(written.rank());
  if (to.init.size() != rank || from.init.size() != rank)
    throw std::invalid_argument("arrcpy_: copies between arrays of ranks " + std::to_string(from.init.size()) +
                                " and " + std::to_string(to.init.size()) + " are not modelled index by index");
  if (written.empty()) return Block::empty_of_rank(written.rank());
  std::vector<Range> dims;
  for (std::size_t d = 0; d < rank; ++d) {
    const Range& w = written.dim(static_cast<int>(d));
    // the k-th index written, k = (x − to.init)/to.step, reads from.init + k·from.step
    const Index k1 = (w.lo - to.init[d]) / to.step[d], k2 = (w.hi - to.init[d]) / to.step[d];
    const Index r1 = from.init[d] + k1 * from.step[d], r2 = from.init[d] + k2 * from.step[d];
    dims.push_back(make_range(std::min(r1, r2), std::max(r1, r2), std::max<Index>(1, std::abs(from.step[d]))));
  }
  return Block(std::move(dims));
}

TransferMatrix copy_to_replicated_matrix(const DistributedArray& from, const CopySide& from_side, Fidelity fidelity) {
  const ProcessorSystem& system = from.system();
  const int n = system.processor_count();
  if (from.fully_replicated()) return TransferMatrix(n);
  const CopySide side = normalise_copy_side(from.sizes(), from_side);
  const std::vector<Block> owned = from.blocks(fidelity);
  if (fidelity == Fidelity::predictor) {
    // the first index of the region (its Last end for a negative step), from every other owner
    std::vector<Range> first;
    for (std::size_t d = 0; d < side.init.size(); ++d) {
      const Index x = side.step[d] > 0 ? side.init[d] : side.last[d];
      first.push_back(make_range(x, x));
    }
    const std::vector<Block> needs(static_cast<std::size_t>(n), Block(first));
    return gather_matrix(system, owned, needs, from.type_size(), Sources::every);
  }
  const std::vector<Block> needs(static_cast<std::size_t>(n), copy_region(side));
  return gather_matrix(system, owned, needs, from.type_size(), Sources::nearest);
}

TransferMatrix copy_distributed_matrix(const ProcessorSystem& system, std::span<const Block> from_blocks,
                                       std::span<const Block> read_regions, Index type_size, Sources sources) {
  return gather_matrix(system, from_blocks, read_regions, type_size, sources);
}

TransferMatrix copy_distributed_matrix(const DistributedArray& from, const CopySide& from_side,
                                       const DistributedArray& to, const CopySide& to_side, Fidelity fidelity) {
  if (from.fully_replicated()) return TransferMatrix(from.system().processor_count());
  const CopySide fs = normalise_copy_side(from.sizes(), from_side);
  const CopySide ts = normalise_copy_side(to.sizes(), to_side);
  const Block target = copy_region(ts);
  std::vector<Block> reads;
  for (const Block& own : to.blocks(fidelity)) {
    const Block written = intersect(own, target);
    reads.push_back(written.empty() ? Block::empty_of_rank(from.rank()) : copy_read_block(written, ts, fs));
  }
  Frame frame = common_frame(from.system(), from.blocks(fidelity), to.system(), std::move(reads));
  return gather_matrix(frame.system, frame.first, frame.second, from.type_size(),
                       fidelity == Fidelity::predictor ? Sources::every : Sources::nearest);
}

Block remote_buffer_region(std::span<const Index> array_sizes, const AlignParams& params, const Block& loop_block) {
  const std::size_t rank = array_sizes.size();
  if (params.axis.size() != rank || params.coeff.size() != rank || params.constant.size() != rank)
    throw std::invalid_argument("crtrbl_: " + std::to_string(params.axis.size()) + " axes for a remote array of rank " +
                                std::to_string(rank));
  if (loop_block.empty()) return Block::empty_of_rank(static_cast<int>(rank));
  std::vector<Range> dims;
  for (std::size_t j = 0; j < rank; ++j) {
    const Range whole{0, array_sizes[j] - 1, 1};
    const int axis = params.axis[j];
    const Index c = params.coeff[j], k = params.constant[j];
    if (axis == -1) {
      dims.push_back(whole);
    } else if (axis == 0 || c == 0) {
      dims.push_back(intersect(make_range(k, k), whole));
    } else {
      if (axis < 1 || axis > loop_block.rank())
        throw std::invalid_argument("crtrbl_: AxisArray[" + std::to_string(j) + "]=" + std::to_string(axis) +
                                    " for a loop of rank " + std::to_string(loop_block.rank()));
      // the image c·I + k of the loop block's axis
      const Range& r = loop_block.dim(axis - 1);
      const Index a = c * r.lo + k, b = c * r.hi + k;
      dims.push_back(intersect(make_range(std::min(a, b), std::max(a, b), std::abs(c) * r.step), whole));
    }
  }
  return Block(std::move(dims));
}

}  // namespace augur::models::dvm
