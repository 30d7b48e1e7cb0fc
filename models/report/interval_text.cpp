// The text interval report in the layout of the DVM performance analyzer (PPPA, `statfile.cpp`
// and `statread.cpp` of the DVM-system): fixed 4 decimals in columns of at least 10 characters,
// the analyzer's characteristic names and order, processors numbered from 1.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "models/report/fixed_text.hpp"
#include "models/report/interval_report.hpp"
#include "models/report/interval_report_internal.hpp"

namespace augur::models::report {

using analysis::Interval;
using analysis::IntervalTotals;
using analysis::OpKind;
using analysis::OpTimes;
using analysis::ProcessorTable;
using analysis::ProcessorTimes;

namespace {

constexpr int prec = 4;              // digits after the point (PPPA PREC)
constexpr int min_width = 6 + prec;  // narrowest time column (PPPA DIGTIME)
constexpr int npr_width = 5;         // processor-number and Nop columns (PPPA DIGSTAT)
constexpr std::string_view rule_line = "-------------------------------------------------------------------------\n";

/// A per-processor characteristic of the comparative and execution parts (PPPA nameGen order).
struct General {
  std::string_view name;  // padded to 23 characters as the analyzer prints it
  double (*value)(const ProcessorTable& procs, std::size_t p, int processors);  ///< processor p's value
  int precision;
};

/// A General that is one ProcessorTimes figure.
template <double ProcessorTimes::*figure>
double field(const ProcessorTable& t, std::size_t p, int) {
  return t[p].*figure;
}

constexpr std::array<General, 17> generals{{
    {"Lost time              ", field<&ProcessorTimes::lost>, prec},
    {"User insufficient par. ", field<&ProcessorTimes::insuff_usr>, prec},
    {"Sys.insufficient par.  ", field<&ProcessorTimes::insuff_sys>, prec},
    {"Idle time              ", field<&ProcessorTimes::idle>, prec},
    {"Communication          ", field<&ProcessorTimes::communication>, prec},
    // Transfer (message-passing runs: communication while data moved; 0 in DVM runs, so left
    // out there): the sum over the operation kinds' columns.
    {"Transfer               ", [](const ProcessorTable& t, std::size_t p, int) { return t.transfer(p); }, prec},
    {"Real synchronization   ", field<&ProcessorTimes::real_sync>, prec},
    {"Synchronization        ", field<&ProcessorTimes::synchronization>, prec},
    {"Variation              ", field<&ProcessorTimes::variation>, prec},
    {"Overlap                ", field<&ProcessorTimes::overlap>, prec},
    {"Load imbalance         ", field<&ProcessorTimes::load_imbalance>, prec},
    {"Execution time         ", field<&ProcessorTimes::execution>, prec},
    // The analyzer's user and system CPU times are the productive ones: they sum to the main
    // characteristics' "Productive time ( CPU= Sys= )".
    {"User CPU time          ",
     [](const ProcessorTable& t, std::size_t p, int) { return t[p].cpu_usr - t[p].insuff_usr; }, prec},
    {"Sys. CPU time          ",
     [](const ProcessorTable& t, std::size_t p, int) { return t[p].cpu_sys - t[p].insuff_sys; }, prec},
    {"I/O time               ", field<&ProcessorTimes::io>, prec},
    {"Start operation        ", [](const ProcessorTable&, std::size_t, int) { return 0.0; }, prec},
    {"Processors             ", [](const ProcessorTable&, std::size_t, int n) { return static_cast<double>(n); }, 0},
}};

/// The columns of the collective-operation tables (PPPA nameOper, and Transfer: the part of
/// Communic while data moved, non-zero in message-passing runs only) and the matching
/// interval-wide characteristic that decides whether a column is printed.
struct Column {
  std::string_view heading;  // right-aligned in 10 characters
  std::string_view general;  // nameGen of the characteristic, for the execution part
  double OpTimes::*op;
  double IntervalTotals::*total;
};
constexpr std::array<Column, 6> columns{{
    {"  Communic", "Communication          ", &OpTimes::communication, &IntervalTotals::communication},
    {"  Transfer", "Transfer               ", &OpTimes::transfer, &IntervalTotals::transfer},
    {" Real_sync", "Real synchronization   ", &OpTimes::real_sync, &IntervalTotals::real_sync},
    {"   Synchro", "Synchronization        ", &OpTimes::synchronization, &IntervalTotals::synchronization},
    {" Variation", "Variation              ", &OpTimes::variation, &IntervalTotals::variation},
    {"   Overlap", "Overlap                ", &OpTimes::overlap, &IntervalTotals::overlap},
}};

using detail::append_fixed;
using detail::append_right;

/// Appends the row name of a collective table, padded to 16 (PPPA nameCom).
void append_kind_name(std::string& out, OpKind k) {
  const std::string_view title = analysis::title(k);
  out += title;
  if (title.size() < 16) out.append(16 - title.size(), ' ');
}

std::string_view type_word(const Interval& i) {
  if (i.level == 0) return "";
  switch (i.type) {
    case analysis::IntervalType::seq:
      return "SEQ";
    case analysis::IntervalType::par:
      return "PAR";
    case analysis::IntervalType::user:
      return "USER";
    case analysis::IntervalType::phase:
      return "PHASE";
    case analysis::IntervalType::main:
      return "";
  }
  return "";
}

/// Min (first processor), max (last processor reaching it) and sum over processors, as the
/// analyzer's MinMaxSum finds them; processor numbers as the report prints them.
struct Spread {
  double min = DBL_MAX, max = 0, sum = 0;
  int min_at = 0, max_at = 0;
  void add(double v, int number) {
    if (min > v) {
      min = v;
      min_at = number;
    }
    if (max <= v) {
      max = v;
      max_at = number;
    }
    sum += v;
  }
};

class TextWriter {
 public:
  TextWriter(std::string& out, int processors, int first_processor, const TextReportOptions& options)
      : o_(out), n_(processors), first_(first_processor), options_(options) {}

  void interval(const Interval& i, const ProcessorTable& procs) {
    const IntervalTotals& t = i.totals;
    if (width_ == 0) width_ = column_width(t);
    o_ += rule_line;
    header(i);
    std::uint64_t ncall = 0;
    for (OpKind k : analysis::all_op_kinds) ncall += t.nop(k);
    if (options_.main_characteristics) main_part(t, ncall);
    if (options_.comparative_characteristics) comparative_part(t, procs, ncall);
    // {0} where numbers start at 1: the analyzer's -n 0, no per-processor part.
    const bool none = first_ == 1 && options_.processors.size() == 1 && options_.processors.front() == 0;
    if (options_.processor_characteristics && !none) processor_part(t, procs, ncall);
    o_ += '\n';
  }

 private:
  /// The analyzer sizes its columns once, from the first interval's collective-operation sums.
  static int column_width(const IntervalTotals& t) {
    double largest = 0;
    for (OpKind k : analysis::all_op_kinds)
      for (const Column& c : columns) largest = std::max(largest, t.op(k).*c.op);
    std::string text;
    append_fixed(text, largest, prec, min_width);
    return std::max<int>(min_width, static_cast<int>(text.size()));
  }

  /// Appends a time column: `v` with `precision` decimals right-aligned in the column width.
  void time(double v, int precision = prec) { append_fixed(o_, v, precision, width_); }
  /// Appends a processor number or count column.
  void number(std::uint64_t n, int width) { append_right(o_, n, width); }
  /// Appends "label" then a time column then "tail".
  void time_line(std::string_view label, double v, std::string_view tail) {
    o_ += label;
    time(v);
    o_ += tail;
  }
  /// Appends " name= value" with the analyzer's 4 decimals, no column.
  void named(std::string_view name, double v) {
    o_ += name;
    append_fixed(o_, v, prec);
  }

  void header(const Interval& i) {
    std::string expr = i.index ? fmt::format(FMT_COMPILE(" EXPR={}"), *i.index) : std::string();
    if (i.source_file.empty())
      o_ += fmt::format(FMT_COMPILE("INTERVAL ( NLINE={} ) LEVEL={} {} EXE_COUNT={}{}\n"), i.source_line, i.level,
                        type_word(i), i.exe_count, expr);
    else
      o_ += fmt::format(FMT_COMPILE("INTERVAL ( NLINE={} SOURCE={} ) LEVEL={} {} EXE_COUNT={}{}\n"), i.source_line,
                        i.source_file, i.level, type_word(i), i.exe_count, expr);
  }

  void main_part(const IntervalTotals& t, std::uint64_t ncall) {
    o_ += "--- The main characteristics --- \n";
    time_line("Parallelization efficiency  ", t.efficiency, " \n");
    time_line("Execution time              ", t.execution, " \n");
    o_ += "Processors                  ";
    number(static_cast<std::uint64_t>(n_), width_);
    o_ += '\n';
    time_line("Total time                  ", t.total, "\n");
    if (t.productive > 0) {
      time_line("Productive time             ", t.productive, " ( CPU= ");
      append_fixed(o_, t.productive_cpu, prec);
      named(" Sys= ", t.productive_sys);
      named(" I/O= ", t.io);
      o_ += " )\n";
    }
    if (t.lost > 0) time_line("Lost  time                  ", t.lost, " \n");
    if (t.insuff_usr + t.insuff_sys != 0) {
      time_line("   Insufficient parallelism ", t.insuff_usr + t.insuff_sys, " ( User= ");
      append_fixed(o_, t.insuff_usr, prec);
      named(" Sys= ", t.insuff_sys);
      o_ += " )\n";
    }
    // augur does not model the start of asynchronous operations apart: Starts is 0.
    // Message-passing runs: Real_sync is the waiting; Transfer the rest.
    if (t.communication != 0) {
      time_line("   Communication            ", t.communication, " ( Real_sync= ");
      append_fixed(o_, t.real_sync, prec);
      named(" Starts= ", 0.0);
      if (t.transfer > 0) named(" Transfer= ", t.transfer);
      o_ += " )\n";
    }
    if (t.idle != 0) time_line("   Idle time                ", t.idle, "\n");
    if (t.load_imbalance != 0) time_line("Load imbalance              ", t.load_imbalance, "\n");
    if (t.synchronization != 0) time_line("Synchronization             ", t.synchronization, "\n");
    if (t.variation != 0) time_line("Time variation              ", t.variation, "\n");
    if (t.overlap > 0) time_line("Overlap                     ", t.overlap, "\n");
    if (ncall == 0) return;
    const int nop_width = std::max<int>(npr_width, static_cast<int>(std::to_string(ncall).size()));
    o_.append(17, ' ');
    append_right(o_, " Nop ", nop_width);
    for (const Column& c : columns)
      if (t.*c.total > 0) {
        append_right(o_, c.heading, width_);
        o_ += ' ';
      }
    o_ += '\n';
    for (OpKind k : analysis::all_op_kinds) {
      const OpTimes& op = t.op(k);
      bool any = t.nop(k) > 0;
      for (const Column& c : columns) any = any || op.*c.op != 0;
      if (!any) continue;  // a row of zeros
      append_kind_name(o_, k);
      number(t.nop(k), nop_width);
      o_ += ' ';
      for (const Column& c : columns)
        if (t.*c.total > 0) {
          time(op.*c.op);
          o_ += ' ';
        }
      o_ += '\n';
    }
  }

  void comparative_part(const IntervalTotals& t, const ProcessorTable& procs, std::uint64_t ncall) {
    o_ += "--- The comparative characteristics --- \n";
    o_.append(24, ' ');
    append_right(o_, "Tmin", width_);
    o_ += ' ';
    append_right(o_, "N proc", npr_width);
    append_right(o_, "Tmax", width_);
    o_ += ' ';
    append_right(o_, "N proc", npr_width);
    append_right(o_, "Tmid", width_);
    o_ += '\n';
    for (const General& g : generals) {
      Spread s;
      for (std::size_t p = 0; p < procs.size(); ++p) s.add(g.value(procs, p, n_), static_cast<int>(p) + first_);
      if (!(s.sum > 0)) continue;
      o_ += g.name;
      o_ += ' ';
      time(s.min, g.precision);
      o_ += ' ';
      number(static_cast<std::uint64_t>(s.min_at), npr_width);
      o_ += ' ';
      time(s.max, g.precision);
      o_ += ' ';
      number(static_cast<std::uint64_t>(s.max_at), npr_width);
      o_ += ' ';
      time(s.sum / n_, g.precision);
      o_ += " \n";
    }
    if (ncall == 0) return;
    o_.append(15, ' ');
    for (const Column& c : columns)
      if (t.*c.total > 0) {
        append_right(o_, c.heading, width_ + npr_width);
        o_ += "  ";
      }
    o_ += '\n';
    for (OpKind k : analysis::all_op_kinds) {
      const std::vector<OpTimes>& column = procs.column(k);
      if (column.empty()) continue;  // no figures of this kind: a row of zeros
      std::array<Spread, columns.size()> s{};
      bool any = false;
      for (std::size_t c = 0; c < columns.size(); ++c) {
        for (std::size_t p = 0; p < column.size(); ++p)
          s[c].add(column[p].*columns[c].op, static_cast<int>(p) + first_);
        any = any || s[c].sum != 0;
      }
      if (!any) continue;
      const auto row = [&](std::string_view which, double Spread::*value, int Spread::*at) {
        append_kind_name(o_, k);
        o_ += which;
        for (std::size_t c = 0; c < columns.size(); ++c) {
          if (!(t.*columns[c].total > 0)) continue;
          time(s[c].*value);
          o_ += ' ';
          if (at != nullptr) {
            number(static_cast<std::uint64_t>(s[c].*at), npr_width);
            o_ += ' ';
          } else {
            o_.append(static_cast<std::size_t>(npr_width) + 1, ' ');
          }
        }
        o_ += '\n';
      };
      row("Tmin", &Spread::min, &Spread::min_at);
      row("Tmax", &Spread::max, &Spread::max_at);
      for (Spread& spread : s) spread.sum /= n_;
      row("Tmid", &Spread::sum, nullptr);
    }
  }

  // The processors the per-processor part lists, in processor order: all of the `count`, or
  // those of the processor list (numbers from first_; others ignored). Built once per count.
  const std::vector<std::size_t>& shown(std::size_t count) {
    if (shown_count_ != count || shown_.empty()) {
      shown_.clear();
      if (options_.processors.empty()) {
        for (std::size_t p = 0; p < count; ++p) shown_.push_back(p);
      } else {
        for (int n : options_.processors) {
          if (n >= first_ && static_cast<std::size_t>(n - first_) < count)
            shown_.push_back(static_cast<std::size_t>(n - first_));
        }
        std::sort(shown_.begin(), shown_.end());
        shown_.erase(std::unique(shown_.begin(), shown_.end()), shown_.end());
      }
      shown_count_ = count;
    }
    return shown_;
  }

  void processor_part(const IntervalTotals& t, const ProcessorTable& procs, std::uint64_t ncall) {
    o_ += "--- The execution characteristics --- \n";
    o_.append(23, ' ');
    for (std::size_t p : shown(procs.size())) {
      number(p + static_cast<std::size_t>(first_), width_);
      o_ += ' ';
    }
    o_ += '\n';
    for (const General& g : generals) {
      double sum = 0;
      for (std::size_t p = 0; p < procs.size(); ++p) sum += g.value(procs, p, n_);
      if (sum == 0) continue;
      o_ += g.name;
      for (std::size_t p : shown(procs.size())) {
        time(g.value(procs, p, n_), g.precision);
        o_ += ' ';
      }
      o_ += '\n';
    }
    if (ncall == 0) return;
    for (const Column& c : columns) {
      if (!(t.*c.total > 0)) continue;
      o_ += "           ";
      o_ += c.general;
      o_ += '\n';
      for (OpKind k : analysis::all_op_kinds) {
        double sum = 0;
        const std::vector<OpTimes>& column = procs.column(k);
        for (const OpTimes& o : column) sum += o.*c.op;
        if (sum == 0) continue;
        append_kind_name(o_, k);
        o_ += "       ";
        for (std::size_t p : shown(procs.size())) {
          time(column[p].*c.op);
          o_ += ' ';
        }
        o_ += '\n';
      }
    }
  }

  std::string& o_;
  int n_;
  int first_;
  const TextReportOptions& options_;
  int width_ = 0;
  std::vector<std::size_t> shown_;
  std::size_t shown_count_ = 0;
};

}  // namespace

std::string interval_text(const analysis::IntervalTree& tree, const IntervalReportMeta& meta, const Interval* root,
                          const TextReportOptions& options) {
  const Interval& top = detail::report_root(tree, root);
  std::string grid = detail::grid_text(tree, meta);
  std::replace(grid.begin(), grid.end(), 'x', '*');
  std::string o = fmt::format("Processor system={}\n", grid);
  if (!meta.program.empty() || !meta.machine.empty())
    o += fmt::format("Predicted by augur: program {}, machine {}\n", meta.program.empty() ? "?" : meta.program,
                     meta.machine.empty() ? "?" : meta.machine);
  const detail::InclusiveTimes inclusive(meta.rule);
  o += meta.first_processor == 1
           ? "Processors numbered from 1, as the DVM analyzer numbers them (processor 1 is number 0 "
             "in the other tables)\n"
           : "Processors numbered from 0, as the ranks in the other tables\n";
  TextWriter writer(o, detail::processor_count(tree, meta), meta.first_processor, options);
  detail::pre_order(top, [&](const Interval& i) {
    if (options.max_level < 0 || i.level <= options.max_level) writer.interval(i, inclusive.of(i));
  });
  return o;
}

void write_interval_text(std::ostream& out, const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                         const Interval* root, const TextReportOptions& options) {
  out << interval_text(tree, meta, root, options);
}

}  // namespace augur::models::report
