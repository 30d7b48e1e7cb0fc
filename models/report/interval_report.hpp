// Reports of an integrated interval tree (spec sections 8 and 10): HTML in the layout of DVM
// Predictor 3.1, text in the layout of the DVM performance analyzer, and JSON with stable keys.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/analysis/characteristics.hpp"

namespace augur::models::report {

/// What the interval reports say about the run besides the tree itself.
struct IntervalReportMeta {
  std::string program;  ///< program or trace name
  std::string machine;  ///< machine name
  std::string grid;     ///< processor grid as the Predictor prints it ("2x2"); empty: the count
  int processors = 0;   ///< processor count; 0: the tree's
  std::string title;    ///< HTML title of the first block (3.1: the output file's name)
  /// The rule IntervalTree::integrate was called with: the per-processor figures of an interval
  /// with nested intervals add the nested ones the same way, so that they sum to the totals.
  analysis::IntegrateRule rule = analysis::IntegrateRule::predictor;
  /// The number the text report gives the first processor: 1 as the DVM analyzer numbers them
  /// (DVM runs; the header says so), 0 for message-passing runs, whose ranks every table and
  /// the HTML and JSON reports number from 0.
  int first_processor = 1;
};

/// The interval Predictor 3.1 starts its report from: the one current at the end of the trace
/// (in interval traces the program-level interval the runtime never closes, so Main is not
/// printed; in traces without intervals the root).
const analysis::Interval* predictor_report_root(const analysis::IntervalTree& tree);

/// Every processor's figures of an interval including its nested intervals, added the way
/// Integrate adds them (`rule`). Unlike analysis::ProcessorTimes::lost, `lost` here includes the
/// processor's idle time (Lost = insufficient parallelism + communication + idle).
analysis::ProcessorTable inclusive_processor_times(const analysis::Interval& interval, analysis::IntegrateRule rule);

// ---------------------------------------------------------------------------------------------
// HTML (interval_html.cpp)

/// Options of the HTML report.
struct HtmlReportOptions {
  /// After the Predictor 3.1 blocks, append augur's section: per interval a per-processor table
  /// and a stacked bar per processor (compute / communication / idle / insufficient parallelism)
  /// as inline SVG. Off: the output is exactly Predictor 3.1's layout.
  bool augur_extras = true;
};

/// The HTML report: one Predictor 3.1 block per interval of the subtree of `root` (nullptr: the
/// whole tree) in pre-order, anchored by interval id, with nested-interval links and
/// UP / PRED / NEXT / HOME navigation exactly as 3.1 writes them (fixed, 4 decimals). Given the
/// same numbers the 3.1 part equals 3.1's output byte for byte except the title lines.
void write_interval_html(std::ostream& out, const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                         const analysis::Interval* root = nullptr, const HtmlReportOptions& options = {});
/// write_interval_html into a string.
std::string interval_html(const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                          const analysis::Interval* root = nullptr, const HtmlReportOptions& options = {});

// ---------------------------------------------------------------------------------------------
// Text (interval_text.cpp)

/// Options of the text report (the analyzer's `-l`, `-n` and its three parts).
struct TextReportOptions {
  int max_level = -1;  ///< print intervals with level <= max_level; -1: all (`-l`)
  /// Processor numbers (as the report prints them: IntervalReportMeta::first_processor) whose
  /// columns the per-processor part shows; empty: all (`-n`). {0} in a report numbering from 1
  /// leaves the part out (the analyzer's `-n 0`). Comparative characteristics always span every
  /// processor.
  std::vector<int> processors;
  bool main_characteristics = true;         ///< "--- The main characteristics ---"
  bool comparative_characteristics = true;  ///< "--- The comparative characteristics ---"
  bool processor_characteristics = true;    ///< "--- The execution characteristics ---"
};

/// The text report in the DVM performance analyzer's layout (PPPA `statfile.cpp`): per interval
/// of the subtree of `root` (nullptr: whole tree), pre-order, a header
/// `INTERVAL ( NLINE=… SOURCE=… ) LEVEL=… TYPE EXE_COUNT=…`, the main characteristics (zero lines
/// omitted) with the collective-operation table, the comparative characteristics (Tmin, Tmax
/// with the number of the processor where they occur, from meta.first_processor; Tmid = mean) and the
/// per-processor characteristics.
void write_interval_text(std::ostream& out, const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                         const analysis::Interval* root = nullptr, const TextReportOptions& options = {});
/// write_interval_text into a string.
std::string interval_text(const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                          const analysis::Interval* root = nullptr, const TextReportOptions& options = {});

// ---------------------------------------------------------------------------------------------
// JSON (interval_json.cpp)

/// One interval (of the subtree of `root`, nullptr: the tree's root) as JSON with stable keys,
/// nested intervals under `intervals`; numbers at full precision (keys in docs/reports.md).
nlohmann::ordered_json interval_json(const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                                     const analysis::Interval* root = nullptr);
/// A document for a run report: `program`, `machine`, `grid`, `processor_count` and
/// `interval` (interval_json of `root`).
nlohmann::ordered_json interval_report_json(const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                                            const analysis::Interval* root = nullptr);

}  // namespace augur::models::report
