// The spellings of Lib-DVM parameter lines that Predictor 3.1 reads, pinned one case at a
// time: each trace below is read to the parsed values it means, or rejected with
// `file:line: error:`.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "traces/libdvm/dvm_trace_reader.hpp"
#include "traces/trace_error.hpp"

#include "tests/support/files.hpp"

using augur::test::TempDir;
using augur::test::write_file;
using augur::traces::TraceError;
using augur::traces::libdvm::DvmCall;
using augur::traces::libdvm::DvmTraceReader;

namespace {

/// A merged trace whose one call is `call_NAME` with the parameter lines `params`; the call line
/// is line 7.
std::string trace_with(const std::string& name, const std::string& params, const std::string& eol = "\n") {
  const std::vector<std::string> lines{
      "RTS VERSION = 2889",
      "ProcCount=1;",
      "VProcCount=1;",
      "call_dvm_Init              TIME=0.00000100 LINE=1      FILE=t.cdv",
      "ret_dvm_Init               TIME=0.00000100 LINE=1      FILE=t.cdv",
      "",
      "call_" + name + "                TIME=0.00000100 LINE=2      FILE=t.cdv",
      params,
      "ret_" + name + "                 TIME=0.00000200 LINE=2      FILE=t.cdv",
      "Event_dvm_exit             TIME=0.00000300 LINE=3      FILE=t.cdv",
  };
  std::string text;
  for (const std::string& line : lines) text += line + eol;
  return text;
}

/// The one call of `text`, written to a file and read.
DvmCall read_one(const std::string& text) {
  TempDir dir;
  const std::string path = dir.file("t.ptr");
  write_file(path, text);
  DvmTraceReader reader(path);
  DvmCall call;
  REQUIRE(reader.next(call));
  DvmCall next;
  CHECK_FALSE(reader.next(next));
  return call;
}

/// The error of reading `text`, with the temporary file's name replaced by `t.ptr`.
std::string read_error(const std::string& text) {
  TempDir dir;
  const std::string path = dir.file("t.ptr");
  write_file(path, text);
  try {
    DvmTraceReader reader(path);
    DvmCall call;
    while (reader.next(call)) {
    }
  } catch (const TraceError& error) {
    std::string message = error.what();
    const std::size_t at = message.find(path);
    if (at != std::string::npos) message.replace(at, path.size(), "t.ptr");
    return message;
  }
  return "(no error)";
}

}  // namespace

TEST_SUITE("traces") {
  TEST_CASE("Lib-DVM: blanks on both sides of '=' precede the value (setelw_'s weights)") {
    // The runtime writes `WeightNumber[%d] = %ld;` and `  LoadWeight[%d] = %4.2lf;`, two weights
    // per line.
    const DvmCall call = read_one(trace_with("setelw_",
                                             "PSRef=5630c7689480; AMViewRef=106a618; AddrNumber=1;\n"
                                             "WeightNumber[0] = 3;\n"
                                             "  LoadWeight[0] = 1.00;  LoadWeight[1] = 2.50; \n"
                                             "  LoadWeight[2] = 0.25; "));
    CHECK(call.integer("AddrNumber") == 1);
    const auto weights = call.find("WeightNumber");
    REQUIRE(weights);
    REQUIRE(weights->size() == 1);
    CHECK(weights->integers()[0] == 3);
    const auto loads = call.find("LoadWeight");
    REQUIRE(loads);
    REQUIRE(loads->size() == 3);
    CHECK(loads->reals()[0] == 1.0);
    CHECK(loads->reals()[1] == 2.5);
    CHECK(loads->reals()[2] == 0.25);
    // A tab counts as a blank; several blanks too.
    const DvmCall tabs = read_one(trace_with("crtda_", "ArrayHeader\t=\t51b468; Rank  =   2;"));
    CHECK(tabs.handle("ArrayHeader") == 0x51b468);
    CHECK(tabs.integer("Rank") == 2);
    // Blanks before '=' alone: the value follows it.
    CHECK(read_one(trace_with("crtda_", "ArrayHeader =51b468; Rank =2;")).integer("Rank") == 2);
  }

  TEST_CASE("Lib-DVM: '=' followed by a blank or nothing reads 0 - as 3.1 does") {
    // 3.1 reads the empty value as the number 0; what follows the blank is another token.
    CHECK(read_one(trace_with("crtda_", "ArrayHeader=51b468; Rank= 2;")).integer("Rank") == 0);
    CHECK(read_one(trace_with("crtda_", "ArrayHeader=51b468; Rank = ;")).integer("Rank") == 0);
    const DvmCall last = read_one(trace_with("crtda_", "ArrayHeader=51b468; Rank ="));
    CHECK(last.integer("Rank") == 0);
    CHECK(last.handle("ArrayHeader") == 0x51b468);
    CHECK(read_one(trace_with("crtda_", "ArrayHeader=; Rank=2;")).handle("ArrayHeader") == 0);
  }

  TEST_CASE("Lib-DVM: several parameters per line and arrays split over lines") {
    const DvmCall call = read_one(trace_with("crtda_",
                                             "ArrayHeader=51b468; ArrayHandlePtr=51b4a0; TypeSize=8; Rank=3;\n"
                                             "SizeArray[0]=10; SizeArray[1]=20;\n"
                                             "SizeArray[2]=30;"));
    CHECK(call.integer("TypeSize") == 8);
    CHECK(call.handle("ArrayHandlePtr") == 0x51b4a0);
    const auto sizes = call.find("SizeArray");
    REQUIRE(sizes);
    REQUIRE(sizes->size() == 3);
    CHECK(sizes->integers()[0] == 10);
    CHECK(sizes->integers()[2] == 30);
  }

  TEST_CASE("Lib-DVM: CRLF line ends read as LF") {
    const DvmCall call = read_one(trace_with("crtda_", "ArrayHeader=51b468; Rank=2;", "\r\n"));
    CHECK(call.integer("Rank") == 2);
    CHECK(call.handle("ArrayHeader") == 0x51b468);
  }

  TEST_CASE("Lib-DVM: hexadecimal handles in either case - NULL") {
    CHECK(read_one(trace_with("crtda_", "ArrayHeader=51B4AF; Rank=2;")).handle("ArrayHeader") == 0x51b4af);
    CHECK(read_one(trace_with("crtda_", "ArrayHeader=51b4af; Rank=2;")).handle("ArrayHeader") == 0x51b4af);
    CHECK(read_one(trace_with("crtda_", "ArrayHeader=NULL; Rank=2;")).handle("ArrayHeader") == 0);
  }

  TEST_CASE("Lib-DVM: a call without its ret_ before the end is an error - as in 3.1") {
    // 3.1 stops on an assertion; augur names the line.
    std::string text = trace_with("crtda_", "ArrayHeader=51b468; Rank=2;");
    text.erase(text.find("ret_crtda_"), text.find("Event_") - text.find("ret_crtda_"));
    CHECK(read_error(text) == "t.ptr:9: error: Event_dvm_exit while call_crtda_ (line 7) has no ret_crtda_");
    CHECK(read_error(text.substr(0, text.find("Event_"))) ==
          "t.ptr:8: error: end of file inside call_crtda_ (line 7): no ret_crtda_");
  }

  TEST_CASE("Lib-DVM: an array element without the elements before it is an error") {
    MESSAGE(read_error(trace_with("crtda_", "ArrayHeader=51b468; Rank=2; SizeArray[1]=20;")));
    CHECK(
        read_error(trace_with("crtda_", "ArrayHeader=51b468; Rank=2; SizeArray[1]=20;")).rfind("t.ptr:8: error: ", 0) ==
        0);
  }
}
