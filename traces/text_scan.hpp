// Word-at-a-time scanning of trace text, shared by the readers (TI actions, Lib-DVM lines):
// eight characters per step while eight remain in the view, then one by one (never a read past
// the view's end).
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

namespace augur::traces {

/// The `Word` at `at` (any alignment).
template <typename Word>
Word load_word(const char* at) {
  Word word;
  std::memcpy(&word, at, sizeof word);
  return word;
}

namespace detail {

/// The high bit of each byte of `word` that equals `c` — exact for the lowest such byte (borrows
/// of (x − 0x01…01) & ~x & 0x80…80 only reach the bytes above the first zero byte of x), which is
/// all the scans below read.
constexpr std::uint64_t bytes_equal(std::uint64_t word, char c) {
  constexpr std::uint64_t ones = 0x0101010101010101;
  constexpr std::uint64_t highs = 0x8080808080808080;
  const std::uint64_t x = word ^ (ones * static_cast<unsigned char>(c));
  return (x - ones) & ~x & highs;
}

}  // namespace detail

/// The first character of [p, end) that is one of `stops`, or `end`.
template <char... stops>
const char* find_first_of(const char* p, const char* end) {
  if constexpr (std::endian::native == std::endian::little) {
    while (end - p >= 8) {
      const auto word = load_word<std::uint64_t>(p);
      const std::uint64_t found = (detail::bytes_equal(word, stops) | ...);
      if (found != 0) return p + (std::countr_zero(found) >> 3);
      p += 8;
    }
  }
  while (p != end && ((*p != stops) && ...)) ++p;
  return p;
}

/// A blank of trace text: a space or a tab (the readers' field separator).
constexpr bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// The first blank (space or tab) in [p, end), or `end`.
inline const char* find_blank(const char* p, const char* end) { return find_first_of<' ', '\t'>(p, end); }

}  // namespace augur::traces
