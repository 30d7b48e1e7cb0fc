// LineReader: one buffer per file, refilled by read(2), zlib's inflate or ZSTD_decompressStream;
// a line is a view into the buffer, and only a line that straddles a refill is moved to the front.
#include "traces/line_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string>
#include <utility>

#include "support/page_arena.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces {
namespace {

enum class Codec : std::uint8_t { plain, gzip, zstd };

constexpr std::size_t min_buffer_size = 4096;
/// Largest buffer a known regular file's first read goes through on the stack (read_first).
constexpr std::size_t first_read_limit = std::size_t{16} * 1024;
/// A "line" longer than this is a binary or corrupt file, not a trace.
constexpr std::size_t max_line_length = std::size_t{1} << 24;

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && std::string_view(text).substr(text.size() - suffix.size()) == suffix;
}

/// The codec announced by the first `got` bytes of the file, else by its name, else plain text.
Codec detect_codec(const unsigned char* magic, std::size_t got, const std::string& path) {
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return Codec::gzip;
  if (got >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd) {
    return Codec::zstd;
  }
  if (ends_with(path, ".gz")) return Codec::gzip;
  if (ends_with(path, ".zst")) return Codec::zstd;
  return Codec::plain;
}

/// An open file's descriptor, closed with its owner — also when the owner's constructor throws
/// after the open: a throwing constructor runs no destructor of its own, but its members' do.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

struct LineReader::Impl {
  std::string path;
  Codec codec = Codec::plain;
  /// The codec is decided by the first bytes, read by the first refill into the text buffer
  /// (no separate read of the magic number: one system call less per file, which counts when
  /// a trace has a file per rank).
  bool codec_known = false;
  Descriptor file;
  /// A regular file's size when size_known (by fstat, or by a first read shorter than the
  /// buffer): once that many bytes are read, the end of the file is known without another
  /// read(2) returning 0.
  std::uint64_t file_size = 0;
  std::uint64_t file_read = 0;
  bool size_known = false;
  z_stream gzip{};
  bool gzip_ready = false;       ///< inflateInit2 succeeded (inflateEnd due)
  bool gzip_member_done = true;  ///< between gzip members: end of input is legitimate here
  bool gzip_started = false;
  ZSTD_DCtx* zstd = nullptr;

  // Compressed input.
  std::unique_ptr<char[]> in;
  std::size_t in_capacity = 0;
  std::size_t in_pos = 0;
  std::size_t in_size = 0;
  bool in_eof = false;
  std::size_t zstd_hint = 0;  ///< ZSTD_decompressStream verdict: 0 = at a frame boundary

  // Decoded text: [begin, end) is not yet returned; [begin, scan) holds no '\n'. `buf` is
  // `owned`, or a support::PageArena's (until a long line grows it).
  char* buf = nullptr;
  std::unique_ptr<char[]> owned;
  std::size_t capacity = 0;
  std::size_t begin = 0;
  std::size_t scan = 0;
  std::size_t end = 0;
  bool eof = false;
  std::uint64_t line_number = 0;

  Impl(const std::string& file_path, std::size_t buffer_size, int folder_fd, std::size_t name_offset,
       support::PageArena* arena, bool known_regular)
      : path(file_path),
        file(::openat(folder_fd, path.c_str() + std::min(name_offset, path.size()), O_RDONLY | O_CLOEXEC)) {
    if (file.get() < 0) throw TraceError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    capacity = std::max(buffer_size, min_buffer_size);
    if (known_regular && capacity <= first_read_limit) {
      read_first(arena);
      return;
    }
    struct stat info {};
    if (::fstat(file.get(), &info) == 0 && S_ISDIR(info.st_mode))
      throw TraceError(path, 0, "cannot open: Is a directory");
    if (S_ISREG(info.st_mode) && info.st_size > 0) {  // 0: maybe a /proc-like file of unknown size
      file_size = static_cast<std::uint64_t>(info.st_size);
      size_known = true;
    }
    // A regular file shorter than the buffer gets a buffer of its size (+1: one read takes it all
    // and sees its end): the thousands of short rank files of a TI trace, kept open together,
    // then cost their text, not 4–8 KiB each. A compressed one decodes into it in several reads;
    // a line longer than the buffer grows it, as always.
    if (size_known && file_size + 1 < capacity) capacity = std::max<std::size_t>(file_size + 1, 64);
    allocate(arena);
  }

  void allocate(support::PageArena* arena) {
    if (arena != nullptr) {
      buf = arena->allocate(capacity);
    } else {
      owned = std::make_unique_for_overwrite<char[]>(capacity);
      buf = owned.get();
    }
  }

  /// A file known to be regular (a folder's listing said so) is sized by its first read instead
  /// of fstat(2) — one system call less per file, ~0.2 µs each on the 16,384 rank files of a
  /// large TI trace: read into a buffer on the stack, a read shorter than the buffer is the whole
  /// file (a regular file's read stops short only at its end; fstat's size would be the same
  /// snapshot), which then gets a buffer of its size as above.
  void read_first(support::PageArena* arena) {
    std::array<char, first_read_limit> first;
    const std::size_t got = read_raw(first.data(), capacity);
    if (got < capacity) {
      file_size = got;
      size_known = true;
      capacity = std::max<std::size_t>(got + 1, 64);
    }
    allocate(arena);
    std::memcpy(buf, first.data(), got);
    end = got;  // the codec is decided from these bytes by the first next() (start)
  }

  /// Reads the first bytes into the text buffer and decides the codec. A compressed file's
  /// bytes move to the input buffer of its decompressor (its own size: 128 KiB, or the text
  /// buffer's size when that is smaller, as for the many files of a TI trace).
  void start() {
    codec_known = true;
    std::size_t got = end;  // a first read's bytes (read_first), if any
    while (got < 4) {
      const std::size_t n = read_raw(buf + got, capacity - got);
      if (n == 0) break;
      got += n;
    }
    codec = detect_codec(reinterpret_cast<const unsigned char*>(buf), got, path);
    if (codec == Codec::plain) {
      end = got;
      return;
    }
    if (codec == Codec::gzip) {
      // 15 + 32: the largest window, gzip or zlib header detected automatically.
      if (::inflateInit2(&gzip, 15 + 32) != Z_OK) fail("out of memory for gzip state");
      gzip_ready = true;
      in_capacity = std::size_t{128} * 1024;
    } else {
      zstd = ZSTD_createDCtx();
      if (zstd == nullptr) fail("out of memory for zstd state");
      in_capacity = ZSTD_DStreamInSize();
    }
    in_capacity = std::max(std::min(in_capacity, capacity), got);
    in = std::make_unique_for_overwrite<char[]>(in_capacity);
    std::memcpy(in.get(), buf, got);
    end = 0;  // the text buffer holds decoded bytes only
    in_pos = 0;
    in_size = got;
    in_eof = got == 0 || (size_known && file_read == file_size);
  }

  ~Impl() {
    if (gzip_ready) ::inflateEnd(&gzip);
    if (zstd != nullptr) ZSTD_freeDCtx(zstd);
  }

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  [[noreturn]] void fail(const std::string& message) const { throw TraceError(path, line_number + 1, message); }

  /// read(2) of up to `size` bytes, retried on EINTR; 0 at end of file (without a read once a
  /// regular file's size has been read). A directory (one read_first opened, put in the place of
  /// a listed file since the listing) is reported as the constructor's fstat reports it.
  std::size_t read_raw(char* into, std::size_t size) {
    if (size_known && file_read >= file_size) return 0;
    for (;;) {
      const ssize_t got = ::read(file.get(), into, size);
      if (got >= 0) {
        file_read += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
      }
      if (errno == EISDIR) throw TraceError(path, 0, "cannot open: Is a directory");
      if (errno != EINTR) fail(std::string("read error: ") + std::strerror(errno));
    }
  }

  /// Refills the compressed input when it is used up; false when none is left.
  bool has_input() {
    if (in_pos == in_size && !in_eof) {
      in_size = read_raw(in.get(), in_capacity);
      in_pos = 0;
      in_eof = in_size == 0;
    }
    return in_pos < in_size;
  }

  /// Inflates into `into`; concatenated gzip members are read one after the other.
  std::size_t read_gzip(char* into, std::size_t size) {
    for (;;) {
      if (!has_input()) {
        if (!gzip_member_done) fail("corrupt gzip data: unexpected end of file (truncated stream)");
        return 0;
      }
      if (gzip_member_done) {
        if (gzip_started) ::inflateReset(&gzip);
        gzip_started = true;
        gzip_member_done = false;
      }
      gzip.next_in = reinterpret_cast<Bytef*>(in.get() + in_pos);
      gzip.avail_in = static_cast<uInt>(in_size - in_pos);
      gzip.next_out = reinterpret_cast<Bytef*>(into);
      gzip.avail_out = static_cast<uInt>(std::min<std::size_t>(size, UINT_MAX));
      const int result = ::inflate(&gzip, Z_NO_FLUSH);
      in_pos = in_size - gzip.avail_in;
      const std::size_t produced = size - gzip.avail_out;
      if (result == Z_STREAM_END) {
        gzip_member_done = true;
      } else if (result != Z_OK && result != Z_BUF_ERROR) {
        fail(std::string("corrupt gzip data: ") + (gzip.msg != nullptr ? gzip.msg : ::zError(result)));
      }
      if (produced > 0) return produced;
    }
  }

  std::size_t read_zstd(char* into, std::size_t size) {
    ZSTD_outBuffer out{into, size, 0};
    for (;;) {
      has_input();
      ZSTD_inBuffer input{in.get(), in_size, in_pos};
      const std::size_t result = ZSTD_decompressStream(zstd, &out, &input);
      if (ZSTD_isError(result)) fail(std::string("corrupt zstd data: ") + ZSTD_getErrorName(result));
      // A call that neither reads nor writes says nothing about the frame (between frames it
      // asks for the next header), so only a call that moved keeps its verdict.
      if (input.pos != in_pos || out.pos > 0) zstd_hint = result;
      in_pos = input.pos;
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
        std::memmove(buf, buf + begin, end - begin);
        end -= begin;
        scan -= begin;
        begin = 0;
      } else {
        if (capacity >= max_line_length) fail("line longer than 16 MiB: not a text trace");
        const std::size_t grown_capacity = std::min(capacity * 2, max_line_length);
        auto grown = std::make_unique_for_overwrite<char[]>(grown_capacity);
        std::memcpy(grown.get(), buf, end);
        owned = std::move(grown);
        buf = owned.get();
        capacity = grown_capacity;
      }
    }
    if (!codec_known) {
      start();
      if (codec == Codec::plain) return end > 0;
    }
    char* into = buf + end;
    const std::size_t room = capacity - end;
    std::size_t got = 0;
    switch (codec) {
      case Codec::plain:
        got = read_raw(into, room);
        break;
      case Codec::gzip:
        got = read_gzip(into, room);
        break;
      case Codec::zstd:
        got = read_zstd(into, room);
        break;
    }
    end += got;
    return got > 0;
  }

  bool next(std::string_view& line) {
    if (!codec_known && end > 0) start();  // after read_first
    for (;;) {
      const char* base = buf;
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
    line = std::string_view(buf + begin, length);
    ++line_number;
  }
};

LineReader::LineReader(const std::string& path) : LineReader(path, default_buffer_size) {}

LineReader::LineReader(const std::string& path, std::size_t buffer_size, support::PageArena* arena)
    : impl_(std::make_unique<Impl>(path, buffer_size, AT_FDCWD, 0, arena, false)) {}

LineReader::LineReader(const std::string& path, std::size_t buffer_size, int folder_fd, std::size_t name_offset,
                       support::PageArena* arena, bool known_regular)
    : impl_(std::make_unique<Impl>(path, buffer_size, folder_fd, name_offset, arena, known_regular)) {}

LineReader::~LineReader() = default;
LineReader::LineReader(LineReader&& other) noexcept
    : cursor_(std::exchange(other.cursor_, nullptr)),
      limit_(std::exchange(other.limit_, nullptr)),
      line_number_(std::exchange(other.line_number_, 0)),
      impl_(std::move(other.impl_)) {}

LineReader& LineReader::operator=(LineReader&& other) noexcept {
  cursor_ = std::exchange(other.cursor_, nullptr);
  limit_ = std::exchange(other.limit_, nullptr);
  line_number_ = std::exchange(other.line_number_, 0);
  impl_ = std::move(other.impl_);
  return *this;
}

bool LineReader::next_from_file(std::string_view& line) {
  Impl& impl = *impl_;
  // Hand the inline scan's position back: [cursor_, limit_) held no newline.
  if (cursor_ != nullptr) {
    impl.begin = static_cast<std::size_t>(cursor_ - impl.buf);
    impl.scan = impl.end;
  }
  impl.line_number = line_number_;
  const bool got = impl.next(line);
  line_number_ = impl.line_number;
  cursor_ = impl.buf + impl.begin;
  limit_ = impl.buf + impl.end;
  return got;
}

const std::string& LineReader::path() const { return impl_->path; }

}  // namespace augur::traces
