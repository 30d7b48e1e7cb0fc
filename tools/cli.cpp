// Command-line parsing and the subcommands (run, step, check, info, and predict: the DVM
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
#include "tools/help.hpp"
#include "tools/runner.hpp"
#include "traces/trace_error.hpp"
#include "traces/trace_format.hpp"

namespace augur::tools {
namespace {

const char* const usage_text =
    "usage:\n"
    "  augur run [SCENARIO] [options]   run a scenario (the bundled default when none is given)\n"
    "  augur step [SCENARIO] [options]  run with the stepper: commands from stdin (type 'help')\n"
    "  augur check SCENARIO [--set k=v]  validate a scenario and its machine, list the variants\n"
    "  augur info [machines [NAME] | formats | collectives]\n"
    "  augur version                    the version of augur\n"
    "  augur COMMAND --help             the options of one command (run, step, check, info)\n"
    "  augur predict PAR TRACE OUT.html [D1 D2 ...] [options]\n"
    "                                   the DVM Predictor's command line: Lib-DVM TRACE on the machine PAR\n"
    "                                   (Predictor.par or YAML) and the processor grid D1 x D2 x ... (none:\n"
    "                                   the par file's topology, else 1 processor); writes Predictor 3.1's\n"
    "                                   HTML report to OUT.html. Options: --json --text --depth --procs\n"
    "                                   --extras --set --log --event-log --max-events --max-time\n"
    "                                   --wait-states\n"
    "options:\n"
    "  --trace FORMAT:PATH      trace to replay (ti:PATH; PATH may contain {P})\n"
    "  --machine NAME|PATH      machine from the library (machines/library) or a YAML file\n"
    "  --processors N[,N...]    processor counts to run\n"
    "  --grid D1xD2...          DVM processor grid (repeatable: --grid 2x2 --grid 4x4)\n"
    "  --set KEY=VALUE          override any scenario key (machine.latency=10us, model.collectives=analytic)\n"
    "  --json FILE              write the JSON report (- = stdout)\n"
    "  --text FILE              write the full report to FILE (- = stdout); stdout has the summary\n"
    "  --detail                 the full report on stdout instead of the summary\n"
    "  --depth N                characteristics in the text report: only intervals of LEVEL <= N (the analyzer's -l)\n"
    "  --procs LIST             characteristics in the text report: per-processor part only for these processors,\n"
    "                           numbered as the report prints them (DVM from 1, ranks from 0): 1,3-4\n"
    "                           (none, or 0 in a DVM report: no per-processor part; the analyzer's -n)\n"
    "  --extras                 predict: append augur's per-processor tables and bars to OUT.html\n"
    "  --html FILE              write the HTML report (one self-contained page for all variants: summary,\n"
    "                           time per processor, characteristics, wait states, sweep table and plots)\n"
    "  --csv FILE               write the sweep table (one row per variant) as CSV\n"
    "  --sweep-json FILE        write the sweep table as JSON\n"
    "  --event-log FILE         write one line per event\n"
    "  --chrome-trace FILE      write the timeline as Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
    "  --paraver PREFIX         write the timeline as a Paraver trace: PREFIX.prv, PREFIX.pcf, PREFIX.row\n"
    "  --log [CAT=]LEVEL[,...]  log levels on stderr (engine, machines, traces, models, scenarios, tools;\n"
    "                           info: what each folder read and ran, debug: details); also SPDLOG_LEVEL\n"
    "  --jobs N                 variants run in parallel (default: number of cores)\n"
    "  --max-events N           stop each variant after N events\n"
    "  --max-time SECONDS       stop each variant at this simulated time\n"
    "  --characteristics auto|on|off  characteristics of message-passing runs (spec section 8); auto: up to\n"
    "                           65536 processors (about 230 bytes each)\n"
    "  --wait-states on|off     wait states, root causes, wait sites and advice (spec section 9; default on);\n"
    "                           off: the predicted times and the time per processor only, faster (prediction\n"
    "                           only: --wait-states off --characteristics off)\n"
    "exit status: 0 ok, 1 a run deadlocked or failed, 2 bad input (file:line: error: ...)\n";

struct CommandLine {
  std::string command = "run";
  std::string scenario;
  std::vector<std::string> sets;     // in order; --trace/--machine/--processors/--grid become sets too
  std::vector<std::string> origins;  // the option of each set ("--processors"), named in its errors
  std::string json;
  std::string text;
  std::string html;
  std::string csv;
  std::string sweep_json;
  std::string event_log;
  std::string chrome_trace;
  std::string paraver;
  std::string log_levels;
  unsigned jobs = 0;
  std::uint64_t max_events = 0;
  double max_time = 0;
  CharacteristicsMode characteristics = CharacteristicsMode::automatic;  // --characteristics
  bool wait_states = true;                                               // --wait-states
  models::report::TextReportOptions text_options;                        // --depth, --procs
  bool detail = false;               // --detail: the full report on stdout instead of the summary
  bool help = false;                 // --help: the help of the command (none named: the usage)
  bool command_named = false;        // the first argument named the command
  bool extras = false;               // predict: augur's section after the 3.1 blocks
  std::vector<std::string> options;  // every option given, in order (predict checks them)
  std::vector<std::string> positional;
};

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A non-negative decimal integer that fits an int, or nothing.
std::optional<int> small_number(const std::string& text) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), digit)) return std::nullopt;
  return std::stoi(text);
}

/// --depth N: the deepest LEVEL the text report prints (the analyzer's -l).
int parse_depth(const std::string& text) {
  const auto n = small_number(text);
  if (!n) throw UsageError(fmt::format("--depth: '{}' is not an interval level (0, 1, 2, ...)", text));
  return *n;
}

/// --procs LIST: processor numbers and ranges as the text report prints them (DVM runs from 1,
/// message-passing runs from 0), e.g. "1,3-4"; "none", or "0" alone in a DVM report, leaves out
/// the per-processor part (the analyzer's -n 0).
void parse_processor_list(const std::string& text, models::report::TextReportOptions& options) {
  const auto bad = [&](const std::string& why) {
    return UsageError(
        fmt::format("--procs: '{}': {} (processor numbers as the report prints them, DVM runs from 1, "
                    "message-passing runs from 0; ranges with '-', separated by ',': 1,3-4; none: no "
                    "per-processor part)",
                    text, why));
  };
  options.processors.clear();
  options.processor_characteristics = true;
  if (text == "none") {
    options.processor_characteristics = false;
    return;
  }
  std::stringstream items(text);
  std::string item;
  bool any = false;
  while (std::getline(items, item, ',')) {
    const auto dash = item.find('-');
    const auto lo = small_number(item.substr(0, dash));
    const auto hi = dash == std::string::npos ? lo : small_number(item.substr(dash + 1));
    if (!lo || !hi) throw bad(fmt::format("'{}' is not a number or a range", item));
    if (*hi < *lo) throw bad(fmt::format("the range '{}' is empty", item));
    if (*hi - *lo >= 1 << 20) throw bad(fmt::format("the range '{}' is too long", item));
    for (int p = *lo; p <= *hi; ++p) options.processors.push_back(p);
    any = true;
  }
  if (!any || text.back() == ',') throw bad("an empty item");
  std::sort(options.processors.begin(), options.processors.end());
  options.processors.erase(std::unique(options.processors.begin(), options.processors.end()), options.processors.end());
}

/// `predict PAR TRACE OUT.html [D1 D2 ...]`: three names, then the grid's extents (positive
/// integers, as the original Predictor reads them); the options that name what the positional
/// arguments give are refused.
void check_predict_arguments(const CommandLine& cl) {
  if (cl.positional.size() < 3) {
    throw UsageError(fmt::format("predict needs PAR TRACE OUT.html [D1 D2 ...] ({} given)",
                                 cl.positional.empty() ? std::string("nothing")
                                                       : fmt::format("{} argument{}", cl.positional.size(),
                                                                     cl.positional.size() == 1 ? "" : "s")));
  }
  for (std::size_t i = 3; i < cl.positional.size(); ++i) {
    const auto n = small_number(cl.positional[i]);
    if (!n || *n == 0) {
      throw UsageError(
          fmt::format("predict: processor grid extent '{}' is not a positive integer (give the extents "
                      "separated by spaces: 2 2 for a 2x2 grid)",
                      cl.positional[i]));
    }
  }
  static const char* const refused[] = {"--trace", "--machine",    "--grid",         "--processors", "--html",
                                        "--csv",   "--sweep-json", "--chrome-trace", "--paraver",    "--jobs"};
  for (const std::string& o : cl.options) {
    for (const char* r : refused) {
      if (o == r) {
        throw UsageError(
            fmt::format("{} is not an option of predict (PAR, TRACE, OUT.html and the grid are its "
                        "positional arguments)",
                        o));
      }
    }
  }
}

CommandLine parse(const std::vector<std::string>& args) {
  CommandLine cl;
  std::size_t i = 0;
  const auto& commands = command_names();
  if (!args.empty() && std::find(commands.begin(), commands.end(), args[0]) != commands.end()) {
    cl.command = args[0];
    cl.command_named = true;
    i = 1;
  } else if (!args.empty() && !args[0].starts_with("-") && !std::filesystem::exists(args[0])) {
    // Not a command and not a scenario file: a mistyped command, when it is close to one.
    if (const std::string hint = did_you_mean(args[0], commands); !hint.empty())
      throw UsageError(fmt::format("unknown command '{}'{}", args[0], hint));
  }
  auto value = [&](const std::string& opt) -> std::string {
    if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", opt));
    return args[++i];
  };
  for (; i < args.size(); ++i) {
    std::string a = args[i];
    std::string inline_value;
    bool has_inline = false;
    if (a.rfind("--", 0) == 0) {
      if (auto eq = a.find('='); eq != std::string::npos && a != "--set") {
        inline_value = a.substr(eq + 1);
        a = a.substr(0, eq);
        has_inline = true;
      }
    }
    auto val = [&](const std::string& opt) { return has_inline ? inline_value : value(opt); };
    if (a.rfind("--", 0) == 0) cl.options.push_back(a);
    if (a == "--help" || a == "-h") {
      cl.help = true;
    } else if (a == "--detail") {
      if (has_inline) throw UsageError("--detail takes no value");
      cl.detail = true;
    } else if (a == "--version") {
      cl.command = "version";
    } else if (a == "--trace" || a == "--machine" || a == "--processors") {
      cl.sets.push_back(a.substr(2) + "=" + val(a));
      cl.origins.push_back(a);
    } else if (a == "--program") {  // a skeleton is the trace format `program`
      cl.sets.push_back("trace=program:" + val(a));
      cl.origins.push_back(a);
    } else if (a == "--grid") {
      // Repeatable: --grid 2x2 --grid 4x4 runs both grids.
      const std::string g = val(a);
      auto last = std::find_if(cl.sets.rbegin(), cl.sets.rend(),
                               [](const std::string& s) { return s.rfind("grids=", 0) == 0; });
      if (last != cl.sets.rend()) {
        *last += "," + g;
      } else {
        cl.sets.push_back("grids=" + g);
        cl.origins.push_back(a);
      }
    } else if (a == "--set") {
      cl.sets.push_back(val(a));
      cl.origins.push_back(a);
    } else if (a == "--json") {
      cl.json = val(a);
    } else if (a == "--text") {
      cl.text = val(a);
    } else if (a == "--html") {
      cl.html = val(a);
    } else if (a == "--depth") {
      cl.text_options.max_level = parse_depth(val(a));
    } else if (a == "--procs") {
      parse_processor_list(val(a), cl.text_options);
    } else if (a == "--extras") {
      if (has_inline) throw UsageError("--extras takes no value");
      cl.extras = true;
    } else if (a == "--csv") {
      cl.csv = val(a);
    } else if (a == "--sweep-json") {
      cl.sweep_json = val(a);
    } else if (a == "--event-log") {
      cl.event_log = val(a);
    } else if (a == "--chrome-trace") {
      cl.chrome_trace = val(a);
    } else if (a == "--paraver") {
      cl.paraver = val(a);
    } else if (a == "--log") {
      cl.log_levels = val(a);
    } else if (a == "--jobs" || a == "-j") {
      cl.jobs = static_cast<unsigned>(option_count(a, val(a), 1024));
    } else if (a == "--max-events") {
      cl.max_events = option_count(a, val(a), std::numeric_limits<std::int64_t>::max());
    } else if (a == "--max-time") {
      cl.max_time = option_seconds(a, val(a));
    } else if (a == "--characteristics") {
      const std::string v = val(a);
      if (v == "auto")
        cl.characteristics = CharacteristicsMode::automatic;
      else if (v == "on")
        cl.characteristics = CharacteristicsMode::on;
      else if (v == "off")
        cl.characteristics = CharacteristicsMode::off;
      else
        throw UsageError(fmt::format("--characteristics: '{}' is not auto, on or off", v));
    } else if (a == "--wait-states") {
      const std::string v = val(a);
      if (v == "on")
        cl.wait_states = true;
      else if (v == "off")
        cl.wait_states = false;
      else
        throw UsageError(fmt::format("--wait-states: '{}' is not on or off", v));
    } else if (a.rfind("-", 0) == 0 && a.size() > 1) {
      throw UsageError(fmt::format("unknown option '{}'{}", a, did_you_mean(a, option_names())));
    } else {
      cl.positional.push_back(a);
    }
  }
  if (cl.help || cl.command == "help") {
    return cl;  // the help of a command: its arguments are not checked
  }
  if (cl.command == "predict") {
    check_predict_arguments(cl);
  } else if (cl.command != "info" && !cl.positional.empty()) {
    if (cl.positional.size() > 1) throw UsageError(fmt::format("unexpected argument '{}'", cl.positional[1]));
    cl.scenario = cl.positional[0];
  }
  if (cl.extras && cl.command != "predict") throw UsageError("--extras is an option of predict");
  return cl;
}

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
         "  timelines: Chrome trace-event JSON (--chrome-trace), Paraver .prv/.pcf/.row (--paraver)\n";
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
  for (std::size_t i = 1; i <= variants.size(); ++i) {
    const int index = static_cast<int>(i);
    if (!sc.outputs.event_log.empty())
      add("the event log", event_log_name(sc.outputs.event_log, index, variants.size()));
    if (!cl.chrome_trace.empty()) add("--chrome-trace", event_log_name(cl.chrome_trace, index, variants.size()));
    if (!cl.paraver.empty()) {
      const std::string prefix = variants.size() > 1 ? fmt::format("{}.v{}", cl.paraver, i) : cl.paraver;
      for (const char* suffix : {".prv", ".pcf", ".row"}) add("--paraver", prefix + suffix);
    }
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
  const auto results = run_scenario(sc, registry, opts);
  const models::report::VariantResult& v = results.front();
  // 3.1 writes its report only after a whole run; a run stopped by --max-events/--max-time is
  // reported as far as it went.
  if (v.intervals && (v.outcome == "completed" || v.outcome == "stopped")) {
    models::report::IntervalReportMeta meta;
    meta.program = v.trace;
    meta.machine = v.machine_name;
    meta.grid = v.grid;
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

}  // namespace

int run_cli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  machines::MachineRegistry registry;
  machines::register_builtin_machines(registry);
  CommandLine cl;
  try {
    cl = parse(args);
    // The folder loggers are made when first asked for (set_log_levels, engine::logger): a run
    // that logs nothing does not pay for six loggers and their patterns (~50 k instructions).
    // SPDLOG_LEVEL first (names of other programs' loggers in it are ignored), --log over it.
    if (const char* env = std::getenv("SPDLOG_LEVEL"); env != nullptr && *env != '\0') {
      engine::set_log_levels(env, "SPDLOG_LEVEL", true);
    }
    if (!cl.log_levels.empty()) engine::set_log_levels(cl.log_levels);
  } catch (const std::exception& e) {
    err << printable(std::string("augur: error: ") + e.what()) << "\n" << usage_text;
    return exit_bad_input;
  }
  try {
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
    if (cl.command == "info") {
      const std::string what = cl.positional.empty() ? "machines" : cl.positional[0];
      if (what == "machines") {
        info_machines(out, registry, cl.positional.size() > 1 ? cl.positional[1] : "");
      } else if (what == "formats") {
        info_formats(out);
      } else if (what == "collectives") {
        info_collectives(out);
      } else {
        err << fmt::format("augur: error: unknown info topic '{}'{} (machines, formats, collectives)\n", what,
                           did_you_mean(what, {"machines", "formats", "collectives"}));
        return exit_bad_input;
      }
      return exit_ok;
    }
    if (cl.command == "predict") return predict(cl, registry, out, err);
    if (cl.command == "check" && cl.scenario.empty()) {
      err << "augur: error: check needs a scenario file\n";
      return exit_bad_input;
    }
    scenarios::Scenario sc = load(cl, registry);
    if (!cl.json.empty()) sc.outputs.json = cl.json;
    if (!cl.text.empty()) sc.outputs.text = cl.text;
    if (!cl.event_log.empty()) sc.outputs.event_log = cl.event_log;
    const auto variants = sc.variants();
    if (cl.command != "check") check_run_files(cl, sc, variants);
    if (cl.command == "check") {
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
    RunOptions opts;
    opts.event_log = sc.outputs.event_log;
    opts.chrome_trace = cl.chrome_trace;
    opts.paraver = cl.paraver;
    opts.jobs = cl.jobs != 0 ? cl.jobs : std::max(1u, std::thread::hardware_concurrency());
    opts.max_events = cl.max_events;
    opts.max_time = cl.max_time;
    opts.characteristics = cl.characteristics;
    opts.wait_states = cl.wait_states;
    opts.machine_params = !sc.outputs.json.empty();
    if (cl.command == "step") {
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
    const auto results = run_scenario(sc, registry, opts);
    write_outputs(cl, sc, results, out);
    if (!cl.csv.empty()) models::report::write_sweep_csv(cl.csv, results);
    if (!cl.sweep_json.empty()) models::report::write_sweep_json(cl.sweep_json, sc.name, results);
    if (!cl.html.empty()) models::report::write_html(cl.html, sc.name, results);
    return run_status(results, err);
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
