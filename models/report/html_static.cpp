// The static estimate in the HTML report (seed 002, docs/roofline.md): a variant's table of the
// closed-form figures per process and for the program, and the simulated time beside it.
#include <fmt/format.h>

#include <algorithm>

#include "models/report/html_report_internal.hpp"
#include "models/report/static_estimate.hpp"

namespace augur::models::report::html {

namespace {

/// A cell of a count (bytes, messages, calls), right-aligned.
std::string count_cell(std::uint64_t n) { return fmt::format("<td class=\"n\">{}</td>", n); }

/// One row of the static table: the figures of a process or of the program.
void static_row(std::string& out, const std::string& name, const StaticFigures& f, bool total) {
  out += fmt::format("<tr{}><td>{}</td>", total ? " class=\"total\"" : "", esc(name));
  out += fmt::format("<td class=\"n\">{:.6g}</td>", f.flops);
  out += count_cell(f.bytes_loaded) + count_cell(f.bytes_stored) + count_cell(f.messages) + count_cell(f.bytes_sent) +
         count_cell(f.bytes_received) + count_cell(f.mpi_calls);
  out += fmt::format("<td class=\"n\">{}</td>", sec(f.t_comm));
  for (double t : f.time) out += fmt::format("<td class=\"n\">{}</td>", sec(t));
  out += "</tr>\n";
}

}  // namespace

void static_section(std::string& out, const StaticEstimate& e, double simulated) {
  out += "<h3>Static estimate (seed 002)</h3>\n";
  const std::string level = e.levels.empty() ? std::string("flops only: the machine has no node")
                                             : "compute priced at memory level " + esc(e.levels[e.chosen]);
  out += fmt::format(
      "<p class=\"muted\">Closed forms over the skeleton's records, no simulation: network latency {:.3g} s, "
      "bandwidth {:.4g} B/s; {}. T = max(flops / performance, bytes / bandwidth of the level) + calls &times; "
      "latency + bytes sent and received / bandwidth (docs/roofline.md).</p>\n",
      e.latency, e.bandwidth, level);
  out +=
      "<div class=\"wide\"><table class=\"static\"><tr><th>rank</th><th>flops</th><th>loaded (B)</th>"
      "<th>stored (B)</th><th>messages</th><th>sent (B)</th><th>received (B)</th><th>MPI calls</th>"
      "<th>comm (s)</th>";
  if (e.levels.empty()) out += "<th>T (s)</th>";
  for (const std::string& l : e.levels) out += fmt::format("<th>T {} (s)</th>", esc(l));
  out += "</tr>\n";
  static_row(out, "program", e.program, true);
  const std::size_t n = std::min(e.processes.size(), max_table_rows);
  for (std::size_t i = 0; i < n; ++i) static_row(out, std::to_string(i), e.processes[i], false);
  out += "</table></div>\n";
  if (n < e.processes.size())
    out += fmt::format("<p class=\"muted\">first {} of {} processes (all in the JSON report).</p>\n", n,
                       e.processes.size());
  const double predicted = static_time(e);
  const double difference = simulated - predicted;
  out += fmt::format("<p>Simulated {} s, static {} s: simulated &minus; static = {:+.6f} s", sec(simulated),
                     sec(predicted), difference);
  if (predicted > 0) out += fmt::format(" ({:+.1f} %)", 100.0 * difference / predicted);
  out += " &mdash; what waiting, contention and the collectives' algorithms add, less what overlaps.</p>\n";
}

}  // namespace augur::models::report::html
