// LineReader: one buffer per file, refilled by read(2), gzread or ZSTD_decompressStream; a line
// is a view into the buffer, and only a line that straddles a refill is moved to the front.
#include "traces/line_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string>

#include "traces/trace_error.hpp"

namespace augur::traces {
namespace {

enum class Codec : std::uint8_t { plain, gzip, zstd };

constexpr std::size_t min_buffer_size = 4096;
/// A "line" longer than this is a binary or corrupt file, not a trace.
constexpr std::size_t max_line_length = std::size_t{1} << 30;

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         std::string_view(text).substr(text.size() - suffix.size()) == suffix;
}

/// The codec announced by the first bytes, else by the file name, else plain text.
Codec detect_codec(int fd, const std::string& path) {
  unsigned char magic[4] = {0, 0, 0, 0};
  const ssize_t got = ::pread(fd, magic, sizeof magic, 0);
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return Codec::gzip;
  if (got >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd) {
    return Codec::zstd;
  }
  if (ends_with(path, ".gz")) return Codec::gzip;
  if (ends_with(path, ".zst")) return Codec::zstd;
  return Codec::plain;
}

}  // namespace

struct LineReader::Impl {
  std::string path;
  Codec codec = Codec::plain;
  int fd = -1;
  gzFile gz = nullptr;
  ZSTD_DCtx* zstd = nullptr;

  // Compressed input of zstd (gzread keeps its own).
  std::unique_ptr<char[]> in;
  std::size_t in_capacity = 0;
  std::size_t in_pos = 0;
  std::size_t in_size = 0;
  bool in_eof = false;
  std::size_t zstd_hint = 0;  ///< last ZSTD_decompressStream result: 0 = at a frame boundary

  // Decoded text: [begin, end) is not yet returned; [begin, scan) holds no '\n'.
  std::unique_ptr<char[]> buf;
  std::size_t capacity = 0;
  std::size_t begin = 0;
  std::size_t scan = 0;
  std::size_t end = 0;
  bool eof = false;
  std::uint64_t line_number = 0;

  Impl(const std::string& file, std::size_t buffer_size) : path(file) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw TraceError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
      ::close(fd);
      throw TraceError(path, 0, "cannot open: Is a directory");
    }
    capacity = std::max(buffer_size, min_buffer_size);
    buf = std::make_unique_for_overwrite<char[]>(capacity);
    codec = detect_codec(fd, path);
    if (codec == Codec::gzip) {
      gz = ::gzdopen(fd, "rb");
      if (gz == nullptr) {
        ::close(fd);
        throw TraceError(path, 0, "cannot open: out of memory for gzip state");
      }
      fd = -1;  // owned by gz now
      ::gzbuffer(gz, static_cast<unsigned>(std::min<std::size_t>(capacity, 1u << 20)));
    } else if (codec == Codec::zstd) {
      zstd = ZSTD_createDCtx();
      if (zstd == nullptr) {
        ::close(fd);
        throw TraceError(path, 0, "cannot open: out of memory for zstd state");
      }
      in_capacity = ZSTD_DStreamInSize();
      in = std::make_unique_for_overwrite<char[]>(in_capacity);
    }
  }

  ~Impl() {
    if (gz != nullptr) ::gzclose(gz);
    if (zstd != nullptr) ZSTD_freeDCtx(zstd);
    if (fd >= 0) ::close(fd);
  }

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  [[noreturn]] void fail(const std::string& message) const {
    throw TraceError(path, line_number + 1, message);
  }

  /// read(2) of up to `size` bytes, retried on EINTR; 0 at end of file.
  std::size_t read_raw(char* into, std::size_t size) {
    for (;;) {
      const ssize_t got = ::read(fd, into, size);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EINTR) fail(std::string("read error: ") + std::strerror(errno));
    }
  }

  std::size_t read_gzip(char* into, std::size_t size) {
    const int got = ::gzread(gz, into, static_cast<unsigned>(std::min<std::size_t>(size, INT_MAX)));
    int status = Z_OK;
    const char* message = ::gzerror(gz, &status);
    if (got < 0 || (status != Z_OK && status != Z_STREAM_END)) {
      if (status == Z_ERRNO) fail(std::string("read error: ") + std::strerror(errno));
      fail(std::string("corrupt gzip data: ") + message);
    }
    return static_cast<std::size_t>(got);
  }

  std::size_t read_zstd(char* into, std::size_t size) {
    ZSTD_outBuffer out{into, size, 0};
    for (;;) {
      if (in_pos == in_size && !in_eof) {
        in_size = read_raw(in.get(), in_capacity);
        in_pos = 0;
        in_eof = in_size == 0;
      }
      ZSTD_inBuffer input{in.get(), in_size, in_pos};
      const std::size_t result = ZSTD_decompressStream(zstd, &out, &input);
      in_pos = input.pos;
      if (ZSTD_isError(result)) fail(std::string("corrupt zstd data: ") + ZSTD_getErrorName(result));
      zstd_hint = result;
      if (out.pos > 0) return out.pos;
      if (in_eof && in_pos == in_size) {
        if (zstd_hint != 0) fail("corrupt zstd data: unexpected end of file (truncated frame)");
        return 0;
      }
    }
  }

  /// Makes room after `end` (moving the unfinished line to the front, or growing the buffer
  /// when that line fills it) and appends decoded bytes; false at end of input.
  bool refill() {
    if (end == capacity) {
      if (begin > 0) {
        std::memmove(buf.get(), buf.get() + begin, end - begin);
        end -= begin;
        scan -= begin;
        begin = 0;
      } else {
        if (capacity >= max_line_length) fail("line longer than 1 GiB: not a text trace");
        auto grown = std::make_unique_for_overwrite<char[]>(capacity * 2);
        std::memcpy(grown.get(), buf.get(), end);
        buf = std::move(grown);
        capacity *= 2;
      }
    }
    char* into = buf.get() + end;
    const std::size_t room = capacity - end;
    std::size_t got = 0;
    switch (codec) {
      case Codec::plain: got = read_raw(into, room); break;
      case Codec::gzip: got = read_gzip(into, room); break;
      case Codec::zstd: got = read_zstd(into, room); break;
    }
    end += got;
    return got > 0;
  }

  bool next(std::string_view& line) {
    for (;;) {
      const char* base = buf.get();
      if (scan < end) {
        const void* newline = std::memchr(base + scan, '\n', end - scan);
        if (newline != nullptr) {
          const auto stop = static_cast<std::size_t>(static_cast<const char*>(newline) - base);
          emit(line, stop);
          begin = scan = stop + 1;
          return true;
        }
        scan = end;
      }
      if (eof || !refill()) {
        eof = true;
        if (begin == end) return false;
        emit(line, end);  // last line without a final newline
        begin = scan = end;
        return true;
      }
    }
  }

  void emit(std::string_view& line, std::size_t stop) {
    std::size_t length = stop - begin;
    if (length > 0 && buf[begin + length - 1] == '\r') --length;
    line = std::string_view(buf.get() + begin, length);
    ++line_number;
  }
};

LineReader::LineReader(const std::string& path) : LineReader(path, default_buffer_size) {}

LineReader::LineReader(const std::string& path, std::size_t buffer_size)
    : impl_(std::make_unique<Impl>(path, buffer_size)) {}

LineReader::~LineReader() = default;
LineReader::LineReader(LineReader&&) noexcept = default;
LineReader& LineReader::operator=(LineReader&&) noexcept = default;

bool LineReader::next(std::string_view& line) { return impl_->next(line); }

std::uint64_t LineReader::line_number() const { return impl_->line_number; }

const std::string& LineReader::path() const { return impl_->path; }

}  // namespace augur::traces
