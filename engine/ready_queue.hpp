// The scheduler's ready queue: its entries, its interface and its three forms (engine/README.md).
#pragma once
#include <bit>
#include <concepts>
#include <cstdint>

#include "engine/sim_time.hpp"

namespace augur::engine {

/// An entry of the ready queue: (time, LP) packed into one unsigned integer whose order is the
/// order of the schedule (earlier time, then smaller LP), so that a queue compares entries with
/// one integer comparison, without a branch to mispredict (its comparisons are as unpredictable
/// as the schedule). The time's bits are made monotonic (sign bit flipped for positives, every
/// bit for negatives) after `+ 0.0` turns -0 into +0, which `<` treats as equal; times are never
/// NaN. An LP is in the queue at most once, so entries are distinct and the order is total
/// whatever the queue's shape.
__extension__ using ReadyEntry = unsigned __int128;
static_assert(sizeof(ReadyEntry) == 16, "ready-queue entries are moved on every step: keep them small");

inline ReadyEntry ready_entry(SimTime time, LpId lp) {
  const auto bits = std::bit_cast<std::uint64_t>(time + 0.0);
  const std::uint64_t flip =
      static_cast<std::uint64_t>(static_cast<std::int64_t>(bits) >> 63) | (std::uint64_t{1} << 63);
  return (static_cast<ReadyEntry>(bits ^ flip) << 32) | lp;
}
inline LpId ready_lp(ReadyEntry entry) { return static_cast<LpId>(entry); }
/// The entry's time (+0 for a time that was -0).
inline SimTime ready_time(ReadyEntry entry) {
  const auto key = static_cast<std::uint64_t>(entry >> 32);
  const std::uint64_t flip = (key >> 63) != 0 ? std::uint64_t{1} << 63 : ~std::uint64_t{0};
  return std::bit_cast<SimTime>(key ^ flip);
}

/// What the scheduler asks of a ready queue: a min-priority queue of distinct entries. `top`,
/// `pop` and `replace_top` need a non-empty queue; `replace_top(e)` takes the earliest entry out
/// and puts `e` in (one operation where the form allows: the stepped LP exchanged with the next).
/// Every form gives the same entries in the same order, so the form changes no schedule. The
/// scheduler picks one form per run and steps with it as a template argument: the forms are
/// inlined into the loop, with no test of the form per operation.
template <typename Q>
concept ReadyQueue = requires(Q q, const Q cq, ReadyEntry e) {
  { cq.empty() } -> std::same_as<bool>;
  { q.top() } -> std::same_as<ReadyEntry>;
  { q.pop() } -> std::same_as<ReadyEntry>;
  q.push(e);
  { q.replace_top(e) } -> std::same_as<ReadyEntry>;
};

}  // namespace augur::engine
