// Folder loggers with the custom `%k` flag (simulated time).
#include "engine/log.hpp"

#include <spdlog/cfg/helpers.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <mutex>
#include <stdexcept>

namespace augur::engine {
namespace {

thread_local const SimTime* g_clock = nullptr;

class SimClockFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
    if (g_clock == nullptr) {
      dest.push_back('-');
      return;
    }
    fmt::format_to(std::back_inserter(dest), "{:.9f}", *g_clock);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SimClockFlag>(); }
};

const char* const folder_names[] = {"engine", "machines", "traces", "models", "scenarios", "tools"};

}  // namespace

void init_logging() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    for (const char* name : folder_names) {
      auto lg = std::make_shared<spdlog::logger>(name, sink);
      auto formatter = std::make_unique<spdlog::pattern_formatter>();
      formatter->add_flag<SimClockFlag>('k').set_pattern("[%k] [%n] [%l] %v");
      lg->set_formatter(std::move(formatter));
      lg->set_level(spdlog::level::warn);
      spdlog::initialize_logger(lg);
    }
  });
}

void set_log_levels(const std::string& spec) {
  init_logging();
  for (std::size_t pos = 0; pos < spec.size();) {
    std::size_t end = spec.find(',', pos);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(pos, end - pos);
    const auto eq = item.find('=');
    const std::string name = eq == std::string::npos ? std::string() : item.substr(0, eq);
    const std::string level = eq == std::string::npos ? item : item.substr(eq + 1);
    const auto lvl = spdlog::level::from_str(level);
    if (lvl == spdlog::level::off && level != "off") {
      throw std::invalid_argument("--log: unknown level '" + level +
                                  "' (expected trace, debug, info, warn, error, critical, off)");
    }
    if (name.empty()) {
      for (const char* n : folder_names) spdlog::get(n)->set_level(lvl);
    } else {
      auto lg = spdlog::get(name);
      if (!lg) {
        throw std::invalid_argument("--log: unknown category '" + name +
                                    "' (expected engine, machines, traces, models, scenarios, tools)");
      }
      lg->set_level(lvl);
    }
    pos = end + 1;
  }
}

std::shared_ptr<spdlog::logger> logger(const std::string& name) {
  init_logging();
  auto lg = spdlog::get(name);
  return lg ? lg : spdlog::default_logger();
}

void set_log_clock(const SimTime* clock) { g_clock = clock; }

}  // namespace augur::engine
