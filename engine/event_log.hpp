// The debug event log (spec section 12): one line per event through its own spdlog logger
// ("events", pattern %v). Costs nothing when not attached.
#pragma once
#include <memory>
#include <string>

#include <spdlog/logger.h>

#include "engine/observer.hpp"
#include "engine/output_file.hpp"

namespace augur::engine {

/// Formats one event as the event log and the stepper print it:
/// `t=0.001000000 lp=3 recv peer=2 tag=0 bytes=8 clock=0.000900000->0.001000000 waited=...` where t is
/// the simulated time the event completes.
std::string format_event(const Event& event);

/// Observer writing every event to a file.
class EventLog final : public Observer {
 public:
  /// Opens (truncates) `path`; throws std::runtime_error naming the file when it cannot.
  explicit EventLog(const std::string& path);
  ~EventLog() override;
  void on_event(const Event& event) override;
  void on_status(LpId lp, LpStatus from, LpStatus to, SimTime at) override;
  void on_finish(SimTime end) override;

 private:
  TemporaryFile temporary_;
  std::shared_ptr<spdlog::logger> logger_;
  bool failed_ = false;
};

}  // namespace augur::engine
