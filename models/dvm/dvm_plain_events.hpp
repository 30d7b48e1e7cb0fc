// DVM events in the engine's plain contract, for observers written for any program (timelines).
#pragma once
#include <utility>
#include <vector>

#include "engine/observer.hpp"

namespace augur::models::dvm {

/// Forwards DvmProgram's events to `targets` as the engine's Event documents them, where the DVM
/// contract (dvm_program.hpp) gives fields another meaning: `waited` becomes the part of an
/// event spent waiting for another processor — the whole of a synchronisation (sync_all, tag 0),
/// the wait for processor 0 of a 3.1 reduction (a collective_wait naming it in `peer`), 0 for
/// every other collective_wait (its duration is the operation's communication; the DVM `waited`
/// there is an overlap or a cost) — and the events that only carry a potential loss without
/// moving a clock (sync_all tags 1–3, compute tag 0) are not forwarded. Status changes and the end
/// of the run are forwarded as they are.
class DvmPlainEvents final : public engine::Observer {
 public:
  explicit DvmPlainEvents(std::vector<engine::Observer*> targets) : targets_(std::move(targets)) {}

  void on_event(const engine::Event& event) override {
    engine::Event e = event;
    switch (e.kind) {
      case engine::EventKind::sync_all:
        if (e.tag != 0) return;
        e.waited = e.clock_after - e.clock_before;
        break;
      case engine::EventKind::collective_wait:
      case engine::EventKind::collective_start:
        if (e.peer < 0) e.waited = 0;
        break;
      case engine::EventKind::compute:
        if (e.tag == 0) return;
        e.waited = 0;
        break;
      case engine::EventKind::loop_block:
        e.waited = 0;
        break;
      default:
        break;
    }
    for (engine::Observer* t : targets_) t->on_event(e);
  }
  void on_status(engine::LpId lp, engine::LpStatus from, engine::LpStatus to, engine::SimTime at) override {
    for (engine::Observer* t : targets_) t->on_status(lp, from, to, at);
  }
  void on_finish(engine::SimTime end) override {
    for (engine::Observer* t : targets_) t->on_finish(end);
  }

 private:
  std::vector<engine::Observer*> targets_;
};

}  // namespace augur::models::dvm
