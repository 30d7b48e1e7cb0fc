// The generic part of a logical process: model clock and status. Program models keep the rest
// (queues, requests, cursors) in their own compact per-LP arrays.
#pragma once
#include <cstdint>

#include "engine/event.hpp"
#include "engine/sim_time.hpp"

namespace augur::engine {

/// Engine-side state of one LP. 24 bytes so that a million LPs cost 24 MB here.
struct LogicalProcess {
  SimTime clock = 0;         ///< model clock
  std::uint64_t events = 0;  ///< events emitted so far
  LpStatus status = LpStatus::running;
  bool queued = false;  ///< present in the scheduler's ready queue (engine/ready_queue.hpp)
};
static_assert(sizeof(LogicalProcess) <= 24);

}  // namespace augur::engine
