// Per-link utilisation of flow-level network runs (issue 29 item 5): the most loaded links in the
// text and HTML reports and the name of the bottleneck for the advice.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <ostream>

#include "models/report/html_report_internal.hpp"
#include "models/report/report_internal.hpp"

namespace augur::models::report {

double link_utilisation(const machines::LinkUsage& link, double predicted_time) {
  // bytes / (bandwidth · T)
  const double capacity = link.bandwidth * predicted_time;
  return capacity > 0 ? link.bytes / capacity : 0.0;
}

double link_busy_share(const machines::LinkUsage& link, double predicted_time) {
  return predicted_time > 0 ? link.busy / predicted_time : 0.0;
}

std::vector<std::size_t> most_loaded_links(const VariantResult& v, std::size_t limit) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < v.links.size(); ++i)
    if (v.links[i].bytes > 0) order.push_back(i);
  const auto more_loaded = [&](std::size_t a, std::size_t b) {
    const double ua = link_utilisation(v.links[a], v.predicted_time_s);
    const double ub = link_utilisation(v.links[b], v.predicted_time_s);
    if (ua != ub) return ua > ub;
    if (v.links[a].busy != v.links[b].busy) return v.links[a].busy > v.links[b].busy;
    return a < b;
  };
  const std::size_t n = std::min(limit, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(), more_loaded);
  order.resize(n);
  return order;
}

namespace detail {

std::string bottleneck_link_text(const VariantResult& v) {
  const std::vector<std::size_t> top = most_loaded_links(v, 1);
  if (top.empty()) return "";
  const machines::LinkUsage& l = v.links[top.front()];
  return fmt::format(FMT_COMPILE("; the most loaded link is {} ({:.1f} % utilised, busy {:.1f} % of the time, up to "
                                 "{} messages at once)"),
                     l.name, 100.0 * link_utilisation(l, v.predicted_time_s),
                     100.0 * link_busy_share(l, v.predicted_time_s), l.peak_flows);
}

void write_links_text(std::ostream& out, const VariantResult& v) {
  if (v.links.empty()) return;
  const std::vector<std::size_t> top = most_loaded_links(v, max_text_links);
  const auto used = static_cast<std::size_t>(
      std::count_if(v.links.begin(), v.links.end(), [](const machines::LinkUsage& l) { return l.bytes > 0; }));
  out << fmt::format(FMT_COMPILE("  Most loaded links ({} of the {} that carried data, {} in all; all in --json),\n"
                                 "  by utilisation = bytes / (bandwidth x predicted time):\n"),
                     top.size(), used, v.links.size());
  if (top.empty()) {
    out << "\n";
    return;
  }
  out << fmt::format(FMT_COMPILE("  {:<32} {:>11} {:>14} {:>16} {:>11} {:>9} {:>10}\n"), "link", "sharing",
                     "bandwidth_Bps", "bytes", "utilisation", "busy", "peak_flows");
  for (std::size_t i : top) {
    const machines::LinkUsage& l = v.links[i];
    out << fmt::format(FMT_COMPILE("  {:<32} {:>11} {:>14.6g} {:>16.0f} {:>10.1f}% {:>8.1f}% {:>10}\n"), l.name,
                       l.sharing, l.bandwidth, l.bytes, 100.0 * link_utilisation(l, v.predicted_time_s),
                       100.0 * link_busy_share(l, v.predicted_time_s), l.peak_flows);
  }
  out << "\n";  // a blank line before the wait states
}

}  // namespace detail

namespace html {

void links_section(std::string& out, const VariantResult& v) {
  if (v.links.empty()) return;
  const std::vector<std::size_t> top = most_loaded_links(v, max_table_rows);
  out += fmt::format(
      "<h3>Links</h3>\n<p>The {} most loaded of {} links (those that carried data), by utilisation = bytes / "
      "(bandwidth &times; predicted time); busy = time with at least one message moving over the link; all "
      "links in the JSON report.</p>\n",
      top.size(), v.links.size());
  if (top.empty()) return;
  out +=
      "<table class=\"links\"><tr><th>link</th><th>sharing</th><th>bandwidth (B/s)</th><th>bytes</th>"
      "<th>utilisation</th><th>busy (s)</th><th>busy</th><th>peak flows</th></tr>\n";
  for (std::size_t i : top) {
    const machines::LinkUsage& l = v.links[i];
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=\"n\">{:.6g}</td><td class=\"n\">{:.0f}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
        esc(l.name), l.sharing, l.bandwidth, l.bytes, pct(link_utilisation(l, v.predicted_time_s)), sec(l.busy),
        pct(link_busy_share(l, v.predicted_time_s)), l.peak_flows);
  }
  out += "</table>\n";
}

}  // namespace html

}  // namespace augur::models::report
