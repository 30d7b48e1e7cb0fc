// The Jacobi-like Lib-DVM trace of tools/bench/dvm_gen, written frame by frame into a 1 MiB
// buffer handed to a plain, gzip or zstd file. The layout follows ../shared/dvm-samples/jac1d.ptr
// (and jac/L200_int/jac.ptr for the interval calls) line for line.
#include "tools/bench/synthetic_dvm_writer.hpp"

#include <string>

#include "tools/bench/compressed_file.hpp"
#include "tools/bench/dvm_trace_text.hpp"

namespace augur::bench {

namespace {

/// Handles the runtime would print (`%lx`); fixed, as a runtime reusing its objects prints them.
namespace handle {
constexpr std::string_view am = "525e34", am_ptr = "52fde0";
constexpr std::string_view ps = "5217e0", ps_ptr = "52fe70";
constexpr std::string_view amv = "106a618", amv_ptr = "52fe68";
constexpr std::string_view a_header = "51b468", a_handle = "106c8a8", a_data = "106d0a8";
constexpr std::string_view b_header = "51b474", b_handle = "106d008", b_data = "106d828";
constexpr std::string_view loop = "106d7d8";
constexpr std::string_view red_group = "106f188", red_group_ptr = "12fef0";
constexpr std::string_view red = "106f4f0", red_ptr = "52fde8", red_var = "52fe60", red_loc = "51b440";
constexpr std::string_view shadow_group = "106f258", shadow_group_ptr = "12fec4";
constexpr std::string_view comm = "1068e9c", group = "1068ea0";
constexpr std::string_view stream = "106d7d8";
}  // namespace handle

/// Source lines of the C-DVM program the events point at.
namespace src {
constexpr int init = 25, declare_a = 20, declare_b = 21, init_loop = 29, iterations = 38, loop1 = 40, loop1_end = 46,
              loop2 = 48, loop2_end = 53, print = 54, iterations_end = 55, output = 57, exit = 59;
}  // namespace src

class Writer : DvmTraceText {
 public:
  using DvmTraceText::DvmTraceText;

  WrittenDvmTrace run() {
    preamble(src::init);
    program();
    flush();
    return written_;
  }

 private:
  void interval(std::string_view name, int source_line, std::string_view params) {
    call(name, overhead(), source_line, [&] { line(params); });
    ret(name, overhead(), source_line);
  }

  void program() {
    const std::int64_t n = spec_.size;
    if (spec_.intervals) interval("bsloop_", src::declare_a, "nfrag=-1;");
    distribute_template();
    // The arrays A (aligned with the template) and B (aligned with A).
    create_array(handle::a_header, handle::a_handle, 3, src::declare_a);
    align_array(handle::a_header, handle::a_handle, handle::amv_ptr, handle::amv, "AMView", handle::a_data,
                src::declare_a);
    create_array(handle::b_header, handle::b_handle, 2, src::declare_b);
    align_array(handle::b_header, handle::b_handle, handle::a_header, handle::a_handle, "DisArray", handle::b_data,
                src::declare_b);
    printf_call(src::declare_b, "Format=JAC1 STARTED");
    // The initialising loop over the whole arrays.
    parallel_loop_header(src::init_loop, "12ff24", handle::a_header, handle::a_handle, 0, n - 1);
    loop_body("12ff24", src::init_loop, elements(n));
    end_loop("12ff24", src::init_loop);

    if (spec_.intervals) interval("bsloop_", src::iterations, "nfrag=1;");
    for (std::uint64_t it = 0; it < spec_.iterations; ++it) iteration();
    if (spec_.intervals) {
      std::string params = "nfrag=1; nline=" + std::to_string(src::iterations);
      interval("enloop_", src::iterations_end, params);
    }

    write_result();
    header("Event_", "dvm_exit", overhead(), src::exit);
    line("rc=0;");
    trailer();
  }

  /// The processor system, the template and its distribution.
  void distribute_template() {
    const std::int64_t n = spec_.size;
    const int rank = spec_.rank;
    call("getam_", overhead(), src::declare_a);
    ret("getam_", overhead(), src::declare_a, [&] {
      raw("AMRef=");
      raw(handle::am);
      line(";");
    });
    call("getps_", overhead(), src::declare_a, [&] { line("AMRefPtr=NULL; AMRef=0;"); });
    ret("getps_", overhead(), src::declare_a, [&] {
      raw("PSRef=");
      raw(handle::ps);
      line(";");
    });
    call("crtamv_", overhead(), src::declare_a, [&] {
      raw("AMRefPtr=");
      raw(handle::am_ptr);
      raw("; AMRef=");
      raw(handle::am);
      raw("; Rank=");
      number(rank);
      line("; StaticSign=0;");
      array("SizeArray", n);
    });
    ret("crtamv_", overhead(), src::declare_a, [&] {
      raw("AMViewRef=");
      raw(handle::amv);
      line(";");
    });
    call("blkdiv_", overhead(), src::declare_a, [&] {
      raw("AMViewRefPtr=");
      raw(handle::amv_ptr);
      raw("; AMViewRef=");
      raw(handle::amv);
      raw("; AMVAxisCount=");
      number(rank);
      end_line();
      for (int d = 0; d < rank; ++d) {
        if (d > 0) raw(" ");
        raw("AMVAxisDiv[");
        number(d);
        raw("]=1");
      }
      raw("  ");
      end_line();
    });
    ret("blkdiv_", overhead(), src::declare_a);
    call("distr_", overhead(), src::declare_a, [&] {
      raw("AMViewRefPtr=");
      raw(handle::amv_ptr);
      raw("; AMViewRef=");
      raw(handle::amv);
      raw("; PSRefPtr=");
      raw(handle::ps_ptr);
      raw("; PSRef=");
      raw(handle::ps);
      raw("; ParamCount=");
      number(rank);
      line(";");
      array_of("AxisArray", [](int d) { return std::int64_t{d} + 1; });
      array("DistrParamArray", 0);
      line("ProcCount=1  HasCurrent=1  CentralProc=0  IOProc=0");
    });
    ret("distr_", overhead(), src::declare_a, [&] { line("IsLocal=1;"); });
  }

  /// The result written to a file.
  void write_result() {
    const std::int64_t n = spec_.size;
    call("dvm_fopen", overhead(), src::output, [&] { line("Filename=jacobi.dat; Type=wb;"); });
    ret(
        "dvm_fopen", overhead(), src::output,
        [&] {
          raw("Res=");
          raw(handle::stream);
          line(";");
        },
        Charge::io);
    call("dvm_fwrite", overhead(), src::output, [&] {
      raw("ArrayHeader=");
      raw(handle::b_header);
      raw("; ArrayHandlePtr=");
      raw(handle::b_handle);
      raw("; Size=8; Count=");
      number(elements(n));
      raw("; Stream=");
      raw(handle::stream);
      line(";");
    });
    ret(
        "dvm_fwrite", overhead(), src::output,
        [&] {
          raw("Res=");
          number(elements(n));
          line(";");
        },
        Charge::io, true);
  }

  void iteration() {
    reduction_loop();
    shadow_loop();
    printf_call(src::print, "Format=it=%4i   eps=%f");
  }

  /// Loop 1 on A: eps = max |B - A|; A = B (a MAX reduction of one double).
  void reduction_loop() {
    const std::int64_t n = spec_.size;
    const std::int64_t inner = elements(n - 2);
    if (spec_.intervals) interval("bploop_", src::loop1, "nfrag=2");
    parallel_loop_header(src::loop1, "12ff10", handle::a_header, handle::a_handle, 1, n - 2);
    call("crtrg_", overhead(), src::loop1, [&] { line("StaticSign=1; DelRedSign=1;"); });
    ret("crtrg_", overhead(), src::loop1, [&] {
      raw("RedGroupRef=");
      raw(handle::red_group);
      line(";");
    });
    call("crtred_", overhead(), src::loop1, [&] {
      raw("RedFuncNumb=3; RedArrayPtr=");
      raw(handle::red_var);
      raw("; RedArrayType=4; RedArrayLength=1; LocArrayPtr=");
      raw(handle::red_loc);
      line("; LocElmLength=0; StaticSign=1;");
    });
    ret("crtred_", overhead(), src::loop1, [&] {
      raw("RedRef=");
      raw(handle::red);
      line(";");
    });
    call("insred_", overhead(), src::loop1, [&] {
      raw("RedGroupRefPtr=");
      raw(handle::red_group_ptr);
      raw("; RedGroupRef=");
      raw(handle::red_group);
      raw("; RedRefPtr=");
      raw(handle::red_ptr);
      raw("; RedRef=");
      raw(handle::red);
      raw("; LoopRefPtr=12fef4; LoopRef=");
      raw(handle::loop);
      line("; RenewSign=1;");
    });
    ret("insred_", overhead(), src::loop1);
    loop_body("12ff10", src::loop1, inner);
    auto group = [&] {
      raw("RedGroupRefPtr=");
      raw(handle::red_group_ptr);
      raw("; RedGroupRef=");
      raw(handle::red_group);
      line(";");
    };
    call("strtrd_", overhead(), src::loop1, [&] {
      group();
      line("*** MPI_Comm Information ***");
      raw("&MPI_Comm=");
      raw(handle::comm);
      raw("; &MPI_Group=");
      raw(handle::group);
      line("; ProcNumber=1; time=0.000000;");
      line("MPI_Group:    0");
      line("*** MPI_Allreduce ***");
      raw("VarCount=1; MPI_Datatype=MPI_DOUBLE; MPI_Op=MPI_MAX; &MPI_Comm=");
      raw(handle::comm);
      line(";");
      line("*** DoNotMPIRed = 0");
    });
    ret("strtrd_", 100, src::loop1);  // the merge's 0.000001
    call("waitrd_", overhead(), src::loop1, group);
    ret("waitrd_", 100, src::loop1);
    call("delrg_", overhead(), src::loop1, group);
    ret("delrg_", overhead(), src::loop1);
    end_loop("12ff10", src::loop1);
    if (spec_.intervals) {
      std::string params = "nfrag=2; nline=" + std::to_string(src::loop1);
      interval("enloop_", src::loop1_end, params);
    }
  }

  /// Loop 2 on B: B = mean of A's neighbours, after renewing A's shadow edges.
  void shadow_loop() {
    const std::int64_t n = spec_.size;
    const std::int64_t inner = elements(n - 2);
    if (spec_.intervals) interval("bploop_", src::loop2, "nfrag=3");
    call("crtpl_", overhead(), src::loop2, [&] {
      raw("Rank=");
      number(spec_.rank);
      line(";");
    });
    ret("crtpl_", overhead(), src::loop2, [&] {
      raw("LoopRef=");
      raw(handle::loop);
      line(";");
    });
    auto shadow_group = [&] {
      raw("ShadowGroupRefPtr=");
      raw(handle::shadow_group_ptr);
      raw("; ShadowGroupRef=");
      raw(handle::shadow_group);
      line(";");
    };
    call("crtshg_", overhead(), src::loop2, [&] { line("StaticSign=0;"); });
    ret("crtshg_", overhead(), src::loop2, [&] {
      raw("ShadowGroupRef=");
      raw(handle::shadow_group);
      line(";");
    });
    call("inssh_", overhead(), src::loop2, [&] {
      raw("ShadowGroupRefPtr=");
      raw(handle::shadow_group_ptr);
      raw("; ShadowGroupRef=");
      raw(handle::shadow_group);
      raw("; ArrayHeader=");
      raw(handle::a_header);
      raw("; ArrayHandlePtr=");
      raw(handle::a_handle);
      line("; FullShdSign=0;");
      array("LowShdWidthArray", 1);
      array("HiShdWidthArray", 1);
    });
    ret("inssh_", overhead(), src::loop2);
    call("strtsh_", overhead(), src::loop2, shadow_group);
    ret("strtsh_", 100, src::loop2);
    call("waitsh_", overhead(), src::loop2, shadow_group);
    ret("waitsh_", 100, src::loop2);
    call("delshg_", overhead(), src::loop2, shadow_group);
    ret("delshg_", overhead(), src::loop2);
    map_loop(src::loop2, "12fed8", handle::b_header, handle::b_handle, 1, n - 2);
    loop_body("12fed8", src::loop2, inner);
    end_loop("12fed8", src::loop2);
    if (spec_.intervals) {
      std::string params = "nfrag=3; nline=" + std::to_string(src::loop2);
      interval("enloop_", src::loop2_end, params);
    }
  }

  void create_array(std::string_view header_ref, std::string_view handle_ref, int redistr, int source_line) {
    call("crtda_", overhead(), source_line, [&] {
      raw("ArrayHeader=");
      raw(header_ref);
      raw("; ExtHdrSign=0; BasePtr=0; Rank=");
      number(spec_.rank);
      raw("; TypeSize=8; StaticSign=0; ReDistrSign=");
      number(redistr);
      line(";");
      array("SizeArray", spec_.size);
      array("LowShdWidthArray", 1);
      array("HiShdWidthArray", 1);
    });
    ret(
        "crtda_", overhead(), source_line,
        [&] {
          raw("ArrayHandlePtr=");
          raw(handle_ref);
          line(";");
        },
        Charge::silent);
  }

  void align_array(std::string_view header_ref, std::string_view handle_ref, std::string_view pattern_ptr,
                   std::string_view pattern, std::string_view marker, std::string_view data, int source_line) {
    call("align_", overhead(), source_line, [&] {
      raw("ArrayHeader=");
      raw(header_ref);
      raw("; ArrayHandlePtr=");
      raw(handle_ref);
      raw("; PatternRefPtr=");
      raw(pattern_ptr);
      raw("; PatternRef=");
      raw(pattern);
      raw(" (");
      raw(marker);
      line(");");
      array_of("AxisArray", [](int d) { return std::int64_t{d} + 1; });
      array("CoeffArray", 1);
      array("ConstArray", 0);
      raw("DArr->ArrBlock.ALoc.Ptr0=");
      raw(data);
      raw("  DArr->ArrBlock.ALoc.Ptr=");
      raw(data);
      raw("  Size=");
      number(elements(spec_.size + 2) * 8);
      end_line();
    });
    ret(
        "align_", overhead(), source_line, [&] { line("IsLocal=1"); }, Charge::silent);
  }

  void printf_call(int source_line, std::string_view format) {
    call("dvm_void_printf", overhead(), source_line, [&] { line(format); });
    ret(
        "dvm_void_printf", overhead(), source_line, [] {}, Charge::io);
  }

  /// crtpl_ and mappl_ of a loop over [lo, hi] on every axis, mapped on an array.
  void parallel_loop_header(int source_line, std::string_view loop_ptr, std::string_view pattern_ptr,
                            std::string_view pattern, std::int64_t lo, std::int64_t hi) {
    call("crtpl_", overhead(), source_line, [&] {
      raw("Rank=");
      number(spec_.rank);
      line(";");
    });
    ret("crtpl_", overhead(), source_line, [&] {
      raw("LoopRef=");
      raw(handle::loop);
      line(";");
    });
    map_loop(source_line, loop_ptr, pattern_ptr, pattern, lo, hi);
  }

  void map_loop(int source_line, std::string_view loop_ptr, std::string_view pattern_ptr, std::string_view pattern,
                std::int64_t lo, std::int64_t hi) {
    call("mappl_", overhead(), source_line, [&] {
      raw("LoopRefPtr=");
      raw(loop_ptr);
      raw("; LoopRef=");
      raw(handle::loop);
      raw("; PatternRefPtr=");
      raw(pattern_ptr);
      raw("; PatternRef=");
      raw(pattern);
      line(" (DisArray);");
      array_of("AxisArray", [](int d) { return std::int64_t{d} + 1; });
      array("CoeffArray", 1);
      array("ConstArray", 0);
      array("LoopVarAddrArray", 0);
      array("LoopVarTypeArray", 1);
      array("InInitIndexArray", lo);
      array("InLastIndexArray", hi);
      array("InStepArray", 1);
    });
    ret("mappl_", overhead(), source_line, [&] { line("IsLocal=1;"); });
  }

  /// The two dopl_ calls of a loop: the first enters the portion, the second's call TIME is
  /// its work (`elements` × t) and its ret says the loop is done.
  void loop_body(std::string_view loop_ptr, int source_line, std::int64_t count) {
    auto params = [&] {
      raw("LoopRefPtr=");
      raw(loop_ptr);
      raw("; LoopRef=");
      raw(handle::loop);
      line(";");
    };
    call("dopl_", overhead(), source_line, params);
    ret("dopl_", overhead(), source_line, [&] { line("DoPL=1;"); });
    call("dopl_", work(count), source_line, params);
    ret("dopl_", overhead(), source_line, [&] { line("DoPL=0;"); });
  }

  void end_loop(std::string_view loop_ptr, int source_line) {
    call("endpl_", overhead(), source_line, [&] {
      raw("LoopRefPtr=");
      raw(loop_ptr);
      raw("; LoopRef=");
      raw(handle::loop);
      line(";");
    });
    ret("endpl_", overhead(), source_line);
  }

  /// What the runtime writes after Event_dvm_exit (not read by any reader).
  void trailer() {
    header("call_", "dvm_void_printf", overhead(), src::exit);
    line("Format= ");
    end_line();
    header("ret_", "dvm_void_printf", overhead(), src::exit);
    line(" ");
    end_line();
    line("RTS VERSION = 2889");
    end_line();
    for (const char* part : {"syspar  ", "sysdebug", "systrace", "trcevent", "usrdebug", "statist "}) {
      raw(part);
      line(" file version = 2889 (min vers = 2889)");
    }
    end_line();
    line("DACount=       2; DVMObjCount=       0;");
    for (std::string_view h : {handle::a_header, handle::b_header}) {
      raw("          ");
      raw(h);
      line("                      ");
    }
    line("    TaskTime=0.015100;   TaskTraceTime=0.005687;");
    line("  SystemTime=0.028387; SystemTraceTime=0.017946;");
  }
};

}  // namespace

WrittenDvmTrace write_dvm_jacobi(const DvmJacobiSpec& spec, const std::string& path, int level) {
  CompressedFile file(path, compression_of(path), level);
  Writer writer(spec, file);
  WrittenDvmTrace written = writer.run();
  written.bytes = file.close();
  return written;
}

}  // namespace augur::bench
