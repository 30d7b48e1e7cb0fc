// Broken OTF2 archives: each one is made here from Score-P's ping-pong sample (copied into the
// scratch folder and damaged) or written with a defect, and must give one `file: error: …`
// TraceError, never a crash, whether at open or while its records are read.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "tests/traces/otf2_test_archive.hpp"
#include "traces/otf2/otf2_trace.hpp"
#include "traces/trace_error.hpp"

namespace {

namespace fs = std::filesystem;
using augur::test::Otf2TestArchive;
using augur::traces::MpRecord;
using augur::traces::TraceError;

const fs::path sample = fs::path(AUGUR_SHARED_DIR) / "otf2-samples" / "ping-pong-otf2";
const fs::path scratch = fs::path(AUGUR_SCRATCH_DIR) / "otf2-broken";

/// A writable copy of the sample in `scratch/name`.
fs::path copy_sample(const std::string& name) {
  const fs::path dir = scratch / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(sample, dir, fs::copy_options::recursive);
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  fs::permissions(dir, fs::perms::owner_write, fs::perm_options::add);
  return dir;
}

void truncate_to(const fs::path& file, std::uintmax_t size) { fs::resize_file(file, size); }

void overwrite(const fs::path& file, std::uintmax_t at, const std::string& bytes) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(at));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// The error of opening `spec` and reading every record of every rank ("" when none).
std::string error_of(const std::string& spec) {
  try {
    const auto source = augur::traces::otf2::open_otf2_trace(spec);
    MpRecord r;
    for (int rank = 0; rank < source->rank_count(); ++rank) {
      while (source->next(rank, r)) {
      }
    }
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

/// An archive of 2 ranks whose rank 0 writes `events` (regions: 0 MPI_Send, 1 main).
std::string written(const std::string& name, const std::function<void(Otf2TestArchive&)>& events) {
  Otf2TestArchive a(scratch / name, 2);
  a.region("MPI_Send");
  a.region("main");
  events(a);
  return a.close();
}

}  // namespace

TEST_SUITE("traces") {
  TEST_CASE("OTF2: broken archives made from the sample give a clear error") {
    const fs::path anchor_of = "traces.otf2";
    SUBCASE("no such file") {
      const fs::path dir = copy_sample("missing-anchor");
      fs::remove(dir / anchor_of);
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / anchor_of).string() + ": error: cannot open: No such file or directory");
    }
    SUBCASE("a folder") {
      const fs::path dir = copy_sample("folder");
      CHECK(error_of(dir.string()) ==
            dir.string() + ": error: is a folder: name the archive's anchor file (traces.otf2)");
    }
    SUBCASE("not an archive") {
      const fs::path dir = copy_sample("text");
      std::ofstream(dir / anchor_of) << "0 init\n0 finalize\n";
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / anchor_of).string() + ": error: not an OTF2 archive (no OTF2 anchor file header)");
    }
    SUBCASE("a truncated anchor file") {
      const fs::path dir = copy_sample("short-anchor");
      truncate_to(dir / anchor_of, 40);
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / anchor_of).string() + ": error: cannot open the OTF2 archive: Archive creation failed!");
    }
    SUBCASE("no global definitions") {
      const fs::path dir = copy_sample("no-def");
      fs::remove(dir / "traces.def");
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / anchor_of).string() +
                ": error: cannot read the global definitions: Could not get global definition reader");
    }
    SUBCASE("truncated global definitions") {
      const fs::path dir = copy_sample("short-def");
      truncate_to(dir / "traces.def", 3000);
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / anchor_of).string() + ": error: cannot read the global definitions: Load of next chunk failed!");
    }
    SUBCASE("no event file") {
      const fs::path dir = copy_sample("no-evt");
      fs::remove(dir / "traces" / "1.evt");
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / "traces" / "1.evt").string() +
                ": error: cannot open the events of rank 1: Could not get local event reader");
    }
    SUBCASE("a truncated event file") {
      const fs::path dir = copy_sample("short-evt");
      truncate_to(dir / "traces" / "0.evt", 400);
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / "traces" / "0.evt").string() + ": error: cannot read the events: Load of next chunk failed!");
    }
    SUBCASE("an empty event file") {
      const fs::path dir = copy_sample("empty-evt");
      truncate_to(dir / "traces" / "1.evt", 0);
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / "traces" / "1.evt").string() +
                ": error: cannot open the events of rank 1: Could not get local event reader");
    }
    SUBCASE("garbage in an event file") {
      const fs::path dir = copy_sample("garbage-evt");
      overwrite(dir / "traces" / "0.evt", 200, std::string(300, '\xff'));
      CHECK(error_of((dir / anchor_of).string()) ==
            (dir / "traces" / "0.evt").string() +
                ": error: cannot read the events: Could not read record of unknown type.");
    }
    SUBCASE("a bad recorded_on") {
      const std::string anchor = (sample / anchor_of).string();
      CHECK(error_of(anchor + ",recorded_on=fast") ==
            anchor + ": error: recorded_on: 'fast' is not a positive speed in flops/s");
      CHECK(error_of(anchor + ",recorded_on=-1") ==
            anchor + ": error: recorded_on: '-1' is not a positive speed in flops/s");
    }
  }

  TEST_CASE("OTF2: archives written with a defect give a clear error") {
    const auto evt0 = [](const std::string& anchor) {
      return (fs::path(anchor).parent_path() / "traces" / "7.evt").string();
    };
    SUBCASE("an unknown communicator") {
      const std::string anchor = written("unknown-comm", [](Otf2TestArchive& a) {
        a.enter(0, 1, 0);
        OTF2_EvtWriter_MpiSend(a.rank(0), nullptr, 2, 1, 9, 0, 8);
        a.leave(0, 3, 0);
      });
      CHECK(error_of(anchor) == evt0(anchor) + ":2: error: unknown communicator 9 (not among the definitions)");
    }
    SUBCASE("a peer beyond its communicator") {
      const std::string anchor = written("peer", [](Otf2TestArchive& a) {
        a.enter(0, 1, 0);
        OTF2_EvtWriter_MpiSend(a.rank(0), nullptr, 2, 5, 0, 0, 8);
        a.leave(0, 3, 0);
      });
      CHECK(error_of(anchor) == evt0(anchor) + ":2: error: rank 5 of communicator 0, which has 2 ranks");
    }
    SUBCASE("an unknown region") {
      const std::string anchor = written("region", [](Otf2TestArchive& a) { a.enter(0, 1, 42); });
      CHECK(error_of(anchor) == evt0(anchor) + ":1: error: Enter: unknown region 42");
    }
    SUBCASE("leaving an MPI call never entered") {
      const std::string anchor = written("leave", [](Otf2TestArchive& a) { a.leave(0, 1, 0); });
      CHECK(error_of(anchor) == evt0(anchor) + ":1: error: Leave of MPI_Send without its Enter");
    }
    SUBCASE("an unknown collective operation") {
      const std::string anchor = written("collective", [](Otf2TestArchive& a) {
        OTF2_EvtWriter_MpiCollectiveEnd(a.rank(0), nullptr, 1, 99, 0, 0, 0, 0);
      });
      CHECK(error_of(anchor) == evt0(anchor) + ":1: error: MpiCollectiveEnd: unknown collective operation 99");
    }
    SUBCASE("a collective on an unknown communicator") {
      const std::string anchor = written("collective-comm", [](Otf2TestArchive& a) {
        OTF2_EvtWriter_MpiCollectiveEnd(a.rank(0), nullptr, 1, OTF2_COLLECTIVE_OP_BCAST, 9, 0, 8, 8);
      });
      CHECK(error_of(anchor) ==
            evt0(anchor) + ":1: error: MPI_Bcast: unknown communicator 9 (not among the definitions)");
    }
    SUBCASE("a collective root beyond its communicator") {
      const std::string anchor = written("collective-root", [](Otf2TestArchive& a) {
        OTF2_EvtWriter_MpiCollectiveEnd(a.rank(0), nullptr, 1, OTF2_COLLECTIVE_OP_BCAST, 0, 5, 8, 8);
      });
      CHECK(error_of(anchor) == evt0(anchor) + ":1: error: MPI_Bcast: root 5 but the communicator has 2 ranks");
    }
    SUBCASE("a receive completion on an unknown communicator") {
      const std::string anchor = written("irecv-comm", [](Otf2TestArchive& a) {
        OTF2_EvtWriter_MpiIrecvRequest(a.rank(0), nullptr, 1, 3);
        OTF2_EvtWriter_MpiIrecv(a.rank(0), nullptr, 2, 1, 9, 0, 8, 3);
      });
      CHECK(error_of(anchor) == evt0(anchor) + ":2: error: unknown communicator 9 (not among the definitions)");
    }
    SUBCASE("a communicator member beyond the MPI ranks") {
      const std::string anchor = written("member", [](Otf2TestArchive& a) { a.comm({0, 7}); });
      CHECK(error_of(anchor) == anchor + ": error: communicator 1 has member 7 but the trace has 2 MPI ranks");
    }
    SUBCASE("no MPI locations") {
      const std::string anchor = written("no-mpi", [](Otf2TestArchive& a) { a.without_mpi_locations(); });
      CHECK(error_of(anchor) ==
            anchor + ": error: no MPI locations (no COMM_LOCATIONS group of paradigm MPI): not an MPI trace");
    }
  }
}
