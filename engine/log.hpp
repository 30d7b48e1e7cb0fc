// Loggers: one per folder ("engine", "machines", "traces", "models", "scenarios", "tools"), levels
// per run (`--log engine=debug`), made on first use; simulated time in every line through `%k`.
#pragma once
#include <memory>
#include <string>

#include <spdlog/spdlog.h>

#include "engine/sim_time.hpp"

namespace augur::engine {

/// Creates (once) the folder loggers on stderr with pattern "[%k] [%n] [%l] %v".
void init_logging();
/// Applies "cat=level,cat2=level" (spdlog's load_levels syntax); throws std::invalid_argument.
void set_log_levels(const std::string& spec);
/// The logger of a folder (created by init_logging; nullptr-safe: falls back to a default).
std::shared_ptr<spdlog::logger> logger(const std::string& name);
/// The engine's logger.
inline std::shared_ptr<spdlog::logger> log() { return logger("engine"); }
/// Sets the simulated clock that `%k` prints (nullptr: prints "-").
void set_log_clock(const SimTime* clock);

}  // namespace augur::engine
