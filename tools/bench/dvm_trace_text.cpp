// The text layer of the synthetic Lib-DVM trace: dvm_trace_text.hpp.
#include "tools/bench/dvm_trace_text.hpp"

#include <charconv>
#include <cmath>

namespace augur::bench {

namespace {

/// Text is handed to the file (or compressor) in chunks of this size.
constexpr std::size_t chunk_size = std::size_t{1} << 20;
/// TIMEs are printed with 8 decimals: one tick is 10 ns.
constexpr std::uint64_t ticks_per_second = 100'000'000;
/// The source file named by every event line.
constexpr std::string_view source_file = "jacobi.cdv";

}  // namespace

DvmTraceText::DvmTraceText(const DvmJacobiSpec& spec, CompressedFile& file) : spec_(spec), file_(file) {
  text_.reserve(chunk_size + 4096);
}

void DvmTraceText::flush() {
  written_.text_bytes += text_.size();
  file_.write(text_);
  text_.clear();
}

void DvmTraceText::number(std::int64_t v) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  text_.append(buffer, result.ptr);
}

void DvmTraceText::end_line() {
  text_ += '\n';
  ++written_.lines;
  if (text_.size() >= chunk_size) flush();
}

void DvmTraceText::time(std::uint64_t ticks) {
  number(static_cast<std::int64_t>(ticks / ticks_per_second));
  char digits[8];
  std::uint64_t frac = ticks % ticks_per_second;
  for (int i = 7; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  text_ += '.';
  text_.append(digits, 8);
}

void DvmTraceText::header(std::string_view prefix, std::string_view name, std::uint64_t ticks, int source_line) {
  const std::size_t label = prefix.size() + name.size();
  raw(prefix);
  raw(name);
  text_.append(label < 27 ? 27 - label : 1, ' ');
  raw("TIME=");
  time(ticks);
  raw(" LINE=");
  const std::size_t before = text_.size();
  number(source_line);
  const std::size_t width = text_.size() - before;
  text_.append(width < 6 ? 7 - width : 1, ' ');
  raw("FILE=");
  raw(source_file);
  end_line();
}

std::uint64_t DvmTraceText::overhead() {
  state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
  return 100 + (state_ >> 33) % 2000;
}

std::uint64_t DvmTraceText::work(std::int64_t elements) const {
  const double ticks =
      std::round(static_cast<double>(elements) * spec_.element_time * static_cast<double>(ticks_per_second));
  return ticks < 1 ? 1 : static_cast<std::uint64_t>(ticks);
}

std::int64_t DvmTraceText::elements(std::int64_t per_dim) const {
  std::int64_t n = 1;
  for (int d = 0; d < spec_.rank; ++d) n *= per_dim;
  return n;
}

void DvmTraceText::preamble(int source_line) {
  line("RTS VERSION = 2889");
  for (const char* part : {"syspar  ", "sysdebug", "systrace", "trcevent", "usrdebug", "statist "}) {
    raw(part);
    line(" file version = 2889 (min vers = 2889)");
  }
  line("ProcCount=1  HasCurrent=1  CentralProc=0  IOProc=0");
  line("ProcPowerMeasuring:  PPMeasureCount=10  PPMeasureTime=0.000002");
  line("Applied processes number = 1     Input/output processes number = 0");
  line("Applied:                         Input/output:");
  line("N     IN     NAME              N  IN     NAME");
  line("0_0    0      0                 -");
  line("ProcCount=1;      PSRank=3;      PSSize= 1 1 1;");
  line("VProcCount=0;");
  line("MasterProc=0(0);   IOProc=0(0);   CentralProc=0(0);   MeanProcTime=0.000002;");
  line("IntProcNumber  ExtProcNumber  ProcIdent  ProcWeight");
  line("0              0            0        1.00");
  for (int d = 0; d < 3; ++d) {
    raw("CoordWeight[");
    number(d);
    line("]= 1.00(1.00)  ");
  }
  line("MaxMsgLength  MsgBufLength  MsgBuf1Length  MaxMsgSendNumber  ChanNumber  Dupl");
  line("0             0             0                0           0       0");
  line("0");
  line("MPS=MPI;  Non-standard run;");
  header("call_", "mps_Barrier", overhead(), source_line);
  header("ret_", "mps_Barrier", overhead(), source_line);
  line("Tm=0.000000  Tirecv=0.000001  Twrecv=0.000001");
  header("ret_", "dvm_Init", overhead(), source_line);
  end_line();
}

}  // namespace augur::bench
