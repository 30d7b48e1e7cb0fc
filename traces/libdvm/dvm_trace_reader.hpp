// Lib-DVM traces (`.ptr`, plain or compressed; spec section 3.1): the streaming reader of the
// merged form `<prog>.ptr` and of the raw per-processor files `<prog>K_K.ptr`, merged on the
// fly as DVM Predictor 3.1 does before modelling.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/libdvm/dvm_call.hpp"

namespace augur::traces::libdvm {

/// The values the Predictor reads from the preamble (the lines up to ret_dvm_Init and its
/// parameter lines).
struct DvmPreamble {
  /// From the first line, `RTS VERSION = 2889`; 0 when the first line is not such a line.
  int rts_version = 0;
  /// `ProcCount=`: the processes that wrote the trace (the number of raw files).
  std::optional<std::int64_t> proc_count;
  /// `VProcCount=` (required).
  std::int64_t vproc_count = 0;
  /// `VPSRank=` and `VPSSize[i]=` (or `VPSSize= a b c;`): the virtual processor system.
  std::optional<std::int64_t> vps_rank;
  std::vector<std::int64_t> vps_size;
  /// Line of ret_dvm_Init in the (first) trace file.
  std::uint64_t init_line = 0;
  /// LINE= and FILE= of the first event line (call_, ret_) of the trace, preamble included
  /// (jac1d.ptr: `call_mps_Barrier ... LINE=25 FILE=jac1d.cdv`): Predictor 3.1 gives them to the
  /// root interval (TraceLine::first_line_number, first_file_name).
  std::int64_t first_source_line = 0;
  std::string first_source_file;
};

/// The `Event_` line that ends the calls (`Event_dvm_exit`); what follows it is ignored.
struct DvmEndEvent {
  std::string name;  ///< without the `Event_` prefix: `dvm_exit`
  double time = 0;
  std::int64_t source_line = 0;
  std::string source_file;
  std::uint64_t trace_line = 0;
};

/// Which form of trace a path names.
enum class DvmTraceForm : std::uint8_t {
  /// Decided by the name: `<prog>0_0.ptr` (optionally .gz/.zst) is raw, anything else merged;
  /// a missing `<prog>.ptr` falls back to `<prog>.ptr.gz`, `<prog>.ptr.zst`, then to the raw
  /// `<prog>0_0.ptr` (the Predictor's own fallback).
  automatic,
  /// The file as it is, whatever its name (a raw file read this way keeps its measured times).
  merged,
  /// The per-processor files `<prog>K_K.ptr`, K = 0 .. ProcCount-1 of file 0's preamble,
  /// merged as Predictor 3.1 does: events matched by source line and function, call TIMEs
  /// summed and ret TIMEs averaged over the processors, every TIME rounded to 8 decimals, the
  /// ret TIME of strtrd_, strtsh_, waitrd_, waitsh_, redis_, realn_, arrcpy_ set to 1 us.
  raw,
};

/// Reads a Lib-DVM trace call by call. Throws TraceError("file:line: error: ...") on a
/// malformed trace; collects warnings (an unknown function, once per name; an unexpected RTS
/// version) in warnings().
class DvmTraceReader {
 public:
  /// Opens `path` and reads its preamble. Throws TraceError.
  explicit DvmTraceReader(const std::string& path, DvmTraceForm form = DvmTraceForm::automatic);
  ~DvmTraceReader();
  DvmTraceReader(const DvmTraceReader&) = delete;
  DvmTraceReader& operator=(const DvmTraceReader&) = delete;
  DvmTraceReader(DvmTraceReader&&) noexcept;
  DvmTraceReader& operator=(DvmTraceReader&&) noexcept;

  /// The next call into `call` (its buffers are reused); false once the `Event_` line is
  /// reached. Throws TraceError.
  bool next(DvmCall& call);

  const DvmPreamble& preamble() const;
  /// `merged` or `raw`: what was opened.
  DvmTraceForm form() const;
  /// The files read: one, or the raw files of processors 0, 1, ...
  const std::vector<std::string>& files() const;
  /// "file:line: warning: message", in the order they arose.
  const std::vector<std::string>& warnings() const;
  /// The `Event_` line, once next() has returned false.
  const DvmEndEvent* end_event() const;
  /// The FILE= names seen so far, by DvmCall::source_file_id().
  std::string_view source_file(std::uint32_t id) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace augur::traces::libdvm
