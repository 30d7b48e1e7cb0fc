// The central conservative scheduler: a ready queue of runnable LPs ordered by (time, LP id) —
// a sorted ring, a 4-ary heap or a radix heap by the LP count — and deadlock diagnosis with the
// wait-for cycle.
#include "engine/scheduler.hpp"

#include <algorithm>
#include <bit>
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

Scheduler::Scheduler(std::uint32_t lp_count) : lps_(lp_count) {
  if (lp_count > 1 && lp_count <= ring_max_lps) {
    ring_.resize(std::bit_ceil(std::size_t{lp_count}));
    ring_mask_ = ring_.size() - 1;
    form_ = QueueForm::ring;
  } else if (lp_count >= radix_min_lps) {
    form_ = QueueForm::radix;
  } else {
    heap_.reserve(lp_count);
  }
  for (LpId id = 0; id < lp_count; ++id) push(id, 0);
}

void Scheduler::ring_push(Ready entry) {
  std::size_t i = ring_size_;
  while (i > 0) {
    const Ready prev = ring_at(i - 1);
    if (!before(entry, prev)) break;
    ring_at(i) = prev;
    --i;
  }
  ring_at(i) = entry;
  ++ring_size_;
}

Scheduler::Ready Scheduler::ring_pop() {
  const Ready top = ring_[ring_head_];
  ring_head_ = (ring_head_ + 1) & ring_mask_;
  --ring_size_;
  return top;
}

Scheduler::Ready Scheduler::ring_replace_top(Ready entry) {
  const Ready top = ring_[ring_head_];
  const std::size_t n = ring_size_;
  // Called with an entry later than the top. The stepped LP is not queued, so the slot after the
  // last entry is free.
  if (!before(entry, ring_at(n - 1))) {
    // Behind every entry (the top included: it is earlier), as processors running in step are.
    ring_at(n) = entry;
    ring_head_ = (ring_head_ + 1) & ring_mask_;
    return top;
  }
  if (before(entry, ring_at(n / 2))) {
    // In the first half: the entries before it move one place forward into the top's place.
    std::size_t i = 0;
    while (i + 1 < n && before(ring_at(i + 1), entry)) {
      ring_at(i) = ring_at(i + 1);
      ++i;
    }
    ring_at(i) = entry;
    return top;
  }
  // In the second half: the top leaves, the entry goes in from the back.
  ring_head_ = (ring_head_ + 1) & ring_mask_;
  --ring_size_;
  ring_push(entry);
  return top;
}

void Scheduler::heap_push(Ready entry) {
  std::size_t i = heap_.size();
  heap_.push_back(entry);
  while (i > 0) {
    const std::size_t parent = (i - 1) / heap_arity;
    if (!before(entry, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = entry;
}

void Scheduler::sift_down(std::size_t i, Ready entry) {
  // Bottom-up: the hole at i moves down along the smallest children to a leaf without comparing
  // them with `entry`, which then rises from there. An entry sinks most of the way (most nodes
  // are near the leaves), so this saves a comparison and a branch per level.
  const std::size_t start = i;
  const std::size_t n = heap_.size();
  for (;;) {
    const std::size_t first = heap_arity * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    if (first + heap_arity <= n) {
      // The grandchildren's four blocks, one of which the next level reads, are asked for while
      // this level compares: below the heap's top 1,024 entries (16 KiB, which stay cached) a
      // level is otherwise a wait for memory.
      const std::size_t grand = heap_arity * first + 1;
      if (grand >= heap_cached_entries && grand < n) {
        const char* g = reinterpret_cast<const char*>(heap_.data() + grand);
        for (std::size_t k = 0; k < heap_arity; ++k) prefetch_line(g + k * heap_arity * sizeof(Ready));
      }
      // A full node: the smallest of four children by a tournament of selects.
      const std::size_t a = before(heap_[first + 1], heap_[first]) ? first + 1 : first;
      const std::size_t b = before(heap_[first + 3], heap_[first + 2]) ? first + 3 : first + 2;
      best = before(heap_[b], heap_[a]) ? b : a;
    } else {
      for (std::size_t c = first + 1; c < n; ++c) {
        if (before(heap_[c], heap_[best])) best = c;
      }
    }
    heap_[i] = heap_[best];
    i = best;
  }
  while (i > start) {
    const std::size_t parent = (i - 1) / heap_arity;
    if (!before(entry, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = entry;
}

Scheduler::Ready Scheduler::heap_pop() {
  const Ready top = heap_.front();
  const Ready last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0, last);
  return top;
}

Scheduler::Ready Scheduler::heap_replace_top(Ready entry) {
  const Ready top = heap_.front();
  sift_down(0, entry);
  return top;
}

void Scheduler::push(LpId id, SimTime at) {
  LogicalProcess& p = lps_[id];
  if (p.queued) return;
  p.queued = true;
  queue_push(ready(at, id));
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

void Scheduler::collect_per_lp_records(const Program& program) {
  per_lp_count_ = 0;
  const auto add = [this](PerLpRecords r) {
    if (r.base != nullptr && r.bytes != 0 && per_lp_count_ < max_per_lp_records) per_lp_[per_lp_count_++] = r;
  };
  add(PerLpRecords{lps_.data(), sizeof(LogicalProcess)});
  for (const PerLpRecords& r : program.per_lp_records()) add(r);
  for (const Observer* o : observers_) add(o->per_lp_records());
  lp_prefetch_count_ = 0;
  for (const Observer* o : observers_) {
    const LpPrefetch f = o->lp_prefetch();
    if (f.fn != nullptr && lp_prefetch_count_ < max_per_lp_records) lp_prefetch_[lp_prefetch_count_++] = f;
  }
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < per_lp_count_; ++i) bytes += per_lp_[i].bytes * lps_.size();
  if (bytes < prefetch_min_bytes) {  // all cached anyway: the hints would only cost
    per_lp_count_ = 0;
    lp_prefetch_count_ = 0;
  }
}

RunResult Scheduler::run(Program& program, const RunLimits& limits) {
  collect_per_lp_records(program);
  const LogClockScope clock(&now_);  // the engine's and the models' lines carry the scheduler's time
  if (auto* lg = logger_at(Folder::engine, spdlog::level::debug)) {
    static constexpr const char* form_names[] = {"sorted ring", "4-ary heap", "radix heap"};
    lg->debug(
        "run: {} LPs, ready queue: {}, {} observers, {} per-LP record arrays prefetched, stop after {} events "
        "(0: none), at {} s (0: none)",
        lps_.size(), form_names[static_cast<int>(form_)], observers_.size(), per_lp_count_, limits.max_events,
        limits.max_time);
  }
  RunResult result;
  switch (form_) {
    case QueueForm::ring:
      run_steps<QueueForm::ring>(program, limits, result);
      break;
    case QueueForm::heap:
      run_steps<QueueForm::heap>(program, limits, result);
      break;
    case QueueForm::radix:
      run_steps<QueueForm::radix>(program, limits, result);
      break;
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

template <Scheduler::QueueForm form>
void Scheduler::run_steps(Program& program, const RunLimits& limits, RunResult& result) {
  Ready next = 0;
  bool have_next = false;  // `next` already taken out of the queue by an exchange
  while (have_next || !queue_empty<form>()) {
    if (!have_next) {
      if (stop_requested_) {
        result.outcome = RunOutcome::stopped;
        break;
      }
      next = queue_pop<form>();
      prefetch_top<form>();
    }
    have_next = false;
    const LpId lp = ready_lp(next);
    const SimTime time = ready_time(next);
    // The second stage of the records' prefetch (theirs came a step ago): what they point to.
    for (std::size_t i = 0; i < lp_prefetch_count_; ++i) lp_prefetch_[i].fn(lp_prefetch_[i].self, lp);
    LogicalProcess& p = lps_[lp];
    p.queued = false;
    if (limits.max_time > 0 && time > limits.max_time) {
      result.outcome = RunOutcome::time_limit;
      push(lp, time);
      break;
    }
    now_ = time;
    // Step this LP as long as it stays the earliest: saves heap operations on long local runs.
    for (;;) {
      ++result.steps;
      const StepResult r = program.step(lp, *this);
      if (failed_) break;
      if (r == StepResult::advanced) {
        if (!queue_empty<form>()) {
          if (before(queue_top<form>(), ready(p.clock, lp))) {
            // The LP yields to an earlier one. Unless the run is about to stop (which the code
            // after this loop and the next turn would see), exchange it with the queue's top:
            // the same entry is stepped next as after a push and a pop.
            if (!p.queued && !stop_requested_ && !(limits.max_events > 0 && events_ >= limits.max_events)) {
              p.queued = true;
              next = queue_replace_top<form>(ready(p.clock, lp));
              prefetch_top<form>();
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
