// The text rendering of the per-variant results, and the helpers every rendering shares.
#include "models/report/report.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <ostream>
#include <stdexcept>

#include "models/report/report_internal.hpp"

namespace augur::models::report {
using detail::interval_meta;
using detail::Sec;
using detail::totals;
using detail::write_links_text;

namespace detail {

LpStats totals(const std::vector<LpStats>& lps) {
  LpStats t;
  for (const LpStats& s : lps) {
    t.compute_s += s.compute_s;
    t.transfer_s += s.transfer_s;
    t.wait_s += s.wait_s;
    t.sleep_s += s.sleep_s;
    t.end_s = std::max(t.end_s, s.end_s);
    t.messages_sent += s.messages_sent;
    t.bytes_sent += s.bytes_sent;
    t.messages_received += s.messages_received;
    t.bytes_received += s.bytes_received;
    t.collectives += s.collectives;
    t.events += s.events;
  }
  return t;
}

IntervalReportMeta interval_meta(const VariantResult& v) {
  IntervalReportMeta meta;
  meta.program = v.trace;
  meta.machine = v.machine_name;
  meta.grid = v.grid;
  meta.processors = v.processors;
  meta.rule = v.intervals_rule;
  meta.first_processor = v.wait_operations == WaitOperations::dvm ? 1 : 0;
  return meta;
}

}  // namespace detail

namespace {

// "0.012345 s  allreduce after wait (rank 0: allreduce #2) (48 waits: wait_at_nxn 0.012000 s, …)":
// the patterns that occur there, largest first.
std::string site_line(const analysis::WaitSite& site) {
  std::array<std::size_t, analysis::wait_pattern_count> order{};
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return site.patterns[a].total_s > site.patterns[b].total_s; });
  std::string parts;
  for (std::size_t i : order) {
    if (!(site.patterns[i].total_s > 0)) continue;
    parts += fmt::format(FMT_COMPILE("{}{} {:.6f} s"), parts.empty() ? "" : ", ",
                         analysis::to_string(static_cast<analysis::WaitPattern>(i)), Sec{site.patterns[i].total_s});
  }
  return fmt::format(FMT_COMPILE("{:>10.6f} s  {} ({}: {})"), Sec{site.total_s()}, site.name,
                     count_of(site.count(), "wait"), parts);
}

// Under a per-rank table cut to its first `shown` of `all` rows: what the total row below sums.
// As in the DVM analyzer, totals are over every processor whatever the rows shown.
void more_ranks(std::ostream& out, std::size_t shown, std::size_t all) {
  if (shown < all) {
    out << fmt::format(FMT_COMPILE("  ... {} more ranks (see --json); the total is over all {} ranks\n"), all - shown,
                       all);
  }
}

void write_waits_text(std::ostream& out, const VariantResult& v, std::size_t max_rows) {
  if (!v.wait_states) return;  // not computed: the variant's warnings say so
  const analysis::LpWaits total = analysis::sum_waits(v.waits);
  if (!(total.total_s() > 0)) {
    // No waiting at all: the advice still says where the time goes (DVM: insufficient
    // parallelism, communication), or that little is lost.
    if (v.wait_operations == WaitOperations::dvm)
      out << "  wait states: no processor waits for another\n  advice: " << advice(v) << "\n";
    return;
  }
  const bool dvm = v.wait_operations == WaitOperations::dvm;
  out << fmt::format(FMT_COMPILE("  wait states (s):  caused = the direct waiting of others on this {}\n"
                                 "  {:>6} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}\n"),
                     dvm ? "processor" : "rank", dvm ? "proc" : "rank", "late_sender", "late_recv", "barrier",
                     "early_reduce", "late_bcast", "wait_nxn", "indirect", "caused");
  auto row = [&](const std::string& name, const analysis::LpWaits& w) {
    out << fmt::format(
        FMT_COMPILE("  {:>6} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f}\n"), name,
        Sec{w.patterns[0].total_s}, Sec{w.patterns[1].total_s}, Sec{w.patterns[2].total_s}, Sec{w.patterns[3].total_s},
        Sec{w.patterns[4].total_s}, Sec{w.patterns[5].total_s}, Sec{w.indirect_s()}, Sec{w.caused_s});
  };
  const std::size_t n = max_rows == 0 ? v.waits.size() : std::min(max_rows, v.waits.size());
  for (std::size_t i = 0; i < n; ++i) row(std::to_string(i), v.waits[i]);
  more_ranks(out, n, v.waits.size());
  row("total", total);
  std::string ops;
  for (std::size_t i = 0; i < v.waits_by_operation.size(); ++i) {
    const auto& a = v.waits_by_operation[i];
    if (!(a.total_s > 0)) continue;
    ops += fmt::format(FMT_COMPILE("{}{} {:.6f} s ({}, {:.0f} % indirect)"), ops.empty() ? "" : "; ",
                       wait_operation_name(v, i), Sec{a.total_s}, count_of(a.count, "wait"),
                       100.0 * a.indirect_s / a.total_s);
  }
  out << "  waiting by operation: " << ops << "\n";
  if (!v.wait_sites.empty()) {
    out << (dvm ? "  waiting by code position (the statement of the group operation waited in):\n"
                : "  waiting by code position (the call waited in, after the call before it):\n");
    const std::size_t shown = std::min<std::size_t>(v.wait_sites.size(), 5);
    for (std::size_t i = 0; i < shown; ++i) out << "    " << site_line(v.wait_sites[i]) << "\n";
    if (shown < v.wait_sites.size()) {
      out << fmt::format(FMT_COMPILE("    ... {} more positions (see --json)\n"), v.wait_sites.size() - shown);
    }
  }
  if (total.wrong_order.count > 0) {
    out << fmt::format(
        FMT_COMPILE("  messages in wrong order: {:.6f} s of the late-sender waiting ({}, {:.0f} % indirect): a "
                    "message sent earlier was already there to receive\n"),
        Sec{total.wrong_order.total_s}, count_of(total.wrong_order.count, "wait"),
        100.0 * total.wrong_order.indirect_s / total.wrong_order.total_s);
  }
  if (!v.causes.empty()) {
    out << (dvm ? "  root causes (waiting caused in other processors, by statement):\n"
                : "  root causes (waiting caused in other ranks, by code region):\n");
    const std::size_t shown = hot_spots(v.causes, 10);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& c = v.causes[i];
      out << fmt::format(FMT_COMPILE("    {:>10.6f} s  {} ({})\n"), Sec{c.caused_s}, c.name, count_of(c.waits, "wait"));
    }
    if (shown < v.causes.size()) {
      out << fmt::format(
          FMT_COMPILE("    ... {} more regions each causing less than 1 % of the waiting or beyond the first 10 "
                      "(see --json)\n"),
          v.causes.size() - shown);
    }
  }
  out << "  advice: " << advice(v) << "\n";
}

}  // namespace

std::string count_of(std::uint64_t n, std::string_view noun) {
  return fmt::format(FMT_COMPILE("{} {}{}"), n, noun, n == 1 ? "" : "s");
}

std::size_t hot_spots(const std::vector<analysis::RegionCause>& causes, std::size_t limit) {
  double total = 0;
  for (const auto& c : causes) total += c.caused_s;
  std::size_t n = 0;
  while (n < causes.size() && n < limit && causes[n].caused_s >= 0.01 * total) ++n;
  return n;
}

std::string wait_operation_name(const VariantResult& v, std::size_t i) {
  if (v.wait_operations == WaitOperations::dvm)
    return std::string(analysis::to_string(static_cast<analysis::OpKind>(i)));
  return i == 0 ? std::string("point_to_point")
                : std::string(engine::to_string(static_cast<engine::CollectiveKind>(i - 1)));
}

void write_text(std::ostream& out, const std::string& scenario, const std::vector<VariantResult>& variants,
                std::size_t max_rows, const TextReportOptions& intervals) {
  out << fmt::format(FMT_COMPILE("augur: {} ({} variant{})\n"), scenario, variants.size(),
                     variants.size() == 1 ? "" : "s");
  for (const VariantResult& v : variants) {
    out << fmt::format(FMT_COMPILE("\nvariant {}: {}{}, machine {} ({})"), v.index,
                       count_of(static_cast<std::uint64_t>(v.processors), "processor"),
                       v.grid.empty() ? std::string() : " (grid " + v.grid + ")", v.machine_name, v.machine_model);
    for (const auto& [k, val] : v.swept) out << fmt::format(FMT_COMPILE(", {}={}"), k, val);
    out << fmt::format(FMT_COMPILE("\n  trace: {}\n  collectives: {}\n"), v.trace, v.collectives);
    if (v.outcome != "completed") {
      out << fmt::format(FMT_COMPILE("  run ended by {}:\n"), v.outcome);
      out << v.message;
      if (!v.message.empty() && v.message.back() != '\n') out << "\n";
    }
    out << fmt::format(FMT_COMPILE("  predicted time: {:.6f} s   ({} events)\n"), Sec{v.predicted_time_s}, v.events);
    if (!v.lps.empty()) {
      out << fmt::format(FMT_COMPILE("  {:>6} {:>12} {:>12} {:>12} {:>12} {:>9} {:>13} {:>9} {:>13}\n"), "rank",
                         "compute_s", "transfer_s", "wait_s", "end_s", "msgs_out", "bytes_out", "msgs_in", "bytes_in");
      auto row = [&](const std::string& name, const LpStats& s) {
        out << fmt::format(FMT_COMPILE("  {:>6} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>9} {:>13} {:>9} {:>13}\n"),
                           name, Sec{s.compute_s}, Sec{s.transfer_s}, Sec{s.wait_s}, Sec{s.end_s}, s.messages_sent,
                           s.bytes_sent, s.messages_received, s.bytes_received);
      };
      const std::size_t n = max_rows == 0 ? v.lps.size() : std::min(max_rows, v.lps.size());
      for (std::size_t i = 0; i < n; ++i) row(std::to_string(i), v.lps[i]);
      more_ranks(out, n, v.lps.size());
      row("total", totals(v.lps));
    }
    if (v.static_estimate) write_static_text(out, *v.static_estimate, v.predicted_time_s, max_rows);
    if (v.intervals) {
      // The characteristics in the analyzer's layout; with many processors the per-processor part
      // shows the first max_rows unless a processor list was given.
      TextReportOptions options = intervals;
      const bool cut = options.processors.empty() && options.processor_characteristics && max_rows > 0 &&
                       static_cast<std::size_t>(v.processors) > max_rows;
      if (cut) {
        const int first = interval_meta(v).first_processor;
        for (std::size_t p = 0; p < max_rows; ++p) options.processors.push_back(static_cast<int>(p) + first);
      }
      out << "\n";
      if (cut) {
        // The analyzer's rule for a processor list: the main and comparative characteristics are
        // over all processors, the execution characteristics list the chosen ones.
        out << fmt::format(
            FMT_COMPILE("  (main and comparative characteristics over all {0} processors; execution "
                        "characteristics of processors {2}-{3} of {0}, all of them in the JSON report)\n"),
            v.processors, max_rows, options.processors.front(), options.processors.back());
      }
      write_interval_text(out, *v.intervals, interval_meta(v), v.interval_root, options);
    }
    write_links_text(out, v);
    if (!v.lps.empty() || v.wait_operations == WaitOperations::dvm) write_waits_text(out, v, max_rows);
    if (!v.differences.empty()) {
      out << "\n  Documented differences from the original Predictor met by this run (docs/dvm-model.md;\n"
             "  augur run corrects them, augur predict reproduces them):\n";
      for (const std::string& d : v.differences) out << "    " << d << "\n";
    }
    for (const std::string& w : v.warnings) out << "  " << w << "\n";
  }
}

}  // namespace augur::models::report
