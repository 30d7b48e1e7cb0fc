// Test support for the message-passing model: an in-memory trace and a LogGP-like test machine
// (L = 1 us, G = 1 ns/B, o = 0, no contention, eager threshold 100 B, analytic collectives 10 us).
#pragma once
#include <string>
#include <vector>

#include "engine/event.hpp"
#include "engine/observer.hpp"
#include "machines/machine_model.hpp"
#include "traces/mp_record.hpp"

namespace augur::test {

using traces::MpOpKind;
using traces::MpRecord;

/// Keeps every event the scheduler reports, in order.
struct Recorder final : engine::Observer {
  std::vector<engine::Event> events;
  void on_event(const engine::Event& e) override { events.push_back(e); }
};

// L + n·G per message; compute = flops / 1e9; analytic collectives: 10 us.
class TestMachine final : public machines::MachineModel {
 public:
  explicit TestMachine(int p) : MachineModel(machines::ParamSet(machines::common_params()), p) {
    eager_threshold_ = 100;
  }
  std::string model_name() const override { return "test"; }
  machines::Transfer transfer(int, int, std::uint64_t bytes, machines::SimTime ready) override {
    machines::Transfer t;
    t.start = ready;
    t.sender_free = ready;
    t.arrival = ready + 1e-6 + static_cast<double>(bytes) * 1e-9;
    return t;
  }
  machines::SimTime collective_time(engine::CollectiveKind, int, std::uint64_t, int) const override { return 10e-6; }
};

class MemoryTrace final : public traces::MpTraceSource {
 public:
  /// `comms`: the communicators the records name (entry 0, the world, empty).
  explicit MemoryTrace(std::vector<std::vector<MpRecord>> ranks, traces::MpCommunicators comms = {})
      : ranks_(std::move(ranks)), pos_(ranks_.size(), 0), comms_(std::move(comms)) {
    for (auto& r : ranks_) {
      for (std::size_t i = 0; i < r.size(); ++i) r[i].line = i + 1;
    }
  }
  int rank_count() const override { return static_cast<int>(ranks_.size()); }
  bool next(int rank, MpRecord& out) override {
    auto& p = pos_[static_cast<std::size_t>(rank)];
    if (p >= ranks_[static_cast<std::size_t>(rank)].size()) return false;
    out = ranks_[static_cast<std::size_t>(rank)][p++];
    return true;
  }
  std::string file_name(int rank) const override { return "rank" + std::to_string(rank) + ".txt"; }
  traces::MpCommunicators communicators() const override { return comms_; }

 private:
  std::vector<std::vector<MpRecord>> ranks_;
  std::vector<std::size_t> pos_;
  traces::MpCommunicators comms_;
};

inline MpRecord rec(MpOpKind k, int peer = -1, int tag = 0, std::uint64_t bytes = 0, double amount = 0,
                    int peer2 = -1) {
  MpRecord r;
  r.kind = k;
  r.peer = peer;
  r.tag = tag;
  r.bytes = bytes;
  r.amount = amount;
  r.peer2 = peer2;
  return r;
}

}  // namespace augur::test
