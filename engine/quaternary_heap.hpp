// QuaternaryHeap: the ready queue of mid-sized runs (engine/README.md).
#pragma once
#include <cstddef>
#include <vector>

#include "engine/prefetch.hpp"
#include "engine/ready_queue.hpp"

namespace augur::engine {

/// A ReadyQueue as a 4-ary min-heap: half the depth of a binary heap, and the four children of a
/// node are 64 adjacent bytes.
class QuaternaryHeap {
 public:
  explicit QuaternaryHeap(std::size_t capacity) { heap_.reserve(capacity); }

  bool empty() const { return heap_.empty(); }
  ReadyEntry top() const { return heap_.front(); }

  void push(ReadyEntry entry) {
    heap_.push_back(entry);
    sift_up(heap_.size() - 1, entry);
  }

  ReadyEntry pop() {
    const ReadyEntry first = heap_.front();
    const ReadyEntry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last);
    return first;
  }

  /// One sift instead of a push and a pop.
  ReadyEntry replace_top(ReadyEntry entry) {
    const ReadyEntry first = heap_.front();
    sift_down(entry);
    return first;
  }

 private:
  static constexpr std::size_t arity = 4;
  /// The heap's first entries, which stay in the first-level cache (16 KiB): sift_down
  /// prefetches the grandchildren of a node only below them.
  static constexpr std::size_t cached_entries = 1024;

  /// Puts `entry` at the root's place. Bottom-up: the hole moves down along the smallest
  /// children to a leaf without comparing them with `entry`, which then rises from there
  /// (`sift_up`, as in `push`). An
  /// entry sinks most of the way (most nodes are near the leaves), so this saves a comparison
  /// and a branch per level.
  void sift_down(ReadyEntry entry) {
    std::size_t i = 0;
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = arity * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      if (first + arity <= n) {
        // The grandchildren's four blocks, one of which the next level reads, are asked for while
        // this level compares: below the cached entries a level is otherwise a wait for memory.
        const std::size_t grand = arity * first + 1;
        if (grand >= cached_entries && grand < n) {
          const char* g = reinterpret_cast<const char*>(heap_.data() + grand);
          for (std::size_t k = 0; k < arity; ++k) prefetch_line(g + k * arity * sizeof(ReadyEntry));
        }
        // A full node: the smallest of four children by a tournament of selects.
        const std::size_t a = heap_[first + 1] < heap_[first] ? first + 1 : first;
        const std::size_t b = heap_[first + 3] < heap_[first + 2] ? first + 3 : first + 2;
        best = heap_[b] < heap_[a] ? b : a;
      } else {
        for (std::size_t c = first + 1; c < n; ++c) {
          if (heap_[c] < heap_[best]) best = c;
        }
      }
      heap_[i] = heap_[best];
      i = best;
    }
    sift_up(i, entry);
  }

  /// Puts `entry` at the hole `i` or above it: the parents larger than `entry` move down.
  void sift_up(std::size_t i, ReadyEntry entry) {
    while (i > 0) {
      const std::size_t parent = (i - 1) / arity;
      if (!(entry < heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = entry;
  }

  std::vector<ReadyEntry> heap_;
};
static_assert(ReadyQueue<QuaternaryHeap>);

}  // namespace augur::engine
