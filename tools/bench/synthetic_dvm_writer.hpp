// A Lib-DVM trace of a Jacobi-like program of any size and iteration count, written to disk
// streamed (plain, gzip or zstd): tools/bench/dvm_gen's engine (issue 4, target 4: the sample
// traces are too small to time the reader and the DVM model).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace augur::bench {

/// The program: `N=<size>,I=<iterations>[,D=<rank>][,t=<seconds>][,intervals=0|1]`.
///
/// A C-DVM Jacobi relaxation like ../shared/dvm-samples/jac1d.ptr (same grammar, layout and
/// call sequence; RTS VERSION 2889, one processor, merged form): two D-dimensional arrays A and
/// B of N^D doubles with shadow width 1, block-distributed on a template of N^D (`getam_`,
/// `getps_`, `crtamv_`, `blkdiv_`, `distr_`, `crtda_`/`align_` twice), an initialising
/// parallel loop, then per iteration
///   loop 1 (on A, indices 1..N-2): `crtpl_`, `mappl_`, `crtrg_`, `crtred_` (MAX of a double),
///          `insred_`, `dopl_` ×2, `strtrd_`, `waitrd_`, `delrg_`, `endpl_`;
///   loop 2 (on B, indices 1..N-2): `crtpl_`, `crtshg_`, `inssh_` (A, widths 1), `strtsh_`,
///          `waitsh_`, `delshg_`, `mappl_`, `dopl_` ×2, `endpl_`;
///   `dvm_void_printf` (the "it= eps=" line);
/// then `dvm_fopen`, `dvm_fwrite` and `Event_dvm_exit` with the runtime's trailer. With
/// `intervals=1` the program is traced as with `-e1`: a program-level `bsloop_` (nfrag = -1),
/// a `bsloop_`/`enloop_` around the iteration loop and `bploop_`/`enloop_` around each parallel
/// loop.
///
/// TIMEs (8 decimals, as the runtime prints them): the work of a loop portion (the call TIME
/// of the `dopl_` whose ret says DoPL=0) is elements × t; every other TIME is a small
/// overhead (1 to 21 us) drawn from a fixed pseudo-random sequence, so the text is the same on
/// every run and every machine.
struct DvmJacobiSpec {
  std::int64_t size = 8;         ///< N ≥ 3: elements per dimension
  std::uint64_t iterations = 1;  ///< I ≥ 0
  int rank = 2;                  ///< D: 1, 2 or 3 dimensions
  double element_time = 1e-8;    ///< t > 0: seconds of loop body per element
  bool intervals = false;        ///< trace loops as intervals (bsloop_/bploop_/enloop_)
};

/// Parses "N=1000,I=200" (keys in any order, N and I required). Throws TraceError naming
/// `dvm-jacobi:<text>` and the defect.
DvmJacobiSpec parse_dvm_jacobi_spec(std::string_view text);

/// The canonical spec text, "N=1000,I=200,D=2,t=1e-08,intervals=0".
std::string to_string(const DvmJacobiSpec& spec);

/// What write_dvm_jacobi wrote.
struct WrittenDvmTrace {
  std::uint64_t calls = 0;       ///< call/ret frames after the preamble (Event_ excluded)
  std::uint64_t lines = 0;       ///< lines of text
  std::uint64_t text_bytes = 0;  ///< bytes of text before compression
  std::uint64_t bytes = 0;       ///< bytes on disk
  /// Sum of the call and ret TIMEs of every frame after the preamble, in units of 10 ns (the
  /// 8th decimal), exactly.
  std::uint64_t time_ticks = 0;
  /// The part of time_ticks that the DVM model does not charge as time on one processor:
  /// the TIMEs of `crtda_` and `align_` (Predictor 3.1 adds no call/ret time for them).
  std::uint64_t silent_ticks = 0;
  /// The ret TIMEs of the I/O calls (`dvm_void_printf`, `dvm_fopen`, `dvm_fwrite`), which the
  /// model charges to processor 0 once more, as I/O time.
  std::uint64_t io_ret_ticks = 0;
};

/// Writes the trace of `spec` to `path`: gzip when the name ends in `.gz`, zstd when it ends
/// in `.zst` (`level`: 0 = the library's default), plain text otherwise. Streamed through a
/// 1 MiB buffer: memory does not depend on N or I. Throws std::runtime_error on I/O errors.
WrittenDvmTrace write_dvm_jacobi(const DvmJacobiSpec& spec, const std::string& path, int level = 0);

}  // namespace augur::bench
