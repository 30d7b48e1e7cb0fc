// The code base's one edit distance, for "did you mean" (command line, scenario keys, machine
// parameters, trace actions).
#pragma once
#include <cstddef>
#include <string_view>

namespace augur::engine {

/// Optimal-string-alignment distance between `a` and `b`: insertions, deletions, substitutions
/// and transpositions of adjacent characters each count as one edit ("latncy" → "latency": 1,
/// "rnu" → "run": 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace augur::engine
