// Streaming line reader over plain, gzip (.gz) and zstd (.zst) files: fixed-size buffers,
// zero-copy lines (string_view into the buffer), CRLF tolerated, missing final newline accepted.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace augur::traces {

/// Reads a file line by line, decompressing on the fly when the name ends in .gz or .zst
/// (or the content starts with the gzip / zstd magic number).
class LineReader {
 public:
  /// Opens `path`; throws TraceError(path, 0, "cannot open: <reason>").
  explicit LineReader(const std::string& path);
  /// Same, with a read buffer of `buffer_size` bytes (at least 4 KiB; a longer line grows it):
  /// readers that keep many files open at once (one per rank) use smaller buffers. A regular
  /// file shorter than the buffer gets a buffer of its own size instead.
  LineReader(const std::string& path, std::size_t buffer_size);
  /// Size of the read buffer of the one-argument constructor.
  static constexpr std::size_t default_buffer_size = std::size_t{256} * 1024;
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  LineReader(LineReader&&) noexcept;
  LineReader& operator=(LineReader&&) noexcept;

  /// Next line without its end-of-line characters; false at end of file. The view is valid
  /// until the next call. Throws TraceError on a decompression error.
  bool next(std::string_view& line);
  /// 1-based number of the line last returned.
  std::uint64_t line_number() const;
  const std::string& path() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace augur::traces
