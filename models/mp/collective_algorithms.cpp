// The point-to-point algorithms behind expand_collective. The "default" ones reproduce, message
// for message and in posting order, what SimGrid 3.32's smpirun -replay runs under
// smpi/coll-selector:default (checked against its smpi_request log); each names its origin.
#include "models/mp/collective_algorithms.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <span>

namespace augur::models::mp::coll {

void OpWriter::put(OpKind kind, int peer, std::uint64_t bytes) {
  out_.push_back(Op{kind, static_cast<std::int32_t>(peer), tag_, bytes, 0.0});
}

void OpWriter::waitall() {
  if (pending_ == 0) return;
  out_.push_back(Op{OpKind::waitall, -1, tag_, 0, 0.0});
  pending_ = 0;
}

void OpWriter::sendrecv(int dst, std::uint64_t send_bytes, int src, std::uint64_t recv_bytes) {
  if (dst == rank_ && src == rank_) return;
  isend(dst, send_bytes);
  irecv(src, recv_bytes);
  waitall();
}

void OpWriter::compute(double flops) {
  if (flops > 0) out_.push_back(Op{OpKind::compute, -1, 0, 0, flops});
}

namespace {

using Bytes = std::uint64_t;

/// Bytes received from each peer: recv_bytes, or send_bytes when the trace gave no receive size.
Bytes per_source(const CollectiveCall& call) { return call.recv_bytes != 0 ? call.recv_bytes : call.send_bytes; }

Bytes at_or(std::span<const Bytes> values, int index, Bytes fallback) {
  const auto i = static_cast<std::size_t>(index);
  return i < values.size() ? values[i] : fallback;
}

/// a mod p in [0, p).
int wrap(int a, int p) { return ((a % p) + p) % p; }

/// Rank numbering relative to the root (the root is 0), as every rooted tree algorithm uses it.
int relative(int rank, int root, int p) { return wrap(rank - root, p); }
int absolute(int relative_rank, int root, int p) { return wrap(relative_rank + root, p); }

bool is_power_of_two(int p) { return p > 0 && (p & (p - 1)) == 0; }

int largest_power_of_two_at_most(int p) {
  int pof2 = 1;
  while (pof2 * 2 <= p) pof2 *= 2;
  return pof2;
}

int floor_log2(int x) {
  int k = 0;
  while (x > 1) {
    x >>= 1;
    ++k;
  }
  return k;
}

Bytes times(int blocks, Bytes block) { return static_cast<Bytes>(blocks) * block; }

/// The per-rank byte counts of a v-collective or reduce_scatter (recv_counts, or every rank
/// receiving per_source(call) when no counts were given).
std::vector<Bytes> rank_counts(const CollectiveCall& call, int p) {
  std::vector<Bytes> counts(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) counts[static_cast<std::size_t>(i)] = at_or(call.recv_counts, i, per_source(call));
  return counts;
}

Bytes sum_range(const std::vector<Bytes>& counts, int from, int to) {
  Bytes sum = 0;
  for (int j = std::max(from, 0); j < std::min(to, static_cast<int>(counts.size())); ++j)
    sum += counts[static_cast<std::size_t>(j)];
  return sum;
}

CollectiveCall with_root(const CollectiveCall& call, int root) {
  CollectiveCall copy = call;
  copy.root = root;
  return copy;
}

}  // namespace

// ---- bcast ------------------------------------------------------------------------------------

// Binomial tree, SimGrid bcast-binomial-tree.cpp (MPICH's, as modified by Faraj & Yuan, ICS 2005):
// a rank receives (blocking) from relative rank vr - lowest_set_bit(vr), then sends (blocking)
// to vr + 2^k for the decreasing powers 2^k below that bit. SimGrid's default bcast.
void bcast_binomial(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  const int vr = relative(w.rank(), root, p);
  int mask = 1;
  for (; mask < p; mask <<= 1) {
    if ((vr & mask) != 0) {
      w.recv(absolute(vr - mask, root, p), call.send_bytes);
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < p) w.send(absolute(vr + mask, root, p), call.send_bytes);
}

// Flat tree (linear): the root posts one isend per rank in relative order and waits for all;
// the others receive (blocking). SimGrid's bcast "flattree" (Faraj & Yuan) sends the same.
void bcast_flat(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.recv(root, call.send_bytes);
    return;
  }
  for (int vr = 1; vr < p; ++vr) w.isend(absolute(vr, root, p), call.send_bytes);
  w.waitall();
}

// Scatter + ring allgather (van de Geijn; MPICH's bcast for long messages,
// MPIR_Bcast_scatter_ring_allgather, Thakur, Rabenseifner & Gropp 2005; SimGrid's
// "scatter_LR_allgather"): the message is cut into P chunks of ceil(n/P) bytes, scattered down a
// binomial tree (blocking), then every rank passes chunks to its right neighbour P-1 times
// (sendrecv, 0-byte chunks included). A receive carries the bytes actually sent (MPICH posts
// a larger buffer).
void bcast_scatter_allgather(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  const int rank = w.rank();
  const int vr = relative(rank, root, p);
  const auto n = static_cast<std::int64_t>(call.send_bytes);
  const std::int64_t chunk = (n + p - 1) / p;
  const auto chunk_bytes = [&](int relative_index) {
    return static_cast<Bytes>(std::clamp<std::int64_t>(n - relative_index * chunk, 0, chunk));
  };
  // Binomial scatter: a rank holds the chunks of its subtree [vr, vr + lowest set bit).
  std::int64_t held = vr == 0 ? n : 0;
  int mask = 1;
  for (; mask < p; mask <<= 1) {
    if ((vr & mask) != 0) {
      const std::int64_t size = std::min<std::int64_t>(n - vr * chunk, mask * chunk);
      if (size > 0) {
        held = size;
        w.recv(absolute(vr - mask, root, p), static_cast<Bytes>(size));
      }
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (vr + mask >= p) continue;
    const std::int64_t size = held - mask * chunk;
    if (size > 0) {
      w.send(absolute(vr + mask, root, p), static_cast<Bytes>(size));
      held -= size;
    }
  }
  // Ring allgather: step i sends chunk j to the right and receives chunk j-1 from the left.
  const int right = wrap(rank + 1, p);
  const int left = wrap(rank - 1, p);
  int j = rank;
  int j_next = left;
  for (int i = 1; i < p; ++i) {
    w.sendrecv(right, chunk_bytes(relative(j, root, p)), left, chunk_bytes(relative(j_next, root, p)));
    j = j_next;
    j_next = wrap(j_next - 1, p);
  }
}

// ---- reduce -----------------------------------------------------------------------------------

// SimGrid 3.32's default reduce (reduce__default -> colls::ireduce in smpi_nbc_impl.cpp; the
// replay passes MPI_OP_NULL, which selects this branch): every other rank isends its buffer to
// the root and waits; the root posts one irecv per rank in increasing rank order, then waits.
void reduce_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.isend(root, call.send_bytes);
  } else {
    for (int src = 0; src < p; ++src)
      if (src != root) w.irecv(src, call.send_bytes);
  }
  w.waitall();
}

// Flat tree with blocking messages, Open MPI's basic linear reduce
// (ompi_coll_base_reduce_intra_basic_linear): the root receives from rank P-1 down to rank 0.
void reduce_flat(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.send(root, call.send_bytes);
    return;
  }
  for (int src = p - 1; src >= 0; --src)
    if (src != root) w.recv(src, call.send_bytes);
}

// Binomial tree, MPICH's MPIR_Reduce_binomial (SimGrid reduce-binomial.cpp): a rank receives
// from vr | 2^k for each clear low bit k, then sends its partial result to vr - lowest_set_bit.
void reduce_binomial(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  const int vr = relative(w.rank(), root, p);
  for (int mask = 1; mask < p; mask <<= 1) {
    if ((vr & mask) == 0) {
      const int child = vr | mask;
      if (child < p) w.recv(absolute(child, root, p), call.send_bytes);
    } else {
      w.send(absolute(vr & ~mask, root, p), call.send_bytes);
      break;
    }
  }
}

// ---- allreduce --------------------------------------------------------------------------------

// SimGrid 3.32's default allreduce (allreduce__default in smpi_default_selector.cpp): the default
// reduce to rank 0, then the default (binomial) bcast from rank 0.
void allreduce_default(const CollectiveCall& call, int p, OpWriter& w) {
  const CollectiveCall at_zero = with_root(call, 0);
  reduce_default(at_zero, p, w);
  bcast_binomial(at_zero, p, w);
}

// Recursive doubling, MPICH's allreduce for short messages (Thakur, Rabenseifner & Gropp 2005;
// SimGrid allreduce-rdb.cpp). Non-power-of-two: among the first 2*rem ranks the even ones hand
// their data to rank+1 (blocking) and sit out; the remaining pof2 ranks exchange whole buffers
// with the rank at distance 2^k (sendrecv); at the end the odd ones send the result back.
void allreduce_recursive_doubling(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  const Bytes n = call.send_bytes;
  const int pof2 = largest_power_of_two_at_most(p);
  const int rem = p - pof2;
  int new_rank = rank - rem;
  if (rank < 2 * rem) {
    if (rank % 2 == 0) {
      w.send(rank + 1, n);
      new_rank = -1;
    } else {
      w.recv(rank - 1, n);
      new_rank = rank / 2;
    }
  }
  if (new_rank != -1) {
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int new_peer = new_rank ^ mask;
      const int peer = new_peer < rem ? new_peer * 2 + 1 : new_peer + rem;
      w.sendrecv(peer, n, peer, n);
    }
  }
  if (rank < 2 * rem) {
    if (rank % 2 != 0)
      w.send(rank - 1, n);
    else
      w.recv(rank + 1, n);
  }
}

// Ring (reduce-scatter then allgather on a ring), Patarasuk & Yuan, "Bandwidth optimal all-reduce
// algorithms for clusters of workstations", JPDC 2009, chunked as Open MPI's
// ompi_coll_base_allreduce_intra_ring: P chunks of n/P bytes, the first n mod P one byte more
// (SimGrid's "lr" uses equal chunks and a separate reduce + bcast of the remainder). Each of
// the 2(P-1) steps is one sendrecv to the right neighbour and from the left one.
void allreduce_ring(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  const Bytes n = call.send_bytes;
  const auto parts = static_cast<Bytes>(p);
  const auto chunk = [&](int index) { return n / parts + (static_cast<Bytes>(index) < n % parts ? 1 : 0); };
  const int right = wrap(rank + 1, p);
  const int left = wrap(rank - 1, p);
  for (int step = 0; step < p - 1; ++step)
    w.sendrecv(right, chunk(wrap(rank - step, p)), left, chunk(wrap(rank - step - 1, p)));
  for (int step = 0; step < p - 1; ++step)
    w.sendrecv(right, chunk(wrap(rank + 1 - step, p)), left, chunk(wrap(rank - step, p)));
}

// ---- barrier ----------------------------------------------------------------------------------

// SimGrid 3.32's default barrier: Open MPI's basic linear barrier (barrier__ompi_basic_linear in
// barrier-ompi.cpp). Ranks > 0 send a 0-byte message to rank 0, then receive one (blocking);
// rank 0 irecvs from 1..P-1 and waits, then isends to 1..P-1 and waits.
void barrier_default(const CollectiveCall&, int p, OpWriter& w) {
  if (w.rank() > 0) {
    w.send(0, 0);
    w.recv(0, 0);
    return;
  }
  for (int i = 1; i < p; ++i) w.irecv(i, 0);
  w.waitall();
  for (int i = 1; i < p; ++i) w.isend(i, 0);
  w.waitall();
}

// Dissemination barrier (Hensgen, Finkel & Manber 1988; Open MPI's "bruck" barrier): in round k
// each rank sendrecvs a 0-byte message to rank+2^k and from rank-2^k.
void barrier_dissemination(const CollectiveCall&, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int distance = 1; distance < p; distance <<= 1)
    w.sendrecv(wrap(rank + distance, p), 0, wrap(rank - distance, p), 0);
}

// Binomial barrier: a 0-byte binomial reduce to rank 0 followed by a 0-byte binomial bcast; the
// same messages as Open MPI's "tree" barrier (SimGrid barrier__ompi_tree).
void barrier_binomial(const CollectiveCall& call, int p, OpWriter& w) {
  CollectiveCall empty = with_root(call, 0);
  empty.send_bytes = 0;
  reduce_binomial(empty, p, w);
  bcast_binomial(empty, p, w);
}

// ---- alltoall ---------------------------------------------------------------------------------

AlltoallChoice ompi_alltoall_choice(Bytes block_bytes, int p) {
  // Open MPI's algorithm numbers: 1 linear, 2 pairwise, 3 modified_bruck, 4 linear_sync,
  // 5 two_proc; SimGrid maps 1, 4 and 5 to alltoall__basic_linear.
  struct Threshold {
    Bytes below;  ///< applies when block_bytes < below
    int algorithm;
  };
  constexpr Bytes rest = std::numeric_limits<Bytes>::max();
  // clang-format off
  static constexpr std::array<Threshold, 10> two{{{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2},
      {4096, 5}, {32768, 2}, {262144, 4}, {1048576, 5}, {rest, 2}}};
  static constexpr std::array<Threshold, 6> under8{{{8192, 4}, {16384, 1}, {65536, 4},
      {524288, 1}, {1048576, 2}, {rest, 1}}};
  static constexpr std::array<Threshold, 2> under16{{{262144, 4}, {rest, 1}}};
  static constexpr std::array<Threshold, 7> under32{{{4, 4}, {512, 3}, {8192, 4}, {32768, 1},
      {262144, 4}, {524288, 1}, {rest, 4}}};
  static constexpr std::array<Threshold, 3> under64{{{512, 3}, {524288, 1}, {rest, 4}}};
  static constexpr std::array<Threshold, 5> under128{{{1024, 3}, {2048, 1}, {4096, 4},
      {262144, 1}, {rest, 2}}};
  static constexpr std::array<Threshold, 4> under256{{{1024, 3}, {2048, 4}, {262144, 1},
      {rest, 2}}};
  static constexpr std::array<Threshold, 4> under512{{{1024, 3}, {8192, 4}, {32768, 1},
      {rest, 2}}};
  static constexpr std::array<Threshold, 6> under1024{{{512, 3}, {8192, 4}, {16384, 1},
      {131072, 4}, {262144, 1}, {rest, 2}}};
  static constexpr std::array<Threshold, 6> under2048{{{512, 3}, {1024, 4}, {2048, 1},
      {16384, 4}, {262144, 1}, {rest, 4}}};
  static constexpr std::array<Threshold, 5> under4096{{{1024, 3}, {4096, 4}, {8192, 1},
      {131072, 4}, {rest, 1}}};
  static constexpr std::array<Threshold, 6> larger{{{2048, 3}, {8192, 4}, {16384, 1},
      {32768, 4}, {65536, 1}, {rest, 4}}};
  // clang-format on

  std::span<const Threshold> table;
  if (p == 2)
    table = two;
  else if (p < 8)
    table = under8;
  else if (p < 16)
    table = under16;
  else if (p < 32)
    table = under32;
  else if (p < 64)
    table = under64;
  else if (p < 128)
    table = under128;
  else if (p < 256)
    table = under256;
  else if (p < 512)
    table = under512;
  else if (p < 1024)
    table = under1024;
  else if (p < 2048)
    table = under2048;
  else if (p < 4096)
    table = under4096;
  else
    table = larger;
  int algorithm = table.back().algorithm;
  for (const Threshold& t : table) {
    if (block_bytes < t.below) {
      algorithm = t.algorithm;
      break;
    }
  }
  switch (algorithm) {
    case 2:
      return AlltoallChoice::pairwise;
    case 3:
      return AlltoallChoice::bruck;
    default:
      return AlltoallChoice::basic_linear;
  }
}

// SimGrid 3.32's default alltoall (alltoall__default -> alltoall__ompi): Open MPI's decision
// table on the bytes sent to each peer (ompi_alltoall_choice).
void alltoall_default(const CollectiveCall& call, int p, OpWriter& w) {
  switch (ompi_alltoall_choice(call.send_bytes, p)) {
    case AlltoallChoice::basic_linear:
      alltoall_basic_linear(call, p, w);
      return;
    case AlltoallChoice::pairwise:
      alltoall_pairwise(call, p, w);
      return;
    case AlltoallChoice::bruck:
      alltoall_bruck(call, p, w);
      return;
  }
}

// Pairwise exchange, SimGrid alltoall-pair.cpp (Faraj & Yuan): for P a power of two, step i
// sendrecvs with rank XOR i (i = 1..P-1; i = 0 is a local copy). SimGrid 3.32 throws for other
// P (so its replay aborts where the decision table picks it); we use Open MPI's pairwise there
// instead (ompi_coll_base_alltoall_intra_pairwise): step i sends to rank+i, receives from rank-i.
void alltoall_pairwise(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  const Bytes in = per_source(call);
  if (is_power_of_two(p)) {
    for (int i = 1; i < p; ++i) w.sendrecv(rank ^ i, call.send_bytes, rank ^ i, in);
    return;
  }
  for (int i = 1; i < p; ++i) w.sendrecv(wrap(rank + i, p), call.send_bytes, wrap(rank - i, p), in);
}

// Bruck et al., "Efficient algorithms for all-to-all communications in multiport
// message-passing systems", IEEE TPDS 1997; SimGrid alltoall-bruck.cpp. ceil(log2 P) steps: in
// step k a rank sendrecvs, to rank+2^k and from rank-2^k, the blocks whose index has bit k set
// (packed). The local rotations before and after are copies (sendrecv with itself).
void alltoall_bruck(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int pof2 = 1; pof2 < p; pof2 <<= 1) {
    int blocks = 0;
    for (int block = 1; block < p; ++block)
      if ((block & pof2) != 0) ++blocks;
    w.sendrecv(wrap(rank + pof2, p), times(blocks, call.send_bytes), wrap(rank - pof2, p),
               times(blocks, call.send_bytes));
  }
}

// Basic linear, SimGrid alltoall-basic-linear.cpp (Open MPI's basic module): irecv from
// rank+1, rank+2, ... (wrapping), then isend to rank-1, rank-2, ... (wrapping), then waitall.
void alltoall_basic_linear(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int i = wrap(rank + 1, p); i != rank; i = wrap(i + 1, p)) w.irecv(i, per_source(call));
  for (int i = wrap(rank - 1, p); i != rank; i = wrap(i - 1, p)) w.isend(i, call.send_bytes);
  w.waitall();
}

// ---- alltoallv --------------------------------------------------------------------------------

// SimGrid 3.32's default alltoallv (alltoallv__default -> colls::ialltoallv): irecv from every
// other rank in increasing order, then isend to every other rank in increasing order, waitall.
// Zero-byte messages are still sent.
void alltoallv_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int i = 0; i < p; ++i)
    if (i != rank) w.irecv(i, at_or(call.recv_counts, i, per_source(call)));
  for (int i = 0; i < p; ++i)
    if (i != rank) w.isend(i, at_or(call.send_counts, i, call.send_bytes));
  w.waitall();
}

// Pairwise exchange, Open MPI's ompi_coll_base_alltoallv_intra_pairwise: step i (1..P-1)
// sendrecvs to rank+i and from rank-i.
void alltoallv_pairwise(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int i = 1; i < p; ++i) {
    const int to = wrap(rank + i, p);
    const int from = wrap(rank - i, p);
    w.sendrecv(to, at_or(call.send_counts, to, call.send_bytes), from, at_or(call.recv_counts, from, per_source(call)));
  }
}

// ---- gather, gatherv --------------------------------------------------------------------------

// SimGrid 3.32's default gather (gather__default -> colls::igather): every other rank isends
// to the root and waits; the root irecvs from each rank in increasing order and waits.
void gather_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.isend(root, call.send_bytes);
  } else {
    for (int src = 0; src < p; ++src)
      if (src != root) w.irecv(src, per_source(call));
  }
  w.waitall();
}

// Flat tree with blocking messages, Open MPI's basic linear gather: the root receives from each
// rank in increasing order.
void gather_flat(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.send(root, call.send_bytes);
    return;
  }
  for (int src = 0; src < p; ++src)
    if (src != root) w.recv(src, per_source(call));
}

// Binomial tree, Open MPI's ompi_coll_base_gather_intra_binomial / MPICH's gather: a rank
// receives the blocks of its children's subtrees (vr + 2^k for each clear low bit), then sends
// its whole subtree, min(lowest set bit, P - vr) blocks, to its parent (blocking).
void gather_binomial(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  const int vr = relative(w.rank(), root, p);
  const Bytes block = vr == 0 ? per_source(call) : call.send_bytes;
  for (int mask = 1; mask < p; mask <<= 1) {
    if ((vr & mask) != 0) {
      w.send(absolute(vr - mask, root, p), times(std::min(mask, p - vr), block));
      return;
    }
    const int child = vr + mask;
    if (child < p) w.recv(absolute(child, root, p), times(std::min(mask, p - child), block));
  }
}

// SimGrid 3.32's gatherv (colls::gatherv -> colls::igatherv; there is no algorithm choice):
// like the default gather with the root's per-rank counts.
void gatherv_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.isend(root, call.send_bytes);
  } else {
    for (int src = 0; src < p; ++src)
      if (src != root) w.irecv(src, at_or(call.recv_counts, src, per_source(call)));
  }
  w.waitall();
}

// Flat tree with blocking messages (Open MPI's basic linear gatherv).
void gatherv_flat(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.send(root, call.send_bytes);
    return;
  }
  for (int src = 0; src < p; ++src)
    if (src != root) w.recv(src, at_or(call.recv_counts, src, per_source(call)));
}

// ---- scatter, scatterv ------------------------------------------------------------------------

// SimGrid 3.32's default scatter (scatter__default -> colls::iscatter): every other rank irecvs
// from the root and waits; the root isends to each rank in increasing order and waits.
void scatter_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.irecv(root, per_source(call));
  } else {
    for (int dst = 0; dst < p; ++dst)
      if (dst != root) w.isend(dst, call.send_bytes);
  }
  w.waitall();
}

// Flat tree with blocking messages, Open MPI's basic linear scatter: the root sends to each
// rank in increasing order.
void scatter_flat(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  if (w.rank() != root) {
    w.recv(root, per_source(call));
    return;
  }
  for (int dst = 0; dst < p; ++dst)
    if (dst != root) w.send(dst, call.send_bytes);
}

// Binomial tree, MPICH's MPIR_Scatter_intra_binomial (Thakur, Rabenseifner & Gropp 2005): the
// mirror of the binomial gather. A rank receives its subtree's blocks from its parent, then
// sends each child (vr + 2^k, decreasing k: largest subtree first; Open MPI's binomial scatter
// sends the same messages smallest first) that child's subtree.
void scatter_binomial(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  const int vr = relative(w.rank(), root, p);
  const Bytes block = vr == 0 ? call.send_bytes : per_source(call);
  int mask = 1;
  for (; mask < p; mask <<= 1) {
    if ((vr & mask) != 0) {
      w.recv(absolute(vr - mask, root, p), times(std::min(mask, p - vr), block));
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    const int child = vr + mask;
    if (child < p) w.send(absolute(child, root, p), times(std::min(mask, p - child), block));
  }
}

// SimGrid 3.32's scatterv (colls::scatterv -> colls::iscatterv; no algorithm choice): like the
// default scatter with the root's per-rank counts.
void scatterv_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  const int rank = w.rank();
  if (rank != root) {
    w.irecv(root, call.recv_bytes != 0 ? call.recv_bytes : at_or(call.send_counts, rank, call.send_bytes));
  } else {
    for (int dst = 0; dst < p; ++dst)
      if (dst != root) w.isend(dst, at_or(call.send_counts, dst, call.send_bytes));
  }
  w.waitall();
}

// Flat tree with blocking messages (Open MPI's basic linear scatterv).
void scatterv_flat(const CollectiveCall& call, int p, OpWriter& w) {
  const int root = call.root;
  const int rank = w.rank();
  if (rank != root) {
    w.recv(root, call.recv_bytes != 0 ? call.recv_bytes : at_or(call.send_counts, rank, call.send_bytes));
    return;
  }
  for (int dst = 0; dst < p; ++dst)
    if (dst != root) w.send(dst, at_or(call.send_counts, dst, call.send_bytes));
}

// ---- allgather, allgatherv --------------------------------------------------------------------

// SimGrid 3.32's default allgather (allgather__default -> colls::iallgather): for every other
// rank in increasing order an isend of the own block and an irecv of that rank's block, then
// waitall.
void allgather_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int other = 0; other < p; ++other) {
    if (other == rank) continue;
    w.isend(other, call.send_bytes);
    w.irecv(other, per_source(call));
  }
  w.waitall();
}

// Ring, MPICH's MPIR_Allgather_intra_ring for long messages (Thakur, Rabenseifner & Gropp 2005):
// P-1 sendrecvs, each passing one block to the right neighbour and taking one from the left
// (SimGrid's allgather "ring" is another pattern: step i exchanges with rank+i and rank-i).
void allgather_ring(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int step = 0; step < p - 1; ++step)
    w.sendrecv(wrap(rank + 1, p), step == 0 ? call.send_bytes : per_source(call), wrap(rank - 1, p), per_source(call));
}

// Recursive doubling, MPICH's allgather for power-of-two sizes (Thakur, Rabenseifner & Gropp
// 2005; SimGrid "rdb"): in step k ranks sendrecv, with rank XOR 2^k, everything gathered so far.
// Other sizes are folded onto the largest power of two pof2 below P (as the recursive-doubling
// allreduce does; MPICH instead forwards inside incomplete subtrees): rank pof2+i first hands
// its block to rank i and finally receives the other P-1 blocks from it (blocking).
void allgather_recursive_doubling(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  const Bytes block = per_source(call);
  const int pof2 = largest_power_of_two_at_most(p);
  const int rem = p - pof2;
  if (rank >= pof2) {
    w.send(rank - pof2, call.send_bytes);
    w.recv(rank - pof2, times(p - 1, block));
    return;
  }
  if (rank < rem) w.recv(rank + pof2, block);
  // Blocks held by the ranks [base, base + size): one each, two for those that folded a partner.
  const auto group_blocks = [&](int base, int size) { return size + std::clamp(rem - base, 0, size); };
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int peer = rank ^ mask;
    w.sendrecv(peer, times(group_blocks(rank & ~(mask - 1), mask), block), peer,
               times(group_blocks(peer & ~(mask - 1), mask), block));
  }
  if (rank < rem) w.send(rank + pof2, times(p - 1, block));
}

// SimGrid 3.32's default allgatherv (allgatherv__default -> colls::iallgatherv): like the
// default allgather, receiving recv_counts[other] from each other rank.
void allgatherv_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int other = 0; other < p; ++other) {
    if (other == rank) continue;
    w.isend(other, call.send_bytes);
    w.irecv(other, at_or(call.recv_counts, other, per_source(call)));
  }
  w.waitall();
}

// Ring, MPICH's allgatherv ring (SimGrid "mpich_ring"): step s passes block rank-s to the right
// neighbour and takes block rank-s-1 from the left.
void allgatherv_ring(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  const auto block = [&](int owner) {
    return owner == rank ? call.send_bytes : at_or(call.recv_counts, owner, per_source(call));
  };
  for (int step = 0; step < p - 1; ++step)
    w.sendrecv(wrap(rank + 1, p), block(wrap(rank - step, p)), wrap(rank - 1, p), block(wrap(rank - step - 1, p)));
}

// ---- reduce_scatter ---------------------------------------------------------------------------

// SimGrid 3.32's default reduce_scatter (reduce_scatter__default in smpi_default_selector.cpp):
// equal counts -> the default reduce of the whole buffer to rank 0, then the default scatterv
// from rank 0; unequal counts -> MPICH's selector (reduce_scatter__mpich with MPI_OP_NULL):
// pairwise above 524288 in total (elements there; bytes here, all we know), else recursive
// doubling.
void reduce_scatter_default(const CollectiveCall& call, int p, OpWriter& w) {
  const auto counts = rank_counts(call, p);
  const bool regular = std::all_of(counts.begin(), counts.end(), [&](Bytes c) { return c == counts[0]; });
  if (regular) {
    reduce_scatter_reduce_then_scatter(call, p, w);
  } else if (sum_range(counts, 0, p) > 524288) {
    reduce_scatter_pairwise(call, p, w);
  } else {
    reduce_scatter_recursive_doubling(call, p, w);
  }
}

// Reduce to rank 0 then scatterv (SimGrid's reduce_scatter__default for equal counts), with the
// default reduce and scatterv patterns.
void reduce_scatter_reduce_then_scatter(const CollectiveCall& call, int p, OpWriter& w) {
  const auto counts = rank_counts(call, p);
  CollectiveCall reduce = with_root(call, 0);
  reduce.send_bytes = sum_range(counts, 0, p);
  reduce_default(reduce, p, w);
  CollectiveCall scatter = with_root(call, 0);
  scatter.send_counts = counts;
  scatter.recv_bytes = counts[static_cast<std::size_t>(w.rank())];
  scatterv_default(scatter, p, w);
}

// Pairwise exchange, MPICH's MPIR_Reduce_scatter pairwise (SimGrid reduce_scatter__mpich_pair):
// step i (1..P-1) sendrecvs, to rank+i its block and from rank-i this rank's block.
void reduce_scatter_pairwise(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  const auto counts = rank_counts(call, p);
  if (sum_range(counts, 0, p) == 0) return;  // MPICH returns MPI_ERR_COUNT without communicating
  for (int i = 1; i < p; ++i) {
    const int dst = wrap(rank + i, p);
    w.sendrecv(dst, counts[static_cast<std::size_t>(dst)], wrap(rank - i, p), counts[static_cast<std::size_t>(rank)]);
  }
}

// Recursive doubling, MPICH's reduce_scatter for non-commutative or irregular cases (SimGrid
// reduce_scatter__mpich_rdb; Thakur, Rabenseifner & Gropp 2005). In step k a rank sendrecvs with
// rank XOR 2^k everything except the blocks of its own aligned subtree of 2^k ranks; when the
// partner subtree is cut short by P, the ranks that got data forward it down a binomial tree to
// those that did not (blocking).
void reduce_scatter_recursive_doubling(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  const auto counts = rank_counts(call, p);
  const Bytes total = sum_range(counts, 0, p);
  for (int mask = 1, level = 0; mask < p; mask <<= 1, ++level) {
    const int peer = rank ^ mask;
    const int peer_tree_root = (peer >> level) << level;
    const int my_tree_root = (rank >> level) << level;
    const Bytes send_bytes = total - sum_range(counts, my_tree_root, my_tree_root + mask);
    const Bytes recv_bytes = total - sum_range(counts, peer_tree_root, peer_tree_root + mask);
    if (peer < p) w.sendrecv(peer, send_bytes, peer, recv_bytes);
    if (peer_tree_root + mask <= p) continue;
    const int completed = p - my_tree_root - mask;  // ranks of this subtree that got data
    int k = floor_log2(mask);
    for (int sub = mask >> 1; sub > 0; sub >>= 1, --k) {
      const int other = rank ^ sub;
      const int tree_root = (rank >> k) << k;
      if (other > rank && rank < tree_root + completed && other >= tree_root + completed)
        w.send(other, recv_bytes);
      else if (other < rank && other < tree_root + completed && rank >= tree_root + completed)
        w.recv(other, recv_bytes);
    }
  }
}

// ---- scan, exscan -----------------------------------------------------------------------------

// SimGrid 3.32's scan and exscan (colls::scan / colls::exscan in smpi_coll.cpp; no algorithm
// choice): every rank irecvs from each lower rank and isends to each higher rank, both in
// increasing order, then waits for all.
void scan_default(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int other = 0; other < rank; ++other) w.irecv(other, call.send_bytes);
  for (int other = rank + 1; other < p; ++other) w.isend(other, call.send_bytes);
  w.waitall();
}

// Linear chain (Open MPI's basic linear scan): receive the prefix from rank-1, send the new
// prefix to rank+1 (blocking).
void scan_chain(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  if (rank > 0) w.recv(rank - 1, call.send_bytes);
  if (rank + 1 < p) w.send(rank + 1, call.send_bytes);
}

// Recursive doubling, MPICH's MPIR_Scan (and MPIR_Exscan): in step k a sendrecv of the partial
// result with rank XOR 2^k when that rank exists.
void scan_recursive_doubling(const CollectiveCall& call, int p, OpWriter& w) {
  const int rank = w.rank();
  for (int mask = 1; mask < p; mask <<= 1) {
    const int peer = rank ^ mask;
    if (peer < p) w.sendrecv(peer, call.send_bytes, peer, call.send_bytes);
  }
}

}  // namespace augur::models::mp::coll
