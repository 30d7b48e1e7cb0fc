// Runs the variants of a scenario: builds machine, trace source, program model, scheduler and
// observers for each, on a thread pool of --jobs workers; results come back in variant order.
#pragma once
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "machines/registry.hpp"
#include "models/report/report.hpp"
#include "scenarios/scenario.hpp"

namespace augur::tools {
namespace monitor {
class Server;
}

/// Whether message-passing runs compute their characteristics (spec section 8; DVM runs always
/// do): they cost about 230 bytes per processor and interval shown (120 plus 56 per operation
/// kind present), and on fine-grained runs up to about 15 % more CPU (docs/performance.md).
enum class CharacteristicsMode : std::uint8_t {
  automatic,  ///< up to `characteristics_limit` processors (a warning says when they are not)
  on,
  off,
};
/// The most processors `CharacteristicsMode::automatic` computes characteristics for (~15 MB for
/// Main, as much again for its report).
inline constexpr int characteristics_limit = 65536;

/// Options of a run that are not part of the scenario.
struct RunOptions {
  std::string event_log;               ///< event log file ("" = off); variant k > 1 of several gets ".vK" inserted
  std::string chrome_trace;            ///< Chrome trace-event JSON file ("" = off); ".vK" inserted like the event log's
  std::string paraver;                 ///< Paraver PREFIX.prv/.pcf/.row ("" = off); several variants: PREFIX.vK
  std::string otf2;                    ///< OTF2 archive folder of message-passing runs ("" = off); several: DIR.vK
  unsigned jobs = 1;                   ///< worker threads for independent variants
  std::uint64_t max_events = 0;        ///< stop each variant after this many events (0 = no limit)
  double max_time = 0;                 ///< stop each variant at this simulated time (0 = no limit)
  std::istream* step_in = nullptr;     ///< stepping the first variant: commands from here (forces jobs = 1)
  std::ostream* step_out = nullptr;    ///< stepping: prompts and answers here
  std::ostream* progress = nullptr;    ///< live progress line here (a terminal), nullptr = silent
  monitor::Server* monitor = nullptr;  ///< --monitor: the runs are watched, one at a time (tools/monitor)
  bool monitor_paused = false;         ///< augur step --monitor: the first variant waits for the page (jobs = 1)
  CharacteristicsMode characteristics = CharacteristicsMode::automatic;  ///< message-passing runs
  /// Wait states, root causes, wait sites and advice (spec section 9), message-passing and DVM
  /// runs; off: the predicted times and the time per processor only, faster (docs/performance.md).
  bool wait_states = true;
  /// Fill VariantResult::machine_params (what the JSON report lists under `machine.parameters`):
  /// the CLI turns it off when no JSON is written, since spelling every parameter in its shortest
  /// unit costs ~250,000 instructions per variant, 7 % of a 600-action run.
  bool machine_params = true;
  /// `--shard K/N`: run only the variants whose 0-based position is K modulo N.
  std::size_t shard = 0;
  std::size_t shards = 1;
  /// `augur predict`: DVM runs reproduce the original Predictor's quirks (DvmOptions::quirks).
  bool dvm_quirks = false;
};

/// Live progress of a scenario run, shared by variants running in parallel.
struct Progress {
  std::atomic<std::uint64_t> events{0};  ///< events simulated so far, all variants
  std::atomic<std::uint64_t> done{0};    ///< variants finished
  std::atomic<double> simulated{0};      ///< latest simulated time reported by a variant
};

/// An input error found while preparing a variant (trace unreadable, processors mismatch):
/// what() is the complete "file:line: error: ..." message.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs variant `index` (1-based) of `count`; the count names per-variant output files. Throws
/// InputError / traces::TraceError / scenarios::ConfigError for bad input found before the run
/// starts; errors during the run end up in the result's outcome. The result holds the
/// characteristics of the run (`VariantResult::intervals`: DvmCharacteristics, or MpCharacteristics
/// as options.characteristics says) and for message-passing runs the wait states and root causes.
models::report::VariantResult run_variant(const scenarios::Scenario& scenario, const scenarios::Variant& variant,
                                          int index, std::size_t count, const machines::MachineRegistry& registry,
                                          const RunOptions& options, Progress* progress = nullptr);

/// Runs every variant of `scenario` (in parallel when options.jobs > 1), or those of
/// options.shard; results in variant order, each with its index among all variants.
std::vector<models::report::VariantResult> run_scenario(const scenarios::Scenario& scenario,
                                                        const machines::MachineRegistry& registry,
                                                        const RunOptions& options);

/// The event-log file name of variant `index` of `count`.
std::string event_log_name(const std::string& base, int index, std::size_t count);
/// The --otf2 folder of variant `index` of `count`: DIR, or DIR.vK when there are several.
std::string otf2_archive_name(const std::string& base, int index, std::size_t count);

}  // namespace augur::tools
