// Tests of the Lib-DVM generator of tools/bench/dvm_gen (tools/bench/synthetic_dvm_writer):
// its traces read back through DvmTraceReader without warnings, with the call sequence of
// dvm-samples/jac1d.ptr, the counts and TIME sums it reports, in every compression.
#include "tools/bench/synthetic_dvm_writer.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "traces/libdvm/dvm_trace_reader.hpp"
#include "traces/trace_error.hpp"

#include "tests/support/files.hpp"

using augur::bench::DvmJacobiSpec;
using augur::bench::parse_dvm_jacobi_spec;
using augur::bench::write_dvm_jacobi;
using augur::bench::WrittenDvmTrace;
using augur::test::slurp;
using augur::test::TempDir;
using augur::traces::TraceError;
using augur::traces::libdvm::DvmCall;
using augur::traces::libdvm::DvmFunction;
using augur::traces::libdvm::DvmTraceReader;

namespace {

struct ReadBack {
  std::vector<std::string> names;
  std::map<std::string, int> counts;
  double time_sum = 0;
  std::vector<double> times;  ///< call and ret TIME of every call, in order
  std::vector<std::string> warnings;
  bool ended = false;
};

ReadBack read_back(const std::string& path) {
  ReadBack r;
  DvmTraceReader reader(path);
  DvmCall call;
  while (reader.next(call)) {
    r.names.emplace_back(call.name());
    ++r.counts[std::string(call.name())];
    r.time_sum += call.call_time() + call.ret_time();
    r.times.push_back(call.call_time());
    r.times.push_back(call.ret_time());
    CHECK(call.function() != DvmFunction::unknown);
  }
  r.warnings = reader.warnings();
  r.ended = reader.end_event() != nullptr && reader.end_event()->name == "dvm_exit";
  return r;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("the generated Jacobi trace has jac1d.ptr's call sequence (plus getps_) and reads without warnings") {
    TempDir dir;
    const DvmJacobiSpec spec = parse_dvm_jacobi_spec("N=8,I=11");
    const WrittenDvmTrace w = write_dvm_jacobi(spec, dir.file("jac.ptr"));
    const ReadBack ours = read_back(dir.file("jac.ptr"));
    CHECK(ours.warnings.empty());
    CHECK(ours.ended);
    const ReadBack sample = read_back(std::string(AUGUR_SHARED_DIR) + "/dvm-samples/jac1d.ptr");
    std::vector<std::string> expected = sample.names;
    expected.insert(expected.begin() + 1, "getps_");
    CHECK(ours.names == expected);
    CHECK(w.calls == ours.names.size());
    CHECK(w.text_bytes == w.bytes);
    CHECK(w.text_bytes == slurp(dir.file("jac.ptr")).size());
    // TIMEs: what the writer summed exactly (10 ns ticks) is what the reader reads.
    CHECK(std::abs(ours.time_sum - static_cast<double>(w.time_ticks) * 1e-8) < 1e-12);
    CHECK(w.silent_ticks > 0);
    CHECK(w.io_ret_ticks > 0);
  }

  TEST_CASE("the generated trace scales with N - I and D: counts of calls and the work of the loops") {
    TempDir dir;
    for (const char* text : {"N=50,I=7,D=1", "N=12,I=3,D=3,intervals=1", "N=30,I=0"}) {
      CAPTURE(text);
      const DvmJacobiSpec spec = parse_dvm_jacobi_spec(text);
      const WrittenDvmTrace w = write_dvm_jacobi(spec, dir.file("g.ptr"));
      ReadBack r = read_back(dir.file("g.ptr"));
      CHECK(r.warnings.empty());
      CHECK(r.ended);
      const auto it = static_cast<int>(spec.iterations);
      CHECK(r.counts["dopl_"] == 2 * (1 + 2 * it));
      CHECK(r.counts["strtrd_"] == it);
      CHECK(r.counts["strtsh_"] == it);
      CHECK(r.counts["crtda_"] == 2);
      CHECK(r.counts["bploop_"] == (spec.intervals ? 2 * it : 0));
      CHECK(r.counts["enloop_"] == (spec.intervals ? 2 * it + 1 : 0));
      CHECK(r.counts["bsloop_"] == (spec.intervals ? 2 : 0));
      CHECK(w.calls == r.names.size());
      CHECK(std::abs(r.time_sum - static_cast<double>(w.time_ticks) * 1e-8) < 1e-9);
    }
    // The work of a loop portion is elements × t: the initialising loop covers N^D elements.
    const WrittenDvmTrace w = write_dvm_jacobi(parse_dvm_jacobi_spec("N=100,I=1,t=1e-6"), dir.file("w.ptr"));
    const ReadBack r = read_back(dir.file("w.ptr"));
    double largest = 0;
    for (double t : r.times) largest = std::max(largest, t);
    CHECK(largest == doctest::Approx(100 * 100 * 1e-6));
    CHECK(w.calls == r.names.size());
  }

  TEST_CASE("gzip and zstd traces hold the same text as the plain one - the output is deterministic") {
    TempDir dir;
    const DvmJacobiSpec spec = parse_dvm_jacobi_spec("N=64,I=300,intervals=1");
    const WrittenDvmTrace plain = write_dvm_jacobi(spec, dir.file("a.ptr"));
    const WrittenDvmTrace again = write_dvm_jacobi(spec, dir.file("b.ptr"));
    CHECK(slurp(dir.file("a.ptr")) == slurp(dir.file("b.ptr")));
    CHECK(plain.text_bytes > std::size_t{1} << 20);  // crosses the writer's 1 MiB chunks
    const WrittenDvmTrace gz = write_dvm_jacobi(spec, dir.file("a.ptr.gz"));
    const WrittenDvmTrace zst = write_dvm_jacobi(spec, dir.file("a.ptr.zst"), 5);
    CHECK(gz.text_bytes == plain.text_bytes);
    CHECK(zst.text_bytes == plain.text_bytes);
    CHECK(gz.bytes < plain.bytes / 5);
    CHECK(zst.bytes < plain.bytes / 5);
    CHECK(gz.bytes == slurp(dir.file("a.ptr.gz")).size());
    const ReadBack a = read_back(dir.file("a.ptr"));
    const ReadBack b = read_back(dir.file("a.ptr.gz"));
    const ReadBack c = read_back(dir.file("a.ptr.zst"));
    CHECK(a.names == b.names);
    CHECK(a.names == c.names);
    CHECK(a.times == b.times);
    CHECK(a.times == c.times);
    CHECK(plain.calls == again.calls);
  }

  TEST_CASE("the Jacobi spec: keys - defaults and errors") {
    const DvmJacobiSpec s = parse_dvm_jacobi_spec("I=5,N=10");
    CHECK(s.size == 10);
    CHECK(s.iterations == 5);
    CHECK(s.rank == 2);
    CHECK(s.element_time == 1e-8);
    CHECK(!s.intervals);
    CHECK(to_string(parse_dvm_jacobi_spec("N=10,I=5,D=3,t=2e-9,intervals=1")) == "N=10,I=5,D=3,t=2e-09,intervals=1");
    auto message = [](const char* text) {
      try {
        parse_dvm_jacobi_spec(text);
      } catch (const TraceError& e) {
        return std::string(e.what());
      }
      return std::string("no error");
    };
    CHECK(message("N=10") == "dvm-jacobi:N=10: error: N and I are required (e.g. N=1000,I=200)");
    CHECK(message("N=2,I=1") == "dvm-jacobi:N=2,I=1: error: 'N' must be an integer in 3..1099511627776, got '2'");
    CHECK(message("N=10,I=1,D=4") == "dvm-jacobi:N=10,I=1,D=4: error: 'D' must be an integer in 1..3, got '4'");
    CHECK(message("N=10,I=1,t=0") ==
          "dvm-jacobi:N=10,I=1,t=0: error: 't' must be a positive number of seconds, got '0'");
    CHECK(message("N=10,I=1,P=4") ==
          "dvm-jacobi:N=10,I=1,P=4: error: unknown key 'P' (valid keys: N, I, D, t, intervals)");
    CHECK(message("N=10,I") == "dvm-jacobi:N=10,I: error: expected KEY=VALUE, got 'I'");
  }
}
