// Tests of the SimGrid TI reader: both layouts, every action with its fields, the datatype
// table, one broken trace per fixture, and the real traces of ../shared/ti-samples.
#include "engine/prefetch.hpp"
#include "traces/ti/ti_trace.hpp"

#include <doctest/doctest.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "traces/line_reader.hpp"
#include "traces/ti/ti_parser.hpp"
#include "traces/trace_error.hpp"

#include "tests/support/files.hpp"
#include "tests/support/mp_records.hpp"

namespace fs = std::filesystem;
using augur::test::check_same_record;
using augur::test::slurp;
using augur::test::TempDir;
using augur::test::write_file;
using augur::traces::MpOpKind;
using augur::traces::MpRecord;
using augur::traces::MpTraceSource;
using augur::traces::TraceError;
using augur::traces::ti::datatype_size;
using augur::traces::ti::open_ti_trace;
using augur::traces::ti::TiLineParser;
using augur::traces::ti::TiLineSource;
using augur::traces::ti::TiRankState;

namespace {

/// A record with its counts and text copied out (the spans die at the next read).
struct Rec {
  MpRecord r;
  std::vector<std::uint64_t> counts;
  std::string text;
};

std::vector<Rec> read_rank(MpTraceSource& source, int rank) {
  std::vector<Rec> records;
  MpRecord record;
  while (source.next(rank, record)) {
    records.push_back({record, {record.counts.begin(), record.counts.end()}, std::string(record.text)});
  }
  return records;
}

std::vector<std::vector<Rec>> read_all(const std::string& path) {
  const auto source = open_ti_trace(path);
  std::vector<std::vector<Rec>> ranks;
  for (int r = 0; r < source->rank_count(); ++r) ranks.push_back(read_rank(*source, r));
  return ranks;
}

const std::string fixtures = "traces/fixtures/";
const std::string broken = "traces/fixtures/broken/";
const std::string samples = std::string(AUGUR_SHARED_DIR) + "/ti-samples/";

void write_zstd(const std::string& path, const std::string& text) {
  std::string frame(ZSTD_compressBound(text.size()), '\0');
  const std::size_t size = ZSTD_compress(frame.data(), frame.size(), text.data(), text.size(), 3);
  REQUIRE_FALSE(ZSTD_isError(size));
  frame.resize(size);
  write_file(path, frame);
}

/// The error of reading every rank of `path` to its end.
std::string read_error(const std::string& path) {
  try {
    read_all(path);
  } catch (const TraceError& error) {
    return error.what();
  }
  return "(no error)";
}

/// A record as a test expects it: every field, the defaults those of a record that does not use it.
struct Want {
  MpOpKind kind = MpOpKind::compute;
  std::uint64_t line = 0;
  std::int32_t peer = -1;
  std::int32_t peer2 = -1;
  std::int32_t tag = 0;
  std::int32_t root = 0;
  std::uint64_t bytes = 0;
  std::uint64_t bytes2 = 0;
  std::uint64_t count = 0;
  double amount = 0;
  std::vector<std::uint64_t> counts = {};
  std::string text = {};
};

/// Checks `got` (the records of `rank`) against `want`, field by field.
void check_records(const std::vector<Rec>& got, const std::vector<Want>& want, int rank) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const MpRecord& r = got[i].r;
    const Want& w = want[i];
    CAPTURE(w.line);
    CHECK(r.rank == rank);
    CHECK(r.kind == w.kind);
    CHECK(r.line == w.line);
    CHECK(r.peer == w.peer);
    CHECK(r.peer2 == w.peer2);
    CHECK(r.tag == w.tag);
    CHECK(r.root == w.root);
    CHECK(r.bytes == w.bytes);
    CHECK(r.bytes2 == w.bytes2);
    CHECK(r.count == w.count);
    CHECK(r.amount == w.amount);
    CHECK(got[i].counts == w.counts);
    CHECK(got[i].text == w.text);
  }
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("TiTrace parses every action kind with its fields") {
    const auto ranks = read_all(fixtures + "all_actions.txt");
    REQUIRE(ranks.size() == 4);
    using K = MpOpKind;
    using V = std::vector<std::uint64_t>;
    // Rank 0's records, every field: sizes are count x datatype size (the comments name them).
    const std::vector<Want> want{
        {.kind = K::init, .line = 3},
        {.kind = K::compute, .line = 5, .amount = 1.95198e+06},
        {.kind = K::sleep, .line = 6, .amount = 0.25},
        {.kind = K::send, .line = 7, .peer = 1, .tag = 4, .bytes = 280},        // 35 doubles
        {.kind = K::isend, .line = 9, .peer = 2, .tag = 7000, .bytes = 11520},  // 2880 ints
        {.kind = K::recv, .line = 10, .peer = 3, .tag = 10, .bytes = 8},        // 1 double
        {.kind = K::irecv, .line = 11, .peer = 1, .tag = 7003, .bytes = 3240},  // 405 longs
        {.kind = K::recv, .line = 12, .peer = -1, .tag = 5, .bytes = 3},        // any source, 3 bytes
        {.kind = K::wait, .line = 13, .peer = 0, .peer2 = 2, .tag = 7000},
        {.kind = K::test, .line = 14, .peer = 1, .peer2 = 0, .tag = 7003},
        {.kind = K::waitall, .line = 15, .count = 12},
        {.kind = K::waitall, .line = 16, .count = 0},
        // 250000 doubles out, 125000 ints in; then the default type, MPI_BYTE
        {.kind = K::send_recv, .line = 17, .peer = 3, .peer2 = 1, .bytes = 2'000'000, .bytes2 = 500'000},
        {.kind = K::send_recv, .line = 18, .peer = 1, .peer2 = 2, .bytes = 10, .bytes2 = 20},
        {.kind = K::barrier, .line = 19},
        {.kind = K::bcast, .line = 20, .root = 2, .bytes = 4},  // 1 x UINT32_T
        {.kind = K::bcast, .line = 21, .root = 0, .bytes = 7},  // old form
        {.kind = K::reduce, .line = 22, .root = 3, .bytes = 8},
        {.kind = K::reduce, .line = 23, .root = 0, .bytes = 5, .amount = 100},
        {.kind = K::allreduce, .line = 24, .bytes = 40},
        {.kind = K::allreduce, .line = 25, .bytes = 2, .amount = 68351849},
        {.kind = K::alltoall, .line = 26, .bytes = 2'097'152, .bytes2 = 262'144},  // 131072 COMPLEX16, 65536 INT
        {.kind = K::alltoallv,
         .line = 27,
         .bytes = 800,
         .bytes2 = 200,  // send doubles, receive ints
         .counts = V{80, 160, 240, 320, 4, 8, 12, 16}},
        {.kind = K::gather, .line = 28, .root = 1, .bytes = 6360, .bytes2 = 3180},
        {.kind = K::gather, .line = 29, .root = 0, .bytes = 10, .bytes2 = 20},
        {.kind = K::gatherv, .line = 30, .root = 2, .bytes = 40, .counts = V{4, 8, 12, 16}},
        {.kind = K::scatter, .line = 31, .root = 3, .bytes = 24, .bytes2 = 56},
        {.kind = K::scatterv, .line = 32, .root = 1, .bytes2 = 72, .counts = V{4, 8, 12, 16}},
        {.kind = K::allgather, .line = 33, .bytes = 24, .bytes2 = 16},
        {.kind = K::allgatherv, .line = 34, .bytes = 8, .counts = V{40, 48, 56, 64}},
        {.kind = K::reduce_scatter, .line = 35, .amount = 1000, .counts = V{4, 8, 12, 16}},
        {.kind = K::scan, .line = 36, .bytes = 24, .amount = 10},
        {.kind = K::exscan, .line = 37, .bytes = 16, .amount = 20},  // 4 floats
        {.kind = K::comm_size, .line = 38, .count = 4},
        {.kind = K::comm_split, .line = 39},
        {.kind = K::comm_dup, .line = 40},
        {.kind = K::location, .line = 41, .count = 42, .text = "main.c"},
        {.kind = K::compute, .line = 42, .amount = 50000},  // tab-separated, read like strtod
        {.kind = K::send, .line = 43, .peer = 1, .bytes = 50000},
        {.kind = K::finalize, .line = 45},
    };
    check_records(ranks[0], want, 0);
    check_records(ranks[1], {{.kind = K::init, .line = 4}, {.kind = K::finalize, .line = 46}}, 1);
    check_records(ranks[2], {{.kind = K::init, .line = 8}, {.kind = K::finalize, .line = 47}}, 2);
    check_records(ranks[3], {{.kind = K::init, .line = 44}, {.kind = K::finalize, .line = 48}}, 3);
  }

  TEST_CASE("TiTrace reads the old grammar") {
    const auto ranks = read_all(fixtures + "old_grammar.txt");
    REQUIRE(ranks.size() == 2);
    const std::vector<Rec>& r0 = ranks[0];  // `init 1`: counts are doubles
    REQUIRE(r0.size() == 6);
    CHECK(r0[1].r.kind == MpOpKind::send);
    CHECK(r0[1].r.bytes == 80);
    CHECK(r0[2].r.kind == MpOpKind::bcast);
    CHECK(r0[2].r.bytes == 24);
    CHECK(r0[2].r.root == 0);
    CHECK(r0[3].r.bytes == 40);  // an explicit MPI_INT wins over the default
    CHECK(r0[4].r.kind == MpOpKind::alltoall);
    CHECK(r0[4].r.bytes == 32);
    CHECK(r0[4].r.bytes2 == 32);
    const std::vector<Rec>& r1 = ranks[1];  // plain `init`: counts are bytes
    REQUIRE(r1.size() == 6);
    CHECK(r1[1].r.kind == MpOpKind::recv);
    CHECK(r1[1].r.bytes == 10);
    CHECK(r1[2].r.bytes == 3);
    CHECK(r1[3].r.kind == MpOpKind::allreduce);
    CHECK(r1[3].r.bytes == 2);
    CHECK(r1[3].r.amount == 5);
    CHECK(r1[4].r.bytes == 4);
    CHECK(r1[5].r.kind == MpOpKind::finalize);
    CHECK(r1[5].r.line == 13);
  }

  TEST_CASE("TiTrace knows the SimGrid 3.32 datatype table") {
    const std::map<int, unsigned> table{{0, 8},  {1, 4},   {2, 1},   {3, 2},  {4, 8},   {5, 4},  {6, 1},   {7, 8},
                                        {11, 4}, {12, 8},  {14, 16}, {16, 1}, {17, 1},  {18, 2}, {19, 4},  {20, 8},
                                        {21, 1}, {22, 2},  {23, 4},  {24, 8}, {26, 16}, {30, 8}, {31, 16}, {32, 16},
                                        {34, 8}, {36, 16}, {38, 4},  {39, 4}, {40, 8},  {42, 8}, {43, 16}, {44, 16},
                                        {45, 4}, {46, 2},  {47, 4},  {48, 8}, {57, 1}};
    for (int id = -3; id < 70; ++id) {
      CAPTURE(id);
      const auto known = table.find(id);
      CHECK(datatype_size(id) == (known == table.end() ? 0u : known->second));
    }
  }

  TEST_CASE("TiTrace reads a shared file with interleaved ranks") {
    const auto source = open_ti_trace(fixtures + "shared_interleaved.txt");
    REQUIRE(source->rank_count() == 3);
    CHECK(source->file_name(1) == fixtures + "shared_interleaved.txt");
    // The cursors are independent: read them round-robin.
    std::vector<std::vector<MpRecord>> got(3);
    MpRecord record;
    for (bool any = true; any;) {
      any = false;
      for (int r = 0; r < 3; ++r) {
        if (source->next(r, record)) {
          got[static_cast<std::size_t>(r)].push_back(record);
          any = true;
        }
      }
    }
    REQUIRE(got[0].size() == 4);
    REQUIRE(got[1].size() == 3);
    REQUIRE(got[2].size() == 4);
    CHECK(got[0][0].line == 4);
    CHECK(got[0][1].amount == 100);
    CHECK(got[0][2].kind == MpOpKind::send);
    CHECK(got[0][2].peer == 2);
    CHECK(got[0][2].bytes == 64);
    CHECK(got[1][0].line == 6);  // trailing blank and tab
    CHECK(got[1][1].amount == 200);
    CHECK(got[2][0].line == 3);
    CHECK(got[2][2].kind == MpOpKind::recv);
    CHECK(got[2][3].kind == MpOpKind::finalize);
    CHECK(got[2][3].line == 15);  // no final newline
    for (int r = 0; r < 3; ++r) {
      for (const MpRecord& m : got[static_cast<std::size_t>(r)]) CHECK(m.rank == r);
    }
  }

  TEST_CASE("TiTrace reads an index of one line as a file shared by all ranks - as SimGrid does") {
    TempDir dir;
    const std::string shared = fs::absolute(fixtures + "shared_interleaved.txt").string();
    write_file((dir.path / "one_trace").string(),
               "# SimGrid's examples name one file for every rank\n" + shared + "\n");
    const auto via_index = read_all((dir.path / "one_trace").string());
    const auto direct = read_all(fixtures + "shared_interleaved.txt");
    REQUIRE(via_index.size() == 3);
    REQUIRE(direct.size() == 3);
    for (std::size_t r = 0; r < 3; ++r) {
      REQUIRE(via_index[r].size() == direct[r].size());
      for (std::size_t i = 0; i < direct[r].size(); ++i) check_same_record(via_index[r][i].r, direct[r][i].r);
    }
    // An index of two lines stays one file per rank: the shared file's lines of rank 1 are an error there.
    write_file((dir.path / "two").string(), shared + "\n" + shared + "\n");
    CHECK(read_error((dir.path / "two").string()).find("rank") != std::string::npos);
  }

  TEST_CASE("TiTrace reads an index of plain gzip zstd and CRLF rank files") {
    const auto source = open_ti_trace(fixtures + "index/trace.txt");
    REQUIRE(source->rank_count() == 4);
    CHECK(source->file_name(0) == fixtures + "index/rank0.txt");
    CHECK(source->file_name(1) == fixtures + "index/rank1.txt.gz");
    CHECK(source->file_name(2) == fixtures + "index/rank2.txt.zst");
    CHECK(source->file_name(3) == fixtures + "index/rank3_crlf.txt");
    const std::vector<std::size_t> sizes{4, 4, 3, 3};
    for (int r = 0; r < 4; ++r) {
      CAPTURE(r);
      const std::vector<Rec> records = read_rank(*source, r);
      REQUIRE(records.size() == sizes[static_cast<std::size_t>(r)]);
      CHECK(records[1].r.kind == MpOpKind::compute);
      CHECK(records[1].r.amount == 1000 + r);
      CHECK(records.back().r.kind == MpOpKind::finalize);
    }
    MpRecord record;
    CHECK_FALSE(source->next(0, record));  // stays at the end
    const auto again = open_ti_trace(fixtures + "index/trace.txt");
    const std::vector<Rec> r1 = read_rank(*again, 1);
    CHECK(r1[2].r.kind == MpOpKind::recv);
    CHECK(r1[2].r.bytes == 16);
    const std::vector<Rec> r3 = read_rank(*again, 3);
    CHECK(r3[0].r.line == 2);  // after the comment
  }

  TEST_CASE("TiTrace's prefetch plan points at each rank's next unread text - null once it ends") {
    // The scheduler prefetches a rank's next line through these before stepping it: after every
    // read the pointer must be where the rest of the rank's file begins (plain and CRLF files),
    // and null after the rank's last record.
    const auto source = open_ti_trace(fixtures + "index/trace.txt");
    const auto* prefetching = dynamic_cast<const augur::engine::Prefetching*>(source.get());
    REQUIRE(prefetching != nullptr);
    augur::engine::PrefetchPlan plan;
    prefetching->plan_prefetch(plan);
    // The rank cursors, then the pointers to each rank's next text.
    REQUIRE(plan.records().size() == 2);
    CHECK(plan.records()[0].bytes > 0);
    CHECK_FALSE(plan.records()[0].pointers);
    REQUIRE(plan.records()[1].pointers);
    const auto* const next_text = static_cast<const char* const*>(plan.records()[1].base);
    for (const int rank : {0, 3}) {
      CAPTURE(rank);
      CHECK(next_text[rank] == nullptr);  // not opened yet
      const std::string content = slurp(source->file_name(rank));
      MpRecord record;
      std::size_t records = 0;
      while (source->next(rank, record)) {
        ++records;
        // The rest of the file after the line just read (record.line, 1-based).
        std::size_t at = 0;
        for (std::uint64_t l = 0; l < record.line; ++l) at = content.find('\n', at) + 1;
        const std::string rest = content.substr(at);
        REQUIRE(next_text[rank] != nullptr);
        CHECK(std::string_view(next_text[rank], rest.size()) == rest);
      }
      CHECK(records == (rank == 0 ? 4U : 3U));
      CHECK(next_text[rank] == nullptr);
    }
  }

  TEST_CASE("TiTrace resolves index entries against the index folder first and then the cwd") {
    const auto source = open_ti_trace(fixtures + "resolve/trace.txt");
    REQUIRE(source->rank_count() == 3);
    CHECK(source->file_name(0) == fixtures + "resolve/rank0.txt");
    CHECK(source->file_name(1) == "traces/fixtures/resolve_cwd/rank1.txt");                     // only in the cwd
    CHECK(source->file_name(2) == fixtures + "resolve/traces/fixtures/resolve_cwd/rank2.txt");  // in both: the index's
    CHECK(read_rank(*source, 0)[1].r.amount == 10);
    CHECK(read_rank(*source, 1)[1].r.amount == 11);
    CHECK(read_rank(*source, 2)[1].r.amount == 12);
  }

  TEST_CASE("TiTrace opens the rank files beside the index relative to its folder - the others by path") {
    // Rank files named by a plain name beside the index are opened relative to the index's
    // folder, opened once (openat: the folder's path is not walked per file). Seen from outside:
    // after the folder is renamed they are still read, under the names the messages use, while a
    // file named by an absolute path (rank 2) or through a sub-folder (rank 1) is opened by its
    // path and now missing, which the error names at the index line.
    TempDir dir;
    const std::filesystem::path before = dir.path / "before";
    std::filesystem::create_directories(before / "sub");
    for (int r = 0; r < 4; ++r) {
      const std::string name = (r == 1 ? "sub/rank" : "rank") + std::to_string(r) + ".txt";
      write_file((before / name).string(), std::to_string(r) + " init\n" + std::to_string(r) + " compute " +
                                               std::to_string(100 + r) + "\n" + std::to_string(r) + " finalize\n");
    }
    write_zstd((before / "rank3.txt.zst").string(), "3 init\n3 compute 7\n3 finalize\n");
    std::filesystem::remove(before / "rank3.txt");  // named rank3.txt: found as rank3.txt.zst
    write_file((before / "trace.txt").string(),
               "rank0.txt\nsub/rank1.txt\n" + (before / "rank2.txt").string() + "\nrank3.txt\n");
    const auto source = open_ti_trace((before / "trace.txt").string());
    REQUIRE(source->rank_count() == 4);
    CHECK(source->file_name(3) == (before / "rank3.txt.zst").string());
    std::filesystem::rename(before, dir.path / "after");
    const std::vector<Rec> rank0 = read_rank(*source, 0);
    REQUIRE(rank0.size() == 3);
    CHECK(rank0[1].r.amount == 100);
    const std::vector<Rec> rank3 = read_rank(*source, 3);
    REQUIRE(rank3.size() == 3);
    CHECK(rank3[1].r.amount == 7);
    MpRecord record;
    for (const int rank : {1, 2}) {
      CAPTURE(rank);
      try {
        source->next(rank, record);
        FAIL("rank opened by its path after the folder was renamed");
      } catch (const TraceError& error) {
        CHECK(std::string(error.what())
                  .find("trace.txt:" + std::to_string(rank + 1) + ": error: cannot open rank " +
                        std::to_string(rank)) != std::string::npos);
      }
    }
  }

  TEST_CASE("TiTrace reads a generated index with absolute paths and many ranks") {
    TempDir dir;
    // alltoallv lines of 1,200+ counts; 600 readers open at once, past the 512 from which the
    // trace takes their buffers from its PageArena (the zstd files' buffers, of their compressed
    // size, are then grown out of it by those lines).
    constexpr int ranks = 600;
    std::string index;
    for (int r = 0; r < ranks; ++r) {
      std::string text = std::to_string(r) + " init\n";
      text += std::to_string(r) + " alltoallv " + std::to_string(ranks * 2);
      for (int p = 0; p < ranks; ++p) text += " 2";
      text += " " + std::to_string(ranks);
      for (int p = 0; p < ranks; ++p) text += " 1";
      text += " 0 1 \n" + std::to_string(r) + " finalize\n";
      const std::string name = "rank" + std::to_string(r) + (r % 2 == 0 ? ".txt.zst" : ".txt");
      if (r % 2 == 0) {
        write_zstd(dir.file(name), text);
      } else {
        write_file(dir.file(name), text);
      }
      index += (r % 3 == 0 ? dir.file(name) : name) + "\n";  // absolute or beside the index
    }
    write_file(dir.file("trace.txt"), index);
    const auto source = open_ti_trace(dir.file("trace.txt"));
    REQUIRE(source->rank_count() == ranks);
    std::vector<MpRecord> alltoallv(ranks);
    MpRecord record;
    for (int r = 0; r < ranks; ++r) {  // first records of every rank, then the rest
      REQUIRE(source->next(r, record));
      REQUIRE(source->next(r, record));
      CHECK(record.kind == MpOpKind::alltoallv);
      REQUIRE(record.counts.size() == 2 * ranks);
      CHECK(record.counts.front() == 16);
      CHECK(record.counts.back() == 4);
      CHECK(record.bytes == 2 * ranks * 8);
      CHECK(record.bytes2 == ranks * 4);
    }
    for (int r = 0; r < ranks; ++r) {
      REQUIRE(source->next(r, record));
      CHECK(record.kind == MpOpKind::finalize);
      CHECK_FALSE(source->next(r, record));
    }
  }

  // Past 64 entries the index's folder is listed once instead of a stat per rank file: the same
  // entries resolve to the same files before and after that point, whatever they name.
  TEST_CASE("TiTrace resolves rank files the same with and without the folder listing") {
    TempDir dir;
    TempDir elsewhere;
    const std::string body = "0 init\n0 compute 5\n0 finalize\n";
    write_file(dir.file("plain.txt"), body);
    write_zstd(dir.file("packed.txt.zst"), body);
    write_file(elsewhere.file("target.txt"), body);
    fs::create_symlink(elsewhere.file("target.txt"), dir.file("link.txt"));  // DT_LNK: checked by stat
    fs::create_symlink(elsewhere.file("gone.txt"), dir.file("dangling.txt"));
    write_zstd(dir.file("dangling.txt.zst"), body);  // the dangling link is skipped for this one
    fs::create_directories(dir.file("sub"));
    write_file(dir.file("sub/inner.txt"), body);
    const std::vector<std::string> special{"plain.txt",    "packed.txt",    "link.txt",
                                           "dangling.txt", "sub/inner.txt", elsewhere.file("target.txt")};
    std::string index;
    for (const std::string& entry : special) index += entry + "\n";
    for (std::size_t r = special.size(); r < 64; ++r) index += "plain.txt\n";
    for (const std::string& entry : special) index += entry + "\n";  // ranks 64..69, listed
    write_file(dir.file("trace.txt"), index);
    const auto source = open_ti_trace(dir.file("trace.txt"));
    REQUIRE(source->rank_count() == 64 + static_cast<int>(special.size()));
    for (std::size_t k = 0; k < special.size(); ++k) {
      CAPTURE(special[k]);
      CHECK(source->file_name(static_cast<int>(64 + k)) == source->file_name(static_cast<int>(k)));
    }
    CHECK(source->file_name(0) == dir.file("plain.txt"));
    CHECK(source->file_name(2) == dir.file("link.txt"));
    CHECK(source->file_name(4) == dir.file("sub/inner.txt"));
    CHECK(source->file_name(5) == elsewhere.file("target.txt"));
    CHECK(source->file_name(1) == dir.file("packed.txt.zst"));
    CHECK(source->file_name(3) == dir.file("dangling.txt.zst"));

    // A missing file past the listing point is reported at its index line, as before it.
    write_file(dir.file("missing.txt"), index + "nowhere.txt\n");
    CHECK_THROWS_WITH_AS(open_ti_trace(dir.file("missing.txt")),
                         doctest::Contains("missing.txt:71: error: cannot open rank 70 trace 'nowhere.txt': No such "
                                           "file or directory"),
                         TraceError);
  }

  TEST_CASE("TiTrace resolves the listed entries of an index in the working directory by their plain names") {
    // An index named without a folder: the folder joins as nothing, so a rank file's path is
    // its name, whether it was resolved before the listing (a stat each) or from it.
    TempDir dir;
    const std::string body = "0 init\n0 compute 5\n0 finalize\n";
    write_file(dir.file("plain.txt"), body);
    write_zstd(dir.file("packed.txt.zst"), body);
    std::string index;
    for (int r = 0; r < 70; ++r) index += r % 2 == 0 ? "plain.txt\n" : "packed.txt\n";
    write_file(dir.file("trace.txt"), index);
    struct InFolder {  // the working directory back whatever happens
      fs::path before = fs::current_path();
      explicit InFolder(const fs::path& folder) { fs::current_path(folder); }
      ~InFolder() { fs::current_path(before); }
    } in_folder(dir.path);
    const auto source = open_ti_trace("trace.txt");
    REQUIRE(source->rank_count() == 70);
    for (const int r : {0, 2, 64, 68}) CHECK(source->file_name(r) == "plain.txt");
    for (const int r : {1, 3, 65, 69}) CHECK(source->file_name(r) == "packed.txt.zst");
    CHECK(read_rank(*source, 0)[1].r.amount == 5);  // opened where the index is
  }

  TEST_CASE("TiTrace rejects a rank that does not exist") {
    const auto source = open_ti_trace(fixtures + "old_grammar.txt");
    MpRecord record;
    CHECK_THROWS_AS(source->next(2, record), std::out_of_range);
    CHECK_THROWS_AS(source->next(-1, record), std::out_of_range);
  }

  TEST_CASE("TiTrace reports a broken action with file line and message") {
    // One defect per file, always on line 3 of rank 0's actions.
    const std::vector<std::pair<std::string, std::string>> cases{
        {"bad_unknown_action.txt", "unknown action 'sned'; did you mean 'send'?"},
        {"bad_missing_field.txt", "send: missing field 'tag' (expected: send <dst> <tag> <count> [<datatype>])"},
        {"bad_not_a_number.txt", "send: 'abc' is not a number (field 'count')"},
        {"bad_unknown_datatype.txt", "unknown datatype id 99 (field 'datatype' of isend)"},
        {"bad_too_many_fields.txt",
         "recv: too many fields, '7' is one too many (expected: recv <src> <tag> <count> "
         "[<datatype>])"},
        {"bad_negative_count.txt", "bcast: '-5' is negative (field 'count')"},
        {"bad_peer_out_of_range.txt", "send to rank 7 but the trace has 4 ranks"},
        {"bad_root_out_of_range.txt", "reduce with root 9 but the trace has 4 ranks"},
        {"bad_not_an_integer.txt", "irecv: '1.5' is not an integer (field 'src')"},
        {"bad_missing_action.txt", "missing action after the rank (expected: <rank> <action> <field>...)"},
        {"bad_alltoallv_short.txt",
         "alltoallv: missing field 'recvcount_3' (expected: alltoallv <sendtotal> "
         "<sendcount_0..3> <recvtotal> <recvcount_0..3> [<sendtype> <recvtype>])"},
        {"bad_compute_amount.txt", "compute: '1.2.3' is not a number (field 'flops')"},
        {"bad_traced_only_action.txt", "unknown action 'Ssend': SimGrid 3.32 traces it but its replayer rejects it"},
        {"bad_location_missing_line.txt", "location: missing field 'line' (expected: location <file> <line>)"},
    };
    for (const auto& [file, message] : cases) {
      CAPTURE(file);
      CHECK(read_error(broken + file) == broken + file + ":3: error: " + message);
    }
    CHECK_THROWS_WITH_AS(read_all(broken + "bad_unknown_action.txt"),
                         doctest::Contains("bad_unknown_action.txt:3: error: unknown action 'sned'"), TraceError);
  }

  TEST_CASE("TiTrace reports a broken rank field when it opens a shared file") {
    CHECK_THROWS_WITH_AS(open_ti_trace(broken + "bad_rank_field.txt"),
                         doctest::Contains("bad_rank_field.txt:3: error: 'x' is not a number (field "
                                           "'rank')"),
                         TraceError);
    CHECK_THROWS_WITH_AS(open_ti_trace(broken + "bad_negative_rank.txt"),
                         doctest::Contains("bad_negative_rank.txt:3: error: '-1' is negative (field "
                                           "'rank')"),
                         TraceError);
    CHECK_THROWS_WITH_AS(open_ti_trace(broken + "bad_empty_trace.txt"),
                         doctest::Contains("bad_empty_trace.txt: error: empty trace: neither actions "
                                           "nor rank files"),
                         TraceError);
    CHECK_THROWS_WITH_AS(open_ti_trace(broken + "no_such_trace.txt"),
                         doctest::Contains("no_such_trace.txt: error: cannot open: No such file"), TraceError);
  }

  TEST_CASE("TiTrace reports index defects at the index line or the rank file line") {
    CHECK_THROWS_WITH_AS(open_ti_trace(broken + "bad_missing_rank_file/trace.txt"),
                         doctest::Contains("bad_missing_rank_file/trace.txt:4: error: cannot open rank 3 "
                                           "trace 'missing.txt': No such file"),
                         TraceError);
    CHECK_THROWS_WITH_AS(read_all(broken + "bad_rank_mismatch/trace.txt"),
                         doctest::Contains("bad_rank_mismatch/rank3.txt:2: error: line belongs to rank 5 "
                                           "but file is rank 3's"),
                         TraceError);
  }

  TEST_CASE("TiTrace reports corrupt and truncated compressed rank files") {
    TempDir dir;
    const std::string here = fs::current_path().string() + "/" + broken;
    write_file(dir.file("trace.txt"), here + "bad_corrupt_data.txt.zst\n");
    CHECK_THROWS_WITH_AS(read_all(dir.file("trace.txt")),
                         doctest::Contains("bad_corrupt_data.txt.zst:1: error: corrupt zstd data: "
                                           "Data corruption detected"),
                         TraceError);
    write_file(dir.file("trace2.txt"), here + "bad_truncated.txt.zst\n");
    CHECK_THROWS_WITH_AS(read_all(dir.file("trace2.txt")),
                         doctest::Contains("bad_truncated.txt.zst:1: error: corrupt zstd data: "
                                           "unexpected end of file"),
                         TraceError);
    CHECK_THROWS_WITH_AS(read_all(broken + "bad_truncated.txt.gz"),
                         doctest::Contains("bad_truncated.txt.gz:1249: error: corrupt gzip data: "
                                           "unexpected end of file"),
                         TraceError);
  }

  TEST_CASE("TiTrace suggests the nearest action and names the field of a bad number") {
    TempDir dir;
    const std::vector<std::pair<std::string, std::string>> cases{
        {"0 sendrecv 1 0 1 0", "unknown action 'sendrecv'; did you mean 'sendRecv'?"},
        {"0 alltoal 1 1", "unknown action 'alltoal'; did you mean 'alltoall'?"},
        {"0 frobnicate", "unknown action 'frobnicate'"},
        {"0 ibcast 1 0", "unknown action 'ibcast': SimGrid 3.32 traces it but its replayer rejects it"},
        {"0 compute inf", "compute: 'inf' is out of range (field 'flops')"},
        {"0 send 0 0 1e30", "send: '1e30' is out of range (field 'count')"},
        {"0 send 0 99999999999 1", "send: '99999999999' is out of range (field 'tag')"},
        {"0 send 0 0 1 x", "send: 'x' is not a number (field 'datatype')"},
        // 2^61 doubles are 2^64 bytes: one more than 64 bits hold; 2^61 - 1 still fit.
        {"0 send 0 0 2305843009213693952 0", "send: 2305843009213693952 x 8 bytes overflows 64 bits (field 'count')"},
        {"0 wait 0 1 2", "wait with dst rank 1 but the trace has 1 rank"},
        {"0 recv -2 0 1", "recv from rank -2 but the trace has 1 rank"},
        {"0 barrier 3", "barrier: too many fields, '3' is one too many (expected: barrier)"},
        {"0 init 1 2", "init: too many fields, '2' is one too many (expected: init [<default_is_double>])"},
    };
    for (const auto& [line, message] : cases) {
      CAPTURE(line);
      write_file(dir.file("t.txt"), "0 init\n" + line + "\n");
      CHECK(read_error(dir.file("t.txt")) == dir.file("t.txt") + ":2: error: " + message);
    }
    write_file(dir.file("t.txt"),
               "0 init\n0 compute +2.5e3\n0 send 0 0 7.9\n0 comm_split 1 2\n0 send 0 0 2305843009213693951 0\n");
    const auto ranks = read_all(dir.file("t.txt"));
    REQUIRE(ranks[0].size() == 5);
    CHECK(ranks[0][1].r.amount == 2500);
    CHECK(ranks[0][2].r.bytes == 7);  // truncated like SimGrid's strtod-then-int
    CHECK(ranks[0][3].r.kind == MpOpKind::comm_split);
    CHECK(ranks[0][4].r.bytes == 18446744073709551608u);  // (2^61 - 1) x 8
  }

  TEST_CASE("TiTrace reads tiny-4 the same from its index and its shared file") {
    const auto by_index = read_all(samples + "tiny-4/ti_index.txt");
    const auto shared = read_all(samples + "tiny-4/all_ranks.txt");
    REQUIRE(by_index.size() == 4);
    REQUIRE(shared.size() == 4);
    for (std::size_t r = 0; r < 4; ++r) {
      CAPTURE(r);
      REQUIRE(by_index[r].size() == shared[r].size());
      for (std::size_t i = 0; i < shared[r].size(); ++i) {
        const MpRecord& a = by_index[r][i].r;
        const MpRecord& b = shared[r][i].r;
        CHECK(a.kind == b.kind);
        CHECK(a.peer == b.peer);
        CHECK(a.bytes == b.bytes);
        CHECK(a.amount == b.amount);
      }
    }
    CHECK(by_index[0][2].r.kind == MpOpKind::send);
    CHECK(by_index[0][2].r.bytes == 1'000'000);
    CHECK(by_index[3].size() == 8);
  }

  TEST_CASE("TiTrace reads every sample trace and matches predictions.tsv") {
    std::ifstream table(samples + "predictions.tsv");
    REQUIRE(table);
    std::string header_line;
    std::getline(table, header_line);
    auto split_tabs = [](const std::string& line) {
      std::vector<std::string> cells;
      std::stringstream in(line);
      for (std::string cell; std::getline(in, cell, '\t');) cells.push_back(cell);
      return cells;
    };
    const std::vector<std::string> header = split_tabs(header_line);
    auto column = [&](const std::string& name) {
      const auto at = std::find(header.begin(), header.end(), name);
      REQUIRE(at != header.end());
      return static_cast<std::size_t>(at - header.begin());
    };
    int traces = 0;
    for (std::string line; std::getline(table, line);) {
      const std::vector<std::string> row = split_tabs(line);
      const std::string name = row.at(column("trace"));
      CAPTURE(name);
      const auto source = open_ti_trace(samples + name + "/trace.txt");
      CHECK(source->rank_count() == std::stoi(row.at(column("np"))));
      std::uint64_t records = 0;
      std::uint64_t sends = 0;
      std::uint64_t send_bytes = 0;
      std::uint64_t collectives = 0;
      double flops = 0;
      MpRecord record;
      for (int r = 0; r < source->rank_count(); ++r) {
        while (source->next(r, record)) {
          ++records;
          CHECK(record.rank == r);
          switch (record.kind) {
            case MpOpKind::compute:
              flops += record.amount;
              break;
            case MpOpKind::send:
            case MpOpKind::isend:
            case MpOpKind::send_recv:
              ++sends;
              send_bytes += record.bytes;
              break;
            case MpOpKind::barrier:
            case MpOpKind::bcast:
            case MpOpKind::reduce:
            case MpOpKind::allreduce:
            case MpOpKind::alltoall:
            case MpOpKind::alltoallv:
            case MpOpKind::gather:
              ++collectives;
              break;
            default:
              break;
          }
        }
      }
      if (!row.at(column("lines")).empty()) CHECK(records == std::stoull(row.at(column("lines"))));
      CHECK(sends == std::stoull(row.at(column("p2p_sends"))));
      CHECK(send_bytes == std::stoull(row.at(column("p2p_send_bytes"))));
      CHECK(collectives == std::stoull(row.at(column("collectives"))));
      CHECK(flops == doctest::Approx(std::stod(row.at(column("compute_flops_total")))).epsilon(1e-6));
      ++traces;
    }
    CHECK(traces == 10);
  }

  TEST_CASE("TiTrace reads lines split by a refill - CRLF and a last line without newline as plain LF text") {
    // Two rank files of ~3,000 lines (several 8 KiB buffers: lines straddle refills), written
    // twice — LF, and CRLF without the last newline — with comments, blank lines and actions the
    // one-pass path leaves to the general one. Both read alike, record for record and line for
    // line, whichever path took each line.
    TempDir dir;
    for (const bool crlf : {false, true}) {
      const std::string sub = crlf ? "crlf" : "lf";
      std::filesystem::create_directories(dir.path / sub);
      for (int r = 0; r < 2; ++r) {
        const std::string me = std::to_string(r);
        const std::string peer = std::to_string(1 - r);
        std::vector<std::string> lines{me + " init", "# a comment", ""};
        for (int i = 0; i < 600; ++i) {
          lines.push_back(me + " compute " + std::to_string(1000 + i * 37) + (i % 7 == 0 ? ".5e+02" : ""));
          lines.push_back(me + " isend " + peer + " " + std::to_string(i) + " " + std::to_string(8 * i + 1));
          lines.push_back(me + " irecv " + peer + " " + std::to_string(i) + " " + std::to_string(8 * i + 1) + " 0");
          lines.push_back(me + " waitall" + (i % 3 == 0 ? " 2" : ""));
          lines.push_back(i % 50 == 0 ? me + " allreduce 4 1e3 " : me + "  compute 5");  // two blanks: general path
        }
        lines.push_back(me + " finalize");
        std::string text;
        for (std::size_t i = 0; i < lines.size(); ++i) {
          text += lines[i];
          if (!crlf)
            text += "\n";
          else if (i + 1 < lines.size())
            text += "\r\n";
        }
        REQUIRE(text.size() > 3 * 8 * 1024);
        write_file((dir.path / sub / ("rank" + me + ".txt")).string(), text);
      }
      write_file((dir.path / sub / "trace.txt").string(), "rank0.txt\nrank1.txt\n");
    }
    const auto lf = read_all((dir.path / "lf" / "trace.txt").string());
    const auto crlf = read_all((dir.path / "crlf" / "trace.txt").string());
    REQUIRE(lf.size() == 2);
    REQUIRE(crlf.size() == 2);
    for (std::size_t r = 0; r < 2; ++r) {
      CAPTURE(r);
      REQUIRE(lf[r].size() == 1 + 600 * 5 + 1);
      REQUIRE(crlf[r].size() == lf[r].size());
      CHECK(lf[r].back().r.line == 3 + 600 * 5 + 1);
      for (std::size_t i = 0; i < lf[r].size(); ++i) {
        CAPTURE(i);
        check_same_record(crlf[r][i].r, lf[r][i].r);
        CHECK(crlf[r][i].r.line == lf[r][i].r.line);
      }
      // Spot checks of the values (record 1 + 5i is iteration i's compute, at line 4 + 5i).
      CHECK(lf[r][3].r.kind == MpOpKind::irecv);
      CHECK(lf[r][3].r.bytes == 8);  // a count of 1 of datatype 0 (MPI_DOUBLE), 8 bytes
      CHECK(lf[r][1 + 5 * 1].r.amount == 1037);
      CHECK(lf[r][1 + 5 * 7].r.amount == 125950);  // "1259.5e+02"
      CHECK(lf[r][1 + 5 * 7].r.line == 4 + 5 * 7);
      CHECK(lf[r][5].r.kind == MpOpKind::allreduce);
      CHECK(lf[r][10].r.amount == 5);  // "  compute 5", read by the general path
    }
  }

  TEST_CASE("TiTrace reads listed rank files (no fstat) as it reads the others") {
    // Ranks 64 to 69 are resolved from the folder's listing, which says they are regular files:
    // they are sized by their first read instead of fstat. Each has the same text as rank
    // k = r − 64 (a stat each, then fstat) but its own rank number: short, longer than the 8 KiB
    // buffer, exactly 8 KiB, CRLF without the last newline, zstd, empty. Record for record alike.
    TempDir dir;
    const auto text = [](int rank, int kind) {
      const std::string me = std::to_string(rank);
      std::string out;
      const int actions = kind == 0 ? 3 : kind == 5 ? 0 : kind == 2 ? 450 : 900;
      for (int i = 0; i < actions; ++i) {
        std::string action = " compute " + std::to_string(100 + 17 * i);
        if (i % 9 == 4) action = " bcast 16 0";
        if (i % 9 == 8) action = " allreduce 4 1e3";
        out += me + action + (kind == 3 ? "\r\n" : "\n");
      }
      if (kind == 2) {  // exactly the buffer's size: the first read fills it, the next sees the end
        REQUIRE(out.size() < 8192);
        out += "#" + std::string(8192 - out.size() - 2, 'x') + "\n";  // a comment fills it up
        REQUIRE(out.size() == 8192);
      }
      if (kind == 3) out.resize(out.size() - 2);
      return out;
    };
    std::string index;
    for (int r = 0; r < 70; ++r) {
      const int kind = r % 64;
      const std::string name = "r" + std::to_string(r) + ".txt";
      if (kind == 4) {
        write_zstd(dir.file(name + ".zst"), text(r, kind));
      } else {
        write_file(dir.file(name), text(r, std::min(kind, 5)));
      }
      index += name + "\n";
    }
    write_file(dir.file("trace.txt"), index);
    const auto source = open_ti_trace(dir.file("trace.txt"));
    REQUIRE(source->rank_count() == 70);
    for (int k = 0; k < 6; ++k) {
      CAPTURE(k);
      const std::vector<Rec> stat_read = read_rank(*source, k);
      const std::vector<Rec> listed = read_rank(*source, 64 + k);
      CHECK(stat_read.size() == (k == 0 ? 3U : k == 5 ? 0U : k == 2 ? 450U : 900U));
      REQUIRE(listed.size() == stat_read.size());
      for (std::size_t i = 0; i < listed.size(); ++i) {
        CAPTURE(i);
        CHECK(listed[i].r.kind == stat_read[i].r.kind);
        CHECK(listed[i].r.rank == 64 + k);
        CHECK(listed[i].r.root == stat_read[i].r.root);
        CHECK(listed[i].r.bytes == stat_read[i].r.bytes);
        CHECK(listed[i].r.amount == stat_read[i].r.amount);
        CHECK(listed[i].r.line == stat_read[i].r.line);
      }
    }
    CHECK(source->file_name(68) == dir.file("r68.txt.zst"));
  }

  TEST_CASE("TiTrace reads prk-p2p-16 in reasonable time") {
    const auto start = std::chrono::steady_clock::now();
    const auto source = open_ti_trace(samples + "prk-p2p-16/trace.txt");
    std::uint64_t records = 0;
    MpRecord record;
    for (int r = 0; r < source->rank_count(); ++r) {
      while (source->next(r, record)) ++records;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE("prk-p2p-16: " << records << " records in " << seconds << " s");
    CHECK(records == 658960);
    CHECK(seconds < 30);  // a guard against pathological slowness, not a benchmark
  }

}  // TEST_SUITE

// The reader converts plain integers and short decimals ("2.33722e+06") without from_chars
// (one pass; Clinger's exact fast path for decimals); every field must come out bit for bit as
// from_chars reads it (strtod's value, truncated for counts), whatever its spelling.
namespace {

/// What the general path (split, rank_field, parse) makes of `line` for rank state.rank: the
/// record, or "skipped", "rank N" (another rank's line) or the error message.
std::string general_ti(const TiLineParser& parser_in, std::string_view line, TiRankState& state, MpRecord& out) {
  TiLineParser parser = parser_in;
  const std::string file = "rank.txt";
  const TiLineSource source{file, 7};
  try {
    if (!parser.split(line)) return "skipped";
    const std::int32_t owner = parser.rank_field(source);
    if (owner != state.rank) return "rank " + std::to_string(owner);
    parser.parse(source, state, out);
    return "record";
  } catch (const TraceError& error) {
    return error.what();
  }
}

}  // namespace

TEST_CASE("TI lines: the one-pass path reads common lines as the general path does and leaves it the rest") {
  // Rank 0 of 4 ranks. `true`: the one-pass path must take the line; `false`: it must leave it
  // (to an error, another rank's line, a form it does not read) — the general path's verdict is
  // then the reader's.
  const std::vector<std::pair<std::string, bool>> lines{{"0 compute 27160", true},
                                                        {"0 compute 3.52689e+07", true},
                                                        {"0 compute 0", true},
                                                        {"0 sleep 0.5", true},
                                                        {"0 isend 2 99 4000 0", true},
                                                        {"0 irecv 1 1010 4000", true},
                                                        {"0 send 3 0 18446744073709551 6", true},
                                                        {"0 recv 3 7 12 2 ", true},
                                                        {"0 wait 0 2 99", true},
                                                        {"0 test 3 0 5", true},
                                                        {"0 waitall", true},
                                                        {"0 waitall 2", true},
                                                        {"0 waitall ", true},
                                                        {"0 allreduce 1 0 1 ", true},
                                                        {"0 allreduce 8 12.5", true},
                                                        {"0 scan 2 0 6", true},
                                                        {"0 exscan 2 0", true},
                                                        {"0 bcast 1 0 4 ", true},
                                                        {"0 bcast 1", true},
                                                        {"0 bcast 1 3", true},
                                                        {"0 reduce 1 0 0 1", true},
                                                        {"0 reduce 4 2e3", true},
                                                        {"0 barrier", true},
                                                        {"0 barrier  ", true},
                                                        {"0 finalize", true},
                                                        {"0 sendRecv 62500 3 62500 1 0 0", true},
                                                        {"0 sendRecv 62500 3 62500 1", true},
                                                        {"0 sendRecv 1 3 2 1 6", true},
                                                        {"00 compute 5", true},
                                                        // Left to the general path: it reads them (other forms) ...
                                                        {"0  compute 5", false},
                                                        {"0 compute\t5", false},
                                                        {"\t0 compute 5", false},
                                                        {" 0 compute 5", false},
                                                        {"0 irecv -1 0 10", false},
                                                        {"0 isend 1 -3 10", false},
                                                        {"0 isend 1 0 1e3", false},
                                                        {"0 send 3 0 18446744073709551615", false},
                                                        {"0 compute +5", false},
                                                        {"0 compute 1.", false},
                                                        {"0 compute 12345678901234567", false},
                                                        {"0 init", false},
                                                        {"0 init 1", false},
                                                        {"0 location a.c 3", false},
                                                        {"0 gatherv 1 1 1 1 1", false},
                                                        {"0 comm_split 1 2", false},
                                                        {"0 wait 0 2 1234567890", false},
                                                        {"0 compute 5 ", true},
                                                        // ... or reports them, or skips them.
                                                        {"1 compute 5", false},
                                                        {"0 isend 4 0 10", false},
                                                        {"0 isend 1 0 10 99", false},
                                                        {"0 compute -5", false},
                                                        {"0 compute 1e400", false},
                                                        {"0 compute 5 6", false},
                                                        {"0 wait 0 2", false},
                                                        {"0 waitall 2 3", false},
                                                        {"0 bcast 1 0 4 5", false},
                                                        {"0 isend 1 0 18446744073709551615 6", false},
                                                        {"0 computer 5", false},
                                                        {"0 compute", false},
                                                        {"0", false},
                                                        {"0 ", false},
                                                        {"# comment", false},
                                                        {"", false},
                                                        {"x compute 5", false},
                                                        {"0 barrier 1", false},
                                                        {"0 sendRecv 1 3 2 1 6 6 6", false}};
  for (const unsigned type_size : {1U, 8U}) {
    const TiLineParser parser(4);
    for (const auto& [text, fast] : lines) {
      const std::string& line = text;
      CAPTURE(line);
      CAPTURE(type_size);
      TiRankState state;
      state.default_type_size = type_size;
      MpRecord quick;
      quick.line = 99;
      const bool took = parser.parse_common(line, state, quick);
      CHECK(took == fast);
      MpRecord general;
      const std::string verdict = general_ti(parser, line, state, general);
      if (took) {
        REQUIRE(verdict == "record");
        CHECK(quick.line == 0);  // left to the caller
        quick.line = general.line;
        check_same_record(quick, general);
        CHECK(quick.counts.empty());
        CHECK(quick.text.empty());
      }
    }
  }
  // Every line of the sample traces: what the one-pass path takes, the general path reads the
  // same; and it takes nearly all of them.
  std::size_t total = 0;
  std::size_t taken = 0;
  for (const auto& entry : fs::directory_iterator(samples)) {
    if (!entry.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(entry.path())) {
      const std::string name = file.path().filename().string();
      if (!name.starts_with("rank")) continue;
      CAPTURE(file.path().string());
      const TiLineParser parser(64);
      augur::traces::LineReader reader(file.path().string());
      std::string_view line;
      while (reader.next(line)) {
        TiRankState state;
        state.rank = std::atoi(std::string(line.substr(0, line.find(' '))).c_str());
        MpRecord quick;
        const bool took = parser.parse_common(line, state, quick);
        ++total;
        if (!took) continue;
        ++taken;
        MpRecord general;
        REQUIRE(general_ti(parser, line, state, general) == "record");
        quick.line = general.line;
        check_same_record(quick, general);
      }
    }
  }
  CHECK(total > 1000000);
  CHECK(taken * 100 >= total * 95);
}

TEST_CASE("TI numbers: the reader's fast conversions equal from_chars bit for bit") {
  TempDir dir;
  std::vector<std::string> amounts{"0",
                                   "7",
                                   "2105",
                                   "999999999999999",
                                   "1000000000000000",
                                   "12345678901234567890",
                                   "4e+06",
                                   "2.33722e+06",
                                   "1.5",
                                   "0.1",
                                   "0.3",
                                   "123456789012345.6",
                                   "1e22",
                                   "1e23",
                                   "1e-22",
                                   "1e-23",
                                   "9.999e-5",
                                   "3.14159265358979",
                                   "31.4159265358979e-1",
                                   "5E3",
                                   "5e+000",
                                   "5e0005",
                                   "0000000000000001.5",
                                   "1.",
                                   ".5",
                                   "1e",
                                   "+2",
                                   "1e+",
                                   "0.000000000000000000001",
                                   "4.2e+21",
                                   "8.5e-21"};
  // Pseudo-random spellings: up to 18 digits, an optional point anywhere, optional exponents.
  std::uint64_t state = 88172645463325252ULL;
  const auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int i = 0; i < 20000; ++i) {
    const int digits = 1 + static_cast<int>(next() % 18);
    std::string text;
    for (int d = 0; d < digits; ++d) text += static_cast<char>('0' + next() % 10);
    if (next() % 2 == 0) text.insert(1 + next() % static_cast<std::uint64_t>(digits), ".");
    if (text.back() == '.') text += '0';
    if (next() % 2 == 0) {
      text += (next() % 2 == 0) ? "e" : "E";
      const int sign = static_cast<int>(next() % 3);
      if (sign == 1) text += '+';
      if (sign == 2) text += '-';
      text += std::to_string(next() % 40);
    }
    amounts.push_back(text);
  }
  // What from_chars reads whole (after a '+', which the reader skips like strtod) must read the
  // same; what it does not must be refused.
  const auto from_chars_value = [](const std::string& a, double& value) {
    const char* first = a.data() + (a[0] == '+' ? 1 : 0);
    const auto [ptr, ec] = std::from_chars(first, a.data() + a.size(), value);
    return ec == std::errc() && ptr == a.data() + a.size();
  };
  std::string trace;
  std::vector<std::string> accepted;
  for (const std::string& a : amounts) {
    double ignored = 0;
    if (!from_chars_value(a, ignored)) {
      const std::string bad = dir.file("bad.txt");
      write_file(bad, "0 compute " + a + "\n");
      MpRecord record;
      CHECK_THROWS_AS(open_ti_trace(bad)->next(0, record), TraceError);
      // Followed by another field (the conversion stops at the blank): refused too.
      write_file(bad, "0 reduce 1 " + a + " 0\n");
      CHECK_THROWS_AS(open_ti_trace(bad)->next(0, record), TraceError);
      continue;
    }
    accepted.push_back(a);
    trace += "0 compute " + a + "\n";
    trace += "0 reduce 1 " + a + " 0\n";  // an amount followed by a field
    // Integers also as a tag (up to 9 digits) and as a count (bytes of MPI_BYTE).
    if (a.find_first_not_of("0123456789") == std::string::npos) {
      trace += "0 isend 0 " + (a.size() > 9 ? std::string("7") : a) + " " + a + "\n";
    }
  }
  const std::string path = dir.file("numbers.txt");
  write_file(path, trace);
  const auto source = open_ti_trace(path);
  MpRecord record;
  for (const std::string& a : accepted) {
    INFO("amount ", a);
    REQUIRE(source->next(0, record));
    REQUIRE(record.kind == MpOpKind::compute);
    double expected = 0;
    from_chars_value(a, expected);
    CHECK(std::memcmp(&record.amount, &expected, sizeof expected) == 0);
    REQUIRE(source->next(0, record));
    REQUIRE(record.kind == MpOpKind::reduce);
    CHECK(std::memcmp(&record.amount, &expected, sizeof expected) == 0);
    if (a.find_first_not_of("0123456789") == std::string::npos) {
      REQUIRE(source->next(0, record));
      REQUIRE(record.kind == MpOpKind::isend);
      std::uint64_t count = 0;
      std::from_chars(a.data(), a.data() + a.size(), count);
      CHECK(record.bytes == count);
      CHECK(record.tag == (a.size() > 9 ? 7 : std::stoi(a)));
    }
  }
  CHECK_FALSE(source->next(0, record));
  CHECK(accepted.size() > 20000);
}
