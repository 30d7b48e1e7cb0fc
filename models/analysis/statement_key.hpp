// A statement of a DVM program, (FILE= id, LINE=) in one number: made by the DVM program model
// for each call it replays, read back by the DVM wait-state analysis for its regions.
#pragma once
#include <cstdint>

namespace augur::models::analysis {

/// The low 40 bits hold the line, the high 24 the file id.
constexpr std::uint64_t statement_line_mask = (std::uint64_t{1} << 40) - 1;

constexpr std::uint64_t statement_key(std::uint32_t file, std::int64_t line) {
  return (std::uint64_t{file} << 40) | (static_cast<std::uint64_t>(line) & statement_line_mask);
}
constexpr std::uint32_t statement_file(std::uint64_t key) { return static_cast<std::uint32_t>(key >> 40); }
constexpr std::int64_t statement_line(std::uint64_t key) {
  return static_cast<std::int64_t>(key & statement_line_mask);
}

}  // namespace augur::models::analysis
