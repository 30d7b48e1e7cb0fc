// Limits every input is checked against before anything is allocated for it.
#pragma once
#include <cstdint>

namespace augur::engine {

/// The most logical processes (processors, ranks) a run may have: every LP costs a few hundred
/// bytes of state in the engine and the analyzers, so 2^24 of them take gigabytes already.
inline constexpr std::uint32_t max_lps = 1u << 24;

}  // namespace augur::engine
