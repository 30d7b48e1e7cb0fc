// The JSON interval report: every figure of every interval under stable, readable keys (listed
// in docs/reports.md), numbers at full precision, nested intervals under "intervals".
#include "models/report/interval_report.hpp"
#include "models/report/interval_report_internal.hpp"

#include <algorithm>

namespace augur::models::report {

using analysis::Interval;
using analysis::IntervalTotals;
using analysis::OpKind;
using analysis::ProcessorTimes;
using nlohmann::ordered_json;

namespace {

// The five DVM kinds always; the message-passing kinds (point_to_point, the collectives) when they
// occur, with communication split into transfer and waiting.
ordered_json collectives(const IntervalTotals& t) {
  ordered_json j = ordered_json::object();
  for (OpKind k : analysis::all_op_kinds) {
    const analysis::OpTimes& op = t.op(k);
    const bool dvm =
        std::find(analysis::dvm_op_kinds.begin(), analysis::dvm_op_kinds.end(), k) != analysis::dvm_op_kinds.end();
    if (!dvm && t.nop(k) == 0 && op.communication == 0 && op.synchronization == 0 && op.variation == 0 &&
        op.overlap == 0)
      continue;
    ordered_json& o = j[std::string(analysis::to_string(k))];
    o = {{"operations", t.nop(k)}, {"communication", op.communication}};
    if (!dvm) {
      o["transfer"] = op.transfer;
      o["waiting"] = op.waiting;
    }
    o["real_synchronization"] = op.real_sync;
    o["synchronization"] = op.synchronization;
    o["time_variation"] = op.variation;
    o["overlap"] = op.overlap;
  }
  return j;
}

ordered_json processor(std::size_t number, const ProcessorTimes& p) {
  const double insufficient = p.insuff_usr + p.insuff_sys;
  return {{"processor", number},
          {"execution_time", p.execution},
          {"cpu", p.cpu_usr},
          {"sys", p.cpu_sys},
          {"io", p.io},
          {"productive_time", p.cpu_usr + p.cpu_sys + p.io - insufficient},
          {"insufficient_parallelism", insufficient},
          {"insufficient_parallelism_user", p.insuff_usr},
          {"insufficient_parallelism_sys", p.insuff_sys},
          {"communication", p.communication},
          {"real_synchronization", p.real_sync},
          {"idle_time", p.idle},
          {"load_imbalance", p.load_imbalance},
          {"synchronization", p.synchronization},
          {"time_variation", p.variation},
          {"overlap", p.overlap},
          {"lost_time", p.lost}};
}

ordered_json interval(const Interval& i, const detail::InclusiveTimes& inclusive, const std::string& grid) {
  const IntervalTotals& t = i.totals;
  ordered_json j;
  j["id"] = i.id;
  j["type"] = analysis::title(i.type);
  j["level"] = i.level;
  j["exe_count"] = i.exe_count;
  j["source_file"] = i.source_file;
  j["source_line"] = i.source_line;
  j["index"] = i.index ? ordered_json(*i.index) : ordered_json(nullptr);
  j["processors"] = grid;
  j["efficiency"] = t.efficiency;
  j["execution_time"] = t.execution;
  j["total_time"] = t.total;
  j["productive_time"] = {{"total", t.productive}, {"cpu", t.productive_cpu}, {"sys", t.productive_sys}, {"io", t.io}};
  j["lost_time"] = t.lost;
  j["insufficient_parallelism"] = {{"total", t.insufficient}, {"user", t.insuff_usr}, {"sys", t.insuff_sys}};
  j["communication"] = t.communication;
  j["real_synchronization"] = t.real_sync;
  j["idle_time"] = t.idle;
  j["load_imbalance"] = t.load_imbalance;
  j["synchronization"] = t.synchronization;
  j["time_variation"] = t.variation;
  j["overlap"] = t.overlap;
  j["collectives"] = collectives(t);
  ordered_json procs = ordered_json::array();
  const analysis::ProcessorTable& times = inclusive.of(i);
  for (std::size_t p = 0; p < times.size(); ++p) procs.push_back(processor(p, times[p]));
  j["per_processor"] = std::move(procs);
  ordered_json nested = ordered_json::array();
  for (const auto& c : i.children) nested.push_back(interval(*c, inclusive, grid));
  j["intervals"] = std::move(nested);
  return j;
}

}  // namespace

ordered_json interval_json(const analysis::IntervalTree& tree, const IntervalReportMeta& meta, const Interval* root) {
  const Interval& top = detail::report_root(tree, root);
  const detail::InclusiveTimes inclusive(meta.rule);
  return interval(top, inclusive, detail::grid_text(tree, meta));
}

ordered_json interval_report_json(const analysis::IntervalTree& tree, const IntervalReportMeta& meta,
                                  const Interval* root) {
  ordered_json j;
  j["program"] = meta.program;
  j["machine"] = meta.machine;
  j["grid"] = detail::grid_text(tree, meta);
  j["processor_count"] = detail::processor_count(tree, meta);
  j["interval"] = interval_json(tree, meta, root);
  return j;
}

}  // namespace augur::models::report
