// End to end: a Lib-DVM trace from the generator of tools/bench/dvm_gen replayed by
// `augur run --trace dvm:FILE --machine machines/library/dvm_mvs.yaml --grid ...`.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/bench/synthetic_dvm_writer.hpp"

#include "tests/support/files.hpp"

namespace fs = std::filesystem;
using augur::bench::parse_dvm_jacobi_spec;
using augur::bench::write_dvm_jacobi;
using augur::bench::WrittenDvmTrace;
using augur::test::slurp;

namespace {

struct Run {
  int status = -1;
  std::string err;
  nlohmann::json json;
};

Run run_dvm(const fs::path& dir, const std::string& trace, const std::string& grids) {
  const fs::path json = dir / "out.json", err = dir / "err.txt";
  const std::string cmd = std::string("'") + AUGUR_BINARY + "' run --trace 'dvm:" + trace + "' --machine '" +
                          AUGUR_SOURCE_DIR + "/machines/library/dvm_mvs.yaml' " + grids + " --json '" + json.string() +
                          "' > /dev/null 2> '" + err.string() + "'";
  const int raw = std::system(cmd.c_str());
  Run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.err = slurp(err);
  if (r.status == 0) r.json = nlohmann::json::parse(slurp(json));
  return r;
}

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("augur replays generated Jacobi traces on grids 1 - 2x2 and 4x4 without warnings") {
    const fs::path dir = augur::test::scratch_dir("augur_dvm_gen_", "runs");
    for (const char* text : {"N=8,I=11", "N=16,I=20,intervals=1", "N=40,I=10,D=1", "N=10,I=4,D=3"}) {
      CAPTURE(text);
      const std::string trace = (dir / "jac.ptr.gz").string();
      const WrittenDvmTrace w = write_dvm_jacobi(parse_dvm_jacobi_spec(text), trace);
      const Run r = run_dvm(dir, trace, "--grid 1 --grid 2x2 --grid 4x4");
      REQUIRE_MESSAGE(r.status == 0, r.err);
      CHECK(r.err.find("warning") == std::string::npos);
      const auto& variants = r.json.at("variants");
      REQUIRE(variants.size() == 3);
      for (const auto& v : variants) {
        CHECK(v.at("outcome") == "completed");
        CHECK(v.at("warnings").empty());
      }
      // One processor: the sum of the TIMEs the DVM model charges (every call and ret TIME but
      // those of crtda_/align_, plus the ret TIMEs of the I/O calls once more as processor 0's
      // I/O time).
      const double sequential = static_cast<double>(w.time_ticks - w.silent_ticks + w.io_ret_ticks) * 1e-8;
      CHECK(variants[0].at("predicted_time_s").get<double>() == doctest::Approx(sequential).epsilon(1e-12));
      // A tiny program: more processors add communication and replicated overheads, no more.
      for (int k = 1; k < 3; ++k) {
        const double t = variants[k].at("predicted_time_s").get<double>();
        CHECK(t > sequential * 0.5);
        CHECK(t < sequential * 3);
      }
    }
  }

  TEST_CASE("a generated Jacobi trace with enough work per iteration runs faster on more processors") {
    const fs::path dir = augur::test::scratch_dir("augur_dvm_gen_", "speedup");
    const std::string trace = (dir / "jac.ptr").string();
    const WrittenDvmTrace w = write_dvm_jacobi(parse_dvm_jacobi_spec("N=400,I=20,t=1e-8"), trace);
    const Run r = run_dvm(dir, trace, "--grid 1 --grid 2x2 --grid 4x4");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const auto& v = r.json.at("variants");
    const double t1 = v[0].at("predicted_time_s").get<double>();
    const double t4 = v[1].at("predicted_time_s").get<double>();
    const double t16 = v[2].at("predicted_time_s").get<double>();
    CHECK(t1 ==
          doctest::Approx(static_cast<double>(w.time_ticks - w.silent_ticks + w.io_ret_ticks) * 1e-8).epsilon(1e-12));
    MESSAGE("N=400, 20 iterations: " << t1 << " s on 1, " << t4 << " s on 2x2, " << t16 << " s on 4x4");
    CHECK(t4 < t1 / 2);
    CHECK(t16 < t4);
  }
}
