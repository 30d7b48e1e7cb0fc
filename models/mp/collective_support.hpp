// Private to models/mp: the rank arithmetic and byte counting the collective algorithms share
// (collective_*.cpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "models/mp/collectives.hpp"

namespace augur::models::mp::coll {

using Bytes = std::uint64_t;

/// Bytes received from each peer: recv_bytes, or send_bytes when the trace gave no receive size.
inline Bytes per_source(const CollectiveCall& call) { return call.recv_bytes != 0 ? call.recv_bytes : call.send_bytes; }

inline Bytes at_or(std::span<const Bytes> values, int index, Bytes fallback) {
  const auto i = static_cast<std::size_t>(index);
  return i < values.size() ? values[i] : fallback;
}

/// a mod p in [0, p).
inline int wrap(int a, int p) { return ((a % p) + p) % p; }

/// Rank numbering relative to the root (the root is 0), as every rooted tree algorithm uses it.
inline int relative(int rank, int root, int p) { return wrap(rank - root, p); }
inline int absolute(int relative_rank, int root, int p) { return wrap(relative_rank + root, p); }

inline bool is_power_of_two(int p) { return p > 0 && (p & (p - 1)) == 0; }

inline int largest_power_of_two_at_most(int p) {
  int pof2 = 1;
  while (pof2 * 2 <= p) pof2 *= 2;
  return pof2;
}

inline int floor_log2(int x) {
  int k = 0;
  while (x > 1) {
    x >>= 1;
    ++k;
  }
  return k;
}

inline Bytes times(int blocks, Bytes block) { return static_cast<Bytes>(blocks) * block; }

/// The per-rank byte counts of a v-collective or reduce_scatter (recv_counts, or every rank
/// receiving per_source(call) when no counts were given).
inline std::vector<Bytes> rank_counts(const CollectiveCall& call, int p) {
  std::vector<Bytes> counts(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) counts[static_cast<std::size_t>(i)] = at_or(call.recv_counts, i, per_source(call));
  return counts;
}

inline Bytes sum_range(const std::vector<Bytes>& counts, int from, int to) {
  Bytes sum = 0;
  for (int j = std::max(from, 0); j < std::min(to, static_cast<int>(counts.size())); ++j)
    sum += counts[static_cast<std::size_t>(j)];
  return sum;
}

inline CollectiveCall with_root(const CollectiveCall& call, int root) {
  CollectiveCall copy = call;
  copy.root = root;
  return copy;
}

}  // namespace augur::models::mp::coll
