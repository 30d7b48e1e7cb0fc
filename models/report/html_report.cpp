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
#include "models/report/html_report_internal.hpp"
#include "models/report/interval_report.hpp"
#include "models/report/svg_plot.hpp"
#include "models/report/summary.hpp"
#include "models/report/sweep_table.hpp"
#include "models/report/version.hpp"

namespace augur::models::report {

namespace html {

std::string esc(const std::string& s) { return xml_escape(s); }
std::string sec(double s) { return seconds_text(s); }
std::string pct(double f) { return fmt::format("{:.1f} %", 100.0 * f); }

void kv(std::string& out, const std::string& name, const std::string& value) {
  out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", esc(name), value);
}

}  // namespace html

using html::characteristics_section;
using html::esc;
using html::kv;
using html::links_section;
using html::pct;
using html::sec;
using html::static_section;
using html::sweep_section;
using html::waits_section;

namespace {

using analysis::Interval;
using analysis::IntervalTotals;
using analysis::OpKind;

constexpr std::size_t max_bar_rows = 512;  // processors drawn in the bar chart

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
  if (v.static_estimate) static_section(out, *v.static_estimate, v.predicted_time_s);
  if (v.intervals) characteristics_section(out, *v.intervals, v.index);
  links_section(out, v);
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
