// Private to traces/libdvm: fills a DvmCall from the lines of one frame. The parameter scanner
// splits an info line into NAME=value tokens in place and types each value by its name.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "traces/libdvm/dvm_call.hpp"

namespace augur::traces::libdvm {

/// How the values of a parameter name are read (spec 3.1): hex by suffix, the known decimal
/// and real names by table, anything else as text.
DvmParamKind dvm_param_kind(std::string_view name);

/// Writes one frame into a DvmCall, reusing its buffers.
class DvmCallBuilder {
 public:
  explicit DvmCallBuilder(DvmCall& call) : call_(call) {}

  /// Forgets the previous frame (keeps the capacity).
  void reset();
  /// The call line. `name` is kept only when `function` is unknown.
  void set_call(DvmFunction function, std::string_view name, double time, std::int64_t source_line,
                std::string_view source_file, std::uint32_t source_file_id,
                std::uint64_t trace_line, const std::shared_ptr<const std::string>& trace_path);
  /// The ret line.
  void set_ret(double time, std::uint64_t trace_line);
  /// Adds the NAME=value tokens of parameter line `text` (trace line `line`) to `side`. Throws
  /// TraceError for a malformed handle, integer or real, or a gap in an array.
  void add_params(std::string_view text, std::uint64_t line, DvmSide side);

 private:
  /// Stores one NAME=value; answers the index of the parameter it went to (or SIZE_MAX when it
  /// was dropped: a repeated or out-of-order element of a text array).
  std::size_t add_param(std::string_view written, std::string_view value, std::uint64_t line,
                        DvmSide side);
  /// Appends the value of one element to `slot`'s storage (moving the storage to the end of its
  /// vector first when another parameter was stored after it).
  void append_value(DvmParamSlot& slot, std::string_view written, std::string_view value);
  [[noreturn]] void fail(std::uint64_t line, const std::string& message) const;

  DvmCall& call_;
};

}  // namespace augur::traces::libdvm
