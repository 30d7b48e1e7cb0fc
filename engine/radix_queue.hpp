// RadixQueue: the ready queue of large runs, a radix heap of 128-bit keys (engine/README.md).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/ready_queue.hpp"

namespace augur::engine {

/// A min-priority queue of distinct 128-bit keys for keys that mostly arrive in order: a radix
/// heap (Ahuja, Mehlhorn, Orlin and Tarjan, 1990) on 4-bit digits. Bucket (L, d) holds the keys
/// whose highest digit differing from `last_` (the last minimum found) is digit L, with value d:
/// every key of a bucket is below every key of a later one. Bucket 0 holds `last_` itself. A
/// push is an XOR, a count of leading zeros, a shift and an append; finding the minimum, when
/// bucket 0 is empty, scans the lowest non-empty bucket once and moves its keys to lower levels,
/// each key moving down a few times in its life instead of comparing its way through every level
/// of a heap. A discrete-event schedule pushes times no earlier than the current one, as a radix
/// heap needs; a key below `last_` (a program waking an LP in the past) goes to a small binary
/// heap of its own, whose keys all come before the radix part's, so the order is exact for any
/// sequence of operations. Pops give the keys in increasing order whatever the structure:
/// replacing the scheduler's 4-ary heap by it changes no schedule. A ReadyQueue.
class RadixQueue {
 public:
  using Key = ReadyEntry;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push(Key key) {
    ++size_;
    if (key < last_) {
      early_.push_back(key);
      std::push_heap(early_.begin(), early_.end(), std::greater<>{});
      return;
    }
    append(bucket_of(key), key);
  }

  /// The smallest key; the queue must not be empty.
  Key top() {
    if (!early_.empty()) return early_.front();
    settle();
    return last_;
  }

  /// Removes and returns the smallest key; the queue must not be empty.
  Key pop() {
    --size_;
    if (!early_.empty()) {
      std::pop_heap(early_.begin(), early_.end(), std::greater<>{});
      const Key key = early_.back();
      early_.pop_back();
      return key;
    }
    settle();
    // Bucket 0 holds the keys equal to last_: one, the keys being distinct.
    Chunk& c = chunks_[head_[0]];
    if (--c.count == 0) release(0);
    return last_;
  }

  /// pop() then push(key): a radix heap has no cheaper exchange.
  Key replace_top(Key key) {
    const Key first = pop();
    push(key);
    return first;
  }

 private:
  /// Keys are compared by digits of this many bits: bucket (L, d) holds the keys whose highest
  /// digit differing from `last_` is digit L and has the value d. A key moves at most once per
  /// digit level, so wider digits mean fewer moves and more buckets: 4 bits (513 buckets) keep
  /// the moves few while the bucket bitmap stays within a few cache lines.
  static constexpr unsigned digit_bits = 4;
  static constexpr unsigned digit_levels = 128 / digit_bits;
  static constexpr unsigned digit_values = 1U << digit_bits;
  /// Bucket 0 holds last_ itself; bucket 1 + L * digit_values + d the keys of (L, d).
  static constexpr unsigned bucket_count = 1 + digit_levels * digit_values;
  static constexpr unsigned word_bits = 64;
  static constexpr std::uint32_t none = 0xffffffffU;
  /// Keys per chunk: a chunk is 1 KiB. Buckets are lists of chunks from one pool, so that the
  /// memory held is the keys' (plus a chunk per bucket), not every bucket's largest size ever.
  static constexpr std::uint32_t chunk_keys = 63;
  struct Chunk {
    std::array<Key, chunk_keys> keys;
    std::uint32_t count = 0;
    std::uint32_t next = none;  ///< the bucket's next chunk, or the free list's
  };

  unsigned bucket_of(Key key) const {
    const Key x = key ^ last_;
    const auto high = static_cast<std::uint64_t>(x >> 64);
    const auto low = static_cast<std::uint64_t>(x);
    unsigned bit = 0;  // the highest differing bit
    if (high != 0) {
      bit = 127 - static_cast<unsigned>(std::countl_zero(high));
    } else if (low != 0) {
      bit = 63 - static_cast<unsigned>(std::countl_zero(low));
    } else {
      return 0;
    }
    const unsigned level = bit / digit_bits;
    const unsigned shift = level * digit_bits;
    const auto word = shift >= 64 ? static_cast<std::uint64_t>(key >> 64) : static_cast<std::uint64_t>(key);
    const unsigned digit = static_cast<unsigned>(word >> (shift % 64)) & (digit_values - 1);
    return 1 + level * digit_values + digit;
  }
  void append(unsigned b, Key key) {
    std::uint32_t h = head_[b];
    if (h == none || chunks_[h].count == chunk_keys) {
      std::uint32_t fresh = free_;
      if (fresh != none) {
        free_ = chunks_[fresh].next;
      } else {
        fresh = static_cast<std::uint32_t>(chunks_.size());
        chunks_.emplace_back();
      }
      Chunk& c = chunks_[fresh];
      c.count = 0;
      c.next = h;
      head_[b] = fresh;
      nonempty_[b / word_bits] |= std::uint64_t{1} << (b % word_bits);  // bucket b has keys
      h = fresh;
    }
    Chunk& c = chunks_[h];
    c.keys[c.count++] = key;
  }

  /// Empties bucket b and returns its list of chunks, which the caller frees.
  std::uint32_t detach(unsigned b) {
    const std::uint32_t list = head_[b];
    head_[b] = none;
    nonempty_[b / word_bits] &= ~(std::uint64_t{1} << (b % word_bits));
    return list;
  }
  /// Puts chunk h on the free list; returns the chunk that followed it in its bucket.
  std::uint32_t free_chunk(std::uint32_t h) {
    const std::uint32_t next = chunks_[h].next;
    chunks_[h].next = free_;
    free_ = h;
    return next;
  }
  /// Returns bucket b's chunks to the free list; the bucket is then empty.
  void release(unsigned b) {
    for (std::uint32_t h = detach(b); h != none;) h = free_chunk(h);
  }

  /// Makes bucket 0 hold the radix part's minimum, which becomes `last_`; the radix part must not
  /// be empty. Every key of the lowest non-empty bucket shares its bits above that bucket's with
  /// the new minimum, so each moves to a lower bucket.
  void settle() {
    if ((nonempty_[0] & 1) != 0) return;
    unsigned b = 0;
    for (unsigned w = 0; w < nonempty_.size(); ++w) {
      if (nonempty_[w] != 0) {
        b = w * word_bits + static_cast<unsigned>(std::countr_zero(nonempty_[w]));
        break;
      }
    }
    Key least = chunks_[head_[b]].keys[0];
    for (std::uint32_t h = head_[b]; h != none; h = chunks_[h].next) {
      const Chunk& c = chunks_[h];
      for (std::uint32_t i = 0; i < c.count; ++i) least = std::min(least, c.keys[i]);
    }
    last_ = least;
    // Detach the bucket, then move its keys chunk by chunk, each chunk freed once emptied (the
    // moves reuse it): the pool never holds a key twice.
    for (std::uint32_t h = detach(b); h != none;) {
      const std::uint32_t count = chunks_[h].count;
      for (std::uint32_t i = 0; i < count; ++i) {
        const Key key = chunks_[h].keys[i];  // chunks_ may grow below: no reference kept
        append(bucket_of(key), key);
      }
      h = free_chunk(h);
    }
  }

  std::vector<Chunk> chunks_;
  std::uint32_t free_ = none;
  std::array<std::uint32_t, bucket_count> head_ = filled_heads();
  std::array<std::uint64_t, (bucket_count + word_bits - 1) / word_bits> nonempty_{};
  Key last_ = 0;
  std::size_t size_ = 0;
  std::vector<Key> early_;  ///< keys pushed below last_: a binary min-heap

  static constexpr std::array<std::uint32_t, bucket_count> filled_heads() {
    std::array<std::uint32_t, bucket_count> heads{};
    for (std::uint32_t& h : heads) h = none;
    return heads;
  }
};

static_assert(ReadyQueue<RadixQueue>);

}  // namespace augur::engine
