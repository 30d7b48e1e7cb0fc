// Wait states and their root causes in a DVM run (spec section 9 on the DVM model's events): who
// waits for whom at the group operations of the processor systems, and which statements of the
// program — parallel loops, sequential code, run-time calls, I/O, communication, by FILE:LINE —
// made the waited-for processor late.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/observer.hpp"
#include "models/analysis/characteristics.hpp"
#include "models/analysis/wait_states.hpp"

namespace augur::models::analysis {

/// Observer classifying the waiting of a DVM run from DvmProgram's events (its engine-event
/// contract, models/dvm/dvm_program.hpp):
/// * a synchronisation of a processor system (`sync_all`, tag 0: the model levels every member to
///   the latest one, `peer`) — each member p entering at c before the latest entry T waits
///   w = T − c for it: *wait at N×N* before a reduction (strtrd_: every processor needs every
///   other's contribution), *wait at barrier* before the other group operations (shadow renewal,
///   realign / redistribution, copies, srmem_);
/// * Predictor 3.1's reduction (a `collective_wait` naming processor 0 in `peer`: processor 0
///   gathers the contributions and sends the result back) — the members that entered the wait
///   before processor 0 wait for it: *late broadcast*; the rest of that wait is transfer.
/// Each wait is counted per processor, per pattern and per operation kind (the analyzer's I/O,
/// Reduction, Shadow, Remote access, Redistribution); its **indirect** part is the time the
/// waited-for processor itself spent waiting inside [c, T] (it only passed the delay on).
///
/// **Root causes** (H-CWP-DM): a region is a statement of the program, by its trace position
/// (the FILE= and LINE= of the call the processor is replaying) and what ran
/// there: the processor's iterations of a parallel loop (dopl_), sequential code (a call's user
/// TIME), the run-time system (a call's ret TIME), I/O (the I/O processor's), or communication
/// of an operation kind (the transfer part only). Every processor accumulates its time per region
/// since its last synchronisation point (a group operation it waited in or was waited for at);
/// at a wait of p on q each region's positive excess t(q,c) − t(p,c) over that stretch is its
/// share of the wait's direct part (scaled down when the excesses exceed it). Per operation kind
/// the explained part says how much of its waiting balancing those regions could remove.
class DvmWaitStates final : public engine::Observer {
 public:
  /// The file name of a statement's file id.
  using FileNamer = std::function<std::string(std::uint32_t file)>;

  /// `statements`: per processor, the statement it is replaying (DvmProgram::statements(): file
  /// id << 40 | line, read at every event, so it must outlive the run).
  DvmWaitStates(std::uint32_t lp_count, const std::vector<std::uint64_t>& statements, FileNamer files);
  void on_event(const engine::Event& event) override;

  const std::vector<LpWaits>& lps() const { return lps_; }
  /// Moves the per-processor results out (lps() is empty afterwards).
  std::vector<LpWaits> take_lps() { return std::move(lps_); }
  /// Totals per pattern over all processors.
  LpWaits totals() const { return sum_waits(lps_); }
  /// Waiting per operation kind, indexed by OpKind (the five DVM kinds).
  const std::vector<WaitAmount>& by_operation() const { return by_operation_; }
  /// Per operation kind (same indexing): the part of its direct waiting explained by regions.
  const std::vector<double>& explained_by_operation() const { return explained_; }
  /// Every region that caused waiting, largest first (ties by name).
  std::vector<RegionCause> causes() const;
  /// Where processors waited: the statement of the group operation they waited in, by
  /// operation kind ("reduction at jac1d.cdv:45"), most waiting first (ties by name).
  std::vector<WaitSite> sites() const;

  /// What ran in a region.
  enum class Part : std::uint8_t { loop, code, system, io, communication };

 private:
  static constexpr std::size_t wait_ring = 8;  // recent wait intervals per processor (indirect waits)
  /// A statement's regions: loop, code, system, I/O, then communication of each DVM kind.
  static constexpr std::size_t slots = 4 + 5;
  struct Span {
    double begin = 0;
    double end = 0;
  };
  /// Time per region: (region id, seconds), a handful of entries between two synchronisations.
  using Times = std::vector<std::pair<std::uint32_t, double>>;
  struct Lp {
    Times open;  ///< since the last synchronisation point (pending not included)
    /// Per region: its position in `open` + 1, 0 when absent (grown on demand, cleared entry by
    /// entry at each synchronisation point): adding to a region and reading its time are O(1).
    std::vector<std::uint32_t> open_at;
    Times closed;                           ///< the stretch that ended at the last synchronisation point
    double synced_at = -1;                  ///< clock of the last synchronisation point (−1: none yet)
    std::uint64_t key = ~std::uint64_t{0};  ///< the statement the pending times belong to…
    std::uint32_t statement = 0;            ///< … and its index (regions statement·slots + slot)
    bool has_pending = false;
    std::array<double, slots> pending{};  ///< time per slot in that statement, not yet in `open`
    std::uint32_t waits = 0;              ///< wait intervals recorded (ring index = waits mod wait_ring)
    std::array<Span, wait_ring> ring{};
  };
  struct Region {
    std::uint32_t file = 0;
    std::int64_t line = 0;
    Part part = Part::code;
    OpKind kind = OpKind::io;
    double caused_s = 0;
    double excess_s = 0;
    std::uint64_t waits = 0;
    PatternAmounts waited{};  ///< communication regions: waiting in them
  };

  [[gnu::noinline]] void on_other_event(const engine::Event& e);
  void add(engine::LpId lp, std::size_t slot, double dt);
  /// `l` moves to the statement `key`: its pending times go into `open`.
  [[gnu::noinline]] void enter_statement(Lp& l, std::uint64_t key);
  void flush(Lp& l);
  std::uint32_t statement_index(std::uint64_t key);
  void add_open(Lp& l, std::uint32_t region, double dt);
  static double open_time(const Lp& l, std::uint32_t region);
  void synchronise(engine::LpId lp, double at);
  void wait(engine::LpId p, engine::LpId q, WaitPattern pattern, OpKind kind, double begin, double end);
  double waiting_within(engine::LpId q, double begin, double end) const;
  std::string region_name(const Region& r) const;
  std::string statement_name(const Region& r) const;
  static std::string kind_name(OpKind k);

  const std::vector<std::uint64_t>& statements_of_;
  FileNamer files_;
  std::vector<Lp> lp_;
  std::vector<LpWaits> lps_;
  std::vector<WaitAmount> by_operation_;
  std::vector<double> explained_;
  std::unordered_map<std::uint64_t, std::uint32_t> statements_;  ///< (file, line) → statement index
  /// A direct-mapped cache in front of statements_ (every processor replays the same statements,
  /// one after another): (key, index) pairs, key ~0 when empty.
  static constexpr std::size_t statement_cache_size = 256;
  std::array<std::pair<std::uint64_t, std::uint32_t>, statement_cache_size> statement_cache_;
  std::vector<Region> regions_;  ///< `slots` per statement
};

}  // namespace augur::models::analysis
