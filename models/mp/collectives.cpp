// Expansion of collective operations into point-to-point ops: the algorithm registry (one
// explicit list per collective kind, "default" first) and the dispatch that adds the replay's
// reduction compute.
#include "models/mp/collectives.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <stdexcept>

#include "models/mp/collective_algorithms.hpp"

namespace augur::models::mp {
namespace {

using engine::CollectiveKind;

/// One selectable algorithm of one collective kind.
struct Algorithm {
  std::string_view name;
  coll::AlgorithmFn run;
};

// "default" is what SimGrid 3.32 runs with smpi/coll-selector:default (sources named in
// collective_algorithms.cpp); the others are the classic alternatives.
constexpr std::array<Algorithm, 4> bcast_algorithms{{
    {"default", coll::bcast_binomial},
    {"binomial", coll::bcast_binomial},
    {"flat", coll::bcast_flat},
    {"scatter_allgather", coll::bcast_scatter_allgather},
}};
constexpr std::array<Algorithm, 3> reduce_algorithms{{
    {"default", coll::reduce_default},
    {"flat", coll::reduce_flat},
    {"binomial", coll::reduce_binomial},
}};
constexpr std::array<Algorithm, 3> allreduce_algorithms{{
    {"default", coll::allreduce_default},
    {"recursive_doubling", coll::allreduce_recursive_doubling},
    {"ring", coll::allreduce_ring},
}};
constexpr std::array<Algorithm, 3> barrier_algorithms{{
    {"default", coll::barrier_default},
    {"dissemination", coll::barrier_dissemination},
    {"binomial", coll::barrier_binomial},
}};
constexpr std::array<Algorithm, 4> alltoall_algorithms{{
    {"default", coll::alltoall_default},
    {"pairwise", coll::alltoall_pairwise},
    {"bruck", coll::alltoall_bruck},
    {"basic_linear", coll::alltoall_basic_linear},
}};
constexpr std::array<Algorithm, 2> alltoallv_algorithms{{
    {"default", coll::alltoallv_default},
    {"pairwise", coll::alltoallv_pairwise},
}};
constexpr std::array<Algorithm, 3> gather_algorithms{{
    {"default", coll::gather_default},
    {"flat", coll::gather_flat},
    {"binomial", coll::gather_binomial},
}};
constexpr std::array<Algorithm, 2> gatherv_algorithms{{
    {"default", coll::gatherv_default},
    {"flat", coll::gatherv_flat},
}};
constexpr std::array<Algorithm, 3> scatter_algorithms{{
    {"default", coll::scatter_default},
    {"flat", coll::scatter_flat},
    {"binomial", coll::scatter_binomial},
}};
constexpr std::array<Algorithm, 2> scatterv_algorithms{{
    {"default", coll::scatterv_default},
    {"flat", coll::scatterv_flat},
}};
constexpr std::array<Algorithm, 3> allgather_algorithms{{
    {"default", coll::allgather_default},
    {"ring", coll::allgather_ring},
    {"recursive_doubling", coll::allgather_recursive_doubling},
}};
constexpr std::array<Algorithm, 2> allgatherv_algorithms{{
    {"default", coll::allgatherv_default},
    {"ring", coll::allgatherv_ring},
}};
constexpr std::array<Algorithm, 4> reduce_scatter_algorithms{{
    {"default", coll::reduce_scatter_default},
    {"reduce_then_scatter", coll::reduce_scatter_reduce_then_scatter},
    {"pairwise", coll::reduce_scatter_pairwise},
    {"recursive_doubling", coll::reduce_scatter_recursive_doubling},
}};
// scan and exscan exchange the same messages; only the combination of the data differs.
constexpr std::array<Algorithm, 3> scan_algorithms{{
    {"default", coll::scan_default},
    {"chain", coll::scan_chain},
    {"recursive_doubling", coll::scan_recursive_doubling},
}};

std::span<const Algorithm> algorithms_of(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::barrier:
      return barrier_algorithms;
    case CollectiveKind::bcast:
      return bcast_algorithms;
    case CollectiveKind::reduce:
      return reduce_algorithms;
    case CollectiveKind::allreduce:
      return allreduce_algorithms;
    case CollectiveKind::gather:
      return gather_algorithms;
    case CollectiveKind::gatherv:
      return gatherv_algorithms;
    case CollectiveKind::scatter:
      return scatter_algorithms;
    case CollectiveKind::scatterv:
      return scatterv_algorithms;
    case CollectiveKind::allgather:
      return allgather_algorithms;
    case CollectiveKind::allgatherv:
      return allgatherv_algorithms;
    case CollectiveKind::alltoall:
      return alltoall_algorithms;
    case CollectiveKind::alltoallv:
      return alltoallv_algorithms;
    case CollectiveKind::reduce_scatter:
      return reduce_scatter_algorithms;
    case CollectiveKind::scan:
    case CollectiveKind::exscan:
      return scan_algorithms;
  }
  return {};
}

/// SimGrid's replay runs a reduction's comp_flops as a computation after the collective
/// (ReduceAction, AllReduceAction and ReduceScatterAction in smpi_replay.cpp call
/// private_execute_flops after the colls:: call); scan and exscan are treated the same way.
bool computes_after(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::reduce:
    case CollectiveKind::allreduce:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::scan:
    case CollectiveKind::exscan:
      return true;
    default:
      return false;
  }
}

const Algorithm& find_algorithm(CollectiveKind kind, std::string_view name) {
  const auto table = algorithms_of(kind);
  for (const Algorithm& algorithm : table)
    if (algorithm.name == name) return algorithm;
  std::string message = "unknown algorithm '";
  message.append(name).append("' for ").append(engine::to_string(kind)).append("; valid: ");
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (i > 0) message += ", ";
    message.append(table[i].name);
  }
  throw std::invalid_argument(message);
}

}  // namespace

bool has_root(engine::CollectiveKind kind) {
  using engine::CollectiveKind;
  switch (kind) {
    case CollectiveKind::bcast:
    case CollectiveKind::reduce:
    case CollectiveKind::gather:
    case CollectiveKind::gatherv:
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv:
      return true;
    default:
      return false;
  }
}

std::int32_t collective_tag(engine::CollectiveKind kind) { return -10 - static_cast<std::int32_t>(kind); }

std::int32_t collective_tag(engine::CollectiveKind kind, std::int32_t comm) {
  // 15 kinds: tags -10..-24 for the world, then blocks of 16 per communicator.
  static_assert(static_cast<int>(engine::CollectiveKind::exscan) < 16);
  return collective_tag(kind) - 16 * comm;
}

void map_to_communicator(std::span<Op> ops, std::span<const std::int32_t> members, std::int32_t tag) {
  for (Op& op : ops) {
    if (op.kind == OpKind::compute || op.kind == OpKind::sleep) continue;
    op.tag = tag;
    if (op.peer >= 0) op.peer = members[static_cast<std::size_t>(op.peer)];
  }
}

void expand_collective(const CollectiveCall& call, int rank, int processors, std::string_view algorithm,
                       std::vector<Op>& out) {
  const Algorithm& chosen = find_algorithm(call.kind, algorithm);
  if (processors < 1) throw std::invalid_argument("collective on " + std::to_string(processors) + " processors");
  if (rank < 0 || rank >= processors)
    throw std::invalid_argument("rank " + std::to_string(rank) + " outside 0.." + std::to_string(processors - 1));
  if (has_root(call.kind) && (call.root < 0 || call.root >= processors))
    throw std::invalid_argument("root " + std::to_string(call.root) + " outside 0.." + std::to_string(processors - 1));
  coll::OpWriter writer(out, rank, collective_tag(call.kind));
  if (processors > 1) chosen.run(call, processors, writer);
  if (computes_after(call.kind)) writer.compute(call.comp_flops);
}

std::vector<std::string> collective_algorithms(engine::CollectiveKind kind) {
  std::vector<std::string> names;
  for (const Algorithm& algorithm : algorithms_of(kind)) names.emplace_back(algorithm.name);
  return names;
}

bool has_collective_algorithm(engine::CollectiveKind kind, std::string_view name) {
  const auto table = algorithms_of(kind);
  return std::any_of(table.begin(), table.end(), [&](const Algorithm& a) { return a.name == name; });
}

}  // namespace augur::models::mp
