// alltoall and alltoallv, and Open MPI's alltoall decision table (see collective_algorithms.cpp
// for what "default" means).
#include "models/mp/collective_algorithms.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <span>

#include "models/mp/collective_support.hpp"

namespace augur::models::mp::coll {

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

}  // namespace augur::models::mp::coll
