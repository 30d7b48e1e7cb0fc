// Scenarios (spec section 11) and machine descriptions (YAML) turned into plain structs.
// This folder is the only code that includes yaml-cpp.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "machines/param.hpp"
#include "machines/registry.hpp"

namespace augur::traces::skeleton {
struct Program;
}

namespace augur::scenarios {

/// A machine: the model name and its validated parameters.
struct MachineDescription {
  std::string name;         ///< library name or file stem ("platform_cluster_64"), or "inline"
  std::string source;       ///< file it came from ("" for inline / command line)
  std::string model;        ///< registry name ("loggp_smp")
  std::string description;  ///< optional free text
  machines::ParamSet params;
  /// The processor grid a legacy Predictor.par file suggests (`topology = {d1, d2};`), empty
  /// otherwise; a grid given on the command line or in the scenario takes precedence.
  std::vector<int> topology;
};

/// Options of the program model (the `model:` section).
struct ModelOptions {
  /// "default" (SimGrid 3.32's algorithms, expanded into messages) or "analytic" (the machine
  /// model's formulas) — or an algorithm name applied where it exists.
  std::string collectives = "default";
  /// Per-kind algorithm overrides, e.g. {"bcast": "binomial"} (key: CollectiveKind name).
  std::map<std::string, std::string> algorithms;
  /// When an eager message starts to move: "match" (when the receive is posted, SimGrid's
  /// replay) or "send" (at once, classic eager).
  std::string eager_transfer = "match";
};

/// Output files asked for by the scenario (paths relative to the working directory).
struct Outputs {
  std::string json;
  std::string text;
  std::string event_log;
};

/// One run: a processor count and one value per swept parameter.
struct Variant {
  int processors = 0;
  std::vector<int> grid;                                   ///< DVM: the processor grid ({} = 1-D of `processors`)
  std::string trace_path;                                  ///< with {P} substituted
  std::vector<std::pair<std::string, std::string>> swept;  ///< ("machine.latency", "10us"), ("machine", "dvm_mvs")
  MachineDescription machine;  ///< the swept machine or the scenario's, with the swept values applied
};

/// A loaded scenario.
struct Scenario {
  std::string file;  ///< the scenario file ("" when built from the command line)
  std::string name;
  std::string trace_format = "ti";
  std::string trace_path;      ///< may contain {P}: replaced by the processor count
  MachineDescription machine;  ///< with a `machine` sweep axis: a copy of its first machine
  /// The machines of the `machine` sweep axis (`sweep: {machine: [a, b]}`), resolved, with the
  /// scenario's overrides applied, in axis order; `sweep` holds ("machine", their names) at the
  /// axis's position. Empty without that axis.
  std::vector<MachineDescription> swept_machines;
  std::vector<int> processors;          ///< empty: the trace's rank count
  std::vector<std::vector<int>> grids;  ///< DVM processor grids ("2x2"); when given, they replace `processors`
  std::vector<std::pair<std::string, std::vector<std::string>>> sweep;  ///< key → values
  ModelOptions model;
  Outputs outputs;
  /// The skeleton when trace_format is "program" (`program:`, --program), loaded with the scenario;
  /// its fixed parameter values (`parameters:`, `--set program.N=64`) as written; sweep axes
  /// `program.<parameter>` vary the others.
  std::shared_ptr<const traces::skeleton::Program> program;
  std::vector<std::pair<std::string, std::string>> program_values;

  /// Every variant: processors × the cartesian product of the sweep axes, in file order.
  /// Throws ConfigError for a sweep value the machine rejects.
  std::vector<Variant> variants() const;
};

/// Folder of the bundled machine library (machines/library), found next to the executable's
/// source tree or from $AUGUR_MACHINE_PATH.
std::string machine_library_dir();
/// The bundled default scenario file (scenarios/examples/default.yaml, or
/// $AUGUR_DEFAULT_SCENARIO when set).
std::string default_scenario_path();

/// Parses a processor grid: "2x2", "4", "2 2" (every size ≥ 1). Returns an error message or "".
std::string parse_grid(const std::string& text, std::vector<int>& grid);
/// "2x2" for {2, 2}.
std::string grid_name(const std::vector<int>& grid);

/// Loads a machine file: YAML, a legacy Predictor.par (extension `.par`, or content that is
/// `key = value;` statements rather than YAML; scenarios/predictor_par.hpp), or a SimGrid platform
/// file (extension `.xml`, or content starting `<?xml` or `<platform`). Throws ConfigError.
MachineDescription load_machine_file(const std::string& path, const machines::MachineRegistry& registry);
/// A SimGrid platform file (`text` its content) as a simgrid_platform machine, with the options
/// of its <config> applied. Throws ConfigError at the line of the first mistake.
MachineDescription load_platform(const std::string& path, const std::string& text,
                                 const machines::MachineRegistry& registry);
/// Resolves `ref`: a library name ("platform_cluster_64"), or a path to a YAML or .par file.
MachineDescription resolve_machine(const std::string& ref, const machines::MachineRegistry& registry);

/// Loads a scenario file and applies `--set key=value` overrides (in order). Relative trace and
/// machine paths are resolved against the scenario file's folder. Throws ConfigError. An error of
/// override i is reported as the file `origins[i]` when given (the option that made it:
/// "--processors"), else as "--set".
Scenario load_scenario_file(const std::string& path, const machines::MachineRegistry& registry,
                            const std::vector<std::string>& overrides = {},
                            const std::vector<std::string>& origins = {});
/// Same, from text (`file` names it in errors; relative paths resolve against `base_dir`).
Scenario load_scenario_text(const std::string& text, const std::string& file, const std::string& base_dir,
                            const machines::MachineRegistry& registry, const std::vector<std::string>& overrides = {},
                            const std::vector<std::string>& origins = {});
/// Applies one `key=value` override to a scenario (keys: trace, machine, processors,
/// machine.<param>, model.collectives, model.algorithms.<kind>, model.eager_transfer,
/// outputs.json, sweep.machine, sweep.<key>, program, program.<parameter>). Throws ConfigError with
/// file "--set".
void apply_override(Scenario& scenario, const std::string& assignment, const machines::MachineRegistry& registry);

}  // namespace augur::scenarios
