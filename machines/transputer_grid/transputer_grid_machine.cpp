// The transputer grid of the DVM Predictor (spec 7.2, 6.3): Manhattan-distance hops,
// store-and-forward pipelined in packets of the optimal size, optional per-link contention.
#include "machines/transputer_grid/transputer_grid_machine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

namespace augur::machines {

using engine::CollectiveKind;

std::vector<ParamSpec> transputer_grid_params() {
  auto specs = common_params();
  specs.push_back({"start_time", UnitKind::time, "10us", "Ts: start-up time of one packet on one link (per hop)", {}});
  specs.push_back(
      {"byte_time", UnitKind::time, "1us", "Tb: time per byte on one link (1us = 1 MB/s, a T800 link)", {}});
  specs.push_back({"grid",
                   UnitKind::int_list,
                   "[]",
                   "grid shape, e.g. [4, 4]; row-major numbering; [] = a line of all processors",
                   {}});
  specs.push_back({"link_contention",
                   UnitKind::boolean,
                   "false",
                   "a message waits until every link of its dimension-order route is free",
                   {}});
  specs.push_back({"scale", UnitKind::real, "1", "sigma: multiplies every communication cost", {}});
  return specs;
}

SimTime pipelined_cost(SimTime start_time, SimTime byte_time, std::uint64_t bytes, int distance) {
  if (distance <= 0) return 0;
  const double d = distance;
  if (bytes == 0) return start_time * d;  // an empty packet still pays Ts on every hop
  const double b = static_cast<double>(bytes);
  if (distance == 1) return start_time + byte_time * b;  // Ts + Tb·B
  // S = ⌊√(Ts·B / (Tb·(D−1)))⌋ minimises (Ts + Tb·S)(D − 1 + B/S). The ratio is computed from
  // times in seconds, so "10us·1000 / (1us·2)" may come out as 4999.999…: the floor tolerates a
  // relative error of 1e-12 so that exact squares give their exact root.
  std::uint64_t packet = bytes;
  // ratio ≥ B² means S ≥ B (one packet); it also catches a ratio too large for the root's steps
  // (an infinity from a tiny Tb would never end them).
  const double ratio = byte_time > 0 ? start_time * b / (byte_time * (d - 1)) : 0;
  if (byte_time > 0 && ratio < b * b) {
    const double tolerant = ratio * (1 + 1e-12);
    double root = std::floor(std::sqrt(ratio));
    while ((root + 1) * (root + 1) <= tolerant) root += 1;
    while (root > 0 && root * root > tolerant) root -= 1;
    packet = root >= b ? bytes : static_cast<std::uint64_t>(root);
  }
  packet = std::clamp<std::uint64_t>(packet, 1, bytes);
  const std::uint64_t full = bytes / packet;  // k = ⌊B/S⌋
  const std::uint64_t rest = bytes % packet;  // e = B mod S
  const double s = static_cast<double>(packet);
  // C = (Ts + Tb·S)(D + k − 1) + (e > 0 ? Ts + Tb·e : 0)
  SimTime cost = (start_time + byte_time * s) * (d + static_cast<double>(full) - 1);
  if (rest > 0) cost += start_time + byte_time * static_cast<double>(rest);
  return cost;
}

TransputerGridMachine::TransputerGridMachine(const ParamSet& params, int processors)
    : MachineModel(params, processors),
      start_time_(params.number("start_time")),
      byte_time_(params.number("byte_time")),
      link_contention_(params.flag("link_contention")),
      scale_(params.number("scale")),
      grid_given_(!params.list("grid").empty()) {
  if (scale_ < 0) throw ParamError("parameter 'scale': must not be negative");
  const auto& grid = params.list("grid");
  std::int64_t product = 1;
  std::string written;
  std::vector<int> shape;
  for (const double extent : grid) {
    written += (written.empty() ? "" : ", ") + format_quantity(extent, UnitKind::count);
    product *= static_cast<std::int64_t>(extent);
    shape.push_back(static_cast<int>(extent));
  }
  if (shape.empty()) shape.push_back(processors_);  // [] = a line
  if (!grid.empty() && product != processors_)
    throw ParamError("parameter 'grid': the grid [" + written + "] holds " + std::to_string(product) +
                     " processors, but the run has " + std::to_string(processors_));
  set_shape(std::move(shape));
}

void TransputerGridMachine::set_shape(std::vector<int> shape) {
  shape_ = std::move(shape);
  // Row-major: the last dimension is the fastest, stride[d] = Π_{j>d} shape[j].
  stride_.assign(shape_.size(), 1);
  for (std::size_t d = shape_.size() - 1; d > 0; --d) stride_[d - 1] = stride_[d] * shape_[d];
  link_free_.assign(static_cast<std::size_t>(processors_) * shape_.size() * 2, 0.0);
}

void TransputerGridMachine::reset() { std::fill(link_free_.begin(), link_free_.end(), 0.0); }

int TransputerGridMachine::coordinate(int proc, std::size_t dim) const { return (proc / stride_[dim]) % shape_[dim]; }

int TransputerGridMachine::distance(int a, int b) const {
  // D = Σ_d |a_d − b_d|
  int hops = 0;
  for (std::size_t d = 0; d < shape_.size(); ++d) hops += std::abs(coordinate(a, d) - coordinate(b, d));
  return hops;
}

int TransputerGridMachine::eccentricity(int proc) const {
  // Σ_d max(c_d, shape_d − 1 − c_d): the farthest corner.
  int hops = 0;
  for (std::size_t d = 0; d < shape_.size(); ++d) {
    const int c = coordinate(proc, d);
    hops += std::max(c, shape_[d] - 1 - c);
  }
  return hops;
}

std::size_t TransputerGridMachine::link_index(int proc, std::size_t dim, bool up) const {
  return (static_cast<std::size_t>(proc) * shape_.size() + dim) * 2 + (up ? 1 : 0);
}

SimTime TransputerGridMachine::cost(std::uint64_t bytes, int hops) const {
  return scale_ * pipelined_cost(start_time_, byte_time_, bytes, hops);
}

Transfer TransputerGridMachine::transfer(int src, int dst, std::uint64_t bytes, SimTime ready) {
  Transfer result{ready, ready, ready, 0};
  if (src == dst) return result;
  const SimTime duration = cost(bytes, distance(src, dst));
  if (link_contention_) {
    // Dimension-order route: correct dimension 0 first, then 1, … Two walks over the route: the
    // first finds when all its links are free, the second books them until the arrival.
    const auto walk = [&](auto&& visit) {
      int at = src;
      for (std::size_t d = 0; d < shape_.size(); ++d) {
        const int target = coordinate(dst, d);
        while (coordinate(at, d) != target) {
          const bool up = coordinate(at, d) < target;
          visit(link_index(at, d, up));
          at += up ? stride_[d] : -stride_[d];
        }
      }
    };
    walk([&](std::size_t link) { result.start = std::max(result.start, link_free_[link]); });
    result.arrival = result.start + duration;
    walk([&](std::size_t link) { link_free_[link] = result.arrival; });
  } else {
    result.arrival = ready + duration;
  }
  return result;
}

SimTime TransputerGridMachine::collective_time(CollectiveKind kind, int processors, std::uint64_t bytes,
                                               int root) const {
  // C(B, D) below is sigma · pipelined_cost. On the whole machine the tree depth is the root's
  // eccentricity E(root) and the diameter is D = Σ(shape_d − 1); on a subset of P processors
  // both are bounded by P − 1.
  if (processors <= 1) return 0;
  const bool whole = processors == processors_;
  const int limit = processors - 1;
  int diameter = 0;
  for (const int extent : shape_) diameter += extent - 1;
  diameter = std::min(diameter, limit);
  const auto depth = [&](int from) { return whole && from >= 0 && from < processors_ ? eccentricity(from) : diameter; };
  const std::uint64_t p = static_cast<std::uint64_t>(processors);
  const std::uint64_t gathered = (p - 1) * bytes;
  switch (kind) {
    case CollectiveKind::barrier:
      // an empty reduce to processor 0 and its release: 2·C(0, E(0)) = 2·Ts·E(0)·sigma
      return 2 * cost(0, depth(0));
    case CollectiveKind::bcast:
    case CollectiveKind::reduce:
      // a spanning tree from the root, pipelined: C(n, E(root))
      return cost(bytes, depth(root));
    case CollectiveKind::allreduce:
    case CollectiveKind::reduce_scatter:
      // reduce to processor 0, then broadcast: 2·C(n, E(0))
      return 2 * cost(bytes, depth(0));
    case CollectiveKind::gather:
    case CollectiveKind::gatherv:
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv:
      // the root's (P−1)·n bytes pipelined to its farthest processor: C((P−1)·n, E(root))
      return cost(gathered, depth(root));
    case CollectiveKind::allgather:
    case CollectiveKind::allgatherv:
      // every processor receives (P−1)·n bytes, from at most D hops away: C((P−1)·n, D)
      return cost(gathered, diameter);
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoallv: {
      // Limited by the bisection: cutting the longest dimension (extent k) leaves P/k links
      // each way, crossed by ⌈P/2⌉·⌊P/2⌋ messages of n bytes; every link also carries at least
      // the P−1 messages of its own processor:
      // sigma · (Ts·D + Tb·n·max(P−1, ⌈P/2⌉·⌊P/2⌋·k/P))
      const double pd = static_cast<double>(p);
      const double k = std::min(static_cast<double>(*std::max_element(shape_.begin(), shape_.end())), pd);
      const double crossing = std::ceil(pd / 2) * std::floor(pd / 2) * k / pd;
      const double per_link = std::max(pd - 1, crossing);
      return scale_ * (start_time_ * diameter + byte_time_ * static_cast<double>(bytes) * per_link);
    }
    case CollectiveKind::scan:
    case CollectiveKind::exscan:
      // a chain along the processor order, neighbours one hop apart: (P−1)·C(n, 1)
      return static_cast<double>(p - 1) * cost(bytes, 1);
  }
  return 0;
}

SimTime TransputerDvmPricing::matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) {
  // Spec 6.3: all pairs proceed in parallel; only the farthest communicating pair matters.
  int farthest = 0;
  std::uint64_t largest = 0;
  for (std::size_t p = 0; p < matrix.size(); ++p)
    for (std::size_t q = 0; q < matrix[p].size(); ++q) {
      if (p == q || matrix[p][q] == 0) continue;
      const int hops = machine_.distance(static_cast<int>(p), static_cast<int>(q));
      if (hops > farthest || (hops == farthest && matrix[p][q] > largest)) {
        farthest = hops;
        largest = matrix[p][q];
      }
    }
  // C = sigma · C(B, D)
  return machine_.cost(largest, farthest);
}

SimTime TransputerDvmPricing::matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix,
                                             [[maybe_unused]] const std::vector<SimTime>& ready,
                                             std::vector<SimTime>* end_per_proc) {
  const SimTime cost = matrix_cost(matrix);
  if (end_per_proc != nullptr) end_per_proc->assign(matrix.size(), cost);
  return cost;
}

SimTime TransputerDvmPricing::grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split,
                                                  std::uint64_t bytes) {
  // t = σ(Ts + Tb·n)·(D(0, centre) + Σ_{split d} ⌊s_d/2⌋): the partial results travel to the
  // centre (at most ⌊s_d/2⌋ hops along each split dimension) and the result from the centre to
  // the corner processor 0 (D(0, centre) = Σ_d ⌊s_d/2⌋ hops), one message time per hop
  // (Predictor 2.53 RedGroup::StartR, mach_TRANSPUTER).
  int hops = 0;
  bool any = false;
  for (std::size_t d = 0; d < grid.shape.size(); ++d) {
    const int half = grid.shape[d] / 2;
    hops += half;  // D(0, centre)
    if (d < split.size() && split[d]) {
      hops += half;
      any = true;
    }
  }
  if (!any) return 0;
  return machine_.scale_ * (machine_.start_time_ + machine_.byte_time_ * static_cast<double>(bytes)) * hops;
}

std::vector<SimTime> TransputerDvmPricing::broadcast_times(const std::vector<int>& processors, std::uint64_t bytes) {
  return seed_broadcast_times(static_cast<int>(processors.size()), machine_.start_time_, machine_.byte_time_,
                              machine_.scale_, bytes);
}

void TransputerDvmPricing::arrange(const std::vector<int>& shape) {
  if (machine_.grid_given_ || shape.empty()) return;
  std::int64_t product = 1;
  for (const int extent : shape) {
    if (extent < 1) return;
    product *= extent;
  }
  if (product == machine_.processors_) machine_.set_shape(shape);
}

}  // namespace augur::machines
