// Expansion of collective operations into point-to-point algorithms (spec section 4.2, 5):
// SimGrid 3.32's default selector (augur's default for TI traces, so that both tools predict
// the same) and the classic alternatives (binomial tree, recursive doubling, ring, pairwise
// exchange, dissemination, Bruck).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/collective_kind.hpp"
#include "models/mp/mp_op.hpp"

namespace augur::models::mp {

/// One collective call as seen by one rank (sizes in bytes).
struct CollectiveCall {
  engine::CollectiveKind kind = engine::CollectiveKind::barrier;
  int root = 0;
  std::uint64_t send_bytes = 0;                ///< per destination for alltoall; the contribution otherwise
  std::uint64_t recv_bytes = 0;                ///< per source for alltoall/gather/allgather; 0 if not given
  std::span<const std::uint64_t> send_counts;  ///< alltoallv/scatterv: bytes per rank
  std::span<const std::uint64_t> recv_counts;  ///< alltoallv/gatherv/allgatherv/reduce_scatter
  double comp_flops = 0;                       ///< reduction work (reduce, allreduce, scan, reduce_scatter)
};

/// Appends to `out` the ops rank `rank` of `processors` executes for `call` with `algorithm`
/// ("default" = SimGrid 3.32's default selector). Ops use negative tags, one per collective kind,
/// so they never match user messages. Ends with a waitall when isend/irecv ops were used.
/// Throws std::invalid_argument for an unknown algorithm name (the message lists valid ones).
void expand_collective(const CollectiveCall& call, int rank, int processors, std::string_view algorithm,
                       std::vector<Op>& out);

/// Whether `kind` has a root (bcast, reduce, gather(v), scatter(v)).
bool has_root(engine::CollectiveKind kind);

/// The algorithm names accepted for `kind` ("default" first).
std::vector<std::string> collective_algorithms(engine::CollectiveKind kind);
/// Whether `name` is one of them (no list built).
bool has_collective_algorithm(engine::CollectiveKind kind, std::string_view name);

/// The tag of every message `kind` expands into: -10 - kind, one per kind, never
/// engine::any_tag and never a user tag (MPI user tags are non-negative).
std::int32_t collective_tag(engine::CollectiveKind kind);

/// The tag of the messages of `kind` on communicator `comm` (0 = world: collective_tag(kind)):
/// collective_tag(kind) - 16 * comm, so that collectives on different communicators never match
/// each other's messages. `comm` must lie in [0, max_communicators).
std::int32_t collective_tag(engine::CollectiveKind kind, std::int32_t comm);
/// Communicators a collective tag can tell apart.
inline constexpr std::int32_t max_communicators = 1 << 24;

/// Turns the ops of one rank's collective on a communicator, written by expand_collective with
/// communicator ranks, into world ops: each peer p becomes members[p] and each message op gets
/// `tag`. Compute ops are left as they are.
void map_to_communicator(std::span<Op> ops, std::span<const std::int32_t> members, std::int32_t tag);

}  // namespace augur::models::mp
