// DvmRawMerge: the event-by-event merge of Predictor 3.1 (Presage/Src/Predictor.cpp,
// multy_trace) as a line source; the rounding to 8 decimals reproduces its `%8.8lf`.
#include "traces/libdvm/dvm_raw_merge.hpp"

#include <array>

#include "traces/libdvm/dvm_text.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::libdvm {

bool dvm_merge_drops_ret_time(std::string_view name) {
  static constexpr std::array<std::string_view, 7> names{"strtrd_", "strtsh_", "waitrd_", "waitsh_",
                                                         "redis_",  "realn_",  "arrcpy_"};
  for (const std::string_view candidate : names) {
    if (candidate == name) return true;
  }
  return false;
}

DvmRawMerge::DvmRawMerge(std::unique_ptr<DvmFileLines> first, const std::vector<std::string>& others,
                         std::size_t buffer_size) {
  cursors_.reserve(others.size() + 1);
  cursors_.push_back(Cursor{std::move(first), {}, false});
  for (const std::string& path : others) {
    auto lines = std::make_unique<DvmFileLines>(path, buffer_size);
    read_dvm_preamble(*lines, nullptr, nullptr);
    cursors_.push_back(Cursor{std::move(lines), {}, false});
  }
  end_path_ = *cursors_.front().lines->path();
  for (Cursor& cursor : cursors_) advance(cursor);
  matches_.reserve(cursors_.size());
}

void DvmRawMerge::truncated(const Cursor& cursor) {
  throw TraceError(*cursor.lines->path(), cursor.lines->end_line(),
                   "end of file without an 'Event_' line (truncated trace?)");
}

void DvmRawMerge::settle(Cursor& cursor, const DvmLine& line) {
  if (line.kind != DvmLineKind::end) {
    cursor.current = line;
    cursor.active = true;
    return;
  }
  cursor.active = false;
  if (&cursor == &cursors_.front()) {
    end_ = line;  // valid for good: processor 0's file is not read any more
    have_end_ = true;
    end_line_ = line.number;
  }
}

void DvmRawMerge::advance(Cursor& cursor) {
  DvmLine line;
  do {
    if (!cursor.lines->next(line)) truncated(cursor);
  } while (line.kind == DvmLineKind::info);
  settle(cursor, line);
}

bool DvmRawMerge::next(DvmLine& line) {
  if (pending_) {
    pending_ = false;
    line = out_;
    return true;
  }
  if (streaming_ != npos) {
    Cursor& cursor = cursors_[streaming_];
    DvmLine read;
    if (!cursor.lines->next(read)) truncated(cursor);
    if (read.kind == DvmLineKind::info) {
      out_ = read;
      line = out_;
      return true;
    }
    streaming_ = npos;
    settle(cursor, read);
  }
  return select(line);
}

bool DvmRawMerge::select(DvmLine& line) {
  // The smallest LINE; its function is the first file's that holds it.
  std::size_t chosen = npos;
  for (std::size_t i = 0; i < cursors_.size(); ++i) {
    if (cursors_[i].active &&
        (chosen == npos || cursors_[i].current.source_line < cursors_[chosen].current.source_line)) {
      chosen = i;
    }
  }
  if (chosen == npos) {
    if (!have_end_ || end_returned_) return false;
    end_returned_ = true;
    out_ = end_;
    line = out_;
    return true;
  }
  const DvmLine& pick = cursors_[chosen].current;
  matches_.clear();
  double sum = 0;
  for (std::size_t i = chosen; i < cursors_.size(); ++i) {
    const Cursor& cursor = cursors_[i];
    if (cursor.active && cursor.current.source_line == pick.source_line && cursor.current.name == pick.name) {
      matches_.push_back(i);
      sum += cursor.current.time;
    }
  }
  const DvmLine& first = cursors_[matches_.front()].current;
  const DvmLine& last = cursors_[matches_.back()].current;
  // Predictor 3.1 divides by the contributors for ret lines only: call TIMEs are summed.
  double time = sum;
  if (first.kind == DvmLineKind::ret) {
    time = sum / static_cast<double>(matches_.size());
    if (dvm_merge_drops_ret_time(first.name)) time = 0.000001;
  }
  name_.assign(last.name);
  file_.assign(last.source_file);
  out_ = first;
  out_.kind = last.kind;
  out_.name = name_;
  out_.source_file = file_;
  out_.source_line = last.source_line;
  out_.time = round_dvm_time(time);
  for (std::size_t k = 1; k < matches_.size(); ++k) advance(cursors_[matches_[k]]);
  streaming_ = matches_.front();
  line = out_;
  return true;
}

}  // namespace augur::traces::libdvm
