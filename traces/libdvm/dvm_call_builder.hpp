// Private to traces/libdvm: fills a DvmCall from the lines of one frame. The parameter scanner
// splits an info line into NAME=value tokens in place and types each value by its name.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "traces/libdvm/dvm_call.hpp"

namespace augur::traces::libdvm {

/// How the values of a parameter name are read (spec 3.1): hex by suffix, the known decimal
/// and real names by table, anything else as text.
DvmParamKind dvm_param_kind(std::string_view name);

/// What parameter lines did to a call, kept by their text so that a line met again is stored
/// by copying instead of being scanned: the parameters of a program's calls repeat from one
/// iteration to the next, handles included (a generated Jacobi trace of 108,088 parameter lines
/// has 85 distinct ones). Only a line that adds parameters of its own is kept — not one that
/// extends or repeats an array begun before it, nor one dropping an element — and it is replayed
/// only where no array parameter of the call on the same side has the name of one of the line's
/// arrays, so that the copy is exactly what scanning would store (same buffers, same order).
/// Bounded: up to `capacity` lines of up to `max_text` characters, found through `slots` hash
/// slots; a line whose slot holds another takes its place.
class DvmParamLineCache {
 public:
  static constexpr std::size_t slots = 4096;
  static constexpr std::size_t capacity = 1024;
  static constexpr std::size_t max_text = 256;

  /// Lines copied so far (instead of scanned).
  std::uint64_t hits() const { return hits_; }

 private:
  friend class DvmCallBuilder;
  struct Entry {
    std::string text;
    DvmSide side = DvmSide::call;
    bool arrays = false;               ///< some of `params` are arrays (replay checks the call)
    std::vector<DvmParamSlot> params;  ///< offsets relative to the buffers' sizes before the line
    std::string chars;
    std::vector<std::uint64_t> handles;
    std::vector<std::int64_t> integers;
    std::vector<double> reals;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> texts;
  };
  /// The buffers' sizes before a line.
  struct Sizes {
    std::size_t params, chars, handles, integers, reals, texts;
    /// The size of the value vector of `kind` (where a parameter of that kind starts).
    std::uint32_t values(DvmParamKind kind) const {
      switch (kind) {
        case DvmParamKind::handle:
          return static_cast<std::uint32_t>(handles);
        case DvmParamKind::integer:
          return static_cast<std::uint32_t>(integers);
        case DvmParamKind::real:
          return static_cast<std::uint32_t>(reals);
        case DvmParamKind::text:
          break;
      }
      return static_cast<std::uint32_t>(texts);
    }
  };
  static std::size_t slot_of(std::string_view text, DvmSide side);

  std::vector<std::uint16_t> index_;  ///< hash slot → entry + 1 (0: none); allocated on the first store
  std::vector<Entry> entries_;
  std::uint64_t hits_ = 0;
};

/// Writes one frame into a DvmCall, reusing its buffers.
class DvmCallBuilder {
 public:
  /// `cache`: parameter lines met before are copied from it (and new ones kept); none: every
  /// line is scanned.
  explicit DvmCallBuilder(DvmCall& call, DvmParamLineCache* cache = nullptr) : call_(call), cache_(cache) {}

  /// Forgets the previous frame (keeps the capacity).
  void reset();
  /// The call line. `name` is kept only when `function` is unknown.
  void set_call(DvmFunction function, std::string_view name, double time, std::int64_t source_line,
                std::string_view source_file, std::uint32_t source_file_id, std::uint64_t trace_line,
                const std::shared_ptr<const std::string>& trace_path);
  /// The ret line.
  void set_ret(double time, std::uint64_t trace_line);
  /// Adds the NAME=value tokens of parameter line `text` (trace line `line`) to `side`. Throws
  /// TraceError for a malformed handle, integer or real, or a gap in an array.
  void add_params(std::string_view text, std::uint64_t line, DvmSide side);

 private:
  /// Stores one NAME=value; answers the index of the parameter it went to (or SIZE_MAX when it
  /// was dropped: a repeated or out-of-order element of a text array).
  std::size_t add_param(std::string_view written, std::string_view value, std::uint64_t line, DvmSide side);
  /// Appends the value of one element to `slot`'s storage (moving the storage to the end of its
  /// vector first when another parameter was stored after it).
  void append_value(DvmParamSlot& slot, std::string_view written, std::string_view value);
  [[noreturn]] void fail(std::uint64_t line, const std::string& message) const;
  DvmParamLineCache::Sizes sizes() const;
  /// Copies the effect of `text` from the cache; false when it is not there or may not be used.
  bool replay(std::string_view text, std::uint64_t line, DvmSide side);
  /// Keeps what `text` added to the call since `before`.
  void store(std::string_view text, DvmSide side, const DvmParamLineCache::Sizes& before);

  DvmCall& call_;
  DvmParamLineCache* cache_;
};

}  // namespace augur::traces::libdvm
