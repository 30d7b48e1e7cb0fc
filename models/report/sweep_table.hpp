// The sweep table (spec section 10): one row per variant of a scenario — processors, machine,
// swept parameters → predicted time, efficiency and the lost-time components — as CSV and JSON.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/report/report.hpp"

namespace augur::models::report {

/// One row of the sweep table. Times are totals over processors in seconds, except the
/// predicted time (the run's end). A message-passing row sums the per-rank statistics; a DVM row
/// (a variant with characteristics and no per-rank statistics) takes the characteristics of the
/// whole program, the tree's root interval (Main): efficiency, productive time as compute,
/// communication − real synchronisation as transfer, real synchronisation as wait, idle,
/// insufficient parallelism and lost time, as the analyzer computes them.
struct SweepRow {
  int variant = 0;
  int processors = 0;
  std::string grid;  ///< DVM: the processor grid ("2x2"); empty for message-passing runs
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
  double idle_s = 0;  ///< processors × predicted time − compute − transfer − wait − sleep − insufficient
  double insufficient_s = 0;  ///< DVM: insufficient parallelism (0 for message-passing runs)
  double sleep_s = 0;
  double lost_s = 0;  ///< transfer + wait + idle + insufficient
  /// Program skeletons: seed 002's static estimate at the chosen memory level (static_estimate.hpp);
  /// NaN for traces.
  double static_s = std::numeric_limits<double>::quiet_NaN();
  /// The series this row belongs to in the scalability plot: the machine, the swept values and,
  /// for DVM rows, the grid's dimensions ("platform_cluster_64", "loggp latency=10us",
  /// "dvm_mvs 2-D"), so that grids 4 and 2x2 lie on different lines.
  std::string series() const;
};

/// The rows of `variants`, in variant order.
std::vector<SweepRow> sweep_rows(const std::vector<VariantResult>& variants);

/// The CSV text: a header line then one line per variant (RFC 4180 quoting; numbers rounded
/// to significant_digits, json_numbers.hpp, in the shortest form that reads back exactly). Columns: variant,
/// processors, [grid], machine, model, one column per swept key, collectives, outcome, predicted_time_s, efficiency,
/// compute_s, transfer_s, wait_s, idle_s, [insufficient_s], sleep_s, lost_s, [static_s], trace. The bracketed
/// columns are there when some variant is a DVM one (has a grid), and when some variant ran a program skeleton
/// (static_s: its static estimate, empty for the others).
std::string sweep_csv(const std::vector<VariantResult>& variants);
/// The JSON document: schema_version, generator, scenario, columns[], rows[] (one object per
/// variant with the CSV's columns, the swept values under "swept"; `grid` and
/// `insufficient_s`, `static_s` as in the CSV; static_s null for a variant without it).
nlohmann::ordered_json sweep_json(const std::string& scenario, const std::vector<VariantResult>& variants);

/// Write sweep_csv / sweep_json to `path`; throw std::runtime_error naming the file.
void write_sweep_csv(const std::string& path, const std::vector<VariantResult>& variants);
void write_sweep_json(const std::string& path, const std::string& scenario, const std::vector<VariantResult>& variants);

}  // namespace augur::models::report
