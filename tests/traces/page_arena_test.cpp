// Tests of PageArena: alignment, chunks, requests larger than a chunk; and LineReader reading
// through buffers taken from one (the TI reader's rank buffers at 512 ranks and more).
#include "traces/page_arena.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "traces/line_reader.hpp"

#include "tests/support/files.hpp"

using augur::test::TempDir;
using augur::test::write_file;
using augur::traces::LineReader;
using augur::traces::PageArena;

namespace {

std::uintptr_t address(const char* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("PageArena hands out cache-line aligned buffers in order, a chunk at a time") {
    PageArena arena(1);  // rounded up to one 2 MiB chunk
    char* const a = arena.allocate(100);
    char* const b = arena.allocate(5000);
    char* const c = arena.allocate(0);
    CHECK(arena.chunks() == 1);
    // A chunk starts on a 2 MiB boundary (what a huge page needs); buffers follow at 64-byte
    // steps: 100 -> 128, 5000 -> 5056, 0 -> 64.
    CHECK(address(a) % PageArena::huge_page == 0);
    CHECK(address(b) == address(a) + 128);
    CHECK(address(c) == address(b) + 5056);
    CHECK(arena.used() == 128 + 5056 + 64);
    std::memset(a, 'a', 100);
    std::memset(b, 'b', 5000);
    CHECK(a[99] == 'a');
    CHECK(b[0] == 'b');

    // Filling the chunk: the next request that does not fit starts a second one.
    const std::size_t left = PageArena::huge_page - arena.used();
    char* const last = arena.allocate(left);
    CHECK(address(last) == address(c) + 64);
    last[left - 1] = 'z';
    CHECK(arena.chunks() == 1);
    char* const d = arena.allocate(1);
    CHECK(arena.chunks() == 2);
    CHECK(address(d) % PageArena::huge_page == 0);

    // Larger than a chunk: a chunk of its own, and the current chunk goes on after it.
    char* const big = arena.allocate(5 * PageArena::huge_page);
    CHECK(arena.chunks() == 3);
    CHECK(address(big) % PageArena::huge_page == 0);
    big[5 * PageArena::huge_page - 1] = 'y';
    char* const e = arena.allocate(10);
    CHECK(address(e) == address(d) + 64);
    CHECK(arena.chunks() == 3);
  }

  TEST_CASE("LineReader reads through a buffer from a PageArena, a long line growing out of it") {
    TempDir dir;
    const std::string long_line(100'000, 'x');
    std::vector<std::string> lines;
    for (int i = 0; i < 3000; ++i) lines.push_back(std::to_string(i) + " compute " + std::to_string(i * 7));
    lines.insert(lines.begin() + 1000, long_line);
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    write_file(dir.file("rank.txt"), text);
    write_file(dir.file("short.txt"), "0 init\n0 finalize\n");

    PageArena arena;
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
}
