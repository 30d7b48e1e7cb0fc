// The bus network (spec 7.1, 6.3): one shared medium or N channels; messages are serialised on
// the earliest free channel, each costing scale * (Ts + Tb * bytes).
#pragma once
#include <vector>

#include "machines/machine_model.hpp"

namespace augur::machines {

/// Every parameter of the bus model: common_params() then start_time, byte_time, channels,
/// scale, symmetric_transfers.
std::vector<ParamSpec> bus_params();

class BusMachine;

/// The DVM queries on a bus in the DVM Predictor's closed forms (spec 6.2, 6.3); they read the
/// bus's parameters and leave its channels alone.
class BusDvmPricing final : public DvmPricing {
 public:
  explicit BusDvmPricing(const BusMachine& bus) : bus_(bus) {}

  /// Spec 6.3: C = scale * sum over p != q, T[p][q] > 0 of (Ts + Tb * T[p][q]) / min(P, channels);
  /// with symmetric_transfers (Myrinet) the sum runs once over every pair p > q of
  /// U = max(T[p][q], T[q][p]) (both directions travel together, as in Predictor 2.53).
  SimTime matrix_cost(const std::vector<std::vector<std::uint64_t>>& matrix) override;
  /// matrix_cost (ready is ignored: the seed prices a matrix from time 0); `end_per_proc`
  /// follows the messages down the bus in row-major order: a processor is done when the last
  /// message it sends or receives is, i.e. the running sum σ·Σ(Ts + Tb·T) / min(P, channels) up to
  /// that message (the seed's time stamps of aarrcp_ and remote buffers, Predictor 2.53
  /// CommCost::GetCost mach_ETHERNET); the last processor's end is the cost.
  SimTime matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix, const std::vector<SimTime>& ready,
                         std::vector<SimTime>* end_per_proc = nullptr) override;
  /// Spec 6.2 StartR on a bus: t = σ(Ts + Tb·n)·(B + L − 2) with B = Π_{split d} shape[d] and
  /// L = processors of the grid — B − 1 messages collect the partial results, L − 1 broadcast
  /// the result, all serialised on the bus (not divided by the channels, as in Predictor 2.53,
  /// whose Myrinet uses the same formula). 0 when no dimension is split.
  SimTime grid_reduction_time(const ProcessorGrid& grid, const std::vector<bool>& split, std::uint64_t bytes) override;
  /// The seed's srmem_ formula (seed_broadcast_times with this bus's Ts, Tb, σ).
  std::vector<SimTime> broadcast_times(const std::vector<int>& processors, std::uint64_t bytes) override;

 private:
  const BusMachine& bus_;
};

/// A shared bus (Ethernet) or `channels` buses (Myrinet(n) of the DVM Predictor). Stateful:
/// remembers when each channel becomes free.
class BusMachine final : public MachineModel {
 public:
  /// Reads the parameters; throws ParamError when channels < 1 or scale < 0.
  BusMachine(const ParamSet& params, int processors);

  std::string model_name() const override { return "bus"; }
  /// The message occupies the earliest free channel (lowest index on ties) for
  /// scale * (Ts + Tb * bytes). The sender's CPU is not held (the network interface moves the
  /// data): sender_free = ready. A message to oneself costs nothing and uses no channel.
  Transfer transfer(int src, int dst, std::uint64_t bytes, SimTime ready) override;
  /// Messages of the collective's usual algorithm, serialised on the bus (formulas in the .cpp).
  SimTime collective_time(engine::CollectiveKind kind, int processors, std::uint64_t bytes, int root) const override;
  /// The bus's closed forms of GetCost, StartR and srmem_ (BusDvmPricing).
  DvmPricing& dvm_pricing() override { return pricing_; }
  void reset() override;

 private:
  friend class BusDvmPricing;
  /// Calls visit(p, q, bytes) for every message GetCost prices, in its order (see matrix_cost).
  template <class Visit>
  void for_each_message(const std::vector<std::vector<std::uint64_t>>& matrix, Visit&& visit) const;
  /// scale * (Ts + Tb * bytes): the time one message holds a channel.
  SimTime message_time(double bytes) const;

  SimTime start_time_;  ///< Ts, s
  SimTime byte_time_;   ///< Tb, s per byte
  int channels_;
  double scale_;  ///< sigma, multiplies every communication cost
  bool symmetric_transfers_;
  std::vector<SimTime> channel_free_;  ///< per channel: when it is free again
  BusDvmPricing pricing_{*this};
};

/// A collective on a bus counted in point-to-point messages sharing it (docs/machine-models.md, bus):
/// M messages of `message_n` seconds take M·message_n / c with c = min(P, channels); a barrier's
/// messages are empty (`message_0`). 0 for P <= 1.
SimTime bus_collective_time(engine::CollectiveKind kind, int processors, int channels, double message_0,
                            double message_n);

}  // namespace augur::machines
