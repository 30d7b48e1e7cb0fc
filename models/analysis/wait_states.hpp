// Wait states of a simulated run (spec section 9; Scalasca's patterns): late sender, late
// receiver, wait at barrier, early reduce, late broadcast, wait at N×N — per LP and per operation
// kind, each split into direct waits and indirect (propagated) ones.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/collective_kind.hpp"
#include "engine/observer.hpp"

namespace augur::models::analysis {

/// The wait-state patterns.
enum class WaitPattern : std::uint8_t {
  late_sender,      ///< a receive (or its wait) posted before the matching send started
  late_receiver,    ///< a rendezvous send waiting for its receive
  wait_at_barrier,  ///< from a barrier entry to the last entry
  early_reduce,     ///< the root of a reduce / gather entered before the last contributor
  late_broadcast,   ///< a non-root of a bcast / scatter entered before the root
  wait_at_nxn,      ///< all-to-all collectives (allreduce, alltoall, allgather, scan…) waiting for the last entry
};
inline constexpr std::size_t wait_pattern_count = 6;

/// snake_case name of a pattern ("late_sender").
std::string_view to_string(WaitPattern pattern);

/// Waiting time of one pattern: total and the part propagated from the waited-for LP's own waits.
struct WaitAmount {
  double total_s = 0;
  double indirect_s = 0;
  std::uint64_t count = 0;  ///< number of waiting operations (w > 0)
  double direct_s() const { return total_s - indirect_s; }
};

/// Per-LP results.
struct LpWaits {
  std::array<WaitAmount, wait_pattern_count> patterns{};
  double total_s() const;
};

/// Observer computing wait states from the engine's events. A wait of p on q over
/// [Enter(p,i), Enter(q,k)] has w = Enter(q,k) − Enter(p,i) (q: the sender, the receiver, or the
/// latest participant of a collective); its indirect part is the time q itself spent waiting
/// inside that interval (the delay it only passed on), the rest is direct.
class WaitStateAnalyzer final : public engine::Observer {
 public:
  explicit WaitStateAnalyzer(std::uint32_t lp_count);
  void on_event(const engine::Event& event) override;

  const std::vector<LpWaits>& lps() const { return lps_; }
  /// Totals per pattern over all LPs.
  LpWaits totals() const;
  /// Waiting time per operation kind: index 0 = point-to-point, 1 + CollectiveKind otherwise.
  const std::vector<WaitAmount>& by_operation() const { return by_operation_; }

 private:
  struct Interval {
    double begin;
    double end;
  };
  struct OpenCollective {
    engine::CollectiveKind kind = engine::CollectiveKind::barrier;
    std::int32_t root = 0;
    std::uint32_t entered = 0;
    std::vector<double> enter;  ///< entry time per LP
  };

  void record(engine::LpId p, WaitPattern pattern, std::size_t op, double enter_p, double enter_q, engine::LpId q);
  double waiting_within(engine::LpId q, double begin, double end) const;
  void close_collective(std::uint64_t seq, OpenCollective& c);

  std::vector<LpWaits> lps_;
  std::vector<WaitAmount> by_operation_;
  std::vector<std::vector<Interval>> history_;   ///< recent wait intervals per LP (bounded)
  std::vector<std::uint64_t> collective_seq_;    ///< collectives entered per LP
  std::vector<std::pair<std::uint64_t, OpenCollective>> open_;  ///< collectives not yet entered by all
};

}  // namespace augur::models::analysis
