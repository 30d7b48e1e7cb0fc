// Helpers shared by the interval report writers (HTML, text, JSON); not part of the API.
#pragma once
#include <string>
#include <unordered_map>
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

/// inclusive_processor_times of every interval of a subtree, each computed once (bottom-up).
class InclusiveTimes {
 public:
  InclusiveTimes(const analysis::Interval& root, analysis::IntegrateRule rule);
  const std::vector<analysis::ProcessorTimes>& of(const analysis::Interval& interval) const {
    return by_interval_.at(&interval);
  }

 private:
  const std::vector<analysis::ProcessorTimes>& compute(const analysis::Interval& interval);
  analysis::IntegrateRule rule_;
  std::unordered_map<const analysis::Interval*, std::vector<analysis::ProcessorTimes>> by_interval_;
};

/// Visits the subtree of `i` in pre-order.
template <class F> void pre_order(const analysis::Interval& i, F&& f) {
  f(i);
  for (const auto& c : i.children) pre_order(*c, f);
}

}  // namespace augur::models::report::detail
