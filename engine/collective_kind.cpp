// Names of the collective kinds: the snake_case spelling used in scenarios, reports and the
// collective algorithm registry.
#include "engine/collective_kind.hpp"

#include <array>
#include <utility>

namespace augur::engine {
namespace {

// One entry per enumerator, in enumerator order (checked by the static_assert below).
constexpr std::array<std::pair<CollectiveKind, std::string_view>, 15> kind_names{{
    {CollectiveKind::barrier, "barrier"},
    {CollectiveKind::bcast, "bcast"},
    {CollectiveKind::reduce, "reduce"},
    {CollectiveKind::allreduce, "allreduce"},
    {CollectiveKind::gather, "gather"},
    {CollectiveKind::gatherv, "gatherv"},
    {CollectiveKind::scatter, "scatter"},
    {CollectiveKind::scatterv, "scatterv"},
    {CollectiveKind::allgather, "allgather"},
    {CollectiveKind::allgatherv, "allgatherv"},
    {CollectiveKind::alltoall, "alltoall"},
    {CollectiveKind::alltoallv, "alltoallv"},
    {CollectiveKind::reduce_scatter, "reduce_scatter"},
    {CollectiveKind::scan, "scan"},
    {CollectiveKind::exscan, "exscan"},
}};

constexpr bool names_in_enumerator_order() {
  for (std::size_t i = 0; i < kind_names.size(); ++i)
    if (static_cast<std::size_t>(kind_names[i].first) != i) return false;
  return true;
}
static_assert(names_in_enumerator_order(), "kind_names must list every kind in enumerator order");
static_assert(static_cast<std::size_t>(CollectiveKind::exscan) + 1 == kind_names.size(),
              "kind_names must cover every collective kind");

}  // namespace

std::string_view to_string(CollectiveKind kind) {
  const auto index = static_cast<std::size_t>(kind);
  return index < kind_names.size() ? kind_names[index].second : std::string_view{"?"};
}

std::optional<CollectiveKind> collective_kind_from_string(std::string_view name) {
  for (const auto& [kind, kind_name] : kind_names)
    if (kind_name == name) return kind;
  return std::nullopt;
}

}  // namespace augur::engine
