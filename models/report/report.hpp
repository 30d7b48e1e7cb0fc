// The first report (issue 2): per variant the predicted run time and per LP compute, transfer and
// waiting time with message and byte counts; as text (stdout) and JSON with stable keys
// (documented in models/report/README.md).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "machines/machine_model.hpp"
#include "models/analysis/characteristics.hpp"
#include "models/analysis/wait_states.hpp"
#include "models/report/interval_report.hpp"
#include "models/report/run_stats.hpp"
#include "models/report/static_estimate.hpp"

namespace augur::models::report {

/// What the operation kinds of a run's wait states are: message-passing ones ([0] point-to-point,
/// [1 + CollectiveKind] the collectives) or the DVM analyzer's (indexed by analysis::OpKind: I/O,
/// reduction, shadow, remote access, redistribution).
enum class WaitOperations : std::uint8_t { message_passing, dvm };

/// Result of one variant of a scenario.
struct VariantResult {
  int index = 0;  ///< 1-based, in scenario order
  int processors = 0;
  std::string trace;  ///< trace path as given
  std::string machine_name;
  std::string machine_model;
  /// Sorted by name; the JSON report lists them. `augur run` leaves them empty when it writes no JSON.
  std::vector<std::pair<std::string, std::string>> machine_params;
  std::vector<std::pair<std::string, std::string>> swept;  ///< sweep values of this variant
  std::string collectives;                                 ///< "default", "analytic", or an algorithm
  std::string outcome;                                     ///< "completed", "deadlock", "error", ...
  std::string message;                                     ///< deadlock report or error
  double predicted_time_s = 0;
  std::uint64_t events = 0;
  std::vector<LpStats> lps;
  std::vector<analysis::LpWaits> waits;  ///< wait states per LP (empty: not analysed)
  bool wait_states = true;  ///< false: wait states, causes and advice were not computed (--wait-states off)
  WaitOperations wait_operations = WaitOperations::message_passing;  ///< how waits_by_operation is indexed
  std::vector<analysis::WaitAmount> waits_by_operation;              ///< see WaitOperations
  std::vector<double> explained_by_operation;  ///< direct waiting explained by regions, same indexing
  std::vector<analysis::RegionCause> causes;   ///< root causes, largest first
  std::vector<analysis::WaitSite> wait_sites;  ///< where LPs wait, most waiting first (message passing)
  std::vector<std::string> warnings;
  /// The characteristics (spec section 8): the integrated interval tree of the run (DVM and
  /// message-passing runs; null only for a result that was not run), the rule it was integrated
  /// with, the interval the report starts from (nullptr: Main; DVM: Predictor 3.1's, the one
  /// current at the end of the trace) and the DVM grid ("2x2", empty for message-passing runs).
  std::shared_ptr<analysis::IntervalTree> intervals;
  analysis::IntegrateRule intervals_rule = analysis::IntegrateRule::predictor;
  const analysis::Interval* interval_root = nullptr;
  std::string grid;
  /// The static estimate of a program-skeleton run (seed 002), beside the simulated time; null
  /// for traces.
  std::shared_ptr<const StaticEstimate> static_estimate;
  /// DVM: the Processors cell of Predictor 3.1's report, the root system at the end ("1" when
  /// `augur predict` reproduced 3.1's psview_ overwrite; else `grid`).
  std::string report_grid;
  /// DVM: the documented differences from the original Predictor this run met, one line each,
  /// "Q1 psview_: …" (docs/dvm-model.md): corrected by `augur run`, reproduced by `augur predict`.
  std::vector<std::string> differences;
  /// Flow-level networks (flow_network, simgrid_platform, loggp_smp with fair contention): what
  /// every link carried, in the machine's link order; empty for the other models.
  std::vector<machines::LinkUsage> links;
};

/// A link's figures over a run of `predicted_time` seconds: utilisation = bytes / (bandwidth ·
/// time) (a fat pipe's may exceed 1: its flows do not share), busy share = busy / time.
double link_utilisation(const machines::LinkUsage& link, double predicted_time);
double link_busy_share(const machines::LinkUsage& link, double predicted_time);
/// The indices of the `limit` most loaded links of `v`, most first: by utilisation (the bytes
/// relative to the link's capacity, so links of different speeds compare; on equal links the
/// order of the bytes), ties by busy time, then link order. Links that carried nothing are left out.
std::vector<std::size_t> most_loaded_links(const VariantResult& v, std::size_t limit);

/// snake_case name of operation kind `i` of `v.waits_by_operation` ("point_to_point", "allreduce",
/// "shadow").
std::string wait_operation_name(const VariantResult& v, std::size_t i);

/// "1 wait", "2 waits": `n` and `noun`, plural (with an s) unless n is 1.
std::string count_of(std::uint64_t n, std::string_view noun);

/// How many of the first `causes` (sorted largest first) are hot spots, each causing at least
/// 1 % of the waiting all of them cause (spec section 9), at most `limit`.
std::size_t hot_spots(const std::vector<analysis::RegionCause>& causes, std::size_t limit);

/// The line of advice of a variant: the analyzer's method (efficiency, the dominant component of
/// the lost time, where and why the waiting is) applied to its figures, one sentence.
std::string advice(const VariantResult& v);

/// Human-readable report on `out`; at most `max_rows` LP rows per variant (0 = all). Every
/// variant's characteristics are printed in the DVM analyzer's layout with `intervals` (interval
/// depth, processor list); when that names no processors, the per-processor part of a
/// message-passing run shows the first `max_rows` processors.
void write_text(std::ostream& out, const std::string& scenario, const std::vector<VariantResult>& variants,
                std::size_t max_rows = 64, const TextReportOptions& intervals = {});
/// The JSON document (keys in a fixed order, so same inputs give byte-identical files).
nlohmann::ordered_json to_json(const std::string& scenario, const std::vector<VariantResult>& variants);
/// Writes to_json(...).dump(2) and a newline to `out` without building the document: the
/// per-processor arrays are written element by element (a million ranks need no second copy of
/// their figures in memory). Byte-identical to the dump.
void write_json(std::ostream& out, const std::string& scenario, const std::vector<VariantResult>& variants);
/// write_json to `path`; throws std::runtime_error naming the file.
void write_json(const std::string& path, const std::string& scenario, const std::vector<VariantResult>& variants);

}  // namespace augur::models::report
