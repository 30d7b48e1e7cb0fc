// An output file written as it goes: plain, one gzip member or one zstd frame (the generators'
// traces, tools/bench).
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace augur::bench {

enum class Compression : std::uint8_t { plain, gzip, zstd };

/// By the file name: ".gz" gzip, ".zst" zstd, plain otherwise.
Compression compression_of(std::string_view path);

/// Text handed to write() goes to the file (or through the compressor) at once; close() ends the
/// stream. Errors throw std::runtime_error "PATH: error: …".
class CompressedFile {
 public:
  /// `level`: the compressor's level, its default when ≤ 0.
  CompressedFile(const std::string& path, Compression compression, int level);
  ~CompressedFile();
  CompressedFile(const CompressedFile&) = delete;
  CompressedFile& operator=(const CompressedFile&) = delete;

  void write(std::string_view text) { push(text, false); }
  /// Ends the compressed stream, closes the file; returns the bytes on disk.
  std::uint64_t close();

 private:
  struct Codec;
  [[noreturn]] void fail(const std::string& what) const;
  void put(const void* data, std::size_t size);
  void push(std::string_view text, bool end);

  std::string path_;
  Compression compression_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<Codec> codec_;
  std::uint64_t written_ = 0;
};

}  // namespace augur::bench
