// A flat open-addressing hash map from a (destination, source) pair key to a small trivially
// copyable value: MpProgram's per-pair queues. One array of (key, value) slots with linear
// probing, so that a lookup is a multiply and usually one cache line, where std::unordered_map
// follows a bucket pointer to a separately allocated node. MpProgram erases a pair when both its
// queues are empty, so the table holds the pairs with messages or receives in flight, not every
// pair that ever communicated: memory follows the messages in flight, not P².
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace augur::models::mp {

template <typename Value>
class PairIndex {
  static_assert(std::is_trivially_copyable_v<Value>, "slots are moved by copy when the table grows");

 public:
  /// A key that is never used: pair keys are (dst << 32) | src with ranks in [0, 2^31).
  static constexpr std::uint64_t empty_key = ~std::uint64_t{0};

  /// The value of `key`, or nullptr. The pointer is valid until the next insertion or erasure.
  Value* find(std::uint64_t key) {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == empty_key) return nullptr;
    }
  }

  /// The value of `key`, inserted value-initialised when missing. The reference is valid until
  /// the next insertion or erasure.
  Value& operator[](std::uint64_t key) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();  // load factor at most 3/4
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.key == key) return s.value;
      if (s.key == empty_key) {
        s.key = key;
        s.value = Value{};
        ++size_;
        return s.value;
      }
    }
  }

  /// Removes `key` if present (backward-shift deletion: no tombstones, so lookups stay as short
  /// as if the key had never been inserted). The table does not shrink.
  void erase(std::uint64_t key) {
    if (slots_.empty()) return;
    std::size_t i = slot_of(key);
    while (slots_[i].key != key) {
      if (slots_[i].key == empty_key) return;
      i = (i + 1) & mask_;
    }
    // Move later entries of the probe run back into the hole when their home slot allows it.
    for (std::size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].key == empty_key) break;
      const std::size_t home = slot_of(slots_[j].key);
      // j may fill hole i unless its home lies cyclically in (i, j].
      const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = Slot{};
    --size_;
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::uint64_t key = empty_key;
    Value value{};
  };

  /// Slots in a block: the pairs of 16 consecutive destinations with the same distance to their
  /// source (dst − src: a ring's, a stencil's neighbour) share 4 cache lines.
  static constexpr std::size_t block_slots = 16;

  std::size_t slot_of(std::uint64_t key) const {
    // A pair's block: Fibonacci hashing (the high bits of x × 2^64/φ, well spread) of its
    // distance and its destination's block; within the block, the destination's low bits. The
    // ranks step in order at equal times, so at many ranks consecutive lookups fall in one
    // block instead of one cache miss each on a 32 MB table (a million ranks). No two keys share
    // (distance, block, offset), so a block's own keys never collide.
    const std::uint64_t dst = key >> 32;
    const std::uint64_t distance = (dst - key) & 0xFFFFFFFFULL;  // dst − src, modulo 2^32
    const std::uint64_t block = ((distance << 32) | (dst / block_slots)) * 0x9E3779B97F4A7C15ULL;
    return (static_cast<std::size_t>(block >> shift_) & ~(block_slots - 1)) | (dst & (block_slots - 1));
  }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    const std::size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (const Slot& s : old) {
      if (s.key == empty_key) continue;
      std::size_t i = slot_of(s.key);
      while (slots_[i].key != empty_key) i = (i + 1) & mask_;
      slots_[i] = s;
      ++size_;
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace augur::models::mp
