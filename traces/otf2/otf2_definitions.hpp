// Private to the OTF2 reader: the global definitions of an archive as the replay needs them —
// regions, MPI ranks of locations, communicators as lists of world ranks, the flop counter.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <otf2/otf2.h>

#include "traces/mp_record.hpp"

namespace augur::traces::otf2 {

struct Otf2Region {
  std::string name;
  std::uint32_t line = 0;  ///< first source line, 0 when unknown
  bool mpi = false;        ///< an MPI call (paradigm MPI, or a name starting with "MPI_")
};

/// Where a flop counter (PAPI_FP_OPS or PAPI_DP_OPS) sits in the values of a metric event.
struct Otf2FlopSlot {
  std::uint32_t index = 0;
  bool is_double = false;  ///< the member's value type is a double
};

struct Otf2Definitions {
  double ticks_per_second = 0;
  std::unordered_map<std::uint32_t, Otf2Region> regions;
  std::vector<std::uint64_t> rank_locations;  ///< world rank → location (the MPI COMM_LOCATIONS group)
  std::unordered_map<std::uint64_t, int> rank_of_location;
  /// Communicator → the world rank of each of its ranks; empty for MPI_COMM_SELF.
  std::unordered_map<std::uint32_t, std::vector<int>> comms;
  /// Communicator → its id in the records (MpRecord::comm): 0 for MPI_COMM_WORLD (every rank in
  /// order, no parent), 1, 2, … for the others in the order of their references; none for
  /// MPI_COMM_SELF. `comm_table` lists their members by id (MpTraceSource::communicators()).
  std::unordered_map<std::uint32_t, std::int32_t> comm_ids;
  MpCommunicators comm_table;
  /// Metric (class or instance) → the flop counter among its values.
  std::unordered_map<std::uint32_t, Otf2FlopSlot> flop_metrics;
  std::vector<std::uint64_t> other_locations;  ///< locations that are no MPI rank (threads, …)
};

/// Reads the global definitions of an opened archive. Throws TraceError naming `anchor`.
Otf2Definitions read_otf2_definitions(OTF2_Reader* reader, const std::string& anchor);

/// The last message the OTF2 library reported on this thread (its error callback), or its
/// description of `code`.
std::string otf2_message(OTF2_ErrorCode code);

/// Routes the library's error messages into otf2_message instead of stderr (idempotent).
void capture_otf2_errors();

}  // namespace augur::traces::otf2
