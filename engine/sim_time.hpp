// Simulated time and the identifiers shared by every part of the engine.
#pragma once
#include <cstdint>
#include <limits>

namespace augur::engine {

/// Simulated time in seconds. Doubles keep every model formula exact to the last printed digit
/// and are deterministic because the scheduler fixes the order of every operation.
using SimTime = double;

/// Index of a logical process (a simulated processor or MPI rank), 0-based.
using LpId = std::uint32_t;

/// "No LP" / "any source" marker for peers.
inline constexpr std::int32_t any_peer = -1;
/// "Any tag" marker.
inline constexpr std::int32_t any_tag = std::numeric_limits<std::int32_t>::min();

inline constexpr SimTime infinite_time = std::numeric_limits<SimTime>::infinity();

}  // namespace augur::engine
