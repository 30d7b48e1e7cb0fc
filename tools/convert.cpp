// `augur convert FORMAT:PATH OUT_DIR`: a message-passing trace (OTF2, TI, synthetic) written as a
// SimGrid TI trace (traces/ti/ti_writer.hpp) that SimGrid's smpirun -replay and augur both read;
// `augur convert FORMAT:PATH otf2:DIR [--machine M]`: its predicted run as an OTF2 archive.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>
#include <stdexcept>
#include <string>

#include "scenarios/scenario.hpp"
#include "tools/cli.hpp"
#include "tools/cli_options.hpp"
#include "tools/runner.hpp"
#include "traces/ti/ti_writer.hpp"
#include "traces/trace_format.hpp"

namespace augur::tools {
namespace {

std::string yaml_text(const std::string& text) {
  std::string q = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

/// The trace replayed on the machine of --machine (the command line's default, platform_cluster_64),
/// its events written by the --otf2 timeline (models/report/timeline_otf2.hpp).
int convert_to_otf2(const CommandLine& cl, const std::string& spec, const std::string& dir,
                    const machines::MachineRegistry& registry, std::ostream& out, std::ostream& err) {
  std::string machine = "platform_cluster_64";
  std::vector<std::string> sets, origins;
  for (std::size_t i = 0; i < cl.sets.size(); ++i) {
    if (cl.sets[i].starts_with("machine=")) {
      machine = cl.sets[i].substr(8);
    } else {
      sets.push_back(cl.sets[i]);
      origins.push_back(cl.origins[i]);
    }
  }
  const std::string text =
      fmt::format("schema_version: 1\nname: convert\ntrace: {}\nmachine: {}\n", yaml_text(spec), yaml_text(machine));
  const scenarios::Scenario sc = scenarios::load_scenario_text(text, "(command line)", ".", registry, sets, origins);
  if (sc.variants().size() != 1) {
    err << "augur: error: convert: the trace and machine make " << sc.variants().size()
        << " variants: one predicted run is written\n";
    return exit_bad_input;
  }
  RunOptions opts;
  opts.otf2 = dir;
  opts.wait_states = false;
  opts.characteristics = CharacteristicsMode::off;
  opts.machine_params = false;
  const auto results = run_scenario(sc, registry, opts);
  const models::report::VariantResult& r = results.at(0);
  if (r.outcome == "error") {  // an input error found while replaying: "file:line: error: …"
    err << r.message << "\n";
    return exit_bad_input;
  }
  if (r.outcome != "completed") {
    err << "augur: error: convert: the run did not complete (" << r.outcome << "): " << r.message << "\n";
    return exit_run_failed;
  }
  out << fmt::format(
      "{}/traces.otf2: {} ranks, the run predicted on {} ({:.9f} s; replay with --trace otf2:{}/traces.otf2)\n", dir,
      r.processors, sc.variants()[0].machine.name, r.predicted_time_s, dir);
  return exit_ok;
}

}  // namespace

int convert_command(const CommandLine& cl, const machines::MachineRegistry& registry, std::ostream& out,
                    std::ostream& err) {
  if (cl.positional.size() != 2) {
    err << "augur: error: convert needs a trace and an output folder: augur convert FORMAT:PATH [otf2:]OUT_DIR\n";
    return exit_bad_input;
  }
  const std::string& spec = cl.positional[0];
  const auto colon = spec.find(':');
  const traces::TraceFormat* format =
      colon == std::string::npos ? nullptr : traces::find_trace_format(std::string_view(spec).substr(0, colon));
  if (format == nullptr || colon + 1 == spec.size()) {
    err << "augur: error: convert: '" << spec << "': expected FORMAT:PATH, FORMAT one of "
        << fmt::format("{}", fmt::join(traces::trace_format_names(), ", ")) << "\n";
    return exit_bad_input;
  }
  const std::string path = spec.substr(colon + 1);
  const traces::TraceFormat& known = *format;
  if (known.model != traces::ProgramModel::message_passing || known.open == nullptr) {
    err << "augur: error: convert: a " << known.name
        << " trace is no message-passing trace: only ti, otf2 and synthetic traces convert to TI or OTF2\n";
    return exit_bad_input;
  }
  const std::string& target = cl.positional[1];
  if (target.starts_with("otf2:") && target.size() > 5)
    return convert_to_otf2(cl, spec, target.substr(5), registry, out, err);
  if (!cl.sets.empty()) {
    err << "augur: error: convert: " << cl.origins[0] << " is for an otf2:DIR output (a predicted run)\n";
    return exit_bad_input;
  }
  const auto source = known.open(path);
  const std::string folder = target.starts_with("ti:") ? target.substr(3) : target;
  const std::uint64_t records = traces::ti::write_ti_trace(*source, folder);
  out << fmt::format("{}/trace.txt: {} ranks, {} records (SimGrid TI; replay with --trace ti:{}/trace.txt)\n", folder,
                     source->rank_count(), records, folder);
  return exit_ok;
}

}  // namespace augur::tools
