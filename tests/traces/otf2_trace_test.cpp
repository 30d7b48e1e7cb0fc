// Tests of the OTF2 reader: the records of Score-P's ping-pong samples (../shared/otf2-samples)
// checked against their events as otf2-print shows them, and archives written here event by event.
#include "traces/otf2/otf2_trace.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <string>
#include <vector>

#include "tests/traces/otf2_test_archive.hpp"
#include "traces/trace_error.hpp"

namespace {

using augur::test::Otf2TestArchive;
using augur::traces::MpRecord;
using augur::traces::otf2::open_otf2_trace;

const std::string samples = std::string(AUGUR_SHARED_DIR) + "/otf2-samples/";
const std::filesystem::path scratch = std::filesystem::path(AUGUR_SCRATCH_DIR) / "otf2";

/// One record as text: its kind and the fields its kind uses.
std::string show(const MpRecord& r) {
  using K = augur::traces::MpOpKind;
  const std::string kind(augur::traces::to_string(r.kind));
  switch (r.kind) {
    case K::compute:
      return fmt::format("compute {:.6g}", r.amount);
    case K::location:
      return fmt::format("location {}:{}", r.text, r.count);
    case K::send:
    case K::isend:
    case K::recv:
    case K::irecv:
      return fmt::format("{} {} {} {}", kind, r.peer, r.tag, r.bytes);
    case K::wait:
      return fmt::format("wait {} {} {}", r.peer, r.peer2, r.tag);
    case K::waitall:
      return fmt::format("waitall {}", r.count);
    default:
      return fmt::format("{} root {} bytes {} {}{}", kind, r.root, r.bytes, r.bytes2,
                         r.comm == 0 ? std::string() : fmt::format(" comm {}", r.comm));
  }
}

/// Ranks read round robin, one record at a time, as the replay reads them.
std::vector<std::vector<std::string>> all_records(const std::string& spec) {
  const auto source = open_otf2_trace(spec);
  std::vector<std::vector<std::string>> out(static_cast<std::size_t>(source->rank_count()));
  std::vector<bool> done(out.size(), false);
  for (std::size_t left = out.size(); left > 0;) {
    for (std::size_t r = 0; r < out.size(); ++r) {
      MpRecord rec;
      if (done[r]) continue;
      if (source->next(static_cast<int>(r), rec)) {
        out[r].push_back(show(rec));
      } else {
        done[r] = true;
        --left;
      }
    }
  }
  return out;
}

std::map<std::string, int> kinds(const std::vector<std::string>& recs) {
  std::map<std::string, int> n;
  for (const std::string& r : recs) ++n[r.substr(0, r.find(' '))];
  return n;
}

/// Seconds of `ticks` at the sample's timer (2,095,197,216 ticks/s), as flops at 1e9 flops/s.
std::string flops(double ticks, double resolution = 2095197216.0, double speed = 1e9) {
  return fmt::format("compute {:.6g}", ticks / resolution * speed);
}

}  // namespace

TEST_SUITE("traces") {
  TEST_CASE("OTF2: Score-P's ping-pong becomes sends - receives and the compute between them") {
    const auto recs = all_records(samples + "ping-pong-otf2/traces.otf2");
    REQUIRE(recs.size() == 2);
    // Rank 0 (location 0) in otf2-print: Enter main 7397466977683839, Enter MPI_Init ...7702853,
    // Leave ...7382698364, Enter MPI_Comm_size ...7382716190, Leave ...7382719368, Enter
    // MPI_Comm_rank ...7382724588, Leave ...7382726976, Enter MPI_Send ...7382750926, MpiSend to
    // 1 tag 10 16384 bytes, Leave ...7382788022, Enter MPI_Recv ...7382791058, MpiRecv from 1 tag 20.
    const std::vector<std::string> head{"location int main(int, char**):5",
                                        flops(7397466977702853.0 - 7397466977683839.0),  // 19,014 ticks: 9.07506 µs
                                        flops(7397467382716190.0 - 7397467382698364.0),
                                        flops(7397467382724588.0 - 7397467382719368.0),
                                        flops(7397467382750926.0 - 7397467382726976.0),
                                        "send 1 10 16384",
                                        flops(7397467382791058.0 - 7397467382788022.0),
                                        "recv 1 20 16384"};
    REQUIRE(recs[0].size() > head.size());
    CHECK(std::vector<std::string>(recs[0].begin(), recs[0].begin() + 8) == head);
    CHECK(head[1] == "compute 9075.04");
    // 8 sizes from 16 KiB to 2 MiB, one round trip each.
    for (const auto& rank : recs) {
      const auto n = kinds(rank);
      CHECK(n.at("send") == 8);
      CHECK(n.at("recv") == 8);
      CHECK(n.at("location") == 1);
    }
    CHECK(recs[1][5] == "recv 0 10 16384");
    CHECK(std::count(recs[0].begin(), recs[0].end(), "send 1 10 2097152") == 1);
  }

  TEST_CASE("OTF2: recorded_on scales the recorded compute - a flop-less PAPI sample uses durations") {
    const auto slow = all_records(samples + "ping-pong-otf2/traces.otf2,recorded_on=2.5e9");
    CHECK(slow[0][1] == flops(19014, 2095197216.0, 2.5e9));
    CHECK(slow[0][1] == "compute 22687.6");
    // The PAPI sample counts cycles, cache misses and branches, no flops: durations it is.
    const auto papi = all_records(samples + "ping-pong-otf2-papi/traces.otf2");
    CHECK(papi[0][1] == flops(7396895680197675.0 - 7396895680158984.0, 2095191439.0));
    CHECK(kinds(papi[1]).at("send") == 8);
  }

  TEST_CASE("OTF2: non-blocking calls - their completions - and the compute outside MPI calls") {
    Otf2TestArchive a(scratch / "nonblocking", 2);
    const auto main = a.region("main", 12), irecv = a.region("MPI_Irecv"), isend = a.region("MPI_Isend"),
               waitall = a.region("MPI_Waitall");
    for (int r = 0; r < 2; ++r) {
      const std::uint32_t other = 1 - static_cast<std::uint32_t>(r);
      a.enter(r, 0, main);
      a.enter(r, 10, irecv);
      OTF2_EvtWriter_MpiIrecvRequest(a.rank(r), nullptr, 11, 5);
      a.leave(r, 12, irecv);
      a.enter(r, 20, isend);
      OTF2_EvtWriter_MpiIsend(a.rank(r), nullptr, 21, other, 0, 3, 800, 6);
      a.leave(r, 22, isend);
      a.enter(r, 100, waitall);
      OTF2_EvtWriter_MpiIrecv(a.rank(r), nullptr, 110, other, 0, 3, 800, 5);
      OTF2_EvtWriter_MpiIsendComplete(a.rank(r), nullptr, 120, 6);
      a.leave(r, 130, waitall);
      a.leave(r, 200, main);
    }
    const std::string anchor = a.close();
    const auto recs = all_records(anchor);
    // 1e9 ticks/s at 1e9 flops/s: a tick is a flop. The receive's source, tag and size come
    // from its completion, 99 ticks later.
    CHECK(recs[0] == std::vector<std::string>{"location main:12", "compute 10", "irecv 1 3 800", "compute 8",
                                              "isend 1 3 800", "compute 78", "wait 1 0 3", "wait 0 1 3", "compute 70"});
    CHECK(recs[1][2] == "irecv 0 3 800");
  }

  TEST_CASE("OTF2: a flop counter gives the compute - sub-communicator ranks map to world ranks") {
    Otf2TestArchive a(scratch / "flops", 3);
    a.flop_counter();
    const auto send = a.region("MPI_Send"), recv = a.region("MPI_Recv"), bcast = a.region("MPI_Bcast");
    const auto sub = a.comm({2, 0});      // rank 0 of sub is world 2, rank 1 world 0
    const auto perm = a.comm({1, 2, 0});  // every rank, in another order
    a.flops(0, 0, 1000);
    a.flops(0, 50, 4000);
    a.enter(0, 50, send);
    OTF2_EvtWriter_MpiSend(a.rank(0), nullptr, 51, 0, sub, 7, 64);
    a.flops(0, 60, 4010);
    a.leave(0, 60, send);
    a.flops(0, 90, 9010);
    a.enter(0, 90, bcast);
    OTF2_EvtWriter_MpiCollectiveBegin(a.rank(0), nullptr, 91);
    OTF2_EvtWriter_MpiCollectiveEnd(a.rank(0), nullptr, 99, OTF2_COLLECTIVE_OP_BCAST, perm, 2, 256, 0);
    a.leave(0, 100, bcast);
    for (int r = 1; r < 3; ++r) {
      a.enter(r, 40, bcast);
      OTF2_EvtWriter_MpiCollectiveEnd(a.rank(r), nullptr, 99, OTF2_COLLECTIVE_OP_BCAST, perm, 2, 0, 256);
      a.leave(r, 100, bcast);
    }
    a.enter(2, 110, recv);
    OTF2_EvtWriter_MpiRecv(a.rank(2), nullptr, 120, 1, sub, 7, 64);
    a.leave(2, 130, recv);
    const std::string anchor = a.close();
    const auto recs = all_records(anchor);
    // Flops 4000 − 1000 before the send, 9010 − 4010 between it and the broadcast, whatever the
    // durations; root 2 of `perm` is world rank 0. `perm` has every rank but is not the world:
    // communicator 2 of the records (after `sub`, 1).
    CHECK(recs[0] ==
          std::vector<std::string>{"compute 3000", "send 2 7 64", "compute 5000", "bcast root 0 bytes 256 256 comm 2"});
    CHECK(recs[2] == std::vector<std::string>{"bcast root 0 bytes 256 256 comm 2", "compute 10", "recv 0 7 64"});
    CHECK(open_otf2_trace(anchor)->communicators() == augur::traces::MpCommunicators{{}, {2, 0}, {1, 2, 0}});
  }

  TEST_CASE("OTF2: EZTrace 2.0's silent MPI_Waitall - MPI_PROC_NULL - long streams in chunks") {
    Otf2TestArchive a(scratch / "eztrace-like", 2);
    const auto irecv = a.region("MPI_Irecv"), isend = a.region("MPI_Isend"), waitall = a.region("MPI_Waitall"),
               send = a.region("MPI_Send"), recv = a.region("MPI_Recv");
    a.enter(0, 0, irecv);
    OTF2_EvtWriter_MpiIrecvRequest(a.rank(0), nullptr, 1, 77);
    a.leave(0, 2, irecv);
    a.enter(0, 3, isend);
    OTF2_EvtWriter_MpiIsend(a.rank(0), nullptr, 4, 1, 0, 0, 8, 78);
    OTF2_EvtWriter_MpiIsend(a.rank(0), nullptr, 4, 0xFFFFFFFEu, 0, 0, 8, 79);  // to MPI_PROC_NULL
    a.leave(0, 5, isend);
    a.enter(0, 6, waitall);
    a.leave(0, 9, waitall);
    for (std::uint64_t i = 0; i < 1000; ++i) {
      a.enter(0, 10 + 2 * i, send);
      OTF2_EvtWriter_MpiSend(a.rank(0), nullptr, 10 + 2 * i, 1, 0, 1, i);
      a.leave(0, 11 + 2 * i, send);
      a.enter(1, 10 + 2 * i, recv);
      OTF2_EvtWriter_MpiRecv(a.rank(1), nullptr, 10 + 2 * i, 0, 0, 1, i);
      a.leave(1, 11 + 2 * i, recv);
    }
    const auto recs = all_records(a.close());
    // The receive request never completes in the trace: left out; the waitall completes the send.
    REQUIRE(recs[0].size() == 4 + 2 * 1000);
    CHECK(std::vector<std::string>(recs[0].begin(), recs[0].begin() + 5) ==
          std::vector<std::string>{"compute 1", "isend 1 0 8", "compute 1", "waitall 1", "compute 1"});
    CHECK(recs[0].back() == "send 1 1 999");
    CHECK(kinds(recs[1]).at("recv") == 1000);
  }

  TEST_CASE("OTF2: a location that is no MPI rank is not replayed") {
    Otf2TestArchive a(scratch / "thread", 2);
    a.with_thread();
    const auto source = open_otf2_trace(a.close());
    CHECK(source->rank_count() == 2);
    CHECK(source->file_name(1) == (scratch / "thread" / "traces" / "1007.evt").string());
  }
}
