// RadixQueue against std::priority_queue: every top and pop of long random sequences, keys
// mostly in order (a schedule), ties in the high bits, keys far apart, and keys below the last
// minimum (an LP woken in the past).
#include "engine/radix_queue.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

using augur::engine::RadixQueue;
using Key = RadixQueue::Key;

namespace {

struct Rng {
  std::uint64_t x;
  std::uint64_t next() {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x >> 11;
  }
};

Key make_key(std::uint64_t high, std::uint64_t low) { return (static_cast<Key>(high) << 64) | low; }

/// Runs `steps` random operations on a RadixQueue and std::priority_queue, checking every top
/// and pop; `next_key(min)` gives a key to push after a pop of `min` (distinct keys: the low bits
/// carry a counter).
template <class NextKey>
void compare(std::size_t steps, Rng& rng, NextKey next_key, std::size_t initial) {
  RadixQueue q;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> reference;
  std::uint64_t serial = 0;
  for (std::size_t i = 0; i < initial; ++i) {
    const Key k = next_key(Key{0}, serial++);
    q.push(k);
    reference.push(k);
  }
  for (std::size_t step = 0; step < steps; ++step) {
    REQUIRE(q.size() == reference.size());
    const unsigned op = static_cast<unsigned>(rng.next() % 8);
    if (!reference.empty() && op < 4) {  // pop, then (mostly) push a later key: the hold model
      REQUIRE(q.top() == reference.top());
      const Key min = q.pop();
      REQUIRE(min == reference.top());
      reference.pop();
      if (op < 3) {
        const Key k = next_key(min, serial++);
        q.push(k);
        reference.push(k);
      }
    } else if (!reference.empty() && op == 4) {
      REQUIRE(q.top() == reference.top());
    } else {
      const Key base = reference.empty() ? Key{0} : reference.top();
      const Key k = next_key(base, serial++);
      q.push(k);
      reference.push(k);
    }
  }
  while (!reference.empty()) {  // and drained in order
    REQUIRE(q.pop() == reference.top());
    reference.pop();
  }
  CHECK(q.empty());
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("RadixQueue gives a schedule's keys in order: times ahead of the minimum - ties - lows") {
    Rng rng{42};
    // Keys as the scheduler packs them: (time bits << 32) | LP. Times a few steps ahead of the
    // minimum, often the same time (ties broken by the low bits), a zero step now and then.
    compare(
        200'000, rng,
        [&rng](Key min, std::uint64_t serial) {
          const std::uint64_t time = static_cast<std::uint64_t>(min >> 32) + (rng.next() % 4) * (rng.next() % 1000);
          return (static_cast<Key>(time) << 32) | (serial & 0xffffffffU);
        },
        3000);
  }

  TEST_CASE("RadixQueue keeps the order for keys far apart and keys below the last minimum") {
    Rng rng{7};
    // High words anywhere (every bucket used), and one push in four below the current minimum:
    // those go to the binary heap that comes first.
    compare(
        100'000, rng,
        [&rng](Key min, std::uint64_t serial) {
          const unsigned kind = static_cast<unsigned>(rng.next() % 4);
          const auto high = static_cast<std::uint64_t>(min >> 64);
          if (kind == 0 && high > 0) return make_key(rng.next() % high, serial);
          if (kind == 1) return make_key(high, (rng.next() << 24) | (serial & 0xffffffU));
          return make_key(high + (rng.next() >> (rng.next() % 53)), serial);
        },
        500);
  }

  TEST_CASE("RadixQueue orders keys that differ from the minimum in one digit - at every level") {
    Rng rng{99};
    // Each key is the minimum with one 4-bit digit above bit 20 raised (the digit's level and
    // value at random, on either side of bit 64) and a serial number in its low 20 bits
    // (distinct keys): buckets (L, d) of every level from 5 up.
    compare(
        100'000, rng,
        [&rng](Key min, std::uint64_t serial) {
          const unsigned shift = 4 * static_cast<unsigned>(5 + rng.next() % 27);
          const Key mask = Key{15} << shift;
          const Key raised =
              std::max((min & ~mask) | (static_cast<Key>(1 + rng.next() % 15) << shift), min + (Key{1} << 20));
          return ((raised >> 20) << 20) | (serial & 0xfffff);
        },
        2000);
  }

  TEST_CASE("RadixQueue reuses its chunks: thousands of keys in one bucket - emptied and refilled") {
    RadixQueue q;
    for (int round = 0; round < 3; ++round) {
      // 5,000 keys sharing their high word (a few buckets, the largest of dozens of chunks),
      // above the last minimum, pushed in reverse and popped in order; then the next round's.
      const std::uint64_t high = 1000 + static_cast<std::uint64_t>(round);
      for (std::uint64_t i = 5000; i-- > 0;) q.push(make_key(high, i * 3));
      for (std::uint64_t i = 0; i < 5000; ++i) {
        REQUIRE(q.top() == make_key(high, i * 3));
        REQUIRE(q.pop() == make_key(high, i * 3));
      }
      CHECK(q.empty());
    }
  }
}
