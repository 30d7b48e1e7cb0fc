// The HTML run report: plain HTML + CSS + inline SVG, built from the same VariantResult the text
// and JSON reports use, plus each variant's interval tree for the characteristics.
#include "models/report/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/collective_kind.hpp"
#include "engine/output_file.hpp"
#include "models/report/interval_report.hpp"
#include "models/report/svg_plot.hpp"
#include "models/report/summary.hpp"
#include "models/report/sweep_table.hpp"
#include "models/report/version.hpp"

namespace augur::models::report {

namespace {

using analysis::Interval;
using analysis::IntervalTotals;
using analysis::OpKind;

constexpr std::size_t max_bar_rows = 512;    // processors drawn in the bar chart
constexpr std::size_t max_table_rows = 256;  // processors listed in per-rank tables
constexpr std::size_t max_intervals = 64;    // intervals given a characteristics block
constexpr std::size_t max_causes = 20;

const char* const css =
    R"(body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px 48px;color:#1b1b1b;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin:16px 0 4px}h2{font-size:1.3em;margin-top:32px;border-bottom:2px solid #0072b2;padding-bottom:2px}
h3{font-size:1.1em;margin:20px 0 6px}h4{font-size:1em;margin:14px 0 4px;font-family:ui-monospace,Menlo,Consolas,monospace}
table{border-collapse:collapse;margin:6px 0 10px;font-size:.9em}th,td{border:1px solid #ccc;padding:2px 8px}
th{background:#eef3f8;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums;font-family:ui-monospace,Menlo,Consolas,monospace}
table.kv th{width:16em}tr.total td{font-weight:bold;background:#f6f6f6}
nav{font-size:.9em;margin:8px 0}nav a{margin-right:8px}.wide{overflow-x:auto;max-width:100%}
table.sweep{font-size:.8em}table.sweep th{white-space:normal}
.advice{background:#fff8e5;border-left:4px solid #e69f00;padding:6px 10px}
.muted{color:#666;font-size:.85em}pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:.8em}
svg{max-width:100%;height:auto;display:block;margin:6px 0}svg text{font-family:system-ui,Helvetica,Arial,sans-serif}
svg .tick{font-size:11px;fill:#333}svg .legend{font-size:12px;fill:#222}svg .ptitle{font-size:14px;font-weight:bold;fill:#111}
svg .atitle{font-size:12px;fill:#333}svg .grid{stroke:#e3e3e3;stroke-width:1}svg .axis{stroke:#444;stroke-width:1}
.plots{display:flex;flex-wrap:wrap;gap:12px}.plots svg{flex:1 1 420px;max-width:540px}
)";

std::string esc(const std::string& s) { return xml_escape(s); }
std::string sec(double s) { return seconds_text(s); }
std::string pct(double f) { return fmt::format("{:.1f} %", 100.0 * f); }

std::string swept_text(const VariantResult& v) {
  std::string s;
  for (const auto& [k, val] : v.swept) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", k, val);
  return s;
}

// "4 processors" or, for a DVM run, "4 processors (grid 2x2)".
std::string processors_text(const VariantResult& v) {
  return fmt::format("{}{}", count_of(static_cast<std::uint64_t>(v.processors), "processor"),
                     v.grid.empty() ? std::string() : " (grid " + esc(v.grid) + ")");
}

// A DVM run: characteristics but no per-rank statistics; its summary comes from Main.
bool dvm_run(const VariantResult& v) { return v.lps.empty() && v.intervals != nullptr; }

// The advice line of the text report (one source for the analyzer's method).
std::string text_report(const std::string& scenario, const VariantResult& v) {
  std::ostringstream ss;
  write_text(ss, scenario, std::vector<VariantResult>{v}, 64);
  return ss.str();
}

std::string advice_of(const std::string& text) {
  const std::string key = "  advice: ";
  const auto at = text.find(key);
  if (at == std::string::npos) return {};
  const auto end = text.find('\n', at);
  return text.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
}

void kv(std::string& out, const std::string& name, const std::string& value) {
  out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", esc(name), value);
}

// ---- sweep -------------------------------------------------------------------------------

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
  out += "<div class=\"wide\"><table class=\"sweep\"><tr><th>variant</th><th>processors</th>";
  if (grids) out += "<th>grid</th>";
  out += "<th>machine</th>";
  for (const auto& k : keys) out += fmt::format("<th>{}</th>", esc(k));
  out +=
      "<th>outcome</th><th>predicted time (s)</th><th>efficiency</th><th>compute (s)</th><th>transfer (s)</th>"
      "<th>wait (s)</th><th>idle (s)</th>";
  if (grids) out += "<th>insufficient parallelism (s)</th>";
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
  out += " The same table: <code>--csv FILE</code>, <code>--sweep-json FILE</code>.</p>\n";
}

/// The scalability lines over the processor counts `counts` (more than one): one line per
/// machine / swept value.
void plot_by_processors(const std::vector<SweepRow>& rows, const std::vector<int>& counts, LinePlot& time_plot,
                        LinePlot& eff_plot) {
  for (int c : counts) time_plot.x_labels.push_back(std::to_string(c));
  time_plot.x_title = "processors";
  std::vector<std::string> names;
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
    }
  }
}

/// The scalability line of a single processor count: the variants are the x positions.
void plot_by_variant(const std::vector<SweepRow>& rows, const std::vector<int>& counts, LinePlot& time_plot,
                     LinePlot& eff_plot) {
  time_plot.x_title = fmt::format("variant ({} processors)", counts.empty() ? 0 : counts.front());
  PlotSeries t{"predicted time", {}}, e{"efficiency", {}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::string label;
    for (const auto& [k, v] : rows[i].swept) label += (label.empty() ? "" : " ") + v;
    if (!rows[i].grid.empty()) label += (label.empty() ? "" : " ") + rows[i].grid;
    time_plot.x_labels.push_back(label.empty() ? rows[i].machine : label);
    if (rows[i].outcome == "completed") {
      t.points.emplace_back(i, rows[i].predicted_time_s);
      e.points.emplace_back(i, rows[i].efficiency);
    }
  }
  time_plot.series.push_back(std::move(t));
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

void sweep_section(std::string& out, const std::vector<VariantResult>& variants) {
  const auto rows = sweep_rows(variants);
  out += "<section id=\"sweep\">\n<h2>Sweep</h2>\n";
  sweep_table(out, rows);
  scalability_plots(out, rows);
  out += "</section>\n";
}

// ---- characteristics ---------------------------------------------------------------------

struct Compare {
  double min = 0, max = 0, mean = 0;
  int min_p = 0, max_p = 0;
};

// Per-processor value of an interval including its nested intervals.
template <class F>
std::vector<double> per_processor(const Interval& i, F&& field) {
  std::vector<double> v(i.procs.size(), 0.0);
  auto add = [&](auto& self, const Interval& n) -> void {
    for (std::size_t p = 0; p < n.procs.size() && p < v.size(); ++p) v[p] += field(n.procs[p]);
    for (const auto& c : n.children) self(self, *c);
  };
  add(add, i);
  return v;
}

Compare compare(const std::vector<double>& v) {
  Compare c;
  if (v.empty()) return c;
  c.min = c.max = v[0];
  double sum = 0;
  for (std::size_t p = 0; p < v.size(); ++p) {
    if (v[p] < c.min) c.min = v[p], c.min_p = static_cast<int>(p);
    if (v[p] > c.max) c.max = v[p], c.max_p = static_cast<int>(p);
    sum += v[p];
  }
  c.mean = sum / static_cast<double>(v.size());
  return c;
}

// How the intervals table names an interval: Main, a phase by its description, a region by
// file:line.
std::string interval_name(const Interval& i) {
  if (i.parent == nullptr) return "Main";
  if (i.type == analysis::IntervalType::phase) return i.source_file;
  return fmt::format("{}:{}", i.source_file, i.source_line);
}

std::string interval_title(const Interval& i) {
  std::string s = fmt::format("INTERVAL (NLINE={} SOURCE={}) LEVEL={} EXE_COUNT={}", i.source_line,
                              i.source_file.empty() ? std::string("-") : i.source_file, i.level, i.exe_count);
  if (i.type != analysis::IntervalType::main) s += fmt::format(" TYPE={}", analysis::title(i.type));
  return s;
}

void interval_block(std::string& out, const Interval& i, int processors, int variant) {
  const IntervalTotals& t = i.totals;
  out += fmt::format("<h4 id=\"v{}-i{}\">{}</h4>\n", variant, i.id, esc(interval_title(i)));
  if (i.parent != nullptr) {
    out += fmt::format("<p class=\"muted\"><a href=\"#v{0}-i{1}\">up</a></p>\n", variant, i.parent->id);
  }
  out += "<table class=\"kv characteristics\">\n";
  kv(out, "Parallelization efficiency", fmt::format("{:.4f}", t.efficiency));
  kv(out, "Execution time", sec(t.execution));
  kv(out, "Processors", std::to_string(processors));
  kv(out, "Total time", sec(t.total));
  kv(out, "Productive time",
     fmt::format("{} (CPU={} Sys={} I/O={})", sec(t.productive), sec(t.productive_cpu), sec(t.productive_sys),
                 sec(t.io)));
  kv(out, "Lost time", sec(t.lost));
  auto line = [&](const char* name, double value, const std::string& extra = {}) {
    if (value != 0.0) kv(out, name, sec(value) + extra);
  };
  line("– Insufficient parallelism", t.insufficient,
       fmt::format(" (User={} Sys={})", sec(t.insuff_usr), sec(t.insuff_sys)));
  double transfer = 0, waiting = 0;
  for (const auto& o : t.ops) transfer += o.transfer, waiting += o.waiting;
  line("– Communication", t.communication,
       fmt::format(" (Real_sync={}{})", sec(t.real_sync),
                   transfer + waiting > 0 ? fmt::format(" Transfer={} Waiting={}", sec(transfer), sec(waiting)) : ""));
  line("– Idle time", t.idle);
  line("Load imbalance", t.load_imbalance);
  line("Synchronization", t.synchronization);
  line("Time variation", t.variation);
  line("Overlap", t.overlap);
  out += "</table>\n";

  // The collective table: one row per operation kind that occurred.
  std::string rows;
  for (std::size_t k = 0; k < analysis::op_kind_count; ++k) {
    const auto kind = static_cast<OpKind>(k);
    const auto& o = t.op(kind);
    if (t.nop(kind) == 0 && o.communication == 0 && o.synchronization == 0 && o.overlap == 0) continue;
    rows += fmt::format(
        "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
        esc(std::string(analysis::title(kind))), t.nop(kind), sec(o.communication), sec(o.transfer), sec(o.waiting),
        sec(o.real_sync), sec(o.synchronization), sec(o.variation), sec(o.overlap));
  }
  if (!rows.empty()) {
    out +=
        "<table class=\"ops\"><tr><th></th><th>Nop</th><th>Communic</th><th>Transfer</th><th>Waiting</th>"
        "<th>Real_sync</th><th>Synchro</th><th>Variation</th><th>Overlap</th></tr>\n" +
        rows + "</table>\n";
  }

  // Comparative characteristics over processors (nested intervals included).
  struct Row {
    const char* name;
    std::vector<double> values;
  };
  const Row comp[] = {
      {"Execution time", per_processor(i, [](const auto& p) { return p.execution; })},
      {"CPU time", per_processor(i, [](const auto& p) { return p.cpu_usr + p.cpu_sys; })},
      {"Communication", per_processor(i, [](const auto& p) { return p.communication; })},
      {"Real synchronization", per_processor(i, [](const auto& p) { return p.real_sync; })},
      {"Idle time", per_processor(i, [](const auto& p) { return p.idle; })},
      {"Load imbalance", per_processor(i, [](const auto& p) { return p.load_imbalance; })},
      {"Synchronization", per_processor(i, [](const auto& p) { return p.synchronization; })},
      {"Time variation", per_processor(i, [](const auto& p) { return p.variation; })},
      {"Overlap", per_processor(i, [](const auto& p) { return p.overlap; })},
  };
  out +=
      "<table class=\"comparative\"><tr><th>Comparative</th><th>Tmin</th><th>Npr</th><th>Tmax</th><th>Npr</th>"
      "<th>Tmid</th></tr>\n";
  for (const Row& r : comp) {
    const Compare c = compare(r.values);
    if (c.max == 0 && c.min == 0) continue;
    out += fmt::format(
        "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td></tr>\n",
        r.name, sec(c.min), c.min_p, sec(c.max), c.max_p, sec(c.mean));
  }
  out += "</table>\n";
}

void characteristics_section(std::string& out, const analysis::IntervalTree& tree, int variant) {
  out += "<h3>Characteristics</h3>\n";
  // Nested intervals: a table of links first.
  std::vector<const Interval*> all;
  tree.for_each([&](const Interval& i) { all.push_back(&i); });
  if (all.size() > 1) {
    out +=
        "<table class=\"intervals\"><tr><th>interval</th><th>level</th><th>EXE_COUNT</th><th>execution (s)</th>"
        "<th>efficiency</th><th>communication (s)</th><th>idle (s)</th><th>load imbalance (s)</th></tr>\n";
    for (const Interval* i : all) {
      const std::string name = interval_name(*i);
      out += fmt::format(
          "<tr><td><a href=\"#v{}-i{}\">{}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td "
          "class=\"n\">{}</td>"
          "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
          variant, i->id, esc(name), i->level, i->exe_count, sec(i->totals.execution), pct(i->totals.efficiency),
          sec(i->totals.communication), sec(i->totals.idle), sec(i->totals.load_imbalance));
    }
    out += "</table>\n";
  }
  for (std::size_t k = 0; k < all.size() && k < max_intervals; ++k)
    interval_block(out, *all[k], tree.processors(), variant);
  if (all.size() > max_intervals) {
    out += fmt::format("<p class=\"muted\">{} more intervals not shown.</p>\n", all.size() - max_intervals);
  }
}

// ---- wait states -------------------------------------------------------------------------

/// The wait states per rank (or processor) and their total, and the messages in wrong order.
void waits_by_rank(std::string& out, const VariantResult& v) {
  const analysis::LpWaits total = analysis::sum_waits(v.waits);
  out += "<h3>Wait states</h3>\n";
  out += v.wait_operations == WaitOperations::dvm ? "<table class=\"waits\"><tr><th>processor</th>"
                                                  : "<table class=\"waits\"><tr><th>rank</th>";
  for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
    out += fmt::format("<th>{} (s)</th>", esc(std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i)))));
  }
  out += "<th>indirect (s)</th><th title=\"direct waiting of others on this one\">caused (s)</th></tr>\n";
  auto row = [&](const std::string& name, const analysis::LpWaits& w, bool is_total) {
    out += fmt::format("<tr{}><td>{}</td>", is_total ? " class=\"total\"" : "", esc(name));
    for (const auto& a : w.patterns) out += fmt::format("<td class=\"n\">{}</td>", sec(a.total_s));
    out += fmt::format("<td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n", sec(w.indirect_s()), sec(w.caused_s));
  };
  const std::size_t n = std::min(v.waits.size(), max_table_rows);
  for (std::size_t r = 0; r < n; ++r) row(std::to_string(r), v.waits[r], false);
  row(n < v.waits.size() ? fmt::format("total (all {})", v.waits.size()) : std::string("total"), total, true);
  out += "</table>\n";
  if (n < v.waits.size()) {
    out += fmt::format("<p class=\"muted\">{} more ranks: see --json; the total is over all {} ranks.</p>\n",
                       v.waits.size() - n, v.waits.size());
  }
  if (total.wrong_order.count > 0) {
    out += fmt::format(
        "<p>Messages in wrong order: {} s of the late-sender waiting ({}, {} s indirect) passed while "
        "a message sent earlier was already there to receive.</p>\n",
        sec(total.wrong_order.total_s), count_of(total.wrong_order.count, "wait"), sec(total.wrong_order.indirect_s));
  }
}

/// The waiting per operation kind, when any operation waited.
void waits_by_operation(std::string& out, const VariantResult& v) {
  std::string ops;
  for (std::size_t i = 0; i < v.waits_by_operation.size(); ++i) {
    const auto& a = v.waits_by_operation[i];
    if (a.count == 0) continue;
    const double explained = i < v.explained_by_operation.size() ? v.explained_by_operation[i] : 0.0;
    ops += fmt::format(
        "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td></tr>\n",
        esc(wait_operation_name(v, i)), a.count, sec(a.total_s), sec(a.direct_s()), sec(a.indirect_s),
        a.total_s > 0 ? pct(std::min(1.0, explained / a.total_s)) : std::string("-"));
  }
  if (!ops.empty()) {
    out +=
        "<h4>Waiting by operation</h4>\n<table class=\"by-operation\"><tr><th>operation</th><th>waits</th>"
        "<th>total (s)</th><th>direct (s)</th><th>indirect (s)</th><th>explained by regions</th></tr>\n" +
        ops + "</table>\n";
  }
}

/// The positions waited at most (the first 10).
void waits_by_site(std::string& out, const VariantResult& v) {
  if (v.wait_sites.empty()) return;
  out += std::string("<h4>Waiting by code position</h4>\n<table class=\"by-site\"><tr><th>") +
         (v.wait_operations == WaitOperations::dvm ? "where (the statement of the group operation waited in)"
                                                   : "where (the call waited in, after the call before it)") +
         "</th><th>waits</th><th>total (s)</th><th>indirect (s)</th><th>patterns</th></tr>\n";
  const std::size_t shown = std::min<std::size_t>(v.wait_sites.size(), 10);
  for (std::size_t i = 0; i < shown; ++i) {
    const analysis::WaitSite& site = v.wait_sites[i];
    std::string patterns;
    for (std::size_t k = 0; k < analysis::wait_pattern_count; ++k) {
      if (site.patterns[k].count == 0) continue;
      patterns +=
          fmt::format("{}{} {}", patterns.empty() ? "" : ", ",
                      analysis::to_string(static_cast<analysis::WaitPattern>(k)), sec(site.patterns[k].total_s));
    }
    out += fmt::format(
        "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td>"
        "</tr>\n",
        esc(site.name), site.count(), sec(site.total_s()), sec(site.indirect_s()), esc(patterns));
  }
  out += "</table>\n";
  if (shown < v.wait_sites.size()) {
    out += fmt::format("<p class=\"muted\">{} more positions: see --json.</p>\n", v.wait_sites.size() - shown);
  }
}

/// The root causes: the code regions whose excess made others wait.
void root_causes(std::string& out, const VariantResult& v) {
  if (v.causes.empty()) return;
  out +=
      "<h4>Root causes</h4>\n<table class=\"root-causes\"><tr><th>code region</th><th>waiting caused (s)</th>"
      "<th>excess (s)</th><th>waits</th></tr>\n";
  const std::size_t shown = hot_spots(v.causes, max_causes);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& c = v.causes[i];
    out += fmt::format("<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
                       esc(c.name), sec(c.caused_s), sec(c.excess_s), c.waits);
  }
  out += "</table>\n";
  if (shown < v.causes.size()) {
    out += fmt::format(
        "<p class=\"muted\">{} more regions, each causing less than 1 % of the waiting or beyond the "
        "first {}: see --json.</p>\n",
        v.causes.size() - shown, max_causes);
  }
}

void waits_section(std::string& out, const VariantResult& v, const std::string& advice) {
  if (v.waits.empty()) return;
  waits_by_rank(out, v);
  waits_by_operation(out, v);
  waits_by_site(out, v);
  root_causes(out, v);
  if (!advice.empty()) out += "<h4>Advice</h4>\n<p class=\"advice\">" + esc(advice) + "</p>\n";
}

// ---- one variant -------------------------------------------------------------------------

/// The summary rows of a DVM run: the characteristics of the whole program (Main), as the DVM
/// analyzer gives them.
void dvm_summary(std::string& out, const VariantResult& v, const SweepRow& r) {
  const IntervalTotals& t = v.intervals->root().totals;
  kv(out, "Execution time", sec(t.execution) + " s");
  kv(out, "Efficiency",
     pct(r.efficiency) +
         " <span class=\"muted\">(productive time / (processors &times; execution "
         "time), the whole program)</span>");
  kv(out, "Lost time",
     fmt::format("{} s (insufficient parallelism {} s, communication {} s, idle {} s)", sec(t.lost),
                 sec(t.insufficient), sec(t.communication), sec(t.idle)));
  std::string ops;
  for (std::size_t k = 0; k < analysis::op_kind_count; ++k) {
    const auto kind = static_cast<OpKind>(k);
    if (t.nop(kind) == 0) continue;
    ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", esc(std::string(analysis::title(kind))), t.nop(kind));
  }
  kv(out, "Operations", ops.empty() ? std::string("none") : ops);
}

/// The summary rows of a message-passing run.
void mp_summary(std::string& out, const VariantResult& v, const SweepRow& r) {
  kv(out, "Efficiency",
     pct(r.efficiency) + " <span class=\"muted\">(compute / (processors &times; predicted time))</span>");
  kv(out, "Lost time",
     fmt::format("{} s (transfer {} s, waiting {} s, idle {} s)", sec(r.lost_s), sec(r.transfer_s), sec(r.wait_s),
                 sec(r.idle_s)));
  std::uint64_t msgs = 0, bytes = 0;
  for (const auto& s : v.lps) msgs += s.messages_sent, bytes += s.bytes_sent;
  kv(out, "Messages", fmt::format("{} ({} bytes)", msgs, bytes));
}

/// The summary table of a variant, and the message of a run that did not complete.
void variant_summary(std::string& out, const VariantResult& v, const SweepRow& r) {
  out += "<table class=\"kv summary\">\n";
  kv(out, "Trace", esc(v.trace));
  if (!v.grid.empty()) kv(out, "Processor grid", esc(v.grid));
  kv(out, "Machine", fmt::format("{} ({})", esc(v.machine_name), esc(v.machine_model)));
  if (!v.swept.empty()) kv(out, "Swept", esc(swept_text(v)));
  kv(out, "Collectives", esc(v.collectives));
  kv(out, "Outcome", esc(v.outcome));
  kv(out, "Predicted time", sec(v.predicted_time_s) + " s");
  kv(out, "Events", std::to_string(v.events));
  if (dvm_run(v))
    dvm_summary(out, v, r);
  else
    mp_summary(out, v, r);
  out += "</table>\n";
  if (v.outcome != "completed" && !v.message.empty()) out += "<pre class=\"message\">" + esc(v.message) + "</pre>\n";
}

/// The time per processor of a message-passing run: compute, transfer, wait, sleep, idle.
void mp_processor_bars(std::string& out, const VariantResult& v) {
  StackedBars bars;
  bars.id = fmt::format("v{}-processors", v.index);
  bars.title = "Time per processor";
  bars.unit = "seconds";
  bars.segments = {{"compute", palette(0)},
                   {"transfer", palette(1)},
                   {"wait", palette(3)},
                   {"sleep", palette(5)},
                   {"idle", "#c8c8c8"}};
  const std::size_t n = std::min(v.lps.size(), max_bar_rows);
  for (std::size_t p = 0; p < n; ++p) {
    const LpStats& s = v.lps[p];
    const double idle = std::max(0.0, v.predicted_time_s - s.compute_s - s.transfer_s - s.wait_s - s.sleep_s);
    bars.rows.push_back(std::to_string(p));
    bars.values.push_back({s.compute_s, s.transfer_s, s.wait_s, s.sleep_s, idle});
  }
  out += "<h3>Time per processor</h3>\n" + svg_stacked_bars(bars);
  if (n < v.lps.size()) out += fmt::format("<p class=\"muted\">first {} of {} processors.</p>\n", n, v.lps.size());
}

/// The time per processor of a DVM run: each processor's part of the whole program (Main,
/// nested intervals included).
void dvm_processor_bars(std::string& out, const VariantResult& v) {
  const auto procs = inclusive_processor_times(v.intervals->root(), v.intervals_rule);
  StackedBars bars;
  bars.id = fmt::format("v{}-processors", v.index);
  bars.title = "Time per processor";
  bars.unit = "seconds";
  bars.segments = {{"productive", palette(0)},
                   {"communication", palette(1)},
                   {"insufficient parallelism", palette(5)},
                   {"idle", "#c8c8c8"}};
  const std::size_t n = std::min(procs.size(), max_bar_rows);
  for (std::size_t p = 0; p < n; ++p) {
    const analysis::ProcessorTimes& t = procs[p];
    const double insufficient = t.insuff_usr + t.insuff_sys;
    const double productive = std::max(0.0, t.cpu_usr + t.cpu_sys + t.io - insufficient);
    bars.rows.push_back(std::to_string(p));
    bars.values.push_back({productive, t.communication, insufficient, t.idle});
  }
  out += "<h3>Time per processor</h3>\n" + svg_stacked_bars(bars);
  if (n < procs.size()) out += fmt::format("<p class=\"muted\">first {} of {} processors.</p>\n", n, procs.size());
}

void variant_section(std::string& out, const std::string& scenario, const VariantResult& v) {
  const SweepRow r = sweep_rows({v}).front();
  out += fmt::format("<section id=\"v{}\">\n<h2>Variant {}: {}, {}{}</h2>\n", v.index, v.index, processors_text(v),
                     esc(v.machine_name), v.swept.empty() ? std::string() : ", " + esc(swept_text(v)));
  variant_summary(out, v, r);
  if (!v.lps.empty())
    mp_processor_bars(out, v);
  else if (dvm_run(v))
    dvm_processor_bars(out, v);
  if (v.intervals) characteristics_section(out, *v.intervals, v.index);
  const std::string text = text_report(scenario, v);
  waits_section(out, v, advice_of(text));
  if (!v.warnings.empty()) {
    out += "<h3>Warnings</h3>\n<ul class=\"warnings\">\n";
    for (const auto& w : v.warnings) out += "<li>" + esc(w) + "</li>\n";
    out += "</ul>\n";
  }
  out += "<details><summary>Text report</summary>\n<pre>" + esc(text) + "</pre>\n</details>\n</section>\n";
}

}  // namespace

std::string html_report(const std::string& scenario, const std::vector<VariantResult>& variants) {
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<link rel=\"icon\" href=\"data:,\">\n";
  const std::string title = report_title(scenario, variants);  // a scenario without a name: trace on machine
  out += fmt::format("<title>augur: {}</title>\n<style>\n{}</style>\n</head>\n<body>\n", esc(title), css);
  out += fmt::format(
      "<h1>augur: {}</h1>\n<p class=\"muted\">{} · {} variant{} · predicted on the simulated "
      "machine</p>\n",
      esc(title), generator(), variants.size(), variants.size() == 1 ? "" : "s");
  // One short link per variant, what it ran in the link's tooltip.
  if (variants.size() > 1) {
    out += "<nav><a href=\"#sweep\">sweep</a> variants:";
    for (const auto& v : variants) {
      out += fmt::format(" <a href=\"#v{0}\" title=\"{1}, {2}{3}\">{0}</a>", v.index, processors_text(v),
                         esc(v.machine_name), v.swept.empty() ? std::string() : ", " + esc(swept_text(v)));
    }
    out += "</nav>\n";
  }
  if (variants.size() > 1) sweep_section(out, variants);
  for (const VariantResult& v : variants) variant_section(out, scenario, v);
  out += "</body>\n</html>\n";
  return out;
}

void write_html(const std::string& path, const std::string& scenario, const std::vector<VariantResult>& variants) {
  engine::write_output(path, html_report(scenario, variants), "HTML report");
}

}  // namespace augur::models::report
