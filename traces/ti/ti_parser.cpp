// The table of TI actions (keyword, record kind, usage, parser) and the line parser that looks
// an action up in it and runs its parser (ti_actions.hpp): CheckedFields for any line, and
// OnePassFields first for the common lines.
#include "traces/ti/ti_parser.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "support/edit_distance.hpp"
#include "traces/text_scan.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::ti {
namespace {

template <typename F>
using ActionParser = void (*)(F& fields, TiRankState& state, MpRecord& out);

/// One accepted keyword: its record kind, its fields spelt out (`{last}` standing for
/// rank_count - 1) and its parser, read through CheckedFields and, for the actions a line of
/// OnePassFields' spelling can hold, through OnePassFields (null: the general path only).
struct ActionInfo {
  std::string_view keyword;
  MpOpKind kind;
  const char* usage;
  ActionParser<CheckedFields> checked;
  ActionParser<OnePassFields> one_pass;
};

/// The entry of an action read both ways.
template <void (*parse_checked)(CheckedFields&, TiRankState&, MpRecord&),
          void (*parse_one_pass)(OnePassFields&, TiRankState&, MpRecord&)>
constexpr ActionInfo both(std::string_view keyword, MpOpKind kind, const char* usage) {
  return {keyword, kind, usage, parse_checked, parse_one_pass};
}

// The most frequent actions come first.
constexpr std::array<ActionInfo, 31> action_table{{
    both<actions::compute, actions::compute>("compute", MpOpKind::compute, "compute <flops>"),
    both<actions::wait, actions::wait>("wait", MpOpKind::wait, "wait <src> <dst> <tag>"),
    both<actions::send, actions::send>("isend", MpOpKind::isend, "isend <dst> <tag> <count> [<datatype>]"),
    both<actions::recv, actions::recv>("irecv", MpOpKind::irecv, "irecv <src> <tag> <count> [<datatype>]"),
    both<actions::send, actions::send>("send", MpOpKind::send, "send <dst> <tag> <count> [<datatype>]"),
    both<actions::recv, actions::recv>("recv", MpOpKind::recv, "recv <src> <tag> <count> [<datatype>]"),
    both<actions::send_recv, actions::send_recv>(
        "sendRecv", MpOpKind::send_recv, "sendRecv <sendcount> <dst> <recvcount> <src> [<sendtype> <recvtype>]"),
    both<actions::waitall, actions::waitall>("waitall", MpOpKind::waitall, "waitall [<n>]"),
    both<actions::wait, actions::wait>("test", MpOpKind::test, "test <src> <dst> <tag>"),
    both<actions::all_reduce, actions::all_reduce>("allreduce", MpOpKind::allreduce,
                                                   "allreduce <count> <comp_flops> [<datatype>]"),
    both<actions::no_fields, actions::no_fields>("barrier", MpOpKind::barrier, "barrier"),
    both<actions::bcast, actions::bcast>("bcast", MpOpKind::bcast, "bcast <count> [<root> [<datatype>]]"),
    both<actions::reduce, actions::reduce>("reduce", MpOpKind::reduce,
                                           "reduce <count> <comp_flops> [<root> [<datatype>]]"),
    both<actions::exchange<false>, actions::exchange<false>>(
        "alltoall", MpOpKind::alltoall, "alltoall <sendcount> <recvcount> [<sendtype> <recvtype>]"),
    {"alltoallv", MpOpKind::alltoallv,
     "alltoallv <sendtotal> <sendcount_0..{last}> <recvtotal> <recvcount_0..{last}> [<sendtype> <recvtype>]",
     actions::alltoallv, nullptr},
    both<actions::exchange<true>, actions::exchange<true>>(
        "gather", MpOpKind::gather, "gather <sendcount> <recvcount> [<root> [<sendtype> <recvtype>]]"),
    {"gatherv", MpOpKind::gatherv, "gatherv <sendcount> <recvcount_0..{last}> [<root> [<sendtype> <recvtype>]]",
     actions::gatherv<true>, nullptr},
    both<actions::exchange<true>, actions::exchange<true>>(
        "scatter", MpOpKind::scatter, "scatter <sendcount> <recvcount> [<root> [<sendtype> <recvtype>]]"),
    {"scatterv", MpOpKind::scatterv, "scatterv <sendcount_0..{last}> <recvcount> [<root> [<sendtype> <recvtype>]]",
     actions::scatterv, nullptr},
    both<actions::exchange<false>, actions::exchange<false>>(
        "allgather", MpOpKind::allgather, "allgather <sendcount> <recvcount> [<sendtype> <recvtype>]"),
    {"allgatherv", MpOpKind::allgatherv, "allgatherv <sendcount> <recvcount_0..{last}> [<sendtype> <recvtype>]",
     actions::gatherv<false>, nullptr},
    {"reducescatter", MpOpKind::reduce_scatter, "reducescatter <recvcount_0..{last}> <comp_flops> [<datatype>]",
     actions::reduce_scatter, nullptr},
    both<actions::all_reduce, actions::all_reduce>("scan", MpOpKind::scan, "scan <count> <comp_flops> [<datatype>]"),
    both<actions::all_reduce, actions::all_reduce>("exscan", MpOpKind::exscan,
                                                   "exscan <count> <comp_flops> [<datatype>]"),
    {"init", MpOpKind::init, "init [<default_is_double>]", actions::init, nullptr},  // changes the rank's state
    both<actions::no_fields, actions::no_fields>("finalize", MpOpKind::finalize, "finalize"),
    both<actions::sleep, actions::sleep>("sleep", MpOpKind::sleep, "sleep <seconds>"),
    both<actions::comm_size, actions::comm_size>("comm_size", MpOpKind::comm_size, "comm_size <n>"),
    {"comm_split", MpOpKind::comm_split, "comm_split [<ignored>...]", actions::ignored_fields, nullptr},
    {"comm_dup", MpOpKind::comm_dup, "comm_dup [<ignored>...]", actions::ignored_fields, nullptr},
    {"location", MpOpKind::location, "location <file> <line>", actions::location, nullptr},  // a text field
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

/// keyword_hash → index into `action_table` + 1 (0: none).
constexpr std::array<unsigned char, 256> keyword_table = [] {
  std::array<unsigned char, 256> table{};
  for (std::size_t i = 0; i < action_table.size(); ++i) {
    table[keyword_hash(action_table[i].keyword)] = static_cast<unsigned char>(i + 1);
  }
  return table;
}();

/// Every keyword has a slot of its own: a lookup is one probe and one comparison.
constexpr bool keyword_table_complete = [] {
  for (std::size_t i = 0; i < action_table.size(); ++i) {
    if (keyword_table[keyword_hash(action_table[i].keyword)] != i + 1) return false;
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
  const ActionInfo& info = action_table[slot - 1];
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
  for (const ActionInfo& info : action_table) {
    const std::size_t distance = support::edit_distance(keyword, info.keyword);
    if (distance < best_distance) {
      best_distance = distance;
      best = info.keyword;
    }
  }
  const std::size_t tolerance = keyword.size() <= 3 ? 1 : 2;
  if (best_distance <= tolerance) message += "; did you mean '" + std::string(best) + "'?";
  return message;
}

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

bool TiLineParser::parse_common(std::string_view line, TiRankState& state, MpRecord& out) const {
  const char* const end = line.data() + line.size();
  // The rank, plain digits, which must be this rank's, and one space.
  const char* at = line.data();
  const auto owner = read_digits<std::uint32_t>(at, end);
  if (at == line.data() || at - line.data() > 9 || at == end || *at != ' ' ||
      owner != static_cast<std::uint32_t>(state.rank)) {
    return false;
  }
  const char* const keyword = at + 1;
  at = find_blank(keyword, end);
  const ActionInfo* action = find_action(std::string_view(keyword, static_cast<std::size_t>(at - keyword)));
  if (action == nullptr || action->one_pass == nullptr) return false;
  out = MpRecord{};
  out.kind = action->kind;
  out.rank = state.rank;
  OnePassFields fields(at, end, rank_count_);
  action->one_pass(fields, state, out);
  fields.finish();
  return fields.accepted();
}

void TiLineParser::parse(const TiLineSource& source, TiRankState& state, MpRecord& out) const {
  if (keyword_.empty()) {
    throw TraceError(source.file, source.line, "missing action after the rank (expected: <rank> <action> <field>...)");
  }
  const ActionInfo* action = find_action(keyword_);
  if (action == nullptr) throw TraceError(source.file, source.line, unknown_action_message(keyword_));
  out = MpRecord{};
  out.kind = action->kind;
  out.rank = state.rank;
  out.line = source.line;
  CheckedFields fields(source, action->keyword, action->usage, line_, rest_, rank_count_);
  action->checked(fields, state, out);
  fields.finish();
}

}  // namespace augur::traces::ti
