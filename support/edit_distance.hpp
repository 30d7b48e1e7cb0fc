// The code base's one edit distance and "did you mean" (command line, scenario keys, machine
// parameters, trace actions).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace augur::support {

/// Optimal-string-alignment distance between `a` and `b`: insertions, deletions, substitutions
/// and transpositions of adjacent characters each count as one edit ("latncy" → "latency": 1,
/// "rnu" → "run": 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The nearest of `candidates` to `word` by edit distance, or "" when none is close.
/// Close: an edit distance <= max(2, |word| / 3) (the first of equals wins); failing that, the
/// only candidate that starts with a word of 3 or more letters ("loggp").
std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates);

/// "; did you mean 'x'?" when `nearest_name` finds x among `candidates`, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace augur::support
