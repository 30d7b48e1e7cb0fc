// Text and JSON renderings of the per-variant results.
#include "models/report/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <ostream>
#include <stdexcept>

namespace augur::models::report {

namespace {

LpStats totals(const std::vector<LpStats>& lps) {
  LpStats t;
  for (const LpStats& s : lps) {
    t.compute_s += s.compute_s;
    t.transfer_s += s.transfer_s;
    t.wait_s += s.wait_s;
    t.sleep_s += s.sleep_s;
    t.end_s = std::max(t.end_s, s.end_s);
    t.messages_sent += s.messages_sent;
    t.bytes_sent += s.bytes_sent;
    t.messages_received += s.messages_received;
    t.bytes_received += s.bytes_received;
    t.collectives += s.collectives;
    t.events += s.events;
  }
  return t;
}

nlohmann::ordered_json lp_json(const LpStats& s) {
  nlohmann::ordered_json j;
  j["compute_s"] = s.compute_s;
  j["transfer_s"] = s.transfer_s;
  j["wait_s"] = s.wait_s;
  j["sleep_s"] = s.sleep_s;
  j["end_s"] = s.end_s;
  j["messages_sent"] = s.messages_sent;
  j["bytes_sent"] = s.bytes_sent;
  j["messages_received"] = s.messages_received;
  j["bytes_received"] = s.bytes_received;
  j["collectives"] = s.collectives;
  j["events"] = s.events;
  return j;
}

nlohmann::ordered_json amount_json(const analysis::WaitAmount& a) {
  nlohmann::ordered_json j;
  j["total_s"] = a.total_s;
  j["direct_s"] = a.direct_s();
  j["indirect_s"] = a.indirect_s;
  j["count"] = a.count;
  return j;
}

std::string operation_name(std::size_t i) {
  return i == 0 ? std::string("point_to_point")
                : std::string(engine::to_string(static_cast<engine::CollectiveKind>(i - 1)));
}

void write_waits_text(std::ostream& out, const VariantResult& v, std::size_t max_rows) {
  analysis::LpWaits total;
  for (const auto& l : v.waits) {
    for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
      total.patterns[i].total_s += l.patterns[i].total_s;
      total.patterns[i].indirect_s += l.patterns[i].indirect_s;
    }
  }
  if (!(total.total_s() > 0)) return;
  out << fmt::format("  wait states (s):\n  {:>6} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "rank",
                     "late_sender", "late_recv", "barrier", "early_reduce", "late_bcast", "wait_nxn", "indirect");
  auto row = [&](const std::string& name, const analysis::LpWaits& w) {
    double indirect = 0;
    for (const auto& a : w.patterns) indirect += a.indirect_s;
    out << fmt::format("  {:>6} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f}\n", name,
                       w.patterns[0].total_s, w.patterns[1].total_s, w.patterns[2].total_s, w.patterns[3].total_s,
                       w.patterns[4].total_s, w.patterns[5].total_s, indirect);
  };
  const std::size_t n = max_rows == 0 ? v.waits.size() : std::min(max_rows, v.waits.size());
  for (std::size_t i = 0; i < n; ++i) row(std::to_string(i), v.waits[i]);
  row("total", total);
  std::string ops;
  for (std::size_t i = 0; i < v.waits_by_operation.size(); ++i) {
    const auto& a = v.waits_by_operation[i];
    if (!(a.total_s > 0)) continue;
    ops += fmt::format("{}{} {:.6f} s ({} waits, {:.0f} % indirect)", ops.empty() ? "" : "; ", operation_name(i),
                       a.total_s, a.count, 100.0 * a.indirect_s / a.total_s);
  }
  out << "  waiting by operation: " << ops << "\n";
}

}  // namespace

void write_text(std::ostream& out, const std::string& scenario, const std::vector<VariantResult>& variants,
                std::size_t max_rows) {
  out << fmt::format("augur: {} ({} variant{})\n", scenario, variants.size(), variants.size() == 1 ? "" : "s");
  for (const VariantResult& v : variants) {
    out << fmt::format("\nvariant {}: {} processors, machine {} ({})", v.index, v.processors, v.machine_name,
                       v.machine_model);
    for (const auto& [k, val] : v.swept) out << fmt::format(", {}={}", k, val);
    out << fmt::format("\n  trace: {}\n  collectives: {}\n", v.trace, v.collectives);
    if (v.outcome != "completed") {
      out << fmt::format("  run ended by {}:\n", v.outcome);
      out << v.message;
      if (!v.message.empty() && v.message.back() != '\n') out << "\n";
    }
    out << fmt::format("  predicted time: {:.6f} s   ({} events)\n", v.predicted_time_s, v.events);
    if (v.lps.empty()) continue;
    out << fmt::format("  {:>6} {:>12} {:>12} {:>12} {:>12} {:>9} {:>13} {:>9} {:>13}\n", "rank", "compute_s",
                       "transfer_s", "wait_s", "end_s", "msgs_out", "bytes_out", "msgs_in", "bytes_in");
    auto row = [&](const std::string& name, const LpStats& s) {
      out << fmt::format("  {:>6} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f} {:>9} {:>13} {:>9} {:>13}\n", name,
                         s.compute_s, s.transfer_s, s.wait_s, s.end_s, s.messages_sent, s.bytes_sent,
                         s.messages_received, s.bytes_received);
    };
    const std::size_t n = max_rows == 0 ? v.lps.size() : std::min(max_rows, v.lps.size());
    for (std::size_t i = 0; i < n; ++i) row(std::to_string(i), v.lps[i]);
    if (n < v.lps.size()) out << fmt::format("  ... {} more ranks (see --json)\n", v.lps.size() - n);
    row("total", totals(v.lps));
    write_waits_text(out, v, max_rows);
    for (const std::string& w : v.warnings) out << "  " << w << "\n";
  }
}

nlohmann::ordered_json to_json(const std::string& scenario, const std::vector<VariantResult>& variants) {
  nlohmann::ordered_json doc;
  doc["schema_version"] = 1;
  doc["generator"] = "augur 0.1.0";
  doc["scenario"] = scenario;
  doc["variants"] = nlohmann::ordered_json::array();
  for (const VariantResult& v : variants) {
    nlohmann::ordered_json j;
    j["index"] = v.index;
    j["processor_count"] = v.processors;
    j["trace"] = v.trace;
    nlohmann::ordered_json m;
    m["name"] = v.machine_name;
    m["model"] = v.machine_model;
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [k, val] : v.machine_params) params[k] = val;
    m["parameters"] = params;
    j["machine"] = m;
    nlohmann::ordered_json swept = nlohmann::ordered_json::object();
    for (const auto& [k, val] : v.swept) swept[k] = val;
    j["swept"] = swept;
    j["collectives"] = v.collectives;
    j["outcome"] = v.outcome;
    j["message"] = v.message;
    j["predicted_time_s"] = v.predicted_time_s;
    j["events"] = v.events;
    j["totals"] = lp_json(totals(v.lps));
    nlohmann::ordered_json procs = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < v.lps.size(); ++i) {
      nlohmann::ordered_json p;
      p["rank"] = i;
      const nlohmann::ordered_json stats = lp_json(v.lps[i]);
      for (const auto& item : stats.items()) p[item.key()] = item.value();
      procs.push_back(std::move(p));
    }
    j["processors"] = std::move(procs);
    if (!v.waits.empty()) {
      nlohmann::ordered_json ws;
      nlohmann::ordered_json patterns;
      for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
        analysis::WaitAmount sum;
        for (const auto& l : v.waits) {
          sum.total_s += l.patterns[i].total_s;
          sum.indirect_s += l.patterns[i].indirect_s;
          sum.count += l.patterns[i].count;
        }
        patterns[std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i)))] = amount_json(sum);
      }
      ws["patterns"] = patterns;
      nlohmann::ordered_json ops = nlohmann::ordered_json::object();
      for (std::size_t i = 0; i < v.waits_by_operation.size(); ++i) {
        if (v.waits_by_operation[i].count > 0) ops[operation_name(i)] = amount_json(v.waits_by_operation[i]);
      }
      ws["by_operation"] = ops;
      nlohmann::ordered_json per = nlohmann::ordered_json::array();
      for (std::size_t r = 0; r < v.waits.size(); ++r) {
        nlohmann::ordered_json p;
        p["rank"] = r;
        double indirect = 0;
        for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
          p[std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i))) + "_s"] = v.waits[r].patterns[i].total_s;
          indirect += v.waits[r].patterns[i].indirect_s;
        }
        p["indirect_s"] = indirect;
        per.push_back(std::move(p));
      }
      ws["processors"] = std::move(per);
      j["wait_states"] = std::move(ws);
    }
    j["warnings"] = v.warnings;
    doc["variants"].push_back(std::move(j));
  }
  return doc;
}

void write_json(const std::string& path, const std::string& scenario, const std::vector<VariantResult>& variants) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error(path + ": error: cannot write the JSON report");
  f << to_json(scenario, variants).dump(2) << "\n";
  if (!f) throw std::runtime_error(path + ": error: write failed");
}

}  // namespace augur::models::report
