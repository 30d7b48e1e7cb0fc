// The trace formats augur reads, by name ("ti:PATH", "dvm:PATH", …): each with its reader and the
// program model that replays it. Adding a format is one entry in trace_format.cpp.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "traces/mp_record.hpp"

namespace augur::traces {

/// The program model that replays a format's records.
enum class ProgramModel {
  message_passing,  ///< MpRecords through an MpTraceSource (models/mp)
  dvm,              ///< Lib-DVM calls through a libdvm::DvmTraceReader (models/dvm)
};

struct TraceFormat {
  std::string_view name;   ///< canonical name, as a scenario's trace_format holds it
  std::string_view alias;  ///< another name accepted before the colon, or ""
  ProgramModel model;
  /// Opens a message-passing trace (throws TraceError); null for formats of another model and for
  /// `program`, which the runner expands from the scenario's loaded skeleton.
  std::unique_ptr<MpTraceSource> (*open)(const std::string& path);
  std::string_view help;  ///< `augur info formats`' paragraph (lines of at most ~90 characters)
};

/// Every format, in the order `augur info formats` lists them; the first is the default.
std::span<const TraceFormat> trace_formats();

/// The format named `name` (its name or alias), or null.
const TraceFormat* find_trace_format(std::string_view name);

/// Every accepted name (names and aliases), for "unknown trace format …; valid values are …".
std::vector<std::string> trace_format_names();

}  // namespace augur::traces
