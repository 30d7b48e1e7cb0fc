// The bus network of the DVM Predictor (spec 7.1, 6.3): messages serialised on `channels`
// shared buses, each costing scale * (Ts + Tb * bytes); GetCost in the Predictor's closed form.
#include "machines/bus/bus_machine.hpp"

#include <algorithm>

namespace augur::machines {

using engine::CollectiveKind;

std::vector<ParamSpec> bus_params() {
  auto specs = common_params();
  specs.push_back({"start_time",
                   UnitKind::time,
                   "75us",
                   "Ts: start-up time of one message (100 Mbit Ethernet with TCP/IP)",
                   {}});
  specs.push_back({"byte_time",
                   UnitKind::time,
                   "0.08us",
                   "Tb: time per byte on the bus (0.08us = 12.5 MB/s = 100 Mbit/s)",
                   {}});
  specs.push_back({"channels",
                   UnitKind::count,
                   "1",
                   "number of buses that carry messages at the same time (Myrinet(n): n)",
                   {}});
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

SimTime BusMachine::matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) {
  // C = sigma · Σ_{p≠q, T[p][q]>0} (Ts + Tb·T[p][q]) / min(P, channels)
  // (Myrinet: U[p][q] = max(T[p][q], T[q][p]) replaces T first.)
  const std::size_t size = matrix.size();
  double sum = 0;
  for (std::size_t p = 0; p < size; ++p)
    for (std::size_t q = 0; q < matrix[p].size(); ++q) {
      if (p == q) continue;
      std::uint64_t bytes = matrix[p][q];
      if (symmetric_transfers_ && q < size && p < matrix[q].size())
        bytes = std::max(bytes, matrix[q][p]);
      if (bytes > 0) sum += start_time_ + byte_time_ * static_cast<double>(bytes);
    }
  const double parallel = std::min(static_cast<double>(size), static_cast<double>(channels_));
  return parallel > 0 ? scale_ * sum / parallel : 0;
}

}  // namespace augur::machines
