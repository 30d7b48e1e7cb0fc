// Shared part of the interval reports: the report root and the per-processor figures of an
// interval including its nested intervals.
#include "models/report/interval_report.hpp"

#include "models/report/interval_report_internal.hpp"

namespace augur::models::report {

using analysis::IntegrateRule;
using analysis::Interval;
using analysis::ProcessorTimes;

const Interval* predictor_report_root(const analysis::IntervalTree& tree) { return &tree.current(); }

namespace {

void add_nested(ProcessorTimes& to, const ProcessorTimes& from, IntegrateRule rule) {
  to.execution += from.execution;
  to.cpu_usr += from.cpu_usr;
  to.cpu_sys += from.cpu_sys;
  to.io += from.io;
  to.insuff_usr += from.insuff_usr;
  to.insuff_sys += from.insuff_sys;
  to.insuff_par += from.insuff_par;
  to.communication += from.communication;
  to.real_sync += from.real_sync;
  to.synchronization += from.synchronization;
  to.variation += from.variation;
  to.overlap += from.overlap;
  to.lost += from.lost;
  to.idle += from.idle;
  to.load_imbalance += from.load_imbalance;
  for (std::size_t k = 0; k < analysis::op_kind_count; ++k)
    analysis::add_nested(to.ops[k], from.ops[k], rule, static_cast<analysis::OpKind>(k));
}

}  // namespace

namespace detail {

void InclusiveTimes::fill(const Interval& interval, std::vector<ProcessorTimes>& times) const {
  times.assign(interval.procs.begin(), interval.procs.end());
  // Own lost time is recorded before Idle; the interval's Lost time includes it.
  for (ProcessorTimes& t : times) t.lost += t.idle;
  std::vector<ProcessorTimes> nested;
  for (const auto& child : interval.children) {
    if (child->children.empty()) {
      // A leaf's inclusive record is its own with Idle in Lost: added record by record.
      for (std::size_t p = 0; p < times.size() && p < child->procs.size(); ++p) {
        ProcessorTimes own = child->procs[p];
        own.lost += own.idle;
        add_nested(times[p], own, rule_);
      }
      continue;
    }
    fill(*child, nested);
    for (std::size_t p = 0; p < times.size() && p < nested.size(); ++p) add_nested(times[p], nested[p], rule_);
  }
}

}  // namespace detail

std::vector<ProcessorTimes> inclusive_processor_times(const Interval& interval, IntegrateRule rule) {
  return detail::InclusiveTimes(rule).of(interval);
}

}  // namespace augur::models::report
