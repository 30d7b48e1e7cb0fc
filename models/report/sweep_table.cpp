// Sweep table rows, CSV and JSON.
#include "models/report/sweep_table.hpp"
#include "models/report/json_numbers.hpp"
#include "models/report/version.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string_view>
#include <stdexcept>

#include "engine/output_file.hpp"

namespace augur::models::report {

namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string q = "\"";
  for (char c : text) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// The swept keys of every variant, in order of first appearance; not the `machine` axis, whose
// value is the row's machine column already.
std::vector<std::string> swept_keys(const std::vector<VariantResult>& variants) {
  std::vector<std::string> keys;
  for (const auto& v : variants) {
    for (const auto& [k, val] : v.swept) {
      if (k != "machine" && std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
  }
  return keys;
}

std::string swept_value(const SweepRow& r, const std::string& key) {
  for (const auto& [k, v] : r.swept) {
    if (k == key) return v;
  }
  return {};
}

const char* const number_columns[] = {"predicted_time_s", "efficiency",     "compute_s", "transfer_s", "wait_s",
                                      "idle_s",           "insufficient_s", "sleep_s",   "lost_s",     "static_s"};
constexpr std::size_t insufficient_column = 6;
constexpr std::size_t static_column = 9;

bool any_static(const std::vector<VariantResult>& variants) {
  return std::any_of(variants.begin(), variants.end(), [](const VariantResult& v) { return v.static_estimate; });
}

// The number columns shown: insufficient_s only when some variant is a DVM one, static_s when
// some variant ran a program skeleton.
std::vector<std::size_t> shown_columns(bool dvm, bool skeleton) {
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < std::size(number_columns); ++i) {
    if ((i != insufficient_column || dvm) && (i != static_column || skeleton)) shown.push_back(i);
  }
  return shown;
}

std::vector<double> numbers(const SweepRow& r) {
  return {r.predicted_time_s, r.efficiency,     r.compute_s, r.transfer_s, r.wait_s,
          r.idle_s,           r.insufficient_s, r.sleep_s,   r.lost_s,     r.static_s};
}

bool any_grid(const std::vector<VariantResult>& variants) {
  return std::any_of(variants.begin(), variants.end(), [](const VariantResult& v) { return !v.grid.empty(); });
}

}  // namespace

std::string SweepRow::series() const {
  std::string s = machine;
  for (const auto& [k, v] : swept) {
    if (k == "machine") continue;  // the series starts with the machine's name
    s += fmt::format(" {}={}", k.starts_with("machine.") ? k.substr(8) : k, v);
  }
  if (!grid.empty()) s += fmt::format(" {}-D", std::count(grid.begin(), grid.end(), 'x') + 1);
  return s;
}

std::vector<SweepRow> sweep_rows(const std::vector<VariantResult>& variants) {
  std::vector<SweepRow> rows;
  rows.reserve(variants.size());
  for (const VariantResult& v : variants) {
    SweepRow r;
    r.variant = v.index;
    r.processors = v.processors;
    r.machine = v.machine_name;
    r.model = v.machine_model;
    r.swept = v.swept;
    r.collectives = v.collectives;
    r.outcome = v.outcome;
    r.trace = v.trace;
    r.grid = v.grid;
    r.predicted_time_s = v.predicted_time_s;
    if (v.static_estimate) r.static_s = static_time(*v.static_estimate);
    if (v.lps.empty() && v.intervals) {
      // A DVM run: the characteristics of the whole program (Main), as the analyzer gives them.
      const analysis::IntervalTotals& t = v.intervals->root().totals;
      r.efficiency = t.efficiency;
      r.compute_s = t.productive;
      // Waiting = the wait states (the processors' waits for the latest one at the group
      // operations, part of the communication) when the run was analysed, else the real
      // synchronisation; transfer = the rest of the communication.
      const double waiting =
          std::min(t.communication, v.waits.empty() ? t.real_sync : analysis::sum_waits(v.waits).total_s());
      r.transfer_s = t.communication - waiting;
      r.wait_s = waiting;
      r.idle_s = t.idle;
      r.insufficient_s = t.insufficient;
      r.lost_s = t.lost;
      rows.push_back(std::move(r));
      continue;
    }
    for (const LpStats& s : v.lps) {
      r.compute_s += s.compute_s;
      r.transfer_s += s.transfer_s;
      r.wait_s += s.wait_s;
      r.sleep_s += s.sleep_s;
    }
    const double total = v.predicted_time_s * static_cast<double>(v.lps.size());
    r.idle_s = std::max(0.0, total - r.compute_s - r.transfer_s - r.wait_s - r.sleep_s);
    r.lost_s = r.transfer_s + r.wait_s + r.idle_s;
    r.efficiency = total > 0 ? r.compute_s / total : 0.0;
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string sweep_csv(const std::vector<VariantResult>& variants) {
  const auto keys = swept_keys(variants);
  const bool dvm = any_grid(variants);
  const auto shown = shown_columns(dvm, any_static(variants));
  std::string out = dvm ? "variant,processors,grid,machine,model" : "variant,processors,machine,model";
  for (const auto& k : keys) out += "," + csv_field(k);
  out += ",collectives,outcome";
  for (std::size_t c : shown) out += std::string(",") + number_columns[c];
  out += ",trace\n";
  for (const SweepRow& r : sweep_rows(variants)) {
    out += fmt::format("{},{}", r.variant, r.processors);
    if (dvm) out += "," + csv_field(r.grid);
    out += fmt::format(",{},{}", csv_field(r.machine), csv_field(r.model));
    for (const auto& k : keys) out += "," + csv_field(swept_value(r, k));
    out += fmt::format(",{},{}", csv_field(r.collectives), csv_field(r.outcome));
    const auto nums = numbers(r);
    for (std::size_t c : shown)
      out += std::isnan(nums[c]) ? std::string(",") : fmt::format(",{}", round_noise(nums[c]));
    out += "," + csv_field(r.trace) + "\n";
  }
  return out;
}

nlohmann::ordered_json sweep_json(const std::string& scenario, const std::vector<VariantResult>& variants) {
  nlohmann::ordered_json doc;
  doc["schema_version"] = 1;
  doc["generator"] = generator();
  doc["scenario"] = scenario;
  const bool dvm = any_grid(variants);
  const auto shown = shown_columns(dvm, any_static(variants));
  nlohmann::ordered_json columns = nlohmann::ordered_json::array();
  for (const char* c : {"variant", "processors", "grid", "machine", "model", "swept", "collectives", "outcome"}) {
    if (dvm || std::string_view(c) != "grid") columns.push_back(c);
  }
  for (std::size_t c : shown) columns.push_back(number_columns[c]);
  columns.push_back("trace");
  doc["columns"] = columns;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const SweepRow& r : sweep_rows(variants)) {
    nlohmann::ordered_json j;
    j["variant"] = r.variant;
    j["processors"] = r.processors;
    if (dvm) j["grid"] = r.grid;
    j["machine"] = r.machine;
    j["model"] = r.model;
    nlohmann::ordered_json swept = nlohmann::ordered_json::object();
    for (const auto& [k, v] : r.swept) swept[k] = v;
    j["swept"] = swept;
    j["collectives"] = r.collectives;
    j["outcome"] = r.outcome;
    const auto nums = numbers(r);
    for (std::size_t c : shown) {
      if (std::isnan(nums[c]))
        j[number_columns[c]] = nullptr;
      else
        j[number_columns[c]] = nums[c];
    }
    j["trace"] = r.trace;
    rows.push_back(std::move(j));
  }
  doc["rows"] = std::move(rows);
  round_numbers(doc);
  return doc;
}

namespace {
void write_file(const std::string& path, const std::string& text, const char* what) {
  engine::write_output(path, text, what);
}
}  // namespace

void write_sweep_csv(const std::string& path, const std::vector<VariantResult>& variants) {
  write_file(path, sweep_csv(variants), "sweep table (CSV)");
}

void write_sweep_json(const std::string& path, const std::string& scenario,
                      const std::vector<VariantResult>& variants) {
  write_file(path,
             shortest_numbers(
                 sweep_json(scenario, variants).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)) +
                 "\n",
             "sweep table (JSON)");
}

}  // namespace augur::models::report
