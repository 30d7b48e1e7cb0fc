// Variant execution: the only place that wires traces, machines, models and the engine together
// (with run_dvm_variant.cpp and run_mp_variant.cpp, one per program model), and runs the variants.
#include "tools/runner.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>

#include "engine/event_log.hpp"
#include "engine/log.hpp"
#include "engine/scheduler.hpp"
#include "engine/stepper.hpp"
#include "tools/monitor/watcher.hpp"
#include "tools/variant_run.hpp"
#include "traces/trace_format.hpp"

namespace augur::tools {
namespace {

// Feeds the shared progress counters every 2^16 events (cheap: one branch per event).
class ProgressObserver final : public engine::Observer {
 public:
  explicit ProgressObserver(Progress& progress) : progress_(progress) {}
  void on_event(const engine::Event& e) override {
    if ((++count_ & 0xffff) == 0) {
      progress_.events.fetch_add(0x10000, std::memory_order_relaxed);
      progress_.simulated.store(e.clock_after, std::memory_order_relaxed);
    }
  }
  void on_finish(engine::SimTime end) override {
    progress_.events.fetch_add(count_ & 0xffff, std::memory_order_relaxed);
    progress_.simulated.store(end, std::memory_order_relaxed);
  }

 private:
  Progress& progress_;
  std::uint64_t count_ = 0;
};

// Prints "variants done · simulated time · events/s" on one terminal line until stopped.
class ProgressPrinter {
 public:
  ProgressPrinter(std::ostream& out, const Progress& progress, std::size_t variants)
      : out_(out), progress_(progress), variants_(variants), thread_([this] { loop(); }) {}
  ~ProgressPrinter() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
    out_ << "\r" << std::string(78, ' ') << "\r" << std::flush;
  }

 private:
  void loop() {
    auto last = std::chrono::steady_clock::now();
    std::uint64_t last_events = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; })) {
      const auto now = std::chrono::steady_clock::now();
      const std::uint64_t events = progress_.events.load(std::memory_order_relaxed);
      const double seconds = std::chrono::duration<double>(now - last).count();
      const double rate = seconds > 0 ? static_cast<double>(events - last_events) / seconds : 0;
      out_ << fmt::format("\r[augur] variants {}/{} · simulated {:.6f} s · {:.2f} M events/s   ", progress_.done.load(),
                          variants_, progress_.simulated.load(), rate / 1e6)
           << std::flush;
      last = now;
      last_events = events;
    }
  }

  std::ostream& out_;
  const Progress& progress_;
  std::size_t variants_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

std::string event_log_name(const std::string& base, int index, std::size_t count) {
  if (count <= 1 || base.empty()) return base;
  const auto slash = base.find_last_of('/');
  const auto dot = base.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return fmt::format("{}.v{}", base, index);
  return fmt::format("{}.v{}{}", base.substr(0, dot), index, base.substr(dot));
}

std::string otf2_archive_name(const std::string& base, int index, std::size_t count) {
  return count <= 1 || base.empty() ? base : fmt::format("{}.v{}", base, index);
}

/// The machine of `variant` for `processors` processors; a parameter error names the machine file.
std::unique_ptr<machines::MachineModel> make_machine(const scenarios::Variant& variant,
                                                     const machines::MachineRegistry& registry, int processors) {
  try {
    return registry.create(variant.machine.model, variant.machine.params, processors);
  } catch (const machines::ParamError& e) {
    throw InputError(fmt::format(
        "{}: error: {}", variant.machine.source.empty() ? variant.machine.name : variant.machine.source, e.what()));
  }
}

/// Runs `program` after adding the observers every run takes from the options (event log,
/// stepper, progress) behind the caller's own, with the options' limits.
engine::RunResult run_observed(engine::Scheduler& scheduler, engine::Program& program, const RunOptions& options,
                               Progress* progress, int index, std::size_t count, const std::string& what) {
  std::optional<engine::EventLog> log;
  if (!options.event_log.empty()) {
    log.emplace(event_log_name(options.event_log, index, count));
    scheduler.add_observer(&*log);
  }
  std::optional<engine::Stepper> stepper;
  if (options.step_in != nullptr && options.step_out != nullptr && index == 1) {  // the first variant only
    stepper.emplace(scheduler, program, *options.step_in, *options.step_out);
    scheduler.add_observer(&*stepper);
  }
  std::optional<monitor::Watcher> watcher;
  if (options.monitor != nullptr && options.monitor->attach()) {
    watcher.emplace(*options.monitor, scheduler, program, fmt::format("variant {}/{}: {}", index, count, what),
                    options.monitor_paused && index == 1);
    scheduler.add_observer(&*watcher);
  }
  std::optional<ProgressObserver> progress_observer;
  if (progress != nullptr) {
    progress_observer.emplace(*progress);
    scheduler.add_observer(&*progress_observer);
  }
  engine::RunLimits limits;
  limits.max_events = options.max_events;
  limits.max_time = options.max_time;
  return scheduler.run(program, limits);
}

Timelines::Timelines(const RunOptions& options, int index, std::size_t count, std::uint32_t lps,
                     const std::string& title, const std::string& track) {
  if (!options.chrome_trace.empty()) {
    chrome.emplace(event_log_name(options.chrome_trace, index, count), lps, title, track);
  }
  if (!options.paraver.empty()) {
    paraver.emplace(count > 1 ? fmt::format("{}.v{}", options.paraver, index) : options.paraver, lps,
                    std::size_t{1} << 20, track);
  }
}

std::vector<engine::Observer*> Timelines::observers() {
  std::vector<engine::Observer*> out;
  if (chrome) out.push_back(&*chrome);
  if (paraver) out.push_back(&*paraver);
  if (otf2) out.push_back(&*otf2);
  return out;
}

namespace {

/// The tools folder's lines around a variant: what it runs, then how it ended and its cost.
class VariantLog {
 public:
  VariantLog(const scenarios::Variant& variant, int index, std::size_t count) : index_(index), count_(count) {
    if (auto* lg = engine::logger_at(engine::Folder::tools, spdlog::level::info)) {
      std::string swept;
      for (const auto& [key, value] : variant.swept) swept += fmt::format(", {}={}", key, value);
      lg->info("variant {}/{}: {} on {}{}{}", index, count, variant.trace_path, variant.machine.name,
               variant.processors > 0 ? fmt::format(", {} processors", variant.processors) : std::string(), swept);
      start_ = std::chrono::steady_clock::now();
    }
  }
  void finished(const models::report::VariantResult& result) const {
    if (auto* lg = engine::logger_at(engine::Folder::tools, spdlog::level::info)) {
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start_;
      lg->info("variant {}/{}: {}, predicted {:.9f} s, {} events, {} warnings, {:.3f} ms of wall time", index_, count_,
               result.outcome, result.predicted_time_s, result.events, result.warnings.size(), wall.count() * 1e3);
    }
  }

 private:
  int index_;
  std::size_t count_;
  std::chrono::steady_clock::time_point start_{};
};

/// The result's fields every variant has before it runs.
models::report::VariantResult variant_result(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                             int index, const RunOptions& options) {
  models::report::VariantResult result;
  result.index = index;
  result.trace = variant.trace_path;
  result.machine_name = variant.machine.name;
  result.machine_model = variant.machine.model;
  if (options.machine_params) result.machine_params = variant.machine.params.describe();
  result.swept = variant.swept;
  result.collectives = scenario.model.collectives;
  return result;
}

/// One variant (run_variant without its log lines).
models::report::VariantResult run_variant_quietly(const scenarios::Scenario& scenario,
                                                  const scenarios::Variant& variant, int index, std::size_t count,
                                                  const machines::MachineRegistry& registry, const RunOptions& options,
                                                  Progress* progress) {
  models::report::VariantResult result = variant_result(scenario, variant, index, options);
  // The scenario loader accepts only the registry's names.
  const traces::TraceFormat& format = *traces::find_trace_format(scenario.trace_format);
  if (format.model == traces::ProgramModel::dvm)
    return run_dvm_variant(scenario, variant, index, count, registry, options, progress, std::move(result));
  return run_mp_variant(scenario, variant, index, count, registry, options, progress, format, std::move(result));
}

}  // namespace

models::report::VariantResult run_variant(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                          int index, std::size_t count, const machines::MachineRegistry& registry,
                                          const RunOptions& options, Progress* progress) {
  const VariantLog log(variant, index, count);
  models::report::VariantResult result =
      run_variant_quietly(scenario, variant, index, count, registry, options, progress);
  // A time that is not finite is no prediction: the run failed, whatever the scheduler said.
  if (!std::isfinite(result.predicted_time_s) && result.outcome != "error") {
    result.message = fmt::format(
        "the predicted time is not finite ({}): the machine's parameters or the trace's values are too large "
        "or too small for a time in seconds{}",
        result.predicted_time_s, result.message.empty() ? "" : "; " + result.message);
    result.outcome = "failed";
  }
  log.finished(result);
  return result;
}

std::vector<models::report::VariantResult> run_scenario(const scenarios::Scenario& scenario,
                                                        const machines::MachineRegistry& registry,
                                                        const RunOptions& options) {
  const std::vector<scenarios::Variant> variants = scenario.variants();
  std::vector<std::size_t> picked;  // positions in `variants` of the variants to run
  for (std::size_t i = options.shard; i < variants.size(); i += std::max<std::size_t>(1, options.shards))
    picked.push_back(i);
  std::vector<models::report::VariantResult> results(picked.size());
  const unsigned jobs = options.step_in != nullptr || options.monitor_paused ? 1u : std::max(1u, options.jobs);
  Progress progress;
  std::optional<ProgressPrinter> printer;
  if (options.progress != nullptr && options.step_in == nullptr)
    printer.emplace(*options.progress, progress, picked.size());
  Progress* shared = printer ? &progress : nullptr;
  const auto run = [&](std::size_t n) {
    const std::size_t i = picked[n];
    results[n] =
        run_variant(scenario, variants[i], static_cast<int>(i + 1), variants.size(), registry, options, shared);
  };
  if (jobs == 1 || picked.size() <= 1) {
    for (std::size_t n = 0; n < picked.size(); ++n) run(n);
    return results;
  }
  std::vector<std::exception_ptr> errors(picked.size());
  {
    boost::asio::thread_pool pool(std::min<std::size_t>(jobs, picked.size()));
    for (std::size_t n = 0; n < picked.size(); ++n) {
      boost::asio::post(pool, [&, n] {
        try {
          run(n);
        } catch (...) {
          errors[n] = std::current_exception();
        }
      });
    }
    pool.join();
  }
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);  // the first failing variant in order, as a serial run would
  }
  return results;
}

}  // namespace augur::tools
