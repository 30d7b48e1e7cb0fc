// The TI action grammar of SimGrid 3.32's replayer (src/smpi/internals/smpi_replay.cpp), one
// hand-written parser per action: counts read like strtod and truncated, sizes = count x datatype.
#include "traces/ti/ti_parser.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "engine/edit_distance.hpp"
#include "traces/text_scan.hpp"
#include "traces/ti/ti_trace.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::ti {
namespace {

/// One accepted keyword; `usage` spells its fields, `{last}` standing for rank_count - 1.
struct ActionInfo {
  std::string_view keyword;
  MpOpKind kind;
  const char* usage;
};

// The most frequent actions come first: the lookup is a linear scan.
constexpr std::array<ActionInfo, 31> actions{{
    {"compute", MpOpKind::compute, "compute <flops>"},
    {"wait", MpOpKind::wait, "wait <src> <dst> <tag>"},
    {"isend", MpOpKind::isend, "isend <dst> <tag> <count> [<datatype>]"},
    {"irecv", MpOpKind::irecv, "irecv <src> <tag> <count> [<datatype>]"},
    {"send", MpOpKind::send, "send <dst> <tag> <count> [<datatype>]"},
    {"recv", MpOpKind::recv, "recv <src> <tag> <count> [<datatype>]"},
    {"sendRecv", MpOpKind::send_recv, "sendRecv <sendcount> <dst> <recvcount> <src> [<sendtype> <recvtype>]"},
    {"waitall", MpOpKind::waitall, "waitall [<n>]"},
    {"test", MpOpKind::test, "test <src> <dst> <tag>"},
    {"allreduce", MpOpKind::allreduce, "allreduce <count> <comp_flops> [<datatype>]"},
    {"barrier", MpOpKind::barrier, "barrier"},
    {"bcast", MpOpKind::bcast, "bcast <count> [<root> [<datatype>]]"},
    {"reduce", MpOpKind::reduce, "reduce <count> <comp_flops> [<root> [<datatype>]]"},
    {"alltoall", MpOpKind::alltoall, "alltoall <sendcount> <recvcount> [<sendtype> <recvtype>]"},
    {"alltoallv", MpOpKind::alltoallv,
     "alltoallv <sendtotal> <sendcount_0..{last}> <recvtotal> <recvcount_0..{last}> "
     "[<sendtype> <recvtype>]"},
    {"gather", MpOpKind::gather, "gather <sendcount> <recvcount> [<root> [<sendtype> <recvtype>]]"},
    {"gatherv", MpOpKind::gatherv, "gatherv <sendcount> <recvcount_0..{last}> [<root> [<sendtype> <recvtype>]]"},
    {"scatter", MpOpKind::scatter, "scatter <sendcount> <recvcount> [<root> [<sendtype> <recvtype>]]"},
    {"scatterv", MpOpKind::scatterv, "scatterv <sendcount_0..{last}> <recvcount> [<root> [<sendtype> <recvtype>]]"},
    {"allgather", MpOpKind::allgather, "allgather <sendcount> <recvcount> [<sendtype> <recvtype>]"},
    {"allgatherv", MpOpKind::allgatherv, "allgatherv <sendcount> <recvcount_0..{last}> [<sendtype> <recvtype>]"},
    {"reducescatter", MpOpKind::reduce_scatter, "reducescatter <recvcount_0..{last}> <comp_flops> [<datatype>]"},
    {"scan", MpOpKind::scan, "scan <count> <comp_flops> [<datatype>]"},
    {"exscan", MpOpKind::exscan, "exscan <count> <comp_flops> [<datatype>]"},
    {"init", MpOpKind::init, "init [<default_is_double>]"},
    {"finalize", MpOpKind::finalize, "finalize"},
    {"sleep", MpOpKind::sleep, "sleep <seconds>"},
    {"comm_size", MpOpKind::comm_size, "comm_size <n>"},
    {"comm_split", MpOpKind::comm_split, "comm_split [<ignored>...]"},
    {"comm_dup", MpOpKind::comm_dup, "comm_dup [<ignored>...]"},
    {"location", MpOpKind::location, "location <file> <line>"},
}};

/// Keywords SimGrid 3.32's tracer writes but its replayer rejects (besides `Win_*` and the
/// non-blocking collectives `i<collective>`).
constexpr std::array<std::string_view, 12> traced_only{"Ssend",   "ISsend",  "bsend",    "ibsend",  "Start", "Startall",
                                                       "testany", "testall", "testsome", "waitAny", "Put",   "Get"};

/// Hash of a keyword (at least 2 characters) for the lookup table: its length, first, second
/// and last characters (the smallest weights that give every keyword a slot of its own).
constexpr std::size_t keyword_hash(std::string_view keyword) {
  return (keyword.size() + static_cast<unsigned char>(keyword[0]) + static_cast<unsigned char>(keyword[1]) * 7 +
          static_cast<unsigned char>(keyword[keyword.size() - 1]) * 2) &
         255;
}

/// keyword_hash → index into `actions` + 1 (0: none).
constexpr std::array<unsigned char, 256> keyword_table = [] {
  std::array<unsigned char, 256> table{};
  for (std::size_t i = 0; i < actions.size(); ++i) {
    table[keyword_hash(actions[i].keyword)] = static_cast<unsigned char>(i + 1);
  }
  return table;
}();

/// Every keyword has a slot of its own: a lookup is one probe and one comparison.
constexpr bool keyword_table_complete = [] {
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (keyword_table[keyword_hash(actions[i].keyword)] != i + 1) return false;
  }
  return true;
}();
static_assert(keyword_table_complete, "two TI keywords share a keyword_hash slot: change the hash");

/// a == b for two strings of equal size: 4 to 16 characters as two overlapping words (the first
/// and the last 4 or 8 bytes), without a library call; others by ==.
bool same_text(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n >= 4 && n <= 8) {
    return load_word<std::uint32_t>(a.data()) == load_word<std::uint32_t>(b.data()) &&
           load_word<std::uint32_t>(a.data() + n - 4) == load_word<std::uint32_t>(b.data() + n - 4);
  }
  if (n > 8 && n <= 16) {
    return load_word<std::uint64_t>(a.data()) == load_word<std::uint64_t>(b.data()) &&
           load_word<std::uint64_t>(a.data() + n - 8) == load_word<std::uint64_t>(b.data() + n - 8);
  }
  return a == b;
}

const ActionInfo* find_action(std::string_view keyword) {
  if (keyword.size() < 4) return nullptr;  // every keyword has 4 characters or more
  const unsigned slot = keyword_table[keyword_hash(keyword)];
  if (slot == 0) return nullptr;
  const ActionInfo& info = actions[slot - 1];
  return info.keyword.size() == keyword.size() && same_text(info.keyword, keyword) ? &info : nullptr;
}

std::string unknown_action_message(std::string_view keyword) {
  std::string message = "unknown action '" + std::string(keyword) + "'";
  const ActionInfo* blocking = keyword.size() > 1 && keyword[0] == 'i' ? find_action(keyword.substr(1)) : nullptr;
  const bool nonblocking_collective =
      blocking != nullptr && blocking->kind >= MpOpKind::barrier && blocking->kind <= MpOpKind::exscan;
  if (std::find(traced_only.begin(), traced_only.end(), keyword) != traced_only.end() || keyword.starts_with("Win_") ||
      nonblocking_collective) {
    return message + ": SimGrid 3.32 traces it but its replayer rejects it";
  }
  std::string_view best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const ActionInfo& info : actions) {
    const std::size_t distance = engine::edit_distance(keyword, info.keyword);
    if (distance < best_distance) {
      best_distance = distance;
      best = info.keyword;
    }
  }
  const std::size_t tolerance = keyword.size() <= 3 ? 1 : 2;
  if (best_distance <= tolerance) message += "; did you mean '" + std::string(best) + "'?";
  return message;
}

enum class NumberStatus : std::uint8_t { ok, not_a_number, not_an_integer, negative, out_of_range };

/// A whole field as a double, like strtod but without hex and leading blanks.
bool parse_double(std::string_view text, double& value) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
  return ec == std::errc() && ptr == last && first != last;
}

/// A non-negative element count: integers directly, anything else like strtod then truncated.
NumberStatus parse_count(std::string_view text, std::uint64_t& value) {
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (ec == std::errc() && ptr == last) return NumberStatus::ok;
  double real = 0;
  if (!parse_double(text, real) || std::isnan(real)) return NumberStatus::not_a_number;
  if (real < 0) return NumberStatus::negative;
  if (!(real < 18446744073709551616.0)) return NumberStatus::out_of_range;  // 2^64
  value = static_cast<std::uint64_t>(real);
  return NumberStatus::ok;
}

/// A finite, non-negative amount (flops, seconds).
NumberStatus parse_amount(std::string_view text, double& value) {
  if (!parse_double(text, value) || std::isnan(value)) return NumberStatus::not_a_number;
  if (!std::isfinite(value)) return NumberStatus::out_of_range;
  if (value < 0) return NumberStatus::negative;
  return NumberStatus::ok;
}

NumberStatus parse_int(std::string_view text, std::int32_t& value) {
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (ec == std::errc() && ptr == last) return NumberStatus::ok;
  if (ec == std::errc::result_out_of_range && ptr == last) return NumberStatus::out_of_range;
  double real = 0;
  return parse_double(text, real) ? NumberStatus::not_an_integer : NumberStatus::not_a_number;
}

/// A field quoted for a message, shortened when it is very long.
std::string quoted(std::string_view text) {
  constexpr std::size_t limit = 40;
  // Appends rather than "'" + std::string: g++ 12 -O3 warns falsely on the latter (PR105651).
  std::string result(1, '\'');
  result.append(text.substr(0, limit));
  result.append(text.size() > limit ? "...'" : "'");
  return result;
}

std::string number_message(NumberStatus status, std::string_view text, const std::string& field) {
  std::string what;
  switch (status) {
    case NumberStatus::ok:
      break;
    case NumberStatus::not_a_number:
      what = " is not a number";
      break;
    case NumberStatus::not_an_integer:
      what = " is not an integer";
      break;
    case NumberStatus::negative:
      what = " is negative";
      break;
    case NumberStatus::out_of_range:
      what = " is out of range";
      break;
  }
  return quoted(text) + what + " (field '" + field + "')";
}

std::string ranks_phrase(int rank_count) { return std::to_string(rank_count) + (rank_count == 1 ? " rank" : " ranks"); }

/// The decimal digits from `p` on as a number (wrapping past T's range): `p` moves past them.
template <typename T>
inline T read_digits(const char*& p, const char* end) {
  T result = 0;
  while (p != end) {
    const auto digit = static_cast<unsigned>(static_cast<unsigned char>(*p) - '0');
    if (digit > 9) break;
    result = static_cast<T>(result * 10 + digit);
    ++p;
  }
  return result;
}

/// Reads the field at `p` (a non-blank) to its end (the next blank or `end`), converting it on
/// the way: true, with its value, when it is 1 to `max_digits` plain decimal digits — the common
/// case, in one pass over the characters. Otherwise false, `p` at the field's end, for the
/// general conversion of the whole field. (Digits beyond `max_digits` wrap T harmlessly: the
/// value is then discarded.)
template <std::size_t max_digits, typename T>
bool scan_digits(const char*& p, const char* end, T& value) {
  const char* const start = p;
  const T result = read_digits<T>(p, end);
  const auto digits = static_cast<std::size_t>(p - start);
  if (digits != 0 && digits <= max_digits && (p == end || is_blank(*p))) {
    value = result;
    return true;
  }
  while (p != end && !is_blank(*p)) ++p;
  return false;
}

/// Powers of ten a double holds exactly.
constexpr std::array<double, 23> exact_powers_of_ten{1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/// `<digits>[.<digits>][(e|E)[+|-]<digits>]` with at most 15 digits before the exponent and a
/// resulting power of ten within ±22, the form SimGrid's tracer writes amounts in ("2.33722e+06"):
/// the digits (< 10^15 < 2^53) and the power of ten are exact doubles, so one IEEE multiplication
/// or division gives the correctly rounded value — the value from_chars gives (Clinger's fast
/// path). Reads the field at `at` (a non-blank) in one pass: true, `at` at the field's end (the
/// next blank or `end`), when the whole field has that form; false for anything else (`at`
/// somewhere in the field), which from_chars then reads.
bool exact_decimal(const char*& at, const char* const end, double& value) {
  std::uint64_t mantissa = 0;
  int digits = 0;
  int exponent = 0;
  const auto digit_at = [&] { return static_cast<unsigned>(static_cast<unsigned char>(*at) - '0'); };
  while (at != end && digit_at() <= 9) {
    mantissa = mantissa * 10 + digit_at();
    ++digits;
    ++at;
  }
  if (digits == 0) return false;
  if (at != end && *at == '.') {
    ++at;
    const int before = digits;
    while (at != end && digit_at() <= 9) {
      mantissa = mantissa * 10 + digit_at();
      ++digits;
      --exponent;
      ++at;
    }
    if (digits == before) return false;  // "1.": left to from_chars
  }
  if (digits > 15) return false;
  if (at != end && (*at == 'e' || *at == 'E')) {
    ++at;
    const bool negative = at != end && *at == '-';
    if (at != end && (*at == '+' || *at == '-')) ++at;
    int value_digits = 0;
    int power = 0;
    while (at != end && digit_at() <= 9 && value_digits < 3) {
      power = power * 10 + static_cast<int>(digit_at());
      ++value_digits;
      ++at;
    }
    if (value_digits == 0) return false;
    exponent += negative ? -power : power;
  }
  if ((at != end && !is_blank(*at)) || exponent < -22 || exponent > 22) return false;
  const auto m = static_cast<double>(mantissa);
  value = exponent >= 0 ? m * exact_powers_of_ten[static_cast<std::size_t>(exponent)]
                        : m / exact_powers_of_ten[static_cast<std::size_t>(-exponent)];
  return true;
}

/// The fields of one action after its keyword, read from the line left to right as they are
/// consumed (no splitting first), plain integers converted while they are scanned; every error
/// names the file, the line, the action and the field. The error paths are out of line.
class ActionFields {
 public:
  /// The fields of `line` from `pos` on.
  ActionFields(const TiLineSource& source, const ActionInfo& action, std::string_view line, std::size_t pos,
               int rank_count)
      : source_(source),
        action_(action),
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
    if ((value < 0 || value >= rank_count_) && !(any && value == -1)) {
      no_such_rank(value, relation);
    }
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

  /// Rejects fields left over.
  void finish() {
    if (more()) too_many();
  }

  [[noreturn]] void fail(const std::string& message) const { throw TraceError(source_.file, source_.line, message); }

 private:
  static std::string field_name(const char* name, int index) {
    std::string text = name;
    if (index >= 0) {
      text += '_';
      text += std::to_string(index);
    }
    return text;
  }

  [[noreturn]] void number_error(NumberStatus status, std::string_view text, const char* name, int index) const {
    fail(std::string(action_.keyword) + ": " + number_message(status, text, field_name(name, index)));
  }

  // The general conversions of a field that is not plain digits, and the errors: out of line,
  // so that the common path stays small.
  [[gnu::noinline]] std::uint64_t general_count(std::string_view text, const char* name, int index) const {
    std::uint64_t value = 0;
    const NumberStatus status = parse_count(text, value);
    if (status != NumberStatus::ok) number_error(status, text, name, index);
    return value;
  }
  [[gnu::noinline]] double general_amount(std::string_view text, const char* name) const {
    double value = 0;
    const NumberStatus status = parse_amount(text, value);
    if (status != NumberStatus::ok) number_error(status, text, name, -1);
    return value;
  }
  [[gnu::noinline]] std::int32_t general_integer(std::string_view text, const char* name) const {
    std::int32_t value = 0;
    const NumberStatus status = parse_int(text, value);
    if (status != NumberStatus::ok) number_error(status, text, name, -1);
    return value;
  }
  [[noreturn, gnu::noinline]] void missing(const char* name, int index) const {
    fail(std::string(action_.keyword) + ": missing field '" + field_name(name, index) + "' (expected: " + usage() +
         ")");
  }
  [[noreturn, gnu::noinline]] void no_such_rank(std::int32_t value, const char* relation) const {
    fail(std::string(action_.keyword) + " " + relation + " " + std::to_string(value) + " but the trace has " +
         ranks_phrase(rank_count_));
  }
  [[noreturn, gnu::noinline]] void unknown_datatype(std::int32_t id, const char* name) const {
    fail("unknown datatype id " + std::to_string(id) + " (field '" + name + "' of " + std::string(action_.keyword) +
         ")");
  }
  [[noreturn, gnu::noinline]] void overflow(std::uint64_t count, unsigned size, const char* name) const {
    fail(std::string(action_.keyword) + ": " + std::to_string(count) + " x " + std::to_string(size) +
         " bytes overflows 64 bits (field '" + name + "')");
  }
  [[noreturn, gnu::noinline]] void too_many() {
    fail(std::string(action_.keyword) + ": too many fields, " + quoted(next_field()) +
         " is one too many (expected: " + usage() + ")");
  }

  /// From `start` to the current position: the field just scanned.
  std::string_view field_from(const char* start) const { return {start, static_cast<std::size_t>(at_ - start)}; }

  /// The field at the current position (a non-blank), up to the next blank or the end.
  std::string_view next_field() {
    const char* const start = at_;
    while (at_ != end_ && !is_blank(*at_)) ++at_;
    return field_from(start);
  }

  std::string usage() const {
    std::string text = action_.usage;
    const std::string last = std::to_string(rank_count_ - 1);
    for (std::size_t at = text.find("{last}"); at != std::string::npos; at = text.find("{last}", at)) {
      text.replace(at, 6, last);
    }
    return text;
  }

  const TiLineSource& source_;
  const ActionInfo& action_;
  const char* at_;   ///< the next character to read
  const char* end_;  ///< the end of the line
  int rank_count_;
};

}  // namespace

bool is_skipped_ti_line(std::string_view line) {
  for (const char c : line) {
    if (!is_blank(c) && c != '\r') return c == '#';
  }
  return true;
}

bool starts_with_integer(std::string_view line) {
  std::size_t first = 0;
  while (first < line.size() && is_blank(line[first])) ++first;
  std::size_t last = first;
  while (last < line.size() && !is_blank(line[last])) ++last;
  std::int32_t value = 0;
  return parse_int(line.substr(first, last - first), value) == NumberStatus::ok;
}

namespace {

/// ` <digits>` at `at`, up to `max_digits` digits ending at a space or `end`: true with the
/// value, `at` after the digits; false otherwise (nothing consumed that matters: the line then
/// goes to the general path).
template <std::size_t max_digits, typename T>
inline bool common_digits(const char*& at, const char* end, T& value) {
  if (end - at < 2 || *at != ' ') return false;
  const char* p = at + 1;
  const char* const first = p;
  const T result = read_digits<T>(p, end);
  const auto digits = static_cast<std::size_t>(p - first);
  if (digits == 0 || digits > max_digits || (p != end && *p != ' ')) return false;
  value = result;
  at = p;
  return true;
}

/// ` <rank>`: an existing rank (0 ≤ value < rank_count).
inline bool common_rank(const char*& at, const char* end, int rank_count, std::int32_t& value) {
  std::uint32_t v = 0;
  if (!common_digits<9>(at, end, v) || v >= static_cast<std::uint32_t>(rank_count)) return false;
  value = static_cast<std::int32_t>(v);
  return true;
}

/// ` <int32>` without a sign (|value| < 10^9).
inline bool common_int(const char*& at, const char* end, std::int32_t& value) {
  std::uint32_t v = 0;
  if (!common_digits<9>(at, end, v)) return false;
  value = static_cast<std::int32_t>(v);
  return true;
}

/// ` <amount>` in exact_decimal's form.
inline bool common_amount(const char*& at, const char* end, double& value) {
  if (end - at < 2 || *at != ' ') return false;
  const char* p = at + 1;
  if (!exact_decimal(p, end, value) || (p != end && *p != ' ')) return false;
  at = p;
  return true;
}

/// Nothing but blanks from `at` on (the tracer ends collective lines with a space).
inline bool only_blanks(const char* at, const char* end) {
  while (at != end && is_blank(*at)) ++at;
  return at == end;
}

/// The size of the datatype field if one follows, else `fallback`; false for an unknown one.
inline bool common_type(const char*& at, const char* end, unsigned fallback, unsigned& size) {
  size = fallback;
  if (only_blanks(at, end)) return true;
  std::int32_t id = 0;
  if (!common_int(at, end, id)) return false;
  size = datatype_size(id);
  return size != 0;
}

/// count × the size of the datatype field if one follows (else `fallback`); false for an
/// unknown datatype or a product beyond 64 bits.
inline bool common_bytes(const char*& at, const char* end, std::uint64_t count, unsigned fallback,
                         std::uint64_t& bytes) {
  unsigned size = 0;
  return common_type(at, end, fallback, size) && !__builtin_mul_overflow(count, std::uint64_t{size}, &bytes);
}

}  // namespace

bool TiLineParser::parse_common(std::string_view line, const TiRankState& state, MpRecord& out) const {
  const char* at = line.data();
  const char* const end = at + line.size();
  // The rank, plain digits, which must be this rank's.
  const char* p = at;
  const auto owner = read_digits<std::uint32_t>(p, end);
  if (p == at || p - at > 9 || p == end || *p != ' ' || owner != static_cast<std::uint32_t>(state.rank)) return false;
  const char* const keyword_start = p + 1;
  const char* const keyword_end = find_blank(keyword_start, end);
  const ActionInfo* action =
      find_action(std::string_view(keyword_start, static_cast<std::size_t>(keyword_end - keyword_start)));
  if (action == nullptr) return false;
  at = keyword_end;
  const int ranks = rank_count_;
  const unsigned fallback = state.default_type_size;
  // Written in place: on a refusal the general path starts the record afresh.
  MpRecord& r = out;
  r = MpRecord{};
  r.kind = action->kind;
  r.rank = state.rank;
  switch (action->kind) {
    case MpOpKind::compute:
    case MpOpKind::sleep:
      if (!common_amount(at, end, r.amount)) return false;
      break;
    case MpOpKind::send:
    case MpOpKind::isend:
    case MpOpKind::recv:
    case MpOpKind::irecv: {
      std::uint64_t count = 0;
      if (!common_rank(at, end, ranks, r.peer) || !common_int(at, end, r.tag) || !common_digits<19>(at, end, count) ||
          !common_bytes(at, end, count, fallback, r.bytes)) {
        return false;
      }
      break;
    }
    case MpOpKind::wait:
    case MpOpKind::test:
      if (!common_rank(at, end, ranks, r.peer) || !common_rank(at, end, ranks, r.peer2) ||
          !common_int(at, end, r.tag)) {
        return false;
      }
      break;
    case MpOpKind::waitall:
      if (!only_blanks(at, end) && !common_digits<19>(at, end, r.count)) return false;
      break;
    case MpOpKind::send_recv: {
      std::uint64_t send_count = 0;
      std::uint64_t recv_count = 0;
      unsigned send_type = 0;
      unsigned recv_type = 0;
      if (!common_digits<19>(at, end, send_count) || !common_rank(at, end, ranks, r.peer) ||
          !common_digits<19>(at, end, recv_count) || !common_rank(at, end, ranks, r.peer2) ||
          !common_type(at, end, fallback, send_type) || !common_type(at, end, fallback, recv_type) ||
          __builtin_mul_overflow(send_count, std::uint64_t{send_type}, &r.bytes) ||
          __builtin_mul_overflow(recv_count, std::uint64_t{recv_type}, &r.bytes2)) {
        return false;
      }
      break;
    }
    case MpOpKind::barrier:
    case MpOpKind::finalize:
      break;
    case MpOpKind::bcast: {
      std::uint64_t count = 0;
      if (!common_digits<19>(at, end, count)) return false;
      if (!only_blanks(at, end) && !common_rank(at, end, ranks, r.root)) return false;
      if (!common_bytes(at, end, count, fallback, r.bytes)) return false;
      break;
    }
    case MpOpKind::reduce: {
      std::uint64_t count = 0;
      if (!common_digits<19>(at, end, count) || !common_amount(at, end, r.amount)) return false;
      if (!only_blanks(at, end) && !common_rank(at, end, ranks, r.root)) return false;
      if (!common_bytes(at, end, count, fallback, r.bytes)) return false;
      break;
    }
    case MpOpKind::allreduce:
    case MpOpKind::scan:
    case MpOpKind::exscan: {
      std::uint64_t count = 0;
      if (!common_digits<19>(at, end, count) || !common_amount(at, end, r.amount) ||
          !common_bytes(at, end, count, fallback, r.bytes)) {
        return false;
      }
      break;
    }
    default:
      return false;  // state changes, per-rank lists, texts: the general path
  }
  return only_blanks(at, end);  // else a field too many: the general path reports it
}

bool TiLineParser::split(std::string_view line) {
  line_ = line;
  const char* at = line.data();
  const char* const end = at + line.size();
  while (at != end && is_blank(*at)) ++at;
  if (at == end || *at == '#') return false;
  const char* start = at;
  std::uint32_t rank = 0;
  rank_plain_ = scan_digits<9>(at, end, rank);  // converted on the way: rank_field's fast path
  rank_value_ = static_cast<std::int32_t>(rank);
  rank_ = std::string_view(start, static_cast<std::size_t>(at - start));
  while (at != end && is_blank(*at)) ++at;
  start = at;
  at = find_blank(at, end);
  keyword_ = std::string_view(start, static_cast<std::size_t>(at - start));
  rest_ = static_cast<std::size_t>(at - line.data());
  return true;
}

std::int32_t TiLineParser::rank_field(const TiLineSource& source) const {
  if (rank_plain_) return rank_value_;
  const std::string_view text = rank_;
  std::int32_t rank = 0;
  NumberStatus status = parse_int(text, rank);
  if (status == NumberStatus::ok && rank < 0) status = NumberStatus::negative;
  if (status != NumberStatus::ok) {
    throw TraceError(source.file, source.line, number_message(status, text, "rank"));
  }
  return rank;
}

void TiLineParser::parse(const TiLineSource& source, TiRankState& state, MpRecord& out) const {
  if (keyword_.empty()) {
    throw TraceError(source.file, source.line, "missing action after the rank (expected: <rank> <action> <field>...)");
  }
  const std::string_view keyword = keyword_;
  const ActionInfo* action = find_action(keyword);
  if (action == nullptr) throw TraceError(source.file, source.line, unknown_action_message(keyword));

  out = MpRecord{};
  out.kind = action->kind;
  out.rank = state.rank;
  out.line = source.line;
  const int ranks = rank_count_;
  const auto size_of_p = static_cast<std::size_t>(ranks);
  const unsigned fallback = state.default_type_size;
  ActionFields f(source, *action, line_, rest_, ranks);

  switch (action->kind) {
    case MpOpKind::init:
      if (f.more()) {
        f.take("default_is_double");
        state.default_type_size = datatype_size(0);  // MPI_DOUBLE, the MPE default
      }
      break;
    case MpOpKind::finalize:
    case MpOpKind::barrier:
      break;
    case MpOpKind::comm_split:
    case MpOpKind::comm_dup:
      return;  // no-ops whose arguments the replayer never reads
    case MpOpKind::compute:
      out.amount = f.amount("flops");
      break;
    case MpOpKind::sleep:
      out.amount = f.amount("seconds");
      break;
    case MpOpKind::send:
    case MpOpKind::isend: {
      out.peer = f.rank("dst", "to rank");
      out.tag = f.integer("tag");
      const std::uint64_t count = f.count("count");
      out.bytes = f.bytes(count, f.datatype("datatype", fallback), "count");
      break;
    }
    case MpOpKind::recv:
    case MpOpKind::irecv: {
      out.peer = f.rank("src", "from rank", true);
      out.tag = f.integer("tag");
      const std::uint64_t count = f.count("count");
      out.bytes = f.bytes(count, f.datatype("datatype", fallback), "count");
      break;
    }
    case MpOpKind::wait:
    case MpOpKind::test:
      out.peer = f.rank("src", "with src rank");
      out.peer2 = f.rank("dst", "with dst rank");
      out.tag = f.integer("tag");
      break;
    case MpOpKind::waitall:
      if (f.more()) out.count = f.count("n");
      break;
    case MpOpKind::send_recv: {
      const std::uint64_t send_count = f.count("sendcount");
      out.peer = f.rank("dst", "to rank");
      const std::uint64_t recv_count = f.count("recvcount");
      out.peer2 = f.rank("src", "from rank");
      const unsigned send_type = f.datatype("sendtype", fallback);
      const unsigned recv_type = f.datatype("recvtype", fallback);
      out.bytes = f.bytes(send_count, send_type, "sendcount");
      out.bytes2 = f.bytes(recv_count, recv_type, "recvcount");
      break;
    }
    case MpOpKind::bcast: {
      const std::uint64_t count = f.count("count");
      if (f.more()) out.root = f.rank("root", "with root");
      out.bytes = f.bytes(count, f.datatype("datatype", fallback), "count");
      break;
    }
    case MpOpKind::reduce: {
      const std::uint64_t count = f.count("count");
      out.amount = f.amount("comp_flops");
      if (f.more()) out.root = f.rank("root", "with root");
      out.bytes = f.bytes(count, f.datatype("datatype", fallback), "count");
      break;
    }
    case MpOpKind::allreduce:
    case MpOpKind::scan:
    case MpOpKind::exscan: {
      const std::uint64_t count = f.count("count");
      out.amount = f.amount("comp_flops");
      out.bytes = f.bytes(count, f.datatype("datatype", fallback), "count");
      break;
    }
    case MpOpKind::alltoall:
    case MpOpKind::gather:
    case MpOpKind::scatter:
    case MpOpKind::allgather: {
      const std::uint64_t send_count = f.count("sendcount");
      const std::uint64_t recv_count = f.count("recvcount");
      const bool rooted = action->kind == MpOpKind::gather || action->kind == MpOpKind::scatter;
      if (rooted && f.more()) out.root = f.rank("root", "with root");
      const unsigned send_type = f.datatype("sendtype", fallback);
      const unsigned recv_type = f.datatype("recvtype", fallback);
      out.bytes = f.bytes(send_count, send_type, "sendcount");
      out.bytes2 = f.bytes(recv_count, recv_type, "recvcount");
      break;
    }
    case MpOpKind::alltoallv: {
      state.counts.resize(2 * size_of_p);
      const std::uint64_t send_total = f.count("sendtotal");
      for (int i = 0; i < ranks; ++i) state.counts[static_cast<std::size_t>(i)] = f.count("sendcount", i);
      const std::uint64_t recv_total = f.count("recvtotal");
      for (int i = 0; i < ranks; ++i) {
        state.counts[size_of_p + static_cast<std::size_t>(i)] = f.count("recvcount", i);
      }
      const unsigned send_type = f.datatype("sendtype", fallback);
      const unsigned recv_type = f.datatype("recvtype", fallback);
      for (std::size_t i = 0; i < size_of_p; ++i) {
        state.counts[i] = f.bytes(state.counts[i], send_type, "sendcount");
        state.counts[size_of_p + i] = f.bytes(state.counts[size_of_p + i], recv_type, "recvcount");
      }
      out.bytes = f.bytes(send_total, send_type, "sendtotal");
      out.bytes2 = f.bytes(recv_total, recv_type, "recvtotal");
      out.counts = state.counts;
      break;
    }
    case MpOpKind::gatherv:
    case MpOpKind::allgatherv: {
      state.counts.resize(size_of_p);
      const std::uint64_t send_count = f.count("sendcount");
      for (int i = 0; i < ranks; ++i) state.counts[static_cast<std::size_t>(i)] = f.count("recvcount", i);
      if (action->kind == MpOpKind::gatherv && f.more()) out.root = f.rank("root", "with root");
      const unsigned send_type = f.datatype("sendtype", fallback);
      const unsigned recv_type = f.datatype("recvtype", fallback);
      for (std::uint64_t& count : state.counts) count = f.bytes(count, recv_type, "recvcount");
      out.bytes = f.bytes(send_count, send_type, "sendcount");
      out.counts = state.counts;
      break;
    }
    case MpOpKind::scatterv: {
      state.counts.resize(size_of_p);
      for (int i = 0; i < ranks; ++i) state.counts[static_cast<std::size_t>(i)] = f.count("sendcount", i);
      const std::uint64_t recv_count = f.count("recvcount");
      if (f.more()) out.root = f.rank("root", "with root");
      const unsigned send_type = f.datatype("sendtype", fallback);
      const unsigned recv_type = f.datatype("recvtype", fallback);
      for (std::uint64_t& count : state.counts) count = f.bytes(count, send_type, "sendcount");
      out.bytes2 = f.bytes(recv_count, recv_type, "recvcount");
      out.counts = state.counts;
      break;
    }
    case MpOpKind::reduce_scatter: {
      state.counts.resize(size_of_p);
      for (int i = 0; i < ranks; ++i) state.counts[static_cast<std::size_t>(i)] = f.count("recvcount", i);
      out.amount = f.amount("comp_flops");
      const unsigned type = f.datatype("datatype", fallback);
      for (std::uint64_t& count : state.counts) count = f.bytes(count, type, "recvcount");
      out.counts = state.counts;
      break;
    }
    case MpOpKind::comm_size:
      out.count = f.count("n");
      break;
    case MpOpKind::location:
      out.text = f.take("file");
      out.count = f.count("line");
      break;
  }
  f.finish();
}

}  // namespace augur::traces::ti
