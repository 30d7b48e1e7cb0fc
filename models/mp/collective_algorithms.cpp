// The point-to-point algorithms behind expand_collective. The "default" ones reproduce, message
// for message and in posting order, what SimGrid 3.32's smpirun -replay runs under
// smpi/coll-selector:default (checked against its smpi_request log); each names its origin.
// This file: the op writer, bcast and barrier; collective_reductions.cpp, collective_gather_scatter.cpp
// and collective_alltoall.cpp hold the other families.
#include "models/mp/collective_algorithms.hpp"

#include <algorithm>
#include <cstdint>

#include "models/mp/collective_support.hpp"

namespace augur::models::mp::coll {

void OpWriter::put(OpKind kind, int peer, std::uint64_t bytes) {
  out_.push_back(Op{kind, static_cast<std::int32_t>(peer), tag_, 0, bytes, 0.0});
}

void OpWriter::waitall() {
  if (pending_ == 0) return;
  out_.push_back(Op{OpKind::waitall, -1, tag_, 0, 0, 0.0});
  pending_ = 0;
}

void OpWriter::sendrecv(int dst, std::uint64_t send_bytes, int src, std::uint64_t recv_bytes) {
  if (dst == rank_ && src == rank_) return;
  isend(dst, send_bytes);
  irecv(src, recv_bytes);
  waitall();
}

void OpWriter::compute(double flops) {
  if (flops > 0) out_.push_back(Op{OpKind::compute, -1, 0, 0, 0, flops});
}

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

}  // namespace augur::models::mp::coll
