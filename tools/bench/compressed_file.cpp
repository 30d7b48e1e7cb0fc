// Plain, gzip and zstd output files of the trace generators.
#include "tools/bench/compressed_file.hpp"

#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace augur::bench {

namespace {
bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}
/// The gzip output buffer.
constexpr std::size_t gzip_buffer = std::size_t{1} << 20;
}  // namespace

Compression compression_of(std::string_view path) {
  return ends_with(path, ".gz") ? Compression::gzip : ends_with(path, ".zst") ? Compression::zstd : Compression::plain;
}

struct CompressedFile::Codec {
  ZSTD_CCtx* cctx = nullptr;
  z_stream zs{};
  bool gzip_open = false;
  std::string out;
  ~Codec() {
    if (cctx != nullptr) ZSTD_freeCCtx(cctx);
    if (gzip_open) deflateEnd(&zs);
  }
};

CompressedFile::CompressedFile(const std::string& path, Compression compression, int level)
    : path_(path), compression_(compression), codec_(std::make_unique<Codec>()) {
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) fail("cannot create");
  if (compression_ == Compression::zstd) {
    codec_->cctx = ZSTD_createCCtx();
    if (codec_->cctx == nullptr) fail("cannot create a zstd context");
    if (level > 0) ZSTD_CCtx_setParameter(codec_->cctx, ZSTD_c_compressionLevel, level);
    codec_->out.resize(ZSTD_CStreamOutSize());
  } else if (compression_ == Compression::gzip) {
    // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
    if (deflateInit2(&codec_->zs, level > 0 ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
      fail("cannot create a gzip stream");
    }
    codec_->gzip_open = true;
    codec_->out.resize(gzip_buffer);
  }
}

CompressedFile::~CompressedFile() {
  codec_.reset();
  if (file_ != nullptr) std::fclose(file_);
}

std::uint64_t CompressedFile::close() {
  push({}, true);
  const int status = std::fclose(file_);
  file_ = nullptr;
  if (status != 0) fail("cannot write");
  return written_;
}

void CompressedFile::fail(const std::string& what) const {
  throw std::runtime_error(path_ + ": error: " + what + ": " + std::strerror(errno));
}

void CompressedFile::put(const void* data, std::size_t size) {
  if (size != 0 && std::fwrite(data, 1, size, file_) != size) fail("cannot write");
  written_ += size;
}

void CompressedFile::push(std::string_view text, bool end) {
  std::string& buffer = codec_->out;
  switch (compression_) {
    case Compression::plain:
      put(text.data(), text.size());
      return;
    case Compression::zstd: {
      const ZSTD_EndDirective mode = end ? ZSTD_e_end : ZSTD_e_continue;
      ZSTD_inBuffer in{text.data(), text.size(), 0};
      for (;;) {
        ZSTD_outBuffer out{buffer.data(), buffer.size(), 0};
        const std::size_t left = ZSTD_compressStream2(codec_->cctx, &out, &in, mode);
        if (ZSTD_isError(left)) throw std::runtime_error(path_ + ": error: zstd: " + ZSTD_getErrorName(left));
        put(buffer.data(), out.pos);
        if (end ? left == 0 : in.pos == in.size) break;
      }
      return;
    }
    case Compression::gzip: {
      z_stream& zs = codec_->zs;
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
      zs.avail_in = static_cast<uInt>(text.size());
      for (;;) {
        zs.next_out = reinterpret_cast<Bytef*>(buffer.data());
        zs.avail_out = static_cast<uInt>(buffer.size());
        const int status = deflate(&zs, end ? Z_FINISH : Z_NO_FLUSH);
        if (status == Z_STREAM_ERROR) throw std::runtime_error(path_ + ": error: gzip: deflate failed");
        put(buffer.data(), buffer.size() - zs.avail_out);
        if (end ? status == Z_STREAM_END : zs.avail_in == 0 && zs.avail_out != 0) break;
      }
      return;
    }
  }
}

}  // namespace augur::bench
