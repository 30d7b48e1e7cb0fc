// Wait states of a simulated run (spec section 9; Scalasca's patterns): late sender, late
// receiver, wait at barrier, early reduce, late broadcast, wait at N×N — per LP and per operation
// kind, each split into direct waits and indirect (propagated) ones.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <string>
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

/// A code region's share of the waiting it caused (root causes, H-CWP-DM). Regions are the
/// computation phases between two consecutive communication calls of a rank, named by those calls
/// ("compute between recv from 2 tag 7 and allreduce"), so the same phase of every iteration
/// aggregates into one region a user can find in the program.
struct RegionCause {
  std::string name;
  double caused_s = 0;       ///< waiting time of other LPs attributed to this region
  double excess_s = 0;       ///< sum of its positive excesses over the waiting LPs
  std::uint64_t waits = 0;   ///< waits it contributed to
};

/// Per-LP results.
struct LpWaits {
  std::array<WaitAmount, wait_pattern_count> patterns{};
  double total_s() const;
  double indirect_s() const;  ///< indirect part over all patterns
};

/// Pattern by pattern sum of `lps` (totals, indirect parts and counts).
LpWaits sum_waits(const std::vector<LpWaits>& lps);

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
  /// Per operation kind (same indexing): the part of its direct waiting explained by regions.
  const std::vector<double>& explained_by_operation() const { return explained_; }
  /// Every region that caused waiting, sorted by caused time (largest first; ties by name).
  std::vector<RegionCause> causes() const;

 private:
  struct Interval {
    double begin;
    double end;
  };
  struct Phase {
    double begin;
    double end;
    std::uint32_t region;
  };
  static constexpr std::size_t phase_ring = 8;  // computation phases kept per LP
  static constexpr std::size_t sync_ring = 4;   // synchronisation points kept per LP
  struct LpTrace {
    std::array<Phase, phase_ring> phases{};
    std::array<double, sync_ring> syncs{};
    std::uint32_t phase_count = 0;
    std::uint32_t sync_count = 0;
    std::uint32_t prev_call = 0;   ///< signature id of the last communication call (0 = start)
    double pending_begin = 0;
    double pending_end = 0;
    bool pending = false;
  };
  struct OpenCollective {
    engine::CollectiveKind kind = engine::CollectiveKind::barrier;
    std::int32_t root = 0;
    std::uint32_t entered = 0;
    std::vector<double> enter;  ///< entry time per LP
  };

  void record(engine::LpId p, WaitPattern pattern, std::size_t op, double enter_p, double enter_q, engine::LpId q);
  void attribute(engine::LpId p, engine::LpId q, std::size_t op, double enter_p, double enter_q, double direct);
  void close_phase(engine::LpId lp, const engine::Event& e);
  void classify(const engine::Event& e);
  double last_sync(engine::LpId lp, double before) const;
  std::uint32_t intern(std::map<std::string, std::uint32_t>& table, std::vector<std::string>& names, std::string name);
  double waiting_within(engine::LpId q, double begin, double end) const;
  void close_collective(std::uint64_t seq, OpenCollective& c);

  std::vector<LpWaits> lps_;
  std::vector<WaitAmount> by_operation_;
  std::vector<std::vector<Interval>> history_;   ///< recent wait intervals per LP (bounded)
  std::vector<std::uint64_t> collective_seq_;    ///< collectives entered per LP
  std::vector<std::pair<std::uint64_t, OpenCollective>> open_;  ///< collectives not yet entered by all
  std::vector<LpTrace> traces_;
  std::vector<double> explained_;
  std::map<std::string, std::uint32_t> call_ids_;
  std::vector<std::string> call_names_;
  std::map<std::string, std::uint32_t> region_ids_;
  struct CallKeyHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const {
      return std::hash<std::uint64_t>()(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
    }
  };
  /// (kind, detail) × (peer, tag) → call id, so that names are built once per distinct call.
  std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t, CallKeyHash> call_cache_;
  std::unordered_map<std::uint64_t, std::uint32_t> region_cache_;  ///< (prev call, call) → region
  std::vector<std::string> region_names_;
  std::vector<RegionCause> regions_;
};

}  // namespace augur::models::analysis
