// Bottleneck progressive filling (see maxmin.hpp).
#include "machines/network/maxmin.hpp"

#include <algorithm>
#include <limits>

namespace augur::machines::network {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
// Two shares closer than this relative amount are the same bottleneck (one round fixes both).
constexpr double same_share = 1e-12;

}  // namespace

std::vector<double> solve_maxmin(const MaxMinSystem& system) {
  MaxMinWork work;
  return solve_maxmin(system, system.variables.size(), work);
}

const std::vector<double>& solve_maxmin(const MaxMinSystem& system, std::size_t variables, MaxMinWork& work) {
  const std::size_t n = variables;
  const std::size_t m = system.capacity.size();
  std::vector<double>& rate = work.rate;
  std::vector<char>& fixed = work.fixed;
  std::vector<double>& remaining = work.remaining;
  std::vector<double>& usage = work.usage;
  rate.assign(n, infinity);
  fixed.assign(n, 0);
  remaining.assign(system.capacity.begin(), system.capacity.end());
  usage.resize(m);
  std::size_t left = n;
  while (left > 0) {
    // usage[c] = Σ w/p over the unfixed variables on c (fat pipe: the largest w/p).
    std::fill(usage.begin(), usage.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      if (fixed[i] != 0) continue;
      const auto& v = system.variables[i];
      for (const auto& e : v.elements) {
        const double u = e.weight / v.penalty;
        usage[e.constraint] = system.fatpipe[e.constraint] ? std::max(usage[e.constraint], u) : usage[e.constraint] + u;
      }
    }
    double best = infinity;
    for (std::size_t c = 0; c < m; ++c)
      if (usage[c] > 0) best = std::min(best, std::max(remaining[c], 0.0) / usage[c]);
    for (std::size_t i = 0; i < n; ++i)
      if (fixed[i] == 0 && system.variables[i].bound > 0)
        best = std::min(best, system.variables[i].bound * system.variables[i].penalty);
    if (best == infinity) break;  // the rest use no constraint: unbounded
    const double limit = best * (1 + same_share);
    std::vector<std::uint32_t>& now_fixed = work.now_fixed;
    now_fixed.clear();
    for (std::size_t i = 0; i < n; ++i) {
      if (fixed[i] != 0) continue;
      const auto& v = system.variables[i];
      bool bottleneck = v.bound > 0 && v.bound * v.penalty <= limit;
      for (const auto& e : v.elements)
        bottleneck = bottleneck ||
                     (usage[e.constraint] > 0 && std::max(remaining[e.constraint], 0.0) <= limit * usage[e.constraint]);
      if (!bottleneck) continue;
      rate[i] = best / v.penalty;
      if (v.bound > 0) rate[i] = std::min(rate[i], v.bound);
      now_fixed.push_back(static_cast<std::uint32_t>(i));
    }
    for (std::size_t i : now_fixed) {
      fixed[i] = 1;
      --left;
      for (const auto& e : system.variables[i].elements)
        if (!system.fatpipe[e.constraint]) remaining[e.constraint] -= e.weight * rate[i];
    }
  }
  return rate;
}

}  // namespace augur::machines::network
