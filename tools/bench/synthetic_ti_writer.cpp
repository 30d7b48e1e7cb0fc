// TI text of the synthetic workload's records and the streamed writer of index + rank files
// (plain or zstd), one rank file at a time with a fixed-size buffer.
#include "tools/bench/synthetic_ti_writer.hpp"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "tools/bench/compressed_file.hpp"

namespace augur::bench {

using traces::MpOpKind;
using traces::MpTraceSource;

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

}  // namespace

void append_ti_line(std::string& out, const MpRecord& record) {
  append_number(out, std::int64_t{record.rank});
  out += ' ';
  out += to_string(record.kind);
  switch (record.kind) {
    case MpOpKind::init:
    case MpOpKind::finalize:
      break;
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
    CompressedFile index(written.index, Compression::plain, 0);
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
    CompressedFile file(path, zstd_level > 0 ? Compression::zstd : Compression::plain, zstd_level);
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

}  // namespace augur::bench
