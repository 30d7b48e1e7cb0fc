// The wait-state section of the HTML report: waits per rank, per operation and per site, the root
// causes and the advice.
#include <fmt/format.h>

#include <algorithm>

#include "engine/collective_kind.hpp"
#include "models/report/html_report_internal.hpp"

namespace augur::models::report::html {

namespace {

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

}  // namespace

void waits_section(std::string& out, const VariantResult& v, const std::string& advice) {
  if (v.waits.empty()) return;
  waits_by_rank(out, v);
  waits_by_operation(out, v);
  waits_by_site(out, v);
  root_causes(out, v);
  if (!advice.empty()) out += "<h4>Advice</h4>\n<p class=\"advice\">" + esc(advice) + "</p>\n";
}

}  // namespace augur::models::report::html
