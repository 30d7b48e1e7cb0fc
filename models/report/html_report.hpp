// The HTML run report (spec section 10): one self-contained page (no scripts, no network, no
// external files) for all variants of a scenario — summary, time per processor as stacked bars,
// the characteristics of spec section 8, wait states, root causes and advice; for a sweep the
// sweep table and the scalability plots (predicted time and efficiency against processors).
#pragma once
#include <string>
#include <vector>

#include "models/report/report.hpp"

namespace augur::models::report {

/// The HTML document; each variant's characteristics section shows its interval tree
/// (VariantResult::intervals; none: the section is left out). Same inputs ⇒ byte-identical output.
std::string html_report(const std::string& scenario, const std::vector<VariantResult>& variants);

/// Writes html_report(...) to `path`; throws std::runtime_error naming the file.
void write_html(const std::string& path, const std::string& scenario, const std::vector<VariantResult>& variants);

}  // namespace augur::models::report
