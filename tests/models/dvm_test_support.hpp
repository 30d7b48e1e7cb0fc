// Test support for the DVM data model: blocks and ranges printed as "[lo..hi/step]x[…]" so that
// tests compare them with hand-written expectations.
#pragma once
#include <string>

#include "models/dvm/block.hpp"

namespace augur::test {

/// "[lo..hi]" or "[lo..hi/step]", "empty" for an empty range.
inline std::string show(const models::dvm::Range& r) {
  if (r.empty()) return "empty";
  std::string s = "[" + std::to_string(r.lo) + ".." + std::to_string(r.hi);
  if (r.step != 1) s += "/" + std::to_string(r.step);
  return s + "]";
}

/// The ranges of every dimension joined by "x", "empty" for an empty block.
inline std::string show(const models::dvm::Block& b) {
  if (b.empty()) return "empty";
  std::string s;
  for (int d = 0; d < b.rank(); ++d) s += (d ? "x" : "") + show(b.dim(d));
  return s;
}

}  // namespace augur::test
