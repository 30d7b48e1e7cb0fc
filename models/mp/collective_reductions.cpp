// The reducing collectives: reduce, allreduce, reduce_scatter, scan and exscan (see
// collective_algorithms.cpp for what "default" means).
#include "models/mp/collective_algorithms.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/mp/collective_support.hpp"

namespace augur::models::mp::coll {

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
