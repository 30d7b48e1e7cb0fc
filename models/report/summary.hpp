// The summary of a run on one screen (what `augur run` prints by default): per variant the
// predicted time, the efficiency, the lost-time split, the top wait state, the phases that
// matter and the advice; then, for several variants, the sweep table. The full report is
// write_text (report.hpp).
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "models/report/report.hpp"

namespace augur::models::report {

/// Columns the summary's wrapped lines fit in.
inline constexpr std::size_t summary_columns = 100;
/// Phases (the intervals directly under Main) shorter than this fraction of the run's execution
/// time are not listed in the summary; a line says how many were left out.
inline constexpr double summary_phase_threshold = 0.05;
/// At most this many phases are listed per variant (the longest first), one line each (a long
/// name is cut; the full report has it).
inline constexpr std::size_t summary_phase_rows = 3;

/// `text` broken at spaces into lines of at most `width` characters (a word longer than that
/// stays whole on its own line), the first starting with `first`, the others with `indent`;
/// every line ends with a newline.
std::string wrap_text(std::string_view text, std::size_t width, std::string_view first, std::string_view indent);

/// A time in seconds as the summary and the text report print it: 6 decimals, or in exponent
/// form ("1.000000e+300") when fixed-point would need more than 15 digits before the point.
std::string seconds_text(double seconds);

/// What a report is titled: the scenario's name, or for a scenario without one the first
/// variant's trace and machine ("t.txt on platform_cluster_64").
std::string report_title(const std::string& scenario, const std::vector<VariantResult>& variants);

/// The summary of `variants` on `out` (see the file comment).
void write_summary(std::ostream& out, const std::string& scenario, const std::vector<VariantResult>& variants);

/// The sweep table as text: one row per variant (processors, grid, machine, swept values,
/// predicted time, efficiency, lost-time components), at most summary_columns wide for short
/// machine names and swept values.
std::string sweep_text(const std::vector<VariantResult>& variants);

}  // namespace augur::models::report
