// ACROSS loops: edge exchange, the number of portions and the portion-by-portion pipeline
// (spec 6.4; formulas in across.hpp and docs/dvm-model.md).
#include "models/dvm/across.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace augur::models::dvm {

Index AcrossProcessor::volume() const {
  if (extents.empty()) return 0;
  Index v = 1;
  for (Index e : extents) v *= std::max<Index>(e, 0);
  return v;
}

namespace {

std::size_t uz(int v) { return static_cast<std::size_t>(v); }

/// System number of `coords` (last dimension fastest).
int number_of(const std::vector<int>& grid, const std::vector<int>& coords) {
  int k = 0;
  for (std::size_t d = 0; d < grid.size(); ++d) k = k * grid[d] + coords[d];
  return k;
}

/// The neighbour of processor `i` one step along dimension `d` in direction `dir`, or −1.
int neighbour(const AcrossGeometry& g, int i, std::size_t d, int dir) {
  std::vector<int> c = g.procs[uz(i)].coords;
  c[d] += dir;
  if (c[d] < 0 || c[d] >= g.grid[d]) return -1;
  return number_of(g.grid, c);
}

int loop_rank(const AcrossGeometry& g) {
  for (const auto& p : g.procs) {
    if (!p.extents.empty()) return static_cast<int>(p.extents.size());
  }
  return 0;
}

bool pipelined(const AcrossGeometry& g, std::size_t d) {
  return g.dims[d].axis >= 0 && g.grid[d] > 1 && g.dims[d].width > 0;
}

}  // namespace

void validate(const AcrossGeometry& g) {
  if (g.dims.size() != g.grid.size()) {
    throw std::invalid_argument("ACROSS: " + std::to_string(g.dims.size()) +
                                " dimension descriptions for a grid of rank " + std::to_string(g.grid.size()));
  }
  Index count = 1;
  for (int s : g.grid) {
    if (s < 1) throw std::invalid_argument("ACROSS: a grid dimension of size " + std::to_string(s));
    count *= s;
  }
  if (static_cast<Index>(g.procs.size()) != count) {
    throw std::invalid_argument("ACROSS: " + std::to_string(g.procs.size()) + " processors on a grid of " +
                                std::to_string(count));
  }
  if (g.type_size <= 0) throw std::invalid_argument("ACROSS: element size " + std::to_string(g.type_size));
  const int rank = loop_rank(g);
  for (std::size_t i = 0; i < g.procs.size(); ++i) {
    const auto& p = g.procs[i];
    if (p.coords.size() != g.grid.size() || number_of(g.grid, p.coords) != static_cast<int>(i)) {
      throw std::invalid_argument("ACROSS: processor " + std::to_string(i) + " has coordinates outside its place");
    }
    for (std::size_t d = 0; d < g.grid.size(); ++d) {
      if (p.coords[d] < 0 || p.coords[d] >= g.grid[d]) {
        throw std::invalid_argument("ACROSS: processor " + std::to_string(i) + " lies outside the grid");
      }
    }
    if (!p.extents.empty() && static_cast<int>(p.extents.size()) != rank) {
      throw std::invalid_argument("ACROSS: processor " + std::to_string(i) + " has a block of another rank");
    }
  }
  for (std::size_t d = 0; d < g.dims.size(); ++d) {
    const AcrossDim& a = g.dims[d];
    if (a.axis >= rank && rank > 0) {
      throw std::invalid_argument("ACROSS: grid dimension " + std::to_string(d) + " names loop axis " +
                                  std::to_string(a.axis) + " of a loop of rank " + std::to_string(rank));
    }
    if (a.direction != 1 && a.direction != -1) {
      throw std::invalid_argument("ACROSS: direction " + std::to_string(a.direction) + " along grid dimension " +
                                  std::to_string(d));
    }
    if (a.width < 0) {
      throw std::invalid_argument("ACROSS: negative shadow width " + std::to_string(a.width) +
                                  " along grid dimension " + std::to_string(d));
    }
  }
}

std::vector<double> across_edge_costs(const AcrossGeometry& g, MessagePrice price) {
  validate(g);
  std::vector<double> com(g.procs.size(), 0.0);
  for (std::size_t i = 0; i < g.procs.size(); ++i) {
    const AcrossProcessor& p = g.procs[i];
    const Index a = p.volume();
    if (a == 0) continue;
    for (std::size_t d = 0; d < g.dims.size(); ++d) {
      const int x = g.dims[d].axis;
      if (x < 0 || neighbour(g, static_cast<int>(i), d, g.dims[d].direction) < 0) continue;
      const Index face = a / p.extents[uz(x)];
      com[i] += price.ts + price.tb * static_cast<double>(g.type_size * face);
    }
  }
  return com;
}

Index across_portions(AcrossPlan& plan, double ts) {
  const double n = static_cast<double>(plan.n), m = static_cast<double>(plan.m), p = static_cast<double>(plan.p);
  const double w = static_cast<double>(plan.w);
  plan.message_bound = w * plan.tm > 0 && p * w * plan.tm > m * plan.tc;
  double q = 0;
  if (ts <= 0) {
    q = n;  // no start-up per portion: the finest pipeline is the best
  } else if (plan.message_bound) {
    q = std::sqrt(n * (p * (plan.tc * m + p * plan.tm * w) - 2 * plan.tc * m) / (p * 2 * ts));
  } else {
    q = std::sqrt(n * (p - 1) * (m * plan.tc + p * plan.tm * w) / (p * 2 * ts));
  }
  Index result = std::isfinite(q) && q >= 1 ? static_cast<Index>(std::floor(std::min(q, n))) : 1;
  plan.q = std::clamp<Index>(result, 1, std::max<Index>(plan.n, 1));
  return plan.q;
}

AcrossPlan across_plan(const AcrossGeometry& g, MessagePrice price, double loop_time, Index loop_size) {
  validate(g);
  AcrossPlan plan;
  const int rank = loop_rank(g);
  std::vector<bool> pip_axis(uz(rank), false);
  for (std::size_t d = 0; d < g.dims.size(); ++d) {
    if (pipelined(g, d)) pip_axis[uz(g.dims[d].axis)] = true;
  }
  std::vector<Index> dmax(uz(rank), 0);
  int first = -1;
  for (std::size_t i = 0; i < g.procs.size(); ++i) {
    if (g.procs[i].volume() == 0) continue;
    if (first < 0) first = static_cast<int>(i);
    for (int x = 0; x < rank; ++x) dmax[uz(x)] = std::max(dmax[uz(x)], g.procs[i].extents[uz(x)]);
  }
  for (int x = 0; x < rank; ++x) {
    if (!pip_axis[uz(x)]) plan.n *= std::max<Index>(dmax[uz(x)], 1);
  }
  double shad = 0;
  const double all = std::accumulate(dmax.begin(), dmax.end(), 1.0, [](double acc, Index e) {
    return acc * static_cast<double>(std::max<Index>(e, 1));
  });
  for (std::size_t d = 0; d < g.dims.size() && first >= 0; ++d) {
    if (!pipelined(g, d)) continue;
    const int x = g.dims[d].axis;
    plan.p *= g.grid[d];
    // The loop's extent along x: the pieces of the processors in the first one's line along d.
    Index total = 0;
    std::vector<int> c = g.procs[uz(first)].coords;
    for (c[d] = 0; c[d] < g.grid[d]; ++c[d]) {
      const AcrossProcessor& q = g.procs[uz(number_of(g.grid, c))];
      if (q.volume() > 0) total += q.extents[uz(x)];
    }
    plan.m *= total;
    shad += all / static_cast<double>(std::max<Index>(dmax[uz(x)], 1)) * static_cast<double>(g.dims[d].width);
  }
  plan.w = static_cast<Index>(std::ceil(shad / static_cast<double>(plan.n)));
  plan.tc = loop_size > 0 ? loop_time / static_cast<double>(loop_size) : 0.0;
  plan.tm = price.ts + price.tb * static_cast<double>(g.type_size);
  across_portions(plan, price.ts);
  return plan;
}

AcrossRun across_pipeline(const AcrossGeometry& g, MessagePrice price, const std::vector<double>& loop_time,
                          Index loop_size, const std::vector<double>& start) {
  validate(g);
  const std::size_t count = g.procs.size();
  if (loop_time.size() != count || start.size() != count) {
    throw std::invalid_argument("ACROSS: loop times and start clocks are needed for each of the " +
                                std::to_string(count) + " processors");
  }
  AcrossRun run;
  run.plan = across_plan(g, price, loop_time.empty() ? 0.0 : loop_time[0], loop_size);
  run.compute.assign(count, 0.0);
  run.wait.assign(count, 0.0);
  run.finish = start;
  const Index q_count = run.plan.q;
  const int rank = loop_rank(g);
  std::vector<bool> pip_axis(uz(rank), false);
  std::vector<std::size_t> pip_dims;
  for (std::size_t d = 0; d < g.dims.size(); ++d) {
    if (!pipelined(g, d)) continue;
    pip_axis[uz(g.dims[d].axis)] = true;
    pip_dims.push_back(d);
  }
  auto tc = [&](std::size_t i) { return loop_size > 0 ? loop_time[i] / static_cast<double>(loop_size) : 0.0; };
  std::vector<Index> n(count, 0), m(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const AcrossProcessor& p = g.procs[i];
    if (p.volume() == 0) continue;
    n[i] = m[i] = 1;
    for (int x = 0; x < rank; ++x) (pip_axis[uz(x)] ? m[i] : n[i]) *= p.extents[uz(x)];
    run.compute[i] = tc(i) * static_cast<double>(p.volume());
  }
  if (pip_dims.empty()) {
    for (std::size_t i = 0; i < count; ++i) run.finish[i] = start[i] + run.compute[i];
    return run;
  }
  // Processors in the order of the sweep: by their distance from the pipeline's start.
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto depth = [&](std::size_t i) {
    int s = 0;
    for (std::size_t d : pip_dims) {
      const int c = g.procs[i].coords[d];
      s += g.dims[d].direction > 0 ? c : g.grid[d] - 1 - c;
    }
    return s;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return depth(a) < depth(b); });
  // done[i][k]: the end of portion k on processor i.
  std::vector<std::vector<double>> done(count);
  auto portion = [&](std::size_t i, Index k) { return n[i] * (k + 1) / q_count - n[i] * k / q_count; };
  for (std::size_t i : order) {
    if (n[i] == 0) continue;
    done[i].assign(static_cast<std::size_t>(q_count), 0.0);
    double clock = start[i];
    for (Index k = 0; k < q_count; ++k) {
      double ready = clock;
      const Index iters = portion(i, k) * m[i];
      for (std::size_t d : pip_dims) {
        const int pred = neighbour(g, static_cast<int>(i), d, -g.dims[d].direction);
        if (pred < 0 || n[uz(pred)] == 0) continue;
        const Index face = iters / g.procs[i].extents[uz(g.dims[d].axis)];
        const Index bytes = face * g.dims[d].width * g.type_size;
        const double arrive = done[uz(pred)][static_cast<std::size_t>(k)] +
                              (bytes > 0 ? price.ts + price.tb * static_cast<double>(bytes) : 0.0);
        ready = std::max(ready, arrive);
      }
      run.wait[i] += ready - clock;
      clock = ready + tc(i) * static_cast<double>(iters);
      done[i][static_cast<std::size_t>(k)] = clock;
    }
    run.finish[i] = clock;
  }
  return run;
}

}  // namespace augur::models::dvm
