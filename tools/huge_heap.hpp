// Large runs: the heap on 2 MiB pages (docs/performance.md, sixteenth round).
#pragma once
#include <cstddef>
#include <cstdint>

namespace augur::tools {

/// Runs of huge_heap_min_lps to huge_heap_max_lps LPs ask for the heap on 2 MiB pages
/// (reserve_huge_heap). Measured with every analysis (interleaved runs): 1,024 LPs −1 %, 4,096
/// −2 to −4 %, 16,384 −8 to −10 %, 65,536 and 262,144 −10 to −12 %; at 1,000,000 +5 to +8 %
/// (most per-LP arrays there are beyond malloc's 32 MiB and are mappings of their own anyway),
/// so not above 262,144 (where the wait states' shorter history starts too).
inline constexpr std::size_t huge_heap_min_lps = 1024;
inline constexpr std::size_t huge_heap_max_lps = 262144;

/// The heap bytes a run of `lps` LPs asks for: 4 KiB per LP, at least 32 MiB, at most 256 MiB
/// (address space: pages count only once touched; 1 GiB made 262,144 LPs no faster).
std::size_t huge_heap_bytes(std::size_t lps);

/// Makes the next `bytes` of malloc's heap (its main arena, which the run's thread uses) eligible
/// for transparent huge pages, once per process. A run's per-LP arrays are written for the first
/// time during the run, one page fault per 4 KiB page — ~1.4 µs each on the benchmark's guest,
/// the zeroing a third of it — and a 2 MiB page takes one fault for 512 of them (16,384 ranks:
/// 7,532 faults → 469, −14 % with every analysis). How, with glibc: allocations up to 32 MiB
/// come from the heap rather than from mappings of their own (M_MMAP_THRESHOLD), the heap is not
/// trimmed (M_TRIM_THRESHOLD), it is grown by `bytes` at once (blocks allocated and freed) and
/// that range, 2 MiB-aligned, is advised MADV_HUGEPAGE. Nothing is touched, so nothing counts in
/// the resident set until used. Returns the range advised: none when it was done before, without
/// glibc, under the address sanitizer (its allocator is not malloc's heap), when the heap did
/// not grow in place or the kernel refused the advice. Only speed depends on it: a program
/// behaves the same whatever it returns.
struct HugeHeap {
  std::uintptr_t begin = 0;  ///< the advised range's start (2 MiB-aligned)
  std::size_t bytes = 0;     ///< its length (a multiple of 2 MiB); 0: nothing advised
};
HugeHeap reserve_huge_heap(std::size_t bytes);

}  // namespace augur::tools
