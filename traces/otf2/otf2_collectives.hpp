// Private to the OTF2 reader: an MpiCollectiveEnd event as the MpRecord the replay runs.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <otf2/otf2.h>

#include "traces/mp_record.hpp"

namespace augur::traces::otf2 {

struct CollectiveRecord {
  MpRecord rec;                       ///< kind, comm, root (a world rank), bytes, bytes2
  std::vector<std::uint64_t> counts;  ///< per-rank bytes of reduce_scatter
  bool replayed = true;               ///< false: nothing to replay (MPI_COMM_SELF, handle operations)
};

/// "MPI_Bcast", … for messages.
std::string_view collective_name(OTF2_CollectiveOp op);

/// The record of collective `op` on communicator `comm` (its id in the records) of world ranks
/// `members` (empty: MPI_COMM_SELF). `root` is a rank of the communicator, recorded as its world rank; `sent` and
/// `received` are this rank's buffer sizes in bytes (count × datatype size, as EZTrace writes them). The v-collectives
/// become their regular forms with this rank's size for every rank. False with `problem` set when the event cannot be
/// replayed.
bool collective_record(OTF2_CollectiveOp op, const std::vector<int>& members, std::int32_t comm, std::uint32_t root,
                       std::uint64_t sent, std::uint64_t received, CollectiveRecord& out, std::string& problem);

}  // namespace augur::traces::otf2
