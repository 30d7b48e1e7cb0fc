// augur_dvm_gen: writes a Lib-DVM trace of a Jacobi-like program of any size and iteration count
// (tools/bench/synthetic_dvm_writer.hpp), streamed to disk: issue 4, target 4.
#include <charconv>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/bench/synthetic_dvm_writer.hpp"
#include "traces/trace_error.hpp"

namespace {

const char* const usage_text =
    "usage: augur_dvm_gen [--level=L] N=<size>,I=<iterations>[,D=<rank>][,t=<seconds>][,intervals=0|1] OUT.ptr\n"
    "Writes the Lib-DVM trace (merged form, RTS 2889, the grammar of dvm-samples/jac1d.ptr) of a\n"
    "C-DVM Jacobi relaxation: two N^D arrays of doubles, block-distributed; per iteration a\n"
    "loop with a MAX reduction and a loop after a shadow renewal (widths 1), then a printf.\n"
    "  N          elements per dimension (>= 3)\n"
    "  I          iterations\n"
    "  D          dimensions, 1..3 (default 2)\n"
    "  t          seconds of loop body per element (default 1e-8)\n"
    "  intervals  1: trace the loops as intervals (bsloop_/bploop_/enloop_, as with -e1)\n"
    "OUT ending in .gz is gzip, .zst zstd, anything else plain text; --level sets the\n"
    "compression level (default: the library's). Prints what it wrote, and the sum of the\n"
    "TIMEs and the time the DVM model predicts on one processor.\n";

int usage_error(const std::string& message) {
  std::cerr << "augur_dvm_gen: error: " << message << "\n" << usage_text;
  return 2;
}

std::string seconds(std::uint64_t ticks) {
  std::string s = std::to_string(ticks / 100'000'000);
  std::string frac = std::to_string(ticks % 100'000'000);
  return s + "." + std::string(8 - frac.size(), '0') + frac;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace augur::traces;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  int level = 0;
  std::vector<std::string_view> positional;
  for (const std::string_view arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::cout << usage_text;
      return 0;
    }
    if (arg.starts_with("--level=")) {
      const std::string_view v = arg.substr(8);
      const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), level);
      if (error != std::errc{} || end != v.data() + v.size() || level < 1 || level > 19) {
        return usage_error("--level must be 1..19 (gzip: 1..9), got '" + std::string(v) + "'");
      }
    } else if (arg.starts_with("-") && arg.size() > 1) {
      return usage_error("unknown option '" + std::string(arg) + "'");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 2) return usage_error("expected a spec and an output file");
  try {
    const augur::bench::DvmJacobiSpec spec = augur::bench::parse_dvm_jacobi_spec(positional[0]);
    const std::string out(positional[1]);
    const augur::bench::WrittenDvmTrace w = augur::bench::write_dvm_jacobi(spec, out, level);
    std::cout << out << ": " << augur::bench::to_string(spec) << ", " << w.calls << " calls, " << w.lines << " lines, "
              << w.text_bytes << " bytes of text";
    if (w.bytes != w.text_bytes) std::cout << ", " << w.bytes << " bytes compressed";
    std::cout << "\nsum of TIMEs " << seconds(w.time_ticks)
              << " s; one processor: " << seconds(w.time_ticks - w.silent_ticks + w.io_ret_ticks) << " s\n";
    return 0;
  } catch (const TraceError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
