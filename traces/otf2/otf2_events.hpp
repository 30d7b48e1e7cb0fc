// Private to the OTF2 reader: one MPI rank's events turned into MpRecords, read in bounded
// chunks through the OTF2 library's event callbacks.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include <otf2/otf2.h>

#include "traces/mp_record.hpp"
#include "traces/otf2/otf2_definitions.hpp"

namespace augur::traces::otf2 {

class Otf2RankStream {
 public:
  /// `flops_per_second`: the recording machine's speed, turning recorded compute durations into
  /// flops (unused for the compute a flop counter measures). `file`: the name errors give.
  Otf2RankStream(const Otf2Definitions& defs, int rank, double flops_per_second, std::string file);
  ~Otf2RankStream();
  Otf2RankStream(const Otf2RankStream&) = delete;
  Otf2RankStream& operator=(const Otf2RankStream&) = delete;

  /// Reads events through `evt` of `reader` from now on (the stream must not move afterwards).
  void attach(OTF2_Reader* reader, OTF2_EvtReader* evt);
  /// The next record of the rank; false at its end. Throws TraceError("file:event: error: …").
  bool next(MpRecord& out);
  const std::string& file() const;
  /// Receive requests the trace never completed, left out of the replay (EZTrace 2.0 writes no
  /// completion events).
  std::uint64_t dropped_receives() const;

  struct State;  ///< defined in otf2_events.cpp, where the event callbacks use it

 private:
  std::unique_ptr<State> state_;
};

}  // namespace augur::traces::otf2
