// `augur predict` against every HTML report Predictor 3.1 wrote in ../shared/dvm-samples: the
// same text but the title lines, Q1, Q3 and 3.1's `-0.0000` load imbalances included.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"

namespace fs = std::filesystem;

namespace {

const std::string samples = std::string(AUGUR_SHARED_DIR) + "/dvm-samples";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}

/// `lines` with each title line (the line after "   <TITLE>") replaced by a mark.
std::vector<std::string> without_titles(std::vector<std::string> lines) {
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (lines[i] == "   <TITLE>") lines[i + 1] = "(title)";
  return lines;
}

/// One stored report: programs/<prog>/<variant>/html/<prog>_<par>_<grid>.html, grid "2_2" or "4".
struct Report {
  fs::path html;
  std::string par, trace, dims, name;
};

Report report_of(const fs::path& html) {
  const fs::path dir = html.parent_path().parent_path();
  const std::string prog = dir.parent_path().filename().string();
  const std::string rest = html.stem().string().substr(prog.size() + 1);  // "<par>_<grid>"
  const std::string par = rest.substr(0, rest.find('_'));
  std::string dims = rest.substr(rest.find('_') + 1);
  std::replace(dims.begin(), dims.end(), '_', ' ');
  const std::string file = par == "mvs"   ? samples + "/Predictor.mvs.par"
                           : par == "nci" ? samples + "/Predictor-NCI.par"
                                          : samples + "/oracle/pars/" + par + ".par";
  const std::string trace = prog == "jac1d" ? samples + "/jac1d.ptr" : (dir / (prog + ".ptr")).string();
  return {html, file, trace, dims, html.filename().string()};
}

/// Every stored 3.1 report, sorted; the DVM-system's own jac1d_2_2.pred_res.html last.
std::vector<Report> stored_reports() {
  std::vector<Report> out;
  for (const auto& e : fs::recursive_directory_iterator(samples + "/programs")) {
    if (e.path().extension() == ".html" && e.path().parent_path().filename() == "html")
      out.push_back(report_of(e.path()));
  }
  std::sort(out.begin(), out.end(), [](const Report& a, const Report& b) { return a.html < b.html; });
  out.push_back({samples + "/jac1d_2_2.pred_res.html", samples + "/Predictor.mvs.par", samples + "/jac1d.ptr", "2 2",
                 "jac1d_2_2.pred_res.html"});
  return out;
}

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("augur predict writes every stored Predictor 3.1 report but the title lines") {
    const std::vector<Report> reports = stored_reports();
    // 100 reports of the oracle's runs, sor's 6, and the DVM-system's stored one.
    CHECK(reports.size() == 107);
    const augur::test::TempDir d;
    std::size_t identical = 0;
    for (const Report& r : reports) {
      const augur::test::AugurRun run = augur::test::run_augur_in(
          d.path.string(), "predict '" + r.par + "' '" + r.trace + "' '" + r.name + "' " + r.dims);
      REQUIRE_MESSAGE(run.status == 0, r.html << ": " << run.err);
      const auto ours = without_titles(lines_of(augur::test::slurp(d.path / r.name)));
      const auto theirs = without_titles(lines_of(augur::test::slurp(r.html)));
      const bool same = ours == theirs;
      CHECK_MESSAGE(same, r.html.string());
      identical += same ? 1 : 0;
    }
    MESSAGE("identical but the titles: " << identical << " of " << reports.size());
    CHECK(identical == reports.size());
  }
}
