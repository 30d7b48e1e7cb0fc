// Private to models/analysis: the hash of the phase signatures, shared by mp_characteristics.cpp
// (signing calls) and mp_phases.cpp (grouping phases by signature).
#pragma once
#include <cstdint>

namespace augur::models::analysis {

// One step of the phase signatures' hash (multiply, then fold the high bits down).
inline std::uint64_t mix(std::uint64_t h, std::uint64_t x) {
  h = (h ^ x) * 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}
constexpr std::uint64_t signature_seed = 0x6a09e667f3bcc908ULL;

}  // namespace augur::models::analysis
