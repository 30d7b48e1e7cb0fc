// The roofline node model of spec §7.5 (seed 002): a node has cores of a given performance,
// memory levels with a per-core and a per-node bandwidth, and math-function costs in flops.
// A compute block takes max(flops_total / perf, bytes / bw_chosen + Σ_k bytes_k / bw_k): its
// traffic not split by level at the chosen memory level, the split part at its own levels; the
// cores active on a node share its bandwidth. Pure functions; MachineModel::compute_time prices compute blocks with
// them.
#pragma once
#include <array>
#include <span>
#include <stdexcept>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace augur::machines {

/// The math functions whose cost a node declares, in flops per call.
enum class MathFn : std::size_t { sin, cos, tan, exp, log, sqrt, pow, div, count_ };
inline constexpr std::size_t kMathFnCount = static_cast<std::size_t>(MathFn::count_);

/// The name of a math function ("sin", ...), and the function named `name` (false if none).
std::string_view math_fn_name(MathFn fn);
bool parse_math_fn(std::string_view name, MathFn& fn);

/// One memory level: bandwidths in B/s (both positive), capacity in bytes (0: not declared).
struct MemoryLevel {
  std::string name;
  double bw_per_core = 0;
  double bw_per_node = 0;
  double capacity = 0;
};

/// A node: `cores` cores of `perf_per_core` flop/s, memory levels from the fastest (L1) to the
/// slowest (DRAM), and the cost of each math function in flops (0: not declared).
struct NodeSpec {
  int cores = 1;
  double perf_per_core = 1e9;
  std::vector<MemoryLevel> levels;
  std::array<double, kMathFnCount> math_cost{};
};

/// What one compute block does: plain flops, memory bytes, and math-function calls.
struct ComputeWork {
  double flops = 0;
  double bytes = 0;  ///< traffic not split by level: priced at the chosen memory level
  std::array<double, kMathFnCount> math_calls{};
  /// Traffic split by level: entry k is the bytes moved at `levels[k]` of the node (empty: none;
  /// shorter than the levels: the rest are 0). Not part of `bytes`.
  std::span<const double> level_bytes;
};

/// Error of a node description; the message names the field. Callers add file:line:col.
class NodeSpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Checks `node` (cores ≥ 1, positive performance and bandwidths, unique level names, finite
/// non-negative costs); throws NodeSpecError otherwise.
void validate(const NodeSpec& node);

/// Index of the level named `name` in `node.levels`; throws NodeSpecError listing the names.
std::size_t level_index(const NodeSpec& node, std::string_view name);

/// flops + Σ math_calls · math_cost: the flops a block costs on `node`.
double total_flops(const NodeSpec& node, const ComputeWork& work);

/// One line for reports: "20 cores × 5.3Gflops; L1 100GBps/core 2TBps/node; DRAM ... 256GiB; sin 39 ...".
std::string format_node(const NodeSpec& node);

/// Cores of its node that run a process when `processes` processes fill nodes of `node.cores`
/// cores in rank order (ranks 0..cores−1 on the first node, …): the processes that share the
/// node bandwidth with process `proc`.
int active_cores(const NodeSpec& node, int proc, int processes);

/// Bandwidth one core gets at `level` when `active_cores` cores of its node run:
/// min(bw_per_core, bw_per_node / active_cores). `active_cores` is clamped to [1, cores].
double core_bandwidth(const NodeSpec& node, std::size_t level, int active_cores);

/// Memory time of `work` on one core: bytes / core_bandwidth(level) + Σ_k level_bytes[k] /
/// core_bandwidth(k). Split traffic is summed, not overlapped: the levels' transfers are taken to
/// follow one another (docs/roofline.md says why).
double memory_time(const NodeSpec& node, const ComputeWork& work, std::size_t level, int active_cores);

/// Time of `work` on one core: max(total_flops / perf_per_core, memory_time).
double roofline_time(const NodeSpec& node, const ComputeWork& work, std::size_t level, int active_cores);

}  // namespace augur::machines
