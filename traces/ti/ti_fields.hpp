// Private to traces/ti: the two readers of an action's fields, which the action parsers of
// ti_actions.cpp take as a template argument — one grammar, read two ways.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "traces/ti/ti_numbers.hpp"
#include "traces/ti/ti_trace.hpp"

namespace augur::traces::ti {

/// Where the line being parsed comes from, for error messages.
struct TiLineSource {
  const std::string& file;
  std::uint64_t line;
};

/// The fields of one action after its keyword, read from the line left to right as they are
/// consumed (no splitting first), plain integers converted while they are scanned; every error
/// throws a TraceError naming the file, the line, the action and the field. The error paths
/// are out of line (ti_fields.cpp).
class CheckedFields {
 public:
  /// The fields of `line` from `pos` on, of the action `keyword` whose fields `usage` spells
  /// (`{last}` standing for rank_count - 1).
  CheckedFields(const TiLineSource& source, std::string_view keyword, const char* usage, std::string_view line,
                std::size_t pos, int rank_count)
      : source_(source),
        keyword_(keyword),
        usage_(usage),
        at_(line.data() + pos),
        end_(line.data() + line.size()),
        rank_count_(rank_count) {}

  /// Another field follows (skips the blanks before it; one space is the common case).
  bool more() {
    if (at_ != end_ && *at_ == ' ') {
      ++at_;
      if (at_ != end_ && !is_blank(*at_)) return true;
    }
    while (at_ != end_ && is_blank(*at_)) ++at_;
    return at_ != end_;
  }

  /// The next field; `index` >= 0 names the element of a per-rank list ("recvcount_3").
  std::string_view take(const char* name, int index = -1) {
    if (!more()) missing(name, index);
    return next_field();
  }

  std::uint64_t count(const char* name, int index = -1) {
    if (!more()) missing(name, index);
    const char* const start = at_;
    std::uint64_t value = 0;
    if (scan_digits<19>(at_, end_, value)) return value;  // < 10^19 < 2^64
    return general_count(field_from(start), name, index);
  }

  double amount(const char* name) {
    if (!more()) missing(name, -1);
    const char* const start = at_;
    double value = 0;
    // Plain integers below 10^15 < 2^53 and the tracer's "2.33722e+06" in one pass.
    if (exact_decimal(at_, end_, value)) return value;
    at_ = find_blank(at_, end_);
    return general_amount(field_from(start), name);
  }

  std::int32_t integer(const char* name) {
    if (!more()) missing(name, -1);
    const char* const start = at_;
    const bool negative = *at_ == '-';
    if (negative) ++at_;
    std::uint32_t magnitude = 0;
    if (scan_digits<9>(at_, end_, magnitude)) {  // |value| < 10^9 < 2^31
      return negative ? -static_cast<std::int32_t>(magnitude) : static_cast<std::int32_t>(magnitude);
    }
    return general_integer(field_from(start), name);
  }

  /// A COMM_WORLD rank, which must exist; `any` accepts -1 (MPI_ANY_SOURCE).
  std::int32_t rank(const char* name, const char* relation, bool any = false) {
    const std::int32_t value = integer(name);
    if ((value < 0 || value >= rank_count_) && !(any && value == -1)) no_such_rank(value, relation);
    return value;
  }

  /// An optional datatype id; its size in bytes, `fallback` when the field is absent.
  unsigned datatype(const char* name, unsigned fallback) {
    if (!more()) return fallback;
    const std::int32_t id = integer(name);
    const unsigned size = datatype_size(id);
    if (size == 0) unknown_datatype(id, name);
    return size;
  }

  /// count x size, refusing a product that does not fit 64 bits.
  std::uint64_t bytes(std::uint64_t count, unsigned size, const char* name) const {
    std::uint64_t product = 0;
    // The overflow flag of the multiplication, not a division per record.
    if (__builtin_mul_overflow(count, std::uint64_t{size}, &product)) overflow(count, size, name);
    return product;
  }

  int rank_count() const { return rank_count_; }

  /// Leaves the rest of the line unread (arguments the replayer never reads).
  void skip_rest() { at_ = end_; }

  /// Rejects fields left over.
  void finish() {
    if (more()) too_many();
  }

 private:
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void number_error(NumberStatus status, std::string_view text, const char* name, int index) const;
  // The general conversions of a field that is not plain digits, and the errors: out of line,
  // so that the common path stays small.
  [[gnu::noinline]] std::uint64_t general_count(std::string_view text, const char* name, int index) const;
  [[gnu::noinline]] double general_amount(std::string_view text, const char* name) const;
  [[gnu::noinline]] std::int32_t general_integer(std::string_view text, const char* name) const;
  [[noreturn, gnu::noinline]] void missing(const char* name, int index) const;
  [[noreturn, gnu::noinline]] void no_such_rank(std::int32_t value, const char* relation) const;
  [[noreturn, gnu::noinline]] void unknown_datatype(std::int32_t id, const char* name) const;
  [[noreturn, gnu::noinline]] void overflow(std::uint64_t count, unsigned size, const char* name) const;
  [[noreturn, gnu::noinline]] void too_many();

  /// From `start` to the current position: the field just scanned.
  std::string_view field_from(const char* start) const { return {start, static_cast<std::size_t>(at_ - start)}; }
  /// The field at the current position (a non-blank), up to the next blank or the end.
  std::string_view next_field() {
    const char* const start = at_;
    while (at_ != end_ && !is_blank(*at_)) ++at_;
    return field_from(start);
  }
  std::string usage() const;

  const TiLineSource& source_;
  std::string_view keyword_;
  const char* usage_;
  const char* at_;   ///< the next character to read
  const char* end_;  ///< the end of the line
  int rank_count_;
};

/// The same fields read in one pass in their common spelling only: each field one space and
/// plain decimal digits (an amount as exact_decimal reads it), no sign, trailing blanks allowed.
/// A field in any other spelling — or a value CheckedFields would refuse — makes the line
/// `refused`, for CheckedFields to read (and report); nothing throws. Whatever it accepts, it
/// reads as CheckedFields does, value for value.
class OnePassFields {
 public:
  OnePassFields(const char* at, const char* end, int rank_count) : at_(at), end_(end), rank_count_(rank_count) {}

  bool more() const { return !only_blanks(); }

  std::uint64_t count(const char* /*name*/, int /*index*/ = -1) {
    std::uint64_t value = 0;
    if (!digits<19>(value)) refuse();
    return value;
  }

  double amount(const char* /*name*/) {
    double value = 0;
    const char* p = at_ + 1;
    if (end_ - at_ < 2 || *at_ != ' ' || !exact_decimal(p, end_, value) || (p != end_ && *p != ' ')) {
      refuse();
      return 0;
    }
    at_ = p;
    return value;
  }

  std::int32_t integer(const char* /*name*/) {
    std::uint32_t value = 0;
    if (!digits<9>(value)) refuse();
    return static_cast<std::int32_t>(value);
  }

  std::int32_t rank(const char* /*name*/, const char* /*relation*/, bool /*any*/ = false) {
    std::uint32_t value = 0;
    if (!digits<9>(value) || value >= static_cast<std::uint32_t>(rank_count_)) refuse();
    return static_cast<std::int32_t>(value);
  }

  unsigned datatype(const char* name, unsigned fallback) {
    if (!more()) return fallback;
    const unsigned size = datatype_size(integer(name));
    if (size == 0) refuse();
    return size;
  }

  std::uint64_t bytes(std::uint64_t count, unsigned size, const char* /*name*/) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(count, std::uint64_t{size}, &product)) refuse();
    return product;
  }

  int rank_count() const { return rank_count_; }

  void finish() { accepted_ = accepted_ && only_blanks(); }

  /// Every field was in its common spelling and valid.
  bool accepted() const { return accepted_; }

 private:
  /// ` <digits>`, 1 to `max_digits` of them, ending at a space or the end of the line.
  template <std::size_t max_digits, typename T>
  bool digits(T& value) {
    if (end_ - at_ < 2 || *at_ != ' ') return false;
    const char* p = at_ + 1;
    const char* const first = p;
    const T result = read_digits<T>(p, end_);
    const auto count = static_cast<std::size_t>(p - first);
    if (count == 0 || count > max_digits || (p != end_ && *p != ' ')) return false;
    value = result;
    at_ = p;
    return true;
  }
  bool only_blanks() const {
    const char* p = at_;
    while (p != end_ && is_blank(*p)) ++p;
    return p == end_;
  }
  /// Every later read fails at once (nothing is left), and the line is refused.
  void refuse() {
    at_ = end_;
    accepted_ = false;
  }

  const char* at_;
  const char* end_;
  int rank_count_;
  bool accepted_ = true;
};

}  // namespace augur::traces::ti
