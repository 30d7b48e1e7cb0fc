// DvmCall: one call of a Lib-DVM trace (a call line, its ret line and their parameter lines)
// with the parameters typed as spec section 3.1 says: hex handles, decimal counts, reals.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "traces/libdvm/dvm_function.hpp"

namespace augur::traces::libdvm {

/// Which half of the frame a parameter was read from: the lines after call_NAME (the inputs)
/// or the lines after ret_NAME (the results, e.g. ArrayHandlePtr of crtda_).
enum class DvmSide : std::uint8_t { call, ret };

/// How a parameter's value was read. Names ending in Ref, Ptr or Header are hexadecimal
/// handles; PipeLinePar and LoadWeight[] are reals; the counts, sizes, signs and indices the
/// Predictor reads (Rank, SizeArray[], DoPL, ...) are decimal integers. Any other name is kept
/// as text (the runtime writes format strings, file names, MPI names there) and converted only
/// when asked for.
enum class DvmParamKind : std::uint8_t { handle, integer, real, text };

/// The marker written after a pattern reference: `PatternRef=106a618 (AMView);`.
enum class DvmPatternType : std::uint8_t { none, am_view, dis_array };

/// Storage of one parameter inside a DvmCall (offsets into the call's buffers). Internal:
/// read parameters through DvmParamView or the accessors of DvmCall.
struct DvmParamSlot {
  std::uint64_t line = 0;         ///< trace line the parameter (its first element) is on
  std::uint32_t name_offset = 0;  ///< into the call's character buffer
  std::uint32_t first = 0;        ///< first element in the value vector of its kind
  std::uint32_t count = 0;        ///< elements (1 for a scalar)
  std::uint16_t name_size = 0;
  DvmParamKind kind = DvmParamKind::text;
  DvmSide side = DvmSide::call;
  DvmPatternType marker = DvmPatternType::none;
  bool array = false;
};

class DvmCall;

/// A read-only view of one parameter of a DvmCall (valid while the call is unchanged).
class DvmParamView {
 public:
  DvmParamView(const DvmCall& call, const DvmParamSlot& slot) : call_(&call), slot_(&slot) {}
  /// The name without an index: `SizeArray` for `SizeArray[0]=8; SizeArray[1]=8;`.
  std::string_view name() const;
  DvmParamKind kind() const { return slot_->kind; }
  DvmSide side() const { return slot_->side; }
  bool is_array() const { return slot_->array; }
  /// Number of elements (1 for a scalar).
  std::size_t size() const { return slot_->count; }
  DvmPatternType marker() const { return slot_->marker; }
  std::uint64_t line() const { return slot_->line; }
  /// The values; empty unless the kind matches.
  std::span<const std::uint64_t> handles() const;
  std::span<const std::int64_t> integers() const;
  std::span<const double> reals() const;
  /// Element `i` of a text parameter; empty unless the kind is text.
  std::string_view text(std::size_t i = 0) const;

 private:
  const DvmCall* call_;
  const DvmParamSlot* slot_;
};

/// One call of a Lib-DVM trace: `call_NAME TIME= LINE= FILE=`, its parameter lines, the
/// matching `ret_NAME TIME=` and its parameter lines. Reuse one object across
/// DvmTraceReader::next(): its buffers keep their capacity, so reading allocates nothing once
/// warmed up. A DvmCall owns all it holds: copies are deep and outlive the reader.
class DvmCall {
 public:
  DvmFunction function() const { return function_; }
  /// The name as written in the trace (`crtda_`, or an unknown name such as `foo_`).
  std::string_view name() const;
  /// TIME of the call line: seconds since the previous trace event (user work, or the system
  /// work of the previous call).
  double call_time() const { return call_time_; }
  /// TIME of the ret line: seconds spent inside the call.
  double ret_time() const { return ret_time_; }
  /// LINE= of the call line: the source line of the DVM program.
  std::int64_t source_line() const { return source_line_; }
  /// FILE= of the call line.
  std::string_view source_file() const {
    return std::string_view(chars_).substr(source_file_offset_, source_file_size_);
  }
  /// The FILE= name as a small number: 0 for the first file named in the trace, 1, ...
  std::uint32_t source_file_id() const { return source_file_id_; }
  /// 1-based line of call_NAME (and of ret_NAME) in the trace file.
  std::uint64_t trace_line() const { return trace_line_; }
  std::uint64_t ret_trace_line() const { return ret_trace_line_; }
  /// The trace file the lines are in (for a merged raw trace: the file of processor 0).
  const std::string& trace_path() const;

  /// Every parameter, call side first, in the order of the trace.
  std::size_t param_count() const { return params_.size(); }
  DvmParamView param(std::size_t index) const { return {*this, params_.at(index)}; }
  /// The first parameter called `name` on `side` (scalars and arrays alike), if any.
  std::optional<DvmParamView> find(std::string_view name, DvmSide side = DvmSide::call) const;
  bool has(std::string_view name, DvmSide side = DvmSide::call) const;

  // Typed access. The plain forms throw TraceError("file:line: error: crtda_: missing
  // parameter 'Rank' (call side)") when the parameter is absent; the find_ forms return
  // nullopt. A text parameter is converted on demand (TraceError naming the parameter and its
  // line if it does not convert); asking a handle as an integer (or the reverse) is a
  // programming error (std::logic_error).

  /// A scalar hexadecimal handle (`NULL` reads as 0).
  std::uint64_t handle(std::string_view name, DvmSide side = DvmSide::call) const;
  std::uint64_t ret_handle(std::string_view name) const { return handle(name, DvmSide::ret); }
  std::optional<std::uint64_t> find_handle(std::string_view name, DvmSide side = DvmSide::call) const;
  /// A scalar decimal integer.
  std::int64_t integer(std::string_view name, DvmSide side = DvmSide::call) const;
  std::int64_t ret_integer(std::string_view name) const { return integer(name, DvmSide::ret); }
  std::optional<std::int64_t> find_integer(std::string_view name, DvmSide side = DvmSide::call) const;
  /// A scalar real (an integer parameter converts).
  double real(std::string_view name, DvmSide side = DvmSide::call) const;
  std::optional<double> find_real(std::string_view name, DvmSide side = DvmSide::call) const;
  /// The elements NAME[0], NAME[1], ... of a decimal array.
  std::span<const std::int64_t> array(std::string_view name, DvmSide side = DvmSide::call) const;
  std::optional<std::span<const std::int64_t>> find_array(std::string_view name, DvmSide side = DvmSide::call) const;
  /// The elements of a real array (LoadWeight[]).
  std::span<const double> real_array(std::string_view name, DvmSide side = DvmSide::call) const;
  /// A scalar kept as text, as written (without a trailing ';').
  std::string_view text(std::string_view name, DvmSide side = DvmSide::call) const;
  /// The marker after parameter `name` (PatternRef): AMView, DisArray or none.
  DvmPatternType pattern_type(std::string_view name, DvmSide side = DvmSide::call) const;

 private:
  friend class DvmCallBuilder;
  friend class DvmParamView;

  const DvmParamSlot* find_slot(std::string_view name, DvmSide side, bool array) const;
  const DvmParamSlot& require_slot(std::string_view name, DvmSide side, bool array) const;
  [[noreturn]] void throw_at(std::uint64_t line, const std::string& message) const;

  DvmFunction function_ = DvmFunction::unknown;
  double call_time_ = 0;
  double ret_time_ = 0;
  std::int64_t source_line_ = 0;
  std::uint32_t source_file_offset_ = 0;
  std::uint32_t source_file_size_ = 0;
  std::uint32_t source_file_id_ = 0;
  std::uint64_t trace_line_ = 0;
  std::uint64_t ret_trace_line_ = 0;
  std::shared_ptr<const std::string> trace_path_;
  /// Names and text values; an unknown function's name is at offset 0, FILE= after it.
  std::string chars_;
  std::uint32_t unknown_name_size_ = 0;
  std::vector<DvmParamSlot> params_;
  std::vector<std::uint64_t> handles_;
  std::vector<std::int64_t> integers_;
  std::vector<double> reals_;
  /// (offset, size) of each text element in chars_.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> texts_;
};

/// One line describing `call`, for messages, debugging and tests:
/// `crtda_ LINE=20 FILE=jac1d.cdv TIME=0.00000133/0.00002067 | ArrayHeader=51b468 Rank=2
/// SizeArray=[8,8] ... | ret: ArrayHandlePtr=106c8a8` (times with 8 decimals, handles in hex).
std::string format_dvm_call(const DvmCall& call);

}  // namespace augur::traces::libdvm
