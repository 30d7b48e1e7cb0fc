// The advice of a run (report.hpp `advice`): the analyzer's method applied to the numbers.
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
using detail::Sec;
using detail::totals;

namespace {

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
    text += "; the network is the bottleneck" + transfer_focus(v, t) + detail::bottleneck_link_text(v);
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

}  // namespace augur::models::report
