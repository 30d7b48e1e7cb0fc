// Private to traces/ti: finds the rank and the action of one line of a SimGrid TI trace and
// hands its fields to the action's parser (ti_actions.hpp) through the table of actions. No
// allocation per line once warmed up.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "traces/mp_record.hpp"
#include "traces/ti/ti_actions.hpp"
#include "traces/ti/ti_fields.hpp"

namespace augur::traces::ti {

/// True when `line` is empty, blank or a `#` comment.
bool is_skipped_ti_line(std::string_view line);

/// True when the first field of `line` is a decimal integer (a trace line, not an index entry).
bool starts_with_integer(std::string_view line);

/// Parses TI lines for a trace of `rank_count` ranks; one per trace, reused for every line.
class TiLineParser {
 public:
  explicit TiLineParser(int rank_count) : rank_count_(rank_count) {}

  /// Takes `line` (fields separated by runs of blanks and tabs) and finds its first two fields,
  /// the rank and the action; false when it holds none or is a comment. The action's own fields
  /// are read by `parse`, left to right, without splitting the line first. The views point
  /// into `line`, which must stay valid until `parse`.
  bool split(std::string_view line);
  /// The rank field of the line last split; throws TraceError when it is not a rank.
  std::int32_t rank_field(const TiLineSource& source) const;
  /// Parses the action of the line last split into `out` (rank = state.rank); throws TraceError.
  void parse(const TiLineSource& source, TiRankState& state, MpRecord& out) const;

  /// The common line in one pass, without `split`: `<rank> <action> <field>...` of rank
  /// `state.rank`, fields in OnePassFields' spelling, for every action but `init`, `location`,
  /// the no-ops and the per-rank lists — read by the same action parser as `parse`. True when
  /// `line` is such a line and `out` holds its record, exactly what `split` and `parse` give
  /// (`out.line` left to the caller); false for anything else — another rank, blanks elsewhere,
  /// signs, a field too many or too few, a value out of range, another action — which the
  /// general path then reads (and reports); `out` is then unspecified, `state` unchanged.
  bool parse_common(std::string_view line, TiRankState& state, MpRecord& out) const;

 private:
  int rank_count_;
  std::string_view line_;        ///< the line last split
  std::string_view rank_;        ///< its first field
  std::int32_t rank_value_ = 0;  ///< its value, when `rank_plain_`
  bool rank_plain_ = false;      ///< the first field is 1 to 9 plain digits
  std::string_view keyword_;     ///< its second field; empty when it has only one
  std::size_t rest_ = 0;         ///< where in `line_` the fields after the keyword start
};

}  // namespace augur::traces::ti
