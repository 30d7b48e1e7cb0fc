// The central conservative scheduler (spec section 4.3): advances the runnable LP with the
// smallest clock; ties broken by LP id, so the order of every operation is total and fixed.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/event.hpp"
#include "engine/logical_process.hpp"
#include "engine/observer.hpp"
#include "engine/program.hpp"
#include "engine/radix_queue.hpp"

namespace augur::engine {

/// Limits that stop a run early with a partial result.
struct RunLimits {
  std::uint64_t max_events = 0;  ///< 0 = unlimited
  SimTime max_time = 0;          ///< 0 = unlimited
};

/// How a run ended.
enum class RunOutcome : std::uint8_t { completed, deadlock, error, event_limit, time_limit, stopped };

/// A blocked LP in a deadlock report.
struct BlockedLp {
  LpId lp = 0;
  SimTime clock = 0;
  WaitInfo waits;
};

/// The result of Scheduler::run.
struct RunResult {
  RunOutcome outcome = RunOutcome::completed;
  SimTime end_time = 0;            ///< max clock over LPs
  std::uint64_t events = 0;        ///< events emitted
  std::uint64_t steps = 0;         ///< program steps executed
  std::vector<BlockedLp> blocked;  ///< deadlock: every blocked LP
  std::vector<LpId> cycle;         ///< deadlock: a wait-for cycle (first LP repeated at end)
  std::string message;             ///< deadlock / error explanation, multi-line
};

/// Returns "completed", "deadlock", ...
const char* to_string(RunOutcome outcome);

/// The scheduler. Owns the LPs' clocks and statuses, the ready queue and the observer list.
class Scheduler {
 public:
  explicit Scheduler(std::uint32_t lp_count);

  std::uint32_t lp_count() const { return static_cast<std::uint32_t>(lps_.size()); }
  LogicalProcess& lp(LpId id) { return lps_[id]; }
  const LogicalProcess& lp(LpId id) const { return lps_[id]; }

  /// Registers an observer (not owned). Observers are called in registration order.
  void add_observer(Observer* observer) { observers_.push_back(observer); }

  /// Hands an event to the observers (the program model calls this; `lp`'s event count grows).
  void emit(const Event& event) {
    ++lps_[event.lp].events;
    ++events_;
    for (Observer* o : observers_) o->on_event(event);
  }
  bool has_observers() const { return !observers_.empty(); }

  /// Makes a blocked LP runnable again; it will be stepped at max(its clock, `at`).
  void wake(LpId id, SimTime at);
  /// Asks that a suspended LP be stepped again at time `at` (its clock is unchanged).
  void resume_at(LpId id, SimTime at);
  /// Marks the run as failed (bad input, protocol violation) on `lp`; the run stops.
  void fail(LpId id, std::string message);
  /// Asks the run to stop after the current step (used by the stepper's "quit").
  void request_stop() { stop_requested_ = true; }

  /// Runs `program` until every LP is done, a deadlock, an error or a limit.
  RunResult run(Program& program, const RunLimits& limits = {});

  /// Simulated time of the step being executed (the global virtual time).
  SimTime now() const { return now_; }
  /// Total events emitted so far.
  std::uint64_t events() const { return events_; }

 private:
  /// An entry of the ready queue: (time, LP) packed into one unsigned integer whose order is
  /// the order of the schedule (earlier time, then smaller LP), so that the heap compares
  /// entries with one integer comparison, without a branch to mispredict (its comparisons are
  /// as unpredictable as the schedule). The time's bits are made monotonic (sign bit flipped
  /// for positives, every bit for negatives) after `+ 0.0` turns -0 into +0, which `<` treats
  /// as equal; times are never NaN. An LP is in the queue at most once (`queued`), so entries
  /// are distinct and the order is total whatever the heap's shape.
  __extension__ using Ready = unsigned __int128;
  static_assert(sizeof(Ready) == 16, "ready-queue entries are moved on every step: keep them small");
  static Ready ready(SimTime time, LpId lp) {
    const auto bits = std::bit_cast<std::uint64_t>(time + 0.0);
    const std::uint64_t flip =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(bits) >> 63) | (std::uint64_t{1} << 63);
    return (static_cast<Ready>(bits ^ flip) << 32) | lp;
  }
  static LpId ready_lp(Ready r) { return static_cast<LpId>(r); }
  /// The entry's time (+0 for a time that was -0).
  static SimTime ready_time(Ready r) {
    const auto key = static_cast<std::uint64_t>(r >> 32);
    const std::uint64_t flip = (key >> 63) != 0 ? std::uint64_t{1} << 63 : ~std::uint64_t{0};
    return std::bit_cast<SimTime>(key ^ flip);
  }
  static bool before(Ready a, Ready b) { return a < b; }
  /// The ready queue: a 4-ary min-heap on (time, LP) in `heap_` (half the depth of a binary
  /// heap; the four children of a node are 64 adjacent bytes).
  static constexpr std::size_t heap_arity = 4;
  /// The heap's first entries, which stay in the first-level cache (16 KiB): sift_down
  /// prefetches the grandchildren of a node only below them.
  static constexpr std::size_t heap_cached_entries = 1024;
  void heap_push(Ready entry);
  Ready heap_pop();
  /// Takes the earliest entry out and puts `entry` in, with one sift instead of a push and a pop.
  Ready heap_replace_top(Ready entry);
  void sift_down(std::size_t index, Ready entry);
  /// Up to this many LPs the ready queue is instead a sorted ring (`ring_`, earliest entry at
  /// `ring_head_`): the LP stepped last mostly goes back near either end of the order (behind
  /// the others when they run in step, as the processors of a DVM grid do; just behind the top
  /// after a short action), so an exchange moves a few entries, where the heap's sift compares
  /// its way down every level. A push is one insertion-sort step from the back. (64: the ring
  /// workload of issue 4 at 64 ranks −4 % against the heap; at 100 ranks even, at 128 +2 %.)
  static constexpr std::size_t ring_max_lps = 64;
  Ready& ring_at(std::size_t i) { return ring_[(ring_head_ + i) & ring_mask_]; }
  void ring_push(Ready entry);
  Ready ring_pop();
  Ready ring_replace_top(Ready entry);
  /// From this many LPs on the ready queue is a radix heap (RadixQueue): at thousands of LPs a
  /// 4-ary heap's sift compares its way down six or more levels per step, each a dependent load,
  /// where the radix heap appends the entry to a bucket and moves each entry down a few buckets
  /// in its life (docs/performance-history.md, fifteenth round: −5 % at 16,384 LPs, −15 % at 10⁶,
  /// −2 % at 1,024; the same order, so the same outputs).
  static constexpr std::size_t radix_min_lps = 1024;
  enum class QueueForm : std::uint8_t { ring, heap, radix };
  RadixQueue radix_;
  QueueForm form_ = QueueForm::heap;
  // The ready queue in its form: run() picks the form once and steps with it, so that the
  // queue's path has no test of the form per operation.
  template <QueueForm form>
  bool queue_empty() const {
    if constexpr (form == QueueForm::ring)
      return ring_size_ == 0;
    else if constexpr (form == QueueForm::heap)
      return heap_.empty();
    else
      return radix_.empty();
  }
  template <QueueForm form>
  Ready queue_top() {
    if constexpr (form == QueueForm::ring)
      return ring_[ring_head_];
    else if constexpr (form == QueueForm::heap)
      return heap_.front();
    else
      return radix_.top();
  }
  template <QueueForm form>
  Ready queue_pop() {
    if constexpr (form == QueueForm::ring)
      return ring_pop();
    else if constexpr (form == QueueForm::heap)
      return heap_pop();
    else
      return radix_.pop();
  }
  template <QueueForm form>
  Ready queue_replace_top(Ready entry) {
    if constexpr (form == QueueForm::ring)
      return ring_replace_top(entry);
    else if constexpr (form == QueueForm::heap)
      return heap_replace_top(entry);
    else {
      const Ready top = radix_.pop();
      radix_.push(entry);
      return top;
    }
  }
  void queue_push(Ready entry) {
    switch (form_) {
      case QueueForm::ring:
        ring_push(entry);
        break;
      case QueueForm::heap:
        heap_push(entry);
        break;
      case QueueForm::radix:
        radix_.push(entry);
        break;
    }
  }
  /// The stepping loop of run() with the queue in its form.
  template <QueueForm form>
  void run_steps(Program& program, const RunLimits& limits, RunResult& result);
  void push(LpId id, SimTime at);
  void set_status(LpId id, LpStatus to, SimTime at) {
    LogicalProcess& p = lps_[id];
    if (p.status == to) return;
    const LpStatus from = p.status;
    p.status = to;
    for (Observer* o : observers_) o->on_status(id, from, to, at);
  }
  void diagnose_deadlock(const Program& program, RunResult& result) const;
  /// The per-LP records of the program, the observers and the scheduler, for `prefetch_top`.
  void collect_per_lp_records(const Program& program);
  /// Prefetches the per-LP records of the LP at the top of the ready queue (stepped next unless
  /// the LP being stepped stays earlier).
  template <QueueForm form>
  void prefetch_top() {
    if (per_lp_count_ == 0 || queue_empty<form>()) return;
    const std::size_t lp = ready_lp(queue_top<form>());
    for (std::size_t i = 0; i < per_lp_count_; ++i) {
      const PerLpRecords& r = per_lp_[i];
      if (r.pointers) {
        const char* at = static_cast<const char* const*>(r.base)[lp];
        if (at != nullptr) prefetch_line(at);  // one line: a TI action is 20–30 characters
        continue;
      }
      const char* first = static_cast<const char*>(r.base) + lp * r.bytes;
      for (std::size_t at = 0; at < r.bytes; at += 64) prefetch_line(first + at);
      prefetch_line(first + r.bytes - 1);
    }
  }

  std::vector<LogicalProcess> lps_;
  std::vector<Ready> heap_;
  std::vector<Ready> ring_;    ///< a power of two ≥ the LPs, when ring_max_lps allows
  std::size_t ring_mask_ = 0;  ///< ring_'s size − 1; 0: the heap is the queue
  std::size_t ring_head_ = 0;
  std::size_t ring_size_ = 0;
  std::vector<Observer*> observers_;
  /// At most this many per-LP arrays are prefetched (the scheduler's, the program's, observers').
  static constexpr std::size_t max_per_lp_records = 8;
  /// Below this many bytes of per-LP records in all (256 KiB: 64 ranks with every analysis hold
  /// ~32 KiB, 1,024 ranks ~500 KiB) they stay in the caches and nothing is prefetched: at 64
  /// ranks the hints cost 3–5 % more instructions for no gain.
  static constexpr std::size_t prefetch_min_bytes = std::size_t{256} * 1024;
  std::array<PerLpRecords, max_per_lp_records> per_lp_{};
  std::size_t per_lp_count_ = 0;
  std::array<LpPrefetch, max_per_lp_records> lp_prefetch_{};
  std::size_t lp_prefetch_count_ = 0;  ///< 0 unless per_lp_count_ is
  SimTime now_ = 0;
  std::uint64_t events_ = 0;
  bool stop_requested_ = false;
  bool failed_ = false;
  LpId failed_lp_ = 0;
  std::string failure_;
};

}  // namespace augur::engine
