// The cluster tree of the DVM Predictor 3.1 (spec 3.3, 6.6): named clusters made of sub-clusters,
// each with its own communication channels, down to processors. Text notation and validation.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/sim_time.hpp"

namespace augur::machines {

/// One cluster definition as written in the `clusters` parameter of `dvm_cluster`.
/// Either a processor (`parts` empty, `power` set) or a cluster of sub-clusters with its network.
struct ClusterDefinition {
  /// `count` copies of the cluster named `name`.
  struct Part {
    std::int64_t count = 1;
    std::string name;
  };
  std::string name;
  std::vector<Part> parts;         ///< empty: a processor
  double power = 1;                ///< processor only: speed relative to the tracing processor
  std::string comm = "ethernet";   ///< ethernet | transputer | myrinet (3.1 prices all alike)
  int channels = 1;                ///< messages that can move at once (myrinet(n): n)
  engine::SimTime start_time = 0;  ///< TStart, s
  engine::SimTime byte_time = 0;   ///< TByte, s per byte

  bool is_processor() const { return parts.empty(); }
};

/// Parses the `clusters` notation: definitions separated by `;` or new lines, the first one is
/// the whole machine:
///   `NAME = {K x SUB, SUB, …} COMM START BYTE`  (COMM = ethernet | transputer | myrinet(n),
///                                                START, BYTE = times such as 7us, 0.004us)
///   `NAME = POWER`                              (a processor)
/// Checks that every sub-cluster is defined, that the tree has no cycle, and that every
/// definition is used. Throws ParamError with a message naming the defect.
std::vector<ClusterDefinition> parse_cluster_tree(std::string_view text);

/// The canonical text of `definitions` (one line, definitions separated by "; "); parses back
/// to exactly the same values.
std::string format_cluster_tree(const std::vector<ClusterDefinition>& definitions);

/// Number of processors (leaves) of the tree rooted at the first definition; throws ParamError
/// above `limit`.
std::int64_t cluster_tree_processors(const std::vector<ClusterDefinition>& definitions, std::int64_t limit);

/// The largest number of processors a dvm_cluster machine may describe.
inline constexpr std::int64_t max_cluster_processors = std::int64_t{1} << 22;

}  // namespace augur::machines
