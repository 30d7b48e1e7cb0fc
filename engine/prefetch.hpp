// The opt-in prefetch of per-LP state in large runs: one hook (Prefetching), one plan.
#pragma once
#include <array>
#include <cstddef>
#include <span>

#include "engine/sim_time.hpp"

namespace augur::engine {

/// Asks for the cache line holding `p` (a hint: never faults). Not __builtin_prefetch, which
/// g++ deletes together with a loop that does nothing else (loops without side effects are
/// assumed finite and removed, -ffinite-loops).
inline void prefetch_line(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

/// What the scheduler prefetches for the LP it will most likely step next (the top of its ready
/// queue) while it steps the current one: at thousands of LPs each component's per-LP state is
/// out of the caches by an LP's turn, and touching it would otherwise stall. Components declare
/// their state through Prefetching::plan_prefetch, once per run. Hints only: nothing is changed,
/// a stale or null address is harmless.
class PrefetchPlan {
 public:
  /// A per-LP array: LP `lp`'s record is the `bytes` bytes at `base` + lp × `bytes`; with
  /// `pointers`, it is one `const char*` and the line it points at is prefetched (null skipped).
  struct Records {
    const void* base = nullptr;
    std::size_t bytes = 0;
    bool pointers = false;
  };
  /// The second stage: `fn(self, lp)` prefetches what LP `lp`'s records locate (say, the ring
  /// slots it writes next), called when its turn starts — its records arrived a step earlier.
  struct TurnHook {
    void (*fn)(const void* self, LpId lp) = nullptr;
    const void* self = nullptr;
  };

  void add_records(const void* base, std::size_t bytes) { add(Records{base, bytes, false}); }
  /// `next[lp]` points at what LP `lp` reads next (say, a trace's unread text), or is null.
  void add_pointed_lines(const char* const* next) { add(Records{next, sizeof(const char*), true}); }
  void add_turn_hook(void (*fn)(const void* self, LpId lp), const void* self) {
    if (fn != nullptr && hook_count_ < max_entries) hooks_[hook_count_++] = TurnHook{fn, self};
  }

  /// Drops the plan when the records of `lp_count` LPs hold less than min_bytes in all: they
  /// stay in the caches, and the hints would only cost instructions.
  void keep_if_large(std::size_t lp_count) {
    std::size_t bytes = 0;
    for (const Records& r : records()) bytes += r.bytes * lp_count;
    if (bytes < min_bytes) record_count_ = hook_count_ = 0;
  }
  /// Something to prefetch (after keep_if_large: in a large run).
  bool active() const { return record_count_ != 0; }
  std::span<const Records> records() const { return {records_.data(), record_count_}; }

  /// The first stage, for the LP stepped next: its records.
  void ahead(LpId lp) const {
    for (std::size_t i = 0; i < record_count_; ++i) {
      const Records& r = records_[i];
      if (r.pointers) {
        const char* at = static_cast<const char* const*>(r.base)[lp];
        if (at != nullptr) prefetch_line(at);  // one line: a TI action is 20–30 characters
        continue;
      }
      const char* first = static_cast<const char*>(r.base) + std::size_t{lp} * r.bytes;
      for (std::size_t at = 0; at < r.bytes; at += 64) prefetch_line(first + at);
      prefetch_line(first + r.bytes - 1);
    }
  }
  /// The second stage, when LP `lp`'s turn starts.
  void on_turn(LpId lp) const {
    for (std::size_t i = 0; i < hook_count_; ++i) hooks_[i].fn(hooks_[i].self, lp);
  }

 private:
  static constexpr std::size_t max_entries = 8;
  /// 256 KiB: 64 ranks with every analysis hold ~32 KiB of records, 1,024 ranks ~500 KiB; at 64
  /// ranks the hints cost more instructions than they save stalls.
  static constexpr std::size_t min_bytes = std::size_t{256} * 1024;

  void add(Records r) {
    if (r.base != nullptr && r.bytes != 0 && record_count_ < max_entries) records_[record_count_++] = r;
  }

  std::array<Records, max_entries> records_{};
  std::size_t record_count_ = 0;
  std::array<TurnHook, max_entries> hooks_{};
  std::size_t hook_count_ = 0;
};

/// The opt-in hook: a program model, an observer or a trace source whose per-LP state is worth
/// prefetching implements it besides its own interface; the scheduler asks each once per run.
class Prefetching {
 public:
  virtual ~Prefetching() = default;
  virtual void plan_prefetch(PrefetchPlan& plan) const = 0;
};

}  // namespace augur::engine
