// The interface a program model implements so that the scheduler can drive it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/observer.hpp"
#include "engine/sim_time.hpp"

namespace augur::engine {

class Scheduler;

/// Result of one step of an LP.
enum class StepResult : std::uint8_t {
  advanced,   ///< the LP did something; it stays runnable at its (new) clock
  blocked,    ///< the LP waits for another LP; someone will call Scheduler::wake
  suspended,  ///< the LP asked to be stepped again at a later time (Scheduler::resume_at called)
  done,       ///< the LP finished its program
};

/// What a blocked LP waits for, for deadlock reports and the stepper.
struct WaitInfo {
  enum class Kind : std::uint8_t { nothing, message, send_match, requests, collective, other };
  Kind kind = Kind::nothing;
  std::vector<std::int32_t> peers;  ///< LPs it waits on (any_peer = any source)
  std::int32_t tag = 0;
  std::string what;  ///< human-readable: "recv from 1 tag 0 (trace rank0.txt:12)"
};

/// A program model: owns the per-LP program state and executes one action per step.
class Program {
 public:
  virtual ~Program() = default;
  /// Executes the next action of `lp` at its clock (the scheduler guarantees no other runnable LP
  /// has an earlier clock). Must not throw for bad input: report through Scheduler::fail.
  virtual StepResult step(LpId lp, Scheduler& scheduler) = 0;
  /// What `lp` (blocked) waits for.
  virtual WaitInfo waits_for(LpId lp) const = 0;
  /// Multi-line description of `lp`'s program state (queue, pending requests, position).
  virtual std::string describe(LpId lp) const = 0;
};

}  // namespace augur::engine
