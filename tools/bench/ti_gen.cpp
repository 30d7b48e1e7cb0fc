// augur_ti_gen: writes the synthetic benchmark workload of issue 4 (P ranks × I iterations, see
// traces/synthetic/synthetic_trace.hpp) as a SimGrid TI trace, streamed to disk.
#include <charconv>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/bench/synthetic_ti_writer.hpp"
#include "traces/synthetic/synthetic_trace.hpp"
#include "traces/trace_error.hpp"

namespace {

const char* const usage_text =
    "usage: augur_ti_gen [--zstd[=LEVEL]] P=<ranks>,I=<iterations> FOLDER\n"
    "       augur_ti_gen --count P=<ranks>,I=<iterations>\n"
    "Writes FOLDER/trace.txt (the index, line r = rank<r>.txt) and one file per rank: per\n"
    "iteration compute (1 + r mod 4)e6 flops, irecv 1000 B from r-1, isend 1000 B to r+1,\n"
    "waitall, and an 8-byte allreduce every 10th iteration (TI grammar of SimGrid 3.32).\n"
    "  --zstd[=LEVEL]  compress rank files as rank<r>.txt.zst (default level 3)\n"
    "  --count         print the number of actions of the trace and exit (writes nothing)\n"
    "The same actions are generated on the fly by `augur run --trace synthetic:P=..,I=..`.\n";

int usage_error(const std::string& message) {
  std::cerr << "augur_ti_gen: error: " << message << "\n" << usage_text;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace augur::traces;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  int zstd_level = 0;
  bool count_only = false;
  std::vector<std::string_view> positional;
  for (const std::string_view arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::cout << usage_text;
      return 0;
    }
    if (arg == "--count") {
      count_only = true;
    } else if (arg == "--zstd") {
      zstd_level = 3;
    } else if (arg.starts_with("--zstd=")) {
      const std::string_view level = arg.substr(7);
      const auto [end, error] = std::from_chars(level.data(), level.data() + level.size(), zstd_level);
      if (error != std::errc{} || end != level.data() + level.size() || zstd_level < 1 || zstd_level > 19) {
        return usage_error("--zstd level must be 1..19, got '" + std::string(level) + "'");
      }
    } else if (arg.starts_with("-") && arg.size() > 1) {
      return usage_error("unknown option '" + std::string(arg) + "'");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != (count_only ? 1u : 2u)) return usage_error("expected a spec and an output folder");
  try {
    const synthetic::SyntheticSpec spec = synthetic::parse_synthetic_spec(positional[0]);
    if (count_only) {
      std::cout << synthetic::synthetic_action_count(spec) << "\n";
      return 0;
    }
    const augur::bench::WrittenTrace written =
        augur::bench::write_synthetic_ti(spec, std::string(positional[1]), zstd_level);
    std::cout << written.index << ": " << spec.ranks << " ranks, " << spec.iterations << " iterations, "
              << written.actions << " actions, " << written.text_bytes << " bytes of text";
    if (zstd_level > 0) std::cout << ", " << written.bytes << " bytes compressed";
    std::cout << "\n";
    return 0;
  } catch (const TraceError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
