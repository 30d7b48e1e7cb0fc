// The help of each command, "did you mean", the version.
#include "tools/help.hpp"

#include "machines/param.hpp"
#include "models/report/version.hpp"

namespace augur::tools {

std::string_view version() { return models::report::augur_version(); }

const std::vector<std::string>& command_names() {
  static const std::vector<std::string> names = {"run",   "step",      "check",   "info",    "predict",
                                                 "merge", "calibrate", "convert", "version", "help"};
  return names;
}

const std::vector<std::string>& option_names() {
  static const std::vector<std::string> names = {
      "--help",    "--version",    "--trace",      "--program",         "--machine",      "--processors", "--grid",
      "--set",     "--json",       "--text",       "--detail",          "--depth",        "--procs",      "--extras",
      "--html",    "--csv",        "--sweep-json", "--event-log",       "--chrome-trace", "--paraver",    "--log",
      "--jobs",    "--max-events", "--max-time",   "--characteristics", "--wait-states",  "--monitor",    "--shard",
      "--partial", "--hostfile",   "--cfg"};
  return names;
}

namespace {

const char* const run_help =
    "usage: augur run [SCENARIO] [options]\n"
    "Runs every variant of SCENARIO (a YAML file; none: the bundled scenarios/examples/default.yaml, or\n"
    "the scenario --trace and --machine make) and prints a summary: per variant the predicted time,\n"
    "the efficiency, the lost time, the top wait state, the longest phases and the advice, then the\n"
    "sweep table when there are several variants.\n"
    "what to run:\n"
    "  --trace KIND:PATH        the trace to replay, without a scenario (machine: platform_cluster_64):\n"
    "      ti:PATH              SimGrid time-independent trace: an index file listing one file per\n"
    "                           rank, or one file of every rank's actions; plain, .gz or .zst; {P}\n"
    "                           in PATH becomes the processor count\n"
    "      dvm:PATH             Lib-DVM trace (.ptr, merged or raw <prog>0_0.ptr; also ptr:PATH) on\n"
    "                           the processor grids of --grid\n"
    "      synthetic:P=N,I=M    the benchmark workload generated on the fly (no files)\n"
    "  --program FILE.yaml      a program skeleton instead of a trace (needs --processors; parameters:\n"
    "                           --set program.N=64, sweep.program.N=32,64; traces/skeleton/README.md)\n"
    "  --machine NAME|PATH      a ready machine (augur info machines), a YAML / Predictor .par file, or\n"
    "                           a SimGrid platform file (.xml: machines/platform/README.md)\n"
    "  --hostfile FILE          SimGrid platform: the ranks' hosts as smpirun -hostfile places them\n"
    "                           (host or host:N per line); none: the hosts sorted by name\n"
    "  --cfg=NAME:VALUE         SimGrid platform: a SimGrid option (network/model:CM02|LV08|SMPI,\n"
    "                           network/crosstraffic, network/TCP-gamma, smpi/simulate-computation, ...)\n"
    "  --processors N[,N...]    processor counts (TI: one trace per count through {P})\n"
    "  --grid D1xD2...          DVM processor grid, repeatable: --grid 2x2 --grid 4x4\n"
    "  --set KEY=VALUE          override a scenario key: machine.latency=10us, model.collectives=analytic\n"
    "what to write (FILE - is standard output):\n"
    "  --detail                 the full report on standard output instead of the summary: per rank,\n"
    "                           the characteristics of every interval, wait states, root causes\n"
    "  --text FILE              the full report to FILE (the summary still goes to standard output)\n"
    "  --depth N, --procs LIST  characteristics in the full report: intervals of LEVEL <= N; the\n"
    "                           per-processor part for these processors only (1,3-4; none)\n"
    "  --json FILE              every number as JSON\n"
    "  --html FILE              one self-contained page: summary, bars, characteristics, wait states,\n"
    "                           sweep table and plots\n"
    "  --csv FILE, --sweep-json FILE   the sweep table (one row per variant)\n"
    "  --event-log FILE         one line per event\n"
    "  --chrome-trace FILE      timeline for Perfetto (ui.perfetto.dev) or chrome://tracing\n"
    "  --paraver PREFIX         timeline for Paraver: PREFIX.prv, PREFIX.pcf, PREFIX.row\n"
    "  --otf2 DIR               message-passing runs: the predicted run as an OTF2 archive\n"
    "                           DIR/traces.otf2 (Vampir; augur reads it back with --trace otf2:)\n"
    "  With several variants each timeline and event log is one file per variant: F.json becomes\n"
    "  F.v1.json, F.v2.json, ... (Paraver: PREFIX.v1.prv, ...; OTF2: DIR.v1/).\n"
    "how to run:\n"
    "  --jobs N                 variants in parallel (default: the number of cores; same output)\n"
    "  --max-events N, --max-time SECONDS   stop each variant there\n"
    "  --characteristics auto|on|off   characteristics of message-passing runs (auto: up to 65536\n"
    "                           processors)\n"
    "  --wait-states on|off     wait states, root causes and advice (off: faster, prediction only)\n"
    "  --log [CAT=]LEVEL[,...]  log on stderr (engine, machines, traces, models, scenarios, tools)\n"
    "  --monitor [ADDR:PORT]    watch the run in a browser: serves a page on 127.0.0.1 (port 0: a free\n"
    "                           one) and prints its URL with a random token on stderr; pause, resume,\n"
    "                           step, run to a time or an event kind, click a processor to see it\n"
    "  --shard K/N --partial FILE   only the variants whose position (from 0) is K mod N; their results\n"
    "                           to FILE for augur merge (the reports are merge's; tools/slurm/)\n"
    "exit status: 0 every variant completed, 1 a run deadlocked or failed, 2 bad input\n";

const char* const calibrate_help =
    "usage: augur calibrate osu_latency=FILE [osu_bw=FILE] [osu_bibw=FILE] [osu_latency_intra=FILE]\n"
    "                       [osu_bw_intra=FILE] [osu_bibw_intra=FILE] [ert=FILE] [stream=FILE]\n"
    "                       [cores=N] [performance=GFLOPS] [eager=BYTES]\n"
    "  Writes a loggp_smp machine (YAML) on standard output: latency = intercept of the least-squares\n"
    "  line through osu_latency's (size, time) rows, split at eager= (65536 B) into size tables\n"
    "  (latency_factors, bandwidth_factors) when one line is over 10 % off somewhere; bandwidth =\n"
    "  osu_bw's best rate, else osu_bibw's / 2, else 1 / the slope; the _intra files give the\n"
    "  intra-node figures. ert= (peak GFLOP/s, memory levels) and stream= (Triad: DRAM) add a roofline\n"
    "  node of cores= cores (tools/calibrate/README.md). Exit status 0, or 2 for bad input.\n";

const char* const convert_help =
    "usage: augur convert FORMAT:PATH OUT_DIR\n"
    "  Writes the message-passing trace FORMAT:PATH (otf2:traces.otf2[,recorded_on=F], ti:, synthetic:)\n"
    "  as a SimGrid 3.32 time-independent trace: OUT_DIR/trace.txt (the index) and OUT_DIR/rank<r>.txt,\n"
    "  sizes in MPI_BYTE, compute in flops as augur replays it. smpirun -replay OUT_DIR/trace.txt and\n"
    "  augur run --trace ti:OUT_DIR/trace.txt read it. Collectives on sub-communicators have no TI form\n"
    "  (an error). Exit status 0, or 2 for bad input.\n";

const char* const merge_help =
    "usage: augur merge SHARD... [--json FILE] [--text FILE] [--html FILE] [--csv FILE] [--sweep-json FILE]\n"
    "                  [--detail] [--depth N] [--procs LIST]\n"
    "Joins the shard files of `augur run SCENARIO --shard K/N --partial SHARD` (K = 0 .. N-1, every\n"
    "shard once, the same augur and command line) and writes the reports of the whole run, the same\n"
    "bytes a single `augur run SCENARIO` writes with these options: the summary on standard output,\n"
    "the reports the options (or the scenario's outputs) name. Exit status as augur run's.\n";

const char* const check_help =
    "usage: augur check SCENARIO [--set KEY=VALUE]...\n"
    "Validates SCENARIO and its machines and lists the variants it would run, without running them.\n";

const char* const info_help =
    "usage: augur info [machines [NAME] | formats | collectives]\n"
    "  machines         the ready machines of machines/library and the machine models, one line each\n"
    "  machines NAME    one ready machine (its parameters) or one model (parameters, units, defaults)\n"
    "  formats          the trace formats and the outputs\n"
    "  collectives      the collective algorithms of model.collectives\n";

}  // namespace

std::string command_help(const std::string& command) {
  if (command == "run") return run_help;
  if (command == "step") {
    return std::string(run_help).replace(0, std::string_view("usage: augur run").size(), "usage: augur step") +
           "step: the run is driven by commands on standard input (break, step, print, blocked,\n"
           "continue; type 'help'); with --monitor, by the page instead (the run waits for it).\n";
  }
  if (command == "check") return check_help;
  if (command == "merge") return merge_help;
  if (command == "calibrate") return calibrate_help;
  if (command == "convert") return convert_help;
  if (command == "info") return info_help;
  return {};
}

}  // namespace augur::tools
