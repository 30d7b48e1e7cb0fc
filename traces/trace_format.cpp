// The registry of trace formats (trace_format.hpp).
#include "traces/trace_format.hpp"

#include <array>

#include "traces/otf2/otf2_trace.hpp"
#include "traces/synthetic/synthetic_trace.hpp"
#include "traces/ti/ti_trace.hpp"

namespace augur::traces {
namespace {

std::unique_ptr<MpTraceSource> open_synthetic(const std::string& spec) {
  return synthetic::make_synthetic_trace(synthetic::parse_synthetic_spec(spec));
}

constexpr std::array formats{
    TraceFormat{"ti", "", ProgramModel::message_passing, &ti::open_ti_trace,
                "SimGrid time-independent traces (an index file listing one file per rank, or one\n"
                "file with every rank's actions); plain, .gz or .zst. Actions: init finalize compute\n"
                "sleep send isend recv irecv wait waitall test sendRecv barrier bcast reduce allreduce\n"
                "alltoall alltoallv gather gatherv scatter scatterv allgather allgatherv reducescatter\n"
                "scan exscan comm_size comm_split comm_dup location"},
    TraceFormat{"ptr", "dvm", ProgramModel::dvm, nullptr,
                "Lib-DVM .ptr traces (also dvm:PATH), merged or raw <prog>0_0.ptr; run on processor grids\n"
                "(--grid 2x2, scenario grids:) with the DVM Predictor model (spec section 6)"},
    TraceFormat{"otf2", "", ProgramModel::message_passing, &otf2::open_otf2_trace,
                "OTF2 archives of MPI programs (Score-P, EZTrace): otf2:PATH/traces.otf2, optionally\n"
                "otf2:PATH/traces.otf2,recorded_on=FLOPS (the recording machine's speed, default 1e9):\n"
                "compute between MPI calls = recorded seconds x FLOPS, or a PAPI_FP_OPS counter's flops"},
    TraceFormat{"synthetic", "", ProgramModel::message_passing, &open_synthetic,
                "the benchmark workload generated on the fly, no files: synthetic:P=1024,I=200\n"
                "(P ranks x I iterations: compute (1 + rank mod 4) ms, an eager 1000-byte ring,\n"
                "an 8-byte allreduce every 10th iteration; tools/bench/README.md)"},
    TraceFormat{"program", "", ProgramModel::message_passing, nullptr,
                "a program skeleton (also --program FILE.yaml, scenario key program:): parameters and\n"
                "phases (compute, halo, ring, pairwise, p2p, collectives, loop, region) whose sizes are\n"
                "expressions of the parameters, P and rank, expanded on the fly for any process count\n"
                "(traces/skeleton/README.md); set parameters with --set program.N=64"},
};

}  // namespace

std::span<const TraceFormat> trace_formats() { return formats; }

const TraceFormat* find_trace_format(std::string_view name) {
  for (const TraceFormat& f : formats) {
    if (f.name == name || (!f.alias.empty() && f.alias == name)) return &f;
  }
  return nullptr;
}

std::vector<std::string> trace_format_names() {
  std::vector<std::string> names;
  for (const TraceFormat& f : formats) {
    names.emplace_back(f.name);
    if (!f.alias.empty()) names.emplace_back(f.alias);
  }
  return names;
}

}  // namespace augur::traces
