// Folder loggers: levels from --log and SPDLOG_LEVEL, the `%k` simulated clock, logger_at.
#include <doctest/doctest.h>

#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/log.hpp"

using namespace augur::engine;

namespace {

/// The folder loggers' lines in a string while it lives; then stderr and level warn again.
struct CapturedLog {
  std::ostringstream text;
  CapturedLog() { set_log_sink(std::make_shared<spdlog::sinks::ostream_sink_mt>(text)); }
  ~CapturedLog() {
    set_log_sink(nullptr);
    set_log_levels("warn");
  }
};

}  // namespace

TEST_CASE("A level without a category sets every folder - a named category overrides it in any order") {
  const CapturedLog log;
  set_log_levels("engine=debug,info");  // spdlog's load_levels: the global level does not undo engine=debug
  CHECK(logger("engine")->level() == spdlog::level::debug);
  CHECK(logger("traces")->level() == spdlog::level::info);
  CHECK(logger("tools")->level() == spdlog::level::info);
  set_log_levels("machines=trace,,models=off");  // an empty item is skipped; the others keep their levels
  CHECK(logger("machines")->level() == spdlog::level::trace);
  CHECK(logger("models")->level() == spdlog::level::off);
  CHECK(logger("engine")->level() == spdlog::level::debug);

  CHECK(logger_at(Folder::engine, spdlog::level::debug) == logger("engine").get());
  CHECK(logger_at(Folder::engine, spdlog::level::trace) == nullptr);
  CHECK(logger_at(Folder::models, spdlog::level::critical) == nullptr);
  CHECK(logger_at(Folder::machines, spdlog::level::trace) == logger("machines").get());
  // By name, each folder's logger is the one its Folder reaches; another name gets spdlog's default.
  CHECK(logger("scenarios").get() == logger_at(Folder::scenarios, spdlog::level::critical));
  CHECK(logger("scenarios")->name() == "scenarios");
  CHECK(logger("engin") == spdlog::default_logger());
}

TEST_CASE("Bad log levels name where they came from - the environment may name other programs' loggers") {
  const CapturedLog log;
  try {
    set_log_levels("engine=loud");
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) ==
          "--log: unknown level 'loud' (expected trace, debug, info, warn, error, critical, off)");
  }
  try {
    set_log_levels("engin=debug");
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) ==
          "--log: unknown category 'engin' (expected engine, machines, traces, models, scenarios, tools)");
  }
  CHECK_THROWS_WITH_AS(
      set_log_levels("verbose", "SPDLOG_LEVEL", true),
      "SPDLOG_LEVEL: unknown level 'verbose' (expected trace, debug, info, warn, error, critical, off)",
      std::invalid_argument);
  set_log_levels("myapp=trace,traces=debug", "SPDLOG_LEVEL", true);
  CHECK(logger("traces")->level() == spdlog::level::debug);
  CHECK(logger("engine")->level() == spdlog::level::warn);
}

TEST_CASE("Every line carries the simulated clock of the scope it is written in - '-' outside any") {
  CapturedLog log;
  set_log_levels("traces=info");
  const SimTime at = 0.25;
  {
    const LogClockScope scope(&at);
    CHECK(log_clock() == &at);
    logger_at(Folder::traces, spdlog::level::info)->info("inside {}", 1);
  }
  CHECK(log_clock() == nullptr);
  logger_at(Folder::traces, spdlog::level::info)->info("outside");
  if (auto* lg = logger_at(Folder::traces, spdlog::level::debug)) lg->debug("filtered");
  CHECK(log.text.str() == "[0.250000000] [traces] [info] inside 1\n[-] [traces] [info] outside\n");
}
