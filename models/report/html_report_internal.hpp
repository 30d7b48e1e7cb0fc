// Private to models/report: what the parts of the HTML report (html_report.cpp, html_sweep.cpp,
// html_characteristics.cpp, html_waits.cpp) share: the cell formatting and the sections each
// part writes.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "models/analysis/characteristics.hpp"
#include "models/report/report.hpp"

namespace augur::models::report::html {

inline constexpr std::size_t max_table_rows = 256;  // processors listed in per-rank tables
inline constexpr std::size_t max_intervals = 64;    // intervals given a characteristics block
inline constexpr std::size_t max_causes = 20;

/// Text escaped for HTML.
std::string esc(const std::string& s);
/// Seconds as the text report prints them.
std::string sec(double s);
/// A fraction as a percentage with one decimal.
std::string pct(double f);
/// A table row `<tr><th>name</th><td>value</td></tr>` (value is HTML already).
void kv(std::string& out, const std::string& name, const std::string& value);

/// The sweep table and the scalability plots of a run of several variants.
void sweep_section(std::string& out, const std::vector<VariantResult>& variants);
/// The characteristics of every interval of `tree` (spec section 8), ids prefixed by `variant`.
void characteristics_section(std::string& out, const analysis::IntervalTree& tree, int variant);
/// The static estimate of a skeleton run: the table per process and the program's row, then the
/// simulated time `simulated` beside the static one at the chosen memory level.
void static_section(std::string& out, const StaticEstimate& e, double simulated);
/// The wait states, root causes and `advice` of a variant.
void waits_section(std::string& out, const VariantResult& v, const std::string& advice);
/// The most loaded links of a flow-level network run (link_report.cpp; nothing without links).
void links_section(std::string& out, const VariantResult& v);

}  // namespace augur::models::report::html
