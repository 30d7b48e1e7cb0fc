// What the runner's per-model variant runs share (internal to tools/): the machine, the observed
// run, the timelines and the wait-state results; runner.cpp picks run_dvm_variant or run_mp_variant.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/observer.hpp"
#include "engine/scheduler.hpp"
#include "machines/machine_model.hpp"
#include "machines/registry.hpp"
#include "models/report/report.hpp"
#include "models/report/timeline_chrome.hpp"
#include "models/report/timeline_otf2.hpp"
#include "models/report/timeline_paraver.hpp"
#include "scenarios/scenario.hpp"
#include "tools/runner.hpp"
#include "traces/trace_format.hpp"

namespace augur::tools {

/// The machine of `variant` for `processors` processors; a parameter error names the machine file.
std::unique_ptr<machines::MachineModel> make_machine(const scenarios::Variant& variant,
                                                     const machines::MachineRegistry& registry, int processors);

/// Runs `program` after adding the observers every run takes from the options (event log,
/// stepper, monitor, progress) behind the caller's own, with the options' limits.
engine::RunResult run_observed(engine::Scheduler& scheduler, engine::Program& program, const RunOptions& options,
                               Progress* progress, int index, std::size_t count, const std::string& what);

/// The timelines the options ask for (--chrome-trace, --paraver), one track per processor, and
/// --otf2, which run_mp_variant adds (it needs the trace's communicators and the machine's speeds).
struct Timelines {
  std::optional<models::report::ChromeTrace> chrome;
  std::optional<models::report::ParaverTrace> paraver;
  std::optional<models::report::Otf2Timeline> otf2;

  /// `track`: what an LP is called on its track ("rank", "processor").
  Timelines(const RunOptions& options, int index, std::size_t count, std::uint32_t lps, const std::string& title,
            const std::string& track);
  std::vector<engine::Observer*> observers();
};

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

/// A Lib-DVM trace on a processor grid (spec section 6): the DVM model on the engine, the
/// characteristics and wait-state observers, the timelines, Integrate. `result` holds the fields
/// every variant has (run_dvm_variant.cpp).
models::report::VariantResult run_dvm_variant(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                              int index, std::size_t count, const machines::MachineRegistry& registry,
                                              const RunOptions& options, Progress* progress,
                                              models::report::VariantResult result);

/// One message-passing variant: the trace (or the scenario's skeleton) replayed on the machine
/// with the observers the options ask for (statistics, wait states, characteristics, timelines)
/// (run_mp_variant.cpp).
models::report::VariantResult run_mp_variant(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                             int index, std::size_t count, const machines::MachineRegistry& registry,
                                             const RunOptions& options, Progress* progress,
                                             const traces::TraceFormat& format, models::report::VariantResult result);

}  // namespace augur::tools
