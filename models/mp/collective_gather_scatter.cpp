// The gathering and scattering collectives: gather(v), scatter(v), allgather(v) (see
// collective_algorithms.cpp for what "default" means).
#include "models/mp/collective_algorithms.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/mp/collective_support.hpp"

namespace augur::models::mp::coll {

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

}  // namespace augur::models::mp::coll
