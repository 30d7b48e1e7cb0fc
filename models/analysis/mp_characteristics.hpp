// Characteristics of a message-passing run (spec section 8): an engine observer that fills the
// shared IntervalTree (characteristics.hpp) from the events of MpProgram, so that message-passing
// and DVM runs give the same reports.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/collective_kind.hpp"
#include "engine/observer.hpp"
#include "models/analysis/characteristics.hpp"

namespace augur::models::analysis {

/// The analyzer's row of a collective kind (gatherv → gather, exscan → scan, …).
OpKind op_kind_of(engine::CollectiveKind kind);

/// Names the code region an interval_enter event of `lp` with `tag` enters: (file, line).
/// MpProgram's regions come from TI `location FILE LINE` actions (see runner.cpp for the wiring).
using RegionNamer = std::function<std::pair<std::string, int>(engine::LpId lp, std::int32_t tag)>;

/// Observer filling an IntervalTree from a message-passing run. Accounting per LP, in the
/// interval (code region) the LP is in when the event happens:
/// * execution — the LP's clock advance;
/// * cpu_usr — compute events (including reduction flops inside collectives);
/// * communication per operation kind (point_to_point or the collective's kind; the messages of
///   an expanded collective count for the collective): communication = duration, waiting =
///   `waited` (= real_sync), transfer = the rest;
/// * overlap (point_to_point) — computation done while the LP had non-blocking requests posted
///   and not yet waited for (from an isend/irecv to the wait / waitall that completes it);
/// * synchronization / variation per collective kind — for the k-th collective, with entry times
///   E(j) and exit times X(j) of every LP j: synchronization(p) = max_j E(j) − E(p) (the loss
///   from unsimultaneous starts), variation(p) = max_j X(j) − X(p) (the spread of completions);
/// * operation counts — one per message sent (point_to_point) and one per collective call;
/// * idle and load imbalance — IntervalTree::close_interval over every LP at the end of the run.
/// Sleep events advance execution only (neither CPU nor communication).
/// Regions: interval_enter starts a User interval under Main named by the RegionNamer (an enter
/// while a region is open leaves it first); interval_exit returns to Main. Without region events
/// the whole run is the Main interval. EXE_COUNT of a region = the most entries of one LP.
class MpCharacteristics final : public engine::Observer {
 public:
  /// `lp_count` processors; `source` names the Main interval (the trace).
  explicit MpCharacteristics(std::uint32_t lp_count, std::string source = {}, RegionNamer namer = {});

  void on_event(const engine::Event& event) override;
  /// Closes every interval (idle, load imbalance) and integrates the tree.
  void on_finish(engine::SimTime end) override;

  /// The tree (integrated once the run has finished).
  const IntervalTree& tree() const { return tree_; }
  IntervalTree& tree() { return tree_; }

 private:
  struct Lp {
    Interval* where = nullptr;        ///< current interval
    double clock = 0;                 ///< clock after the last event
    std::uint32_t open_requests = 0;  ///< non-blocking requests posted and not yet waited for
    bool in_collective = false;       ///< between collective_begin and collective_end
    OpKind collective = OpKind::barrier;
    std::uint64_t collectives = 0;    ///< collectives entered so far
  };
  struct OpenCollective {
    OpKind kind = OpKind::barrier;
    std::uint32_t entered = 0;
    std::uint32_t exited = 0;
    std::vector<double> enter;
    std::vector<double> exit;
    std::vector<Interval*> where;
  };

  void enter_collective(engine::LpId lp, OpKind kind, double at);
  void exit_collective(engine::LpId lp, double at);
  void close_collective(OpenCollective& c);
  void communicate(engine::LpId lp, OpKind kind, const engine::Event& e);

  IntervalTree tree_;
  RegionNamer namer_;
  std::vector<Lp> lps_;
  std::map<std::uint64_t, OpenCollective> open_;     ///< by collective sequence number
  std::vector<std::vector<std::uint32_t>> entries_;  ///< per interval id − 1: entries per LP
  bool finished_ = false;
};

}  // namespace augur::models::analysis
