// SortedRing: the ready queue of small runs (engine/README.md).
#pragma once
#include <bit>
#include <cstddef>
#include <vector>

#include "engine/ready_queue.hpp"

namespace augur::engine {

/// A ReadyQueue for a few LPs: the entries sorted in a ring, the earliest at `head_`. The LP
/// stepped last mostly goes back near either end of the order (behind the others when they run
/// in step, as the processors of a DVM grid do; just behind the top after a short action), so an
/// exchange moves a few entries where a heap's sift compares its way down every level. A push is
/// one insertion-sort step from the back.
class SortedRing {
 public:
  /// Room for `capacity` entries (rounded up to a power of two).
  explicit SortedRing(std::size_t capacity) : ring_(std::bit_ceil(capacity)), mask_(ring_.size() - 1) {}

  bool empty() const { return size_ == 0; }
  ReadyEntry top() const { return ring_[head_]; }

  void push(ReadyEntry entry) {
    std::size_t i = size_;
    while (i > 0) {
      const ReadyEntry prev = at(i - 1);
      if (!(entry < prev)) break;
      at(i) = prev;
      --i;
    }
    at(i) = entry;
    ++size_;
  }

  ReadyEntry pop() {
    const ReadyEntry first = ring_[head_];
    head_ = (head_ + 1) & mask_;
    --size_;
    return first;
  }

  /// Called with an entry later than the top, the stepped LP's: it moves past the entries between
  /// its old and new place from whichever end is nearer.
  ReadyEntry replace_top(ReadyEntry entry) {
    const ReadyEntry first = ring_[head_];
    const std::size_t n = size_;
    // The stepped LP is not queued, so the slot after the last entry is free.
    if (!(entry < at(n - 1))) {
      // Behind every entry (the top included: it is earlier), as processors running in step are.
      at(n) = entry;
      head_ = (head_ + 1) & mask_;
      return first;
    }
    if (entry < at(n / 2)) {
      // In the first half: the entries before it move one place forward into the top's place.
      std::size_t i = 0;
      while (i + 1 < n && at(i + 1) < entry) {
        at(i) = at(i + 1);
        ++i;
      }
      at(i) = entry;
      return first;
    }
    // In the second half: the top leaves, the entry goes in from the back.
    pop();
    push(entry);
    return first;
  }

 private:
  ReadyEntry& at(std::size_t i) { return ring_[(head_ + i) & mask_]; }

  std::vector<ReadyEntry> ring_;  ///< a power of two ≥ the LPs
  std::size_t mask_;              ///< ring_'s size − 1
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};
static_assert(ReadyQueue<SortedRing>);

}  // namespace augur::engine
