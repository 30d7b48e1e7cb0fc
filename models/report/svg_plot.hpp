// Inline SVG charts for the HTML report (spec section 10): line plots on a categorical x axis
// (scalability: predicted time and efficiency against processors) and horizontal stacked bars
// (time per processor). Plain strings, no scripts, no external resources; same input ⇒ same bytes.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace augur::models::report {

/// One line of a line plot: points (x position index, y value), drawn in x order.
struct PlotSeries {
  std::string name;
  std::vector<std::pair<std::size_t, double>> points;
  /// A second line beside another (a static estimate beside its simulated time): drawn dashed
  /// with hollow markers in the colour of series `partner` (an index into the plot's series).
  bool dashed = false;
  std::size_t partner = 0;
};

/// A line plot over categorical x positions (`x_labels`, evenly spaced), y from 0 (or the
/// smallest negative value) to a rounded maximum; one colour per series with a legend.
struct LinePlot {
  std::string id;  ///< the svg element's id
  std::string title;
  std::string x_title;
  std::string y_title;
  std::vector<std::string> x_labels;
  std::vector<PlotSeries> series;
  bool percent = false;  ///< y values are fractions shown as percent
};

/// The SVG element of `plot` (width 640, height 360 user units; scales with the page).
std::string svg_line_plot(const LinePlot& plot);

/// One segment kind of a stacked bar chart.
struct BarSegment {
  std::string name;
  std::string color;  ///< CSS colour ("#4e79a7")
};

/// Horizontal stacked bars: one row per label, `values[row][segment]` in `unit`s; the axis runs
/// from 0 to the largest row total.
struct StackedBars {
  std::string id;
  std::string title;
  std::string unit;  ///< "s"
  std::vector<BarSegment> segments;
  std::vector<std::string> rows;
  std::vector<std::vector<double>> values;
};

/// The SVG element of `bars` (width 760; height grows with the rows).
std::string svg_stacked_bars(const StackedBars& bars);

/// `text` with &, <, >, " and ' escaped for HTML / SVG text and attributes.
std::string xml_escape(const std::string& text);

/// The colour of series / segment `i` (a fixed colour-blind-friendly palette, cycled).
const char* palette(std::size_t i);

}  // namespace augur::models::report
