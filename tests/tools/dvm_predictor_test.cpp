// The DVM model against the original: every reference run of Predictor 3.1 in
// ../shared/dvm-samples/oracle/figures.tsv, every characteristic of every interval, compared at
// the report's 4 decimals. The known differences are listed (and explained in models/dvm/README.md).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/files.hpp"

namespace fs = std::filesystem;

namespace {

const std::string shared = AUGUR_SHARED_DIR;

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string item;
  while (std::getline(ss, item, '\t')) out.push_back(item);
  return out;
}

void index_intervals(const nlohmann::json& in, std::map<int, const nlohmann::json*>& out) {
  out[in.at("id").get<int>()] = &in;
  if (in.contains("intervals")) {
    for (const auto& c : in.at("intervals")) index_intervals(c, out);
  }
}

double value(const nlohmann::json& in, const std::string& column) {
  static const std::map<std::string, std::string> kinds = {{"IO", "io"},
                                                           {"Reduction", "reduction"},
                                                           {"Shadow", "shadow"},
                                                           {"Remote_access", "remote_access"},
                                                           {"Redistribution", "redistribution"}};
  static const std::map<std::string, std::string> parts = {
      {"nop", "operations"},   {"comm", "communication"}, {"realsynch", "real_synchronization"},
      {"synch", "synchronization"}, {"var", "time_variation"}, {"overlap", "overlap"}};
  static const std::map<std::string, std::vector<std::string>> main = {
      {"eff", {"efficiency"}},
      {"exec", {"execution_time"}},
      {"total", {"total_time"}},
      {"prod", {"productive_time", "total"}},
      {"prod_cpu", {"productive_time", "cpu"}},
      {"prod_sys", {"productive_time", "sys"}},
      {"prod_io", {"productive_time", "io"}},
      {"lost", {"lost_time"}},
      {"insuf", {"insufficient_parallelism", "total"}},
      {"insuf_usr", {"insufficient_parallelism", "user"}},
      {"insuf_sys", {"insufficient_parallelism", "sys"}},
      {"comm", {"communication"}},
      {"syn", {"real_synchronization"}},
      {"idle", {"idle_time"}},
      {"imbal", {"load_imbalance"}},
      {"synch", {"synchronization"}},
      {"vary", {"time_variation"}},
      {"over", {"overlap"}},
  };
  if (auto m = main.find(column); m != main.end()) {
    const nlohmann::json* j = &in;
    for (const auto& k : m->second) j = &j->at(k);
    return j->get<double>();
  }
  const auto cut = column.rfind('_');
  return in.at("collectives").at(kinds.at(column.substr(0, cut))).at(parts.at(column.substr(cut + 1))).get<double>();
}

}  // namespace

TEST_SUITE("golden") {
TEST_CASE("the DVM model reproduces Predictor 3.1 on every reference run") {
  std::ifstream tsv(shared + "/dvm-samples/oracle/figures.tsv");
  REQUIRE(tsv);
  std::string line;
  std::getline(tsv, line);
  const std::vector<std::string> header = split_tabs(line);
  std::map<std::string, std::vector<std::vector<std::string>>> runs;  // "prog|variant|par|grid" → rows
  while (std::getline(tsv, line)) {
    auto row = split_tabs(line);
    if (row.size() != header.size() || row[0] != "3.1") continue;
    runs[row[1] + "|" + row[2] + "|" + row[3] + "|" + row[4]].push_back(std::move(row));
  }
  REQUIRE(runs.size() == 100);
  const std::map<std::string, std::string> pars = {
      {"mvs", shared + "/dvm-samples/Predictor.mvs.par"},
      {"nci", shared + "/dvm-samples/Predictor-NCI.par"},
      {"eth75", shared + "/dvm-samples/oracle/pars/eth75.par"},
      {"trp75", shared + "/dvm-samples/oracle/pars/trp75.par"}};
  const fs::path dir = augur::test::scratch_dir("augur_dvm_predictor_", "runs");
  std::size_t rows = 0, rows_equal = 0, numbers = 0, numbers_equal = 0;
  std::set<std::string> differing;  // "prog|variant|par|grid|interval|column"
  for (const auto& [key, rs] : runs) {
    const auto k = split_tabs([&] {
      std::string t = key;
      for (char& ch : t)
        if (ch == '|') ch = '\t';
      return t;
    }());
    const std::string trace = k[0] == "jac1d" ? shared + "/dvm-samples/jac1d.ptr"
                                              : shared + "/dvm-samples/programs/" + k[0] + "/" + k[1] + "/" + k[0] + ".ptr";
    const fs::path json = dir / (k[0] + "_" + k[1] + "_" + k[2] + "_" + k[3] + ".json");
    const std::string cmd = std::string("'") + AUGUR_BINARY + "' run --trace 'dvm:" + trace + "' --machine '" +
                            pars.at(k[2]) + "' --grid " + k[3] + " --json '" + json.string() + "' > /dev/null";
    REQUIRE_MESSAGE(std::system(cmd.c_str()) == 0, cmd);
    const auto doc = nlohmann::json::parse(augur::test::slurp(json));
    const auto& variant = doc.at("variants").at(0);
    REQUIRE(variant.at("outcome") == "completed");
    std::map<int, const nlohmann::json*> intervals;
    index_intervals(variant.at("dvm").at("interval"), intervals);
    for (const auto& row : rs) {
      ++rows;
      const int id = std::stoi(row[5]);
      REQUIRE_MESSAGE(intervals.count(id) == 1, key << " interval " << id);
      bool all = true;
      for (std::size_t c = 11; c < header.size(); ++c) {
        ++numbers;
        const double expected = std::stod(row[c]);
        const double got = value(*intervals.at(id), header[c]);
        // Equal to the report's 4 decimals (the 9-decimal figures round to the HTML's).
        if (std::llround(expected * 1e4) == std::llround(got * 1e4)) {
          ++numbers_equal;
        } else {
          all = false;
          differing.insert(key + "|" + row[5] + "|" + header[c]);
        }
      }
      rows_equal += all ? 1 : 0;
    }
  }
  MESSAGE("rows equal: " << rows_equal << " of " << rows << "; numbers equal: " << numbers_equal << " of " << numbers);
  CHECK(rows == 160);
  CHECK(numbers == 7680);
  // The differences that remain, each explained in models/dvm/README.md ("Fidelity").
  const std::set<std::string> known = {
      // tsk on 4x4: psview_ overwrites the current processor system in the original.
      "tsk|std|eth75|4x4|1|insuf", "tsk|std|eth75|4x4|1|insuf_sys", "tsk|std|eth75|4x4|1|lost",
      "tsk|std|mvs|4x4|1|insuf",   "tsk|std|mvs|4x4|1|insuf_sys",   "tsk|std|mvs|4x4|1|lost",
      "tsk|std|nci|4x4|1|insuf",   "tsk|std|nci|4x4|1|insuf_sys",   "tsk|std|nci|4x4|1|lost",
      "tsk|std|trp75|4x4|1|insuf", "tsk|std|trp75|4x4|1|insuf_sys", "tsk|std|trp75|4x4|1|lost",
  };
  std::string unexpected;
  for (const auto& d : differing) {
    if (!known.count(d)) unexpected += d + "\n";
  }
  MESSAGE("differing numbers outside the known list:\n" << unexpected);
  // Rounding-boundary differences (last printed digit) are tolerated up to this count; every
  // other number must equal the original's.
  CHECK(differing.size() <= known.size() + 4);
  CHECK(numbers_equal >= 7667);
}
}
