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

InclusiveTimes::InclusiveTimes(const Interval& root, IntegrateRule rule) : rule_(rule) { compute(root); }

const std::vector<ProcessorTimes>& InclusiveTimes::compute(const Interval& interval) {
  std::vector<ProcessorTimes> times = interval.procs;
  // Own lost time is recorded before Idle; the interval's Lost time includes it.
  for (ProcessorTimes& t : times) t.lost += t.idle;
  for (const auto& child : interval.children) {
    const std::vector<ProcessorTimes>& nested = compute(*child);
    for (std::size_t p = 0; p < times.size() && p < nested.size(); ++p) add_nested(times[p], nested[p], rule_);
  }
  return by_interval_[&interval] = std::move(times);
}

}  // namespace detail

std::vector<ProcessorTimes> inclusive_processor_times(const Interval& interval, IntegrateRule rule) {
  return detail::InclusiveTimes(interval, rule).of(interval);
}

}  // namespace augur::models::report
