// Streaming line reader over plain, gzip (.gz) and zstd (.zst) files: fixed-size buffers,
// zero-copy lines (string_view into the buffer), CRLF tolerated, missing final newline accepted.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace augur::support {
class PageArena;
}

namespace augur::traces {

/// Reads a file line by line, decompressing on the fly when the name ends in .gz or .zst
/// (or the content starts with the gzip / zstd magic number).
class LineReader {
 public:
  /// Opens `path`; throws TraceError(path, 0, "cannot open: <reason>").
  explicit LineReader(const std::string& path);
  /// Same, with a read buffer of `buffer_size` bytes (at least 4 KiB; a longer line grows it):
  /// readers that keep many files open at once (one per rank) use smaller buffers. A regular
  /// file shorter than the buffer gets a buffer of its own size instead. With an `arena`, that
  /// buffer is taken from it (a buffer grown for a long line is the reader's own).
  LineReader(const std::string& path, std::size_t buffer_size, support::PageArena* arena = nullptr);
  /// Same, opening `path` by its part from `name_offset` on, relative to the open folder
  /// `folder_fd` (openat(2): the folder's own path is not walked again for each file, which
  /// counts for the thousands of rank files of a TI trace). Messages name `path`. With
  /// `known_regular` (a folder listing's d_type says it is a regular file) the file is sized by
  /// its first read instead of fstat(2): one system call less per file.
  LineReader(const std::string& path, std::size_t buffer_size, int folder_fd, std::size_t name_offset,
             support::PageArena* arena = nullptr, bool known_regular = false);
  /// Size of the read buffer of the one-argument constructor.
  static constexpr std::size_t default_buffer_size = std::size_t{256} * 1024;
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  LineReader(LineReader&&) noexcept;
  LineReader& operator=(LineReader&&) noexcept;

  /// Next line without its end-of-line characters; false at end of file. The view is valid
  /// until the next call. Throws TraceError on a decompression error. A line already in the
  /// buffer is found here, inline (one memchr); refills and the last line go out of line.
  bool next(std::string_view& line) {
    if (cursor_ != limit_) {
      const void* newline = std::memchr(cursor_, '\n', static_cast<std::size_t>(limit_ - cursor_));
      if (newline != nullptr) {
        const char* const stop = static_cast<const char*>(newline);
        std::size_t length = static_cast<std::size_t>(stop - cursor_);
        if (length > 0 && stop[-1] == '\r') --length;
        line = std::string_view(cursor_, length);
        cursor_ = stop + 1;
        ++line_number_;
        return true;
      }
    }
    return next_from_file(line);
  }
  /// Where the bytes not returned yet start in the buffer (valid until the next call; a hint for
  /// prefetching them: at the buffer's end when a refill is due).
  const char* unread() const { return cursor_; }
  /// 1-based number of the line last returned.
  std::uint64_t line_number() const { return line_number_; }
  const std::string& path() const;

  struct Impl;

 private:
  /// next() when the buffer holds no complete line: refills it (or returns the last line).
  bool next_from_file(std::string_view& line);

  /// The buffer's bytes not returned yet, [cursor_, limit_), of which no complete line was
  /// looked for beyond what next() found (the implementation's `begin` and `end`).
  const char* cursor_ = nullptr;
  const char* limit_ = nullptr;
  std::uint64_t line_number_ = 0;
  std::unique_ptr<Impl> impl_;
};

}  // namespace augur::traces
