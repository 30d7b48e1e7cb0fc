// Helpers shared by the interval report writers (HTML, text, JSON); not part of the API.
#pragma once
#include <string>
#include <vector>

#include "models/analysis/characteristics.hpp"
#include "models/report/interval_report.hpp"

namespace augur::models::report::detail {

/// The report root: `root`, or the tree's root when null.
inline const analysis::Interval& report_root(const analysis::IntervalTree& tree, const analysis::Interval* root) {
  return root != nullptr ? *root : tree.root();
}

/// The processor count the report prints (meta, else the tree's).
inline int processor_count(const analysis::IntervalTree& tree, const IntervalReportMeta& meta) {
  return meta.processors > 0 ? meta.processors : tree.processors();
}

/// The grid as the Predictor prints it ("2x2"), else the processor count.
inline std::string grid_text(const analysis::IntervalTree& tree, const IntervalReportMeta& meta) {
  return meta.grid.empty() ? std::to_string(processor_count(tree, meta)) : meta.grid;
}

/// inclusive_processor_times of the intervals of a report, one at a time: `of` computes an
/// interval's records into a buffer it reuses, so that a report of N intervals holds one
/// interval's records (plus one per level of nesting below it) instead of N (120 bytes per
/// processor plus 56 per operation kind present). Same arithmetic, in the same order, as
/// computing every interval once bottom-up.
class InclusiveTimes {
 public:
  explicit InclusiveTimes(analysis::IntegrateRule rule) : rule_(rule) {}
  /// The records of `interval` with its nested intervals'; valid until the next call.
  const analysis::ProcessorTable& of(const analysis::Interval& interval) const {
    fill(interval, buffer_);
    return buffer_;
  }

 private:
  void fill(const analysis::Interval& interval, analysis::ProcessorTable& times) const;
  analysis::IntegrateRule rule_;
  mutable analysis::ProcessorTable buffer_;
};

/// Visits the subtree of `i` in pre-order.
template <class F>
void pre_order(const analysis::Interval& i, F&& f) {
  f(i);
  for (const auto& c : i.children) pre_order(*c, f);
}

}  // namespace augur::models::report::detail
