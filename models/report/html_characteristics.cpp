// The characteristics section of the HTML report: a table of the intervals, then per interval the
// analyzer's blocks (spec section 8).
#include <fmt/format.h>

#include <algorithm>

#include "models/report/interval_report.hpp"
#include "models/report/svg_plot.hpp"
#include "models/report/html_report_internal.hpp"

namespace augur::models::report::html {

namespace {

using analysis::Interval;
using analysis::IntervalTotals;
using analysis::OpKind;

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

}  // namespace

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

}  // namespace augur::models::report::html
