// Folder loggers with the custom `%k` flag (simulated time).
#include "engine/log.hpp"

#include <fmt/format.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <array>
#include <atomic>
#include <mutex>
#include <optional>
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

constexpr std::array<const char*, folder_count> folder_names = {"engine", "machines",  "traces",
                                                                "models", "scenarios", "tools"};

// The loggers in Folder order, set once by init_logging before `g_ready` turns true.
std::array<std::shared_ptr<spdlog::logger>, folder_count> g_loggers;
std::atomic<bool> g_ready{false};

/// The folder named `name`, or folder_count when none is.
std::size_t folder_index(std::string_view name) {
  std::size_t i = 0;
  while (i < folder_names.size() && name != folder_names[i]) ++i;
  return i;
}

/// "engine, machines, traces, models, scenarios, tools" for the messages.
std::string folder_list() { return fmt::format("{}", fmt::join(folder_names, ", ")); }

std::unique_ptr<spdlog::formatter> make_formatter() {
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<SimClockFlag>('k').set_pattern("[%k] [%n] [%l] %v");
  return formatter;
}

}  // namespace

void init_logging() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    for (int i = 0; i < folder_count; ++i) {
      auto lg = std::make_shared<spdlog::logger>(folder_names[static_cast<std::size_t>(i)], sink);
      spdlog::initialize_logger(lg);  // registers it and gives it the registry's formatter and level: ours after
      lg->set_formatter(make_formatter());
      lg->set_level(spdlog::level::warn);
      g_loggers[static_cast<std::size_t>(i)] = std::move(lg);
    }
    g_ready.store(true, std::memory_order_release);
  });
}

void set_log_levels(const std::string& spec, std::string_view source, bool ignore_unknown_categories) {
  init_logging();
  // As spdlog's load_levels: a level without a category sets every folder first, whatever its
  // place in the list; the categories named then override it.
  std::array<std::optional<spdlog::level::level_enum>, folder_count> named;
  std::optional<spdlog::level::level_enum> every;
  for (std::size_t pos = 0; pos < spec.size();) {
    std::size_t end = spec.find(',', pos);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const auto eq = item.find('=');
    const std::string name = eq == std::string::npos ? std::string() : item.substr(0, eq);
    const std::string level = eq == std::string::npos ? item : item.substr(eq + 1);
    const auto lvl = spdlog::level::from_str(level);
    if (lvl == spdlog::level::off && level != "off") {
      throw std::invalid_argument(std::string(source) + ": unknown level '" + level +
                                  "' (expected trace, debug, info, warn, error, critical, off)");
    }
    if (name.empty()) {
      every = lvl;
      continue;
    }
    const std::size_t found = folder_index(name);
    if (found == folder_names.size()) {
      if (ignore_unknown_categories) continue;
      throw std::invalid_argument(std::string(source) + ": unknown category '" + name + "' (expected " + folder_list() +
                                  ")");
    }
    named[found] = lvl;
  }
  for (std::size_t i = 0; i < g_loggers.size(); ++i) {
    if (named[i]) {
      g_loggers[i]->set_level(*named[i]);
    } else if (every) {
      g_loggers[i]->set_level(*every);
    }
  }
}

std::shared_ptr<spdlog::logger> logger(const std::string& name) {
  init_logging();
  const std::size_t i = folder_index(name);
  return i < g_loggers.size() ? g_loggers[i] : spdlog::default_logger();
}

spdlog::logger* logger_at(Folder folder, spdlog::level::level_enum level) {
  if (!g_ready.load(std::memory_order_acquire)) {
    if (level < spdlog::level::warn) return nullptr;  // no level was set: the default is warn
    init_logging();
  }
  spdlog::logger* lg = g_loggers[static_cast<std::size_t>(folder)].get();
  return lg->should_log(level) ? lg : nullptr;
}

void set_log_clock(const SimTime* clock) { g_clock = clock; }

const SimTime* log_clock() { return g_clock; }

void set_log_sink(std::shared_ptr<spdlog::sinks::sink> sink) {
  init_logging();
  if (!sink) sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  for (const auto& lg : g_loggers) {
    lg->sinks().assign(1, sink);
    lg->set_formatter(make_formatter());
  }
}

}  // namespace augur::engine
