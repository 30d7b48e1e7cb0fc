// Private to models/mp: the point-to-point algorithms behind expand_collective, one function per
// algorithm, and the op writer they share. Each function writes the ops of one rank.
#pragma once
#include <cstdint>
#include <vector>

#include "models/mp/collectives.hpp"
#include "models/mp/mp_op.hpp"

namespace augur::models::mp::coll {

/// Writes the ops of one rank for one collective with the collective's tag, and keeps count of
/// the isend/irecv requests that the next waitall completes.
class OpWriter {
 public:
  OpWriter(std::vector<Op>& out, int rank, std::int32_t tag) : out_(out), rank_(rank), tag_(tag) {}

  /// Blocking MPI_Send (eager or rendezvous by size, decided by the executor).
  void send(int dst, std::uint64_t bytes) { put(OpKind::send, dst, bytes); }
  /// Blocking MPI_Recv.
  void recv(int src, std::uint64_t bytes) { put(OpKind::recv, src, bytes); }
  /// MPI_Isend; completed by the next waitall().
  void isend(int dst, std::uint64_t bytes) {
    put(OpKind::isend, dst, bytes);
    ++pending_;
  }
  /// MPI_Irecv; completed by the next waitall().
  void irecv(int src, std::uint64_t bytes) {
    put(OpKind::irecv, src, bytes);
    ++pending_;
  }
  /// MPI_Waitall over the requests started since the last waitall; writes nothing when there
  /// are none (SMPI waits on an empty request array without cost).
  void waitall();
  /// MPI_Sendrecv as SMPI 3.32 runs it (Request::sendrecv): isend, irecv, waitall; a local copy,
  /// i.e. no op at all, when both peers are this rank.
  void sendrecv(int dst, std::uint64_t send_bytes, int src, std::uint64_t recv_bytes);
  /// Local computation (flops); nothing for a non-positive amount.
  void compute(double flops);

  int rank() const { return rank_; }

 private:
  void put(OpKind kind, int peer, std::uint64_t bytes);

  std::vector<Op>& out_;
  int rank_;
  std::int32_t tag_;
  int pending_ = 0;
};

/// One algorithm: writes the ops of rank `w.rank()` of `processors` for `call`.
using AlgorithmFn = void (*)(const CollectiveCall& call, int processors, OpWriter& w);

/// The alltoall algorithms Open MPI's decision table chooses between.
enum class AlltoallChoice : std::uint8_t { basic_linear, pairwise, bruck };

/// Open MPI's fixed decision for alltoall (coll_tuned_decision_fixed, as imported into SimGrid
/// 3.32's smpi_openmpi_selector.cpp, "Updated 02/2022"): by communicator size and the bytes
/// sent to each peer. "linear_sync" and "two_proc" are basic_linear in SimGrid.
AlltoallChoice ompi_alltoall_choice(std::uint64_t block_bytes, int processors);

// ---- bcast ----
void bcast_binomial(const CollectiveCall& call, int processors, OpWriter& w);
void bcast_flat(const CollectiveCall& call, int processors, OpWriter& w);
void bcast_scatter_allgather(const CollectiveCall& call, int processors, OpWriter& w);
// ---- reduce ----
void reduce_default(const CollectiveCall& call, int processors, OpWriter& w);
void reduce_flat(const CollectiveCall& call, int processors, OpWriter& w);
void reduce_binomial(const CollectiveCall& call, int processors, OpWriter& w);
// ---- allreduce ----
void allreduce_default(const CollectiveCall& call, int processors, OpWriter& w);
void allreduce_recursive_doubling(const CollectiveCall& call, int processors, OpWriter& w);
void allreduce_ring(const CollectiveCall& call, int processors, OpWriter& w);
// ---- barrier ----
void barrier_default(const CollectiveCall& call, int processors, OpWriter& w);
void barrier_dissemination(const CollectiveCall& call, int processors, OpWriter& w);
void barrier_binomial(const CollectiveCall& call, int processors, OpWriter& w);
// ---- alltoall ----
void alltoall_default(const CollectiveCall& call, int processors, OpWriter& w);
void alltoall_pairwise(const CollectiveCall& call, int processors, OpWriter& w);
void alltoall_bruck(const CollectiveCall& call, int processors, OpWriter& w);
void alltoall_basic_linear(const CollectiveCall& call, int processors, OpWriter& w);
// ---- alltoallv ----
void alltoallv_default(const CollectiveCall& call, int processors, OpWriter& w);
void alltoallv_pairwise(const CollectiveCall& call, int processors, OpWriter& w);
// ---- gather, gatherv ----
void gather_default(const CollectiveCall& call, int processors, OpWriter& w);
void gather_flat(const CollectiveCall& call, int processors, OpWriter& w);
void gather_binomial(const CollectiveCall& call, int processors, OpWriter& w);
void gatherv_default(const CollectiveCall& call, int processors, OpWriter& w);
void gatherv_flat(const CollectiveCall& call, int processors, OpWriter& w);
// ---- scatter, scatterv ----
void scatter_default(const CollectiveCall& call, int processors, OpWriter& w);
void scatter_flat(const CollectiveCall& call, int processors, OpWriter& w);
void scatter_binomial(const CollectiveCall& call, int processors, OpWriter& w);
void scatterv_default(const CollectiveCall& call, int processors, OpWriter& w);
void scatterv_flat(const CollectiveCall& call, int processors, OpWriter& w);
// ---- allgather, allgatherv ----
void allgather_default(const CollectiveCall& call, int processors, OpWriter& w);
void allgather_ring(const CollectiveCall& call, int processors, OpWriter& w);
void allgather_recursive_doubling(const CollectiveCall& call, int processors, OpWriter& w);
void allgatherv_default(const CollectiveCall& call, int processors, OpWriter& w);
void allgatherv_ring(const CollectiveCall& call, int processors, OpWriter& w);
// ---- reduce_scatter ----
void reduce_scatter_default(const CollectiveCall& call, int processors, OpWriter& w);
void reduce_scatter_reduce_then_scatter(const CollectiveCall& call, int processors, OpWriter& w);
void reduce_scatter_pairwise(const CollectiveCall& call, int processors, OpWriter& w);
void reduce_scatter_recursive_doubling(const CollectiveCall& call, int processors, OpWriter& w);
// ---- scan, exscan (same communication; the result differs, not the messages) ----
void scan_default(const CollectiveCall& call, int processors, OpWriter& w);
void scan_chain(const CollectiveCall& call, int processors, OpWriter& w);
void scan_recursive_doubling(const CollectiveCall& call, int processors, OpWriter& w);

}  // namespace augur::models::mp::coll
