// Max-min fair sharing of link capacities among flows (bottleneck progressive filling, the
// behaviour of SimGrid's LMM solver for the CM02 family; docs/network.md).
#pragma once
#include <cstdint>
#include <vector>

namespace augur::machines::network {

/// One max-min system: constraints (link capacities) and variables (flow rates).
/// A variable i uses constraint c with weight w (1 for its route, 0.05 for cross-traffic on
/// its back route). A shared constraint holds Σ w·x ≤ capacity; a fat pipe holds w·x ≤ capacity
/// for each variable alone. A variable's penalty p > 0 weighs its share: on a bottleneck the
/// variables get x = s / p, where s is the constraint's fair share.
struct MaxMinSystem {
  struct Element {
    std::uint32_t constraint = 0;
    double weight = 1;
  };
  struct Variable {
    double penalty = 1;             ///< > 0
    double bound = 0;               ///< upper bound of x; 0 = none
    std::vector<Element> elements;  ///< the constraints it uses
  };
  std::vector<double> capacity;  ///< per constraint
  std::vector<char> fatpipe;     ///< per constraint: 1 = a fat pipe (char, not a bit: read in inner loops)
  std::vector<Variable> variables;
};

/// The max-min fair rates x of `system`'s variables. Progressive filling: every round finds the
/// smallest fair share s = remaining / Σ(w / p) over the constraints (for a fat pipe
/// capacity / max(w / p)) and the smallest bound·p; the variables of that bottleneck are fixed at
/// s / p (or at their bound) and leave the other constraints' sums. A variable that uses no
/// constraint and has no bound gets +∞. Cost O(rounds · elements), rounds ≤ variables.
std::vector<double> solve_maxmin(const MaxMinSystem& system);

/// The solver's working buffers, kept between solves so that a solve allocates nothing once
/// they have grown.
struct MaxMinWork {
  std::vector<double> rate;
  std::vector<char> fixed;
  std::vector<double> remaining;
  std::vector<double> usage;
  std::vector<std::uint32_t> now_fixed;
};

/// The same rates for the first `variables` variables of `system` (the others are ignored: a
/// caller's buffer may hold more), in `work.rate`, which it returns.
const std::vector<double>& solve_maxmin(const MaxMinSystem& system, std::size_t variables, MaxMinWork& work);

}  // namespace augur::machines::network
