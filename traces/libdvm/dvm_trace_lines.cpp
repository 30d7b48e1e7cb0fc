// The line level of Lib-DVM traces: event headers `call_NAME TIME=<s> LINE=<n> FILE=<f>` parsed
// in place, significant lines of one file, and the preamble up to ret_dvm_Init.
#include "traces/libdvm/dvm_trace_lines.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "traces/libdvm/dvm_text.hpp"
#include "traces/text_scan.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::libdvm {
namespace {

/// RTS versions whose traces are known to read right: 2884 is the one Predictor 3.1 names,
/// 2889 wrote ../shared/dvm-samples.
constexpr std::array<int, 2> known_rts_versions{2884, 2889};

/// `text` without its leading blanks; runs of spaces (the runtime pads its event lines to fixed
/// columns with them) are skipped eight at a time, to the first other character of a word.
inline std::string_view skip_padding(std::string_view text) {
  std::size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t spaces = 0x2020202020202020ULL;
    while (i + 8 <= text.size()) {
      const std::uint64_t other = load_word<std::uint64_t>(text.data() + i) ^ spaces;  // 0 bytes: spaces
      if (other != 0) {
        i += static_cast<std::size_t>(std::countr_zero(other) >> 3);
        break;
      }
      i += 8;
    }
  }
  while (i < text.size() && is_blank(text[i])) ++i;  // a tab, or the last few spaces
  return text.substr(i);
}

/// One `KEY=value` field of an event header (`key`: 5 characters); `rest` moves past it.
inline bool header_field(std::string_view& rest, const char (&key)[6], std::string_view& value) {
  rest = skip_padding(rest);
  if (rest.size() < 5 || std::memcmp(rest.data(), key, 5) != 0) return false;
  rest.remove_prefix(5);
  const auto end = static_cast<std::size_t>(find_blank(rest.data(), rest.data() + rest.size()) - rest.data());
  value = rest.substr(0, end);
  rest.remove_prefix(end);
  return true;
}

[[noreturn]] void header_error(const DvmLine& line, std::string_view label, const std::string& message) {
  throw TraceError(**line.path, line.number, std::string(label) + message);
}

/// Parses the header of an event line whose prefix (call_, ret_, Event_) is `prefix_size`
/// characters long.
void parse_header(std::string_view text, std::size_t prefix_size, DvmLine& out) {
  const auto name_end =
      static_cast<std::size_t>(find_blank(text.data() + prefix_size, text.data() + text.size()) - text.data());
  const std::string_view label = text.substr(0, name_end);
  out.name = text.substr(prefix_size, name_end - prefix_size);
  auto fail = [&](const std::string& message) { header_error(out, label, message); };
  if (out.name.empty()) fail(" without a function name");
  auto missing = [&](std::string_view key) {
    fail(": missing '" + std::string(key) + "' (expected: " + std::string(label) +
         " TIME=<seconds> LINE=<line> FILE=<file>)");
  };
  std::string_view rest = text.substr(name_end);
  std::string_view value;

  if (!header_field(rest, "TIME=", value)) missing("TIME=");
  const DvmNumber status = parse_dvm_real(value, out.time);
  if (status != DvmNumber::ok) {
    fail(": " + quoted_dvm(value) + (status == DvmNumber::bad ? " is not a number (TIME)" : " is out of range (TIME)"));
  }
  if (out.time < 0) fail(": TIME=" + std::string(value) + " is negative");
  // A call's time in seconds: beyond 1e9 s (32 years) sums over a run are no longer meaningful.
  if (out.time > 1e9) fail(": TIME=" + std::string(value) + " is out of range (at most 1e9 s)");

  if (!header_field(rest, "LINE=", value)) missing("LINE=");
  if (parse_dvm_integer(value, out.source_line) != DvmNumber::ok || out.source_line < 0) {
    fail(": " + quoted_dvm(value) + " is not a line number (LINE)");
  }

  if (!header_field(rest, "FILE=", value)) missing("FILE=");
  if (value.empty()) fail(": no file name after 'FILE='");
  out.source_file = value;
}

}  // namespace

std::string_view dvm_event_prefix(DvmLineKind kind) {
  switch (kind) {
    case DvmLineKind::call:
      return "call_";
    case DvmLineKind::ret:
      return "ret_";
    case DvmLineKind::end:
      return "Event_";
    case DvmLineKind::info:
      break;
  }
  return "";
}

bool parse_dvm_line(std::string_view raw, std::uint64_t number, const std::shared_ptr<const std::string>& path,
                    DvmLine& out) {
  const std::string_view text = skip_blanks(raw);
  if (text.empty() || text.starts_with("----------")) return false;
  out.text = text;
  out.number = number;
  out.path = &path;
  out.kind = DvmLineKind::info;
  switch (text[0]) {
    case 'c':
      if (text.starts_with("call_")) out.kind = DvmLineKind::call;
      break;
    case 'r':
      if (text.starts_with("ret_")) out.kind = DvmLineKind::ret;
      break;
    case 'E':
      if (text.starts_with("Event_")) out.kind = DvmLineKind::end;
      break;
    default:
      break;
  }
  if (out.kind != DvmLineKind::info) parse_header(text, dvm_event_prefix(out.kind).size(), out);
  return true;
}

DvmFileLines::DvmFileLines(const std::string& path, std::size_t buffer_size)
    : path_(std::make_shared<const std::string>(path)), reader_(path, buffer_size) {}

bool DvmFileLines::next(DvmLine& line) {
  if (pending_) {
    pending_ = false;
    line = last_;
    return true;
  }
  std::string_view raw;
  while (reader_.next(raw)) {
    if (parse_dvm_line(raw, reader_.line_number(), path_, line)) return true;
  }
  return false;
}

std::string dvm_warning(const std::string& path, std::uint64_t line, const std::string& message) {
  return path + ":" + std::to_string(line) + ": warning: " + message;
}

namespace {

/// `RTS VERSION = 2889` on the first line: the version, a warning when it is unknown or absent.
void check_rts_version(const DvmLine& line, DvmPreamble& preamble, std::vector<std::string>& warnings) {
  const std::string& path = **line.path;
  std::string_view rest = line.text;
  if (line.kind != DvmLineKind::info || !rest.starts_with("RTS VERSION")) {
    warnings.push_back(dvm_warning(path, line.number,
                                   "the first line is not 'RTS VERSION = <n>': is this a "
                                   "Lib-DVM trace?"));
    return;
  }
  rest = skip_blanks(rest.substr(11));
  std::int64_t version = 0;
  if (rest.empty() || rest[0] != '=' || parse_dvm_integer(skip_blanks(rest.substr(1)), version) != DvmNumber::ok ||
      version <= 0 || version > 1'000'000) {
    warnings.push_back(dvm_warning(path, line.number, "no version number in " + quoted_dvm(line.text)));
    return;
  }
  preamble.rts_version = static_cast<int>(version);
  if (std::find(known_rts_versions.begin(), known_rts_versions.end(), preamble.rts_version) ==
      known_rts_versions.end()) {
    warnings.push_back(dvm_warning(path, line.number,
                                   "RTS VERSION = " + std::to_string(version) +
                                       ": Predictor 3.1 expects 2884 and the sample traces are 2889; reading on"));
  }
}

/// The preamble parameters of one line: ProcCount (the first one), VProcCount, VPSRank,
/// VPSSize[i] or `VPSSize= a b c;`.
void scan_preamble_line(const DvmLine& line, DvmPreamble& preamble, bool& have_vproc) {
  auto integer = [&](std::string_view name, std::string_view value) {
    std::int64_t result = 0;
    const DvmNumber status = parse_dvm_integer(value, result);
    if (status != DvmNumber::ok || result < 0) {
      throw TraceError(**line.path, line.number,
                       "preamble: " + quoted_dvm(value) +
                           (status == DvmNumber::ok ? " is negative" : " is not an integer") + " (parameter '" +
                           std::string(name) + "')");
    }
    return result;
  };
  scan_dvm_tokens(
      line.text,
      [&](std::string_view name, std::string_view value) {
        if (name == "ProcCount") {
          if (!preamble.proc_count) preamble.proc_count = integer(name, value);
        } else if (name == "VProcCount") {
          preamble.vproc_count = integer(name, value);
          have_vproc = true;
        } else if (name == "VPSRank") {
          preamble.vps_rank = integer(name, value);
        } else if (name.starts_with("VPSSize[")) {
          preamble.vps_size.push_back(integer(name, value));
        }
      },
      [](std::string_view) {});
  // The list form `VPSSize= 2 2;` (the form the Predictor's GetVectorParam reads).
  const std::size_t at = line.text.find("VPSSize");
  if (at == std::string_view::npos) return;
  std::string_view rest = skip_blanks(line.text.substr(at + 7));
  if (rest.empty() || rest[0] != '=') return;
  rest = rest.substr(1, rest.find(';') == std::string_view::npos ? std::string_view::npos : rest.find(';') - 1);
  for (rest = skip_blanks(rest); !rest.empty(); rest = skip_blanks(rest)) {
    std::size_t end = 0;
    while (end < rest.size() && !is_blank(rest[end])) ++end;
    preamble.vps_size.push_back(integer("VPSSize", rest.substr(0, end)));
    rest.remove_prefix(end);
  }
}

}  // namespace

void read_dvm_preamble(DvmFileLines& lines, DvmPreamble* preamble, std::vector<std::string>* warnings) {
  const std::string& path = *lines.path();
  bool first = true;
  bool saw_init = false;
  bool saw_event = false;
  bool have_vproc = false;
  DvmLine line;
  auto finish = [&]() {
    if (preamble != nullptr && !have_vproc) {
      throw TraceError(path, preamble->init_line, "the preamble (up to ret_dvm_Init) has no 'VProcCount=' (required)");
    }
  };
  while (lines.next(line)) {
    if (first && preamble != nullptr && warnings != nullptr) {
      check_rts_version(line, *preamble, *warnings);
    }
    first = false;
    if (preamble != nullptr && line.kind != DvmLineKind::info && !saw_event) {
      saw_event = true;
      preamble->first_source_line = line.source_line;
      preamble->first_source_file = std::string(line.source_file);
    }
    switch (line.kind) {
      case DvmLineKind::info:
        if (preamble != nullptr) scan_preamble_line(line, *preamble, have_vproc);
        break;
      case DvmLineKind::call:
        if (saw_init) {
          lines.unget(line);
          finish();
          return;
        }
        break;
      case DvmLineKind::ret:
        if (line.name == "dvm_Init") {
          saw_init = true;
          if (preamble != nullptr) preamble->init_line = line.number;
        }
        break;
      case DvmLineKind::end:
        if (!saw_init) {
          throw TraceError(path, line.number,
                           "Event_" + std::string(line.name) + " before ret_dvm_Init, the end of the preamble");
        }
        lines.unget(line);
        finish();
        return;
    }
  }
  if (!saw_init) {
    throw TraceError(path, lines.end_line(), "not a Lib-DVM trace: no ret_dvm_Init line ends the preamble");
  }
  finish();
}

}  // namespace augur::traces::libdvm
