// The subcommands (run, step, check, info, and predict: the DVM
// Predictor's own command line). Every input error is printed as "file:line[:col]: error: message"
// and gives exit status 2.
#include "tools/cli.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "engine/log.hpp"
#include "engine/output_file.hpp"
#include "machines/registry.hpp"
#include "models/mp/collectives.hpp"
#include "models/report/html_report.hpp"
#include "models/report/interval_report.hpp"
#include "models/report/report.hpp"
#include "models/report/summary.hpp"
#include "models/report/sweep_table.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/scenario.hpp"
#include "tools/checks.hpp"
#include "tools/cli_options.hpp"
#include "tools/help.hpp"
#include "tools/merge.hpp"
#include "tools/monitor/server.hpp"
#include "tools/runner.hpp"
#include "traces/trace_error.hpp"
#include "traces/trace_format.hpp"

namespace augur::tools {
namespace {

// A YAML double-quoted scalar holding `text` exactly.
std::string yaml_quote(const std::string& text) {
  std::string q = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

bool has_set(const CommandLine& cl, const std::string& key) {
  for (const auto& s : cl.sets) {
    if (s.rfind(key + "=", 0) == 0) return true;
  }
  return false;
}

/// A scenario of the command line alone: its lines 3 and 4 hold the trace and the machine, and
/// their errors are the options' (`names` = the options or arguments that gave them).
scenarios::Scenario load_command_line(const char* name, const std::string& trace, const std::string& machine,
                                      const std::array<const char*, 2>& names,
                                      const machines::MachineRegistry& registry, const std::vector<std::string>& sets,
                                      const std::vector<std::string>& origins) {
  const std::string text = fmt::format(FMT_COMPILE("schema_version: 1\nname: {}\ntrace: {}\nmachine: {}\n"), name,
                                       yaml_quote(trace), yaml_quote(machine));
  try {
    return scenarios::load_scenario_text(text, "(command line)", ".", registry, sets, origins);
  } catch (const scenarios::ConfigError& e) {
    if (e.file() != "(command line)" || (e.line() != 3 && e.line() != 4)) throw;
    throw scenarios::ConfigError(names[static_cast<std::size_t>(e.line() - 3)], 0, 0, e.message());
  }
}

scenarios::Scenario load(const CommandLine& cl, const machines::MachineRegistry& registry) {
  if (!cl.scenario.empty()) return scenarios::load_scenario_file(cl.scenario, registry, cl.sets, cl.origins);
  if (!has_set(cl, "trace"))
    return scenarios::load_scenario_file(scenarios::default_scenario_path(), registry, cl.sets, cl.origins);
  // A scenario made of command-line options only: the cluster machine unless --machine says otherwise.
  std::string trace, machine = "platform_cluster_64";
  std::vector<std::string> rest, rest_origins;
  for (std::size_t i = 0; i < cl.sets.size(); ++i) {
    const std::string& s = cl.sets[i];
    if (s.rfind("trace=", 0) == 0) {
      trace = s.substr(6);
    } else if (s.rfind("machine=", 0) == 0) {
      machine = s.substr(8);
    } else {
      rest.push_back(s);
      rest_origins.push_back(cl.origins[i]);
    }
  }
  return load_command_line("command line", trace, machine, {"--trace", "--machine"}, registry, rest, rest_origins);
}

void info_formats(std::ostream& out) {
  out << "trace formats:\n";
  for (const traces::TraceFormat& f : traces::trace_formats()) {
    std::string help(f.help);
    for (std::size_t at = help.find('\n'); at != std::string::npos; at = help.find('\n', at + 1))
      help.insert(at + 1, 12, ' ');
    out << fmt::format("  {:<9} {}\n", f.name, help);
  }
  out << "machine files: YAML (schema_version 1), see machines/README.md\n"
         "scenario files: YAML (schema_version 1), see scenarios/README.md\n"
         "outputs of augur run:\n"
         "  text (stdout or --text), JSON (--json), HTML (--html: one self-contained page with plots),\n"
         "  sweep table as CSV (--csv) and JSON (--sweep-json), event log (--event-log),\n"
         "  timelines: Chrome trace-event JSON (--chrome-trace), Paraver .prv/.pcf/.row (--paraver),\n"
         "  OTF2 archive of a message-passing run (--otf2)\n";
}

void info_collectives(std::ostream& out) {
  out << "collective algorithms (model.collectives / model.algorithms.<kind>):\n";
  for (int k = 0; k <= static_cast<int>(engine::CollectiveKind::exscan); ++k) {
    const auto kind = static_cast<engine::CollectiveKind>(k);
    out << fmt::format("  {:<15} {}\n", engine::to_string(kind),
                       fmt::join(models::mp::collective_algorithms(kind), ", "));
  }
  out << "  'analytic' prices every collective with the machine model's formula instead.\n";
}

/// Writes the text report (stdout when `path` is empty or "-").
void write_text_report(const std::string& path, std::ostream& out, const std::string& name,
                       const std::vector<models::report::VariantResult>& results,
                       const models::report::TextReportOptions& options) {
  if (path.empty() || path == "-") {
    models::report::write_text(out, name, results, 64, options);
    out.flush();
    if (!out) throw std::runtime_error("augur: error: cannot write the text report to the standard output");
    return;
  }
  engine::OutputFile f(path, "text report");
  models::report::write_text(f.stream(), name, results, 64, options);
  f.commit();
}

/// Every file `augur run` would write (with the names of several variants) and every file it
/// reads, checked against each other before the run.
void check_run_files(const CommandLine& cl, const scenarios::Scenario& sc,
                     const std::vector<scenarios::Variant>& variants) {
  std::vector<NamedPath> outputs, inputs;
  const auto add = [&](const char* what, const std::string& path) {
    if (!path.empty() && path != "-") outputs.emplace_back(what, path);
  };
  add("the text report", sc.outputs.text);
  add("the JSON report", sc.outputs.json);
  add("--html", cl.html);
  add("--csv", cl.csv);
  add("--sweep-json", cl.sweep_json);
  add("--partial", cl.partial);
  for (std::size_t i = 1; i <= variants.size(); ++i) {
    const int index = static_cast<int>(i);
    if (!sc.outputs.event_log.empty())
      add("the event log", event_log_name(sc.outputs.event_log, index, variants.size()));
    if (!cl.chrome_trace.empty()) add("--chrome-trace", event_log_name(cl.chrome_trace, index, variants.size()));
    if (!cl.paraver.empty()) {
      const std::string prefix = variants.size() > 1 ? fmt::format("{}.v{}", cl.paraver, i) : cl.paraver;
      for (const char* suffix : {".prv", ".pcf", ".row"}) add("--paraver", prefix + suffix);
    }
    if (!cl.otf2.empty()) add("--otf2", otf2_archive_name(cl.otf2, index, variants.size()) + "/traces.otf2");
  }
  inputs.emplace_back("the scenario", sc.file);
  for (const auto& v : variants) {
    inputs.emplace_back("the trace", v.trace_path);
    inputs.emplace_back("the machine file", v.machine.source);
  }
  check_outputs(outputs, inputs);
}

/// Writes the JSON report (stdout when `path` is "-").
void write_json_report(const std::string& path, std::ostream& out, const std::string& name,
                       const std::vector<models::report::VariantResult>& results) {
  if (path == "-") {
    models::report::write_json(out, name, results);
    out.flush();
    if (!out) throw std::runtime_error("augur: error: cannot write the JSON report to the standard output");
  } else {
    models::report::write_json(path, name, results);
  }
}

/// The reports of `augur run`: the full text report where --text, --detail or the scenario's
/// outputs say, the JSON report, and on stdout the summary unless a report goes there already.
void write_outputs(const CommandLine& cl, const scenarios::Scenario& sc,
                   const std::vector<models::report::VariantResult>& results, std::ostream& out) {
  const std::string& text = sc.outputs.text;
  if (!text.empty()) write_text_report(text, out, sc.name, results, cl.text_options);
  if (cl.detail && text != "-") write_text_report("-", out, sc.name, results, cl.text_options);
  if (!sc.outputs.json.empty()) write_json_report(sc.outputs.json, out, sc.name, results);
  const bool stdout_taken = text == "-" || cl.detail || sc.outputs.json == "-";
  if (stdout_taken) return;
  models::report::write_summary(out, sc.name, results);
  out.flush();
  if (!out) throw std::runtime_error("augur: error: cannot write the summary to the standard output");
}

/// Exit status of finished variants: an input error found during the run is printed and gives 2,
/// a deadlock, failure or limit 1.
int run_status(const std::vector<models::report::VariantResult>& results, std::ostream& err) {
  for (const auto& r : results) {
    if (r.outcome == "error") {
      err << printable(r.message) << "\n";
      return exit_bad_input;
    }
  }
  for (const auto& r : results) {
    if (r.outcome != "completed" && r.outcome != "stopped") return exit_run_failed;
  }
  return exit_ok;
}

/// `augur predict PAR TRACE OUT.html [D1 D2 ...]`: the original Predictor's command line
/// (Presage `main`): the grid from the extents after the output file (none: the machine file's
/// topology, else one processor), the report root the interval current at the end of the trace,
/// the HTML title the output file name as given. The run is augur's DVM run (`augur run --trace
/// dvm:TRACE --machine PAR --grid D1xD2`); --json and --text write augur's reports of it.
int predict(const CommandLine& cl, const machines::MachineRegistry& registry, std::ostream& out, std::ostream& err) {
  const std::string& par = cl.positional[0];
  const std::string& trace = cl.positional[1];
  const std::string& html = cl.positional[2];
  std::vector<std::string> sets = cl.sets, origins = cl.origins;
  if (cl.positional.size() > 3) {
    std::string grid;
    for (std::size_t i = 3; i < cl.positional.size(); ++i) grid += (i > 3 ? "x" : "") + cl.positional[i];
    sets.push_back("grids=" + grid);
    origins.push_back("D1 D2 ...");
  }
  const scenarios::Scenario sc =
      load_command_line("predict", "dvm:" + trace, par, {"TRACE", "PAR"}, registry, sets, origins);
  std::vector<NamedPath> outputs{{"OUT.html", html}};
  for (const auto& [what, path] : {NamedPath{"--json", cl.json}, {"--text", cl.text}, {"--event-log", cl.event_log}})
    if (!path.empty() && path != "-") outputs.emplace_back(what, path);
  check_outputs(outputs, {{"PAR", par}, {"TRACE", trace}});
  RunOptions opts;
  opts.event_log = cl.event_log;
  opts.jobs = 1;
  opts.max_events = cl.max_events;
  opts.max_time = cl.max_time;
  opts.wait_states = cl.wait_states;
  opts.machine_params = !cl.json.empty();
  opts.dvm_quirks = true;
  const auto results = run_scenario(sc, registry, opts);
  const models::report::VariantResult& v = results.front();
  // 3.1 writes its report only after a whole run; a run stopped by --max-events/--max-time is
  // reported as far as it went.
  if (v.intervals && (v.outcome == "completed" || v.outcome == "stopped")) {
    models::report::IntervalReportMeta meta;
    meta.program = v.trace;
    meta.machine = v.machine_name;
    meta.grid = v.report_grid.empty() ? v.grid : v.report_grid;
    meta.processors = v.processors;
    meta.title = html;  // 3.1: html_title = argv[3]
    models::report::HtmlReportOptions options;
    options.augur_extras = cl.extras;
    engine::OutputFile f(html, "HTML report");
    models::report::write_interval_html(f.stream(), *v.intervals, meta, v.interval_root, options);
    f.commit();
  }
  if (!cl.text.empty()) write_text_report(cl.text, out, sc.name, results, cl.text_options);
  if (!cl.json.empty()) write_json_report(cl.json, out, sc.name, results);
  for (const std::string& w : v.warnings) err << w << "\n";
  const int status = run_status(results, err);
  if (status == exit_ok && v.intervals) {
    const auto& root = v.interval_root != nullptr ? *v.interval_root : v.intervals->root();
    out << fmt::format("{}: grid {} ({} processor{}), machine {}: execution time {:.6f} s, efficiency {:.4f}\n", html,
                       v.grid, v.processors, v.processors == 1 ? "" : "s", v.machine_name, root.totals.execution,
                       root.totals.efficiency);
  }
  return status;
}

/// The log levels: SPDLOG_LEVEL first (names of other programs' loggers in it are ignored),
/// --log over it. The folder loggers are made when first asked for (set_log_levels,
/// engine::logger): a run that logs nothing does not pay for six loggers and their patterns.
void configure_logging(const CommandLine& cl) {
  if (const char* env = std::getenv("SPDLOG_LEVEL"); env != nullptr && *env != '\0') {
    engine::set_log_levels(env, "SPDLOG_LEVEL", true);
  }
  if (!cl.log_levels.empty()) engine::set_log_levels(cl.log_levels);
}

/// `augur info [machines [NAME] | formats | collectives]`.
int info(const CommandLine& cl, const machines::MachineRegistry& registry, std::ostream& out, std::ostream& err) {
  const std::string what = cl.positional.empty() ? "machines" : cl.positional[0];
  if (what == "machines") {
    info_machines(out, registry, cl.positional.size() > 1 ? cl.positional[1] : "");
  } else if (what == "formats") {
    info_formats(out);
  } else if (what == "collectives") {
    info_collectives(out);
  } else {
    err << fmt::format("augur: error: unknown info topic '{}'{} (machines, formats, collectives)\n", what,
                       support::did_you_mean(what, {"machines", "formats", "collectives"}));
    return exit_bad_input;
  }
  return exit_ok;
}

/// `augur check SCENARIO`: every variant's machine is made; one line for the scenario, one per
/// variant.
int check(const scenarios::Scenario& sc, const std::vector<scenarios::Variant>& variants,
          const machines::MachineRegistry& registry, std::ostream& out) {
  for (const auto& v : variants)
    registry.create(v.machine.model, v.machine.params, v.processors > 0 ? v.processors : 1);
  // A machine sweep axis: every swept machine, not only the first.
  std::string machines;
  for (const auto& m :
       sc.swept_machines.empty() ? std::vector<scenarios::MachineDescription>{sc.machine} : sc.swept_machines)
    machines += fmt::format("{}{} ({})", machines.empty() ? "" : ", ", m.name, m.model);
  out << fmt::format("{}: ok: scenario '{}', machine{} {}, {} variant{}\n", sc.file, sc.name,
                     sc.swept_machines.size() > 1 ? "s" : "", machines, variants.size(),
                     variants.size() == 1 ? "" : "s");
  for (std::size_t i = 0; i < variants.size(); ++i) {
    std::string swept;
    for (const auto& [k, v] : variants[i].swept) swept += fmt::format(" {}={}", k, v);
    std::string grid;
    for (const int g : variants[i].grid) grid += (grid.empty() ? " grid=" : "x") + std::to_string(g);
    out << fmt::format(
        "  variant {}: processors={}{} trace={}{}\n", i + 1,
        variants[i].processors == 0 ? std::string("(from trace)") : std::to_string(variants[i].processors), grid,
        variants[i].trace_path, swept);
  }
  return exit_ok;
}

/// The run options of `augur run` and `augur step` (step: the commands from `in`, the stepper's
/// output on `out`; run: a live progress line when stderr is a terminal).
RunOptions run_options(const CommandLine& cl, const scenarios::Scenario& sc,
                       const std::vector<scenarios::Variant>& variants, std::istream& in, std::ostream& out,
                       std::ostream& err) {
  RunOptions opts;
  opts.event_log = sc.outputs.event_log;
  opts.chrome_trace = cl.chrome_trace;
  opts.paraver = cl.paraver;
  opts.otf2 = cl.otf2;
  opts.jobs = cl.jobs != 0 ? cl.jobs : std::max(1u, std::thread::hardware_concurrency());
  opts.max_events = cl.max_events;
  opts.max_time = cl.max_time;
  opts.characteristics = cl.characteristics;
  opts.wait_states = cl.wait_states;
  opts.machine_params = !sc.outputs.json.empty();
  if (cl.command == "step" && cl.monitor) {
    // The page drives the run instead of standard input.
  } else if (cl.command == "step") {
    opts.step_in = &in;
    opts.step_out = &out;
    if (variants.size() > 1) {
      out << fmt::format(
          "the scenario has {} variants: the commands step variant 1 ({} processors); the others run without "
          "stopping (--processors or --grid selects one)\n",
          variants.size(),
          variants[0].processors == 0 ? std::string("from the trace") : std::to_string(variants[0].processors));
    }
  } else if (&err == &std::cerr && isatty(STDERR_FILENO) != 0) {
    opts.progress = &err;  // a live progress line on a terminal only
  }
  return opts;
}

/// The reports of a run's results (write_outputs, the sweep table, the HTML page); the exit status.
int write_reports(const CommandLine& cl, const scenarios::Scenario& sc,
                  const std::vector<models::report::VariantResult>& results, std::ostream& out, std::ostream& err) {
  write_outputs(cl, sc, results, out);
  if (!cl.csv.empty()) models::report::write_sweep_csv(cl.csv, results);
  if (!cl.sweep_json.empty()) models::report::write_sweep_json(cl.sweep_json, sc.name, results);
  if (!cl.html.empty()) models::report::write_html(cl.html, sc.name, results);
  return run_status(results, err);
}

/// `augur merge SHARD...`: the reports of the shards' run, as a single `augur run` writes them
/// (the JSON and text reports the scenario names unless --json and --text say otherwise).
int merge(const CommandLine& cl, std::ostream& out, std::ostream& err) {
  MergedRun m = read_shards(cl.positional);
  scenarios::Scenario sc;
  sc.name = m.run.scenario;
  sc.outputs.json = cl.json.empty() ? m.run.json : cl.json;
  sc.outputs.text = cl.text.empty() ? m.run.text : cl.text;
  std::vector<NamedPath> outputs, inputs;
  for (const NamedPath& o : {NamedPath{"the JSON report", sc.outputs.json},
                             {"the text report", sc.outputs.text},
                             {"--html", cl.html},
                             {"--csv", cl.csv},
                             {"--sweep-json", cl.sweep_json}})
    if (!o.second.empty() && o.second != "-") outputs.push_back(o);
  for (const std::string& p : cl.positional) inputs.emplace_back("a shard file", p);
  check_outputs(outputs, inputs);
  return write_reports(cl, sc, m.results, out, err);
}

/// `augur run`, `augur step` and `augur check`: the scenario of the command line, checked or run.
int run_scenario_command(const CommandLine& cl, const machines::MachineRegistry& registry, std::istream& in,
                         std::ostream& out, std::ostream& err) {
  if (cl.command == "check" && cl.scenario.empty()) {
    err << "augur: error: check needs a scenario file\n";
    return exit_bad_input;
  }
  scenarios::Scenario sc = load(cl, registry);
  if (!cl.json.empty()) sc.outputs.json = cl.json;
  if (!cl.text.empty()) sc.outputs.text = cl.text;
  if (!cl.event_log.empty()) sc.outputs.event_log = cl.event_log;
  const auto variants = sc.variants();
  if (cl.command == "check") return check(sc, variants, registry, out);
  check_run_files(cl, sc, variants);
  RunOptions opts = run_options(cl, sc, variants, in, out, err);
  std::optional<monitor::Server> server;
  if (cl.monitor) {
    server.emplace(*cl.monitor);
    opts.monitor = &*server;
    opts.monitor_paused = cl.command == "step";
    err << "augur: monitor: " << server->url() << (opts.monitor_paused ? " (the run waits for the page)" : "")
        << std::endl;
  }
  if (cl.shard) {
    check_shard(*cl.shard, variants.size());
    opts.shard = cl.shard->index;
    opts.shards = cl.shard->count;
    opts.machine_params = true;  // for merge --json
  }
  const auto results = run_scenario(sc, registry, opts);
  if (cl.shard) {
    write_shard_file(cl.partial,
                     {sc.name, run_key(cl.arguments), *cl.shard, variants.size(), sc.outputs.json, sc.outputs.text},
                     results);
    sc.outputs.json.clear();  // merge writes the reports
    sc.outputs.text.clear();
  }
  return write_reports(cl, sc, results, out, err);
}

/// The command of a parsed command line.
int run_command(const CommandLine& cl, const machines::MachineRegistry& registry, std::istream& in, std::ostream& out,
                std::ostream& err) {
  if (cl.help || cl.command == "help") {
    const std::string topic = cl.command == "help" && !cl.positional.empty() ? cl.positional[0] : cl.command;
    const std::string help = cl.command_named ? command_help(topic) : std::string();
    out << (help.empty() ? usage_text : help);
    return exit_ok;
  }
  if (cl.command == "version") {
    out << "augur " << version() << "\n";
    return exit_ok;
  }
  if (cl.command == "info") return info(cl, registry, out, err);
  if (cl.command == "predict") return predict(cl, registry, out, err);
  if (cl.command == "merge") return merge(cl, out, err);
  if (cl.command == "calibrate") return calibrate_command(cl, out, err);
  if (cl.command == "convert") return convert_command(cl, registry, out, err);
  return run_scenario_command(cl, registry, in, out, err);
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  machines::MachineRegistry registry;
  machines::register_builtin_machines(registry);
  CommandLine cl;
  try {
    cl = parse_command_line(args);
    configure_logging(cl);
  } catch (const std::exception& e) {
    err << printable(std::string("augur: error: ") + e.what()) << "\n" << usage_text;
    return exit_bad_input;
  }
  try {
    return run_command(cl, registry, in, out, err);
  } catch (const machines::ParamError& e) {
    err << printable(std::string("augur: error: ") + e.what()) << "\n";
  } catch (const std::bad_alloc&) {
    err << "augur: error: out of memory: the inputs ask for more memory than this machine has (try a smaller "
           "trace, fewer processors or fewer variants)\n";
  } catch (const std::exception& e) {
    // Input errors say where ("file:line: error: ..."); anything else is named augur's.
    const std::string what = e.what();
    err << printable(what.find(": error: ") != std::string::npos ? what : "augur: error: " + what) << "\n";
  }
  return exit_bad_input;
}

}  // namespace augur::tools
