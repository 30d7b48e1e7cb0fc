// The bus network of the DVM Predictor (spec 7.1, 6.3): messages serialised on `channels`
// shared buses, each costing scale * (Ts + Tb * bytes); GetCost, StartR and srmem_ in the
// Predictor's closed forms (BusDvmPricing).
#include "machines/bus/bus_machine.hpp"

#include <algorithm>

namespace augur::machines {

using engine::CollectiveKind;

std::vector<ParamSpec> bus_params() {
  auto specs = common_params();
  specs.push_back(
      {"start_time", UnitKind::time, "75us", "Ts: start-up time of one message (100 Mbit Ethernet with TCP/IP)", {}});
  specs.push_back(
      {"byte_time", UnitKind::time, "0.08us", "Tb: time per byte on the bus (0.08us = 12.5 MB/s = 100 Mbit/s)", {}});
  specs.push_back(
      {"channels", UnitKind::count, "1", "number of buses that carry messages at the same time (Myrinet(n): n)", {}});
  specs.push_back({"scale", UnitKind::real, "1", "sigma: multiplies every communication cost", {}});
  specs.push_back({"symmetric_transfers",
                   UnitKind::boolean,
                   "false",
                   "GetCost prices U[p][q] = max(T[p][q], T[q][p]) (the Predictor's Myrinet)",
                   {}});
  return specs;
}

BusMachine::BusMachine(const ParamSet& params, int processors)
    : MachineModel(params, processors),
      start_time_(params.number("start_time")),
      byte_time_(params.number("byte_time")),
      channels_(static_cast<int>(params.integer("channels"))),
      scale_(params.number("scale")),
      symmetric_transfers_(params.flag("symmetric_transfers")) {
  if (channels_ < 1) throw ParamError("parameter 'channels': a bus needs at least 1 channel");
  if (scale_ < 0) throw ParamError("parameter 'scale': must not be negative");
  channel_free_.assign(static_cast<std::size_t>(channels_), 0.0);
}

void BusMachine::reset() { std::fill(channel_free_.begin(), channel_free_.end(), 0.0); }

SimTime BusMachine::message_time(double bytes) const {
  // sigma · (Ts + Tb·n)
  return scale_ * (start_time_ + byte_time_ * bytes);
}

Transfer BusMachine::transfer(int src, int dst, std::uint64_t bytes, SimTime ready) {
  Transfer result{ready, ready, ready, 0};
  if (src == dst) return result;  // a local copy: no bus, no cost
  // The earliest free channel; min_element keeps the lowest index on ties.
  const auto channel = std::min_element(channel_free_.begin(), channel_free_.end());
  // start = max(ready, free[c]); arrival = start + sigma·(Ts + Tb·n); the channel is busy until
  // then.
  result.start = std::max(ready, *channel);
  result.arrival = result.start + message_time(static_cast<double>(bytes));
  *channel = result.arrival;
  return result;
}

SimTime BusMachine::collective_time(CollectiveKind kind, int processors, std::uint64_t bytes,
                                    [[maybe_unused]] int root) const {
  return bus_collective_time(kind, processors, channels_, message_time(0), message_time(static_cast<double>(bytes)));
}

SimTime bus_collective_time(engine::CollectiveKind kind, int processors, int channels, double message_0,
                            double message_n) {
  // Every collective is counted in point-to-point messages of m(n) that share the bus: M
  // messages take M·m(n) / c, c = min(P, channels). P <= 1: nothing to do.
  if (processors <= 1) return 0;
  const double p = processors;
  const double c = std::min(p, static_cast<double>(channels));
  switch (kind) {
    case CollectiveKind::barrier:
      // fan-in of empty messages to the root, then the release: 2(P−1)·m(0) / c
      return 2 * (p - 1) * message_0 / c;
    case CollectiveKind::bcast:
    case CollectiveKind::reduce:
    case CollectiveKind::gather:
    case CollectiveKind::gatherv:
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv:
      // the root exchanges one message with each other processor: (P−1)·m(n) / c
      return (p - 1) * message_n / c;
    case CollectiveKind::allreduce:
    case CollectiveKind::reduce_scatter:
      // a reduce to the root followed by its broadcast (or scatter): 2(P−1)·m(n) / c
      return 2 * (p - 1) * message_n / c;
    case CollectiveKind::allgather:
    case CollectiveKind::allgatherv:
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoallv:
      // every processor sends its n bytes to every other one: P(P−1)·m(n) / c
      return p * (p - 1) * message_n / c;
    case CollectiveKind::scan:
    case CollectiveKind::exscan:
      // a chain 0 → 1 → … → P−1, each step waiting for the previous: (P−1)·m(n)
      return (p - 1) * message_n;
  }
  return 0;
}

template <class Visit>
void BusMachine::for_each_message(const std::vector<std::vector<std::uint64_t>>& matrix, Visit&& visit) const {
  const std::size_t size = matrix.size();
  const auto at = [&](std::size_t p, std::size_t q) -> std::uint64_t {
    return q < matrix[p].size() ? matrix[p][q] : 0;
  };
  if (!symmetric_transfers_) {
    // Every message p → q, p ≠ q, T[p][q] > 0, row-major.
    for (std::size_t p = 0; p < size; ++p)
      for (std::size_t q = 0; q < matrix[p].size() && q < size; ++q)
        if (p != q && matrix[p][q] > 0) visit(p, q, matrix[p][q]);
    return;
  }
  // Myrinet: both directions of a pair travel together, U = max(T[p][q], T[q][p]) once per pair
  // (Predictor 2.53 CommCost::GetCost, mach_MYRINET: p = 1 … P−1, q < p).
  for (std::size_t p = 1; p < size; ++p)
    for (std::size_t q = 0; q < p; ++q) {
      const std::uint64_t bytes = std::max(at(p, q), at(q, p));
      if (bytes > 0) visit(p, q, bytes);
    }
}

SimTime BusDvmPricing::matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) {
  // C = σ · Σ_{messages} (Ts + Tb·n) / min(P, channels); the messages are T[p][q] > 0, p ≠ q,
  // or with symmetric_transfers (Myrinet) one per pair of U[p][q] = max(T[p][q], T[q][p]).
  double sum = 0;
  bus_.for_each_message(matrix, [&](std::size_t, std::size_t, std::uint64_t bytes) {
    sum += bus_.start_time_ + bus_.byte_time_ * static_cast<double>(bytes);
  });
  const double parallel = std::min(static_cast<double>(matrix.size()), static_cast<double>(bus_.channels_));
  return parallel > 0 ? bus_.scale_ * sum / parallel : 0;
}

SimTime BusDvmPricing::matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix,
                                      [[maybe_unused]] const std::vector<SimTime>& ready,
                                      std::vector<SimTime>* end_per_proc) {
  const SimTime cost = matrix_cost(matrix);
  if (end_per_proc == nullptr) return cost;
  // The messages of matrix_cost in its order; each ends at the running sum of the message times
  // divided by the parallel channels, so the last one ends at the cost.
  const double parallel = std::min(static_cast<double>(matrix.size()), static_cast<double>(bus_.channels_));
  end_per_proc->assign(matrix.size(), 0.0);
  double running = 0;
  bus_.for_each_message(matrix, [&](std::size_t p, std::size_t q, std::uint64_t bytes) {
    running += bus_.start_time_ + bus_.byte_time_ * static_cast<double>(bytes);
    (*end_per_proc)[p] = (*end_per_proc)[q] = bus_.scale_ * running / parallel;
  });
  return cost;
}

SimTime BusDvmPricing::grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split,
                                           std::uint64_t bytes) {
  // t = σ(Ts + Tb·n)·(B + L − 2), B = Π over split dimensions of their extent, L = all processors
  // (Predictor 2.53 RedGroup::StartR, mach_ETHERNET and mach_MYRINET).
  double block = 1;
  bool any = false;
  for (std::size_t d = 0; d < grid.shape.size() && d < split.size(); ++d) {
    if (!split[d]) continue;
    block *= grid.shape[d];
    any = true;
  }
  if (!any) return 0;
  const double all = static_cast<double>(grid.processors.size());
  return bus_.message_time(static_cast<double>(bytes)) * (block + all - 2);
}

std::vector<SimTime> BusDvmPricing::broadcast_times(const std::vector<int>& processors, std::uint64_t bytes) {
  return seed_broadcast_times(static_cast<int>(processors.size()), bus_.start_time_, bus_.byte_time_, bus_.scale_,
                              bytes);
}

}  // namespace augur::machines
