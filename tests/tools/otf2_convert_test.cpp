// `augur convert` to OTF2: a predicted run written as an OTF2 archive replays to the same
// prediction, and an EZTrace recording taken through TI and back keeps its records.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.hpp"
#include "tests/tools/run_augur.hpp"
#include "traces/mp_record.hpp"
#include "traces/trace_format.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path scratch = fs::path(AUGUR_SCRATCH_DIR) / "otf2-convert";

/// `augur run --trace SPEC [extra]`: its first variant's totals.
nlohmann::json totals(const std::string& spec, const std::string& name, const std::string& extra = "") {
  const fs::path json = scratch / (name + ".json");
  const auto run = augur::test::run_augur("run --trace '" + spec + "' --json '" + json.string() + "' " + extra);
  REQUIRE_MESSAGE(run.status == 0, run.err);
  const auto variant = nlohmann::json::parse(augur::test::slurp(json)).at("variants").at(0);
  CHECK(variant.at("outcome") == "completed");
  return variant.at("totals");
}

void convert(const std::string& from, const std::string& to, const std::string& extra = "") {
  const auto run = augur::test::run_augur("convert '" + from + "' '" + to + "' " + extra);
  REQUIRE_MESSAGE(run.status == 0, run.err);
}

/// Every record of every rank but the ones whose form OTF2 and TI spell differently: waits
/// (EZTrace's silent MPI_Waitall becomes TI's waitall; the archives augur writes carry each
/// completion, read back as one wait per request), init and finalize (TI only), code regions
/// (the written archive has none: consecutive computes are one).
std::vector<std::vector<augur::traces::MpRecord>> records(const std::string& spec) {
  auto source = augur::traces::find_trace_format("otf2")->open(spec);
  std::vector<std::vector<augur::traces::MpRecord>> out(static_cast<std::size_t>(source->rank_count()));
  // A communicator of every rank in order (the stencil's Cartesian grid) is the world in TI.
  const auto comms = source->communicators();
  std::vector<std::int32_t> world;
  for (int r = 0; r < source->rank_count(); ++r) world.push_back(r);
  for (int r = 0; r < source->rank_count(); ++r) {
    augur::traces::MpRecord rec;
    while (source->next(r, rec)) {
      using K = augur::traces::MpOpKind;
      if (rec.kind == K::wait || rec.kind == K::waitall || rec.kind == K::init || rec.kind == K::finalize ||
          rec.kind == K::location)
        continue;
      if (rec.comm > 0 && comms.at(static_cast<std::size_t>(rec.comm)) == world) rec.comm = 0;
      rec.counts = {};
      rec.text = {};
      rec.line = 0;
      rec.count = 0;
      auto& kept = out[static_cast<std::size_t>(r)];
      if (rec.kind == K::compute && !kept.empty() && kept.back().kind == K::compute) {
        kept.back().amount += rec.amount;  // split by a code region of the recording only
        continue;
      }
      kept.push_back(rec);
    }
  }
  return out;
}

}  // namespace

TEST_SUITE("tools") {
  TEST_CASE("convert TI to OTF2: the archive replays to the TI's prediction") {
    fs::remove_all(scratch / "hand");
    fs::create_directories(scratch / "hand");
    const fs::path ti = scratch / "hand" / "trace.txt";
    // Blocking and non-blocking messages (eager and rendezvous), a wait per request and a
    // waitall, collectives with roots, compute between them.
    std::ofstream(ti) << "0 init\n1 init\n2 init\n"
                         "0 compute 2e6\n1 compute 5e5\n2 compute 1e6\n"
                         "0 send 1 3 1000000\n1 recv 0 3 1000000\n"
                         "1 isend 2 4 800\n2 irecv 1 4 800\n2 compute 3e5\n1 compute 1e5\n"
                         "2 wait 1 2 4\n1 wait 1 2 4\n"
                         "0 bcast 4096 2 6\n1 bcast 4096 2 6\n2 bcast 4096 2 6\n"
                         "0 isend 2 5 70000\n0 irecv 1 6 100\n1 send 0 6 100\n2 recv 0 5 70000\n0 waitall 2\n"
                         "0 allreduce 128 0 6\n1 allreduce 128 0 6\n2 allreduce 128 0 6\n"
                         "0 compute 1e5\n0 barrier\n1 barrier\n2 barrier\n"
                         "0 finalize\n1 finalize\n2 finalize\n";
    const auto before = totals("ti:" + ti.string(), "hand-ti");
    convert("ti:" + ti.string(), "otf2:" + (scratch / "hand-otf2").string());
    const auto after = totals("otf2:" + (scratch / "hand-otf2" / "traces.otf2").string(), "hand-otf2");
    CHECK(after.at("end_s").get<double>() == doctest::Approx(before.at("end_s").get<double>()).epsilon(1e-12));
    CHECK(after.at("messages_sent") == before.at("messages_sent"));
    CHECK(after.at("bytes_sent") == before.at("bytes_sent"));
    CHECK(after.at("collectives") == before.at("collectives"));
    // The archive holds flops (its counter), not times: on a machine twice as fast the
    // compute halves as the TI's does.
    const std::string fast = "--set machine.cpu_speed=2Gflops";
    const auto before2 = totals("ti:" + ti.string(), "hand-ti-fast", fast);
    const auto after2 = totals("otf2:" + (scratch / "hand-otf2" / "traces.otf2").string(), "hand-otf2-fast", fast);
    CHECK(after2.at("end_s").get<double>() == doctest::Approx(before2.at("end_s").get<double>()).epsilon(1e-12));
    CHECK(before2.at("end_s").get<double>() < before.at("end_s").get<double>());
  }

  TEST_CASE("convert OTF2 to TI to OTF2: the EZTrace stencil keeps its records") {
    fs::create_directories(scratch);
    const std::string archive = std::string(AUGUR_SOURCE_DIR) + "/tests/data/otf2/stencil2d.tar.zst";
    REQUIRE(std::system(("tar --zstd -xf '" + archive + "' -C '" + scratch.string() + "'").c_str()) == 0);
    const std::string original = (scratch / "stencil2d" / "traces.otf2").string();
    convert("otf2:" + original, (scratch / "stencil2d-ti").string());
    convert("ti:" + (scratch / "stencil2d-ti" / "trace.txt").string(), "otf2:" + (scratch / "stencil2d-back").string());
    const auto a = records(original);
    const auto b = records((scratch / "stencil2d-back" / "traces.otf2").string());
    REQUIRE(a.size() == 4);
    REQUIRE(b.size() == a.size());
    for (std::size_t r = 0; r < a.size(); ++r) {
      CAPTURE(r);
      REQUIRE(b[r].size() == a[r].size());
      for (std::size_t i = 0; i < a[r].size(); ++i) {
        CAPTURE(i);
        CHECK(to_string(b[r][i].kind) == to_string(a[r][i].kind));
        CHECK(b[r][i].peer == a[r][i].peer);
        CHECK(b[r][i].tag == a[r][i].tag);
        CHECK(b[r][i].bytes == a[r][i].bytes);
        CHECK(b[r][i].root == a[r][i].root);
        CHECK(b[r][i].comm == a[r][i].comm);
        // Compute: recorded seconds × 1e9 in the original; the predicted seconds × the default
        // machine's 1e9 flops/s in the written counter.
        CHECK(b[r][i].amount == doctest::Approx(a[r][i].amount).epsilon(1e-9));
      }
    }
  }

  TEST_CASE("convert and run: a truncated OTF2 event file is an error with exit status 2") {
    fs::create_directories(scratch);
    const std::string archive = std::string(AUGUR_SOURCE_DIR) + "/tests/data/otf2/ping_pong.tar.zst";
    fs::remove_all(scratch / "ping_pong");
    REQUIRE(std::system(("tar --zstd -xf '" + archive + "' -C '" + scratch.string() + "'").c_str()) == 0);
    const fs::path evt = scratch / "ping_pong" / "traces" / "0.evt";
    fs::resize_file(evt, fs::file_size(evt) / 2);
    const std::string anchor = (scratch / "ping_pong" / "traces.otf2").string();
    for (const std::string& command :
         {"run --trace 'otf2:" + anchor + "'",
          "convert 'otf2:" + anchor + "' '" + (scratch / "broken-ti").string() + "'",
          "convert 'otf2:" + anchor + "' 'otf2:" + (scratch / "broken-otf2").string() + "'"}) {
      CAPTURE(command);
      const auto run = augur::test::run_augur(command);
      CHECK(run.status == 2);
      CHECK(run.err.find(": error: ") != std::string::npos);
      CHECK(run.err.find("Segmentation") == std::string::npos);
    }
  }
}
