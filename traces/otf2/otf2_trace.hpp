// OTF2 archives (Score-P, EZTrace) as message-passing traces, through the OTF2 library.
#pragma once
#include <memory>
#include <string>

#include "traces/mp_record.hpp"

namespace augur::traces::otf2 {

/// The speed (flops/s) of the machine a trace was recorded on when its spec names none: the
/// machine models' default cpu_speed, so that a default machine replays recorded compute as is.
inline constexpr double default_recorded_on = 1e9;

/// Opens `spec`: `PATH/traces.otf2` (the anchor file), optionally followed by
/// `,recorded_on=FLOPS` (the recording machine's speed in flops/s; compute = recorded seconds ×
/// FLOPS unless the trace has a PAPI_FP_OPS/PAPI_DP_OPS counter). One rank per location of the
/// MPI locations group. Throws TraceError.
std::unique_ptr<MpTraceSource> open_otf2_trace(const std::string& spec);

}  // namespace augur::traces::otf2
