// Text and JSON renderings of the per-variant results.
#include "models/report/report.hpp"
#include "models/report/interval_report.hpp"
#include "models/report/fixed_text.hpp"
#include "models/report/json_numbers.hpp"
#include "models/report/version.hpp"

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

#include "engine/output_file.hpp"

namespace augur::models::report {
namespace {

/// A time in seconds for the `{:.6f}` fields of the text: fixed-point below 10^15 s, the exponent
/// form beyond (a time of 1e300 s is not spelled with 300 digits).
struct Sec {
  double value;
};

}  // namespace
}  // namespace augur::models::report

template <>
struct fmt::formatter<augur::models::report::Sec> : fmt::formatter<double> {
  template <class Context>
  auto format(augur::models::report::Sec s, Context& ctx) const {
    if (std::fabs(s.value) >= augur::models::report::detail::fixed_limit)
      return fmt::format_to(ctx.out(), "{:.6e}", s.value);
    return fmt::formatter<double>::format(s.value, ctx);
  }
};

namespace augur::models::report {

namespace {

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

nlohmann::ordered_json lp_json(const LpStats& s) {
  nlohmann::ordered_json j;
  j["compute_s"] = s.compute_s;
  j["transfer_s"] = s.transfer_s;
  j["wait_s"] = s.wait_s;
  j["sleep_s"] = s.sleep_s;
  j["end_s"] = s.end_s;
  j["messages_sent"] = s.messages_sent;
  j["bytes_sent"] = s.bytes_sent;
  j["messages_received"] = s.messages_received;
  j["bytes_received"] = s.bytes_received;
  j["collectives"] = s.collectives;
  j["events"] = s.events;
  return j;
}

nlohmann::ordered_json amount_json(const analysis::WaitAmount& a) {
  nlohmann::ordered_json j;
  j["total_s"] = a.total_s;
  j["direct_s"] = a.direct_s();
  j["indirect_s"] = a.indirect_s;
  j["count"] = a.count;
  return j;
}

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

// The (at most 3) LPs that caused the most direct waiting in others (`all`: over every LP), each
// with at least 5 % of it:
// "; the ranks that make others wait most: 3 (0.021000 s, 41.2 %), 7 (…)". Empty when no LP
// stands out (every one below 5 %) or nothing was caused.
std::string late_ranks(const VariantResult& v, const char* late, double all) {
  if (!(all > 0)) return {};
  std::array<std::size_t, 3> top{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < v.waits.size(); ++i) {
    const double c = v.waits[i].caused_s;
    if (!(c >= 0.05 * all)) continue;
    std::size_t at = n < top.size() ? n++ : top.size();  // insertion sort by caused time, then by index
    while (at > 0 && v.waits[top[at - 1]].caused_s < c) {
      if (at < top.size()) top[at] = top[at - 1];
      --at;
    }
    if (at < top.size()) top[at] = i;
  }
  if (n == 0) return {};
  std::string text = fmt::format(FMT_COMPILE("; the {} that make others wait most: "), late);
  for (std::size_t k = 0; k < n; ++k) {
    text += fmt::format(FMT_COMPILE("{}{} ({:.6f} s, {:.1f} %)"), k == 0 ? "" : ", ", top[k],
                        Sec{v.waits[top[k]].caused_s}, 100.0 * v.waits[top[k]].caused_s / all);
  }
  return text;
}

// Where most of the waiting `wait_s` is, how much of it the late processors' excess explains, and
// the region causing the most of it: "; 93.0 % of the waiting is at allreduce (…); the region …".
std::string waiting_focus(const VariantResult& v, double wait_s, const char* late) {
  if (v.waits_by_operation.empty() || !(wait_s > 0)) return {};
  std::size_t op = 0;
  for (std::size_t i = 1; i < v.waits_by_operation.size(); ++i) {
    if (v.waits_by_operation[i].total_s > v.waits_by_operation[op].total_s) op = i;
  }
  const auto& a = v.waits_by_operation[op];
  if (!(a.total_s > 0)) return {};
  std::string text =
      fmt::format(FMT_COMPILE("; {:.1f} % of the waiting is at {} ({:.1f} % of that explained by excess computation "
                              "of the late {})"),
                  100.0 * a.total_s / wait_s, wait_operation_name(v, op),
                  std::min(100.0, 100.0 * v.explained_by_operation[op] / a.total_s), late);
  // Point-to-point waiting of which a good part is messages received in the wrong order.
  const analysis::LpWaits sum = analysis::sum_waits(v.waits);
  const analysis::WaitAmount& wrong = sum.wrong_order;
  if (op == 0 && wrong.total_s >= 0.1 * a.total_s) {
    text += fmt::format(
        FMT_COMPILE("; {:.1f} % of it is messages received in the wrong order (a message sent earlier was already "
                    "there): where the program can use that message first, receive whichever comes first "
                    "(MPI_Waitany, MPI_ANY_SOURCE)"),
        100.0 * wrong.total_s / a.total_s);
  }
  if (!v.wait_sites.empty()) {
    const analysis::WaitSite& top = v.wait_sites.front();
    text += fmt::format(FMT_COMPILE("; the position where {} wait most is \"{}\" ({:.1f} % of the waiting)"), late,
                        top.name, 100.0 * top.total_s() / wait_s);
  }
  if (!v.causes.empty()) {
    text +=
        fmt::format(FMT_COMPILE("; the region causing the most waiting is \"{}\" ({:.6f} s in {})"),
                    v.causes.front().name, Sec{v.causes.front().caused_s}, count_of(v.causes.front().waits, "wait"));
  }
  return text + late_ranks(v, late, sum.caused_s);
}

// The analyzer's method for a DVM run, from the characteristics of the whole program (Main):
// efficiency, the dominant component of the lost time (insufficient parallelism, communication,
// idle) and what to look at next.
std::string dvm_advice(const VariantResult& v) {
  const analysis::IntervalTotals& t = v.intervals->root().totals;
  if (!(t.total > 0)) return "nothing ran.";
  std::string text = fmt::format(
      FMT_COMPILE("efficiency {:.1f} % (productive time over processors x execution time); "), 100.0 * t.efficiency);
  if (!(t.lost > 0.01 * t.total)) return text + "little time is lost: nothing to fix.";
  struct Part {
    const char* name;
    double value;
  };
  const Part parts[] = {
      {"communication", t.communication}, {"insufficient parallelism", t.insufficient}, {"idle time", t.idle}};
  const Part* top = &parts[0];
  for (const Part& p : parts) {
    if (p.value > top->value) top = &p;
  }
  text +=
      fmt::format(FMT_COMPILE("{} dominates the lost time ({:.1f} % of it)"), top->name, 100.0 * top->value / t.lost);
  if (top == &parts[0]) {
    analysis::OpKind kind = analysis::dvm_op_kinds.front();
    for (analysis::OpKind k : analysis::dvm_op_kinds) {
      if (t.op(k).communication > t.op(kind).communication) kind = k;
    }
    const analysis::OpTimes& o = t.op(kind);
    text += fmt::format(
        FMT_COMPILE("; {:.1f} % of it is {} ({} operations, {:.1f} % of that synchronisation: waiting for the latest "
                    "processor)"),
        100.0 * o.communication / t.communication, analysis::to_string(kind), t.nop(kind),
        o.communication > 0 ? 100.0 * o.synchronization / o.communication : 0.0);
    const double waiting = analysis::sum_waits(v.waits).total_s();
    if (waiting > 0.5 * t.communication) {
      text += fmt::format(FMT_COMPILE("; most of the communication is waiting for late processors ({:.6f} s)"),
                          Sec{waiting});
    } else {
      text +=
          "; the transfers themselves cost most: fewer or larger messages (fewer reductions and shadow renewals, "
          "another distribution), or a faster network";
      if (waiting > 0) text += fmt::format(FMT_COMPILE("; the waiting for late processors ({:.6f} s)"), Sec{waiting});
    }
    text += waiting_focus(v, waiting, "processors");
  } else if (top == &parts[1]) {
    // The interval (other than Main) where most of it is.
    const analysis::Interval* worst = nullptr;
    v.intervals->for_each([&](const analysis::Interval& i) {
      if (i.parent != nullptr && (worst == nullptr || i.totals.insufficient > worst->totals.insufficient)) worst = &i;
    });
    text +=
        fmt::format(FMT_COMPILE("; work is repeated on every processor instead of being divided among them (user code "
                                "{:.6f} s, run-time system {:.6f} s)"),
                    Sec{t.insuff_usr}, Sec{t.insuff_sys});
    if (worst != nullptr && worst->totals.insufficient > 0) {
      text += fmt::format(FMT_COMPILE("; most of it in the interval at {}:{} ({:.6f} s)"), worst->source_file,
                          worst->source_line, Sec{worst->totals.insufficient});
    }
    text += t.insuff_sys > t.insuff_usr
                ? ": the run-time system's own work (creating, mapping and ending parallel loops, reductions, shadow "
                  "groups) is done by every processor and weighs more than the loops' share: fewer and larger parallel "
                  "loops, or a larger problem for this many processors"
                : ": distribute more of the arrays and loops, or shorten the sequential parts";
    text += waiting_focus(v, analysis::sum_waits(v.waits).total_s(), "processors");
  } else {
    text += fmt::format(
        FMT_COMPILE("; processors finish at different times (load imbalance {:.6f} s): the work is unevenly "
                    "divided (block sizes, the I/O processor's work)"),
        Sec{t.load_imbalance});
    const double waiting = analysis::sum_waits(v.waits).total_s();
    text += waiting_focus(v, waiting, "processors");
  }
  return text + ".";
}

// Where the transfer time goes and what the messages are like: the operation kind with most of
// it (from the characteristics, when the run has them) and the mean message size — small
// messages cost their latency more than their bytes, large ones their bytes.
std::string transfer_focus(const VariantResult& v, const LpStats& t) {
  std::string text;
  if (v.intervals != nullptr) {
    const analysis::IntervalTotals& it = v.intervals->root().totals;
    analysis::OpKind top = analysis::all_op_kinds.front();
    for (analysis::OpKind k : analysis::all_op_kinds) {
      if (it.op(k).transfer > it.op(top).transfer) top = k;
    }
    if (it.transfer > 0 && it.op(top).transfer > 0) {
      text += fmt::format(FMT_COMPILE(" ({:.1f} % of the transfer time is {})"),
                          100.0 * it.op(top).transfer / it.transfer, analysis::to_string(top));
    }
  }
  if (t.messages_sent == 0) return text + ": less data, or a faster machine";
  const double mean = static_cast<double>(t.bytes_sent) / static_cast<double>(t.messages_sent);
  if (mean < 1024) {
    return text +
           fmt::format(
               FMT_COMPILE(": its {} messages carry {:.0f} bytes on average, so each costs its latency more than its "
                           "bytes: fewer, larger messages (aggregate them) help more than bandwidth"),
               t.messages_sent, mean);
  }
  if (mean >= 65536) {
    return text + fmt::format(
                      FMT_COMPILE(": its {} messages carry {:.0f} KiB on average, so their bytes cost most: less data, "
                                  "or more bandwidth"),
                      t.messages_sent, mean / 1024);
  }
  return text +
         fmt::format(
             FMT_COMPILE(": its {} messages carry {:.0f} bytes on average: fewer or larger messages, or a faster "
                         "machine"),
             t.messages_sent, mean);
}

}  // namespace

// The analyzer's method (seed 001 section 3.2) applied to the numbers: which component of the
// lost time dominates, and the next thing to look at.
std::string advice(const VariantResult& v) {
  if (v.wait_operations == WaitOperations::dvm && v.intervals != nullptr) return dvm_advice(v);
  const LpStats t = totals(v.lps);
  const double total = v.predicted_time_s * static_cast<double>(v.lps.size());
  if (!(total > 0)) return "nothing ran.";
  const double lost = total - t.compute_s;
  const double idle = total - t.compute_s - t.transfer_s - t.wait_s - t.sleep_s;
  std::string text =
      fmt::format(FMT_COMPILE("efficiency {:.1f} % (compute over processors x time); "), 100.0 * t.compute_s / total);
  if (!(lost > 0.01 * total)) return text + "little time is lost: nothing to fix.";
  struct Part {
    const char* name;
    double value;
  };
  const Part parts[] = {
      {"waiting", t.wait_s}, {"transfer", t.transfer_s}, {"idle (finished early)", idle}, {"sleep", t.sleep_s}};
  const Part* top = &parts[0];
  for (const Part& p : parts) {
    if (p.value > top->value) top = &p;
  }
  text += fmt::format(FMT_COMPILE("{} dominates the lost time ({:.1f} % of it)"), top->name, 100.0 * top->value / lost);
  if (top == &parts[0]) {
    text += waiting_focus(v, t.wait_s, "ranks");
  } else if (top == &parts[1]) {
    text += "; the network is the bottleneck" + transfer_focus(v, t);
  } else if (top == &parts[2]) {
    // The earliest and the latest to finish.
    std::size_t first = 0, last = 0;
    for (std::size_t i = 1; i < v.lps.size(); ++i) {
      if (v.lps[i].end_s < v.lps[first].end_s) first = i;
      if (v.lps[i].end_s > v.lps[last].end_s) last = i;
    }
    text += fmt::format(
        FMT_COMPILE("; some ranks finish much earlier (rank {} at {:.6f} s, rank {} last at {:.6f} s): the work is "
                    "unevenly distributed"),
        first, Sec{v.lps[first].end_s}, last, Sec{v.lps[last].end_s});
  }
  return text + ".";
}

namespace {

// What the interval reports print about the run besides the tree.
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
    if (!v.lps.empty() || v.wait_operations == WaitOperations::dvm) write_waits_text(out, v, max_rows);
    for (const std::string& w : v.warnings) out << "  " << w << "\n";
  }
}

namespace {

using Json = nlohmann::ordered_json;

Json processor_json(const VariantResult& v, std::size_t i) {
  Json p;
  p["rank"] = i;
  const Json stats = lp_json(v.lps[i]);
  for (const auto& item : stats.items()) p[item.key()] = item.value();
  round_numbers(p);
  return p;
}

Json processor_waits_json(const VariantResult& v, std::size_t r) {
  Json p;
  p["rank"] = r;
  for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
    p[std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i))) + "_s"] = v.waits[r].patterns[i].total_s;
  }
  if (v.wait_operations != WaitOperations::dvm) p["late_sender_wrong_order_s"] = v.waits[r].wrong_order.total_s;
  p["indirect_s"] = v.waits[r].indirect_s();
  p["caused_s"] = v.waits[r].caused_s;
  round_numbers(p);
  return p;
}

// One variant's object. `whole` = false leaves the two per-processor arrays (`processors` and
// `wait_states.processors`) empty, for write_json to stream.
Json variant_json(const VariantResult& v, bool whole) {
  Json j;
  j["index"] = v.index;
  j["processor_count"] = v.processors;
  j["trace"] = v.trace;
  Json m;
  m["name"] = v.machine_name;
  m["model"] = v.machine_model;
  Json params = Json::object();
  for (const auto& [k, val] : v.machine_params) params[k] = val;
  m["parameters"] = params;
  j["machine"] = m;
  Json swept = Json::object();
  for (const auto& [k, val] : v.swept) swept[k] = val;
  j["swept"] = swept;
  j["collectives"] = v.collectives;
  j["outcome"] = v.outcome;
  j["message"] = v.message;
  j["predicted_time_s"] = v.predicted_time_s;
  j["events"] = v.events;
  j["totals"] = lp_json(totals(v.lps));
  Json procs = Json::array();
  if (whole) {
    for (std::size_t i = 0; i < v.lps.size(); ++i) procs.push_back(processor_json(v, i));
  }
  j["processors"] = std::move(procs);
  if (!v.waits.empty()) {
    Json ws;
    Json patterns;
    const analysis::LpWaits sum = analysis::sum_waits(v.waits);
    for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
      patterns[std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i)))] = amount_json(sum.patterns[i]);
    }
    // Part of late_sender, not a pattern of its own.
    if (v.wait_operations != WaitOperations::dvm) patterns["late_sender"]["wrong_order"] = amount_json(sum.wrong_order);
    ws["patterns"] = patterns;
    Json ops = Json::object();
    for (std::size_t i = 0; i < v.waits_by_operation.size(); ++i) {
      if (v.waits_by_operation[i].count > 0) ops[wait_operation_name(v, i)] = amount_json(v.waits_by_operation[i]);
    }
    for (std::size_t i = 0; i < v.waits_by_operation.size(); ++i) {
      if (v.waits_by_operation[i].count > 0 && i < v.explained_by_operation.size()) {
        ops[wait_operation_name(v, i)]["explained_s"] = v.explained_by_operation[i];
      }
    }
    ws["by_operation"] = ops;
    Json sites = Json::array();
    for (const auto& site : v.wait_sites) {
      Json one;
      one["site"] = site.name;
      one["total_s"] = site.total_s();
      one["count"] = site.count();
      Json by = Json::object();
      for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
        if (site.patterns[i].count > 0) {
          by[std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i)))] = amount_json(site.patterns[i]);
        }
      }
      one["patterns"] = by;
      sites.push_back(std::move(one));
    }
    ws["by_site"] = std::move(sites);
    Json causes = Json::array();
    for (const auto& c : v.causes) {
      Json cj;
      cj["region"] = c.name;
      cj["caused_s"] = c.caused_s;
      cj["excess_s"] = c.excess_s;
      cj["waits"] = c.waits;
      causes.push_back(std::move(cj));
    }
    ws["root_causes"] = std::move(causes);
    Json per = Json::array();
    if (whole) {
      for (std::size_t r = 0; r < v.waits.size(); ++r) per.push_back(processor_waits_json(v, r));
    }
    ws["processors"] = std::move(per);
    j["wait_states"] = std::move(ws);
  }
  if (v.intervals) {
    if (!v.grid.empty()) j["grid"] = v.grid;
    j["characteristics"] = interval_report_json(*v.intervals, interval_meta(v), v.interval_root);
  }
  j["warnings"] = v.warnings;
  round_numbers(j);
  return j;
}

// Streaming JSON in exactly the layout of nlohmann's dump(2): values are written as dump(2)
// writes them at their nesting depth; the arrays named in `streams` (by JSON pointer) are written
// element by element by their streamer instead of from the (empty) value in the document.
using Streamer = std::function<void(std::ostream& out, int depth)>;

void pad(std::ostream& out, int depth) {
  for (int i = 0; i < depth; ++i) out << "  ";
}

// `value` as dump(2) writes it, its lines after the first indented for nesting `depth`.
void put(std::ostream& out, const Json& value, int depth) {
  const std::string text = shortest_numbers(value.dump(2, ' ', false, Json::error_handler_t::replace));
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    pad(out, depth);
    from = nl + 1;
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

void write_value(std::ostream& out, const Json& value, int depth, const std::string& path,
                 const std::map<std::string, Streamer>& streams) {
  if (const auto it = streams.find(path); it != streams.end()) {
    it->second(out, depth);
    return;
  }
  if (!value.is_object() || value.empty()) {
    put(out, value, depth);
    return;
  }
  out << "{\n";
  bool first = true;
  for (const auto& item : value.items()) {
    if (!first) out << ",\n";
    first = false;
    pad(out, depth + 1);
    out << Json(item.key()).dump(-1, ' ', false, Json::error_handler_t::replace) << ": ";
    write_value(out, item.value(), depth + 1, path + "/" + item.key(), streams);
  }
  out << "\n";
  pad(out, depth);
  out << "}";
}

// An array of `n` elements made one at a time by `element`, as dump(2) writes it at `depth`.
void write_array(std::ostream& out, int depth, std::size_t n, const std::function<Json(std::size_t)>& element) {
  if (n == 0) {
    out << "[]";
    return;
  }
  out << "[\n";
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out << ",\n";
    pad(out, depth + 1);
    put(out, element(i), depth + 1);
  }
  out << "\n";
  pad(out, depth);
  out << "]";
}

Json document_head(const std::string& scenario) {
  Json doc;
  doc["schema_version"] = 1;
  doc["generator"] = generator();
  doc["scenario"] = scenario;
  doc["variants"] = Json::array();
  return doc;
}

}  // namespace

nlohmann::ordered_json to_json(const std::string& scenario, const std::vector<VariantResult>& variants) {
  Json doc = document_head(scenario);
  for (const VariantResult& v : variants) doc["variants"].push_back(variant_json(v, true));
  return doc;
}

void write_json(std::ostream& out, const std::string& scenario, const std::vector<VariantResult>& variants) {
  const std::map<std::string, Streamer> top = {
      {"/variants", [&](std::ostream& o, int depth) {
         if (variants.empty()) {
           o << "[]";
           return;
         }
         o << "[\n";
         for (std::size_t k = 0; k < variants.size(); ++k) {
           const VariantResult& v = variants[k];
           if (k > 0) o << ",\n";
           pad(o, depth + 1);
           const std::map<std::string, Streamer> inner = {
               {"/processors",
                [&](std::ostream& s, int d) {
                  write_array(s, d, v.lps.size(), [&](std::size_t i) { return processor_json(v, i); });
                }},
               {"/wait_states/processors",
                [&](std::ostream& s, int d) {
                  write_array(s, d, v.waits.size(), [&](std::size_t i) { return processor_waits_json(v, i); });
                }},
           };
           write_value(o, variant_json(v, false), depth + 1, "", inner);
         }
         o << "\n";
         pad(o, depth);
         o << "]";
       }}};
  write_value(out, document_head(scenario), 0, "", top);
  out << "\n";
}

void write_json(const std::string& path, const std::string& scenario, const std::vector<VariantResult>& variants) {
  engine::OutputFile f(path, "JSON report");
  write_json(f.stream(), scenario, variants);
  f.commit();
}

}  // namespace augur::models::report
