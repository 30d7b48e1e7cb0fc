// Variant execution: the only place that wires traces, machines, models and the engine together.
#include "tools/runner.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <fmt/format.h>

#include <exception>
#include <memory>
#include <mutex>
#include <optional>

#include "engine/event_log.hpp"
#include "engine/scheduler.hpp"
#include "engine/stepper.hpp"
#include "models/analysis/wait_states.hpp"
#include "models/mp/mp_program.hpp"
#include "models/report/timeline_chrome.hpp"
#include "models/report/timeline_paraver.hpp"
#include "scenarios/config_error.hpp"
#include "traces/synthetic/synthetic_trace.hpp"
#include "traces/ti/ti_trace.hpp"

namespace augur::tools {

std::string event_log_name(const std::string& base, int index, std::size_t count) {
  if (count <= 1 || base.empty()) return base;
  const auto slash = base.find_last_of('/');
  const auto dot = base.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return fmt::format("{}.v{}", base, index);
  return fmt::format("{}.v{}{}", base.substr(0, dot), index, base.substr(dot));
}

models::report::VariantResult run_variant(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                          int index, const machines::MachineRegistry& registry,
                                          const RunOptions& options) {
  models::report::VariantResult result;
  result.index = index;
  result.trace = variant.trace_path;
  result.machine_name = variant.machine.name;
  result.machine_model = variant.machine.model;
  result.machine_params = variant.machine.params.describe();
  result.swept = variant.swept;
  result.collectives = scenario.model.collectives;

  // "synthetic:P=..,I=..": the issue-4 benchmark workload generated on the fly (no files). While
  // the scenario loader does not list that format, "ti:synthetic:P=..,I=.." reaches here too.
  const bool synthetic = scenario.trace_format == "synthetic" ||
                         (scenario.trace_format == "ti" && variant.trace_path.starts_with("synthetic:"));
  if (scenario.trace_format != "ti" && !synthetic) {
    throw InputError(fmt::format("{}: error: trace format '{}' is not supported yet (supported: ti, synthetic)",
                                 scenario.file.empty() ? std::string("--trace") : scenario.file, scenario.trace_format));
  }
  std::unique_ptr<traces::MpTraceSource> trace =
      !synthetic ? traces::ti::open_ti_trace(variant.trace_path)
                 : traces::synthetic::make_synthetic_trace(traces::synthetic::parse_synthetic_spec(
                       scenario.trace_format == "synthetic" ? std::string_view(variant.trace_path)
                                                            : std::string_view(variant.trace_path).substr(10)));
  const int ranks = trace->rank_count();
  if (variant.processors != 0 && variant.processors != ranks) {
    throw InputError(fmt::format(
        "{}: error: the trace has {} ranks but the variant asks for {} processors (a TI trace fixes the process "
        "count: put {{P}} in the trace path to pick one trace per processor count)",
        variant.trace_path, ranks, variant.processors));
  }
  result.processors = ranks;
  const machines::MachineModelInfo& info = registry.get(variant.machine.model);
  std::unique_ptr<machines::MachineModel> machine;
  try {
    machine = info.create(variant.machine.params, ranks);
  } catch (const machines::ParamError& e) {
    throw InputError(fmt::format("{}: error: {}", variant.machine.source.empty() ? variant.machine.name : variant.machine.source,
                                 e.what()));
  }

  models::mp::MpOptions mp;
  mp.collectives = scenario.model.collectives;
  for (const auto& [kind, algo] : scenario.model.algorithms) {
    if (auto k = engine::collective_kind_from_string(kind)) mp.algorithms[*k] = algo;
  }
  mp.eager_at_match = scenario.model.eager_transfer != "send";
  std::unique_ptr<models::mp::MpProgram> program;
  try {
    program = std::make_unique<models::mp::MpProgram>(*trace, *machine, mp);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("{}: error: {}", scenario.file.empty() ? std::string("--set") : scenario.file, e.what()));
  }

  engine::Scheduler scheduler(static_cast<std::uint32_t>(ranks));
  models::report::RunStats stats(static_cast<std::uint32_t>(ranks));
  scheduler.add_observer(&stats);
  models::analysis::WaitStateAnalyzer waits(static_cast<std::uint32_t>(ranks));
  scheduler.add_observer(&waits);
  std::optional<engine::EventLog> log;
  if (!options.event_log.empty()) {
    log.emplace(event_log_name(options.event_log, index, scenario.variants().size()));
    scheduler.add_observer(&*log);
  }
  const std::size_t variant_count = scenario.variants().size();
  std::optional<models::report::ChromeTrace> chrome;
  if (!options.chrome_trace.empty()) {
    chrome.emplace(event_log_name(options.chrome_trace, index, variant_count), static_cast<std::uint32_t>(ranks),
                   fmt::format("augur: {} on {}", variant.trace_path, variant.machine.name));
    scheduler.add_observer(&*chrome);
  }
  std::optional<models::report::ParaverTrace> paraver;
  if (!options.paraver.empty()) {
    paraver.emplace(variant_count > 1 ? fmt::format("{}.v{}", options.paraver, index) : options.paraver,
                    static_cast<std::uint32_t>(ranks));
    scheduler.add_observer(&*paraver);
  }
  std::optional<engine::Stepper> stepper;
  if (options.step_in != nullptr && options.step_out != nullptr) {
    stepper.emplace(scheduler, *program, *options.step_in, *options.step_out);
    scheduler.add_observer(&*stepper);
  }
  engine::RunLimits limits;
  limits.max_events = options.max_events;
  limits.max_time = options.max_time;
  const engine::RunResult run = scheduler.run(*program, limits);
  if (run.outcome == engine::RunOutcome::completed) program->check_end_state();

  result.outcome = engine::to_string(run.outcome);
  result.message = run.message;
  result.predicted_time_s = run.end_time;
  result.events = run.events;
  result.lps = stats.lps();
  result.waits = waits.lps();
  result.waits_by_operation = waits.by_operation();
  result.explained_by_operation = waits.explained_by_operation();
  result.causes = waits.causes();
  result.warnings = program->warnings();
  return result;
}

std::vector<models::report::VariantResult> run_scenario(const scenarios::Scenario& scenario,
                                                        const machines::MachineRegistry& registry,
                                                        const RunOptions& options) {
  const std::vector<scenarios::Variant> variants = scenario.variants();
  std::vector<models::report::VariantResult> results(variants.size());
  const unsigned jobs = options.step_in != nullptr ? 1u : std::max(1u, options.jobs);
  if (jobs == 1 || variants.size() <= 1) {
    for (std::size_t i = 0; i < variants.size(); ++i) {
      results[i] = run_variant(scenario, variants[i], static_cast<int>(i + 1), registry, options);
    }
    return results;
  }
  std::vector<std::exception_ptr> errors(variants.size());
  {
    boost::asio::thread_pool pool(std::min<std::size_t>(jobs, variants.size()));
    for (std::size_t i = 0; i < variants.size(); ++i) {
      boost::asio::post(pool, [&, i] {
        try {
          results[i] = run_variant(scenario, variants[i], static_cast<int>(i + 1), registry, options);
        } catch (...) {
          errors[i] = std::current_exception();
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
