// Inline SVG line plots and stacked bars. Coordinates are printed with fixed decimals so that
// the same data gives byte-identical reports.
#include "models/report/svg_plot.hpp"
#include "models/report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace augur::models::report {

namespace {

// A "nice" axis: step 1, 2 or 5 × 10^k giving at most `max_ticks` intervals up to >= max.
struct Axis {
  double max = 1;
  double step = 0.2;
};

Axis nice_axis(double max, int max_ticks = 5) {
  if (!(max > 0) || !std::isfinite(max)) return Axis{};
  const double raw = max / max_ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  return Axis{std::ceil(max / step - 1e-9) * step, step};
}

std::string tick_label(double v, bool percent) {
  if (percent) return fmt::format("{:g} %", std::round(v * 1000) / 10);
  if (v == 0) return "0";
  return fmt::format("{:.4g}", v);
}

}  // namespace

const char* palette(std::size_t i) {
  // Okabe & Ito's colour-blind-safe palette (without black and yellow, hard to see on white).
  static const char* const colours[] = {"#0072b2", "#e69f00", "#009e73", "#d55e00",
                                        "#cc79a7", "#56b4e9", "#8c6d31", "#555555"};
  return colours[i % (sizeof(colours) / sizeof(colours[0]))];
}

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
        break;
    }
  }
  return out;
}

namespace {

/// A series name as the legend shows it: at most legend_chars characters (UTF-8 sequences kept
/// whole), longer ones cut with an ellipsis; the markers' tooltips have the whole name.
std::string legend_name(const std::string& name) {
  constexpr std::size_t legend_chars = 72;
  std::size_t chars = 0, at = 0;
  while (at < name.size() && chars < legend_chars) {
    ++at;
    while (at < name.size() && (static_cast<unsigned char>(name[at]) & 0xC0) == 0x80) ++at;
    ++chars;
  }
  return at < name.size() ? name.substr(0, at) + "\u2026" : name;
}

/// One series `k` of a line plot: its polyline, a marker per finite point, its legend line at
/// height `ly` from `left`; `px` and `py` place a point.
template <typename Px, typename Py>
void line_series(std::string& s, const LinePlot& plot, std::size_t k, Px px, Py py, double left, double ly) {
  const std::size_t n = plot.x_labels.size();
  const PlotSeries& ser = plot.series[k];
  const char* color = palette(ser.dashed ? ser.partner : k);
  const char* dash = ser.dashed ? " stroke-dasharray=\"6 4\"" : "";
  auto pts = ser.points;
  std::sort(pts.begin(), pts.end());
  std::string path;
  for (const auto& [x, y] : pts) {
    if (!std::isfinite(y)) continue;
    path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "" : " ", px(x), py(y));
  }
  s += fmt::format("<g class=\"series\" data-name=\"{}\">\n", xml_escape(ser.name));
  if (pts.size() > 1) {
    s += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", path, color, dash);
  }
  for (const auto& [x, y] : pts) {
    if (!std::isfinite(y)) continue;
    s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" {}><title>{}: {} = {}</title></circle>\n", px(x),
                     py(y),
                     ser.dashed ? fmt::format("fill=\"#fff\" stroke=\"{}\" stroke-width=\"2\"", color)
                                : fmt::format("fill=\"{}\"", color),
                     xml_escape(ser.name), x < n ? xml_escape(plot.x_labels[x]) : std::string(),
                     xml_escape(plot.percent ? fmt::format("{:.1f} %", 100 * y) : fmt::format("{:.6g}", y)));
  }
  s += "</g>\n";
  s += fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"{3}\" stroke-width=\"3\"{4}/>\n",
      left, ly, left + 20, color, dash);
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"legend\">{}</text>\n", left + 26, ly + 4,
                   xml_escape(legend_name(ser.name)));
}

}  // namespace

std::string svg_line_plot(const LinePlot& plot) {
  // The legend goes below the plot, one series a line across the whole width, so that long
  // series names (a machine and two swept values) are not cut at the right edge.
  constexpr double width = 640, left = 78, right = 610, top = 40, bottom = 300;
  constexpr double legend_top = bottom + 62, legend_line = 20;
  const double height = legend_top + legend_line * static_cast<double>(plot.series.size());
  double max = 0;
  for (const auto& s : plot.series) {
    for (const auto& [x, y] : s.points) {
      if (std::isfinite(y)) max = std::max(max, y);
    }
  }
  const Axis axis = nice_axis(max);
  const double ymax = axis.max;
  const std::size_t n = plot.x_labels.size();
  auto px = [&](std::size_t i) {
    if (n <= 1) return (left + right) / 2;
    const double pad = 24;
    return left + pad + (right - left - 2 * pad) * static_cast<double>(i) / static_cast<double>(n - 1);
  };
  auto py = [&](double y) { return bottom - (bottom - top) * std::clamp(y / ymax, 0.0, 1.05); };

  std::string s = fmt::format(
      "<svg id=\"{}\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "width=\"{:.0f}\" height=\"{:.0f}\" role=\"img\" aria-label=\"{}\">\n",
      xml_escape(plot.id), width, height, width, height, xml_escape(plot.title));
  s += fmt::format("<title>{}</title>\n", xml_escape(plot.title));
  s += fmt::format("<text x=\"{:.1f}\" y=\"22\" text-anchor=\"middle\" class=\"ptitle\">{}</text>\n",
                   (left + right) / 2, xml_escape(plot.title));
  // Grid and y ticks.
  for (double v = 0; v <= ymax + axis.step * 1e-6; v += axis.step) {
    const double y = py(v);
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" class=\"grid\"/>\n", left, y, right,
                     y);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" class=\"tick\">{}</text>\n", left - 6, y + 4,
                     xml_escape(tick_label(v, plot.percent)));
    if (axis.step <= 0) break;
  }
  // x ticks.
  for (std::size_t i = 0; i < n; ++i) {
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" class=\"tick\">{}</text>\n", px(i),
                     bottom + 18, xml_escape(plot.x_labels[i]));
  }
  s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" class=\"axis\"/>\n", left, bottom,
                   right);
  s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" class=\"axis\"/>\n", left, top,
                   bottom);
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" class=\"atitle\">{}</text>\n",
                   (left + right) / 2, bottom + 42, xml_escape(plot.x_title));
  s += fmt::format(
      "<text x=\"18\" y=\"{0:.1f}\" text-anchor=\"middle\" class=\"atitle\" transform=\"rotate(-90 18 "
      "{0:.1f})\">{1}</text>\n",
      (top + bottom) / 2, xml_escape(plot.y_title));
  // Lines, markers and the legend.
  for (std::size_t k = 0; k < plot.series.size(); ++k)
    line_series(s, plot, k, px, py, left, legend_top + legend_line * static_cast<double>(k));
  return s + "</svg>\n";
}

std::string svg_stacked_bars(const StackedBars& bars) {
  constexpr double width = 760, left = 64, right = 740, top = 48;
  const std::size_t rows = bars.rows.size();
  const double bar = rows <= 40 ? 16.0 : std::max(2.0, 640.0 / static_cast<double>(rows));
  const double gap = rows <= 40 ? 4.0 : (bar >= 6 ? 1.0 : 0.0);
  const double bottom = top + static_cast<double>(rows) * (bar + gap);
  const double height = bottom + 44;
  double max = 0;
  for (const auto& r : bars.values) {
    double total = 0;
    for (double v : r) total += std::max(0.0, v);
    max = std::max(max, total);
  }
  const Axis axis = nice_axis(max, 6);
  auto px = [&](double v) { return left + (right - left) * v / axis.max; };

  std::string s = fmt::format(
      "<svg id=\"{}\" class=\"bars\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "width=\"{:.0f}\" height=\"{:.0f}\" role=\"img\" aria-label=\"{}\">\n",
      xml_escape(bars.id), width, height, width, height, xml_escape(bars.title));
  s += fmt::format("<title>{}</title>\n", xml_escape(bars.title));
  // Legend on top.
  double lx = left;
  for (std::size_t k = 0; k < bars.segments.size(); ++k) {
    s += fmt::format("<rect x=\"{:.1f}\" y=\"14\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", lx,
                     bars.segments[k].color);
    s += fmt::format("<text x=\"{:.1f}\" y=\"24\" class=\"legend\">{}</text>\n", lx + 16,
                     xml_escape(bars.segments[k].name));
    lx += 28 + 8 * static_cast<double>(bars.segments[k].name.size());
  }
  for (double v = 0; v <= axis.max + axis.step * 1e-6; v += axis.step) {
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" class=\"grid\"/>\n", px(v),
                     top - 4, bottom);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" class=\"tick\">{}</text>\n", px(v),
                     bottom + 16, xml_escape(tick_label(v, false)));
  }
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" class=\"atitle\">{}</text>\n",
                   (left + right) / 2, bottom + 36, xml_escape(bars.unit));
  const std::size_t label_every = bar >= 10 ? 1 : static_cast<std::size_t>(std::ceil(12.0 / (bar + gap)));
  for (std::size_t r = 0; r < rows; ++r) {
    const double y = top + static_cast<double>(r) * (bar + gap);
    if (r % label_every == 0) {
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" class=\"tick\">{}</text>\n", left - 6,
                       y + std::min(bar, 12.0) - 1, xml_escape(bars.rows[r]));
    }
    double x = 0;
    s += fmt::format("<g data-row=\"{}\">", xml_escape(bars.rows[r]));
    for (std::size_t k = 0; k < bars.segments.size() && r < bars.values.size() && k < bars.values[r].size(); ++k) {
      const double v = std::max(0.0, bars.values[r][k]);
      if (v > 0) {
        s += fmt::format(
            "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\"><title>{} {}: {} "
            "{}</title></rect>",
            px(x), y, px(x + v) - px(x), bar, bars.segments[k].color, xml_escape(bars.rows[r]),
            xml_escape(bars.segments[k].name), seconds_text(v), xml_escape(bars.unit));
      }
      x += v;
    }
    s += "</g>\n";
  }
  return s + "</svg>\n";
}

}  // namespace augur::models::report
