// Shared by the renderings of report.hpp (this folder only): the seconds of the text
// reports, the totals over LPs and the interval reports' description of a run.
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/report/fixed_text.hpp"
#include "models/report/interval_report.hpp"
#include "models/report/report.hpp"

namespace augur::models::report::detail {

/// A time in seconds for the `{:.6f}` fields of the text: fixed-point below 10^15 s, the exponent
/// form beyond (a time of 1e300 s is not spelled with 300 digits).
struct Sec {
  double value;
};

/// The sum of every LP's statistics (the end time: the latest).
LpStats totals(const std::vector<LpStats>& lps);

/// What the interval reports print about the run besides the tree.
IntervalReportMeta interval_meta(const VariantResult& v);

/// Links listed in the text report (link_report.cpp): the most loaded ones.
inline constexpr std::size_t max_text_links = 10;
/// "; the most loaded link is NAME (U % utilised, …)" for the advice; "" without links.
std::string bottleneck_link_text(const VariantResult& v);
/// The text report's table of the most loaded links (nothing for a run without links).
void write_links_text(std::ostream& out, const VariantResult& v);

}  // namespace augur::models::report::detail

template <>
struct fmt::formatter<augur::models::report::detail::Sec> : fmt::formatter<double> {
  template <class Context>
  auto format(augur::models::report::detail::Sec s, Context& ctx) const {
    if (std::fabs(s.value) >= augur::models::report::detail::fixed_limit)
      return fmt::format_to(ctx.out(), "{:.6e}", s.value);
    return fmt::formatter<double>::format(s.value, ctx);
  }
};
