// The HTML interval report. Its first part reproduces DVM Predictor 3.1's layout byte for byte
// (Presage Interval::SaveTree: a whole HTML document per interval, pre-order, anchors = interval
// ids; numbers fixed with 4 decimals, counts as integers); augur's per-processor tables and
// stacked bars follow, after the last 3.1 block, so that the 3.1 part stays comparable.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>

#include "models/report/fixed_text.hpp"
#include "models/report/interval_report.hpp"
#include "models/report/interval_report_internal.hpp"

namespace augur::models::report {

using analysis::Interval;
using analysis::IntervalTotals;
using analysis::OpKind;
using analysis::ProcessorTable;
using analysis::ProcessorTimes;

namespace {

/// What 3.1 writes where its version goes; the title line is the only line that differs.
constexpr std::string_view generator = "augur";

/// 3.1 prints every time with `fixed` and `setprecision(4)`.
std::string fixed4(double v) {
  std::string text;
  detail::append_fixed(text, v, 4);
  return text;
}

/// A printed value as 3.1 streams it: the text and its end of line.
std::string value_line(const std::string& text) { return text + '\n'; }

/// Writes one HTML block per interval in 3.1's layout.
class PredictorHtml {
 public:
  PredictorHtml(std::string& out, std::string grid) : o_(out), grid_(std::move(grid)) {}

  /// Interval::SaveTree: this interval, then its nested intervals with up = this interval,
  /// previous = the preceding sibling (the parent for the first), next = the following sibling
  /// (the parent for the last).
  void tree(const Interval& i, const std::string& title, int up, int next, int pred) {
    block(i, title, up, next, pred);
    const std::size_t n = i.children.size();
    for (std::size_t k = 0; k < n; ++k) {
      const int p = k == 0 ? i.id : i.children[k - 1]->id;
      const int x = k + 1 == n ? i.id : i.children[k + 1]->id;
      tree(*i.children[k], std::string(generator), i.id, x, p);
    }
  }

 private:
  void line(std::string_view s) {
    o_ += s;
    o_ += '\n';
  }

  /// `<TD …>` opening line, the centred value (`prefix` in bold before it) and `</TD>`. `text`
  /// carries its own end of line as 3.1 streams it (none for an absent value or the grid).
  void cell(std::string_view open, std::string_view prefix, const std::string& text) {
    line(open);
    o_ += "<CENTER><FONT SIZE=-1>";
    o_ += prefix;
    o_ += '\n';
    o_ += text;
    line("</FONT></CENTER>");
    line("</TD>");
  }
  void cells(const std::vector<std::string>& texts, std::string_view first_open = "<TD>") {
    for (std::size_t k = 0; k < texts.size(); ++k) {
      if (k > 0) line("");
      cell(k == 0 ? first_open : "<TD>", "", texts[k]);
    }
  }
  void heading_cells(std::string_view open, const std::vector<std::string_view>& names) {
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (k > 0) line("");
      line(open);
      o_ += fmt::format("<CENTER><B><FONT SIZE=-1>{}</FONT></B></CENTER>\n", names[k]);
      line("</TD>");
    }
  }

  static std::vector<std::string> identity(const Interval& i) {
    return {value_line(std::string(analysis::title(i.type))),
            value_line(std::to_string(i.level)),
            value_line(std::to_string(i.exe_count)),
            value_line(std::to_string(i.source_line)),
            i.index ? value_line(std::to_string(*i.index)) : std::string(),
            value_line(i.source_file)};
  }

  void head(const std::string& title, int id) {
    line("<HTML>");
    line("<HEAD>");
    line(R"(   <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-1">)");
    line(R"(   <META NAME="Author" CONTENT="Valentin Emelianov">)");
    line(R"(   <META NAME="GENERATOR" CONTENT="Mozilla/4.05 [en] (Win95; I) [Netscape]">)");
    line("   <TITLE>");
    line(title);
    line("</TITLE>");
    line("</HEAD>");
    line(R"(<BODY TEXT="#000000" BGCOLOR="#FFF0F0" LINK="#FF0000" VLINK="#800080" ALINK="#0000FF">)");
    line("&nbsp;");
    line("<A NAME=");
    line(fmt::format("\"{}\"", id));
    line("></A>");
  }

  void caption_table(std::string_view caption) {
    line(R"(<CENTER><TABLE BORDER=2 WIDTH="90%" BGCOLOR="#FFFFCC" >)");
    line(fmt::format(R"(<CAPTION><B><BLINK><FONT COLOR="#FF6666"><FONT SIZE=-1>{}</FONT></FONT></BLINK></B></CAPTION>)",
                     caption));
    line("");
  }

  void identity_table(const Interval& i) {
    caption_table("INTERVAL");
    line("<TR>");
    heading_cells(R"(<TD BGCOLOR="#FFCC00">)", {"Type", "Level", "Count", "Line", "Expr", "File"});
    line("</TR>");
    line("");
    line("<TR>");
    cells(identity(i), R"(<TD BGCOLOR="#FFFFCC">)");
    line("</TR>");
    line("</TABLE></CENTER>");
    line("&nbsp;");
  }

  /// One row of the characteristics table: the label cell and its value cells.
  void characteristic(std::string_view label, const std::vector<std::pair<std::string_view, std::string>>& values,
                      bool first = false) {
    if (!first) line("");
    line("<TR>");
    line(label);
    for (const auto& [prefix, text] : values) {
      line("");
      cell("<TD>", prefix, text);
    }
    line("</TR>");
  }

  static std::string label(std::string_view indent, std::string_view name) {
    return fmt::format(R"(<TD BGCOLOR="#33CCFF"><B><FONT SIZE=-1>{}{}</FONT></B></TD>)", indent, name);
  }

  void characteristics_table(const IntervalTotals& t) {
    const auto v = [](double x) { return value_line(fixed4(x)); };
    constexpr std::string_view in1 = "&nbsp;&nbsp;&nbsp; ";
    constexpr std::string_view in2 = "&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; ";
    line(R"(<CENTER><TABLE BORDER=2 WIDTH="90%" BGCOLOR="#CCFFFF" >)");
    characteristic(label("", "Processors"), {{"", grid_}}, true);
    characteristic(label("", "Efficiency"), {{"", v(t.efficiency)}});
    characteristic(label("", "Execution time"), {{"", v(t.execution)}});
    characteristic(label("", "Total time"), {{"", v(t.total)}});
    characteristic(label(in1, "Productive time"), {{"", v(t.productive)},
                                                   {"<B>CPU = </B>", v(t.productive_cpu)},
                                                   {"<B>SYS = </B>", v(t.productive_sys)},
                                                   {"<B>I/O = </B>", v(t.io)}});
    characteristic(label(in1, "Lost time"), {{"", v(t.lost)}});
    characteristic(label(in2, "Insufficient parallelism"),
                   {{"", v(t.insufficient)}, {"<B>USR = </B>", v(t.insuff_usr)}, {"<B>SYS = </B>", v(t.insuff_sys)}});
    characteristic(label(in2, "Communications"), {{"", v(t.communication)}, {"<B>SYN = </B>", v(t.real_sync)}});
    // 3.1's Idle label puts one space outside the bold part.
    characteristic(
        R"(<TD BGCOLOR="#33CCFF"><FONT SIZE=-1>&nbsp;<B>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; Idle time</B></FONT></TD>)",
        {{"", v(t.idle)}});
    characteristic(label("", "Load imbalance"), {{"", v(t.load_imbalance)}});
    characteristic(label("", "Synchronization"), {{"", v(t.synchronization)}});
    characteristic(label("", "Time variation"), {{"", v(t.variation)}});
    characteristic(label("", "Overlap"), {{"", v(t.overlap)}});
    line("</TABLE></CENTER>");
    line("&nbsp;");
  }

  void operations_table(const IntervalTotals& t) {
    line(R"(<CENTER><TABLE BORDER=2 WIDTH="90%" BGCOLOR="#99FF99" >)");
    line(R"(<TR BGCOLOR="#00CC00">)");
    line("<TD>");
    line("<CENTER>&nbsp;</CENTER>");
    line("</TD>");
    line("");
    heading_cells("<TD>", {"# op", "Communications", "Real synch", "Synch", "Variation", "Overlap"});
    line("</TR>");
    for (OpKind k : analysis::dvm_op_kinds) {
      // 3.1's template has no blank line before the Redistribution row.
      if (k != OpKind::redistribution) line("");
      line("<TR>");
      heading_cells(R"(<TD BGCOLOR="#00CC00">)", {analysis::title(k)});
      line("");
      const analysis::OpTimes& op = t.op(k);
      cells({value_line(std::to_string(t.nop(k))), value_line(fixed4(op.communication)),
             value_line(fixed4(op.real_sync)), value_line(fixed4(op.synchronization)), value_line(fixed4(op.variation)),
             value_line(fixed4(op.overlap))});
      line("</TR>");
    }
    line("</TABLE></CENTER>");
  }

  void nested_table(const Interval& i) {
    if (i.children.empty()) return;
    line("&nbsp;");
    caption_table("NESTED&nbsp; INTERVALS");
    line("<TR>");
    heading_cells(R"(<TD BGCOLOR="#FFCC00">)", {"Go", "Type", "Level", "Count", "Line", "Expr", "File"});
    line("</TR>");
    line("");
    int go = 0;
    for (const auto& c : i.children) {
      line("<TR>");
      line(R"(<TD BGCOLOR="#FFFFCC">)");
      line("<CENTER><FONT SIZE=-1><A HREF=");
      line(fmt::format("\"#{}\"", c->id));
      line(">");
      line(std::to_string(++go));
      line("</A></FONT></CENTER>");
      line("</TD>");
      line("");
      cells(identity(*c));
      line("</TR>");
    }
    line("</TABLE></CENTER>");
  }

  void navigation(int up, int pred, int next) {
    line(R"(<CENTER><TABLE BORDER CELLPADDING=3 COLS=4 WIDTH="30%" BGCOLOR="#CCCCCC" >)");
    line("<TR>");
    const std::pair<std::string_view, int> links[] = {{"UP", up}, {"PRED", pred}, {"NEXT", next}, {"HOME", 1}};
    for (const auto& [name, target] : links) {
      line(R"(<TD ALIGN=CENTER><B><FONT FACE="Arial,Helvetica"><FONT SIZE=-1><A HREF=)");
      line(fmt::format("\"#{}\"", target));
      line(fmt::format(">{}</A></FONT></FONT></B></TD>", name));
    }
    line("</TR>");
    line("</TABLE></CENTER>");
  }

  void block(const Interval& i, const std::string& title, int up, int next, int pred) {
    head(title, i.id);
    identity_table(i);
    characteristics_table(i.totals);
    operations_table(i.totals);
    nested_table(i);
    line("&nbsp;");
    navigation(up, pred, next);
    line(R"(<HR SIZE=3  NOSHADE WIDTH="100%">)");
    line("</BODY>");
    line("</HTML>");
    line("");
  }

  std::string& o_;
  std::string grid_;
};

// ---------------------------------------------------------------------------------------------
// augur's section: per-processor table and stacked bars.

std::string escape(std::string_view s) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '&':
        r += "&amp;";
        break;
      case '<':
        r += "&lt;";
        break;
      case '>':
        r += "&gt;";
        break;
      case '"':
        r += "&quot;";
        break;
      default:
        r += c;
    }
  }
  return r;
}

std::string num(double v) {
  std::string text;
  detail::append_fixed(text, v, 6);
  return text;
}

/// The four parts of a processor's bar; together they make the interval's elapsed time on it.
struct BarParts {
  double compute, communication, idle, insufficient;
};

BarParts bar_parts(const ProcessorTimes& p) {
  const auto pos = [](double x) { return std::max(0.0, x); };
  // Execution = CPU (user + system, insufficient parallelism included) + I/O + communication.
  const double insufficient = p.insuff_usr + p.insuff_sys;
  return {pos(p.cpu_usr + p.cpu_sys + p.io - insufficient), pos(p.communication), pos(p.idle), pos(insufficient)};
}

struct Segment {
  std::string_view name, colour;
  double BarParts::*part;
};
constexpr Segment segments[] = {{"compute", "#4caf50", &BarParts::compute},
                                {"communication", "#2196f3", &BarParts::communication},
                                {"idle", "#bdbdbd", &BarParts::idle},
                                {"insufficient parallelism", "#ff9800", &BarParts::insufficient}};

void stacked_bars(std::string& o, const ProcessorTable& procs) {
  constexpr int label_w = 56, bar_w = 560, row_h = 16, gap = 4, legend_h = 22;
  double longest = 0;
  std::vector<BarParts> parts;
  for (const ProcessorTimes& p : procs) {
    parts.push_back(bar_parts(p));
    const BarParts& b = parts.back();
    longest = std::max(longest, b.compute + b.communication + b.idle + b.insufficient);
  }
  const int height = static_cast<int>(procs.size()) * (row_h + gap) + legend_h;
  o += fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="11">)",
      label_w + bar_w + 8, height);
  o += '\n';
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const int y = static_cast<int>(p) * (row_h + gap);
    o += fmt::format(R"(<text x="0" y="{}">P{}</text>)", y + row_h - 4, p);
    double x = label_w;
    for (const Segment& s : segments) {
      const double v = parts[p].*s.part;
      const double w = longest > 0 ? v / longest * bar_w : 0;
      if (w > 0) {
        o += fmt::format(
            R"(<rect x="{:.2f}" y="{}" width="{:.2f}" height="{}" fill="{}"><title>P{} {}: {} s</title></rect>)", x, y,
            w, row_h, s.colour, p, s.name, num(v));
      }
      x += w;
    }
    o += '\n';
  }
  int lx = 0;
  const int ly = static_cast<int>(procs.size()) * (row_h + gap) + 4;
  for (const Segment& s : segments) {
    o += fmt::format(R"(<rect x="{}" y="{}" width="10" height="10" fill="{}"/><text x="{}" y="{}">{}</text>)", lx, ly,
                     s.colour, lx + 14, ly + 9, s.name);
    lx += 14 + static_cast<int>(s.name.size()) * 7 + 12;
  }
  o += "\n</svg>\n";
}

void processor_table(std::string& o, const ProcessorTable& procs) {
  o += R"(<TABLE BORDER=1 CELLPADDING=2 BGCOLOR="#FFFFFF">)";
  o += "\n<TR BGCOLOR=\"#33CCFF\"><TH>Processor</TH><TH>Execution</TH><TH>CPU</TH><TH>Sys</TH><TH>I/O</TH>"
       "<TH>Insufficient parallelism</TH><TH>Communication</TH><TH>Real sync</TH><TH>Idle</TH>"
       "<TH>Load imbalance</TH><TH>Synchronization</TH><TH>Time variation</TH><TH>Overlap</TH><TH>Lost</TH></TR>\n";
  for (std::size_t p = 0; p < procs.size(); ++p) {
    const ProcessorTimes& t = procs[p];
    o += fmt::format("<TR ALIGN=RIGHT><TD>{}</TD>", p);
    for (double v : {t.execution, t.cpu_usr, t.cpu_sys, t.io, t.insuff_usr + t.insuff_sys, t.communication, t.real_sync,
                     t.idle, t.load_imbalance, t.synchronization, t.variation, t.overlap, t.lost})
      o += fmt::format("<TD>{}</TD>", num(v));
    o += "</TR>\n";
  }
  o += "</TABLE>\n";
}

void augur_section(std::string& o, const Interval& root, const IntervalReportMeta& meta, const std::string& grid) {
  const detail::InclusiveTimes inclusive(meta.rule);
  o += "<HTML>\n<HEAD>\n<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=utf-8\">\n<TITLE>";
  o += escape(meta.title.empty() ? std::string(generator) : meta.title + " :: " + std::string(generator));
  o += ": per-processor characteristics</TITLE>\n</HEAD>\n";
  o += R"(<BODY TEXT="#000000" BGCOLOR="#FFF0F0" LINK="#FF0000" VLINK="#800080" ALINK="#0000FF">)";
  o += "\n<A NAME=\"augur\"></A>\n<H2>Per-processor characteristics</H2>\n";
  o += fmt::format(
      "<P>Program {}, machine {}, processors {}. Times in seconds, nested intervals included; "
      "the bars show each processor's compute, communication, idle and insufficient "
      "parallelism time.</P>\n",
      escape(meta.program), escape(meta.machine), escape(grid));
  detail::pre_order(root, [&](const Interval& i) {
    o += fmt::format("<A NAME=\"augur-{}\"></A>\n", i.id);
    o += fmt::format("<H3><A HREF=\"#{}\">Interval {}</A>: {} level {}, line {}{}, {}, count {}</H3>\n", i.id, i.id,
                     analysis::title(i.type), i.level, i.source_line,
                     i.index ? fmt::format(" (expr {})", *i.index) : std::string(), escape(i.source_file), i.exe_count);
    const ProcessorTable& procs = inclusive.of(i);
    processor_table(o, procs);
    stacked_bars(o, procs);
  });
  o += "<HR>\n</BODY>\n</HTML>\n";
}

}  // namespace

std::string interval_html(const analysis::IntervalTree& tree, const IntervalReportMeta& meta, const Interval* root,
                          const HtmlReportOptions& options) {
  const Interval& top = detail::report_root(tree, root);
  const std::string grid = detail::grid_text(tree, meta);
  std::string o;
  const std::string title = meta.title.empty() ? std::string(generator) : meta.title + " :: " + std::string(generator);
  // Predictor.cpp CreateHTMLfile: UP is "#1"; NEXT/PRED are the first/last nested interval (the
  // report root itself without nested ones).
  const int next = top.children.empty() ? top.id : top.children.front()->id;
  const int pred = top.children.empty() ? top.id : top.children.back()->id;
  PredictorHtml(o, grid).tree(top, title, 1, next, pred);
  if (options.augur_extras) augur_section(o, top, meta, grid);
  return o;
}

void write_interval_html(std::ostream& out, const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                         const Interval* root, const HtmlReportOptions& options) {
  out << interval_html(tree, meta, root, options);
}

}  // namespace augur::models::report
