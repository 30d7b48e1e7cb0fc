// The characteristics accumulator of DVM runs (spec section 8): an engine observer that turns the
// DVM model's events into the per-interval, per-processor figures of the analyzer.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/observer.hpp"
#include "models/analysis/characteristics.hpp"

namespace augur::models::analysis {

/// Fills the ProcessorTimes of `tree`'s intervals from the events the DVM model emits (the event
/// contract is documented on models::dvm::DvmProgram). The tree's structure is the model's.
/// `model_durations`: the time of compute and loop_block events is the duration the model
/// computed (`waited`, Predictor 3.1's TimeDelta) instead of clock_after − clock_before, which
/// can differ in the last bits (`augur predict`: 3.1's `-0.0000`, docs/dvm-model.md).
class DvmCharacteristics final : public engine::Observer {
 public:
  DvmCharacteristics(IntervalTree& tree, std::uint32_t lp_count, bool model_durations = false);
  void on_event(const engine::Event& e) override;

 private:
  [[gnu::noinline]] void on_other_event(const engine::Event& e);

  double duration(const engine::Event& e) const { return model_durations_ ? e.waited : e.clock_after - e.clock_before; }

  IntervalTree& tree_;
  bool model_durations_;
  std::vector<Interval*> current_;  ///< per LP
  /// Per LP: its figures in current_ (an interval's table is sized when the interval is made and
  /// never moves), so that a compute event loads one pointer instead of three.
  std::vector<ProcessorTimes*> times_;
  std::vector<std::vector<std::pair<std::int32_t, double>>> starts_;  ///< per LP: (op id, t0)
};

}  // namespace augur::models::analysis
