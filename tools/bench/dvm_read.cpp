// augur_dvm_read: reads a Lib-DVM trace through DvmTraceReader only (no model, no engine) and
// prints how fast: the reader's share of `augur run --trace dvm:FILE` (docs/performance.md).
#include <sys/resource.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/libdvm/dvm_trace_reader.hpp"
#include "traces/line_reader.hpp"
#include "traces/trace_error.hpp"

namespace {

const char* const usage_text =
    "usage: augur_dvm_read [--fresh] [--dump] TRACE.ptr[.gz|.zst]\n"
    "Reads every call of the trace with DvmTraceReader and prints calls, parameters, the size of\n"
    "the text (uncompressed) and the CPU time. One DvmCall is reused (no allocation per call);\n"
    "--fresh reads each call into a new DvmCall, as a consumer that does not reuse one would.\n"
    "--dump prints every call (format_dvm_call, TIMEs also in hexadecimal), the warnings and the end\n"
    "event instead: for comparing two builds of the reader.\n";

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

using namespace augur::traces::libdvm;

/// The command line.
struct Options {
  bool fresh = false;
  bool dump = false;
  std::string trace;
};

/// Reads the options into `options`; returns the exit status when there is nothing to run
/// (--help: 0, a usage error: 2), nothing otherwise.
std::optional<int> parse_options(int argc, char** argv, Options& options) {
  std::vector<std::string_view> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << usage_text;
      return 0;
    }
    if (arg == "--fresh") {
      options.fresh = true;
    } else if (arg == "--dump") {
      options.dump = true;
    } else if (arg.starts_with("-")) {
      std::cerr << "augur_dvm_read: error: unknown option '" << arg << "'\n" << usage_text;
      return 2;
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 1) {
    std::cerr << "augur_dvm_read: error: expected one trace\n" << usage_text;
    return 2;
  }
  options.trace = std::string(positional[0]);
  return std::nullopt;
}

/// --dump: every call, the warnings and the end event.
void dump(const std::string& trace) {
  DvmTraceReader reader{trace};
  DvmCall call;
  while (reader.next(call)) {
    std::printf("%s | %a %a %llu %llu %u\n", format_dvm_call(call).c_str(), call.call_time(), call.ret_time(),
                static_cast<unsigned long long>(call.trace_line()),
                static_cast<unsigned long long>(call.ret_trace_line()), call.source_file_id());
  }
  for (const std::string& w : reader.warnings()) std::printf("%s\n", w.c_str());
  if (const DvmEndEvent* end = reader.end_event()) {
    std::printf("Event_%s %a %lld %s %llu\n", end->name.c_str(), end->time, static_cast<long long>(end->source_line),
                end->source_file.c_str(), static_cast<unsigned long long>(end->trace_line));
  }
}

/// The text size: a plain file's size; a compressed file's text (line ends included) from a
/// first pass that is not timed.
std::uint64_t text_bytes(const std::string& trace) {
  std::uint64_t bytes = 0;
  const DvmTraceReader probe{trace};
  for (const std::string& f : probe.files()) {
    if (!f.ends_with(".gz") && !f.ends_with(".zst")) {
      bytes += std::filesystem::file_size(f);
      continue;
    }
    augur::traces::LineReader lines(f);
    for (std::string_view line; lines.next(line);) bytes += line.size() + 1;
  }
  return bytes;
}

/// Reads every call, timed, and prints the counts and the speed.
void measure(const Options& options) {
  const std::uint64_t bytes = text_bytes(options.trace);
  const double start = cpu_seconds();
  DvmTraceReader reader{options.trace};
  std::uint64_t calls = 0, params = 0, last_line = 0;
  double times = 0;
  DvmCall reused;
  for (;;) {
    DvmCall local;
    DvmCall& call = options.fresh ? local : reused;
    if (!reader.next(call)) break;
    ++calls;
    params += call.param_count();
    times += call.call_time() + call.ret_time();
    last_line = call.ret_trace_line();
  }
  const double cpu = cpu_seconds() - start;
  std::printf(
      "%s: %llu calls, %llu parameters, last line %llu, TIMEs %.8f s, %llu bytes of text; %.3f s CPU, "
      "%.1f MB/s of text%s\n",
      options.trace.c_str(), static_cast<unsigned long long>(calls), static_cast<unsigned long long>(params),
      static_cast<unsigned long long>(last_line), times, static_cast<unsigned long long>(bytes), cpu,
      cpu > 0 ? static_cast<double>(bytes) / cpu / 1e6 : 0.0, options.fresh ? " (a fresh DvmCall per call)" : "");
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const std::optional<int> done = parse_options(argc, argv, options)) return *done;
  try {
    if (options.dump) {
      dump(options.trace);
    } else {
      measure(options);
    }
    return 0;
  } catch (const augur::traces::TraceError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
