// Loggers: one per folder ("engine", "machines", "traces", "models", "scenarios", "tools"), levels
// per run (`--log engine=debug`, or `SPDLOG_LEVEL`), made on first use; simulated time in every
// line through `%k`.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

#include "engine/sim_time.hpp"

namespace augur::engine {

/// The folders that log, each through its own logger named as the folder.
enum class Folder : std::uint8_t { engine, machines, traces, models, scenarios, tools };
inline constexpr int folder_count = 6;

/// Creates (once) the folder loggers on stderr with pattern "[%k] [%n] [%l] %v", level warn.
void init_logging();
/// Applies "level,cat=level,..." (spdlog's load_levels syntax: an item without a category sets
/// every folder). `source` names where the text came from in errors ("--log", "SPDLOG_LEVEL").
/// An unknown level throws std::invalid_argument; so does an unknown category, unless
/// `ignore_unknown_categories` (the environment may name other programs' loggers).
void set_log_levels(const std::string& spec, std::string_view source = "--log", bool ignore_unknown_categories = false);
/// The logger of a folder by name (created by init_logging; unknown names: spdlog's default).
std::shared_ptr<spdlog::logger> logger(const std::string& name);
/// The engine's logger.
inline std::shared_ptr<spdlog::logger> log() { return logger("engine"); }

/// The folder's logger if it logs at `level`, else nullptr. While no level was set (a run
/// without --log or SPDLOG_LEVEL), messages below warn cost one load and no logger is made:
///   if (auto* lg = engine::logger_at(Folder::traces, spdlog::level::info)) lg->info("...");
spdlog::logger* logger_at(Folder folder, spdlog::level::level_enum level);

/// Sets the simulated clock that `%k` prints on this thread (nullptr: prints "-").
void set_log_clock(const SimTime* clock);
/// The clock `%k` prints on this thread.
const SimTime* log_clock();
/// Replaces every folder logger's sink (tests capture the lines; nullptr restores stderr).
void set_log_sink(std::shared_ptr<spdlog::sinks::sink> sink);

/// Points `%k` at `clock` for its lifetime, then restores the previous clock.
class LogClockScope {
 public:
  explicit LogClockScope(const SimTime* clock) : previous_(log_clock()) { set_log_clock(clock); }
  ~LogClockScope() { set_log_clock(previous_); }
  LogClockScope(const LogClockScope&) = delete;
  LogClockScope& operator=(const LogClockScope&) = delete;

 private:
  const SimTime* previous_;
};

}  // namespace augur::engine
