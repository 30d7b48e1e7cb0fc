// The static estimate of seed 002 (spec §7.5): closed-form figures of a program skeleton per
// process and for the program — T per memory level, flops, memory and network volume, MPI calls —
// computed from the skeleton's records without simulating, reported beside the simulated time.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "machines/machine_model.hpp"
#include "traces/mp_record.hpp"

namespace augur::models::report {

/// The figures of one process, or of the program (counts summed, times the largest).
struct StaticFigures {
  double flops = 0;  ///< compute and reduction flops plus Σ math calls · cost (on a node)
  std::uint64_t bytes_loaded = 0;
  std::uint64_t bytes_stored = 0;
  /// Of bytes_loaded + bytes_stored, the part a skeleton split by level: entry k at the node's
  /// level k (empty when nothing is split); the rest is priced at each level in turn.
  std::vector<std::uint64_t> level_bytes;
  std::uint64_t messages = 0;  ///< point-to-point messages sent (a sendRecv is one)
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t mpi_calls = 0;  ///< records other than compute, sleep, location, init, finalize
  double t_comm = 0;            ///< mpi_calls · latency + (bytes_sent + bytes_received) / bandwidth
  /// T = T_comp + T_comm per memory level l, T_comp = max(flops / perf, unsplit / bw_l +
  /// Σ_k level_bytes_k / bw_k), unsplit = loaded + stored − Σ_k level_bytes_k; one entry
  /// (flops / perf) when the machine has no node.
  std::vector<double> time;
};

/// The static estimate of one run.
struct StaticEstimate {
  std::vector<std::string> levels;  ///< the node's memory levels; empty: no node (one time, flops only)
  std::size_t chosen = 0;           ///< index of the level the simulation used (memory_level)
  bool split = false;               ///< the skeleton splits bytes over the node's levels
  double latency = 0;               ///< s: a 0-byte message from processor 0 to the last, alone
  double bandwidth = 0;             ///< B/s: 1 MiB / (its time − latency); 0 with one processor
  StaticFigures program;
  std::vector<StaticFigures> processes;
};

/// Reads every record of `source` (a fresh skeleton source: it is consumed) and applies seed
/// 002's formulas with `machine`'s node (or cpu_speed) and network. The latency and bandwidth are
/// probed on `machine` (a pricing query: it is reset before and after). Throws what the source
/// throws (TraceError, ExprError).
StaticEstimate static_estimate(traces::MpTraceSource& source, machines::MachineModel& machine);

/// The figures of one process from its totals (split out for tests): `ranks` is the run's
/// process count (for the cores sharing a node's bandwidth).
void apply_static_formulas(StaticFigures& f, const machines::MachineModel& machine, int rank, double latency,
                           double bandwidth);

/// The text section: one row per process (at most `max_rows`, 0 = all), the program's row, and
/// the simulated time beside the static one at the chosen level with their difference.
void write_static_text(std::ostream& out, const StaticEstimate& e, double simulated, std::size_t max_rows);

/// The program's static time at the memory level the simulation used (the only time without a node).
double static_time(const StaticEstimate& e);

/// One line for the summary: "static estimate (seed 002, DRAM) T s; simulated - static = D s (X %)".
std::string static_line(const StaticEstimate& e, double simulated);

/// `variants[].static`: levels, memory_level, latency_s, bandwidth_Bps, program (with simulated_s,
/// static_s and difference_s) and processes; with split bytes, each has bytes_by_level.
nlohmann::ordered_json static_json(const StaticEstimate& e, double simulated);

}  // namespace augur::models::report
