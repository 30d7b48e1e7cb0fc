// PageArena: 2 MiB-aligned anonymous mappings advised MADV_HUGEPAGE, carved in order.
#include "support/page_arena.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace augur::support {
namespace {

constexpr std::size_t line_bytes = 64;

std::size_t round_up(std::size_t value, std::size_t unit) { return (value + unit - 1) / unit * unit; }

}  // namespace

PageArena::PageArena(std::size_t chunk_bytes) : chunk_bytes_(round_up(chunk_bytes == 0 ? 1 : chunk_bytes, huge_page)) {}

PageArena::~PageArena() {
  for (const Chunk& c : chunks_) ::munmap(c.mapping, c.length);
}

char* PageArena::map_chunk(std::size_t bytes) {
  // One huge page more than asked, so that an aligned start lies inside; the kernel places a
  // huge page only where a 2 MiB-aligned range lies wholly inside an advised mapping.
  const std::size_t length = bytes + huge_page;
  void* mapping = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) throw std::bad_alloc();
  chunks_.push_back(Chunk{mapping, length});
  const auto start = round_up(reinterpret_cast<std::uintptr_t>(mapping), huge_page);
  char* const first = reinterpret_cast<char*>(start);
  // A hint: where it is refused (THP compiled out: EINVAL) the pages are ordinary ones.
  (void)::madvise(first, bytes, MADV_HUGEPAGE);
  return first;
}

char* PageArena::allocate(std::size_t bytes) {
  const std::size_t size = round_up(bytes == 0 ? 1 : bytes, line_bytes);
  if (size > static_cast<std::size_t>(end_ - next_)) {
    if (size > chunk_bytes_) {  // its own chunk; the current one stays in use for the next ones
      used_ += size;
      return map_chunk(round_up(size, huge_page));
    }
    next_ = map_chunk(chunk_bytes_);
    end_ = next_ + chunk_bytes_;
  }
  char* const at = next_;
  next_ += size;
  used_ += size;
  return at;
}

}  // namespace augur::support
