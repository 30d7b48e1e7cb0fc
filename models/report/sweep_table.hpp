// The sweep table (spec section 10): one row per variant of a scenario — processors, machine,
// swept parameters → predicted time, efficiency and the lost-time components — as CSV and JSON.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/report/report.hpp"

namespace augur::models::report {

/// One row of the sweep table. Times are totals over processors in seconds, except the
/// predicted time (the run's end).
struct SweepRow {
  int variant = 0;
  int processors = 0;
  std::string machine;
  std::string model;
  std::vector<std::pair<std::string, std::string>> swept;
  std::string collectives;
  std::string outcome;
  std::string trace;
  double predicted_time_s = 0;
  double efficiency = 0;  ///< compute / (processors × predicted time)
  double compute_s = 0;
  double transfer_s = 0;
  double wait_s = 0;
  double idle_s = 0;      ///< processors × predicted time − compute − transfer − wait − sleep
  double sleep_s = 0;
  double lost_s = 0;      ///< transfer + wait + idle
  /// The series this row belongs to in the scalability plot: the machine and the swept values
  /// ("platform_cluster_64", "loggp latency=10us").
  std::string series() const;
};

/// The rows of `variants`, in variant order.
std::vector<SweepRow> sweep_rows(const std::vector<VariantResult>& variants);

/// The CSV text: a header line then one line per variant (RFC 4180 quoting; numbers in the
/// shortest form that reads back exactly). Columns: variant, processors, machine, model, one
/// column per swept key, collectives, outcome, predicted_time_s, efficiency, compute_s,
/// transfer_s, wait_s, idle_s, sleep_s, lost_s, trace.
std::string sweep_csv(const std::vector<VariantResult>& variants);
/// The JSON document: schema_version, generator, scenario, columns[], rows[] (one object per
/// variant with the CSV's columns, the swept values under "swept").
nlohmann::ordered_json sweep_json(const std::string& scenario, const std::vector<VariantResult>& variants);

/// Write sweep_csv / sweep_json to `path`; throw std::runtime_error naming the file.
void write_sweep_csv(const std::string& path, const std::vector<VariantResult>& variants);
void write_sweep_json(const std::string& path, const std::string& scenario, const std::vector<VariantResult>& variants);

}  // namespace augur::models::report
