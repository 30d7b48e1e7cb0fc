// The sweep section of the HTML report: the table of the variants and the scalability plots.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/report/svg_plot.hpp"
#include "models/report/sweep_table.hpp"
#include "models/report/html_report_internal.hpp"

namespace augur::models::report::html {

namespace {

/// Whether some row ran a program skeleton (has a static estimate).
bool any_static(const std::vector<SweepRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const SweepRow& r) { return !std::isnan(r.static_s); });
}

/// The sweep table: one row per variant, a column per swept key (the machine axis is the
/// machine column), the grid and insufficient-parallelism columns when a variant has a grid.
void sweep_table(std::string& out, const std::vector<SweepRow>& rows) {
  std::vector<std::string> keys;
  for (const auto& r : rows) {
    for (const auto& [k, v] : r.swept) {
      // The machine axis is the machine column already.
      if (k != "machine" && std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
  }
  const bool grids = std::any_of(rows.begin(), rows.end(), [](const SweepRow& r) { return !r.grid.empty(); });
  const bool statics = any_static(rows);
  out += "<div class=\"wide\"><table class=\"sweep\"><tr><th>variant</th><th>processors</th>";
  if (grids) out += "<th>grid</th>";
  out += "<th>machine</th>";
  for (const auto& k : keys) out += fmt::format("<th>{}</th>", esc(k));
  out +=
      "<th>outcome</th><th>predicted time (s)</th><th>efficiency</th><th>compute (s)</th><th>transfer (s)</th>"
      "<th>wait (s)</th><th>idle (s)</th>";
  if (grids) out += "<th>insufficient parallelism (s)</th>";
  if (statics) out += "<th>static estimate (s)</th>";
  out += "</tr>\n";
  for (const auto& r : rows) {
    out += fmt::format("<tr><td><a href=\"#v{0}\">{0}</a></td><td class=\"n\">{1}</td>", r.variant, r.processors);
    if (grids) out += fmt::format("<td>{}</td>", esc(r.grid));
    out += fmt::format("<td>{}</td>", esc(r.machine));
    for (const auto& k : keys) {
      std::string val;
      for (const auto& [kk, vv] : r.swept) {
        if (kk == k) val = vv;
      }
      out += fmt::format("<td>{}</td>", esc(val));
    }
    out += fmt::format(
        "<td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
        esc(r.outcome), sec(r.predicted_time_s), pct(r.efficiency), sec(r.compute_s), sec(r.transfer_s), sec(r.wait_s),
        sec(r.idle_s));
    if (grids) out += fmt::format("<td class=\"n\">{}</td>", sec(r.insufficient_s));
    if (statics) out += std::isnan(r.static_s) ? "<td></td>" : fmt::format("<td class=\"n\">{}</td>", sec(r.static_s));
    out += "</tr>\n";
  }
  out +=
      "</table></div>\n<p class=\"muted\">Times are totals over processors except the predicted time; efficiency = "
      "compute / (processors &times; predicted time).";
  if (grids) {
    out +=
        " DVM variants (a grid): the characteristics of the whole program (Main) &mdash; compute = productive "
        "time, wait = the wait states (waiting for the latest processor at the group operations), transfer = "
        "communication &minus; wait.";
  }
  if (statics) {
    out +=
        " Program skeletons: the static estimate is seed 002's closed form at the memory level the simulation "
        "used (no waiting, no contention), plotted beside the simulated time (dashed, in the colour of its simulated "
        "line).";
  }
  out += " The same table: <code>--csv FILE</code>, <code>--sweep-json FILE</code>.</p>\n";
}

/// The scalability lines over the processor counts `counts` (more than one): one line per
/// machine / swept value, and for program skeletons its static estimate beside it in the time plot.
void plot_by_processors(const std::vector<SweepRow>& rows, const std::vector<int>& counts, LinePlot& time_plot,
                        LinePlot& eff_plot) {
  for (int c : counts) time_plot.x_labels.push_back(std::to_string(c));
  time_plot.x_title = "processors";
  std::vector<std::string> names;
  std::vector<PlotSeries> statics;  // per simulated line, its static estimate (program skeletons)
  for (const auto& r : rows) {
    const std::string name = r.series();
    auto it = std::find(names.begin(), names.end(), name);
    const std::size_t k = static_cast<std::size_t>(it - names.begin());
    if (it == names.end()) {
      names.push_back(name);
      time_plot.series.push_back(PlotSeries{name, {}});
      eff_plot.series.push_back(PlotSeries{name, {}});
    }
    const auto x = static_cast<std::size_t>(std::find(counts.begin(), counts.end(), r.processors) - counts.begin());
    if (r.outcome == "completed") {
      time_plot.series[k].points.emplace_back(x, r.predicted_time_s);
      eff_plot.series[k].points.emplace_back(x, r.efficiency);
      if (!std::isnan(r.static_s)) {
        if (statics.size() <= k) statics.resize(k + 1);
        statics[k].name = name + " static";
        statics[k].dashed = true;
        statics[k].partner = k;
        statics[k].points.emplace_back(x, r.static_s);
      }
    }
  }
  // The static estimates after the simulated lines, each named after its simulated line.
  for (auto& s : statics) {
    if (!s.points.empty()) time_plot.series.push_back(std::move(s));
  }
}

/// The scalability line of a single processor count: the variants are the x positions.
void plot_by_variant(const std::vector<SweepRow>& rows, const std::vector<int>& counts, LinePlot& time_plot,
                     LinePlot& eff_plot) {
  time_plot.x_title = fmt::format("variant ({} processors)", counts.empty() ? 0 : counts.front());
  PlotSeries t{"predicted time", {}}, e{"efficiency", {}}, st{"static estimate", {}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::string label;
    for (const auto& [k, v] : rows[i].swept) label += (label.empty() ? "" : " ") + v;
    if (!rows[i].grid.empty()) label += (label.empty() ? "" : " ") + rows[i].grid;
    time_plot.x_labels.push_back(label.empty() ? rows[i].machine : label);
    if (rows[i].outcome == "completed") {
      t.points.emplace_back(i, rows[i].predicted_time_s);
      e.points.emplace_back(i, rows[i].efficiency);
      if (!std::isnan(rows[i].static_s)) st.points.emplace_back(i, rows[i].static_s);
    }
  }
  time_plot.series.push_back(std::move(t));
  st.dashed = true;  // beside the predicted time (series 0), in its colour
  if (!st.points.empty()) time_plot.series.push_back(std::move(st));
  eff_plot.series.push_back(std::move(e));
}

/// The scalability plots: x = processor counts, one line per machine / swept value. With a
/// single processor count the variants themselves are the x positions (one line).
void scalability_plots(std::string& out, const std::vector<SweepRow>& rows) {
  std::vector<int> counts;
  for (const auto& r : rows) {
    if (std::find(counts.begin(), counts.end(), r.processors) == counts.end()) counts.push_back(r.processors);
  }
  std::sort(counts.begin(), counts.end());
  LinePlot time_plot, eff_plot;
  time_plot.id = "scalability-time";
  time_plot.title = "Predicted time";
  time_plot.y_title = "predicted time (s)";
  eff_plot.id = "scalability-efficiency";
  eff_plot.title = "Parallelization efficiency";
  eff_plot.y_title = "efficiency";
  eff_plot.percent = true;
  if (counts.size() > 1)
    plot_by_processors(rows, counts, time_plot, eff_plot);
  else
    plot_by_variant(rows, counts, time_plot, eff_plot);
  eff_plot.x_labels = time_plot.x_labels;
  eff_plot.x_title = time_plot.x_title;
  out +=
      "<h3>Scalability</h3>\n<div class=\"plots\">\n" + svg_line_plot(time_plot) + svg_line_plot(eff_plot) + "</div>\n";
}

}  // namespace

void sweep_section(std::string& out, const std::vector<VariantResult>& variants) {
  const auto rows = sweep_rows(variants);
  out += "<section id=\"sweep\">\n<h2>Sweep</h2>\n";
  sweep_table(out, rows);
  scalability_plots(out, rows);
  out += "</section>\n";
}

}  // namespace augur::models::report::html
