// Parsing of augur's command line (tools/cli_options.hpp): the command, the options (a table for
// those stored as given, a function per option that checks its value) and the positional arguments.
#include "tools/cli_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

#include "machines/platform/simgrid_config.hpp"
#include "tools/checks.hpp"
#include "tools/help.hpp"

namespace augur::tools {

const char* const usage_text =
    "usage:\n"
    "  augur run [SCENARIO] [options]   run a scenario (the bundled default when none is given)\n"
    "  augur step [SCENARIO] [options]  run with the stepper: commands from stdin (type 'help')\n"
    "  augur check SCENARIO [--set k=v]  validate a scenario and its machine, list the variants\n"
    "  augur info [machines [NAME] | formats | collectives]\n"
    "  augur merge SHARD... [options]   join the shard files of augur run --shard into its reports\n"
    "  augur calibrate KIND=FILE...     a machine file from OSU micro-benchmark and STREAM outputs\n"
    "  augur convert FORMAT:PATH DIR    a message-passing trace (otf2, ti) as a SimGrid TI trace in DIR\n"
    "  augur convert FORMAT:PATH otf2:DIR [--machine M]   its run predicted on M as an OTF2 archive\n"
    "  augur version                    the version of augur\n"
    "  augur COMMAND --help             the options of one command (run, step, check, info, merge)\n"
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
    "  --shard K/N --partial FILE  run the variants whose position is K mod N, write their results to\n"
    "                           FILE; augur merge joins the N files into the reports of the whole run\n"
    "  --chrome-trace FILE      write the timeline as Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
    "  --paraver PREFIX         write the timeline as a Paraver trace: PREFIX.prv, PREFIX.pcf, PREFIX.row\n"
    "  --otf2 DIR               write a message-passing run as an OTF2 archive DIR/traces.otf2 (Vampir)\n"
    "  --log [CAT=]LEVEL[,...]  log levels on stderr (engine, machines, traces, models, scenarios, tools;\n"
    "                           info: what each folder read and ran, debug: details); also SPDLOG_LEVEL\n"
    "  --jobs N                 variants run in parallel (default: number of cores)\n"
    "  --max-events N           stop each variant after N events\n"
    "  --max-time SECONDS       stop each variant at this simulated time\n"
    "  --characteristics auto|on|off  characteristics of message-passing runs (spec section 8); auto: up to\n"
    "                           65536 processors (about 230 bytes each)\n"
    "  --monitor [ADDR:PORT]    run, step: serve a live page of the run (default 127.0.0.1:0, a free port)\n"
    "  --wait-states on|off     wait states, root causes, wait sites and advice (spec section 9; default on);\n"
    "                           off: the predicted times and the time per processor only, faster (prediction\n"
    "                           only: --wait-states off --characteristics off)\n"
    "exit status: 0 ok, 1 a run deadlocked or failed, 2 bad input (file:line: error: ...)\n";

namespace {

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
  static const char* const refused[] = {"--trace",   "--machine", "--grid",       "--processors",
                                        "--html",    "--csv",     "--sweep-json", "--chrome-trace",
                                        "--paraver", "--jobs",    "--otf2"};
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

}  // namespace

namespace {

/// Options whose value is stored as given.
struct TextOption {
  const char* name;
  std::string CommandLine::*field;
};
constexpr TextOption text_options[] = {
    {"--json", &CommandLine::json},
    {"--text", &CommandLine::text},
    {"--html", &CommandLine::html},
    {"--csv", &CommandLine::csv},
    {"--sweep-json", &CommandLine::sweep_json},
    {"--event-log", &CommandLine::event_log},
    {"--chrome-trace", &CommandLine::chrome_trace},
    {"--paraver", &CommandLine::paraver},
    {"--otf2", &CommandLine::otf2},
    {"--log", &CommandLine::log_levels},
    {"--partial", &CommandLine::partial},
};

/// The value of the option being parsed: inline (`--json=FILE`) or the next argument.
using OptionValue = std::function<std::string()>;

/// --characteristics auto|on|off.
CharacteristicsMode parse_characteristics(const std::string& v) {
  if (v == "auto") return CharacteristicsMode::automatic;
  if (v == "on") return CharacteristicsMode::on;
  if (v == "off") return CharacteristicsMode::off;
  throw UsageError(fmt::format("--characteristics: '{}' is not auto, on or off", v));
}

/// --wait-states on|off.
bool parse_wait_states(const std::string& v) {
  if (v == "on") return true;
  if (v == "off") return false;
  throw UsageError(fmt::format("--wait-states: '{}' is not on or off", v));
}

/// --grid: repeatable (--grid 2x2 --grid 4x4 runs both grids), so the grids join one set.
void add_grid(CommandLine& cl, const std::string& option, const std::string& grid) {
  auto last =
      std::find_if(cl.sets.rbegin(), cl.sets.rend(), [](const std::string& s) { return s.rfind("grids=", 0) == 0; });
  if (last != cl.sets.rend()) {
    *last += "," + grid;
  } else {
    cl.sets.push_back("grids=" + grid);
    cl.origins.push_back(option);
  }
}

/// --cfg=name:value, SimGrid's option, as the machine parameter it sets (machines/platform);
/// options that need nothing set (SimGrid's defaults of what augur does not vary) set nothing.
void add_simgrid_option(CommandLine& cl, const std::string& assignment) {
  try {
    const auto [name, value] = machines::platform::split_simgrid_option(assignment);
    const auto [param, text] = machines::platform::simgrid_option(name, value);
    if (param.empty()) return;
    cl.sets.push_back("machine." + param + "=" + text);
    cl.origins.push_back("--cfg");
  } catch (const std::invalid_argument& error) {
    throw UsageError(fmt::format("--cfg: {}", error.what()));
  }
}

/// The options that become scenario sets (--trace, --machine, --processors, --grid, --set,
/// --hostfile, --cfg);
/// false when `a` is none of them.
bool parse_set_option(CommandLine& cl, const std::string& a, const OptionValue& val) {
  if (a == "--trace" || a == "--machine" || a == "--processors") {
    cl.sets.push_back(a.substr(2) + "=" + val());
    cl.origins.push_back(a);
  } else if (a == "--program") {  // a skeleton is the trace format `program`
    cl.sets.push_back("trace=program:" + val());
    cl.origins.push_back(a);
  } else if (a == "--grid") {
    add_grid(cl, a, val());
  } else if (a == "--set") {
    cl.sets.push_back(val());
    cl.origins.push_back(a);
  } else if (a == "--hostfile") {  // smpirun's -hostfile, for a SimGrid platform machine
    cl.sets.push_back("machine.hostfile=" + val());
    cl.origins.push_back(a);
  } else if (a == "--cfg") {
    add_simgrid_option(cl, val());
  } else {
    return false;
  }
  return true;
}

/// The options with a checked value (numbers, modes, the text report's selection); false when
/// `a` is none of them.
bool parse_checked_option(CommandLine& cl, const std::string& a, const OptionValue& val) {
  if (a == "--depth") {
    cl.text_options.max_level = parse_depth(val());
  } else if (a == "--procs") {
    parse_processor_list(val(), cl.text_options);
  } else if (a == "--jobs" || a == "-j") {
    cl.jobs = static_cast<unsigned>(option_count(a, val(), 1024));
  } else if (a == "--max-events") {
    cl.max_events = option_count(a, val(), std::numeric_limits<std::int64_t>::max());
  } else if (a == "--max-time") {
    cl.max_time = option_seconds(a, val());
  } else if (a == "--characteristics") {
    cl.characteristics = parse_characteristics(val());
  } else if (a == "--wait-states") {
    cl.wait_states = parse_wait_states(val());
  } else if (a == "--shard") {
    cl.shard = parse_shard(val());
  } else {
    return false;
  }
  return true;
}

/// The options in `text_options`; false when `a` is none of them.
bool parse_text_option(CommandLine& cl, const std::string& a, const OptionValue& val) {
  for (const TextOption& o : text_options) {
    if (a == o.name) {
      cl.*(o.field) = val();
      return true;
    }
  }
  return false;
}

/// One argument `a` (an option without its inline value, or a positional argument).
void parse_argument(CommandLine& cl, const std::string& a, bool has_inline, const OptionValue& val) {
  if (a.rfind("--", 0) == 0) cl.options.push_back(a);
  const auto flag = [&](bool& field) {
    if (has_inline) throw UsageError(fmt::format("{} takes no value", a));
    field = true;
  };
  if (a == "--help" || a == "-h") {
    cl.help = true;
  } else if (a == "--detail") {
    flag(cl.detail);
  } else if (a == "--version") {
    cl.command = "version";
  } else if (a == "--extras") {
    flag(cl.extras);
  } else if (!parse_set_option(cl, a, val) && !parse_checked_option(cl, a, val) && !parse_text_option(cl, a, val)) {
    if (a.rfind("-", 0) == 0 && a.size() > 1)
      throw UsageError(fmt::format("unknown option '{}'{}", a, support::did_you_mean(a, option_names())));
    cl.positional.push_back(a);
  }
}

/// The command named by the first argument; the index of the first argument after it.
std::size_t parse_command(CommandLine& cl, const std::vector<std::string>& args) {
  const auto& commands = command_names();
  if (!args.empty() && std::find(commands.begin(), commands.end(), args[0]) != commands.end()) {
    cl.command = args[0];
    cl.command_named = true;
    return 1;
  }
  if (!args.empty() && !args[0].starts_with("-") && !std::filesystem::exists(args[0])) {
    // Not a command and not a scenario file: a mistyped command, when it is close to one.
    if (const std::string hint = support::did_you_mean(args[0], commands); !hint.empty())
      throw UsageError(fmt::format("unknown command '{}'{}", args[0], hint));
  }
  return 0;
}

/// `merge SHARD...`: the shard files, and options of what to write only.
void check_merge_arguments(const CommandLine& cl) {
  static const std::vector<std::string> allowed = {"--json",   "--text",  "--html",  "--csv", "--sweep-json",
                                                   "--detail", "--depth", "--procs", "--log"};
  for (const std::string& o : cl.options) {
    if (std::find(allowed.begin(), allowed.end(), o) == allowed.end())
      throw UsageError(fmt::format("{} is not an option of merge (it writes the reports of the shards' run: {})", o,
                                   fmt::join(allowed, " ")));
  }
  if (cl.positional.empty()) throw UsageError("merge needs the shard files (augur run --shard K/N --partial FILE)");
}

/// --shard K/N --partial FILE come together, in `run`; the reports are then merge's to write.
void check_shard_arguments(const CommandLine& cl) {
  if (!cl.shard && cl.partial.empty()) return;
  if (cl.command != "run") throw UsageError("--shard and --partial are options of run");
  if (!cl.shard) throw UsageError("--partial needs --shard K/N");
  if (cl.partial.empty() || cl.partial == "-") throw UsageError("--shard needs --partial FILE (the shard file)");
  for (const auto& [option, value] :
       std::array<std::pair<const char*, const std::string*>, 5>{{{"--json", &cl.json},
                                                                  {"--text", &cl.text},
                                                                  {"--html", &cl.html},
                                                                  {"--csv", &cl.csv},
                                                                  {"--sweep-json", &cl.sweep_json}}}) {
    if (!value->empty())
      throw UsageError(
          fmt::format("{}: with --shard the reports are written by augur merge from the shard files", option));
  }
}

/// The positional arguments of the command, checked once every option is read.
void check_arguments(CommandLine& cl) {
  if (cl.help || cl.command == "help") {
    return;  // the help of a command: its arguments are not checked
  }
  if (cl.command == "predict") {
    check_predict_arguments(cl);
  } else if (cl.command == "merge") {
    check_merge_arguments(cl);
  } else if (cl.command == "calibrate" || cl.command == "convert") {
    for (const std::string& o : cl.options) {  // convert to otf2:DIR runs the trace on a machine
      if (cl.command == "calibrate" || (o != "--machine" && o != "--set"))
        throw UsageError(fmt::format("{} is not an option of {}", o, cl.command));
    }
  } else if (cl.command != "info" && !cl.positional.empty()) {
    if (cl.positional.size() > 1) throw UsageError(fmt::format("unexpected argument '{}'", cl.positional[1]));
    cl.scenario = cl.positional[0];
  }
  if (cl.extras && cl.command != "predict") throw UsageError("--extras is an option of predict");
  if (cl.monitor && cl.command != "run" && cl.command != "step")
    throw UsageError("--monitor is an option of run and step");
  check_shard_arguments(cl);
}

/// --monitor [ADDR:PORT]: the value is optional, the next word is taken when it is an ADDR:PORT;
/// returns the index of the last argument used.
std::size_t parse_monitor(CommandLine& cl, const std::vector<std::string>& args, std::size_t i, bool has_inline,
                          const std::string& inline_value) {
  cl.options.push_back("--monitor");
  const bool next = !has_inline && i + 1 < args.size() && monitor::parse_endpoint(args[i + 1]);
  const std::string v = has_inline ? inline_value : (next ? args[++i] : "127.0.0.1:0");
  cl.monitor = monitor::parse_endpoint(v);
  if (!cl.monitor) throw UsageError(fmt::format("--monitor: '{}' is not ADDRESS:PORT (127.0.0.1:8080)", v));
  return i;
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine cl;
  cl.arguments = args;
  for (std::size_t i = parse_command(cl, args); i < args.size(); ++i) {
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
    if (a == "--monitor") {
      i = parse_monitor(cl, args, i, has_inline, inline_value);
      continue;
    }
    const OptionValue val = [&]() -> std::string {
      if (has_inline) return inline_value;
      if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", a));
      return args[++i];
    };
    parse_argument(cl, a, has_inline, val);
  }
  check_arguments(cl);
  return cl;
}

}  // namespace augur::tools
