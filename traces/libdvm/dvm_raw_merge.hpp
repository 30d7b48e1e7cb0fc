// Private to traces/libdvm: the raw per-processor files `<prog>K_K.ptr` merged into the line
// stream of the `<prog>.ptr` that DVM Predictor 3.1 writes before modelling (its multy_trace,
// fact 4 of ../shared/dvm-samples/README.md), without writing that file.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/libdvm/dvm_trace_lines.hpp"

namespace augur::traces::libdvm {

/// True for the functions whose measured ret TIME the merge replaces by 1 us (the model prices
/// these operations itself): strtrd_, strtsh_, waitrd_, waitsh_, redis_, realn_, arrcpy_.
bool dvm_merge_drops_ret_time(std::string_view name);

/// Merges the event lines of the raw files event by event. At each step the smallest source
/// LINE among the files' next events is taken, with the function of the first file holding
/// it; every file whose next event has that line and function contributes. The merged event
/// has the LINE, FILE and name of the last contributor and the parameter lines of the first;
/// its TIME is the sum over the contributors for a call line and the mean for a ret line
/// (0.000001 for dvm_merge_drops_ret_time), rounded to 8 decimals. The stream ends with the
/// `Event_` line of processor 0's file once every file has reached its own.
class DvmRawMerge final : public DvmLineSource {
 public:
  /// `first`: processor 0's file, its preamble already read; `others`: the files of
  /// processors 1, 2, ... (opened here, their preambles skipped).
  DvmRawMerge(std::unique_ptr<DvmFileLines> first, const std::vector<std::string>& others, std::size_t buffer_size);
  bool next(DvmLine& line) override;
  void unget(const DvmLine& line) override {
    out_ = line;
    pending_ = true;
  }
  const std::string& end_path() const override { return end_path_; }
  std::uint64_t end_line() const override { return end_line_; }

 private:
  struct Cursor {
    std::unique_ptr<DvmFileLines> lines;
    /// The file's next event line (its views stay valid: the file is not read until the
    /// cursor advances).
    DvmLine current;
    bool active = false;
  };

  /// Reads `cursor` up to its next event line, skipping parameter lines.
  void advance(Cursor& cursor);
  /// Takes `line` (an event line of `cursor`) as its next event.
  void settle(Cursor& cursor, const DvmLine& line);
  [[noreturn]] void truncated(const Cursor& cursor);
  bool select(DvmLine& line);

  std::vector<Cursor> cursors_;
  /// The cursor whose parameter lines are being passed on (npos: none).
  std::size_t streaming_ = npos;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<std::size_t> matches_;
  DvmLine out_;
  bool pending_ = false;
  /// The merged event's name and file (copies: the contributors read on).
  std::string name_;
  std::string file_;
  /// Processor 0's `Event_` line.
  DvmLine end_;
  bool have_end_ = false;
  bool end_returned_ = false;
  std::string end_path_;
  std::uint64_t end_line_ = 0;
};

}  // namespace augur::traces::libdvm
