// TI text of the synthetic workload's records and the streamed writer of index + rank files
// (plain or zstd), one rank file at a time with a fixed-size buffer.
#include "traces/synthetic/synthetic_ti_writer.hpp"

#include <zstd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace augur::traces::synthetic {
namespace {

/// SMPI datatype ids (SimGrid 3.32 smpi_datatype.cpp; ../shared/ti-samples/README.md).
constexpr int mpi_double = 0;  // 8 bytes
constexpr int mpi_byte = 6;    // 1 byte
/// Text is handed to the file (or compressor) in chunks of this size.
constexpr std::size_t chunk_size = std::size_t{1} << 20;

void append_number(std::string& out, std::uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_number(std::string& out, std::int64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

/// `value` as SMPI's tracer prints doubles (C++ stream default: %g, 6 significant digits);
/// refuses values that would not read back exactly.
void append_amount(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 6);
  double back = 0;
  std::from_chars(buffer, result.ptr, back);
  if (back != value) throw std::invalid_argument("TI writer: amount not exact in 6 significant digits");
  out.append(buffer, result.ptr);
}

/// One output file: plain, or a zstd stream of one frame.
class RankFile {
 public:
  RankFile(const std::string& path, int zstd_level) : path_(path) {
    file_ = std::fopen(path.c_str(), "wb");
    if (file_ == nullptr) fail("cannot create");
    if (zstd_level > 0) {
      cctx_ = ZSTD_createCCtx();
      if (cctx_ == nullptr) fail("cannot create a zstd context");
      ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, zstd_level);
      out_.resize(ZSTD_CStreamOutSize());
    }
  }
  ~RankFile() {
    if (cctx_ != nullptr) ZSTD_freeCCtx(cctx_);
    if (file_ != nullptr) std::fclose(file_);
  }
  RankFile(const RankFile&) = delete;
  RankFile& operator=(const RankFile&) = delete;

  /// Writes `text` (all of it).
  void write(const std::string& text) { push(text, ZSTD_e_continue); }

  /// Ends the compressed frame, closes the file; returns the bytes on disk.
  std::uint64_t close() {
    push({}, ZSTD_e_end);
    const int status = std::fclose(file_);
    file_ = nullptr;
    if (status != 0) fail("cannot write");
    return written_;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(path_ + ": error: " + what + ": " + std::strerror(errno));
  }

  void put(const void* data, std::size_t size) {
    if (size != 0 && std::fwrite(data, 1, size, file_) != size) fail("cannot write");
    written_ += size;
  }

  void push(const std::string& text, ZSTD_EndDirective mode) {
    if (cctx_ == nullptr) {
      put(text.data(), text.size());
      return;
    }
    ZSTD_inBuffer in{text.data(), text.size(), 0};
    while (true) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      const std::size_t left = ZSTD_compressStream2(cctx_, &out, &in, mode);
      if (ZSTD_isError(left)) throw std::runtime_error(path_ + ": error: zstd: " + ZSTD_getErrorName(left));
      put(out_.data(), out.pos);
      if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size) break;
    }
  }

  std::string path_;
  std::FILE* file_ = nullptr;
  ZSTD_CCtx* cctx_ = nullptr;
  std::string out_;
  std::uint64_t written_ = 0;
};

}  // namespace

void append_ti_line(std::string& out, const MpRecord& record) {
  append_number(out, std::int64_t{record.rank});
  out += ' ';
  out += to_string(record.kind);
  switch (record.kind) {
    case MpOpKind::init:
    case MpOpKind::finalize: break;
    case MpOpKind::compute:
      out += ' ';
      append_amount(out, record.amount);
      break;
    case MpOpKind::isend:
    case MpOpKind::irecv:
      out += ' ';
      append_number(out, std::int64_t{record.peer});
      out += ' ';
      append_number(out, std::int64_t{record.tag});
      out += ' ';
      append_number(out, record.bytes);  // count of MPI_BYTE
      out += ' ';
      append_number(out, std::int64_t{mpi_byte});
      break;
    case MpOpKind::waitall:
      out += ' ';
      append_number(out, record.count);
      break;
    case MpOpKind::allreduce:
      if (record.bytes % 8 != 0) throw std::invalid_argument("TI writer: allreduce size is not a number of doubles");
      out += ' ';
      append_number(out, record.bytes / 8);  // count of MPI_DOUBLE
      out += ' ';
      append_amount(out, record.amount);
      out += ' ';
      append_number(out, std::int64_t{mpi_double});
      out += ' ';  // SMPI's writer ends collective lines with an empty receive-type field
      break;
    default:
      throw std::invalid_argument("TI writer: action '" + std::string(to_string(record.kind)) +
                                  "' is not part of the synthetic workload");
  }
}

WrittenTrace write_synthetic_ti(const SyntheticSpec& spec, const std::string& folder, int zstd_level) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw std::runtime_error(folder + ": error: cannot create the folder: " + error.message());

  WrittenTrace written;
  written.index = (std::filesystem::path(folder) / "trace.txt").string();
  const std::unique_ptr<MpTraceSource> source = make_synthetic_trace(spec);
  std::string text;
  text.reserve(chunk_size + 256);
  {
    RankFile index(written.index, 0);
    for (int rank = 0; rank < spec.ranks; ++rank) {
      text += "rank";
      append_number(text, std::int64_t{rank});
      text += ".txt\n";
      if (text.size() >= chunk_size) {
        index.write(text);
        text.clear();
      }
    }
    index.write(text);
    text.clear();
    index.close();
  }
  MpRecord record;
  for (int rank = 0; rank < spec.ranks; ++rank) {
    std::string path = (std::filesystem::path(folder) / ("rank" + std::to_string(rank) + ".txt")).string();
    if (zstd_level > 0) path += ".zst";
    RankFile file(path, zstd_level);
    while (source->next(rank, record)) {
      append_ti_line(text, record);
      text += '\n';
      ++written.actions;
      if (text.size() >= chunk_size) {
        written.text_bytes += text.size();
        file.write(text);
        text.clear();
      }
    }
    written.text_bytes += text.size();
    file.write(text);
    text.clear();
    written.bytes += file.close();
  }
  return written;
}

}  // namespace augur::traces::synthetic
