// Shared part of the interval reports: the report root and the per-processor figures of an
// interval including its nested intervals.
#include "models/report/interval_report.hpp"

#include "models/report/interval_report_internal.hpp"

#include <algorithm>

namespace augur::models::report {

using analysis::IntegrateRule;
using analysis::Interval;
using analysis::ProcessorTable;
using analysis::ProcessorTimes;

const Interval* predictor_report_root(const analysis::IntervalTree& tree) { return &tree.current(); }

namespace {

// Adds `from` to `to` processor by processor as Integrate adds a nested interval (`rule` for the
// operation kinds); `leaf`: `from` is a leaf interval's own record, whose Lost gets its Idle first.
void add_nested(ProcessorTable& to, const ProcessorTable& from, IntegrateRule rule, bool leaf) {
  const std::size_t n = std::min(to.size(), from.size());
  for (std::size_t p = 0; p < n; ++p) {
    ProcessorTimes& t = to[p];
    const ProcessorTimes& f = from[p];
    t.execution += f.execution;
    t.cpu_usr += f.cpu_usr;
    t.cpu_sys += f.cpu_sys;
    t.io += f.io;
    t.insuff_usr += f.insuff_usr;
    t.insuff_sys += f.insuff_sys;
    t.insuff_par += f.insuff_par;
    t.communication += f.communication;
    t.real_sync += f.real_sync;
    t.synchronization += f.synchronization;
    t.variation += f.variation;
    t.overlap += f.overlap;
    t.lost += leaf ? f.lost + f.idle : f.lost;
    t.idle += f.idle;
    t.load_imbalance += f.load_imbalance;
  }
  // Kind by kind (each figure's sum as processor by processor; a kind without a column in `from`
  // would add only zeros).
  for (analysis::OpKind k : analysis::all_op_kinds) {
    if (!from.has(k)) continue;
    analysis::OpTimes* column = to.add_column(k);
    const std::vector<analysis::OpTimes>& add = from.column(k);
    for (std::size_t p = 0; p < n; ++p) analysis::add_nested(column[p], add[p], rule, k);
  }
}

}  // namespace

namespace detail {

void InclusiveTimes::fill(const Interval& interval, ProcessorTable& times) const {
  times = interval.procs;
  // Own lost time is recorded before Idle; the interval's Lost time includes it.
  for (ProcessorTimes& t : times) t.lost += t.idle;
  ProcessorTable nested;
  for (const auto& child : interval.children) {
    if (child->children.empty()) {
      // A leaf's inclusive record is its own with Idle in Lost: added record by record.
      add_nested(times, child->procs, rule_, true);
      continue;
    }
    fill(*child, nested);
    add_nested(times, nested, rule_, false);
  }
}

}  // namespace detail

ProcessorTable inclusive_processor_times(const Interval& interval, IntegrateRule rule) {
  return detail::InclusiveTimes(rule).of(interval);
}

}  // namespace augur::models::report
