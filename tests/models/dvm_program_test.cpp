// The DVM runtime model on the engine against hand computations: small hand-made Lib-DVM traces
// replayed by DvmProgram with the characteristics observer and Integrate, on the seed's machines
// (bus and transputer grid, CostStyle::seed; spec 6.2, 6.3, 8): reductions (StartR), shadow
// exchanges (GetCost), realn_ and redis_ (the transfer matrix of old vs new blocks), dopl_ with
// replicated iterations, I/O (an I/O function, srmem_, biof_ … eiof_) and nested intervals.
#include "models/dvm/dvm_program.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/scheduler.hpp"
#include "machines/bus/bus_machine.hpp"
#include "machines/transputer_grid/transputer_grid_machine.hpp"
#include "models/analysis/dvm_characteristics.hpp"
#include "models/analysis/dvm_wait_states.hpp"
#include "tests/support/files.hpp"
#include "traces/libdvm/dvm_trace_reader.hpp"
#include "tools/bench/synthetic_dvm_writer.hpp"

namespace {

using augur::machines::MachineModel;
using augur::models::analysis::IntegrateRule;
using augur::models::analysis::Interval;
using augur::models::analysis::IntervalTree;
using augur::models::analysis::OpKind;
using augur::models::dvm::CostStyle;
using augur::models::dvm::DvmOptions;
using augur::models::dvm::DvmProgram;

/// Ts = 100us, Tb = 1us per byte: a message of n bytes takes (100 + n)us.
augur::machines::ParamSet seed_params(const char* model) {
  augur::machines::ParamSet params(
      model == std::string_view("bus") ? augur::machines::bus_params() : augur::machines::transputer_grid_params(),
      model);
  params.set("start_time", "100us");
  params.set("byte_time", "1us");
  return params;
}

std::unique_ptr<MachineModel> bus(int processors) {
  return std::make_unique<augur::machines::BusMachine>(seed_params("bus"), processors);
}
/// A transputer grid without a grid of its own: it takes the run's processor grid.
std::unique_ptr<MachineModel> transputer(int processors) {
  return std::make_unique<augur::machines::TransputerGridMachine>(seed_params("transputer_grid"), processors);
}

/// One call of a trace: `call_NAME TIME=…`, its parameter lines, `ret_NAME TIME=…`, the ret's.
std::string call(std::string_view name, double call_time, std::string_view params = "", double ret_time = 0,
                 std::string_view ret_params = "") {
  return fmt::format(
      "call_{:<22} TIME={:.8f} LINE=7     FILE=t.cdv\n{}ret_{:<23} TIME={:.8f} LINE=7     FILE=t.cdv\n{}\n", name,
      call_time, params, name, ret_time, ret_params);
}

/// The preamble up to ret_dvm_Init, the calls, and the closing Event_ line.
std::string trace(const std::string& calls) {
  return "RTS VERSION = 2889\n"
         "ProcCount=1  HasCurrent=1  CentralProc=0  IOProc=0\n"
         "ProcCount=1;      PSRank=1;      PSSize= 1;\n"
         "VProcCount=1;\n"
         "call_mps_Barrier           TIME=0.00000000 LINE=1     FILE=t.cdv\n"
         "ret_mps_Barrier            TIME=0.00000000 LINE=1     FILE=t.cdv\n"
         "ret_dvm_Init               TIME=0.00000000 LINE=1     FILE=t.cdv\n\n" +
         calls + "Event_dvm_exit             TIME=0.00000000 LINE=9     FILE=t.cdv\n";
}

int processor_count(const std::vector<int>& grid) {
  int processors = 1;
  for (int g : grid) processors *= g;
  return processors;
}

/// A run's interval tree after Integrate.
struct Run {
  std::unique_ptr<IntervalTree> tree;
  const Interval& root() const { return tree->root(); }
};

/// Replays `calls` on `grid` with `machine` as the runner does: the characteristics observer,
/// the intervals closed, Integrate with 3.1's rule.
Run run(const std::string& calls, MachineModel& machine, std::vector<int> grid, CostStyle cost = CostStyle::seed) {
  augur::test::TempDir dir;
  const std::string path = dir.file("t.ptr");
  augur::test::write_file(path, trace(calls));
  augur::traces::libdvm::DvmTraceReader reader(path);
  const int processors = processor_count(grid);
  Run r;
  r.tree = std::make_unique<IntervalTree>(processors);
  DvmOptions options;
  options.grid = grid;
  options.cost = cost;
  DvmProgram program(reader, machine, *r.tree, options);
  augur::engine::Scheduler scheduler(static_cast<std::uint32_t>(processors));
  augur::models::analysis::DvmCharacteristics observer(*r.tree, static_cast<std::uint32_t>(processors));
  scheduler.add_observer(&observer);
  const auto result = scheduler.run(program);
  REQUIRE_MESSAGE(result.outcome == augur::engine::RunOutcome::completed, result.message);
  program.close_intervals();
  r.tree->integrate(IntegrateRule::predictor);
  return r;
}

doctest::Approx seconds(double value) { return doctest::Approx(value).epsilon(1e-9); }

/// `calls` with every LINE= set to `line` (the builders below write LINE=7).
std::string at_line(std::string calls, int line) {
  const std::string from = "LINE=7     ", to = fmt::format("LINE={:<6}", line);
  for (auto at = calls.find(from); at != std::string::npos; at = calls.find(from, at + to.size())) {
    calls.replace(at, from.size(), to);
  }
  return calls;
}

/// The wait states of a run of `calls` (DvmWaitStates with the runner's wiring: regions by the
/// FILE= and LINE= of each processor's current call).
struct WaitsRun {
  std::vector<augur::models::analysis::LpWaits> lps;
  std::vector<augur::models::analysis::WaitAmount> by_operation;
  std::vector<double> explained;
  std::vector<augur::models::analysis::RegionCause> causes;
};

WaitsRun run_waits(const std::string& calls, MachineModel& machine, std::vector<int> grid, CostStyle cost) {
  augur::test::TempDir dir;
  const std::string path = dir.file("t.ptr");
  augur::test::write_file(path, trace(calls));
  augur::traces::libdvm::DvmTraceReader reader(path);
  const int processors = processor_count(grid);
  IntervalTree tree(processors);
  DvmOptions options;
  options.grid = grid;
  options.cost = cost;
  DvmProgram program(reader, machine, tree, options);
  augur::engine::Scheduler scheduler(static_cast<std::uint32_t>(processors));
  augur::models::analysis::DvmWaitStates waits(
      static_cast<std::uint32_t>(processors), program.statements(),
      [&program](std::uint32_t file) { return std::string(program.source_file(file)); });
  scheduler.add_observer(&waits);
  const auto result = scheduler.run(program);
  REQUIRE_MESSAGE(result.outcome == augur::engine::RunOutcome::completed, result.message);
  return WaitsRun{waits.take_lps(), waits.by_operation(), waits.explained_by_operation(), waits.causes()};
}

/// A run of a trace file, with what the model kept of it.
struct FileRun {
  std::unique_ptr<IntervalTree> tree;
  DvmProgram::Footprint footprint;
  std::uint64_t decoded = 0;  ///< calls in the trace
};

FileRun run_file(const std::string& path, MachineModel& machine, std::vector<int> grid, CostStyle cost, bool memoise) {
  augur::traces::libdvm::DvmTraceReader reader(path);
  const int processors = processor_count(grid);
  FileRun r;
  r.tree = std::make_unique<IntervalTree>(processors);
  DvmOptions options;
  options.grid = grid;
  options.cost = cost;
  options.memoise = memoise;
  DvmProgram program(reader, machine, *r.tree, options);
  augur::engine::Scheduler scheduler(static_cast<std::uint32_t>(processors));
  augur::models::analysis::DvmCharacteristics observer(*r.tree, static_cast<std::uint32_t>(processors));
  scheduler.add_observer(&observer);
  const auto result = scheduler.run(program);
  REQUIRE_MESSAGE(result.outcome == augur::engine::RunOutcome::completed, result.message);
  program.close_intervals();
  r.tree->integrate(IntegrateRule::predictor);
  r.footprint = program.footprint();
  return r;
}

/// Every per-processor figure and total of every interval equal, bit for bit.
bool same_figures(const IntervalTree& a, const IntervalTree& b) {
  std::vector<const Interval*> xs, ys;
  a.for_each([&](const Interval& i) { xs.push_back(&i); });
  b.for_each([&](const Interval& i) { ys.push_back(&i); });
  if (xs.size() != ys.size()) return false;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const Interval& x = *xs[k];
    const Interval& y = *ys[k];
    if (x.procs.size() != y.procs.size() || x.operations != y.operations || x.exe_count != y.exe_count) return false;
    for (std::size_t p = 0; p < x.procs.size(); ++p) {
      if (std::memcmp(&x.procs[p], &y.procs[p], sizeof(x.procs[p])) != 0) return false;
      for (augur::models::analysis::OpKind kind : augur::models::analysis::all_op_kinds) {
        if (std::memcmp(&x.procs.op(p, kind), &y.procs.op(p, kind), sizeof(augur::models::analysis::OpTimes)) != 0)
          return false;
      }
    }
    if (std::memcmp(&x.totals, &y.totals, sizeof(x.totals)) != 0) return false;
  }
  return true;
}

// ---- the objects of the traces (handles in hex) ----------------------------------------------

/// Template A10 of `sizes` distributed with `axes` (AxisArray), array D10 of doubles (of
/// `array_sizes`, default the template's) aligned on it identically (shadow widths 1).
std::string template_and_array(const std::vector<int>& sizes, const std::vector<int>& axes,
                               std::vector<int> array_sizes = {}) {
  if (array_sizes.empty()) array_sizes = sizes;
  std::string size_list, array_size_list, axis_list, widths_low, widths_high, align;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    size_list += fmt::format("SizeArray[{}]={}; ", d, sizes[d]);
    array_size_list += fmt::format("SizeArray[{}]={}; ", d, array_sizes[d]);
    widths_low += fmt::format("LowShdWidthArray[{}]=1; ", d);
    widths_high += fmt::format("HiShdWidthArray[{}]=1; ", d);
    align += fmt::format("AxisArray[{}]={}; CoeffArray[{}]=1; ConstArray[{}]=0;\n", d, d + 1, d, d);
  }
  for (std::size_t d = 0; d < axes.size(); ++d) axis_list += fmt::format("AxisArray[{}]={}; ", d, axes[d]);
  return call("crtamv_", 0,
              fmt::format("AMRefPtr=NULL; AMRef=0; Rank={}; StaticSign=0;\n{}\n", sizes.size(), size_list), 0,
              "AMViewRef=a10;\n") +
         call("distr_", 0,
              fmt::format("AMViewRefPtr=1; AMViewRef=a10; PSRefPtr=NULL; PSRef=0; ParamCount={};\n{}\n", axes.size(),
                          axis_list)) +
         call(
             "crtda_", 0,
             fmt::format("ArrayHeader=d10; ExtHdrSign=0; BasePtr=0; Rank={}; TypeSize=8; StaticSign=0; ReDistrSign=0;\n"
                         "{}\n{}\n{}\n",
                         sizes.size(), array_size_list, widths_low, widths_high),
             0, "ArrayHandlePtr=1d10;\n") +
         call("align_", 0, "ArrayHeader=d10; ArrayHandlePtr=1d10; PatternRefPtr=1; PatternRef=a10 (AMView);\n" + align);
}

/// crtpl_ and mappl_ of loop 100 over `last` (0 … last[i], step 1) on array D10 identically.
std::string loop_on_array(const std::vector<int>& last) {
  std::string params = "LoopRefPtr=9; LoopRef=100; PatternRefPtr=d10; PatternRef=1d10 (DisArray);\n";
  for (std::size_t d = 0; d < last.size(); ++d) {
    params += fmt::format(
        "AxisArray[{}]={}; CoeffArray[{}]=1; ConstArray[{}]=0; InInitIndexArray[{}]=0; "
        "InLastIndexArray[{}]={}; InStepArray[{}]=1;\n",
        d, d + 1, d, d, d, d, last[d], d);
  }
  return call("crtpl_", 0, fmt::format("Rank={};\n", last.size()), 0, "LoopRef=100;\n") + call("mappl_", 0, params);
}

/// Reduction group 200 with one double (8 bytes) of variable 300.
std::string reduction_group() {
  return call("crtrg_", 0, "StaticSign=1; DelRedSign=1;\n", 0, "RedGroupRef=200;\n") +
         call("crtred_", 0,
              "RedFuncNumb=3; RedArrayPtr=1; RedArrayType=4; RedArrayLength=1; LocArrayPtr=2; LocElmLength=0; "
              "StaticSign=1;\n",
              0, "RedRef=300;\n") +
         call("insred_", 0, "RedGroupRefPtr=3; RedGroupRef=200; RedRefPtr=4; RedRef=300; LoopRefPtr=9; LoopRef=100;\n");
}

/// strtrd_ (call 100us, ret 20us) and waitrd_ (call 10us, ret 20us) of group 200.
std::string reduce() {
  return call("strtrd_", 100e-6, "RedGroupRefPtr=3; RedGroupRef=200;\n", 20e-6) +
         call("waitrd_", 10e-6, "RedGroupRefPtr=3; RedGroupRef=200;\n", 20e-6);
}

const std::string dopl_4ms = call("dopl_", 0.004, "LoopRefPtr=9; LoopRef=100;\n", 0, "DoPL=0;\n");

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("DvmProgram seed reduction on a bus and a transputer grid") {
    // 8x8 template and array on a 2x2 grid; the loop 0…7 × 0…7 on the array: 16 iterations of
    // N = 64 each, t_i = 4ms·16/64 = 1ms. strtrd_ at t0 = 1ms (no wait), then its call and ret
    // (120us): clock 1.12ms. waitrd_: t1 = t0 + StartR; every processor waits t1 − 1.12ms and
    // overlaps 1.12 − 1 = 0.12ms; then waitrd_'s call and ret (30us).
    const std::string calls = template_and_array({8, 8}, {1, 2}) + loop_on_array({7, 7}) + reduction_group() +
                              dopl_4ms + call("endpl_", 0, "LoopRefPtr=9; LoopRef=100;\n") + reduce();
    {
      // bus: (Ts + Tb·8)(B + L − 2) = 108us · (4 + 4 − 2) = 648us → t1 = 1.648ms, wait 0.528ms
      auto m = bus(4);
      const Run r = run(calls, *m, {2, 2});
      const auto& t = r.root().totals;
      CHECK(t.nop(OpKind::reduction) == 1);
      CHECK(r.root().op(3, OpKind::reduction).communication == seconds(0.528e-3));
      CHECK(t.op(OpKind::reduction).communication == seconds(4 * 0.528e-3));
      CHECK(t.op(OpKind::reduction).overlap == seconds(4 * 0.12e-3));
      CHECK(t.op(OpKind::reduction).synchronization == 0.0);
      CHECK(t.execution == seconds(1.648e-3 + 30e-6));
    }
    {
      // transputer 2x2: (Ts + Tb·8)(D(0, centre) + Σ ⌊2/2⌋) = 108us · (2 + 2) = 432us → wait 0.312ms
      auto m = transputer(4);
      const Run r = run(calls, *m, {2, 2});
      CHECK(r.root().totals.op(OpKind::reduction).communication == seconds(4 * 0.312e-3));
      CHECK(r.root().totals.execution == seconds(1.432e-3 + 30e-6));
    }
    {
      // transputer 4x4 (the 8x8 array in 2x2 pieces; t_i = 4ms·4/64 = 0.25ms, t0 = 0.25ms):
      // 108us · (D = 4, + 2 + 2) = 864us → t1 = 1.114ms; clock at waitrd_ 0.37ms: wait 0.744ms
      auto m = transputer(16);
      const Run r = run(calls, *m, {4, 4});
      CHECK(r.root().op(15, OpKind::reduction).communication == seconds(0.744e-3));
      CHECK(r.root().totals.op(OpKind::reduction).communication == seconds(16 * 0.744e-3));
    }
    {
      // Predictor 3.1's reduction on the same bus: messages from the 3 other holders to processor
      // 0 and back, each 108us on the one bus, sent at the waitrd_ clocks (1.12ms): the last
      // arrives at 1.12 + 6 · 0.108 = 1.768ms → wait 0.648ms each
      auto m = bus(4);
      const Run r = run(calls, *m, {2, 2}, CostStyle::predictor31);
      CHECK(r.root().totals.op(OpKind::reduction).communication == seconds(4 * 0.648e-3));
    }
  }

  TEST_CASE("DvmProgram divides dopl_ time and charges replicated iterations - Integrate") {
    // A rank-1 loop 0…7 mapped on template axis 1 only (AxisArray −1 for axis 2) on a 2x2 grid:
    // template axis 1 lies along grid dimension 0, so processors (0,0) and (0,1) run [0..3],
    // (1,0) and (1,1) run [4..7]: cnt = 2. dopl_ call 2ms: t_i = 2ms·4/8 = 1ms, of which
    // (cnt − 1)/cnt = 0.5ms is insufficient parallelism.
    // The reduction over this template pattern: split along grid dimension 0 only. Bus:
    // 108us · (B = 2 + L = 4 − 2) = 432us → t1 = 1.432ms, wait 1.432 − 1.12 = 0.312ms each.
    const std::string loop =
        call("crtpl_", 0, "Rank=1;\n", 0, "LoopRef=100;\n") +
        call("mappl_", 0,
             "LoopRefPtr=9; LoopRef=100; PatternRefPtr=1; PatternRef=a10 (AMView);\n"
             "AxisArray[0]=1; AxisArray[1]=-1;\nCoeffArray[0]=1; CoeffArray[1]=0;\nConstArray[0]=0; ConstArray[1]=0;\n"
             "InInitIndexArray[0]=0;\nInLastIndexArray[0]=7;\nInStepArray[0]=1;\n");
    const std::string calls = template_and_array({8, 8}, {1, 2}) + loop + reduction_group() +
                              call("dopl_", 0.002, "LoopRefPtr=9; LoopRef=100;\n", 0, "DoPL=0;\n") +
                              call("endpl_", 0, "LoopRefPtr=9; LoopRef=100;\n") + reduce();
    auto m = bus(4);
    const Run r = run(calls, *m, {2, 2});
    for (int p = 0; p < 4; ++p) {
      CAPTURE(p);
      CHECK(r.root().proc(p).insuff_par == seconds(0.5e-3));
      CHECK(r.root().op(p, OpKind::reduction).communication == seconds(0.312e-3));
    }
    const auto& t = r.root().totals;
    // Execution: 1ms + 120us (strtrd_) + 0.312ms + 30us (waitrd_) = 1.462ms; Total = 4 · 1.462
    CHECK(t.execution == seconds(1.462e-3));
    CHECK(t.total == seconds(5.848e-3));
    // CPU_usr = 4 · (1 + 0.1 + 0.01)ms = 4.44ms; insufficient (user) = 4 · 0.5 (dopl_) +
    // 4 · 0.075 (strtrd_'s call, 3/4 of 0.1) + 4 · 0.0075 (waitrd_'s) = 2.33ms
    CHECK(t.cpu_usr == seconds(4.44e-3));
    CHECK(t.insuff_usr == seconds(2.33e-3));
    // CPU_sys = 4 · 0.04ms; insufficient (sys) = 3/4 of it = 0.12ms
    CHECK(t.insuff_sys == seconds(0.12e-3));
    // Productive = (4.44 − 2.33) + (0.16 − 0.12) = 2.15ms; Lost = 2.45 + 4 · 0.312 + 0 = 3.698ms
    CHECK(t.productive == seconds(2.15e-3));
    CHECK(t.communication == seconds(1.248e-3));
    CHECK(t.lost == seconds(3.698e-3));
    CHECK(t.productive + t.lost == seconds(t.total));
    // Efficiency = 2.15 / 5.848
    CHECK(t.efficiency == seconds(2.15 / 5.848));
  }

  TEST_CASE("DvmProgram prices a shadow exchange with the bus and transputer GetCost") {
    // The 8x8 array with widths 1 on 2x2: every processor sends a 4-element edge (32 bytes) to
    // each of its 2 neighbours: 8 messages. After dopl_ (1ms), strtsh_ at t0 = 1ms: t1 = t0 + C;
    // strtsh_'s call and ret (120us), then waitsh_ at 1.12ms waits t1 − 1.12ms, overlap 0.12ms.
    const std::string calls =
        template_and_array({8, 8}, {1, 2}) + loop_on_array({7, 7}) + dopl_4ms +
        call("endpl_", 0, "LoopRefPtr=9; LoopRef=100;\n") +
        call("crtshg_", 0, "StaticSign=0;\n", 0, "ShadowGroupRef=400;\n") +
        call("inssh_", 0,
             "ShadowGroupRefPtr=5; ShadowGroupRef=400; ArrayHeader=d10; ArrayHandlePtr=1d10; FullShdSign=0;\n"
             "LowShdWidthArray[0]=1; LowShdWidthArray[1]=1;\nHiShdWidthArray[0]=1; HiShdWidthArray[1]=1;\n") +
        call("strtsh_", 100e-6, "ShadowGroupRefPtr=5; ShadowGroupRef=400;\n", 20e-6) +
        call("waitsh_", 10e-6, "ShadowGroupRefPtr=5; ShadowGroupRef=400;\n", 20e-6);
    {
      // bus: C = Σ (Ts + Tb·32) = 8 · 132us = 1056us → t1 = 2.056ms, wait 0.936ms each
      auto m = bus(4);
      const Run r = run(calls, *m, {2, 2});
      const auto& t = r.root().totals;
      CHECK(t.nop(OpKind::shadow) == 1);
      CHECK(r.root().op(0, OpKind::shadow).communication == seconds(0.936e-3));
      CHECK(t.op(OpKind::shadow).communication == seconds(4 * 0.936e-3));
      CHECK(t.op(OpKind::shadow).overlap == seconds(4 * 0.12e-3));
    }
    {
      // transputer 2x2: only neighbours (D = 1): C = Ts + Tb·32 = 132us → t1 = 1.132ms, wait 12us
      // (on a line of 4 processors 0 and 2 would be 2 hops apart: (100 + 32)·2 = 264us)
      auto m = transputer(4);
      const Run r = run(calls, *m, {2, 2});
      CHECK(r.root().totals.op(OpKind::shadow).communication == seconds(4 * 12e-6));
    }
    {
      // Predictor 3.1's shadow start lasts C / P: 1056 / 4 = 264us → t1 = 1.264ms, wait 0.144ms
      auto m = bus(4);
      const Run r = run(calls, *m, {2, 2}, CostStyle::predictor31);
      CHECK(r.root().totals.op(OpKind::shadow).communication == seconds(4 * 0.144e-3));
    }
  }

  TEST_CASE("DvmProgram prices realn_ by the transfer matrix of old and new blocks") {
    // Template of 12 on 2 processors ([0..5] [6..11]); array D10 of 8 doubles at template index i:
    // blocks [0..5] [6..7]. realn_ to index i + 4: processor 0 keeps [0..1], processor 1 owns
    // [2..7] and receives [2..5] from processor 0: T[0][1] = 4 · 8 = 32 bytes. Bus: 100 + 32 =
    // 132us on both processors (realn_ adds no call time).
    const std::string calls = template_and_array({12}, {1}, {8}) +
                              call("realn_", 100e-6,
                                   "ArrayHeader=d10; ArrayHandlePtr=1d10; PatternRefPtr=1; PatternRef=a10 (AMView); "
                                   "NewSign=0;\nAxisArray[0]=1;\nCoeffArray[0]=1;\nConstArray[0]=4;\n",
                                   1e-6);
    auto m = bus(2);
    const Run r = run(calls, *m, {2});
    const auto& t = r.root().totals;
    CHECK(t.nop(OpKind::redistribution) == 1);
    CHECK(t.op(OpKind::redistribution).communication == seconds(2 * 132e-6));
    CHECK(t.execution == seconds(132e-6));
  }

  TEST_CASE("DvmProgram seed redis_ moves every array aligned on the template") {
    // Template A10 of 8 on 2 processors; D10 aligned on it, D20 aligned on D10 (through an
    // array). redis_ with AxisArray 0 replicates the template: both arrays go from [0..3] [4..7]
    // to the whole array on each processor, each processor receiving the 4 doubles it lacks from
    // the other for both arrays: T[0][1] = T[1][0] = 2 · 32 = 64 bytes. Bus: 2 · (100 + 64) = 328us.
    const std::string setup =
        template_and_array({8}, {1}) +
        call("crtda_", 0,
             "ArrayHeader=d20; ExtHdrSign=0; BasePtr=0; Rank=1; TypeSize=8; StaticSign=0; ReDistrSign=0;\n"
             "SizeArray[0]=8;\n",
             0, "ArrayHandlePtr=1d20;\n") +
        call("align_", 0,
             "ArrayHeader=d20; ArrayHandlePtr=1d20; PatternRefPtr=d10; PatternRef=1d10 (DisArray);\n"
             "AxisArray[0]=1; CoeffArray[0]=1; ConstArray[0]=0;\n");
    const auto redis = [](int new_sign) {
      return call("redis_", 50e-6,
                  fmt::format("AMViewRefPtr=1; AMViewRef=a10; PSRefPtr=NULL; PSRef=0; ParamCount=1; NewSign={};\n"
                              "AxisArray[0]=0;\nDistrParamArray[0]=0;\n",
                              new_sign),
                  1e-6);
    };
    {
      auto m = bus(2);
      const Run r = run(setup + redis(0), *m, {2});
      const auto& t = r.root().totals;
      CHECK(t.nop(OpKind::redistribution) == 1);
      CHECK(r.root().op(1, OpKind::redistribution).communication == seconds(328e-6));
      CHECK(t.execution == seconds(328e-6));
    }
    {
      // NewSign = 1: the contents will be overwritten, nothing moves (one operation of 0)
      auto m = bus(2);
      const Run r = run(setup + redis(1), *m, {2});
      CHECK(r.root().totals.nop(OpKind::redistribution) == 1);
      CHECK(r.root().totals.op(OpKind::redistribution).communication == 0.0);
    }
    {
      // Predictor 3.1 compatibility: redis_ adds nothing at all
      auto m = bus(2);
      const Run r = run(setup + redis(0), *m, {2}, CostStyle::predictor31);
      CHECK(r.root().totals.nop(OpKind::redistribution) == 0);
      CHECK(r.root().totals.execution == 0.0);
    }
    {
      // after redis_ the arrays are replicated: realigning D20 on D10 again moves nothing
      auto m = bus(2);
      const Run r = run(setup + redis(0) +
                            call("realn_", 0,
                                 "ArrayHeader=d20; ArrayHandlePtr=1d20; PatternRefPtr=d10; PatternRef=1d10 (DisArray); "
                                 "NewSign=0;\nAxisArray[0]=1;\nCoeffArray[0]=1;\nConstArray[0]=0;\n"),
                        *m, {2});
      CHECK(r.root().totals.nop(OpKind::redistribution) == 2);
      CHECK(r.root().totals.op(OpKind::redistribution).communication == seconds(2 * 328e-6));
    }
  }

  TEST_CASE("DvmProgram I/O: the I/O processor - srmem_ and biof_ to eiof_") {
    // 2 processors on the bus (Ts = 100us, Tb = 1us).
    // dvm_printf (call 1ms, ret 0.4ms): processor 0 does the I/O (IO time 0.4ms), then the call
    // is replicated on both: user 1ms, sys 0.4ms → clocks 1.8ms and 1.4ms.
    // srmem_ of 100 bytes: synchronisation at 1.8ms (processor 1 waits 0.4ms), then the seed's
    // broadcast Δ_0 = Ts = 100us, Δ_1 = Δ_0 + Ts + 1·Tb·100 = 300us; then its call and ret
    // (120us): clocks 2.02ms and 2.22ms.
    // biof_ (call 100us, ret 20us) … dvm_fwrite (call 1ms, ret 0.2ms) … eiof_: all of it is
    // processor 0's I/O time, the replicated part included (x + x·(P−1)/P): biof_ 0.15 + 0.03,
    // dvm_fwrite 0.2 (the I/O itself) + 1.5 + 0.3 = 2.18ms → processor 0 ends at 4.2ms.
    const std::string calls =
        call("dvm_printf", 1e-3, "", 0.4e-3) + call("srmem_", 100e-6, "MemoryCount=1;\nLengthArray[0]=100;\n", 20e-6) +
        call("biof_", 100e-6, "", 20e-6) + call("dvm_fwrite", 1e-3, "", 0.2e-3) + call("eiof_", 0);
    auto m = bus(2);
    const Run r = run(calls, *m, {2});
    const Interval& root = r.root();
    CHECK(root.totals.nop(OpKind::io) == 3);  // dvm_printf, biof_, dvm_fwrite
    CHECK(root.op(0, OpKind::io).communication == seconds(100e-6));
    CHECK(root.op(1, OpKind::io).communication == seconds(0.4e-3 + 300e-6));
    CHECK(root.op(1, OpKind::io).synchronization == seconds(0.4e-3));
    CHECK(root.proc(0).io == seconds(0.4e-3 + 0.18e-3 + 2e-3));
    CHECK(root.proc(0).execution == seconds(4.2e-3));
    CHECK(root.proc(1).execution == seconds(2.22e-3));
    CHECK(root.proc(1).idle == seconds(4.2e-3 - 2.22e-3));
    CHECK(root.totals.execution == seconds(4.2e-3));
    CHECK(root.totals.io == seconds(2.58e-3));
  }

  TEST_CASE("DvmProgram Integrate adds a nested interval to its parent") {
    // 2 processors on the bus. crtpl_ (call 1ms, ret 0.2ms) in Main: user 1ms (insufficient
    // 0.5ms), sys 0.2ms (0.1ms) on each. bsloop_ (call 0.1ms) opens a Seq interval after its
    // RegularTime (Main). Inside: dopl_ of the loop 0…6 on a template of 8 ([0..3] [4..7]): 4 and
    // 3 of N = 7 iterations of 0.7ms → 0.4ms and 0.3ms, ret 0.1ms each; enloop_ (call 0.1ms)
    // still belongs to the Seq interval.
    const std::string calls =
        call("crtamv_", 0, "AMRefPtr=NULL; AMRef=0; Rank=1; StaticSign=0;\nSizeArray[0]=8;\n", 0, "AMViewRef=a10;\n") +
        call("distr_", 0, "AMViewRefPtr=1; AMViewRef=a10; PSRefPtr=NULL; PSRef=0; ParamCount=1;\nAxisArray[0]=1;\n") +
        call("crtpl_", 1e-3, "Rank=1;\n", 0.2e-3, "LoopRef=100;\n") +
        call("mappl_", 0,
             "LoopRefPtr=9; LoopRef=100; PatternRefPtr=1; PatternRef=a10 (AMView);\n"
             "AxisArray[0]=1;\nCoeffArray[0]=1;\nConstArray[0]=0;\n"
             "InInitIndexArray[0]=0;\nInLastIndexArray[0]=6;\nInStepArray[0]=1;\n") +
        call("bsloop_", 0.1e-3, "nfrag=1;\n") +
        call("dopl_", 0.7e-3, "LoopRefPtr=9; LoopRef=100;\n", 0.1e-3, "DoPL=0;\n") +
        call("enloop_", 0.1e-3, "nfrag=1; nline=9\n") + call("endpl_", 0, "LoopRefPtr=9; LoopRef=100;\n");
    auto m = bus(2);
    const Run r = run(calls, *m, {2});
    REQUIRE(r.root().children.size() == 1);
    const Interval& seq = *r.root().children[0];
    // Seq: execution 0.6ms and 0.5ms; Idle of processor 1 = 0.1ms; Load imbalance of processor 1
    // = (max sys 0.1 + max usr 0.5) − (0.1 + 0.4) = 0.1ms. Productive = (0.9 − 0.1) + (0.2 − 0.1)
    // = 0.9ms of Total 1.2ms: efficiency 0.75; Lost = 0.2 + 0.1 = 0.3ms.
    CHECK(seq.exe_count == 1);
    CHECK(seq.totals.execution == seconds(0.6e-3));
    CHECK(seq.totals.total == seconds(1.2e-3));
    CHECK(seq.totals.idle == seconds(0.1e-3));
    CHECK(seq.totals.load_imbalance == seconds(0.1e-3));
    CHECK(seq.totals.productive == seconds(0.9e-3));
    CHECK(seq.totals.lost == seconds(0.3e-3));
    CHECK(seq.totals.efficiency == seconds(0.75));
    // Main with Seq: execution 1.3 + 0.6 = 1.9ms, Total 3.8ms; Productive = own 2 · (0.55 + 0.1)
    // + Seq's 0.9 = 2.2ms; Lost = own 2 · 0.65 + Seq's 0.3 = 1.6ms; efficiency 2.2 / 3.8.
    const auto& t = r.root().totals;
    CHECK(t.execution == seconds(1.9e-3));
    CHECK(t.total == seconds(3.8e-3));
    CHECK(t.productive == seconds(2.2e-3));
    CHECK(t.lost == seconds(1.6e-3));
    CHECK(t.efficiency == seconds(2.2 / 3.8));
  }

  TEST_CASE("DvmProgram keeps a bounded number of operations on a long trace - memoised = recomputed") {
    // The generated Jacobi trace (4 group operations per iteration) on a 2x2 bus: what the model
    // keeps (decoded calls, operations) must not grow with the number of iterations, and the
    // memoised geometry (loops, dopl_ portions, inssh_ matrices, waitrd_ holders) must give the
    // same figures, bit for bit, as recomputing it at every call.
    augur::test::TempDir dir;
    auto footprint = [&](std::uint64_t iterations, bool memoise, CostStyle cost) {
      augur::bench::DvmJacobiSpec spec;
      spec.size = 12;
      spec.iterations = iterations;
      spec.intervals = true;
      const std::string path = dir.file(fmt::format("jac{}.ptr", iterations));
      const auto written = augur::bench::write_dvm_jacobi(spec, path);
      auto m = bus(4);
      FileRun r = run_file(path, *m, {2, 2}, cost, memoise);
      r.decoded = written.calls;
      return r;
    };
    for (CostStyle cost : {CostStyle::seed, CostStyle::predictor31}) {
      CAPTURE(static_cast<int>(cost));
      const FileRun small = footprint(20, true, cost);
      const FileRun large = footprint(2000, true, cost);
      // Grows with the trace: the calls decoded (about 25 per iteration).
      CHECK(large.decoded > 90 * small.decoded);
      // Does not: the model releases what it kept every 256 calls decoded, so at most the
      // operations of about 12 iterations (3 each: strtrd_, waitrd_, strtsh_; 22 calls per
      // iteration) and a few hundred calls are kept, against 6,000 operations without release.
      CHECK(large.footprint.peak_operations == small.footprint.peak_operations);
      CHECK(large.footprint.peak_operations <= 40);
      CHECK(large.footprint.peak_actions <= 512);
      CHECK(large.footprint.operations <= 40);
      const FileRun recomputed = footprint(2000, false, cost);
      CHECK(same_figures(*large.tree, *recomputed.tree));
      CHECK(recomputed.footprint.peak_operations == large.footprint.peak_operations);
    }
  }

  TEST_CASE("DvmProgram memo of mappl_: a loop mapped again after distr_ gets the new blocks") {
    // Template of 8 on 2 processors; the same crtpl_/mappl_ (loop 0…7 on the template) before
    // and after distr_ makes the template replicated. Before: [0..3] [4..7], dopl_ 4ms → 2ms
    // each. After: all 8 iterations on both (cnt 2) → 4ms each, half of it (2ms) insufficient
    // parallelism. Execution 6ms on each processor; a stale memo would give 4ms and 0.
    const std::string loop = call("crtpl_", 0, "Rank=1;\n", 0, "LoopRef=100;\n") +
                             call("mappl_", 0,
                                  "LoopRefPtr=9; LoopRef=100; PatternRefPtr=1; PatternRef=a10 (AMView);\n"
                                  "AxisArray[0]=1;\nCoeffArray[0]=1;\nConstArray[0]=0;\n"
                                  "InInitIndexArray[0]=0;\nInLastIndexArray[0]=7;\nInStepArray[0]=1;\n") +
                             call("dopl_", 0.004, "LoopRefPtr=9; LoopRef=100;\n", 0, "DoPL=0;\n") +
                             call("endpl_", 0, "LoopRefPtr=9; LoopRef=100;\n");
    const std::string calls =
        call("crtamv_", 0, "AMRefPtr=NULL; AMRef=0; Rank=1; StaticSign=0;\nSizeArray[0]=8;\n", 0, "AMViewRef=a10;\n") +
        call("distr_", 0, "AMViewRefPtr=1; AMViewRef=a10; PSRefPtr=NULL; PSRef=0; ParamCount=1;\nAxisArray[0]=1;\n") +
        loop + loop +
        call("distr_", 0, "AMViewRefPtr=1; AMViewRef=a10; PSRefPtr=NULL; PSRef=0; ParamCount=1;\nAxisArray[0]=0;\n") +
        loop;
    for (bool memoise : {true, false}) {
      CAPTURE(memoise);
      augur::test::TempDir dir;
      const std::string path = dir.file("t.ptr");
      augur::test::write_file(path, trace(calls));
      auto m = bus(2);
      const FileRun r = run_file(path, *m, {2}, CostStyle::seed, memoise);
      for (int p = 0; p < 2; ++p) {
        CAPTURE(p);
        // 2ms + 2ms (the two loops before distr_) + 4ms after it
        CHECK(r.tree->root().proc(p).execution == seconds(8e-3));
        CHECK(r.tree->root().proc(p).insuff_par == seconds(2e-3));
      }
    }
  }

  TEST_CASE("DVM wait states: a processor waits at a reduction for the one with the larger block") {
    using augur::models::analysis::WaitPattern;
    // A template of 9 on 2 processors (blocks [0..3] and [4..8]) and the loop 0…8 on it.
    // dvm_printf at line 11 (call 1ms, ret 0.4ms): processor 0 does the I/O (0.4ms), both then
    // run the call (1ms user, 0.4ms sys). dopl_ at line 12, call 9ms: t_i = 9ms·N_i/9 = 4ms on
    // processor 0, 5ms on processor 1. strtrd_ at line 13 synchronises: processor 0 arrives at
    // 0.4 + 1.4 + 4 = 5.8ms, processor 1 at 1.4 + 5 = 6.4ms; processor 0 waits 0.6ms for it —
    // wait at N×N (a reduction), direct (processor 1 never waited). Root causes, processor 1's
    // excess over processor 0 since the start, positive parts only: the loop's iterations at
    // line 12 (5 − 4 = 1ms; the I/O at line 11, 0 − 0.4ms, does not count). The 1ms excess is
    // more than the wait: the loop is charged the whole 0.6ms, which it fully explains.
    const std::string calls = template_and_array({9}, {1}) + loop_on_array({8}) + reduction_group() +
                              at_line(call("dvm_printf", 1e-3, "", 0.4e-3), 11) +
                              at_line(call("dopl_", 0.009, "LoopRefPtr=9; LoopRef=100;\n", 0, "DoPL=0;\n"), 12) +
                              at_line(call("endpl_", 0, "LoopRefPtr=9; LoopRef=100;\n"), 12) + at_line(reduce(), 13);
    auto m = bus(2);
    const WaitsRun r = run_waits(calls, *m, {2}, CostStyle::seed);
    const auto nxn = static_cast<std::size_t>(WaitPattern::wait_at_nxn);
    CHECK(r.lps[1].total_s() == 0.0);
    CHECK(r.lps[0].patterns[nxn].total_s == seconds(0.6e-3));
    CHECK(r.lps[0].patterns[nxn].count == 1);
    CHECK(r.lps[0].indirect_s() == 0.0);
    CHECK(r.lps[0].total_s() == seconds(0.6e-3));
    const auto reduction = static_cast<std::size_t>(OpKind::reduction);
    CHECK(r.by_operation[reduction].total_s == seconds(0.6e-3));
    CHECK(r.by_operation[reduction].count == 1);
    CHECK(r.explained[reduction] == seconds(0.6e-3));
    REQUIRE(r.causes.size() == 1);
    CHECK(r.causes[0].name == "parallel loop at t.cdv:12");
    CHECK(r.causes[0].caused_s == seconds(0.6e-3));
    CHECK(r.causes[0].excess_s == seconds(1e-3));
    CHECK(r.causes[0].waits == 1);
    // The seed's waitrd_ (t1 = t0 + StartR after the synchronisation) waits for no processor.
    for (std::size_t k = 0; k < r.by_operation.size(); ++k) {
      if (k != reduction) CHECK(r.by_operation[k].count == 0);
    }
  }

  TEST_CASE("DVM wait states: a shadow renewal is a barrier") {
    using augur::models::analysis::WaitPattern;
    // The loop of the previous case (4ms on processor 0, 5ms on processor 1 at line 12), then the
    // shadow renewal of the array at line 30: strtsh_ synchronises, processor 0 waits 1ms at it
    // — wait at barrier of a shadow operation, all of it caused by the loop's iterations.
    const std::string calls =
        template_and_array({9}, {1}) + loop_on_array({8}) +
        at_line(call("dopl_", 0.009, "LoopRefPtr=9; LoopRef=100;\n", 0, "DoPL=0;\n"), 12) +
        at_line(call("endpl_", 0, "LoopRefPtr=9; LoopRef=100;\n"), 12) +
        at_line(call("crtshg_", 0, "StaticSign=0;\n", 0, "ShadowGroupRef=400;\n") +
                    call("inssh_", 0,
                         "ShadowGroupRefPtr=5; ShadowGroupRef=400; ArrayHeader=d10; ArrayHandlePtr=1d10; "
                         "FullShdSign=0;\nLowShdWidthArray[0]=1;\nHiShdWidthArray[0]=1;\n") +
                    call("strtsh_", 100e-6, "ShadowGroupRefPtr=5; ShadowGroupRef=400;\n", 20e-6) +
                    call("waitsh_", 10e-6, "ShadowGroupRefPtr=5; ShadowGroupRef=400;\n", 20e-6),
                30);
    auto m = bus(2);
    const WaitsRun r = run_waits(calls, *m, {2}, CostStyle::seed);
    const auto barrier = static_cast<std::size_t>(WaitPattern::wait_at_barrier);
    CHECK(r.lps[0].patterns[barrier].total_s == seconds(1e-3));
    CHECK(r.lps[0].total_s() == seconds(1e-3));
    CHECK(r.lps[1].total_s() == 0.0);
    const auto shadow = static_cast<std::size_t>(OpKind::shadow);
    CHECK(r.by_operation[shadow].total_s == seconds(1e-3));
    CHECK(r.explained[shadow] == seconds(1e-3));
    REQUIRE(r.causes.size() == 1);
    CHECK(r.causes[0].name == "parallel loop at t.cdv:12");
    CHECK(r.causes[0].caused_s == seconds(1e-3));
  }

  TEST_CASE("DVM wait states: Predictor 3.1's reduction waits for processor 0 (late broadcast)") {
    using augur::models::analysis::WaitPattern;
    // 8 elements on 2 processors: dopl_ 4ms → 2ms each; strtrd_ synchronises (no wait) and both
    // run its call and ret (120us). Then dvm_printf at line 21: processor 0 does the I/O (0.4ms)
    // and enters waitrd_ 0.4ms after processor 1. 3.1's reduction: processor 1 sends its part to
    // processor 0 at its clock (108us on the bus, long done by then), processor 0 sends the result
    // back from its entry: processor 1 waits 0.4ms for processor 0's entry (late broadcast, the
    // I/O at line 21 its cause), then 108us of transfer, which is no wait.
    const std::string calls = template_and_array({8}, {1}) + loop_on_array({7}) + reduction_group() +
                              at_line(dopl_4ms, 12) + at_line(call("endpl_", 0, "LoopRefPtr=9; LoopRef=100;\n"), 12) +
                              at_line(call("strtrd_", 100e-6, "RedGroupRefPtr=3; RedGroupRef=200;\n", 20e-6), 20) +
                              at_line(call("dvm_printf", 1e-3, "", 0.4e-3), 21) +
                              at_line(call("waitrd_", 10e-6, "RedGroupRefPtr=3; RedGroupRef=200;\n", 20e-6), 22);
    auto m = bus(2);
    const WaitsRun r = run_waits(calls, *m, {2}, CostStyle::predictor31);
    const auto bcast = static_cast<std::size_t>(WaitPattern::late_broadcast);
    CHECK(r.lps[0].total_s() == 0.0);
    CHECK(r.lps[1].patterns[bcast].total_s == seconds(0.4e-3));
    CHECK(r.lps[1].total_s() == seconds(0.4e-3));
    const auto reduction = static_cast<std::size_t>(OpKind::reduction);
    CHECK(r.by_operation[reduction].count == 1);
    CHECK(r.explained[reduction] == seconds(0.4e-3));
    REQUIRE(r.causes.size() == 1);
    CHECK(r.causes[0].name == "I/O at t.cdv:21");
    CHECK(r.causes[0].caused_s == seconds(0.4e-3));
  }
}  // TEST_SUITE
