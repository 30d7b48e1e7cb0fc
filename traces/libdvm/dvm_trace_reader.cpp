// DvmTraceReader: picks the form of trace, reads the preamble, then assembles frames strictly
// (call line, its parameter lines, the matching ret line, its parameter lines) into DvmCall.
#include "traces/libdvm/dvm_trace_reader.hpp"

#include <deque>
#include <filesystem>
#include <limits>

#include "engine/log.hpp"
#include "traces/libdvm/dvm_call_builder.hpp"
#include "traces/libdvm/dvm_raw_merge.hpp"
#include "traces/libdvm/dvm_trace_lines.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::libdvm {
namespace {

/// Read buffer of each raw per-processor file (a merge keeps them all open).
constexpr std::size_t raw_buffer_size = std::size_t{64} * 1024;
/// More raw files than this is not a trace set but a mistake (each costs a buffer).
constexpr std::int64_t max_raw_files = 1024;

bool is_file(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::is_regular_file(path, ignored);
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

/// `path` without a .gz or .zst suffix.
std::string_view without_compression(std::string_view path) {
  if (ends_with(path, ".gz")) path.remove_suffix(3);
  if (ends_with(path, ".zst")) path.remove_suffix(4);
  return path;
}

/// For `dir/prog0_0.ptr[.gz]`: true and `dir/prog`.
bool raw_prefix(const std::string& path, std::string& prefix) {
  const std::string_view name = without_compression(path);
  if (!ends_with(name, "0_0.ptr")) return false;
  prefix = std::string(name.substr(0, name.size() - 7));
  return true;
}

/// For `dir/prog.ptr[.gz]`: true and `dir/prog`.
bool merged_prefix(const std::string& path, std::string& prefix) {
  const std::string_view name = without_compression(path);
  if (!ends_with(name, ".ptr")) return false;
  prefix = std::string(name.substr(0, name.size() - 4));
  return true;
}

/// `base`, else `base.gz`, else `base.zst`, whichever exists; empty if none does.
std::string existing(const std::string& base) {
  for (const char* suffix : {"", ".gz", ".zst"}) {
    if (is_file(base + suffix)) return base + suffix;
  }
  return {};
}

/// The file to open first for `path` read as `requested`, and the form it is read in
/// (DvmTraceForm says how `automatic` decides).
std::string resolve(const std::string& path, DvmTraceForm requested, DvmTraceForm& form) {
  std::string prefix;
  if (requested == DvmTraceForm::merged) {
    form = DvmTraceForm::merged;
    return path;
  }
  if (requested == DvmTraceForm::raw) {
    form = DvmTraceForm::raw;
    if (raw_prefix(path, prefix)) return path;
    if (!merged_prefix(path, prefix)) {
      throw TraceError(path, 0, "a raw Lib-DVM trace is named <prog>0_0.ptr");
    }
    std::string raw = existing(prefix + "0_0.ptr");
    return raw.empty() ? path : raw;
  }
  form = DvmTraceForm::merged;
  if (is_file(path)) {
    if (raw_prefix(path, prefix)) form = DvmTraceForm::raw;
    return path;
  }
  if (std::string compressed = existing(path); !compressed.empty()) return compressed;
  if (merged_prefix(path, prefix)) {
    if (std::string raw = existing(prefix + "0_0.ptr"); !raw.empty()) {
      form = DvmTraceForm::raw;
      return raw;
    }
  }
  return path;  // opening it reports that it is missing
}

std::string event_label(DvmLineKind kind, std::string_view name) {
  return std::string(dvm_event_prefix(kind)) + std::string(name);
}

}  // namespace

struct DvmTraceReader::Impl {
  DvmTraceForm form = DvmTraceForm::merged;
  std::vector<std::string> files;
  std::unique_ptr<DvmLineSource> source;
  DvmPreamble preamble;
  std::vector<std::string> warnings;
  /// Unknown function names already reported.
  std::vector<std::string> warned;
  /// FILE= names by id (a deque: the views source_file() hands out stay valid as it grows).
  std::deque<std::string> source_files;
  std::uint32_t last_source_file = std::numeric_limits<std::uint32_t>::max();
  std::optional<DvmEndEvent> end;
  DvmParamLineCache param_lines;  ///< parameter lines met before: copied, not scanned again
  bool done = false;

  Impl(const std::string& path, DvmTraceForm requested) {
    const std::string first = resolve(path, requested, form);
    files.push_back(first);
    auto lines = std::make_unique<DvmFileLines>(
        first, form == DvmTraceForm::raw ? raw_buffer_size : LineReader::default_buffer_size);
    read_dvm_preamble(*lines, &preamble, &warnings);
    if (form != DvmTraceForm::raw) {
      source = std::move(lines);
      log_opened();
      return;
    }
    std::string prefix;
    if (!raw_prefix(first, prefix)) merged_prefix(first, prefix);
    const std::int64_t count = preamble.proc_count.value_or(1);
    if (count < 1 || count > max_raw_files) {
      throw TraceError(first, 0,
                       "ProcCount=" + std::to_string(count) + " in the preamble: a raw trace set " + "has 1 to " +
                           std::to_string(max_raw_files) + " files");
    }
    std::vector<std::string> others;
    for (std::int64_t k = 1; k < count; ++k) {
      const std::string base = prefix + std::to_string(k) + "_" + std::to_string(k) + ".ptr";
      std::string found = existing(base);
      if (found.empty()) {
        throw TraceError(first, 0,
                         "ProcCount=" + std::to_string(count) + " but processor " + std::to_string(k) +
                             " has no raw trace '" + base + "' (nor .gz, .zst)");
      }
      others.push_back(found);
      files.push_back(std::move(found));
    }
    source = std::make_unique<DvmRawMerge>(std::move(lines), others, raw_buffer_size);
    log_opened();
  }

  /// The traces folder's info line: what was opened, as which form, and the preamble's grid.
  void log_opened() const {
    auto* lg = engine::logger_at(engine::Folder::traces, spdlog::level::info);
    if (lg == nullptr) return;
    std::string vps;
    for (const std::int64_t n : preamble.vps_size) vps += (vps.empty() ? "" : "x") + std::to_string(n);
    lg->info("Lib-DVM trace {}: {} ({} file{}), RTS version {}, VProcCount={}{}{}", files.front(),
             form == DvmTraceForm::raw ? "raw, merged on the fly by time" : "merged", files.size(),
             files.size() == 1 ? "" : "s", preamble.rts_version, preamble.vproc_count, vps.empty() ? "" : ", VPSSize ",
             vps);
  }

  std::uint32_t intern(std::string_view name) {
    if (last_source_file < source_files.size() && source_files[last_source_file] == name) {
      return last_source_file;
    }
    for (std::size_t i = 0; i < source_files.size(); ++i) {
      if (source_files[i] == name) return last_source_file = static_cast<std::uint32_t>(i);
    }
    source_files.emplace_back(name);
    return last_source_file = static_cast<std::uint32_t>(source_files.size() - 1);
  }

  void finish(const DvmLine& line) {
    DvmEndEvent event;
    event.name = std::string(line.name);
    event.time = line.time;
    event.source_line = line.source_line;
    event.source_file = std::string(line.source_file);
    event.trace_line = line.number;
    end = std::move(event);
    done = true;
  }

  [[noreturn]] static void fail(const DvmLine& line, const std::string& message) {
    throw TraceError(**line.path, line.number, message);
  }

  [[noreturn]] void fail_at_end(const std::string& message) const {
    throw TraceError(source->end_path(), source->end_line(), message);
  }

  void warn_unknown(const DvmLine& line) {
    for (const std::string& name : warned) {
      if (name == line.name) return;
    }
    warned.emplace_back(line.name);
    warnings.push_back(dvm_warning(
        **line.path, line.number,
        "unknown function '" + std::string(line.name) + "': modelled as an ordinary function (reported once)"));
  }

  bool next(DvmCall& call) {
    if (done) return false;
    DvmCallBuilder builder(call, &param_lines);
    builder.reset();
    DvmLine line;
    // The call line.
    for (;;) {
      if (!source->next(line)) fail_at_end("end of file without an 'Event_' line (truncated trace?)");
      if (line.kind == DvmLineKind::call) break;
      if (line.kind == DvmLineKind::end) {
        finish(line);
        return false;
      }
      if (line.kind == DvmLineKind::ret) {
        fail(line, event_label(line.kind, line.name) + " without a call_" + std::string(line.name));
      }
      // A parameter line outside any frame cannot follow the preamble or a frame.
    }
    const DvmFunction function = find_dvm_function(line.name);
    if (function == DvmFunction::unknown) warn_unknown(line);
    const std::uint32_t file_id = intern(line.source_file);
    builder.set_call(function, line.name, line.time, line.source_line, line.source_file, file_id, line.number,
                     *line.path);
    const std::uint64_t call_line = line.number;
    // Its parameter lines, up to the matching ret line.
    for (;;) {
      if (!source->next(line)) {
        fail_at_end("end of file inside call_" + std::string(call.name()) + " (line " + std::to_string(call_line) +
                    "): no ret_" + std::string(call.name()));
      }
      if (line.kind == DvmLineKind::info) {
        builder.add_params(line.text, line.number, DvmSide::call);
        continue;
      }
      if (line.kind == DvmLineKind::ret) {
        if (line.name != call.name()) {
          fail(line, event_label(line.kind, line.name) + " does not match call_" + std::string(call.name()) +
                         " (line " + std::to_string(call_line) + ")");
        }
        builder.set_ret(line.time, line.number);
        break;
      }
      fail(line, event_label(line.kind, line.name) + " while call_" + std::string(call.name()) + " (line " +
                     std::to_string(call_line) + ") has no ret_" + std::string(call.name()));
    }
    // The ret's parameter lines, up to the next call or the end.
    for (;;) {
      if (!source->next(line)) fail_at_end("end of file without an 'Event_' line (truncated trace?)");
      switch (line.kind) {
        case DvmLineKind::info:
          builder.add_params(line.text, line.number, DvmSide::ret);
          break;
        case DvmLineKind::call:
          source->unget(line);
          return true;
        case DvmLineKind::end:
          finish(line);
          return true;
        case DvmLineKind::ret:
          fail(line, event_label(line.kind, line.name) + " without a call_" + std::string(line.name));
      }
    }
  }
};

DvmTraceReader::DvmTraceReader(const std::string& path, DvmTraceForm form)
    : impl_(std::make_unique<Impl>(path, form)) {}
DvmTraceReader::~DvmTraceReader() = default;
DvmTraceReader::DvmTraceReader(DvmTraceReader&&) noexcept = default;
DvmTraceReader& DvmTraceReader::operator=(DvmTraceReader&&) noexcept = default;

bool DvmTraceReader::next(DvmCall& call) { return impl_->next(call); }
const DvmPreamble& DvmTraceReader::preamble() const { return impl_->preamble; }
DvmTraceForm DvmTraceReader::form() const { return impl_->form; }
const std::vector<std::string>& DvmTraceReader::files() const { return impl_->files; }
const std::vector<std::string>& DvmTraceReader::warnings() const { return impl_->warnings; }
const DvmEndEvent* DvmTraceReader::end_event() const { return impl_->end ? &*impl_->end : nullptr; }
std::string_view DvmTraceReader::source_file(std::uint32_t id) const {
  return id < impl_->source_files.size() ? std::string_view(impl_->source_files[id]) : std::string_view();
}

}  // namespace augur::traces::libdvm
