// Tests of LineReader: plain, gzip and zstd input (committed fixtures and files generated here),
// line ends, lines longer than the buffer, corrupt and truncated compressed data.
#include "traces/line_reader.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/page_arena.hpp"
#include "traces/trace_error.hpp"

#include "tests/support/files.hpp"

namespace fs = std::filesystem;
using augur::test::TempDir;
using augur::test::write_file;
using augur::traces::LineReader;
using augur::traces::TraceError;

namespace {

const std::string fixtures = "traces/fixtures/lines/";

std::vector<std::string> read_lines(const std::string& path, std::size_t buffer = LineReader::default_buffer_size) {
  LineReader reader(path, buffer);
  std::vector<std::string> lines;
  std::string_view line;
  while (reader.next(line)) {
    lines.emplace_back(line);
    REQUIRE(reader.line_number() == lines.size());
  }
  CHECK_FALSE(reader.next(line));  // stays at the end
  return lines;
}

void write_gzip(const std::string& path, const std::string& text) {
  gzFile gz = gzopen(path.c_str(), "wb");
  REQUIRE(gz != nullptr);
  REQUIRE(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  REQUIRE(gzclose(gz) == Z_OK);
}

std::string zstd_frame(const std::string& text, int level = 3) {
  std::string frame(ZSTD_compressBound(text.size()), '\0');
  const std::size_t size = ZSTD_compress(frame.data(), frame.size(), text.data(), text.size(), level);
  REQUIRE_FALSE(ZSTD_isError(size));
  frame.resize(size);
  return frame;
}

/// `count` lines of varied lengths (0 to ~300 characters), deterministic.
std::vector<std::string> varied_lines(std::size_t count) {
  std::vector<std::string> lines;
  std::uint32_t state = 12345;
  for (std::size_t i = 0; i < count; ++i) {
    state = state * 1103515245u + 12345u;
    const std::size_t length = (state >> 16) % 300;
    std::string line = std::to_string(i) + " ";
    while (line.size() < length) line += static_cast<char>('a' + (line.size() + i) % 26);
    lines.push_back(line);
  }
  return lines;
}

std::string join(const std::vector<std::string>& lines, const char* end = "\n") {
  std::string text;
  for (const std::string& line : lines) text += line + end;
  return text;
}

const std::vector<std::string> sample_lines{"first line", "", "  indented line with trailing blanks  \t", "last line"};

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("LineReader closes its file when its buffer cannot be had") {
    // An empty file keeps the buffer at the size asked for; 2^50 bytes (more than the address
    // space) from an arena: its mapping fails, std::bad_alloc. The file opened before must be
    // closed again: the open descriptors are the same before and after.
    TempDir dir;
    const std::string path = dir.file("empty.txt");
    write_file(path, "");
    const auto open_descriptors = [] {
      std::size_t n = 0;
      for ([[maybe_unused]] const auto& entry : fs::directory_iterator("/proc/self/fd")) ++n;
      return n;
    };
    augur::support::PageArena arena;
    const std::size_t before = open_descriptors();
    CHECK_THROWS_AS(LineReader(path, std::size_t{1} << 50, &arena), std::bad_alloc);
    CHECK(open_descriptors() == before);
    LineReader reader(path, 4096, &arena);  // the same file with a buffer it can have: open, empty
    std::string_view line;
    CHECK_FALSE(reader.next(line));
  }

  TEST_CASE("LineReader reads a plain file line by line") {
    CHECK(read_lines(fixtures + "sample.txt") == sample_lines);
    LineReader reader(fixtures + "sample.txt");
    CHECK(reader.path() == fixtures + "sample.txt");
    CHECK(reader.line_number() == 0);
  }

  TEST_CASE("LineReader decompresses gzip and zstd files named by suffix") {
    CHECK(read_lines(fixtures + "sample.txt.gz") == sample_lines);
    CHECK(read_lines(fixtures + "sample.txt.zst") == sample_lines);
  }

  TEST_CASE("LineReader recognises gzip and zstd by their magic bytes") {
    CHECK(read_lines(fixtures + "gzip_without_suffix.dat") == sample_lines);
    CHECK(read_lines(fixtures + "zstd_without_suffix.dat") == sample_lines);
  }

  TEST_CASE("LineReader strips CRLF line ends") {
    CHECK(read_lines(fixtures + "crlf.txt") == std::vector<std::string>{"first line", "", "second line", "last line"});
  }

  TEST_CASE("LineReader accepts a missing final newline") {
    CHECK(read_lines(fixtures + "no_final_newline.txt") ==
          std::vector<std::string>{"first line", "last line without newline"});
  }

  TEST_CASE("LineReader reads empty files") {
    CHECK(read_lines(fixtures + "empty.txt").empty());
    CHECK(read_lines(fixtures + "one_empty_line.txt") == std::vector<std::string>{""});
  }

  TEST_CASE("LineReader reports a file it cannot open") {
    CHECK_THROWS_WITH_AS(LineReader(fixtures + "no_such_file.txt"),
                         "traces/fixtures/lines/no_such_file.txt: error: cannot open: No such file or "
                         "directory",
                         TraceError);
    CHECK_THROWS_WITH_AS(LineReader("traces/fixtures/lines"),
                         "traces/fixtures/lines: error: cannot open: Is a directory", TraceError);
  }

  TEST_CASE("LineReader returns identical lines across buffer refills in every codec") {
    TempDir dir;
    const std::vector<std::string> lines = varied_lines(20000);  // about 3 MB
    const std::string text = join(lines);
    write_file(dir.file("many.txt"), text);
    write_file(dir.file("many_crlf.txt"), join(lines, "\r\n"));
    write_gzip(dir.file("many.txt.gz"), text);
    write_file(dir.file("many.txt.zst"), zstd_frame(text));
    for (const char* name : {"many.txt", "many_crlf.txt", "many.txt.gz", "many.txt.zst"}) {
      CAPTURE(name);
      CHECK(read_lines(dir.file(name)) == lines);
      CHECK(read_lines(dir.file(name), 4096) == lines);  // the smallest buffer: many refills
    }
  }

  TEST_CASE("LineReader grows its buffer for a line longer than the buffer") {
    TempDir dir;
    const std::string huge(3'000'000, 'x');
    const std::vector<std::string> lines{"short", huge, "", huge + "y", "end"};
    const std::string text = join(lines);
    write_file(dir.file("long.txt"), text.substr(0, text.size() - 1));  // no final newline
    write_gzip(dir.file("long.txt.gz"), text);
    write_file(dir.file("long.txt.zst"), zstd_frame(text));
    for (const char* name : {"long.txt", "long.txt.gz", "long.txt.zst"}) {
      CAPTURE(name);
      CHECK(read_lines(dir.file(name)) == lines);
      CHECK(read_lines(dir.file(name), 4096) == lines);
    }
  }

  TEST_CASE("LineReader reads files shorter than its buffer through a buffer of their size") {
    // A file shorter than the buffer gets a buffer of its size (at least 64 bytes): a compressed
    // one decodes into it in many refills, its longer lines grow it.
    TempDir dir;
    const std::vector<std::string> lines = varied_lines(2000);  // ~300 KB of text, compresses well
    const std::string text = join(lines);
    write_gzip(dir.file("small.txt.gz"), text);
    write_file(dir.file("small.txt.zst"), zstd_frame(text, 19));
    write_file(dir.file("one.txt"), "x");
    write_file(dir.file("three.txt"), "a\nb\n");
    for (const char* name : {"small.txt.gz", "small.txt.zst"}) {
      CAPTURE(name);
      CHECK(read_lines(dir.file(name), std::size_t{1} << 20) == lines);
    }
    CHECK(read_lines(dir.file("one.txt")) == std::vector<std::string>{"x"});
    CHECK(read_lines(dir.file("three.txt")) == std::vector<std::string>{"a", "b"});
  }

  TEST_CASE("LineReader reads a file known to be regular through its first read - as by fstat") {
    // known_regular (a folder listing's d_type): no fstat, the first read sizes the buffer. Every
    // kind of file gives the lines the usual constructor gives: empty, shorter than the buffer,
    // one byte short of it, exactly its size (the first read fills it: the end is found by a
    // read returning 0), much longer, CRLF, gzip and zstd (decoded from the bytes read first).
    TempDir dir;
    const std::vector<std::string> lines = varied_lines(2000);
    const std::string text = join(lines);
    write_file(dir.file("empty.txt"), "");
    write_file(dir.file("one.txt"), "x");
    write_file(dir.file("three.txt"), "a\nb\n");
    write_file(dir.file("short.txt"), text.substr(0, 3000));
    write_file(dir.file("fits.txt"), std::string(4094, 'y') + "\n");
    write_file(dir.file("full.txt"), std::string(4095, 'z') + "\n");
    write_file(dir.file("long.txt"), text);
    write_file(dir.file("long_crlf.txt"), join(lines, "\r\n"));
    write_gzip(dir.file("small.txt.gz"), text);
    write_file(dir.file("small.txt.zst"), zstd_frame(text, 19));
    write_gzip(dir.file("tiny.gz"), "a\nb");
    for (const char* name : {"empty.txt", "one.txt", "three.txt", "short.txt", "fits.txt", "full.txt", "long.txt",
                             "long_crlf.txt", "small.txt.gz", "small.txt.zst", "tiny.gz"}) {
      CAPTURE(name);
      const std::vector<std::string> expected = read_lines(dir.file(name), 4096);
      for (const bool with_arena : {false, true}) {
        augur::support::PageArena arena;
        LineReader reader(dir.file(name), 4096, AT_FDCWD, 0, with_arena ? &arena : nullptr, true);
        std::vector<std::string> got;
        std::string_view line;
        while (reader.next(line)) {
          got.emplace_back(line);
          REQUIRE(reader.line_number() == got.size());
        }
        CHECK_FALSE(reader.next(line));
        CHECK(got == expected);
      }
    }
    CHECK(read_lines(dir.file("tiny.gz")) == std::vector<std::string>{"a", "b"});
    // A listed name that is a directory by the time it is opened: the same message as by fstat.
    fs::create_directories(dir.file("sub"));
    CHECK_THROWS_WITH_AS(LineReader(dir.file("sub"), 4096, AT_FDCWD, 0, nullptr, true),
                         doctest::Contains("sub: error: cannot open: Is a directory"), TraceError);
  }

  TEST_CASE("LineReader reads concatenated zstd frames and gzip members") {
    TempDir dir;
    write_file(dir.file("two.zst"), zstd_frame("a\nb") + zstd_frame("c\nd\n"));
    CHECK(read_lines(dir.file("two.zst")) == std::vector<std::string>{"a", "bc", "d"});
    write_gzip(dir.file("one.gz"), "a\nb\n");
    write_gzip(dir.file("two.gz"), "c\n");
    std::ifstream first(dir.file("one.gz"), std::ios::binary);
    std::ifstream second(dir.file("two.gz"), std::ios::binary);
    std::ofstream both(dir.file("both.gz"), std::ios::binary);
    both << first.rdbuf() << second.rdbuf();
    both.close();
    CHECK(read_lines(dir.file("both.gz")) == std::vector<std::string>{"a", "b", "c"});
  }

  TEST_CASE("LineReader reports corrupt zstd data at the line being read") {
    CHECK_THROWS_WITH_AS(read_lines("traces/fixtures/broken/bad_corrupt_data.txt.zst"),
                         "traces/fixtures/broken/bad_corrupt_data.txt.zst:1: error: corrupt zstd data: "
                         "Data corruption detected",
                         TraceError);
    TempDir dir;
    write_file(dir.file("garbage.zst"), "this is not zstd\n");
    CHECK_THROWS_WITH_AS(read_lines(dir.file("garbage.zst")),
                         doctest::Contains("garbage.zst:1: error: corrupt zstd data: Unknown frame "
                                           "descriptor"),
                         TraceError);
  }

  TEST_CASE("LineReader reports truncated compressed files") {
    CHECK_THROWS_WITH_AS(read_lines("traces/fixtures/broken/bad_truncated.txt.zst"),
                         "traces/fixtures/broken/bad_truncated.txt.zst:1: error: corrupt zstd data: "
                         "unexpected end of file (truncated frame)",
                         TraceError);
    CHECK_THROWS_WITH_AS(read_lines("traces/fixtures/broken/bad_truncated.txt.gz"),
                         doctest::Contains("bad_truncated.txt.gz:1249: error: corrupt gzip data: "
                                           "unexpected end of file"),
                         TraceError);

    TempDir dir;
    const std::string text = join(varied_lines(5000));
    const std::string frame = zstd_frame(text);
    write_file(dir.file("cut.zst"), frame.substr(0, frame.size() - 3));
    CHECK_THROWS_WITH_AS(read_lines(dir.file("cut.zst")),
                         doctest::Contains("corrupt zstd data: unexpected end of file"), TraceError);
    write_gzip(dir.file("whole.gz"), text);
    std::ifstream whole(dir.file("whole.gz"), std::ios::binary);
    const std::string gzip_bytes{std::istreambuf_iterator<char>(whole), {}};
    write_file(dir.file("cut.gz"), gzip_bytes.substr(0, gzip_bytes.size() - 4));
    CHECK_THROWS_WITH_AS(read_lines(dir.file("cut.gz")), doctest::Contains("corrupt gzip data: unexpected end of file"),
                         TraceError);
  }

  TEST_CASE("LineReader can be moved") {
    LineReader first(fixtures + "sample.txt");
    std::string_view line;
    REQUIRE(first.next(line));
    LineReader second(std::move(first));
    REQUIRE(second.next(line));
    CHECK(line.empty());
    CHECK(second.line_number() == 2);
    LineReader third(fixtures + "crlf.txt");
    third = std::move(second);
    REQUIRE(third.next(line));
    CHECK(line == "  indented line with trailing blanks  \t");
  }

  TEST_CASE("LineReader reads through a buffer from a PageArena - a long line growing out of it") {
    TempDir dir;
    const std::string long_line(100'000, 'x');
    std::vector<std::string> lines;
    for (int i = 0; i < 3000; ++i) lines.push_back(std::to_string(i) + " compute " + std::to_string(i * 7));
    lines.insert(lines.begin() + 1000, long_line);
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    write_file(dir.file("rank.txt"), text);
    write_file(dir.file("short.txt"), "0 init\n0 finalize\n");

    augur::support::PageArena arena;
    std::vector<std::string> got;
    {
      LineReader reader(dir.file("rank.txt"), 8192, &arena);
      CHECK(arena.used() == 8192);  // the 8 KiB buffer: the file is longer
      std::string_view line;
      while (reader.next(line)) got.emplace_back(line);
      LineReader other(dir.file("short.txt"), 8192, &arena);  // a buffer of the file's size
      CHECK(arena.used() == 8192 + 64);
      CHECK(other.next(line));
      CHECK(line == "0 init");
    }
    CHECK(got == lines);
  }
}  // TEST_SUITE
