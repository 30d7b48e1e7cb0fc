// The heap of large runs on 2 MiB pages (tools/huge_heap): the range advised, once per process,
// and that later allocations come from it.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/huge_heap.hpp"

using augur::tools::huge_heap_bytes;
using augur::tools::reserve_huge_heap;

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

/// The VmFlags line of /proc/self/smaps for the mapping holding `address` ("" when none).
std::string vm_flags_at(std::uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0;
    std::uintptr_t hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= address && address < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

}  // namespace

TEST_SUITE("unit") {
TEST_CASE("reserve_huge_heap advises a range of the heap once; later allocations come from it") {
  CHECK(huge_heap_bytes(1) == 32 * mib);  // 4 KiB per LP, at least 32 MiB…
  CHECK(huge_heap_bytes(16384) == 64 * mib);
  CHECK(huge_heap_bytes(262144) == 256 * mib);  // … at most 256 MiB
  CHECK(huge_heap_bytes(std::size_t{10'000'000}) == 256 * mib);
  const augur::tools::HugeHeap heap = reserve_huge_heap(64 * mib);
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  // The heap grew by 64 MiB in place: at least 60 MiB of it, 2 MiB-aligned, advised.
  REQUIRE(heap.bytes >= 60 * mib);
  CHECK(heap.begin % (2 * mib) == 0);
  CHECK(heap.bytes % (2 * mib) == 0);
  CHECK(vm_flags_at(heap.begin).find(" hg") != std::string::npos);  // MADV_HUGEPAGE's flag
  CHECK(vm_flags_at(heap.begin + heap.bytes - 1).find(" hg") != std::string::npos);
  // 8 MiB (below the 32 MiB from which malloc maps memory of its own) from the heap's top: its
  // end lies in the range.
  auto* block = static_cast<char*>(std::malloc(8 * mib));
  REQUIRE(block != nullptr);
  const auto last = reinterpret_cast<std::uintptr_t>(block) + 8 * mib - 1;
  CHECK(last >= heap.begin);
  CHECK(last < heap.begin + heap.bytes);
  std::free(block);
#else
  CHECK(heap.bytes == 0);  // the address sanitizer's allocator is not malloc's heap
#endif
  CHECK(reserve_huge_heap(64 * mib).bytes == 0);  // once per process
}
}
