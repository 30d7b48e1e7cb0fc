// Wait states of a simulated run (spec section 9; Scalasca's patterns): late sender, late
// receiver, wait at barrier, early reduce, late broadcast, wait at N×N — per LP and per operation
// kind, each split into direct waits and indirect (propagated) ones.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/collective_kind.hpp"
#include "engine/observer.hpp"
#include "engine/prefetch.hpp"
#include "support/page_arena.hpp"

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
  /// Counts one wait of `w` seconds, `indirect` of them propagated.
  void add(double w, double indirect) {
    total_s += w;
    indirect_s += indirect;
    ++count;
  }
  /// Adds another amount (its totals and counts).
  void add(const WaitAmount& other) {
    total_s += other.total_s;
    indirect_s += other.indirect_s;
    count += other.count;
  }
};

/// One amount per pattern, and their sums over the patterns.
using PatternAmounts = std::array<WaitAmount, wait_pattern_count>;
double total_s(const PatternAmounts& patterns);
double indirect_s(const PatternAmounts& patterns);
std::uint64_t count(const PatternAmounts& patterns);

/// A code region's share of the waiting it caused (root causes, H-CWP-DM). Regions are the
/// computation phases between two consecutive communication calls of a rank, identified by their
/// position in the program: the kinds of the two calls (isend, recv, wait, allreduce, …; not the
/// peer or the tag, which differ between ranks and iterations), so the same phase of every rank
/// and iteration aggregates into one region. The name says where to find its first occurrence on
/// the lowest rank that runs it, by the rank's calls numbered per kind:
/// "compute between wait and irecv (rank 0: after wait #2, before irecv #2)". Where the trace
/// marks code regions (TI `location FILE LINE` actions: a region lasts from one `location` of a
/// rank to the next or to its end), the computation inside a marked region belongs to that region
/// instead, named "FILE:LINE" like the characteristics' intervals ("line LINE" when no namer gives
/// the file); computation before a rank's first `location` keeps its call-pair phase, the
/// `location` counting as a call ("compute between the start and location (rank 0: before
/// location #1)").
struct RegionCause {
  std::string name;
  double caused_s = 0;      ///< waiting time of other LPs attributed to this region
  double excess_s = 0;      ///< sum of its positive excesses over the waiting LPs
  std::uint64_t waits = 0;  ///< waits it contributed to
};

/// Where ranks wait (a wait site): the call they wait in, identified by its position in the
/// program like the regions of RegionCause — the kinds of that call and of the call before it,
/// pooled over ranks and iterations — and named by its first occurrence on the lowest rank:
/// "allreduce after wait (rank 0: allreduce #2)"; inside a `location` region, that region
/// ("solve.c:42"). Its waiting time per pattern.
struct WaitSite {
  std::string name;
  PatternAmounts patterns{};
  double total_s() const { return analysis::total_s(patterns); }
  double indirect_s() const { return analysis::indirect_s(patterns); }
  std::uint64_t count() const { return analysis::count(patterns); }
};

/// Sorts wait sites as the reports list them: most waiting first, ties by name.
void sort_sites(std::vector<WaitSite>& sites);

/// Per-LP results.
struct LpWaits {
  PatternAmounts patterns{};
  /// The part of late_sender waited while a message sent earlier to the same LP was already there
  /// to be received (messages in the wrong order; Scalasca's "Late Sender, Wrong Order"): not a
  /// pattern of its own, so not in total_s() or indirect_s().
  WaitAmount wrong_order{};
  /// Direct waiting of other LPs on this one: the delay it caused, not one it passed on.
  double caused_s = 0;
  double total_s() const { return analysis::total_s(patterns); }
  double indirect_s() const { return analysis::indirect_s(patterns); }  ///< indirect part over all patterns
};

/// Pattern by pattern sum of `lps` (totals, indirect parts and counts).
LpWaits sum_waits(const std::vector<LpWaits>& lps);

/// Sorts root causes as the reports list them: most waiting caused first, ties by name.
void sort_causes(std::vector<RegionCause>& causes);

/// The root causes of `regions` (each with caused_s, excess_s and waits) that caused waiting,
/// named by `name(region)`, in report order (WaitStateAnalyzer's and DvmWaitStates' causes()).
template <class Regions, class Name>
std::vector<RegionCause> causes_of(const Regions& regions, Name&& name) {
  std::vector<RegionCause> out;
  for (const auto& r : regions) {
    if (r.caused_s > 0) out.push_back(RegionCause{name(r), r.caused_s, r.excess_s, r.waits});
  }
  sort_causes(out);
  return out;
}

/// Observer computing wait states from the engine's events. A wait of p on q over
/// [Enter(p,i), Enter(q,k)] has w = Enter(q,k) − Enter(p,i) (q: the sender, the receiver, or the
/// latest participant of a collective); its indirect part is the time q itself spent waiting
/// inside that interval (the delay it only passed on), the rest is direct. Cost per event: a
/// switch, a table lookup and ring-buffer writes in fixed per-LP arrays (no hashing, no
/// allocation; a `location` adds a binary search of the regions, allocating only for a new one);
/// per wait, scans of those rings.
class WaitStateAnalyzer final : public engine::Observer, public engine::Prefetching {
 public:
  /// Entries each LP keeps of its computation phases, synchronisation points and wait intervals
  /// (the history the indirect waits and root causes look back into).
  static constexpr std::uint32_t full_history = 16;
  /// The history above `history_limit` LPs (see history_for): 248 instead of 800 bytes per LP.
  static constexpr std::uint32_t reduced_history = 4;
  static constexpr std::uint32_t history_limit = 262144;
  /// full_history up to history_limit LPs, reduced_history above (unless `force_full`).
  static std::uint32_t history_for(std::uint32_t lp_count, bool force_full) {
    return force_full || lp_count <= history_limit ? full_history : reduced_history;
  }

  /// `history`: ring entries per LP, a power of two ≤ full_history (std::invalid_argument
  /// otherwise); full_history unless memory forbids it.
  explicit WaitStateAnalyzer(std::uint32_t lp_count, std::uint32_t history = full_history);
  void on_event(const engine::Event& event) override;
  /// Its headers, and at an LP's turn the ring slots the LP writes next (prefetch_slots).
  void plan_prefetch(engine::PrefetchPlan& plan) const override {
    plan.add_records(heads_.data(), sizeof(LpHead));
    plan.add_turn_hook(&prefetch_slots, this);
  }

  /// The file of the `location` region an LP enters, asked at its interval_enter event (whose tag
  /// is the line); the view must stay valid during that call only. MpProgram::current_region(lp)
  /// gives it. Without a namer, regions with the same line in different files are one region.
  using LocationNamer = std::function<std::string_view(engine::LpId lp, std::int32_t line)>;
  void set_location_namer(LocationNamer namer) { location_namer_ = std::move(namer); }
  /// The members (LPs in communicator-rank order) of communicator c ≥ 1, entry c: collective
  /// events on it (engine::collective_event_comm) are matched among its members. Collectives on a
  /// communicator not listed are not analysed (no pattern); without a table, only the world's.
  void set_communicators(std::vector<std::vector<std::int32_t>> comms) { comms_ = std::move(comms); }

  const std::vector<LpWaits>& lps() const { return lps_; }
  /// Moves the per-LP results out (lps() is empty afterwards): no copy of P records at the end.
  std::vector<LpWaits> take_lps() { return std::move(lps_); }
  /// Frees the per-LP history once the run is over (the results and causes() stay).
  void release_history();
  std::uint32_t history() const { return history_; }
  /// Bytes of history per LP for `history` entries (the header with the call counters included;
  /// a run calling more than inline_ordinals kinds of call adds 72 bytes of counters).
  static constexpr std::size_t history_bytes(std::uint32_t history) {
    // per entry: a phase and its region, a sync point and its peer, a wait interval
    return sizeof(LpHead) +
           history * (sizeof(Span) + sizeof(std::uint16_t) + sizeof(double) + sizeof(std::uint32_t) + sizeof(Span));
  }
  /// Totals per pattern over all LPs.
  LpWaits totals() const;
  /// Waiting time per operation kind: index 0 = point-to-point, 1 + CollectiveKind otherwise.
  const std::vector<WaitAmount>& by_operation() const { return by_operation_; }
  /// Per operation kind (same indexing): the part of its direct waiting explained by regions.
  const std::vector<double>& explained_by_operation() const { return explained_; }
  /// Every region that caused waiting, sorted by caused time (largest first; ties by name).
  std::vector<RegionCause> causes() const;
  /// Every site where LPs waited, sorted by waiting time (largest first; ties by name).
  std::vector<WaitSite> sites() const;

  /// Call codes: the start, point-to-point calls, the end, then one per collective kind.
  static constexpr std::size_t call_code_count = 10 + static_cast<std::size_t>(engine::CollectiveKind::exscan) + 1;
  /// Regions are pairs of call codes (ids fit the 16 bits a phase keeps).
  static constexpr std::size_t region_limit = call_code_count * call_code_count;
  /// Distinct `location` regions kept as regions of their own (with the call pairs, ids still fit
  /// 16 bits and an LP's current one + 1 its 16-bit field); computation in further ones counts in
  /// its call-pair phase.
  static constexpr std::size_t location_limit = 0xffff - region_limit;

 private:
  static constexpr std::uint32_t sync_all = 0xffffffffU;  // a collective: a sync point with every LP

  struct Span {
    double begin;
    double end;
  };
  /// Call codes whose per-LP call counters live in the header: the first seven codes a run uses,
  /// in order of appearance (a message-passing program rarely calls more kinds); the counters of
  /// further codes are in `extra_ordinals_`.
  static constexpr std::size_t inline_ordinals = 7;
  static constexpr std::uint8_t no_slot = 0xff;
  /// Per LP: the open phase and the counters, one cache line; the rings (history_ entries each)
  /// live in flat arrays indexed lp · history_ + slot (not zeroed: slots are written before they
  /// are read). An event touches this header and one slot of a ring.
  struct alignas(64) LpHead {
    double pending_begin = 0;
    double pending_end = 0;
    std::uint32_t phase_count = 0;
    std::uint32_t sync_count = 0;
    std::uint32_t wait_count = 0;
    std::uint32_t prev_ordinal = 0;  ///< the previous call's number among the LP's calls of its kind
    std::uint8_t prev_call = 0;      ///< code of the last communication call (0 = the start)
    bool pending = false;            ///< a computation phase is open
    std::uint16_t location = 0;      ///< the marked (`location`) region the LP is in, id + 1; 0 = none
    /// Calls so far of the codes with slots 0 to 6 (slot_): their numbers in the names.
    std::array<std::uint32_t, inline_ordinals> ordinals{};
  };
  static_assert(sizeof(LpHead) == 64, "the per-LP header of docs/analysis.md: one cache line");
  /// A region: a pair of call codes and where it first ran on its lowest rank, or a `location`
  /// region (file and line); its attributions.
  struct Region {
    std::uint8_t before = 0;
    std::uint8_t after = 0;
    engine::LpId lp = 0;
    std::uint32_t before_ordinal = 0;
    std::uint32_t after_ordinal = 0;
    double caused_s = 0;
    double excess_s = 0;
    std::uint64_t waits = 0;
    bool location = false;  ///< a `location` region: file and line below, not a call pair
    std::int32_t line = 0;
    std::string file;
    /// As a wait site (the call `after` following the call `before`, or the `location` region):
    /// the waiting there, and its first occurrence on the lowest rank.
    PatternAmounts waited{};
    engine::LpId site_lp = std::numeric_limits<engine::LpId>::max();
    std::uint32_t site_ordinal = 0;
  };
  /// A `location` region's key in locations_ (sorted by line, then its region's file): no hashing.
  struct LocationKey {
    std::int32_t line;
    std::uint32_t region;
  };
  struct OpenCollective {
    engine::CollectiveKind kind = engine::CollectiveKind::barrier;
    std::int32_t root = 0;
    std::int32_t comm = 0;  ///< 0 = the world; enter and site are per LP either way
    std::uint32_t entered = 0;
    std::vector<double> enter;        ///< entry time per LP
    std::vector<std::uint16_t> site;  ///< wait site per LP (its call of this collective)
  };

  /// The ring slots LP `lp` writes next and its results (plan_prefetch).
  static void prefetch_slots(const void* self, engine::LpId lp);
  void record(engine::LpId p, WaitPattern pattern, std::size_t op, std::uint32_t site, double enter_p, double enter_q,
              engine::LpId q, bool wrong_order = false);
  void attribute(engine::LpId p, engine::LpId q, std::size_t op, double enter_p, double enter_q, double direct);
  void close_phase(engine::LpId lp, const engine::Event& e);
  std::uint32_t next_ordinal(engine::LpId lp, LpHead& t, std::uint8_t call);
  [[gnu::noinline]] std::uint8_t assign_slot(std::uint8_t call);
  void add_sync(engine::LpId lp, double at, std::uint32_t with);
  void classify(const engine::Event& e);
  double last_sync(engine::LpId lp, engine::LpId peer, double before, bool sends) const;
  std::uint32_t region_of(std::uint8_t before, std::uint8_t after);
  [[gnu::noinline]] std::uint32_t new_region(std::uint8_t before, std::uint8_t after);
  void enter_location(const engine::Event& e);
  void store_phase(engine::LpId lp, std::uint32_t region);
  double waiting_within(engine::LpId q, double begin, double end) const;
  void close_collective(OpenCollective& c);
  std::string region_name(const Region& r) const;
  std::string site_name(const Region& r) const;

  std::vector<LpWaits> lps_;
  std::vector<WaitAmount> by_operation_;
  std::vector<std::uint64_t> collective_seq_;                   ///< world collectives entered per LP
  std::vector<std::vector<std::int32_t>> comms_;                ///< set_communicators
  std::vector<std::vector<std::uint64_t>> comm_seq_;            ///< per communicator, per member: entered
  std::vector<std::pair<std::uint64_t, OpenCollective>> open_;  ///< collectives not yet entered by all
  std::uint32_t history_;                                       ///< ring entries per LP (a power of two)
  std::uint32_t mask_;                                          ///< history_ − 1
  std::vector<LpHead> heads_;
  std::array<std::uint8_t, call_code_count> slot_;  ///< call code → its counter's slot; no_slot: not seen yet
  std::uint8_t slots_used_ = 0;
  /// Per LP, the counters of the codes beyond inline_ordinals: lp · (call_code_count −
  /// inline_ordinals) + slot − inline_ordinals; allocated (zeroed) when a run first calls an
  /// eighth code.
  std::unique_ptr<std::uint32_t[]> extra_ordinals_;
  /// The rings' memory, one block (not zeroed). From ring_pages_min_bytes on it is on 2 MiB
  /// pages, which saves the first writes' page faults of large runs. Below, on the heap: a
  /// huge page's first touch would zero 2 MiB for a small run.
  static constexpr std::size_t ring_pages_min_bytes = support::PageArena::huge_page;
  std::unique_ptr<support::PageArena> ring_pages_;
  std::unique_ptr<std::byte[]> ring_heap_;
  Span* phases_ = nullptr;                 ///< computation phases…
  std::uint16_t* phase_region_ = nullptr;  ///< … and their regions
  double* sync_at_ = nullptr;              ///< synchronisation points…
  /// … and with whom: 2·peer + 1 for a message sent to peer (a sync point for the sender only),
  /// 2·peer for a completion that depended on peer, sync_all for a collective.
  std::uint32_t* sync_with_ = nullptr;
  Span* waits_ = nullptr;  ///< recent wait intervals, for indirect waits
  std::vector<double> explained_;
  std::array<std::uint32_t, call_code_count * call_code_count> region_ids_{};  ///< (before, after) → id + 1
  std::vector<Region> regions_;
  std::vector<std::uint16_t> site_;  ///< per LP: the wait site of its last call (a region id)
  LocationNamer location_namer_;
  std::vector<LocationKey> locations_;  ///< the `location` regions, sorted by (line, file)
};

}  // namespace augur::models::analysis
