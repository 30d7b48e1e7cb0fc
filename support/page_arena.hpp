// Memory on 2 MiB pages for large runs: the read buffers of many readers open together (a TI
// trace of thousands of rank files) and other per-LP blocks (the wait-state analyzer's rings),
// carved in order from large chunks that the kernel is asked to back with 2 MiB pages.
#pragma once
#include <cstddef>
#include <vector>

namespace augur::support {

/// A bump allocator. Each chunk is an anonymous mapping aligned to 2 MiB and advised
/// MADV_HUGEPAGE, so that the buffers of 4,096 ranks (32 MiB) take 16 TLB entries instead of
/// 8,192 — the replay steps the ranks round robin, each step reads another rank's buffer, and
/// with 4 KiB pages nearly every step missed the TLB — and a block's first touch costs one page
/// fault per 2 MiB instead of one per 4 KiB (~1.4 µs each on the benchmark's guest, zeroing
/// included: the fault, not the zeroing, is most of it). Where the kernel gives no
/// huge pages (THP off, fragmented memory) the chunks are ordinary pages, as malloc's would
/// be. Pages are touched, and so counted in the resident set, only as buffers are filled.
/// Buffers are freed all together, with the arena: it must outlive every reader using it.
class PageArena {
 public:
  /// Chunks of at least `chunk_bytes` (rounded up to 2 MiB).
  explicit PageArena(std::size_t chunk_bytes = default_chunk_bytes);
  ~PageArena();
  PageArena(const PageArena&) = delete;
  PageArena& operator=(const PageArena&) = delete;

  /// `bytes` of uninitialised memory, 64-byte aligned (a cache line), valid until the arena is
  /// destroyed. A request larger than a chunk gets a chunk of its own. Throws std::bad_alloc.
  char* allocate(std::size_t bytes);

  /// Bytes handed out so far (rounded to 64 each).
  std::size_t used() const { return used_; }
  /// Chunks mapped so far.
  std::size_t chunks() const { return chunks_.size(); }

  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  static constexpr std::size_t default_chunk_bytes = std::size_t{32} << 20;

 private:
  struct Chunk {
    void* mapping;       ///< what mmap returned
    std::size_t length;  ///< its length
  };
  char* map_chunk(std::size_t bytes);

  std::vector<Chunk> chunks_;
  std::size_t chunk_bytes_;
  char* next_ = nullptr;  ///< the current chunk's first free byte
  char* end_ = nullptr;   ///< its end
  std::size_t used_ = 0;
};

}  // namespace augur::support
