// Private to traces/libdvm: the line level of the Lib-DVM grammar. Classifies each line (event
// line with its parsed TIME/LINE/FILE header, or parameter line), skips blank and "----------"
// lines, reads the preamble, and feeds the frame assembler through DvmLineSource.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/libdvm/dvm_trace_reader.hpp"
#include "traces/line_reader.hpp"

namespace augur::traces::libdvm {

enum class DvmLineKind : std::uint8_t { info, call, ret, end };

/// One significant line. Views are valid until the source that returned it reads on.
struct DvmLine {
  DvmLineKind kind = DvmLineKind::info;
  /// The line without its leading blanks.
  std::string_view text;
  /// Event lines: NAME (after call_, ret_ or Event_), TIME, LINE and FILE.
  std::string_view name;
  double time = 0;
  std::int64_t source_line = 0;
  std::string_view source_file;
  /// 1-based line number in its file, and that file.
  std::uint64_t number = 0;
  const std::shared_ptr<const std::string>* path = nullptr;
};

/// The prefix of an event line of `kind` ("call_", "ret_", "Event_").
std::string_view dvm_event_prefix(DvmLineKind kind);

/// Classifies `raw` (trace line `number` of `path`) into `out`; false for a line to skip.
/// Throws TraceError when an event line lacks or garbles TIME=, LINE= or FILE=.
bool parse_dvm_line(std::string_view raw, std::uint64_t number, const std::shared_ptr<const std::string>& path,
                    DvmLine& out);

/// A stream of significant lines with one line of push-back.
class DvmLineSource {
 public:
  virtual ~DvmLineSource() = default;
  /// The next line; false at the end of the input.
  virtual bool next(DvmLine& line) = 0;
  /// Makes next() return `line` (the line it returned last, views still valid) once more.
  virtual void unget(const DvmLine& line) = 0;
  /// Where the input ended (for "end of file" messages): file and last line number.
  virtual const std::string& end_path() const = 0;
  virtual std::uint64_t end_line() const = 0;
};

/// The significant lines of one file (plain, .gz or .zst).
class DvmFileLines final : public DvmLineSource {
 public:
  DvmFileLines(const std::string& path, std::size_t buffer_size);
  bool next(DvmLine& line) override;
  void unget(const DvmLine& line) override {
    last_ = line;
    pending_ = true;
  }
  const std::string& end_path() const override { return *path_; }
  std::uint64_t end_line() const override { return reader_.line_number(); }
  const std::shared_ptr<const std::string>& path() const { return path_; }

 private:
  std::shared_ptr<const std::string> path_;
  LineReader reader_;
  DvmLine last_;
  bool pending_ = false;
};

/// Reads the preamble of `lines`: everything up to the first call line after ret_dvm_Init
/// (left unread), or up to an `Event_` line after it. Fills `preamble` and `warnings` when
/// given (the raw files of processors 1.. are only skipped). Throws TraceError.
void read_dvm_preamble(DvmFileLines& lines, DvmPreamble* preamble, std::vector<std::string>* warnings);

/// "path:line: warning: message".
std::string dvm_warning(const std::string& path, std::uint64_t line, const std::string& message);

}  // namespace augur::traces::libdvm
