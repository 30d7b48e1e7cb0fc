// SimGrid time-independent (TI) traces (spec section 3.2; ../shared/ti-samples/README.md):
// an index file (one path per rank) or one shared file, read streaming.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "traces/mp_record.hpp"

namespace augur::traces::ti {

/// Opens a TI trace. `path` is either an index file (line r = path of rank r's trace, relative
/// paths resolved against the index's folder first, then the working directory) or a trace file
/// holding the actions of all ranks (then the rank count is 1 + the largest rank seen).
/// Throws TraceError.
std::unique_ptr<MpTraceSource> open_ti_trace(const std::string& path);

/// Size in bytes of SMPI datatype id `id` (SimGrid 3.32 table); 0 when unknown.
unsigned datatype_size(int id);

}  // namespace augur::traces::ti
