// The static estimate (static_estimate.hpp): seed 002's closed forms over a skeleton's records.
#include "models/report/static_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "models/report/json_numbers.hpp"

namespace augur::models::report {
namespace {

using traces::MpOpKind;
using traces::MpRecord;

constexpr double probe_bytes = 1048576;  // 1 MiB: the message the bandwidth is measured with

/// What a collective record asks rank `rank` itself to send and receive (its own contributions,
/// not an algorithm's forwarding): the seed's netSize.
void collective_volume(const MpRecord& r, int ranks, StaticFigures& f) {
  const std::uint64_t others = static_cast<std::uint64_t>(std::max(ranks - 1, 0));
  const bool root = r.rank == r.root;
  switch (r.kind) {
    case MpOpKind::bcast:  // the root sends, the others receive
      (root ? f.bytes_sent : f.bytes_received) += root ? r.bytes * others : r.bytes;
      break;
    case MpOpKind::reduce:  // the others send, the root receives theirs
      (root ? f.bytes_received : f.bytes_sent) += root ? r.bytes * others : r.bytes;
      break;
    case MpOpKind::gather:
    case MpOpKind::gatherv:
      if (root)
        f.bytes_received += r.bytes2 * others;
      else
        f.bytes_sent += r.bytes;
      break;
    case MpOpKind::scatter:
    case MpOpKind::scatterv:
      if (root)
        f.bytes_sent += r.bytes * others;
      else
        f.bytes_received += r.bytes2;
      break;
    case MpOpKind::allgather:
    case MpOpKind::allgatherv:
      f.bytes_sent += r.bytes;
      f.bytes_received += r.bytes2 * others;
      break;
    case MpOpKind::alltoall:
    case MpOpKind::alltoallv:
      f.bytes_sent += r.bytes * others;
      f.bytes_received += r.bytes2 * others;
      break;
    case MpOpKind::reduce_scatter: {  // every rank's block of the others goes out, its own comes in
      std::uint64_t all = 0;
      for (std::uint64_t c : r.counts) all += c;
      const std::uint64_t own =
          static_cast<std::size_t>(r.rank) < r.counts.size() ? r.counts[static_cast<std::size_t>(r.rank)] : 0;
      f.bytes_sent += all - own;
      f.bytes_received += own * others;
      break;
    }
    default:  // allreduce, scan, exscan: send and receive the buffer; barrier: nothing
      f.bytes_sent += r.bytes;
      f.bytes_received += r.bytes;
      break;
  }
}

/// The node level of each memory level the source names (empty without a node).
struct Levels {
  std::vector<std::size_t> node_level_of;
  std::size_t node_levels = 0;
};

/// Adds record `r` of a run of `ranks` processes to `f`.
void add_record(const MpRecord& r, int ranks, const machines::MachineModel& machine, const Levels& levels,
                StaticFigures& f) {
  switch (r.kind) {
    case MpOpKind::compute: {
      machines::ComputeWork work;
      work.flops = r.amount;
      for (std::size_t i = 0; i < r.counts.size() && i < machines::kMathFnCount; ++i)
        work.math_calls[i] = static_cast<double>(r.counts[i]);
      f.flops += machine.node() ? machines::total_flops(*machine.node(), work) : r.amount;
      f.bytes_loaded += r.bytes - std::min(r.bytes, r.bytes2);
      f.bytes_stored += std::min(r.bytes, r.bytes2);
      if (!r.level_bytes.empty() && !levels.node_level_of.empty()) {
        f.level_bytes.resize(levels.node_levels, 0);
        for (std::size_t i = 0; i < r.level_bytes.size() && i < levels.node_level_of.size(); ++i)
          f.level_bytes[levels.node_level_of[i]] += r.level_bytes[i];
      }
      return;
    }
    case MpOpKind::sleep:
    case MpOpKind::location:
      return;
    case MpOpKind::send:
    case MpOpKind::isend:
      ++f.messages;
      f.bytes_sent += r.bytes;
      break;
    case MpOpKind::recv:
    case MpOpKind::irecv:
      f.bytes_received += r.bytes;
      break;
    case MpOpKind::send_recv:
      ++f.messages;
      f.bytes_sent += r.bytes;
      f.bytes_received += r.bytes2;
      break;
    case MpOpKind::init:
    case MpOpKind::finalize:
    case MpOpKind::wait:
    case MpOpKind::waitall:
    case MpOpKind::test:
    case MpOpKind::comm_size:
    case MpOpKind::comm_split:
    case MpOpKind::comm_dup:
      break;
    default:  // the collectives
      f.flops += r.amount;
      collective_volume(r, ranks, f);
      break;
  }
  ++f.mpi_calls;
}

}  // namespace

void apply_static_formulas(StaticFigures& f, const machines::MachineModel& machine, int rank, double latency,
                           double bandwidth) {
  // T_comm = calls · latency + (sent + received) / bandwidth (seed 002; no byte term without a
  // bandwidth, i.e. on one processor).
  const double volume = static_cast<double>(f.bytes_sent + f.bytes_received);
  f.t_comm = static_cast<double>(f.mpi_calls) * latency + (bandwidth > 0 ? volume / bandwidth : 0.0);
  // T_comp = max(flops / perf, memory bytes / bandwidth of the level) — per level; the cores of
  // a node that run a process share its bandwidth, power[rank] scales both rates.
  const double t_flops = f.flops / machine.flop_rate(rank);
  f.time.clear();
  if (!machine.node()) {
    f.time.push_back(t_flops + f.t_comm);
    return;
  }
  // With bytes split by level, the split part is priced at its own levels whatever the level l
  // (docs/roofline.md): memory time(l) = unsplit / bw_l + Σ_k split_k / bw_k.
  const machines::NodeSpec& node = *machine.node();
  std::uint64_t split = 0;
  std::vector<double> level_bytes(f.level_bytes.size());
  for (std::size_t k = 0; k < f.level_bytes.size(); ++k) {
    split += f.level_bytes[k];
    level_bytes[k] = static_cast<double>(f.level_bytes[k]);
  }
  const std::uint64_t memory = f.bytes_loaded + f.bytes_stored;
  machines::ComputeWork work;
  work.bytes = static_cast<double>(memory - std::min(split, memory));
  work.level_bytes = level_bytes;
  const int active = machines::active_cores(node, rank, machine.processors());
  for (std::size_t l = 0; l < node.levels.size(); ++l) {
    const double t_memory = machines::memory_time(node, work, l, active) / machine.relative_power(rank);
    f.time.push_back(std::max(t_flops, t_memory) + f.t_comm);
  }
}

StaticEstimate static_estimate(traces::MpTraceSource& source, machines::MachineModel& machine) {
  StaticEstimate e;
  Levels levels;
  if (machine.node()) {
    for (const machines::MemoryLevel& level : machine.node()->levels) e.levels.push_back(level.name);
    e.chosen = machine.memory_level();
    levels.node_levels = e.levels.size();
    for (const std::string& name : source.memory_levels())
      levels.node_level_of.push_back(machines::level_index(*machine.node(), name));
    e.split = !levels.node_level_of.empty();
  }
  const int ranks = source.rank_count();
  if (ranks > 1) {
    // One message alone from processor 0 to the last: its time at 0 bytes is the latency, the
    // extra time of 1 MiB gives the bandwidth.
    machine.reset();
    e.latency = machine.transfer(0, ranks - 1, 0, 0).arrival;
    machine.reset();
    const double big = machine.transfer(0, ranks - 1, static_cast<std::uint64_t>(probe_bytes), 0).arrival;
    machine.reset();
    e.bandwidth = big > e.latency ? probe_bytes / (big - e.latency) : 0.0;
  }
  e.processes.resize(static_cast<std::size_t>(ranks));
  MpRecord record;
  for (int rank = 0; rank < ranks; ++rank) {
    StaticFigures& f = e.processes[static_cast<std::size_t>(rank)];
    while (source.next(rank, record)) add_record(record, ranks, machine, levels, f);
    if (e.split) f.level_bytes.resize(levels.node_levels, 0);
    apply_static_formulas(f, machine, rank, e.latency, e.bandwidth);
    StaticFigures& all = e.program;
    all.flops += f.flops;
    all.bytes_loaded += f.bytes_loaded;
    all.bytes_stored += f.bytes_stored;
    all.level_bytes.resize(f.level_bytes.size(), 0);
    for (std::size_t k = 0; k < f.level_bytes.size(); ++k) all.level_bytes[k] += f.level_bytes[k];
    all.messages += f.messages;
    all.bytes_sent += f.bytes_sent;
    all.bytes_received += f.bytes_received;
    all.mpi_calls += f.mpi_calls;
    all.t_comm = std::max(all.t_comm, f.t_comm);
    all.time.resize(f.time.size(), 0.0);
    for (std::size_t l = 0; l < f.time.size(); ++l) all.time[l] = std::max(all.time[l], f.time[l]);
  }
  return e;
}

namespace {

/// The time at the chosen level (the only one without a node).
double chosen_time(const StaticEstimate& e, const StaticFigures& f) {
  return f.time.empty() ? 0.0 : f.time[std::min(e.chosen, f.time.size() - 1)];
}

std::string figures_row(const std::string& name, const StaticFigures& f) {
  std::string row =
      fmt::format("  {:>7} {:>12.6g} {:>13} {:>13} {:>8} {:>13} {:>13} {:>9} {:>12.6f}", name, f.flops, f.bytes_loaded,
                  f.bytes_stored, f.messages, f.bytes_sent, f.bytes_received, f.mpi_calls, f.t_comm);
  for (double t : f.time) row += fmt::format(" {:>12.6f}", t);
  return row + "\n";
}

nlohmann::ordered_json figures_json(const StaticEstimate& e, const StaticFigures& f) {
  nlohmann::ordered_json j;
  j["flops"] = f.flops;
  j["bytes_loaded"] = f.bytes_loaded;
  j["bytes_stored"] = f.bytes_stored;
  if (e.split) {
    nlohmann::ordered_json by_level = nlohmann::ordered_json::object();
    for (std::size_t l = 0; l < e.levels.size() && l < f.level_bytes.size(); ++l)
      by_level[e.levels[l]] = f.level_bytes[l];
    j["bytes_by_level"] = std::move(by_level);
  }
  j["messages"] = f.messages;
  j["bytes_sent"] = f.bytes_sent;
  j["bytes_received"] = f.bytes_received;
  j["mpi_calls"] = f.mpi_calls;
  j["comm_s"] = f.t_comm;
  nlohmann::ordered_json times = nlohmann::ordered_json::object();
  if (e.levels.empty() && !f.time.empty()) times["flops"] = f.time[0];
  for (std::size_t l = 0; l < e.levels.size() && l < f.time.size(); ++l) times[e.levels[l]] = f.time[l];
  j["time_s"] = std::move(times);
  return j;
}

}  // namespace

void write_static_text(std::ostream& out, const StaticEstimate& e, double simulated, std::size_t max_rows) {
  const std::string level =
      e.levels.empty() ? std::string("flops only: the machine has no node") : "memory level " + e.levels[e.chosen];
  out << fmt::format("\n  static estimate (seed 002; network latency {:.3g} s, bandwidth {:.4g} B/s; {}):\n", e.latency,
                     e.bandwidth, level);
  std::string head = fmt::format("  {:>7} {:>12} {:>13} {:>13} {:>8} {:>13} {:>13} {:>9} {:>12}", "rank", "flops",
                                 "loaded_B", "stored_B", "msgs", "sent_B", "recv_B", "mpi_calls", "comm_s");
  if (e.levels.empty()) head += fmt::format(" {:>12}", "T_s");
  for (const std::string& l : e.levels) head += fmt::format(" {:>12}", "T_" + l + "_s");
  out << head << "\n";
  const std::size_t n = max_rows == 0 ? e.processes.size() : std::min(max_rows, e.processes.size());
  for (std::size_t i = 0; i < n; ++i) out << figures_row(std::to_string(i), e.processes[i]);
  if (n < e.processes.size())
    out << fmt::format("  ... {} more ranks (all in the JSON report)\n", e.processes.size() - n);
  out << figures_row("program", e.program);
  if (e.split) {  // the T columns price the rest at their level, the split part at its own
    std::string split;
    std::uint64_t total = 0;
    for (std::size_t l = 0; l < e.levels.size() && l < e.program.level_bytes.size(); ++l) {
      split += fmt::format("{}{} {} B", split.empty() ? "" : ", ", e.levels[l], e.program.level_bytes[l]);
      total += e.program.level_bytes[l];
    }
    const std::uint64_t memory = e.program.bytes_loaded + e.program.bytes_stored;
    out << fmt::format("  memory bytes split by level: {}; the other {} B at the level of each T column\n", split,
                       memory - std::min(total, memory));
  }
  const double predicted = chosen_time(e, e.program);
  const double difference = simulated - predicted;
  out << fmt::format("  simulated {:.6f} s, static {:.6f} s: simulated - static = {:+.6f} s", simulated, predicted,
                     difference);
  if (predicted > 0) out << fmt::format(" ({:+.1f} %)", 100.0 * difference / predicted);
  out << "\n";
}

double static_time(const StaticEstimate& e) { return chosen_time(e, e.program); }

std::string static_line(const StaticEstimate& e, double simulated) {
  const double predicted = chosen_time(e, e.program);
  std::string line =
      fmt::format("static estimate (seed 002{}) {:.6f} s; simulated - static = {:+.6f} s",
                  e.levels.empty() ? std::string() : ", " + e.levels[e.chosen], predicted, simulated - predicted);
  if (predicted > 0) line += fmt::format(" ({:+.1f} %)", 100.0 * (simulated - predicted) / predicted);
  return line;
}

nlohmann::ordered_json static_json(const StaticEstimate& e, double simulated) {
  nlohmann::ordered_json j;
  j["levels"] = e.levels;
  j["memory_level"] = e.levels.empty() ? std::string() : e.levels[e.chosen];
  j["latency_s"] = e.latency;
  j["bandwidth_Bps"] = e.bandwidth;
  nlohmann::ordered_json program = figures_json(e, e.program);
  program["static_s"] = chosen_time(e, e.program);
  program["simulated_s"] = simulated;
  program["difference_s"] = simulated - chosen_time(e, e.program);
  j["program"] = std::move(program);
  nlohmann::ordered_json processes = nlohmann::ordered_json::array();
  for (const StaticFigures& f : e.processes) processes.push_back(figures_json(e, f));
  j["processes"] = std::move(processes);
  round_numbers(j);
  return j;
}

}  // namespace augur::models::report
