// The benchmark workload of issue 4 as an MpTraceSource generated on the fly (no files): P ranks
// × I iterations of compute, an eager ring exchange and a periodic allreduce. tools/bench/ti_gen
// writes the same actions as a SimGrid TI trace; both are defined here, once.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "traces/mp_record.hpp"

namespace augur::traces::synthetic {

/// The size of the synthetic workload: `P=<ranks>,I=<iterations>`.
///
/// Rank r's actions (TI lines as tools/bench/ti_gen writes them, line numbers 1-based):
///   line 1              `r init`
///   per iteration i:    `r compute <(1 + r mod 4)·1e6>`       (1..4 ms at 1 Gflop/s)
///                       `r irecv <(r-1+P) mod P> 0 1000 6`     (1000 × MPI_BYTE from the left)
///                       `r isend <(r+1) mod P> 0 1000 6`       (1000 × MPI_BYTE to the right)
///                       `r waitall 2`
///                       `r allreduce 1 0 0 ` when i mod 10 = 9 (1 × MPI_DOUBLE = 8 bytes)
///   last line           `r finalize`
/// The ring cannot deadlock: both transfers are non-blocking and completed by one waitall (and
/// 1000 bytes are under every eager threshold anyway).
struct SyntheticSpec {
  std::int32_t ranks = 1;        ///< P ≥ 1
  std::uint32_t iterations = 0;  ///< I ≥ 0
};

/// Parses "P=1000000,I=10" (keys in any order, both required, decimal values). Throws
/// TraceError naming `synthetic:<text>` and the defect.
SyntheticSpec parse_synthetic_spec(std::string_view text);

/// The canonical spec text, "P=64,I=200".
std::string to_string(const SyntheticSpec& spec);

/// Actions of one rank: 2 + 4·I + ⌊I/10⌋ (init, 4 per iteration, the allreduces, finalize).
std::uint64_t synthetic_actions_per_rank(const SyntheticSpec& spec);

/// Actions of the whole trace: P × synthetic_actions_per_rank.
std::uint64_t synthetic_action_count(const SyntheticSpec& spec);

/// The workload as a trace source: each rank's cursor is its next line number (8 bytes per
/// rank, nothing else per rank), so a million ranks cost 8 MB. Records are exactly those the
/// TI reader produces from ti_gen's files, `line` included.
std::unique_ptr<MpTraceSource> make_synthetic_trace(const SyntheticSpec& spec);

}  // namespace augur::traces::synthetic
