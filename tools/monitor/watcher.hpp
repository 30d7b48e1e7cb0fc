// The run's side of the live monitor: an engine observer that keeps each LP's display state,
// publishes the run's state to the server a few times per second and obeys the pages' commands.
// It exists only with --monitor: without it the scheduler calls nothing of the monitor.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/observer.hpp"
#include "engine/program.hpp"
#include "engine/scheduler.hpp"
#include "tools/monitor/server.hpp"

namespace augur::tools::monitor {

/// What a cell shows; the page's `states` list in the same order.
enum class Shown : std::uint8_t { idle, computing, communicating, waiting, blocked, done, error };
inline constexpr int shown_count = 7;
/// The most cells a state carries; beyond, each cell stands for `group` consecutive LPs.
inline constexpr std::uint32_t max_cells = 4096;

/// Commands (text from a page, one per message):
///   pause | resume | step N | time T (run to simulated time T) | kind NAME (run to the next event
///   of that kind) | print N (what `augur step`'s print shows of LP N).
/// Replies: {"type":"lp","id":N,"text":...} and {"type":"error","text":...}; states:
/// {"type":"state","variant","lps","group","cells" (one digit per cell, Shown),"counts","events",
///  "time","rate" (events per second of wall time),"paused","finished","outcome"}.
class Watcher final : public engine::Observer {
 public:
  /// Attach to `server` first (Server::attach); the watcher detaches when destroyed. `paused`:
  /// stop at the first event and wait for a page's command (augur step).
  Watcher(Server& server, const engine::Scheduler& scheduler, const engine::Program& program, std::string variant,
          bool paused);
  ~Watcher() override;
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  void on_event(const engine::Event& event) override {
    ++seen_;
    auto& shown = shown_[event.lp];
    shown = shown_after(event, shown);
    if (armed_ && should_stop(event)) {
      pause();
    } else if ((seen_ & 1023) == 0) {
      tick();
    }
  }
  void on_status(engine::LpId lp, engine::LpStatus from, engine::LpStatus to, engine::SimTime at) override;
  void on_finish(engine::SimTime end) override;

  /// The state an LP shows after `event`, `before` what it showed.
  static Shown shown_after(const engine::Event& event, Shown before);

 private:
  bool should_stop(const engine::Event& event);
  /// Every 1024 events: publish when due, take the commands that came.
  void tick();
  /// Publishes, then obeys commands until one lets the run go on.
  void pause();
  /// Obeys one command; true when the run goes on (paused: the command resumes or steps it).
  bool obey(const std::string& command);
  void publish();
  std::string state_json();

  Server& server_;
  const engine::Scheduler& scheduler_;
  const engine::Program& program_;
  std::string variant_;
  std::vector<Shown> shown_;
  std::uint64_t seen_ = 0;
  std::uint64_t step_target_ = 0;  ///< stop when seen_ reaches it (0: none)
  std::optional<engine::SimTime> break_time_;
  std::optional<engine::EventKind> break_kind_;
  bool armed_ = false;  ///< some stop condition is set
  bool paused_ = false;
  bool finished_ = false;
  engine::SimTime time_ = 0;
  std::string outcome_;
  std::chrono::steady_clock::time_point published_at_;
  std::uint64_t published_events_ = 0;
  double rate_ = 0;
};

}  // namespace augur::tools::monitor
