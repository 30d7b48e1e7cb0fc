// Tests of the Lib-DVM reader: every parameter kind, CRLF and gzip, the sample traces of
// ../shared/dvm-samples (counts, known calls, raw files merged like the shipped merged files),
// several raw files merged, one broken trace per fixture, and the reading speed.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "traces/libdvm/dvm_call_builder.hpp"
#include "traces/libdvm/dvm_function.hpp"
#include "traces/libdvm/dvm_text.hpp"
#include "traces/libdvm/dvm_trace_reader.hpp"
#include "traces/trace_error.hpp"

#include "tests/support/files.hpp"

namespace fs = std::filesystem;
using augur::test::TempDir;
using augur::test::write_file;
using augur::traces::TraceError;
using augur::traces::libdvm::DvmCall;
using augur::traces::libdvm::DvmCallBuilder;
using augur::traces::libdvm::DvmFunction;
using augur::traces::libdvm::DvmParamKind;
using augur::traces::libdvm::DvmParamLineCache;
using augur::traces::libdvm::DvmPatternType;
using augur::traces::libdvm::DvmSide;
using augur::traces::libdvm::DvmTraceForm;
using augur::traces::libdvm::DvmTraceReader;
using augur::traces::libdvm::find_dvm_function;
using augur::traces::libdvm::format_dvm_call;

namespace {

const std::string fixtures = "traces/fixtures/libdvm/";
const std::string broken = "traces/fixtures/libdvm/broken/";
const std::string samples = std::string(AUGUR_SHARED_DIR) + "/dvm-samples/";

/// Every call of a trace, copied out (a DvmCall copy owns its parameters).
std::vector<DvmCall> read_all(DvmTraceReader& reader) {
  std::vector<DvmCall> calls;
  DvmCall call;
  while (reader.next(call)) calls.push_back(call);
  return calls;
}

std::vector<DvmCall> read_all(const std::string& path, DvmTraceForm form = DvmTraceForm::automatic) {
  DvmTraceReader reader(path, form);
  return read_all(reader);
}

/// doctest::Contains of a std::string.
doctest::Contains contains(const std::string& text) { return doctest::Contains(text.c_str()); }

/// The error of reading `path` to its end.
std::string read_error(const std::string& path) {
  try {
    read_all(path);
  } catch (const TraceError& error) {
    return error.what();
  }
  return "(no error)";
}

std::map<std::string, int> count_by_name(const std::vector<DvmCall>& calls) {
  std::map<std::string, int> counts;
  for (const DvmCall& call : calls) ++counts[std::string(call.name())];
  return counts;
}

using Ints = std::vector<std::int64_t>;

Ints ints(std::span<const std::int64_t> values) { return {values.begin(), values.end()}; }

/// The sample programs stored in both forms: the merged `<prog>.ptr` and the raw
/// `<prog>0_0.ptr.gz`, with the number of ret TIMEs the merge replaced by 1 us (counted with
/// diff on the two files, leading blanks and blank lines removed).
struct SamplePair {
  std::string dir;
  std::string program;
  int replaced_ret_times;
};
const std::vector<SamplePair> sample_pairs{{"programs/gausf/N10_std/", "gausf", 1},
                                           {"programs/jac/L200_int/", "jac", 35},
                                           {"programs/jac/L8_std/", "jac", 25},
                                           {"programs/mgrid/std/", "mgrid", 2},
                                           {"programs/tsk/std/", "tsk", 41}};

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("the Lib-DVM number conversions give std::from_chars's values and verdicts") {
    using augur::traces::libdvm::DvmNumber;
    using augur::traces::libdvm::parse_dvm_hex;
    using augur::traces::libdvm::parse_dvm_integer;
    using augur::traces::libdvm::parse_dvm_real;
    // What the conversions did before their hand-written fast paths: std::from_chars.
    auto verdict = [](const char* ptr, const char* last, std::errc ec) {
      if (ptr != last) return DvmNumber::bad;
      if (ec == std::errc::result_out_of_range) return DvmNumber::out_of_range;
      return ec == std::errc() ? DvmNumber::ok : DvmNumber::bad;
    };
    auto hex_reference = [&](std::string_view t, std::uint64_t& v) {
      if (t == "NULL" || t == "(nil)") {
        v = 0;
        return DvmNumber::ok;
      }
      if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
      if (t.empty()) return DvmNumber::bad;
      const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
      return verdict(ptr, t.data() + t.size(), ec);
    };
    auto int_reference = [&](std::string_view t, std::int64_t& v) {
      if (t.size() > 1 && t[0] == '+') t.remove_prefix(1);
      if (t.empty()) return DvmNumber::bad;
      const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      return verdict(ptr, t.data() + t.size(), ec);
    };
    auto real_reference = [&](std::string_view t, double& v) {
      if (t.size() > 1 && t[0] == '+') t.remove_prefix(1);
      if (t.empty()) return DvmNumber::bad;
      const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
      const DvmNumber r = verdict(ptr, t.data() + t.size(), ec);
      return r == DvmNumber::ok && !std::isfinite(v) ? DvmNumber::out_of_range : r;
    };
    std::vector<std::string> texts = {"",
                                      "0",
                                      "-0",
                                      "+0",
                                      "+",
                                      "-",
                                      "+-5",
                                      "--5",
                                      "0x",
                                      "0x1f",
                                      "0X1F",
                                      "NULL",
                                      "(nil)",
                                      "1f",
                                      "g1",
                                      "ffffffffffffffff",
                                      "10000000000000000",
                                      "fffffffffffffffff",
                                      "9223372036854775807",
                                      "9223372036854775808",
                                      "-9223372036854775808",
                                      "-9223372036854775809",
                                      "18446744073709551616",
                                      "99999999999999999999",
                                      "0.00000133",
                                      "0.00000100",
                                      "20.35173370",
                                      "1.",
                                      ".5",
                                      "-.5",
                                      "1e5",
                                      "1.5e-6",
                                      "inf",
                                      "nan",
                                      "1e999",
                                      "-1e999",
                                      "0.1234567890123456789",
                                      "123456789012345.6",
                                      "1234567890123456.7",
                                      "0.0000000000000000000001",
                                      "0.00000000000000000000001",
                                      "000000000000000000000001.5",
                                      "1.5x",
                                      "1 ",
                                      " 1",
                                      "0.000001;",
                                      "12ab",
                                      "-7",
                                      "+-0.5",
                                      "3.14159265358979",
                                      "100000000000000000000000"};
    std::uint64_t x = 99;
    auto rnd = [&x] {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      return x >> 20;
    };
    const std::string alphabet = "0123456789.-+eEabfxX";
    for (int i = 0; i < 20000; ++i) {
      std::string t;
      const auto length = rnd() % 24;
      for (std::uint64_t k = 0; k < length; ++k) {
        t += rnd() % 3 != 0 ? static_cast<char>('0' + rnd() % 10) : alphabet[rnd() % alphabet.size()];
      }
      texts.push_back(t);
      // TIMEs as the runtime prints them, small ones with leading zeros among them, and longer
      // fractions (eight decimals at a time, then one by one, then past 15 digits).
      texts.push_back(std::to_string(rnd() % 1000) + "." + std::to_string(10000000 + rnd() % 90000000));
      std::string fraction = std::to_string(rnd() % 100000000);
      fraction.insert(0, 8 - fraction.size(), '0');
      texts.push_back("0." + fraction);
      texts.push_back(std::to_string(rnd() % 100) + "." + fraction + std::to_string(rnd() % 100000000));
    }
    for (const std::string& t : texts) {
      CAPTURE(t);
      // The value matters only with `ok` (every caller throws or warns otherwise).
      std::uint64_t h1 = 42, h2 = 42;
      const DvmNumber hv = parse_dvm_hex(t, h1);
      CHECK(hv == hex_reference(t, h2));
      if (hv == DvmNumber::ok) CHECK(h1 == h2);
      std::int64_t i1 = 42, i2 = 42;
      const DvmNumber iv = parse_dvm_integer(t, i1);
      CHECK(iv == int_reference(t, i2));
      if (iv == DvmNumber::ok) CHECK(i1 == i2);
      double r1 = 42, r2 = 42;
      const DvmNumber v1 = parse_dvm_real(t, r1), v2 = real_reference(t, r2);
      CHECK(v1 == v2);
      if (v1 == DvmNumber::ok) {
        CHECK(std::bit_cast<std::uint64_t>(r1) == std::bit_cast<std::uint64_t>(r2));
      }
    }
  }

  TEST_CASE("DvmFunction maps every recognised name and back") {
    using augur::traces::libdvm::dvm_function_count;
    using augur::traces::libdvm::dvm_function_name;
    CHECK(dvm_function_count == 162);
    for (std::size_t i = 0; i < dvm_function_count; ++i) {
      const auto function = static_cast<DvmFunction>(i);
      CAPTURE(dvm_function_name(function));
      CHECK(find_dvm_function(dvm_function_name(function)) == function);
    }
    CHECK(find_dvm_function("crtda_") == DvmFunction::crtda);
    CHECK(find_dvm_function("dvm_Init") == DvmFunction::dvm_init);
    CHECK(find_dvm_function("eloop_") == DvmFunction::eloop);
    CHECK(find_dvm_function("delps_") == DvmFunction::delps);
    CHECK(find_dvm_function("crtda") == DvmFunction::unknown);
    CHECK(find_dvm_function("") == DvmFunction::unknown);
    CHECK(dvm_function_name(DvmFunction::unknown) == "unknown");
  }

  TEST_CASE("DvmTraceReader reads every parameter kind") {
    DvmTraceReader reader(fixtures + "all_kinds.ptr");
    CHECK(reader.form() == DvmTraceForm::merged);
    const auto& preamble = reader.preamble();
    CHECK(preamble.rts_version == 2889);
    CHECK(preamble.proc_count == 4);  // the first ProcCount= of the preamble
    CHECK(preamble.vproc_count == 4);
    CHECK(preamble.vps_rank == 2);
    CHECK(preamble.vps_size == Ints{2, 2});
    CHECK(preamble.init_line == 11);
    const std::vector<DvmCall> calls = read_all(reader);
    REQUIRE(calls.size() == 10);

    const DvmCall& crtda = calls[0];
    CHECK(crtda.function() == DvmFunction::crtda);
    CHECK(crtda.name() == "crtda_");
    CHECK(crtda.call_time() == 0.00000133);
    CHECK(crtda.ret_time() == 0.00002067);
    CHECK(crtda.source_line() == 20);
    CHECK(crtda.source_file() == "all.cdv");
    CHECK(crtda.source_file_id() == 0);
    CHECK(crtda.trace_line() == 14);
    CHECK(crtda.ret_trace_line() == 19);
    CHECK(crtda.trace_path() == fixtures + "all_kinds.ptr");
    CHECK(crtda.handle("ArrayHeader") == 0x51b468);
    CHECK(crtda.handle("BasePtr") == 0);
    CHECK(crtda.integer("Rank") == 2);
    CHECK(crtda.integer("TypeSize") == 8);
    CHECK(crtda.integer("ReDistrSign") == 3);
    CHECK(ints(crtda.array("SizeArray")) == Ints{8, 16});
    // Interleaved elements of two arrays on one line.
    CHECK(ints(crtda.array("LowShdWidthArray")) == Ints{1, 0});
    CHECK(ints(crtda.array("HiShdWidthArray")) == Ints{-1, 2});
    CHECK(crtda.ret_handle("ArrayHandlePtr") == 0x106c8a8);
    CHECK_FALSE(crtda.has("ArrayHandlePtr"));
    CHECK(crtda.has("ArrayHandlePtr", DvmSide::ret));
    CHECK(crtda.find("ExtHdrSign")->kind() == DvmParamKind::text);  // not a name the model reads
    CHECK(crtda.integer("ExtHdrSign") == 0);                        // ... but it converts
    CHECK(format_dvm_call(crtda) ==
          "crtda_ LINE=20 FILE=all.cdv TIME=0.00000133/0.00002067 | ArrayHeader=51b468 "
          "ExtHdrSign=0 BasePtr=0 Rank=2 TypeSize=8 StaticSign=0 ReDistrSign=3 SizeArray=[8,16] "
          "LowShdWidthArray=[1,0] HiShdWidthArray=[-1,2] | ret: ArrayHandlePtr=106c8a8");

    const DvmCall& align = calls[1];
    CHECK(align.function() == DvmFunction::align);
    CHECK(align.handle("PatternRefPtr") == 0);  // NULL
    CHECK(align.handle("PatternRef") == 0xffffffffffffffffULL);
    CHECK(align.pattern_type("PatternRef") == DvmPatternType::am_view);
    CHECK(align.pattern_type("PatternRefPtr") == DvmPatternType::none);
    CHECK(ints(align.array("AxisArray")) == Ints{1, -1});  // the repeated AxisArray[0] is ignored
    CHECK(ints(align.array("CoeffArray")) == Ints{1, 0});
    CHECK(ints(align.array("ConstArray")) == Ints{0, -3});
    CHECK(align.text("IsLocal", DvmSide::ret) == "1");

    const DvmCall& mappl = calls[2];
    CHECK(mappl.source_file() == "lib.cdv");
    CHECK(mappl.source_file_id() == 1);
    CHECK(reader.source_file(1) == "lib.cdv");
    CHECK(mappl.handle("LoopRef") == 0x106d7d8);  // written 0x106D7D8
    CHECK(mappl.pattern_type("PatternRef") == DvmPatternType::dis_array);
    CHECK(ints(mappl.array("InInitIndexArray")) == Ints{0});
    CHECK(ints(mappl.array("InLastIndexArray")) == Ints{7});
    CHECK(ints(mappl.array("InStepArray")) == Ints{1});
    CHECK(mappl.ret_time() == 0.00004924);  // across the "------" line that follows

    const DvmCall& across = calls[3];
    CHECK(across.real("PipeLinePar") == 0.25);
    CHECK(across.find("PipeLinePar")->kind() == DvmParamKind::real);
    CHECK(across.handle("OldShadowGroupRef") == 0x8c5cc0);
    CHECK(across.integer("CondPipeLine") == 0);
    CHECK(across.integer("ErrPipeLine") == 30);
    CHECK(across.ret_integer("PipeLinePLAxis") == 1);
    CHECK(across.real("AcrossType") == 0.0);  // an integer reads as a real

    const DvmCall& setelw = calls[4];
    CHECK(setelw.handle("PSRef") == 0x5630c7689480);
    CHECK(setelw.integer("AddrNumber") == 2);
    CHECK(ints(setelw.array("WeightNumber")) == Ints{2, 1});
    const auto weights = setelw.real_array("LoadWeight");
    REQUIRE(weights.size() == 3);
    CHECK(weights[0] == 0.5);
    CHECK(weights[1] == 0.15);
    CHECK(weights[2] == 2.0);

    const DvmCall& foo = calls[5];
    CHECK(foo.function() == DvmFunction::unknown);
    CHECK(foo.name() == "foo_");
    CHECK(foo.text("Format") == "it=%4i");  // a value runs to the next blank
    CHECK(foo.text("eps") == "%f");
    CHECK(foo.ret_integer("Count") == 64);
    CHECK(foo.handle("Res", DvmSide::ret) == 0x106d7d8);  // a text value read as a handle

    const DvmCall& fopen = calls[6];
    CHECK(fopen.function() == DvmFunction::dvm_fopen);
    CHECK(fopen.text("Filename") == "jacobi.dat");
    CHECK(fopen.text("Type") == "wb");
    CHECK(fopen.param_count() == 3);

    CHECK(calls[7].name() == "foo_");
    CHECK(calls[7].param_count() == 0);
    CHECK(calls[8].name() == "bar_");
    const DvmCall& dopl = calls[9];
    CHECK(dopl.function() == DvmFunction::dopl);
    CHECK(dopl.call_time() == 1.5e-6);
    CHECK(dopl.ret_integer("DoPL") == 1);

    const auto* end = reader.end_event();
    REQUIRE(end != nullptr);
    CHECK(end->name == "dvm_exit");
    CHECK(end->time == 0.00000314);
    CHECK(end->source_line == 59);
    CHECK(end->source_file == "all.cdv");
    CHECK(end->trace_line == 60);
    DvmCall after;
    CHECK_FALSE(reader.next(after));  // the trailer is never read
  }

  TEST_CASE("DvmCallBuilder copies a parameter line met before exactly as scanning stores it") {
    // Each call is built twice, by a builder with the cache and one without; the two calls must
    // print the same (names, kinds, sides, markers, lines, values). The lines come back in other
    // contexts: after other parameters (other buffer offsets), on the other side, in a call with
    // a longer unknown name (characters before them), and after an array of the same name — where
    // a copy would be wrong: scanning extends that array (SizeArray[0] repeated, [1] appended).
    struct Line {
      std::string text;
      DvmSide side;
    };
    const std::string scalars = "LoopRefPtr=12ff10; LoopRef=106d7d8; Rank=2; LoadWeight=0.5; Mode=fast;";
    const std::string arrays = "SizeArray[0]=8; SizeArray[1]=9; Names[0]=a; Names[1]=bc;";
    const std::string marked = "PatternRefPtr=51b474; PatternRef=106d008 (DisArray); AMViewRef=1 (AMView)";
    const std::string interleaved = "InitIndexArray[0]=1; LastIndexArray[0]=5; InitIndexArray[1]=2;";
    const std::vector<std::pair<std::string, std::vector<Line>>> calls = {
        {"crtpl_", {{scalars, DvmSide::call}, {arrays, DvmSide::call}, {marked, DvmSide::ret}}},
        {"crtpl_", {{scalars, DvmSide::call}, {arrays, DvmSide::call}, {marked, DvmSide::ret}}},
        {"some_unknown_function_",
         {{"Extra=x; Other=yz;", DvmSide::call},
          {marked, DvmSide::call},
          {scalars, DvmSide::ret},
          {interleaved, DvmSide::ret}}},
        {"crtpl_", {{"SizeArray[0]=1;", DvmSide::call}, {arrays, DvmSide::call}, {arrays, DvmSide::ret}}},
        {"crtpl_",
         {{"Names[0]=q;", DvmSide::ret},
          {arrays, DvmSide::call},
          {arrays, DvmSide::ret},
          {interleaved, DvmSide::ret},
          {scalars, DvmSide::call}}},
        {"crtpl_", {{"SizeArray[0]=8;", DvmSide::call}, {"SizeArray[1]=9;", DvmSide::call}}},
    };
    const auto path = std::make_shared<const std::string>("cache.ptr");
    DvmParamLineCache cache;
    DvmCall with;
    DvmCall without;
    std::uint64_t line = 10;
    for (int round = 0; round < 2; ++round) {
      for (const auto& [name, lines] : calls) {
        CAPTURE(name);
        DvmCallBuilder cached(with, &cache);
        DvmCallBuilder plain(without);
        for (DvmCallBuilder* b : {&cached, &plain}) {
          b->reset();
          b->set_call(find_dvm_function(name), name, 1e-6, 7, "jacobi.cdv", 0, line, path);
        }
        for (const Line& l : lines) {
          ++line;
          cached.add_params(l.text, line, l.side);
          plain.add_params(l.text, line, l.side);
        }
        CHECK(format_dvm_call(with) == format_dvm_call(without));
        for (std::size_t i = 0; i < without.param_count(); ++i) {
          CHECK(with.param(i).line() == without.param(i).line());
        }
      }
    }
    // The second round copied every line of the first but the ones extending an array.
    CHECK(cache.hits() >= 12);
    // The array extended across lines is not kept: its second line alone is still an error.
    DvmCallBuilder cached(with, &cache);
    cached.reset();
    cached.set_call(DvmFunction::crtpl, "crtpl_", 0, 1, "a.cdv", 0, 1, path);
    CHECK_THROWS_AS(cached.add_params("SizeArray[1]=9;", 2, DvmSide::call), TraceError);
  }

  TEST_CASE("DvmTraceReader warns once per unknown function") {
    DvmTraceReader reader(fixtures + "all_kinds.ptr");
    read_all(reader);
    const std::vector<std::string> expected{
        fixtures +
            "all_kinds.ptr:43: warning: unknown function 'foo_': modelled as an ordinary "
            "function (reported once)",
        fixtures +
            "all_kinds.ptr:54: warning: unknown function 'bar_': modelled as an ordinary "
            "function (reported once)"};
    CHECK(reader.warnings() == expected);
  }

  TEST_CASE("DvmTraceReader reads CRLF and gzip traces like plain text") {
    const std::vector<DvmCall> plain = read_all(fixtures + "all_kinds.ptr");
    for (const std::string name : {"all_kinds_crlf.ptr", "all_kinds.ptr.gz"}) {
      CAPTURE(name);
      DvmTraceReader reader(fixtures + name);
      CHECK(reader.form() == DvmTraceForm::merged);
      CHECK(reader.preamble().vps_size == Ints{2, 2});
      const std::vector<DvmCall> calls = read_all(reader);
      REQUIRE(calls.size() == plain.size());
      for (std::size_t i = 0; i < calls.size(); ++i) {
        CHECK(format_dvm_call(calls[i]) == format_dvm_call(plain[i]));
        CHECK(calls[i].trace_line() == plain[i].trace_line());
      }
      CHECK(reader.warnings().size() == 2);
      REQUIRE(reader.end_event() != nullptr);
      CHECK(reader.end_event()->source_file == "all.cdv");  // no '\r' left
    }
  }

  TEST_CASE("DvmTraceReader reads jac1d") {
    DvmTraceReader reader(samples + "jac1d.ptr");
    CHECK(reader.preamble().rts_version == 2889);
    CHECK(reader.preamble().proc_count == 1);
    CHECK(reader.preamble().vproc_count == 0);
    CHECK(reader.preamble().init_line == 29);
    const std::vector<DvmCall> calls = read_all(reader);
    CHECK(reader.warnings().empty());
    // `grep -c call_` gives 260: call_mps_Barrier sits in the preamble and one
    // call_dvm_void_printf in the trailer after Event_dvm_exit.
    CHECK(calls.size() == 258);
    const std::map<std::string, int> expected{
        {"align_", 2},   {"blkdiv_", 1},  {"crtamv_", 1},   {"crtda_", 2},     {"crtpl_", 23},
        {"crtred_", 11}, {"crtrg_", 11},  {"crtshg_", 11},  {"delrg_", 11},    {"delshg_", 11},
        {"distr_", 1},   {"dopl_", 46},   {"dvm_fopen", 1}, {"dvm_fwrite", 1}, {"dvm_void_printf", 12},
        {"endpl_", 23},  {"getam_", 1},   {"insred_", 11},  {"inssh_", 11},    {"mappl_", 23},
        {"strtrd_", 11}, {"strtsh_", 11}, {"waitrd_", 11},  {"waitsh_", 11}};
    CHECK(count_by_name(calls) == expected);
    for (const DvmCall& call : calls) CHECK(call.function() != DvmFunction::unknown);

    // Sums of the TIMEs of the call and ret lines between ret_dvm_Init and Event_dvm_exit
    // (awk over the file): 0.00051047 s and 0.00491133 s.
    double call_sum = 0;
    double ret_sum = 0;
    for (const DvmCall& call : calls) {
      call_sum += call.call_time();
      ret_sum += call.ret_time();
    }
    CHECK(call_sum == doctest::Approx(0.00051047).epsilon(1e-9));
    CHECK(ret_sum == doctest::Approx(0.00491133).epsilon(1e-9));

    // The first crtda_ (lines 58-65 of jac1d.ptr).
    const DvmCall& crtda = calls[4];
    REQUIRE(crtda.function() == DvmFunction::crtda);
    CHECK(crtda.trace_line() == 58);
    CHECK(crtda.ret_trace_line() == 64);
    CHECK(crtda.call_time() == 0.00000133);
    CHECK(crtda.ret_time() == 0.00002067);
    CHECK(crtda.source_line() == 20);
    CHECK(crtda.source_file() == "jac1d.cdv");
    CHECK(crtda.handle("ArrayHeader") == 0x51b468);
    CHECK(crtda.integer("Rank") == 2);
    CHECK(crtda.integer("TypeSize") == 8);
    CHECK(crtda.integer("StaticSign") == 0);
    CHECK(crtda.integer("ReDistrSign") == 3);
    CHECK(ints(crtda.array("SizeArray")) == Ints{8, 8});
    CHECK(ints(crtda.array("LowShdWidthArray")) == Ints{1, 1});
    CHECK(ints(crtda.array("HiShdWidthArray")) == Ints{1, 1});
    CHECK(crtda.ret_handle("ArrayHandlePtr") == 0x106c8a8);

    // The second align_ aligns on an array: PatternRef is that array's handle.
    const DvmCall& align = calls[7];
    REQUIRE(align.function() == DvmFunction::align);
    CHECK(align.handle("PatternRefPtr") == 0x51b468);
    CHECK(align.handle("PatternRef") == 0x106c8a8);
    CHECK(align.pattern_type("PatternRef") == DvmPatternType::dis_array);
    CHECK(calls[5].pattern_type("PatternRef") == DvmPatternType::am_view);

    // distr_ on the current processor system: PSRefPtr=NULL; PSRef=0.
    const DvmCall& distr = calls[3];
    REQUIRE(distr.function() == DvmFunction::distr);
    CHECK(distr.handle("PSRefPtr") == 0);
    CHECK(distr.handle("PSRef") == 0);
    CHECK(distr.integer("ParamCount") == 2);
    CHECK(ints(distr.array("AxisArray")) == Ints{1, 2});
    CHECK(ints(distr.array("DistrParamArray")) == Ints{0, 0});

    // dopl_: the loop ends with DoPL=0 on the ret side.
    int loop_ends = 0;
    for (const DvmCall& call : calls) {
      if (call.function() == DvmFunction::dopl && call.ret_integer("DoPL") == 0) ++loop_ends;
    }
    CHECK(loop_ends == 23);

    REQUIRE(reader.end_event() != nullptr);
    CHECK(reader.end_event()->trace_line == 1744);
    CHECK(reader.end_event()->source_line == 59);
  }

  TEST_CASE("DvmTraceReader reads every sample trace") {
    // Calls between ret_dvm_Init and Event_dvm_exit, counted with awk.
    const std::vector<std::pair<std::string, std::size_t>> traces{{"jac1d.ptr", 258},
                                                                  {"programs/gausf/N10_std/gausf.ptr", 165},
                                                                  {"programs/jac/L200_int/jac.ptr", 572},
                                                                  {"programs/jac/L8_std/jac.ptr", 487},
                                                                  {"programs/mgrid/std/mgrid.ptr", 40},
                                                                  {"programs/tsk/std/tsk.ptr", 791}};
    for (const auto& [name, count] : traces) {
      CAPTURE(name);
      DvmTraceReader reader(samples + name);
      CHECK(reader.form() == DvmTraceForm::merged);
      CHECK(read_all(reader).size() == count);
      CHECK(reader.warnings().empty());
      CHECK(reader.end_event() != nullptr);
    }
  }

  TEST_CASE("DvmTraceReader merges each raw sample into the shipped merged trace") {
    for (const SamplePair& pair : sample_pairs) {
      CAPTURE(pair.dir);
      const std::vector<DvmCall> merged = read_all(samples + pair.dir + pair.program + ".ptr");
      DvmTraceReader raw_reader(samples + pair.dir + pair.program + "0_0.ptr.gz");
      CHECK(raw_reader.form() == DvmTraceForm::raw);
      CHECK(raw_reader.files().size() == 1);
      const std::vector<DvmCall> raw = read_all(raw_reader);
      REQUIRE(raw.size() == merged.size());
      for (std::size_t i = 0; i < raw.size(); ++i) {
        CAPTURE(i);
        CHECK(raw[i].function() == merged[i].function());
        CHECK(raw[i].call_time() == merged[i].call_time());
        CHECK(raw[i].ret_time() == merged[i].ret_time());
        CHECK(raw[i].source_line() == merged[i].source_line());
        CHECK(raw[i].source_file() == merged[i].source_file());
        CHECK(format_dvm_call(raw[i]) == format_dvm_call(merged[i]));
      }
      REQUIRE(raw_reader.end_event() != nullptr);

      // Read as it is, the raw file keeps the measured ret TIMEs of the collective calls.
      const std::vector<DvmCall> as_is =
          read_all(samples + pair.dir + pair.program + "0_0.ptr.gz", DvmTraceForm::merged);
      REQUIRE(as_is.size() == raw.size());
      int replaced = 0;
      for (std::size_t i = 0; i < raw.size(); ++i) {
        CHECK(as_is[i].call_time() == raw[i].call_time());
        if (as_is[i].ret_time() == raw[i].ret_time()) continue;
        ++replaced;
        CAPTURE(raw[i].name());
        CHECK(raw[i].ret_time() == 0.000001);
        const DvmFunction f = raw[i].function();
        CHECK((f == DvmFunction::strtrd || f == DvmFunction::strtsh || f == DvmFunction::waitrd ||
               f == DvmFunction::waitsh || f == DvmFunction::redis || f == DvmFunction::realn ||
               f == DvmFunction::arrcpy));
      }
      CHECK(replaced == pair.replaced_ret_times);
    }
  }

  TEST_CASE("DvmTraceReader merges the raw files of several processors") {
    // raw2/prog0_0.ptr (ProcCount=2) and raw2/prog1_1.ptr.gz: processor 1 has one more call,
    // getsiz_ at LINE=11, which only it contributes.
    DvmTraceReader reader(fixtures + "raw2/prog0_0.ptr");
    CHECK(reader.form() == DvmTraceForm::raw);
    CHECK(reader.files() == std::vector<std::string>{fixtures + "raw2/prog0_0.ptr", fixtures + "raw2/prog1_1.ptr.gz"});
    CHECK(reader.preamble().proc_count == 2);
    CHECK(reader.preamble().init_line == 5);
    const std::vector<DvmCall> calls = read_all(reader);
    REQUIRE(calls.size() == 4);
    // crtda_: call TIMEs summed 1e-6 + 3e-6, ret TIMEs averaged (2e-6 + 4e-6) / 2; the
    // parameters are processor 0's.
    CHECK(calls[0].name() == "crtda_");
    CHECK(calls[0].call_time() == 0.000004);
    CHECK(calls[0].ret_time() == 0.000003);
    CHECK(calls[0].handle("ArrayHeader") == 0xa0);
    CHECK(ints(calls[0].array("SizeArray")) == Ints{4});
    CHECK(calls[0].ret_handle("ArrayHandlePtr") == 0xb0);
    CHECK(calls[0].trace_path() == fixtures + "raw2/prog0_0.ptr");
    CHECK(calls[0].trace_line() == 7);
    // getsiz_ from processor 1 alone, with its parameters and lines.
    CHECK(calls[1].name() == "getsiz_");
    CHECK(calls[1].call_time() == 0.00000007);
    CHECK(calls[1].ret_time() == 0.00000009);
    CHECK(calls[1].handle("ObjectRef") == 0xe1);
    CHECK(calls[1].trace_path() == fixtures + "raw2/prog1_1.ptr.gz");
    CHECK(calls[1].trace_line() == 10);
    // strtsh_: call TIMEs summed 3.01e-6 + 1e-6; the ret TIME of a shadow start is 1 us.
    CHECK(calls[2].name() == "strtsh_");
    CHECK(calls[2].call_time() == 0.00000401);
    CHECK(calls[2].ret_time() == 0.000001);
    CHECK(calls[2].handle("ShadowGroupRef") == 0xc0);
    // dopl_: call 3e-8 + 2e-8 = 5e-8; ret (3e-8 + 2e-8) / 2 = 2.5e-8 printed with 8 decimals
    // is "0.00000002" (the double 2.5e-8 lies just below the tie).
    CHECK(calls[3].call_time() == 0.00000005);
    CHECK(calls[3].ret_time() == 0.00000002);
    CHECK(calls[3].ret_integer("DoPL") == 0);
    // The end is processor 0's Event_ line.
    REQUIRE(reader.end_event() != nullptr);
    CHECK(reader.end_event()->time == 0.00000314);
    CHECK(reader.end_event()->source_line == 20);
    CHECK(reader.end_event()->trace_line == 20);
  }

  TEST_CASE("DvmTraceReader finds the raw files when prog.ptr is missing") {
    DvmTraceReader reader(fixtures + "raw2/prog.ptr");
    CHECK(reader.form() == DvmTraceForm::raw);
    CHECK(reader.files().front() == fixtures + "raw2/prog0_0.ptr");
    CHECK(read_all(reader).size() == 4);
    // Asked to, it reads processor 0's raw file as it is, measured times and all.
    const std::vector<DvmCall> as_is = read_all(fixtures + "raw2/prog0_0.ptr", DvmTraceForm::merged);
    REQUIRE(as_is.size() == 3);
    CHECK(as_is[1].ret_time() == 0.000005);
    // A missing `.ptr` whose `.ptr.gz` exists reads that.
    DvmTraceReader by_plain_name(fixtures + "raw2/prog1_1.ptr");
    CHECK(by_plain_name.form() == DvmTraceForm::merged);
    CHECK(by_plain_name.files().front() == fixtures + "raw2/prog1_1.ptr.gz");
  }

  TEST_CASE("DvmTraceReader reports a broken trace with file line and message") {
    const std::vector<std::tuple<std::string, int, std::string>> cases{
        {"bad_time.ptr", 7, "call_crtda_: '0.0x01' is not a number (TIME)"},
        {"bad_missing_line.ptr", 7,
         "call_crtda_: missing 'LINE=' (expected: call_crtda_ TIME=<seconds> LINE=<line> "
         "FILE=<file>)"},
        {"bad_missing_file.ptr", 10,
         "ret_crtda_: missing 'FILE=' (expected: ret_crtda_ TIME=<seconds> LINE=<line> "
         "FILE=<file>)"},
        {"bad_line_number.ptr", 12, "call_dopl_: 'x29' is not a line number (LINE)"},
        {"bad_negative_time.ptr", 14, "ret_dopl_: TIME=-0.00000100 is negative"},
        {"bad_function_name.ptr", 12, "call_ without a function name"},
        {"bad_hex.ptr", 8, "crtda_: '51g468' is not a hexadecimal handle (parameter 'ArrayHeader')"},
        {"bad_integer.ptr", 8, "crtda_: 'two' is not an integer (parameter 'Rank')"},
        {"bad_array_gap.ptr", 9, "crtda_: 'SizeArray[2]' but no 'SizeArray[1]' before it"},
        {"bad_real.ptr", 13, "across_: 'fast' is not a number (parameter 'PipeLinePar')"},
        {"bad_nested_call.ptr", 10, "call_align_ while call_crtda_ (line 7) has no ret_crtda_"},
        {"bad_ret_mismatch.ptr", 10, "ret_align_ does not match call_crtda_ (line 7)"},
        {"bad_ret_without_call.ptr", 12, "ret_crtda_ without a call_crtda_"},
        {"bad_event_in_call.ptr", 14, "Event_dvm_exit while call_dopl_ (line 12) has no ret_dopl_"},
        {"bad_eof_in_call.ptr", 13, "end of file inside call_dopl_ (line 12): no ret_dopl_"},
        {"bad_no_event.ptr", 15, "end of file without an 'Event_' line (truncated trace?)"},
        {"bad_missing_vproccount.ptr", 6, "the preamble (up to ret_dvm_Init) has no 'VProcCount=' (required)"},
        {"bad_vproccount.ptr", 3, "preamble: 'x' is not an integer (parameter 'VProcCount')"},
        {"bad_no_init.ptr", 15, "not a Lib-DVM trace: no ret_dvm_Init line ends the preamble"},
        {"bad_event_in_preamble.ptr", 5, "Event_dvm_exit before ret_dvm_Init, the end of the preamble"},
    };
    for (const auto& [file, line, message] : cases) {
      CAPTURE(file);
      const std::string expected = broken + file + ":" + std::to_string(line) + ": error: " + message;
      CHECK(read_error(broken + file) == expected);
      CHECK_THROWS_WITH_AS(read_all(broken + file), contains(expected), TraceError);
    }
    CHECK_THROWS_WITH_AS(read_all(broken + "bad_hex.ptr"),
                         doctest::Contains("bad_hex.ptr:8: error: crtda_: '51g468' is not a "
                                           "hexadecimal handle (parameter 'ArrayHeader')"),
                         TraceError);
    CHECK_THROWS_WITH_AS(read_all(broken + "bad_truncated.ptr.gz"),
                         doctest::Contains("bad_truncated.ptr.gz:6: error: corrupt gzip data: "
                                           "unexpected end of file"),
                         TraceError);
    CHECK_THROWS_WITH_AS(read_all(broken + "no_such_trace.ptr"),
                         doctest::Contains("no_such_trace.ptr: error: cannot open: No such file"), TraceError);
  }

  TEST_CASE("DvmTraceReader reports broken raw trace sets") {
    CHECK_THROWS_WITH_AS(read_all(broken + "bad_raw_missing/prog0_0.ptr"),
                         contains("bad_raw_missing/prog0_0.ptr: error: ProcCount=3 but processor 2 has "
                                  "no raw trace '" +
                                  broken + "bad_raw_missing/prog2_2.ptr' (nor .gz, .zst)"),
                         TraceError);
    CHECK_THROWS_WITH_AS(read_all(broken + "bad_raw_truncated/prog0_0.ptr"),
                         doctest::Contains("bad_raw_truncated/prog1_1.ptr:13: error: end of file "
                                           "without an 'Event_' line (truncated trace?)"),
                         TraceError);
    CHECK_THROWS_WITH_AS(DvmTraceReader(fixtures + "all_kinds.txt", DvmTraceForm::raw),
                         doctest::Contains("all_kinds.txt: error: a raw Lib-DVM trace is named "
                                           "<prog>0_0.ptr"),
                         TraceError);
  }

  TEST_CASE("DvmCall names a missing or unconvertible parameter and its line") {
    const std::vector<DvmCall> calls = read_all(fixtures + "all_kinds.ptr");
    const std::string file = fixtures + "all_kinds.ptr";
    CHECK_THROWS_WITH_AS(calls[0].integer("Nope"),
                         contains(file + ":14: error: crtda_: missing parameter 'Nope' "
                                         "(call side)"),
                         TraceError);
    CHECK_THROWS_WITH_AS(calls[0].ret_handle("ArrayHeader"),
                         contains(file + ":19: error: crtda_: missing parameter "
                                         "'ArrayHeader' (ret side)"),
                         TraceError);
    CHECK_THROWS_WITH_AS(calls[0].array("Rank"),
                         contains(file + ":14: error: crtda_: missing parameter "
                                         "'Rank[]' (call side)"),
                         TraceError);
    CHECK_THROWS_WITH_AS(calls[6].integer("Res", DvmSide::ret),
                         contains(file + ":51: error: dvm_fopen: '106d7d8' is not an "
                                         "integer (parameter 'Res')"),
                         TraceError);
    CHECK_THROWS_WITH_AS(calls[6].handle("Filename"),
                         contains(file + ":48: error: dvm_fopen: 'jacobi.dat' is not a "
                                         "hexadecimal handle (parameter 'Filename')"),
                         TraceError);
    CHECK_FALSE(calls[0].find_integer("Nope").has_value());
    CHECK_FALSE(calls[0].find_handle("Rank", DvmSide::ret).has_value());
    CHECK_FALSE(calls[0].find_array("Nope").has_value());
    CHECK(calls[0].find_integer("Rank") == 2);
    // Asking a handle as an integer is a mistake of the caller, not of the trace.
    CHECK_THROWS_AS(calls[0].integer("ArrayHeader"), std::logic_error);
    CHECK_THROWS_AS(calls[0].handle("Rank"), std::logic_error);
  }

  TEST_CASE("DvmTraceReader warns about an unexpected RTS version") {
    TempDir dir;
    std::ifstream in(fixtures + "all_kinds.ptr");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string newer = dir.file("newer.ptr");
    write_file(newer, std::string(text).replace(text.find("2889"), 4, "2901"));
    DvmTraceReader reader(newer);
    CHECK(reader.preamble().rts_version == 2901);
    REQUIRE_FALSE(reader.warnings().empty());
    CHECK(reader.warnings().front() == newer +
                                           ":2: warning: RTS VERSION = 2901: Predictor 3.1 expects 2884 and the sample "
                                           "traces are 2889; reading on");
    const std::string headless = dir.file("headless.ptr");
    write_file(headless, text.substr(text.find("ProcCount")));
    DvmTraceReader second(headless);
    CHECK(second.preamble().rts_version == 0);
    REQUIRE_FALSE(second.warnings().empty());
    CHECK(second.warnings().front() == headless +
                                           ":1: warning: the first line is not 'RTS VERSION = <n>': is this a Lib-DVM "
                                           "trace?");
    CHECK(read_all(second).size() == 10);
  }

  TEST_CASE("DvmCall keeps its values when copied and reused") {
    DvmTraceReader reader(fixtures + "all_kinds.ptr");
    DvmCall call;
    REQUIRE(reader.next(call));
    const DvmCall first = call;
    REQUIRE(reader.next(call));
    CHECK(call.name() == "align_");
    CHECK(first.name() == "crtda_");
    CHECK(ints(first.array("SizeArray")) == Ints{8, 16});
    CHECK(first.ret_handle("ArrayHandlePtr") == 0x106c8a8);
    CHECK_FALSE(call.has("SizeArray"));
  }

  TEST_CASE("DvmTraceReader reads the largest sample fast") {
    // Information only: MB/s of trace text turned into calls, by the wall clock and by the
    // process's CPU time (other jobs share the machine); Debug builds are much slower.
    const std::string path = samples + "programs/tsk/std/tsk.ptr";
    const auto bytes = static_cast<double>(fs::file_size(path));
    constexpr int rounds = 20;
    std::size_t calls = 0;
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    DvmCall call;
    for (int round = 0; round < rounds; ++round) {
      DvmTraceReader reader(path);
      while (reader.next(call)) ++calls;
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / static_cast<double>(CLOCKS_PER_SEC);
    CHECK(calls == std::size_t{791} * rounds);
    const double megabytes = bytes * rounds / 1e6;
    MESSAGE("Lib-DVM reader: " << megabytes / seconds.count() << " MB/s wall, "
                               << megabytes / std::max(cpu_seconds, 1e-9) << " MB/s CPU (" << rounds << " x tsk.ptr, "
                               << bytes / 1e3 << " kB)");
  }
}
