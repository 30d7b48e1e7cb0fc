#include "tools/huge_heap.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <vector>

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define AUGUR_HUGE_HEAP 1
#endif

namespace augur::tools {

std::size_t huge_heap_bytes(std::size_t lps) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  return std::clamp(lps * 4096, 32 * mib, 256 * mib);
}

HugeHeap reserve_huge_heap(std::size_t bytes) {
  static std::atomic<bool> done{false};
  if (done.exchange(true)) return {};
#ifdef AUGUR_HUGE_HEAP
  constexpr std::size_t huge = std::size_t{2} << 20;
  constexpr std::size_t block = std::size_t{30} << 20;  // below the mmap threshold set here
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::vector<void*> blocks;
  blocks.reserve(bytes / block + 1);
  for (std::size_t got = 0; got < bytes; got += block) {
    void* p = std::malloc(block);
    if (p == nullptr) break;
    asm volatile("" : : "r"(p) : "memory");  // an allocation the compiler may not leave out
    blocks.push_back(p);
  }
  // The blocks go back to the heap's top, which stays (no trimming): the range is the heap's now.
  for (void* p : blocks) std::free(p);
  const auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t from = (before + huge - 1) & ~(huge - 1);
  const std::uintptr_t to = after & ~(huge - 1);
  if (after < before + bytes / 2 || to <= from) return {};  // the heap did not grow in place
  if (madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE) != 0) return {};
  return {from, to - from};
#else
  (void)bytes;
  return {};
#endif
}

}  // namespace augur::tools
