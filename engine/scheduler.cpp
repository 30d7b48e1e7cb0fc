// The central conservative scheduler: the stepping loop over a ReadyQueue of runnable LPs
// ordered by (time, LP id), and deadlock diagnosis with the wait-for cycle.
#include "engine/scheduler.hpp"

#include <algorithm>
#include <limits>
#include <iterator>
#include <variant>
#include <fmt/format.h>

#include "engine/log.hpp"

namespace augur::engine {

const char* to_string(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::completed:
      return "completed";
    case RunOutcome::deadlock:
      return "deadlock";
    case RunOutcome::error:
      return "error";
    case RunOutcome::event_limit:
      return "event_limit";
    case RunOutcome::time_limit:
      return "time_limit";
    case RunOutcome::stopped:
      return "stopped";
  }
  return "?";
}

Scheduler::Queue Scheduler::make_queue(std::size_t lp_count) {
  if (lp_count > 1 && lp_count <= ring_max_lps) return Queue{std::in_place_type<SortedRing>, lp_count};
  if (lp_count >= radix_min_lps) return Queue{std::in_place_type<RadixQueue>};
  return Queue{std::in_place_type<QuaternaryHeap>, lp_count};
}

Scheduler::Scheduler(std::uint32_t lp_count) : lps_(lp_count), queue_(make_queue(lp_count)) {
  for (LpId id = 0; id < lp_count; ++id) push(id, 0);
}

void Scheduler::push(LpId id, SimTime at) {
  LogicalProcess& p = lps_[id];
  if (p.queued) return;
  p.queued = true;
  std::visit([entry = ready_entry(at, id)](auto& queue) { queue.push(entry); }, queue_);
}

void Scheduler::wake(LpId id, SimTime at) {
  LogicalProcess& p = lps_[id];
  if (p.status == LpStatus::done || p.status == LpStatus::exception) return;
  const SimTime when = std::max(p.clock, at);
  set_status(id, LpStatus::running, when);
  push(id, when);
}

void Scheduler::resume_at(LpId id, SimTime at) { push(id, std::max(lps_[id].clock, at)); }

void Scheduler::fail(LpId id, std::string message) {
  if (failed_) return;
  failed_ = true;
  failed_lp_ = id;
  failure_ = std::move(message);
  set_status(id, LpStatus::exception, lps_[id].clock);
}

void Scheduler::plan_prefetch(const Program& program) {
  prefetch_ = PrefetchPlan{};
  prefetch_.add_records(lps_.data(), sizeof(LogicalProcess));
  if (const auto* p = dynamic_cast<const Prefetching*>(&program)) p->plan_prefetch(prefetch_);
  for (const Observer* o : observers_) {
    if (const auto* p = dynamic_cast<const Prefetching*>(o)) p->plan_prefetch(prefetch_);
  }
  prefetch_.keep_if_large(lps_.size());
}

RunResult Scheduler::run(Program& program, const RunLimits& limits) {
  plan_prefetch(program);
  const LogClockScope clock(&now_);  // the engine's and the models' lines carry the scheduler's time
  if (auto* lg = logger_at(Folder::engine, spdlog::level::debug)) {
    static constexpr const char* form_names[] = {"sorted ring", "4-ary heap", "radix heap"};
    static_assert(std::variant_size_v<Queue> == std::size(form_names));
    lg->debug(
        "run: {} LPs, ready queue: {}, {} observers, {} per-LP record arrays prefetched, stop after {} events "
        "(0: none), at {} s (0: none)",
        lps_.size(), form_names[queue_.index()], observers_.size(), prefetch_.records().size(), limits.max_events,
        limits.max_time);
  }
  RunResult result;
  // The form is chosen once here: the loop runs with its queue inlined.
  auto* source = dynamic_cast<EventSource*>(&program);
  if (source != nullptr && source->has_events()) {
    std::visit([&](auto& queue) { run_with_events(queue, program, *source, limits, result); }, queue_);
  } else {
    std::visit([&](auto& queue) { run_steps(queue, program, limits, result); }, queue_);
  }
  result.events = events_;
  for (const LogicalProcess& p : lps_) result.end_time = std::max(result.end_time, p.clock);
  if (result.outcome == RunOutcome::completed) {
    const bool all_done =
        std::all_of(lps_.begin(), lps_.end(), [](const LogicalProcess& p) { return p.status == LpStatus::done; });
    if (!all_done) {
      result.outcome = RunOutcome::deadlock;
      diagnose_deadlock(program, result);
    }
  }
  for (Observer* o : observers_) o->on_finish(result.end_time);
  if (auto* lg = logger_at(Folder::engine, spdlog::level::info)) {
    lg->info("run {}: {} events in {} steps, last LP clock {:.9f} s", to_string(result.outcome), result.events,
             result.steps, result.end_time);
  }
  return result;
}

template <ReadyQueue Q>
void Scheduler::run_steps(Q& queue, Program& program, const RunLimits& limits, RunResult& result) {
  ReadyEntry next = 0;
  bool have_next = false;  // `next` already taken out of the queue by an exchange
  while (have_next || !queue.empty()) {
    if (!have_next) {
      if (stop_requested_) {
        result.outcome = RunOutcome::stopped;
        break;
      }
      next = queue.pop();
      prefetch_ahead(queue);
    }
    have_next = false;
    const LpId lp = ready_lp(next);
    const SimTime time = ready_time(next);
    prefetch_.on_turn(lp);  // what its records, prefetched a step ago, locate
    LogicalProcess& p = lps_[lp];
    p.queued = false;
    if (limits.max_time > 0 && time > limits.max_time) {
      result.outcome = RunOutcome::time_limit;
      push(lp, time);
      break;
    }
    now_ = time;
    // Step this LP as long as it stays the earliest: saves queue operations on long local runs.
    for (;;) {
      ++result.steps;
      const StepResult r = program.step(lp, *this);
      if (failed_) break;
      if (r == StepResult::advanced) {
        if (!queue.empty()) {
          if (queue.top() < ready_entry(p.clock, lp)) {
            // The LP yields to an earlier one. Unless the run is about to stop (which the code
            // after this loop and the next turn would see), exchange it with the queue's top:
            // the same entry is stepped next as after a push and a pop.
            if (!p.queued && !stop_requested_ && !(limits.max_events > 0 && events_ >= limits.max_events)) {
              p.queued = true;
              next = queue.replace_top(ready_entry(p.clock, lp));
              prefetch_ahead(queue);
              have_next = true;
            } else {
              push(lp, p.clock);
            }
            break;
          }
        }
        if (limits.max_events > 0 && events_ >= limits.max_events) {
          push(lp, p.clock);
          break;
        }
        if (stop_requested_) {
          push(lp, p.clock);
          break;
        }
        now_ = p.clock;
        continue;
      }
      if (r == StepResult::done) {
        set_status(lp, LpStatus::done, p.clock);
      } else if (r == StepResult::blocked) {
        if (p.status == LpStatus::running && !p.queued) set_status(lp, LpStatus::blocked, p.clock);
      }
      break;
    }
    if (failed_) {
      result.outcome = RunOutcome::error;
      result.message = failure_;
      break;
    }
    if (limits.max_events > 0 && events_ >= limits.max_events) {
      result.outcome = RunOutcome::event_limit;
      break;
    }
  }
}

template <ReadyQueue Q>
void Scheduler::run_with_events(Q& queue, Program& program, EventSource& source, const RunLimits& limits,
                                RunResult& result) {
  for (;;) {
    if (stop_requested_) {
      result.outcome = RunOutcome::stopped;
      break;
    }
    const SimTime event = source.next_event_time();
    const bool event_first =
        queue.empty() ? event < std::numeric_limits<SimTime>::infinity() : event <= ready_time(queue.top());
    if (event_first) {
      if (limits.max_time > 0 && event > limits.max_time) {
        result.outcome = RunOutcome::time_limit;
        break;
      }
      now_ = std::max(now_, event);
      source.fire_events(now_, *this);
      continue;
    }
    if (queue.empty()) break;
    const ReadyEntry next = queue.pop();
    const LpId lp = ready_lp(next);
    const SimTime time = ready_time(next);
    lps_[lp].queued = false;
    if (limits.max_time > 0 && time > limits.max_time) {
      result.outcome = RunOutcome::time_limit;
      push(lp, time);
      break;
    }
    now_ = time;
    if (!step_while_first(queue, program, source, lp, limits, result)) break;
  }
}

template <ReadyQueue Q>
bool Scheduler::step_while_first(Q& queue, Program& program, EventSource& source, LpId lp, const RunLimits& limits,
                                 RunResult& result) {
  LogicalProcess& p = lps_[lp];
  for (;;) {
    ++result.steps;
    const StepResult r = program.step(lp, *this);
    if (failed_) {
      result.outcome = RunOutcome::error;
      result.message = failure_;
      return false;
    }
    if (r == StepResult::done) {
      set_status(lp, LpStatus::done, p.clock);
    } else if (r == StepResult::blocked && p.status == LpStatus::running && !p.queued) {
      set_status(lp, LpStatus::blocked, p.clock);
    }
    if (limits.max_events > 0 && events_ >= limits.max_events) {
      if (r == StepResult::advanced) push(lp, p.clock);
      result.outcome = RunOutcome::event_limit;
      return false;
    }
    if (r != StepResult::advanced) return true;
    // The LP would be taken out of the queue again next (no event of the source at or before
    // its clock, no LP earlier): it is stepped at once, in the same order, without the queue.
    if (p.queued || stop_requested_ || source.next_event_time() <= p.clock ||
        (!queue.empty() && queue.top() < ready_entry(p.clock, lp))) {
      push(lp, p.clock);
      return true;
    }
    if (limits.max_time > 0 && p.clock > limits.max_time) {
      result.outcome = RunOutcome::time_limit;
      push(lp, p.clock);
      return false;
    }
    now_ = p.clock;
  }
}

// Builds the deadlock report: every blocked LP with what it waits for, then a wait-for cycle
// (following the first peer of each blocked LP) or the finished LP at the end of the chain.
void Scheduler::diagnose_deadlock(const Program& program, RunResult& result) const {
  const auto n = static_cast<LpId>(lps_.size());
  for (LpId id = 0; id < n; ++id) {
    if (lps_[id].status != LpStatus::blocked) continue;
    result.blocked.push_back(BlockedLp{id, lps_[id].clock, program.waits_for(id)});
  }
  std::string msg =
      fmt::format("deadlock: {} of {} LPs are blocked and no message is in flight\n", result.blocked.size(), n);
  for (const BlockedLp& b : result.blocked) {
    msg += fmt::format("  LP {} (clock {:.9f} s) waits for {}\n", b.lp, b.clock, b.waits.what);
  }
  // Follow wait-for edges from the first blocked LP until a repeat (cycle) or a non-blocked LP.
  std::vector<int> index(n, -1);
  for (std::size_t i = 0; i < result.blocked.size(); ++i) index[result.blocked[i].lp] = static_cast<int>(i);
  std::string chain;
  for (const BlockedLp& start : result.blocked) {
    std::vector<LpId> path;
    std::vector<char> seen(n, 0);
    LpId cur = start.lp;
    bool found_cycle = false;
    for (;;) {
      if (seen[cur]) {
        auto it = std::find(path.begin(), path.end(), cur);
        result.cycle.assign(it, path.end());
        result.cycle.push_back(cur);
        found_cycle = true;
        break;
      }
      seen[cur] = 1;
      path.push_back(cur);
      const int bi = index[cur];
      if (bi < 0) break;
      const WaitInfo& w = result.blocked[static_cast<std::size_t>(bi)].waits;
      std::int32_t next = -1;
      for (std::int32_t peer : w.peers) {
        if (peer >= 0 && static_cast<LpId>(peer) < n) {
          next = peer;
          break;
        }
      }
      if (next < 0) break;
      const LpId nl = static_cast<LpId>(next);
      if (lps_[nl].status == LpStatus::done) {
        chain = fmt::format("  LP {} waits for LP {}, which finished at t={:.9f} s\n", cur, nl, lps_[nl].clock);
        break;
      }
      cur = nl;
    }
    if (found_cycle) break;
  }
  if (!result.cycle.empty()) {
    msg += "  wait-for cycle: ";
    for (std::size_t i = 0; i < result.cycle.size(); ++i) {
      msg += fmt::format("{}LP {}", i ? " -> " : "", result.cycle[i]);
    }
    msg += "\n";
  } else if (!chain.empty()) {
    msg += chain;
  } else {
    // No cycle through first peers: list waits on finished LPs.
    for (const BlockedLp& b : result.blocked) {
      for (std::int32_t peer : b.waits.peers) {
        if (peer >= 0 && static_cast<LpId>(peer) < n && lps_[static_cast<LpId>(peer)].status == LpStatus::done) {
          msg += fmt::format("  LP {} waits for LP {}, which finished at t={:.9f} s\n", b.lp, peer,
                             lps_[static_cast<LpId>(peer)].clock);
          break;
        }
      }
    }
  }
  result.message = msg;
}

}  // namespace augur::engine
