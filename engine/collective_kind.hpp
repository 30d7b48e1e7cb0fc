// The collective operations of the engine's event vocabulary (spec section 4.2).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace augur::engine {

/// Kinds of collective operation, shared by the program models and the machine models.
enum class CollectiveKind : std::uint8_t {
  barrier,
  bcast,
  reduce,
  allreduce,
  gather,
  gatherv,
  scatter,
  scatterv,
  allgather,
  allgatherv,
  alltoall,
  alltoallv,
  reduce_scatter,
  scan,
  exscan,
};

/// The snake_case name of a collective kind ("allreduce").
std::string_view to_string(CollectiveKind kind);
/// Parses a snake_case name; nullopt when unknown.
std::optional<CollectiveKind> collective_kind_from_string(std::string_view name);

}  // namespace augur::engine
