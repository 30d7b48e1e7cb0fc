// Per-LP accumulators of a run (the first report; spec section 8 builds on them): compute,
// transfer and waiting time, message and byte counts. An observer, so it costs nothing when off.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/observer.hpp"
#include "engine/prefetch.hpp"

namespace augur::models::report {

/// What one LP did during the run.
struct LpStats {
  double compute_s = 0;   ///< compute events (flops / speed, scaled durations)
  double transfer_s = 0;  ///< communication time not spent waiting for a peer
  double wait_s = 0;      ///< communication time spent waiting for a peer (late sender, collective entry…)
  double sleep_s = 0;     ///< explicit sleeps
  double end_s = 0;       ///< clock when the LP finished
  std::uint64_t messages_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t messages_received = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t collectives = 0;
  std::uint64_t events = 0;
};
static_assert(sizeof(LpStats) == 88, "88 bytes per LP: a million ranks stay within 1 KB per LP");

/// Observer filling one LpStats per LP.
class RunStats final : public engine::Observer, public engine::Prefetching {
 public:
  explicit RunStats(std::uint32_t lp_count) : lps_(lp_count) {}
  void on_event(const engine::Event& e) override;
  void plan_prefetch(engine::PrefetchPlan& plan) const override { plan.add_records(lps_.data(), sizeof(LpStats)); }
  const std::vector<LpStats>& lps() const { return lps_; }
  /// Moves the per-LP records out (lps() is empty afterwards): no copy of P records at the end.
  std::vector<LpStats> take_lps() { return std::move(lps_); }

 private:
  std::vector<LpStats> lps_;
};

}  // namespace augur::models::report
