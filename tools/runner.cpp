// Variant execution: the only place that wires traces, machines, models and the engine together.
#include "tools/runner.hpp"

#include "models/analysis/dvm_characteristics.hpp"
#include "models/analysis/dvm_wait_states.hpp"
#include "models/dvm/dvm_plain_events.hpp"
#include "models/dvm/dvm_program.hpp"
#include "traces/libdvm/dvm_trace_reader.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <fmt/compile.h>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>

#include "engine/event_log.hpp"
#include "engine/log.hpp"
#include "engine/scheduler.hpp"
#include "engine/stepper.hpp"
#include "models/analysis/mp_characteristics.hpp"
#include "models/analysis/wait_states.hpp"
#include "models/mp/mp_program.hpp"
#include "models/report/timeline_chrome.hpp"
#include "models/report/timeline_paraver.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/program_file.hpp"
#include "tools/monitor/watcher.hpp"
#include "traces/skeleton/skeleton_trace.hpp"
#include "traces/trace_format.hpp"

namespace augur::tools {
namespace {

/// Moves a wait-state analyzer's results (WaitStateAnalyzer or DvmWaitStates) into `result`;
/// without one (--wait-states off), says so in a warning.
template <class Analyzer>
void take_wait_states(std::optional<Analyzer>& waits, models::report::VariantResult& result) {
  if (!waits) {
    result.wait_states = false;
    result.warnings.emplace_back("wait states, root causes and advice not computed (--wait-states off)");
    return;
  }
  result.waits = waits->take_lps();
  result.waits_by_operation = waits->by_operation();
  result.explained_by_operation = waits->explained_by_operation();
  result.causes = waits->causes();
  result.wait_sites = waits->sites();
}

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

namespace {

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

/// The timelines the options ask for (--chrome-trace, --paraver), one track per processor.
struct Timelines {
  std::optional<models::report::ChromeTrace> chrome;
  std::optional<models::report::ParaverTrace> paraver;

  /// `track`: what an LP is called on its track ("rank", "processor").
  Timelines(const RunOptions& options, int index, std::size_t count, std::uint32_t lps, const std::string& title,
            const std::string& track) {
    if (!options.chrome_trace.empty()) {
      chrome.emplace(event_log_name(options.chrome_trace, index, count), lps, title, track);
    }
    if (!options.paraver.empty()) {
      paraver.emplace(count > 1 ? fmt::format("{}.v{}", options.paraver, index) : options.paraver, lps,
                      std::size_t{1} << 20, track);
    }
  }
  std::vector<engine::Observer*> observers() {
    std::vector<engine::Observer*> out;
    if (chrome) out.push_back(&*chrome);
    if (paraver) out.push_back(&*paraver);
    return out;
  }
};

/// A Lib-DVM trace on a processor grid (spec section 6): the DVM model on the engine, the
/// characteristics and wait-state observers, the timelines, Integrate.
models::report::VariantResult run_dvm_variant(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                              int index, std::size_t count, const machines::MachineRegistry& registry,
                                              const RunOptions& options, Progress* progress,
                                              models::report::VariantResult result) {
  std::vector<int> grid = variant.grid;
  if (grid.empty()) grid = variant.machine.topology;
  if (grid.empty()) grid = {variant.processors > 0 ? variant.processors : 1};
  int processors = 1;
  for (int d : grid) processors *= d;
  result.processors = processors;
  result.grid = scenarios::grid_name(grid);
  result.collectives = "dvm";
  traces::libdvm::DvmTraceReader reader(variant.trace_path);
  const std::unique_ptr<machines::MachineModel> machine = make_machine(variant, registry, processors);
  models::dvm::DvmOptions dvm;
  dvm.grid = grid;
  // Cluster machines (Predictor 3.1's .par files) get 3.1's pricing and block arithmetic; the
  // seed's machines (bus, transputer grid) and the others the seed's pricing.
  const bool predictor31 = variant.machine.model == "dvm_cluster";
  dvm.cost = predictor31 ? models::dvm::CostStyle::predictor31 : models::dvm::CostStyle::seed;
  dvm.fidelity = models::dvm::Fidelity::predictor;
  dvm.quirks = options.dvm_quirks;
  auto tree = std::make_shared<models::analysis::IntervalTree>(processors);
  models::dvm::DvmProgram program(reader, *machine, *tree, dvm);
  engine::Scheduler scheduler(static_cast<std::uint32_t>(processors));
  models::analysis::DvmCharacteristics characteristics(*tree, static_cast<std::uint32_t>(processors));
  scheduler.add_observer(&characteristics);
  // Wait states and root causes (spec section 9): regions are the statements by the trace's
  // FILE= and LINE= of the call each processor is replaying.
  std::optional<models::analysis::DvmWaitStates> waits;
  if (options.wait_states) {
    waits.emplace(static_cast<std::uint32_t>(processors), program.statements(),
                  [&program](std::uint32_t file) { return std::string(program.source_file(file)); });
    scheduler.add_observer(&*waits);
  }
  // The timelines read the engine's plain event contract: DvmPlainEvents translates.
  Timelines timelines(
      options, index, count, static_cast<std::uint32_t>(processors),
      fmt::format(FMT_COMPILE("augur: {} on {} (grid {})"), variant.trace_path, variant.machine.name, result.grid),
      "processor");
  std::optional<models::dvm::DvmPlainEvents> plain;
  if (!timelines.observers().empty()) {
    plain.emplace(timelines.observers());
    scheduler.add_observer(&*plain);
  }
  const engine::RunResult run = run_observed(scheduler, program, options, progress, index, count,
                                             fmt::format("{}:{} on {}, grid {}", scenario.trace_format,
                                                         variant.trace_path, variant.machine.name, result.grid));
  program.close_intervals();
  // Main takes the line and file of the trace's first event line, preamble included, as in
  // Predictor 3.1 (TraceLine::first_line_number): jac1d.ptr's call_mps_Barrier, LINE=25.
  if (!reader.preamble().first_source_file.empty()) {
    tree->root().source_file = reader.preamble().first_source_file;
    tree->root().source_line = static_cast<int>(reader.preamble().first_source_line);
  }
  tree->integrate(models::analysis::IntegrateRule::predictor);
  result.outcome = engine::to_string(run.outcome);
  result.message = run.message;
  result.predicted_time_s = run.end_time;
  result.events = run.events;
  result.interval_root = program.report_root();
  result.report_grid = scenarios::grid_name(program.root_extents());
  result.differences = program.differences();
  result.intervals = std::move(tree);
  result.intervals_rule = models::analysis::IntegrateRule::predictor;
  result.wait_operations = models::report::WaitOperations::dvm;
  result.warnings = reader.warnings();
  for (const auto& w : program.warnings()) result.warnings.push_back(w);
  take_wait_states(waits, result);
  if (progress != nullptr) progress->done.fetch_add(1);
  return result;
}

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

/// The scenario's skeleton expanded for the variant: its processors, its fixed parameter values,
/// then its swept ones.
std::unique_ptr<traces::MpTraceSource> open_program(const scenarios::Scenario& scenario,
                                                    const scenarios::Variant& variant) {
  if (variant.processors == 0) {
    throw InputError(
        fmt::format("{}: error: a program skeleton runs on any process count: give one (processors:, "
                    "--processors)",
                    variant.trace_path));
  }
  std::vector<std::pair<std::string, double>> values;
  for (const auto& [name, text] : scenario.program_values)
    values.emplace_back(name, scenarios::program_value(text, scenario.file, "program." + name));
  for (const auto& [key, text] : variant.swept) {
    if (key.starts_with("program."))
      values.emplace_back(key.substr(8), scenarios::program_value(text, scenario.file, key));
  }
  return traces::skeleton::make_skeleton_trace(scenario.program, variant.processors, values);
}

/// The message-passing program of `trace` on `machine` with the scenario's model options.
std::unique_ptr<models::mp::MpProgram> make_mp_program(const scenarios::Scenario& scenario, const RunOptions& options,
                                                       traces::MpTraceSource& trace, machines::MachineModel& machine) {
  models::mp::MpOptions mp;
  mp.collectives = scenario.model.collectives;
  for (const auto& [kind, algo] : scenario.model.algorithms) {
    if (auto k = engine::collective_kind_from_string(kind)) mp.algorithms[*k] = algo;
  }
  mp.eager_at_match = scenario.model.eager_transfer != "send";
  mp.flag_wrong_order = options.wait_states;  // only the wait-state analysis reads the flag
  try {
    return std::make_unique<models::mp::MpProgram>(trace, machine, mp);
  } catch (const std::invalid_argument& e) {
    throw InputError(
        fmt::format("{}: error: {}", scenario.file.empty() ? std::string("--set") : scenario.file, e.what()));
  }
}

/// The wait-state analyzer of a message-passing run, observing `scheduler`. Above
/// WaitStateAnalyzer::history_limit ranks it keeps a shorter history per rank unless
/// --characteristics on asks for the full analysis.
void attach_wait_states(std::optional<models::analysis::WaitStateAnalyzer>& waits, engine::Scheduler& scheduler,
                        const models::mp::MpProgram& program, const traces::MpTraceSource& trace, int ranks,
                        const RunOptions& options) {
  const bool full_history = options.characteristics == CharacteristicsMode::on;
  waits.emplace(static_cast<std::uint32_t>(ranks),
                models::analysis::WaitStateAnalyzer::history_for(static_cast<std::uint32_t>(ranks), full_history));
  // Root causes inside TI `location` regions are named FILE:LINE: the analyzer asks for the file
  // when a rank enters a region, while the program's current region is still that one.
  waits->set_location_namer([prog = &program](engine::LpId lp, std::int32_t) {
    const auto* r = prog->current_region(lp);
    return r != nullptr ? std::string_view(r->file) : std::string_view();
  });
  waits->set_communicators(trace.communicators());
  scheduler.add_observer(&*waits);
}

/// The options of the characteristics (spec section 8) of a message-passing run. Regions: TI
/// `location FILE LINE` actions (MpProgram's interval events carry the line); phases are named
/// by rank 0's collective calls.
models::analysis::MpCharacteristicsOptions characteristics_options(const scenarios::Variant& variant,
                                                                   const models::mp::MpProgram& program,
                                                                   const traces::MpTraceSource& trace) {
  models::analysis::MpCharacteristicsOptions analysis;
  analysis.source = variant.trace_path;
  analysis.namer = [prog = &program](engine::LpId lp, std::int32_t tag) {
    const auto* r = prog->current_region(lp);
    return r != nullptr ? std::pair<std::string, int>{r->file, static_cast<int>(r->line)}
                        : std::pair<std::string, int>{std::string(), tag};
  };
  // Phases are named by rank 0's calls where they are in the trace: the line of the record it is
  // executing when it enters one (no second pass over the trace).
  analysis.call_line = [prog = &program](engine::LpId lp) { return prog->current_line(lp); };
  analysis.call_file = std::filesystem::path(trace.file_name(0)).filename().string();
  return analysis;
}

/// The warning of a wait-state analysis that kept a shorter history than the full one.
std::optional<std::string> short_history_warning(const models::analysis::WaitStateAnalyzer& waits, int ranks) {
  using Analyzer = models::analysis::WaitStateAnalyzer;
  if (waits.history() >= Analyzer::full_history) return std::nullopt;
  return fmt::format(
      "wait states: each rank kept its last {} computation phases, synchronisation points and waits instead of {} "
      "({} ranks are more than {}; about {} instead of {} bytes per rank): indirect waits and root causes looking "
      "further back are not counted (--characteristics on keeps {})",
      waits.history(), Analyzer::full_history, ranks, Analyzer::history_limit, Analyzer::history_bytes(waits.history()),
      Analyzer::history_bytes(Analyzer::full_history), Analyzer::full_history);
}

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

/// One message-passing variant: the trace replayed on the machine with the observers the
/// options ask for (statistics, wait states, characteristics, timelines).
models::report::VariantResult run_mp_variant(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                             int index, std::size_t count, const machines::MachineRegistry& registry,
                                             const RunOptions& options, Progress* progress,
                                             const traces::TraceFormat& format, models::report::VariantResult result) {
  const std::unique_ptr<traces::MpTraceSource> trace =
      scenario.program ? open_program(scenario, variant) : format.open(variant.trace_path);
  const int ranks = trace->rank_count();
  if (variant.processors != 0 && variant.processors != ranks) {
    throw InputError(fmt::format(
        "{}: error: the trace has {} ranks but the variant asks for {} processors (a TI trace fixes the process "
        "count: put {{P}} in the trace path to pick one trace per processor count)",
        variant.trace_path, ranks, variant.processors));
  }
  result.processors = ranks;
  const std::unique_ptr<machines::MachineModel> machine = make_machine(variant, registry, ranks);
  const std::unique_ptr<models::mp::MpProgram> program = make_mp_program(scenario, options, *trace, *machine);

  engine::Scheduler scheduler(static_cast<std::uint32_t>(ranks));
  models::report::RunStats stats(static_cast<std::uint32_t>(ranks));
  scheduler.add_observer(&stats);
  std::optional<models::analysis::WaitStateAnalyzer> waits;
  if (options.wait_states) attach_wait_states(waits, scheduler, *program, *trace, ranks, options);
  const bool characterise =
      options.characteristics == CharacteristicsMode::on ||
      (options.characteristics == CharacteristicsMode::automatic && ranks <= characteristics_limit);
  std::optional<models::analysis::MpCharacteristics> characteristics;
  if (characterise) {
    characteristics.emplace(static_cast<std::uint32_t>(ranks), characteristics_options(variant, *program, *trace));
    scheduler.add_observer(&*characteristics);
  }
  Timelines timelines(options, index, count, static_cast<std::uint32_t>(ranks),
                      fmt::format(FMT_COMPILE("augur: {} on {}"), variant.trace_path, variant.machine.name), "rank");
  for (engine::Observer* o : timelines.observers()) scheduler.add_observer(o);
  const engine::RunResult run = run_observed(
      scheduler, *program, options, progress, index, count,
      fmt::format("{}:{} on {}, {} ranks", scenario.trace_format, variant.trace_path, variant.machine.name, ranks));
  if (run.outcome == engine::RunOutcome::completed) program->check_end_state();

  result.outcome = engine::to_string(run.outcome);
  result.message = run.message;
  result.predicted_time_s = run.end_time;
  result.events = run.events;
  // Per-LP results are moved, not copied, and the analyzer's history freed first: the end of
  // the run is where the memory peaks.
  if (waits) waits->release_history();
  result.lps = stats.take_lps();
  result.warnings = program->warnings();
  if (scenario.program && run.outcome == engine::RunOutcome::completed)  // seed 002's closed forms, beside the run
    result.static_estimate = std::make_shared<models::report::StaticEstimate>(
        models::report::static_estimate(*open_program(scenario, variant), *machine));
  take_wait_states(waits, result);
  if (waits) {
    if (auto w = short_history_warning(*waits, ranks)) result.warnings.push_back(std::move(*w));
  }
  if (characteristics) {
    result.intervals = std::make_shared<models::analysis::IntervalTree>(std::move(characteristics->tree()));
    result.intervals_rule = models::analysis::IntegrateRule::complete;
  } else if (options.characteristics == CharacteristicsMode::automatic) {
    result.warnings.push_back(
        fmt::format("characteristics not computed: {} processors are more than {} (about 230 bytes "
                    "each; --characteristics on computes them)",
                    ranks, characteristics_limit));
  }
  if (progress != nullptr) progress->done.fetch_add(1);
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
