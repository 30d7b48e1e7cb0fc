// Writes the synthetic workload (synthetic_trace.hpp) as a SimGrid TI trace on disk, streamed:
// tools/bench/ti_gen's engine, also used by the test that checks file and on-the-fly records agree.
#pragma once
#include <cstdint>
#include <string>

#include "traces/mp_record.hpp"
#include "traces/synthetic/synthetic_trace.hpp"

namespace augur::bench {

using traces::MpRecord;
using traces::synthetic::SyntheticSpec;

/// The TI line of `record` (a record of the synthetic workload: init, finalize, compute, irecv,
/// isend, waitall, allreduce), without the newline, appended to `out`. Datatypes as in
/// SyntheticSpec: point-to-point sizes as MPI_BYTE counts (id 6), allreduce as MPI_DOUBLE
/// counts (id 0). Throws std::invalid_argument for other kinds or sizes it cannot express.
void append_ti_line(std::string& out, const MpRecord& record);

/// What write_synthetic_ti wrote.
struct WrittenTrace {
  std::string index;             ///< path of the index file
  std::uint64_t actions = 0;     ///< lines of actions in all rank files
  std::uint64_t bytes = 0;       ///< bytes written (compressed size when compressing)
  std::uint64_t text_bytes = 0;  ///< bytes of TI text before compression
};

/// Writes the workload as a SimGrid TI trace into `folder` (created if missing): the index
/// `trace.txt` naming `rank<r>.txt` per line, and the rank files, one at a time (streamed: memory
/// does not depend on P or I). With `zstd_level` > 0 each rank file is `rank<r>.txt.zst`
/// (the index still names `rank<r>.txt`, as in ../shared/ti-samples; augur's reader finds the
/// compressed sibling, smpirun needs `zstd -d` first). Throws std::runtime_error on I/O errors.
WrittenTrace write_synthetic_ti(const SyntheticSpec& spec, const std::string& folder, int zstd_level = 0);

}  // namespace augur::bench
