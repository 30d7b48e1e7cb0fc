// Writes a message-passing trace as a SimGrid 3.32 time-independent trace (the grammar of
// ../shared/ti-samples/README.md), so that SimGrid's replay and augur's TI reader read it.
#pragma once
#include <cstdint>
#include <filesystem>
#include <ostream>

#include "traces/mp_record.hpp"

namespace augur::traces::ti {

/// The TI line of one record of rank `rank` of a trace of `ranks` ranks, without its newline
/// ("3 send 1 7 64 6"). Sizes are written as counts of MPI_BYTE (datatype 6), compute and sleep
/// amounts with the shortest text that reads back to the same double. `spans_world`: the record's
/// communicator has every rank in order (the world, a duplicate, a Cartesian grid of every rank).
/// Throws TraceError (naming `file` and the record's line) for a record TI cannot express: a
/// collective on any other communicator.
std::string ti_line(const MpRecord& rec, int rank, int ranks, const std::string& file, bool spans_world = true);

/// Writes every rank of `source` into folder `out` (created if needed): `trace.txt`, the index,
/// and `rank<r>.txt` per rank, each opening with `init` and closing with `finalize` when the
/// source has none. Collectives on communicators of every rank in order become world
/// collectives; messages on any communicator are written with their world peers (TI matches
/// them by source and tag: equal tags on two communicators between the same ranks may then
/// match differently). Returns the records written. Throws TraceError for what the source or
/// ti_line reject, std::runtime_error when a file cannot be written.
std::uint64_t write_ti_trace(MpTraceSource& source, const std::filesystem::path& out);

}  // namespace augur::traces::ti
