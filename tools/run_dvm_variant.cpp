// One Lib-DVM variant (spec section 6): DvmProgram on the engine with the DVM characteristics and
// wait states, the timelines through DvmPlainEvents, and Predictor 3.1's Integrate.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/analysis/characteristics.hpp"
#include "models/analysis/dvm_characteristics.hpp"
#include "models/analysis/dvm_wait_states.hpp"
#include "models/dvm/dvm_plain_events.hpp"
#include "models/dvm/dvm_program.hpp"
#include "traces/libdvm/dvm_trace_reader.hpp"
#include "tools/variant_run.hpp"

namespace augur::tools {

namespace {

/// The processor grid of a DVM run: the variant's, else the machine's topology, else 1-D.
std::vector<int> dvm_grid(const scenarios::Variant& variant) {
  if (!variant.grid.empty()) return variant.grid;
  if (!variant.machine.topology.empty()) return variant.machine.topology;
  return {variant.processors > 0 ? variant.processors : 1};
}

}  // namespace

models::report::VariantResult run_dvm_variant(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                              int index, std::size_t count, const machines::MachineRegistry& registry,
                                              const RunOptions& options, Progress* progress,
                                              models::report::VariantResult result) {
  const std::vector<int> grid = dvm_grid(variant);
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
  machine->record_link_usage();  // flow-level networks only: the others have no links
  engine::Scheduler scheduler(static_cast<std::uint32_t>(processors));
  // `augur predict` on 3.1's machines sums the model's durations, as 3.1's AddTime does (its
  // `-0.0000` load imbalances); the seed's pricing and `augur run` sum clock differences.
  models::analysis::DvmCharacteristics characteristics(*tree, static_cast<std::uint32_t>(processors),
                                                       predictor31 && options.dvm_quirks);
  scheduler.add_observer(&characteristics);
  // Wait states and root causes (spec section 9): regions are the statements by the trace's
  // FILE= and LINE= of the call each processor is replaying.
  std::optional<models::analysis::DvmWaitStates> waits;
  if (options.wait_states) {
    waits.emplace(static_cast<std::uint32_t>(processors), program.statements(),
                  [&program](std::uint32_t file) { return std::string(program.source_file(file)); });
    scheduler.add_observer(&*waits);
  }
  if (!options.otf2.empty())
    throw InputError(
        fmt::format("--otf2: error: OTF2 archives are written for message-passing runs only ({} is a "
                    "Lib-DVM trace)",
                    variant.trace_path));
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
  result.links = machine->link_usage();
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

}  // namespace augur::tools
