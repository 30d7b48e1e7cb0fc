// Tests of PageArena: alignment, chunks, requests larger than a chunk.
#include "support/page_arena.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
using augur::support::PageArena;

namespace {

std::uintptr_t address(const char* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("PageArena hands out cache-line aligned buffers in order - a chunk at a time") {
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
}
