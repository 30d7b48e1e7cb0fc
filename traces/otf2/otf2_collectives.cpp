// MpiCollectiveEnd events as MpRecords (otf2_collectives.hpp).
#include "traces/otf2/otf2_collectives.hpp"

#include <array>
#include <fmt/format.h>

namespace augur::traces::otf2 {
namespace {

struct OpInfo {
  std::string_view name;
  MpOpKind kind;
  bool replayed;
};

constexpr std::array<OpInfo, 23> ops{{
    {"MPI_Barrier", MpOpKind::barrier, true},
    {"MPI_Bcast", MpOpKind::bcast, true},
    {"MPI_Gather", MpOpKind::gather, true},
    {"MPI_Gatherv", MpOpKind::gather, true},
    {"MPI_Scatter", MpOpKind::scatter, true},
    {"MPI_Scatterv", MpOpKind::scatter, true},
    {"MPI_Allgather", MpOpKind::allgather, true},
    {"MPI_Allgatherv", MpOpKind::allgather, true},
    {"MPI_Alltoall", MpOpKind::alltoall, true},
    {"MPI_Alltoallv", MpOpKind::alltoall, true},
    {"MPI_Alltoallw", MpOpKind::alltoall, true},
    {"MPI_Allreduce", MpOpKind::allreduce, true},
    {"MPI_Reduce", MpOpKind::reduce, true},
    {"MPI_Reduce_scatter", MpOpKind::reduce_scatter, true},
    {"MPI_Scan", MpOpKind::scan, true},
    {"MPI_Exscan", MpOpKind::exscan, true},
    {"MPI_Reduce_scatter_block", MpOpKind::reduce_scatter, true},
    {"create handle", MpOpKind::barrier, false},
    {"destroy handle", MpOpKind::barrier, false},
    {"allocate", MpOpKind::barrier, false},
    {"deallocate", MpOpKind::barrier, false},
    {"create handle and allocate", MpOpKind::barrier, false},
    {"destroy handle and deallocate", MpOpKind::barrier, false},
}};

/// The size every rank moves: the receive buffer for the collectives that receive from a root
/// (a broadcast's root may name only its send buffer), else the send buffer.
std::uint64_t per_rank_bytes(MpOpKind kind, std::uint64_t sent, std::uint64_t received) {
  switch (kind) {
    case MpOpKind::bcast:
    case MpOpKind::scatter:
    case MpOpKind::reduce_scatter:
      return received != 0 ? received : sent;
    default:
      return sent != 0 ? sent : received;
  }
}

}  // namespace

std::string_view collective_name(OTF2_CollectiveOp op) {
  return op < ops.size() ? ops[op].name : std::string_view("unknown collective operation");
}

bool collective_record(OTF2_CollectiveOp op, const std::vector<int>& members, std::int32_t comm, std::uint32_t root,
                       std::uint64_t sent, std::uint64_t received, CollectiveRecord& out, std::string& problem) {
  if (op >= ops.size()) {
    problem = fmt::format("MpiCollectiveEnd: unknown collective operation {}", static_cast<int>(op));
    return false;
  }
  const OpInfo& info = ops[op];
  out = CollectiveRecord{};
  out.replayed = info.replayed && !members.empty();
  if (!out.replayed) return true;
  MpRecord& rec = out.rec;
  rec.kind = info.kind;
  rec.comm = comm;
  if (root != OTF2_COLLECTIVE_ROOT_NONE && root != OTF2_COLLECTIVE_ROOT_SELF) {
    if (root >= members.size()) {
      problem = fmt::format("{}: root {} but the communicator has {} ranks", info.name, root, members.size());
      return false;
    }
    rec.root = members[root];
  }
  const std::uint64_t bytes = per_rank_bytes(info.kind, sent, received);
  rec.bytes = bytes;
  rec.bytes2 = bytes;
  if (info.kind == MpOpKind::reduce_scatter) out.counts.assign(members.size(), bytes);
  return true;
}

}  // namespace augur::traces::otf2
