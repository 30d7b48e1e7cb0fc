// The one-screen summary of a run and the sweep table as text.
#include "models/report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>

#include "models/report/sweep_table.hpp"

namespace augur::models::report {

namespace {

std::string percent(double part, double whole) {
  return fmt::format("{:.1f} %", whole > 0 ? 100.0 * part / whole : 0.0);
}

// "lost time 0.191112 s: waiting 0.189362 s (99.1 %), transfer 0.001750 s (0.9 %)": the
// components of the lost time that are not zero, largest first.
std::string lost_line(const SweepRow& r) {
  struct Part {
    const char* name;
    double value;
  };
  std::vector<Part> parts = {{"waiting", r.wait_s},
                             {"transfer", r.transfer_s},
                             {"idle", r.idle_s},
                             {"insufficient parallelism", r.insufficient_s},
                             {"sleep", r.sleep_s}};
  std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.value > b.value; });
  std::string text = fmt::format("lost time {} s", seconds_text(r.lost_s));
  std::string split;
  for (const Part& p : parts) {
    if (!(p.value >= 0.0005 * (r.lost_s + r.sleep_s))) continue;  // rounds to 0.0 %
    split += fmt::format("{}{} {} s ({})", split.empty() ? ": " : ", ", p.name, seconds_text(p.value),
                         percent(p.value, r.lost_s + r.sleep_s));
  }
  return text + split;
}

// "top wait state: late_sender 0.150000 s (79.2 % of the waiting, 12.0 % indirect)".
std::string wait_line(const VariantResult& v) {
  if (!v.wait_states) return "wait states not computed (--wait-states off)";
  const analysis::LpWaits sum = analysis::sum_waits(v.waits);
  const double all = sum.total_s();
  if (!(all > 0))
    return v.processors == 1 ? "top wait state: none (one processor)" : "top wait state: none (no waiting)";
  std::size_t top = 0;
  for (std::size_t i = 1; i < analysis::wait_pattern_count; ++i) {
    if (sum.patterns[i].total_s > sum.patterns[top].total_s) top = i;
  }
  const analysis::WaitAmount& a = sum.patterns[top];
  return fmt::format("top wait state: {} {} s in {} ({} of the waiting, {} indirect)",
                     analysis::to_string(static_cast<analysis::WaitPattern>(top)), seconds_text(a.total_s),
                     count_of(a.count, "wait"), percent(a.total_s, all), percent(a.indirect_s, a.total_s));
}

std::string interval_name(const analysis::Interval& i) {
  if (i.type == analysis::IntervalType::phase) return i.source_file;
  return fmt::format("{} interval {}:{}", analysis::title(i.type), i.source_file, i.source_line);
}

// `line` cut to `width` characters (UTF-8 sequences kept whole), the cut marked with "...".
std::string fit_line(const std::string& line, std::size_t width) {
  std::size_t chars = 0, at = 0;
  while (at < line.size() && chars < width - 3) {
    ++at;
    while (at < line.size() && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80) ++at;
    ++chars;
  }
  if (at == line.size()) return line;
  std::size_t rest = 0;
  for (std::size_t k = at; k < line.size() && rest <= 3; ++k)
    rest += (static_cast<unsigned char>(line[k]) & 0xC0) != 0x80;
  return rest <= 3 ? line : line.substr(0, at) + "...";
}

// The intervals directly under Main of at least summary_phase_threshold of its execution time,
// longest first (at most summary_phase_rows), and how many were left out.
void write_phases(std::string& out, const analysis::IntervalTree& tree) {
  const analysis::Interval& root = tree.root();
  if (root.children.empty()) return;
  std::vector<const analysis::Interval*> shown;
  for (const auto& c : root.children) {
    if (c->totals.execution >= summary_phase_threshold * root.totals.execution) shown.push_back(c.get());
  }
  std::stable_sort(shown.begin(), shown.end(), [](const analysis::Interval* a, const analysis::Interval* b) {
    return a->totals.execution > b->totals.execution;
  });
  if (shown.size() > summary_phase_rows) shown.resize(summary_phase_rows);
  const std::size_t hidden = root.children.size() - shown.size();
  out += "  " + count_of(root.children.size(), "interval") + " under Main";
  out += hidden == 0 ? std::string(":\n")
                     : fmt::format(" ({} not shown: shorter than {:g} % of the time or beyond the {} longest):\n",
                                   hidden, 100 * summary_phase_threshold, summary_phase_rows);
  for (const analysis::Interval* i : shown) {
    const std::string head =
        fmt::format("{} s {:>7}  lost {} s  ", seconds_text(i->totals.execution),
                    percent(i->totals.execution, root.totals.execution), seconds_text(i->totals.lost + i->totals.idle));
    out += fit_line("    " + head + interval_name(*i), summary_columns) + "\n";
  }
}

// At most this many lines of a deadlock or failure message.
constexpr std::size_t message_lines = 10;

void write_message(std::string& out, const VariantResult& v) {
  out += fmt::format("  run ended by {}:\n", v.outcome);
  std::size_t lines = 0, from = 0;
  while (from < v.message.size()) {
    std::size_t nl = v.message.find('\n', from);
    if (nl == std::string::npos) nl = v.message.size();
    if (lines++ < message_lines) out += "    " + v.message.substr(from, nl - from) + "\n";
    from = nl + 1;
  }
  if (lines > message_lines) out += fmt::format("    ... {} more lines (--detail)\n", lines - message_lines);
}

std::string variant_block(const VariantResult& v, const SweepRow& r) {
  std::string out = fmt::format(
      "\nvariant {}: {}{}, machine {} ({})", v.index, count_of(static_cast<std::uint64_t>(v.processors), "processor"),
      v.grid.empty() ? std::string() : " (grid " + v.grid + ")", v.machine_name, v.machine_model);
  for (const auto& [k, val] : v.swept) out += fmt::format(", {}={}", k, val);
  out += "\n";
  if (v.outcome != "completed") write_message(out, v);
  out += fmt::format("  predicted time {} s, efficiency {:.1f} %, {}\n", seconds_text(v.predicted_time_s),
                     100.0 * r.efficiency, count_of(v.events, "event"));
  if (v.static_estimate) out += "  " + static_line(*v.static_estimate, v.predicted_time_s) + "\n";
  out += wrap_text(lost_line(r), summary_columns, "  ", "    ");
  if (!v.lps.empty() || v.wait_operations == WaitOperations::dvm) out += "  " + wait_line(v) + "\n";
  if (v.intervals) write_phases(out, *v.intervals);
  if (v.wait_states && (!v.lps.empty() || v.intervals)) {
    out += wrap_text(advice(v), summary_columns, "  advice: ", "    ");
  }
  for (const std::string& w : v.warnings) out += wrap_text(w, summary_columns, "  warning: ", "    ");
  return out;
}

}  // namespace

std::string wrap_text(std::string_view text, std::size_t width, std::string_view first, std::string_view indent) {
  std::string out(first);
  std::size_t column = first.size();
  bool line_empty = true;
  std::size_t from = 0;
  while (from < text.size()) {
    if (text[from] == ' ') {
      ++from;
      continue;
    }
    std::size_t end = text.find(' ', from);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(from, end - from);
    if (!line_empty && column + 1 + word.size() > width) {
      out += "\n";
      out += indent;
      column = indent.size();
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    line_empty = false;
    from = end;
  }
  return out + "\n";
}

std::string seconds_text(double seconds) {
  if (std::isfinite(seconds) && std::fabs(seconds) < 1e15) return fmt::format("{:.6f}", seconds);
  return fmt::format("{:.6e}", seconds);
}

std::string sweep_text(const std::vector<VariantResult>& variants) {
  const std::vector<SweepRow> rows = sweep_rows(variants);
  const bool dvm = std::any_of(rows.begin(), rows.end(), [](const SweepRow& r) { return !r.grid.empty(); });
  std::vector<std::string> keys;  // swept keys but the machine (a column of its own)
  std::size_t machine_width = 7;
  for (const SweepRow& r : rows) {
    machine_width = std::max(machine_width, r.machine.size());
    for (const auto& [k, v] : r.swept) {
      if (k != "machine" && std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
  }
  std::vector<std::size_t> key_widths;
  for (const std::string& k : keys) {
    std::size_t w = k.size();
    for (const SweepRow& r : rows) {
      for (const auto& [rk, v] : r.swept) {
        if (rk == k) w = std::max(w, v.size());
      }
    }
    key_widths.push_back(w);
  }
  std::string out = fmt::format("{:>7} {:>5}", "variant", "procs");
  if (dvm) out += fmt::format(" {:>5}", "grid");
  out += fmt::format(" {:<{}}", "machine", machine_width);
  for (std::size_t i = 0; i < keys.size(); ++i) out += fmt::format(" {:>{}}", keys[i], key_widths[i]);
  out += fmt::format(" {:>12} {:>6} {:>11} {:>11} {:>11}", "time_s", "eff_%", "transfer_s", "wait_s", "idle_s");
  out += dvm ? fmt::format(" {:>11}", "insuff_s") : "";
  const bool skeleton =
      std::any_of(rows.begin(), rows.end(), [](const SweepRow& r) { return !std::isnan(r.static_s); });
  out += skeleton ? fmt::format(" {:>12}\n", "static_s") : "\n";
  for (const SweepRow& r : rows) {
    out += fmt::format("{:>7} {:>5}", r.variant, r.processors);
    if (dvm) out += fmt::format(" {:>5}", r.grid);
    out += fmt::format(" {:<{}}", r.machine, machine_width);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      std::string value;
      for (const auto& [k, v] : r.swept) {
        if (k == keys[i]) value = v;
      }
      out += fmt::format(" {:>{}}", value, key_widths[i]);
    }
    out += fmt::format(" {:>12} {:>6.1f} {:>11} {:>11} {:>11}", seconds_text(r.predicted_time_s), 100.0 * r.efficiency,
                       seconds_text(r.transfer_s), seconds_text(r.wait_s), seconds_text(r.idle_s));
    out += dvm ? fmt::format(" {:>11}", seconds_text(r.insufficient_s)) : "";
    if (skeleton) out += fmt::format(" {:>12}", std::isnan(r.static_s) ? std::string("-") : seconds_text(r.static_s));
    out += "\n";
    if (r.outcome != "completed") out += fmt::format("{:>7} (run ended by {})\n", "", r.outcome);
  }
  return out;
}

std::string report_title(const std::string& scenario, const std::vector<VariantResult>& variants) {
  if (!scenario.empty()) return scenario;
  if (variants.empty()) return "no variants";
  return variants.front().trace + " on " + variants.front().machine_name;
}

void write_summary(std::ostream& out, const std::string& scenario, const std::vector<VariantResult>& variants) {
  out << fmt::format("augur: {} ({} variant{})\n", report_title(scenario, variants), variants.size(),
                     variants.size() == 1 ? "" : "s");
  const std::vector<SweepRow> rows = sweep_rows(variants);
  for (std::size_t i = 0; i < variants.size(); ++i) out << variant_block(variants[i], rows[i]);
  if (variants.size() > 1)
    out << "\nsweep table (times in s, summed over processors but time_s):\n" << sweep_text(variants);
  out << "the full report: --detail, or --text FILE\n";
}

}  // namespace augur::models::report
