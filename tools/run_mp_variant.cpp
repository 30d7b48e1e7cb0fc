// One message-passing variant: a trace or a program skeleton replayed by MpProgram, with the run
// statistics, the wait-state analyzer, the characteristics and the timelines the options ask for.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/analysis/mp_characteristics.hpp"
#include "models/analysis/wait_states.hpp"
#include "models/mp/mp_program.hpp"
#include "models/report/run_stats.hpp"
#include "scenarios/program_file.hpp"
#include "tools/variant_run.hpp"
#include "traces/skeleton/skeleton_trace.hpp"

namespace augur::tools {
namespace {

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

}  // namespace

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
  if (scenario.program && machine->node()) {  // bytes split by level: levels of this node (without one: not priced)
    std::vector<std::string> levels;
    for (const machines::MemoryLevel& level : machine->node()->levels) levels.push_back(level.name);
    traces::skeleton::check_memory_levels(*scenario.program, levels);
  }
  const std::unique_ptr<models::mp::MpProgram> program = make_mp_program(scenario, options, *trace, *machine);
  machine->record_link_usage();  // flow-level networks only: the others have no links

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
  if (!options.otf2.empty()) {
    std::vector<double> speeds(static_cast<std::size_t>(ranks));  // flops/s of each rank: the OTF2 flop counter
    for (int r = 0; r < ranks; ++r) speeds[static_cast<std::size_t>(r)] = 1e9 / machine->compute_time(r, 1e9);
    timelines.otf2.emplace(otf2_archive_name(options.otf2, index, count), static_cast<std::uint32_t>(ranks),
                           trace->communicators(), std::move(speeds));
  }
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
  result.links = machine->link_usage();
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

}  // namespace augur::tools
