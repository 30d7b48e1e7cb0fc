// Private to tools/bench: the text layer of the synthetic Lib-DVM trace (synthetic_dvm_writer.cpp).
// Lines, TIMEs and call/ret frames in the runtime's layout, written into a 1 MiB buffer handed to
// a plain, gzip or zstd file, with the TIME accounting WrittenDvmTrace reports; and the
// runtime's fixed text before the program's first call.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "tools/bench/compressed_file.hpp"
#include "tools/bench/synthetic_dvm_writer.hpp"

namespace augur::bench {

class DvmTraceText {
 public:
  DvmTraceText(const DvmJacobiSpec& spec, CompressedFile& file);

 protected:
  // ------------------------------------------------------------------ text primitives
  void flush();
  void raw(std::string_view s) { text_.append(s); }
  void number(std::int64_t v);
  void end_line();
  void line(std::string_view s) {
    raw(s);
    end_line();
  }
  /// `seconds.dddddddd` of a tick count (exact: no floating point).
  void time(std::uint64_t ticks);
  /// `call_NAME   TIME=… LINE=…     FILE=…` with the runtime's column widths.
  void header(std::string_view prefix, std::string_view name, std::uint64_t ticks, int source_line);
  /// `NAME[0]=v; NAME[1]=v;  ` over the D dimensions.
  void array(std::string_view name, std::int64_t value) {
    array_of(name, [value](int) { return value; });
  }
  template <typename F>
  void array_of(std::string_view name, F value) {
    for (int d = 0; d < spec_.rank; ++d) {
      if (d > 0) raw(" ");
      raw(name);
      raw("[");
      number(d);
      raw("]=");
      number(value(d));
      raw(";");
    }
    raw("  ");
    end_line();
  }

  // ------------------------------------------------------------------ times
  /// An overhead TIME of 1 to 21 us from a fixed LCG (same text on every machine).
  std::uint64_t overhead();
  std::uint64_t work(std::int64_t elements) const;
  std::int64_t elements(std::int64_t per_dim) const;

  // ------------------------------------------------------------------ frames
  enum class Charge : std::uint8_t { regular, silent, io };

  /// A call line and its parameter lines (`params` writes them), then a blank line.
  template <typename Params>
  void call(std::string_view name, std::uint64_t ticks, int source_line, Params params) {
    header("call_", name, ticks, source_line);
    params();
    end_line();
    frame_ticks_ = ticks;
  }
  void call(std::string_view name, std::uint64_t ticks, int source_line) {
    call(name, ticks, source_line, [] {});
  }
  /// The matching ret line and its parameter lines; a blank line unless `last`.
  template <typename Params>
  void ret(std::string_view name, std::uint64_t ticks, int source_line, Params params, Charge charge = Charge::regular,
           bool last = false) {
    header("ret_", name, ticks, source_line);
    params();
    if (!last) end_line();
    ++written_.calls;
    written_.time_ticks += frame_ticks_ + ticks;
    if (charge == Charge::silent) written_.silent_ticks += frame_ticks_ + ticks;
    if (charge == Charge::io) written_.io_ret_ticks += ticks;
  }
  void ret(std::string_view name, std::uint64_t ticks, int source_line, Charge charge = Charge::regular) {
    ret(
        name, ticks, source_line, [] {}, charge);
  }

  /// The runtime's text before the program's first call (one processor, RTS 2889), ending with
  /// the ret of `dvm_Init` at `source_line`.
  void preamble(int source_line);

  const DvmJacobiSpec& spec_;
  CompressedFile& file_;
  std::string text_;
  WrittenDvmTrace written_;
  std::uint64_t state_ = 0x2545F4914F6CDD1DULL;
  std::uint64_t frame_ticks_ = 0;
};

}  // namespace augur::bench
