// DvmCallBuilder: scans parameter lines in place (NAME=value tokens, `(AMView)` markers), types
// each value by its name and stores it in the call's reusable buffers.
#include "traces/libdvm/dvm_call_builder.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <limits>

#include "traces/libdvm/dvm_text.hpp"
#include "traces/text_scan.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::libdvm {
namespace {

struct KnownName {
  std::string_view name;
  DvmParamKind kind;
};

// The parameters the Predictor reads as decimal integers or reals (spec 3.1, the preamble,
// and CallParams.cpp of Predictor 3.1), sorted by name. Names ending in Ref, Ptr or Header are
// handles whatever this table says.
constexpr std::array<KnownName, 57> known_names{{
    {"AMVAxisCount", DvmParamKind::integer},
    {"AMVAxisDiv", DvmParamKind::integer},
    {"AcrossType", DvmParamKind::integer},
    {"AddrNumber", DvmParamKind::integer},
    {"AxisArray", DvmParamKind::integer},
    {"CoeffArray", DvmParamKind::integer},
    {"CondPipeLine", DvmParamKind::integer},
    {"ConstArray", DvmParamKind::integer},
    {"CopyRegim", DvmParamKind::integer},
    {"DistrParamArray", DvmParamKind::integer},
    {"DoPL", DvmParamKind::integer},
    {"ErrPipeLine", DvmParamKind::integer},
    {"FromInitIndexArray", DvmParamKind::integer},
    {"FromLastIndexArray", DvmParamKind::integer},
    {"FromStepArray", DvmParamKind::integer},
    {"FullShdSign", DvmParamKind::integer},
    {"HiShdWidthArray", DvmParamKind::integer},
    {"InInitIndexArray", DvmParamKind::integer},
    {"InLastIndexArray", DvmParamKind::integer},
    {"InStepArray", DvmParamKind::integer},
    {"IndexArray", DvmParamKind::integer},
    {"InitDimIndex", DvmParamKind::integer},
    {"InitHiShdIndex", DvmParamKind::integer},
    {"InitIndexArray", DvmParamKind::integer},
    {"InitLowShdIndex", DvmParamKind::integer},
    {"LastDimIndex", DvmParamKind::integer},
    {"LastHiShdIndex", DvmParamKind::integer},
    {"LastIndexArray", DvmParamKind::integer},
    {"LastLowShdIndex", DvmParamKind::integer},
    {"LengthArray", DvmParamKind::integer},
    {"LoadWeight", DvmParamKind::real},
    {"LocElmLength", DvmParamKind::integer},
    {"LowShdWidthArray", DvmParamKind::integer},
    {"MaxShdCount", DvmParamKind::integer},
    {"MemoryCount", DvmParamKind::integer},
    {"NewSign", DvmParamKind::integer},
    {"ParamCount", DvmParamKind::integer},
    {"PipeLinePLAxis", DvmParamKind::integer},
    {"PipeLinePar", DvmParamKind::real},
    {"ProcCount", DvmParamKind::integer},
    {"Rank", DvmParamKind::integer},
    {"ReDistrSign", DvmParamKind::integer},
    {"RedArrayLength", DvmParamKind::integer},
    {"RedArrayType", DvmParamKind::integer},
    {"RenewSign", DvmParamKind::integer},
    {"ShdSignArray", DvmParamKind::integer},
    {"SizeArray", DvmParamKind::integer},
    {"StaticSign", DvmParamKind::integer},
    {"ToInitIndexArray", DvmParamKind::integer},
    {"ToLastIndexArray", DvmParamKind::integer},
    {"ToStepArray", DvmParamKind::integer},
    {"TypeSize", DvmParamKind::integer},
    {"VProcCount", DvmParamKind::integer},
    {"WeightNumber", DvmParamKind::integer},
    {"index", DvmParamKind::integer},
    {"nfrag", DvmParamKind::integer},
    {"nline", DvmParamKind::integer},
}};
static_assert(std::is_sorted(known_names.begin(), known_names.end(),
                             [](const KnownName& a, const KnownName& b) { return a.name < b.name; }));

/// Whether `text` ends with the literal `suffix` (a comparison of known length: no library call).
template <std::size_t n>
bool ends_with(std::string_view text, const char (&suffix)[n]) {
  constexpr std::size_t size = n - 1;
  return text.size() >= size && std::memcmp(text.data() + text.size() - size, suffix, size) == 0;
}

/// Splits `SizeArray[3]` into `SizeArray` and 3; false for a plain name.
bool split_index(std::string_view written, std::string_view& base, std::uint32_t& index) {
  if (written.size() < 4 || written.back() != ']') return false;
  const std::size_t open = written.rfind('[');
  if (open == std::string_view::npos || open == 0) return false;
  const std::string_view digits = written.substr(open + 1, written.size() - open - 2);
  if (digits.empty()) return false;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return false;
  base = written.substr(0, open);
  return true;
}

std::uint32_t to_u32(std::size_t value) { return static_cast<std::uint32_t>(value); }

/// Elements reserved at the first use of each buffer of a DvmCall (characters: 8 times more).
constexpr std::size_t first_capacity = 16;

/// add_param's answer when it stored nothing.
constexpr std::size_t no_param = std::numeric_limits<std::size_t>::max();

}  // namespace

DvmParamKind dvm_param_kind(std::string_view name) {
  // Ref, Ptr, Header: the last character decides whether a suffix test is needed at all.
  if (!name.empty()) {
    const char last = name.back();
    if ((last == 'f' && ends_with(name, "Ref")) ||
        (last == 'r' && (ends_with(name, "Ptr") || ends_with(name, "Header")))) {
      return DvmParamKind::handle;
    }
  }
  static const DvmNameTable<128> table = [] {
    DvmNameTable<128> result;
    for (const KnownName& known : known_names) {
      result.insert(known.name, static_cast<std::uint8_t>(known.kind));
    }
    return result;
  }();
  return static_cast<DvmParamKind>(table.find(name, static_cast<std::uint8_t>(DvmParamKind::text)));
}

void DvmCallBuilder::reset() {
  DvmCall& c = call_;
  c.function_ = DvmFunction::unknown;
  c.call_time_ = 0;
  c.ret_time_ = 0;
  c.source_line_ = 0;
  c.source_file_offset_ = 0;
  c.source_file_size_ = 0;
  c.source_file_id_ = 0;
  c.trace_line_ = 0;
  c.ret_trace_line_ = 0;
  c.chars_.clear();
  // A DvmCall that is not reused starts without capacity: one allocation of a typical size
  // instead of a growing series (each buffer below the same way, on its first use).
  if (c.chars_.capacity() < first_capacity * 8) c.chars_.reserve(first_capacity * 8);
  c.unknown_name_size_ = 0;
  c.params_.clear();
  c.handles_.clear();
  c.integers_.clear();
  c.reals_.clear();
  c.texts_.clear();
}

void DvmCallBuilder::set_call(DvmFunction function, std::string_view name, double time, std::int64_t source_line,
                              std::string_view source_file, std::uint32_t source_file_id, std::uint64_t trace_line,
                              const std::shared_ptr<const std::string>& trace_path) {
  DvmCall& c = call_;
  c.function_ = function;
  if (function == DvmFunction::unknown) {
    c.chars_.assign(name);
    c.unknown_name_size_ = to_u32(name.size());
  }
  c.call_time_ = time;
  c.source_line_ = source_line;
  c.source_file_offset_ = to_u32(c.chars_.size());
  c.source_file_size_ = to_u32(source_file.size());
  c.chars_.append(source_file);
  c.source_file_id_ = source_file_id;
  c.trace_line_ = trace_line;
  c.ret_trace_line_ = trace_line;
  if (c.trace_path_ != trace_path) c.trace_path_ = trace_path;
}

void DvmCallBuilder::set_ret(double time, std::uint64_t trace_line) {
  call_.ret_time_ = time;
  call_.ret_trace_line_ = trace_line;
}

void DvmCallBuilder::fail(std::uint64_t line, const std::string& message) const {
  throw TraceError(call_.trace_path(), line, std::string(call_.name()) + ": " + message);
}

std::size_t DvmParamLineCache::slot_of(std::string_view text, DvmSide side) {
  // Every character counts (lines differ anywhere: a handle, an index, a value).
  std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ (text.size() * 2 + static_cast<std::uint64_t>(side));
  const char* p = text.data();
  std::size_t n = text.size();
  for (; n >= 8; n -= 8, p += 8) h = (h ^ load_word<std::uint64_t>(p)) * 0xC2B2AE3D27D4EB4FULL;
  if (n > 0) {
    // The last eight characters (overlapping the words above), or the few of a short line.
    std::uint64_t tail = 0;
    if (text.size() >= 8) {
      tail = load_word<std::uint64_t>(text.data() + text.size() - 8);
    } else {
      for (; n > 0; --n, ++p) tail = (tail << 8) | static_cast<unsigned char>(*p);
    }
    h = (h ^ tail) * 0xC2B2AE3D27D4EB4FULL;
  }
  h ^= h >> 29;
  h *= 0x94D049BB133111EBULL;
  return static_cast<std::size_t>(h >> 52) & (slots - 1);
}

DvmParamLineCache::Sizes DvmCallBuilder::sizes() const {
  const DvmCall& c = call_;
  return {c.params_.size(), c.chars_.size(), c.handles_.size(), c.integers_.size(), c.reals_.size(), c.texts_.size()};
}

bool DvmCallBuilder::replay(std::string_view text, std::uint64_t line, DvmSide side) {
  DvmParamLineCache& cache = *cache_;
  if (cache.index_.empty() || text.size() > DvmParamLineCache::max_text) return false;
  const std::uint16_t id = cache.index_[DvmParamLineCache::slot_of(text, side)];
  if (id == 0) return false;
  const DvmParamLineCache::Entry& e = cache.entries_[id - 1u];
  if (e.side != side || e.text.size() != text.size() || std::memcmp(e.text.data(), text.data(), text.size()) != 0) {
    return false;
  }
  DvmCall& c = call_;
  if (e.arrays) {
    // An array of the call with the name of one of the line's would have taken its elements.
    for (const DvmParamSlot& old : c.params_) {
      if (!old.array || old.side != side) continue;
      const std::string_view old_name = std::string_view(c.chars_).substr(old.name_offset, old.name_size);
      for (const DvmParamSlot& p : e.params) {
        if (p.array && p.name_size == old.name_size &&
            std::string_view(e.chars).substr(p.name_offset, p.name_size) == old_name) {
          return false;
        }
      }
    }
  }
  const DvmParamLineCache::Sizes at = sizes();
  if (c.params_.capacity() == 0) c.params_.reserve(first_capacity);
  for (DvmParamSlot p : e.params) {
    p.line = line;
    p.name_offset += to_u32(at.chars);
    p.first += at.values(p.kind);
    c.params_.push_back(p);
  }
  c.chars_.append(e.chars);
  // Most lines hold handles and integers only: the other buffers are left alone.
  if (!e.handles.empty()) c.handles_.insert(c.handles_.end(), e.handles.begin(), e.handles.end());
  if (!e.integers.empty()) c.integers_.insert(c.integers_.end(), e.integers.begin(), e.integers.end());
  if (!e.reals.empty()) c.reals_.insert(c.reals_.end(), e.reals.begin(), e.reals.end());
  for (auto [offset, size] : e.texts) c.texts_.emplace_back(offset + to_u32(at.chars), size);
  ++cache.hits_;
  return true;
}

void DvmCallBuilder::store(std::string_view text, DvmSide side, const DvmParamLineCache::Sizes& before) {
  DvmParamLineCache& cache = *cache_;
  if (text.size() > DvmParamLineCache::max_text) return;
  if (cache.index_.empty()) cache.index_.assign(DvmParamLineCache::slots, 0);
  std::uint16_t& id = cache.index_[DvmParamLineCache::slot_of(text, side)];
  if (id == 0) {
    if (cache.entries_.size() == DvmParamLineCache::capacity) return;
    cache.entries_.emplace_back();
    id = static_cast<std::uint16_t>(cache.entries_.size());
  }
  DvmParamLineCache::Entry& e = cache.entries_[id - 1u];
  const DvmCall& c = call_;
  e.text.assign(text);
  e.side = side;
  e.arrays = false;
  e.params.assign(c.params_.begin() + static_cast<std::ptrdiff_t>(before.params), c.params_.end());
  for (DvmParamSlot& p : e.params) {
    e.arrays = e.arrays || p.array;
    p.name_offset -= to_u32(before.chars);
    p.first -= before.values(p.kind);
  }
  e.chars.assign(c.chars_, before.chars);
  e.handles.assign(c.handles_.begin() + static_cast<std::ptrdiff_t>(before.handles), c.handles_.end());
  e.integers.assign(c.integers_.begin() + static_cast<std::ptrdiff_t>(before.integers), c.integers_.end());
  e.reals.assign(c.reals_.begin() + static_cast<std::ptrdiff_t>(before.reals), c.reals_.end());
  e.texts.assign(c.texts_.begin() + static_cast<std::ptrdiff_t>(before.texts), c.texts_.end());
  for (auto& t : e.texts) t.first -= to_u32(before.chars);
}

void DvmCallBuilder::add_params(std::string_view text, std::uint64_t line, DvmSide side) {
  if (cache_ != nullptr && replay(text, line, side)) return;
  const DvmParamLineCache::Sizes before = sizes();
  // Whether the line only added parameters of its own (then the cache may keep it).
  bool own = true;
  // `(AMView)` / `(DisArray)` marks the parameter before it on the same line; other tokens
  // without '=' (`***`, `MPI_Group:`) are ignored.
  std::size_t marked = no_param;
  scan_dvm_tokens(
      text,
      [&](std::string_view name, std::string_view value) {
        marked = add_param(name, value, line, side);
        own = own && marked != no_param && marked >= before.params;
      },
      [&](std::string_view token) {
        if (marked == no_param) return;
        if (token == "(AMView)") call_.params_[marked].marker = DvmPatternType::am_view;
        if (token == "(DisArray)") call_.params_[marked].marker = DvmPatternType::dis_array;
      });
  if (cache_ != nullptr && own) store(text, side, before);
}

std::size_t DvmCallBuilder::add_param(std::string_view written, std::string_view value, std::uint64_t line,
                                      DvmSide side) {
  DvmCall& c = call_;
  std::string_view base = written;
  std::uint32_t index = 0;
  const bool array = split_index(written, base, index);
  const DvmParamKind kind = dvm_param_kind(base);
  // '=' followed by a blank or nothing: 3.1 reads an empty number, i.e. 0.
  if (value.empty() && kind != DvmParamKind::text) value = "0";
  if (array) {
    // The elements of one array normally follow each other; look for it from the end.
    for (auto it = c.params_.rbegin(); it != c.params_.rend(); ++it) {
      if (!it->array || it->side != side || it->name_size != base.size() ||
          std::string_view(c.chars_).substr(it->name_offset, it->name_size) != base) {
        continue;
      }
      const auto found = static_cast<std::size_t>(std::prev(it.base()) - c.params_.begin());
      if (index < it->count) return found;  // a repeated element: the first one counts
      if (index > it->count) {
        if (kind == DvmParamKind::text) return no_param;
        fail(line,
             quoted_dvm(written) + " but no '" + std::string(base) + "[" + std::to_string(it->count) + "]' before it");
      }
      append_value(*it, written, value);
      return found;
    }
    if (index > 0) {
      if (kind == DvmParamKind::text) return no_param;
      fail(line, quoted_dvm(written) + " but no '" + std::string(base) + "[0]' before it");
    }
  }
  if (c.params_.capacity() == 0) c.params_.reserve(first_capacity);
  // Built in place: a slot assembled on the stack from narrow fields and then copied is read
  // back wider than it was written (a store-forwarding stall on every parameter).
  const auto name_size =
      static_cast<std::uint16_t>(std::min<std::size_t>(base.size(), std::numeric_limits<std::uint16_t>::max()));
  const std::uint32_t first = sizes().values(kind);
  DvmParamSlot& slot = c.params_.emplace_back();
  slot.line = line;
  slot.name_offset = to_u32(c.chars_.size());
  slot.first = first;
  slot.name_size = name_size;
  slot.kind = kind;
  slot.side = side;
  slot.array = array;
  c.chars_.append(base.substr(0, name_size));
  append_value(c.params_.back(), written, value);
  return c.params_.size() - 1;
}

void DvmCallBuilder::append_value(DvmParamSlot& slot, std::string_view written, std::string_view value) {
  DvmCall& c = call_;
  // Keeps `slot`'s elements contiguous at the end of `values` (interleaved arrays are rare).
  auto make_room = [&slot](auto& values) {
    if (values.capacity() == 0) values.reserve(first_capacity);
    if (slot.first + slot.count != values.size()) {
      const std::size_t moved = values.size();
      for (std::uint32_t k = 0; k < slot.count; ++k) {
        const auto element = values[slot.first + k];
        values.push_back(element);
      }
      slot.first = to_u32(moved);
    }
  };
  switch (slot.kind) {
    case DvmParamKind::handle: {
      std::uint64_t handle = 0;
      const DvmNumber status = parse_dvm_hex(value, handle);
      if (status != DvmNumber::ok) {
        fail(slot.line, quoted_dvm(value) +
                            (status == DvmNumber::bad ? " is not a hexadecimal handle" : " is too large for a handle") +
                            " (parameter '" + std::string(written) + "')");
      }
      make_room(c.handles_);
      c.handles_.push_back(handle);
      break;
    }
    case DvmParamKind::integer: {
      std::int64_t integer = 0;
      const DvmNumber status = parse_dvm_integer(value, integer);
      if (status != DvmNumber::ok) {
        fail(slot.line, quoted_dvm(value) + (status == DvmNumber::bad ? " is not an integer" : " is out of range") +
                            " (parameter '" + std::string(written) + "')");
      }
      make_room(c.integers_);
      c.integers_.push_back(integer);
      break;
    }
    case DvmParamKind::real: {
      double real = 0;
      const DvmNumber status = parse_dvm_real(value, real);
      if (status != DvmNumber::ok) {
        fail(slot.line, quoted_dvm(value) + (status == DvmNumber::bad ? " is not a number" : " is out of range") +
                            " (parameter '" + std::string(written) + "')");
      }
      make_room(c.reals_);
      c.reals_.push_back(real);
      break;
    }
    case DvmParamKind::text: {
      make_room(c.texts_);
      c.texts_.emplace_back(to_u32(c.chars_.size()), to_u32(value.size()));
      c.chars_.append(value);
      break;
    }
  }
  ++slot.count;
}

}  // namespace augur::traces::libdvm
