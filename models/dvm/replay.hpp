// Replaying decoded calls (internal to models/dvm): an LP's actions (replay_actions.cpp) and the
// group operations run once every member has arrived (replay_groups.cpp), with what their
// handlers share.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/event.hpp"
#include "engine/event_builder.hpp"
#include "engine/scheduler.hpp"
#include "models/dvm/dvm_state.hpp"

namespace augur::models::dvm {

/// Emits the events of one LP and moves its clock to each event's end.
struct Emitter {
  engine::Scheduler& s;
  engine::LpId lp;

  /// Sets the LP's clock to the event's end; hands the event, with `lp`, to the observers.
  void emit(const engine::EventBuilder& event) {
    engine::Event e = event.event();
    e.lp = lp;
    s.lp(lp).clock = e.clock_after;
    if (s.has_observers()) s.emit(e);
  }
  engine::SimTime clock() const { return s.lp(lp).clock; }
};

/// One LP replaying one action: the state, the machine's time scaling and the LP's place in the
/// action's processor system (`pos` −1: not a member, the action costs it nothing).
struct LpReplay {
  DvmProgram::State& st;
  machines::MachineModel& machine;
  const DvmProgram::Action& a;
  engine::LpId lp;
  int pos;
  int P;  ///< processors of the action's system
  int root_count;
  Emitter out;

  /// Time of the current processor in the original's AddTime: in I/O mode (biof_ … eiof_) only
  /// processor 0 advances, as I/O time; every other processor's share is dropped.
  void add(engine::ComputeCategory cat, double dt, int replicas);
  /// RegularTime: the call's TIME as user time, the ret's as system time.
  void regular();
  /// arrcpy_: this processor's share of the call's user time; on a replicated target the
  /// repetition on every holder but the first is a loss.
  void user_share(bool with_loss);
};

/// Replays `r.a` on `r.lp`, every kind but ActionKind::op (the program's barrier).
void replay_action(LpReplay& r);

/// A group operation run by the last member to arrive: it sees every member's clock, prices the
/// operation's messages on the machine and emits every member's events.
struct GroupRun {
  DvmProgram::State& st;
  machines::MachineModel& machine;
  const DvmOptions& options;
  engine::Scheduler& s;
  DvmProgram::Op& op;
  const std::vector<int>& members;  ///< root processor of each position of the system
  int root_count;

  int processors() const { return static_cast<int>(members.size()); }
  std::uint8_t kind() const { return static_cast<std::uint8_t>(op.kind); }
  engine::SimTime clock(int root) const { return s.lp(static_cast<engine::LpId>(root)).clock; }
  /// Every root processor's clock (a buffer reused from operation to operation).
  const std::vector<engine::SimTime>& clocks();
  /// The original takes the start of an operation from processor 0's clock.
  engine::SimTime first_clock() const;
  /// MPSSynchronize: every member waits for the latest one.
  void synchronise();
  /// Communication time `cost` added to every member (AddMPSTime of the kind).
  void communicate(engine::SimTime cost, std::int32_t tag);
  /// The machine's price of the operation's matrix from the members' clocks (0 when empty).
  engine::SimTime matrix_cost(std::vector<engine::SimTime>* end_per_proc);
  /// The operation's start on every member (the first counts it).
  void start_events();
  /// Per processor: how long its part of a matrix takes from the operation's start.
  std::vector<engine::SimTime> stamps(const std::vector<engine::SimTime>& ends,
                                      const std::vector<engine::SimTime>& before) const;
};

/// Runs `g.op` (every member has arrived).
void execute_group_op(GroupRun& g);

}  // namespace augur::models::dvm
