// `augur convert`: OTF2 traces written as SimGrid TI traces. A world-only trace and its TI form
// must predict the same run; what TI cannot say (sub-communicators) is an error.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"
#include "traces/ti/ti_writer.hpp"
#include "traces/trace_error.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path scratch = fs::path(AUGUR_SCRATCH_DIR) / "convert";

std::string recorded(const std::string& name) {
  fs::create_directories(scratch);
  const std::string archive = std::string(AUGUR_SOURCE_DIR) + "/tests/data/otf2/" + name + ".tar.zst";
  const std::string cmd = "tar --zstd -xf '" + archive + "' -C '" + scratch.string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return (scratch / name / "traces.otf2").string();
}

nlohmann::json totals(const std::string& trace, const std::string& name) {
  const fs::path json = scratch / (name + ".json");
  const auto run = augur::test::run_augur("run --trace '" + trace + "' --machine platform_cluster_64 --json '" +
                                          json.string() + "'");
  REQUIRE_MESSAGE(run.status == 0, run.err);
  const auto variant = nlohmann::json::parse(augur::test::slurp(json)).at("variants").at(0);
  CHECK(variant.at("outcome") == "completed");
  return variant.at("totals");
}

augur::traces::MpRecord record(augur::traces::MpOpKind kind) {
  augur::traces::MpRecord r;
  r.kind = kind;
  r.line = 9;
  return r;
}

}  // namespace

TEST_SUITE("tools") {
  TEST_CASE("convert: TI lines of records - sizes in MPI_BYTE") {
    using augur::traces::MpOpKind;
    using augur::traces::ti::ti_line;
    auto send = record(MpOpKind::isend);
    send.peer = 1;
    send.tag = 7;
    send.bytes = 64;
    CHECK(ti_line(send, 3, 4, "f") == "3 isend 1 7 64 6");
    auto compute = record(MpOpKind::compute);
    compute.amount = 0.1 + 0.2;  // the shortest text that reads back to the same double
    CHECK(ti_line(compute, 0, 4, "f") == "0 compute 0.30000000000000004");
    auto reduce = record(MpOpKind::reduce);
    reduce.bytes = 64;
    reduce.root = 2;
    CHECK(ti_line(reduce, 1, 4, "f") == "1 reduce 64 0 2 6");
    CHECK(ti_line(record(MpOpKind::barrier), 1, 4, "f") == "1 barrier");
    auto rs = record(MpOpKind::reduce_scatter);
    const std::uint64_t counts[] = {8, 16};
    rs.counts = counts;
    CHECK(ti_line(rs, 0, 2, "f") == "0 reducescatter 8 16 0 6");
    auto sub = record(MpOpKind::bcast);
    sub.comm = 2;
    CHECK(ti_line(sub, 0, 4, "r0.evt", true) == "0 bcast 0 0 6");  // a communicator of every rank in order
    CHECK_THROWS_WITH_AS(ti_line(sub, 0, 4, "r0.evt", false),
                         "r0.evt:9: error: bcast on communicator 2: a TI trace has no communicators (SimGrid "
                         "replays every collective on MPI_COMM_WORLD)",
                         augur::traces::TraceError);
  }

  // The stencil's allreduces run on its Cartesian communicator of every rank in order.
  TEST_CASE("convert: the recorded stencil and ping-pong predict the same run as OTF2 and as TI") {
    for (const std::string name : {"stencil2d", "ping_pong"}) {
      CAPTURE(name);
      const std::string otf2 = recorded(name);
      const fs::path out = scratch / (name + "-ti");
      const auto run = augur::test::run_augur("convert 'otf2:" + otf2 + "' '" + out.string() + "'");
      REQUIRE_MESSAGE(run.status == 0, run.err);
      CHECK(run.out.find("/trace.txt: ") != std::string::npos);
      const auto a = totals("otf2:" + otf2, name + "-otf2");
      const auto b = totals("ti:" + (out / "trace.txt").string(), name + "-ti");
      CHECK(a.at("end_s").get<double>() > 0);
      CHECK(b.at("end_s").get<double>() == doctest::Approx(a.at("end_s").get<double>()).epsilon(1e-12));
      CHECK(b.at("compute_s").get<double>() == doctest::Approx(a.at("compute_s").get<double>()).epsilon(1e-12));
      for (const char* key : {"messages_sent", "bytes_sent", "collectives"}) CHECK(b.at(key) == a.at(key));
    }
  }

  TEST_CASE("convert: sub-communicators and non-message-passing traces are errors") {
    const auto sub = augur::test::run_augur("convert 'otf2:" + recorded("subcomm") + "' '" +
                                            (scratch / "subcomm-ti").string() + "'");
    CHECK(sub.status == 2);
    CHECK(sub.err.find(": error: bcast on communicator ") != std::string::npos);
    const auto dvm = augur::test::run_augur("convert dvm:x.ptr '" + (scratch / "dvm-ti").string() + "'");
    CHECK(dvm.status == 2);
    CHECK(dvm.err.find("only ti, otf2 and synthetic traces convert to TI") != std::string::npos);
    const auto usage = augur::test::run_augur("convert otf2:x.otf2");
    CHECK(usage.status == 2);
  }
}
