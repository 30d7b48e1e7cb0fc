// Stepping through a run (spec section 12): break on an event count, a simulated time, an LP or
// an event kind; step N events; print an LP; list blocked LPs; continue. Commands come from any
// std::istream (a terminal or a script), so tests can drive it.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "engine/observer.hpp"
#include "engine/program.hpp"
#include "engine/scheduler.hpp"

namespace augur::engine {

/// The event kind named `name` ("recv", "collective_begin"), or nothing.
std::optional<EventKind> event_kind_from_name(const std::string& name);

/// What the stepper's `print N` shows of LP `id`: clock, status, event count, the program's
/// description (queue, pending requests) and, when blocked, what it waits for; for an LP that does
/// not exist, a line saying so. Call it from the thread running the scheduler, between events.
std::string describe_lp(const Scheduler& scheduler, const Program& program, LpId id);

/// Observer that pauses the run and reads commands.
class Stepper final : public Observer {
 public:
  Stepper(Scheduler& scheduler, const Program& program, std::istream& in, std::ostream& out);
  void on_event(const Event& event) override;
  void on_finish(SimTime end) override;

 private:
  bool should_stop(const Event& event);
  void prompt(const Event* event);
  /// `break WHAT ...`: sets the breakpoint and says so; false when the words are not one.
  bool break_command(const std::string& what, std::istringstream& words);
  void print_lp(LpId id);
  void print_blocked();

  Scheduler& scheduler_;
  const Program& program_;
  std::istream& in_;
  std::ostream& out_;
  std::uint64_t seen_ = 0;         ///< events seen so far
  std::uint64_t step_target_ = 1;  ///< stop when seen_ reaches this (0 = no step pending)
  std::optional<std::uint64_t> break_event_;
  std::optional<SimTime> break_time_;
  std::optional<LpId> break_lp_;
  std::optional<EventKind> break_lp_kind_;  ///< break lp N kind NAME: only that LP's events of that kind
  std::optional<EventKind> break_kind_;
  bool input_done_ = false;
};

}  // namespace augur::engine
