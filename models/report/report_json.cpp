// The JSON rendering of the per-variant results (report.hpp `to_json`, `write_json`).
#include "models/report/report.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <ostream>
#include <stdexcept>

#include "engine/output_file.hpp"
#include "models/report/json_numbers.hpp"
#include "models/report/report_internal.hpp"
#include "models/report/version.hpp"

namespace augur::models::report {
using detail::interval_meta;
using detail::totals;

namespace {

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

using Json = nlohmann::ordered_json;

Json processor_json(const VariantResult& v, std::size_t i) {
  Json p;
  p["rank"] = i;
  const Json stats = lp_json(v.lps[i]);
  for (const auto& item : stats.items()) p[item.key()] = item.value();
  round_numbers(p);
  return p;
}

Json processor_waits_json(const VariantResult& v, std::size_t r) {
  Json p;
  p["rank"] = r;
  for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
    p[std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i))) + "_s"] = v.waits[r].patterns[i].total_s;
  }
  if (v.wait_operations != WaitOperations::dvm) p["late_sender_wrong_order_s"] = v.waits[r].wrong_order.total_s;
  p["indirect_s"] = v.waits[r].indirect_s();
  p["caused_s"] = v.waits[r].caused_s;
  round_numbers(p);
  return p;
}

// The wait states' patterns summed over every processor.
Json wait_patterns_json(const VariantResult& v) {
  Json patterns;
  const analysis::LpWaits sum = analysis::sum_waits(v.waits);
  for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
    patterns[std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i)))] = amount_json(sum.patterns[i]);
  }
  // Part of late_sender, not a pattern of its own.
  if (v.wait_operations != WaitOperations::dvm) patterns["late_sender"]["wrong_order"] = amount_json(sum.wrong_order);
  return patterns;
}

// The waiting per operation kind, with the part the regions explain.
Json waits_by_operation_json(const VariantResult& v) {
  Json ops = Json::object();
  for (std::size_t i = 0; i < v.waits_by_operation.size(); ++i) {
    if (v.waits_by_operation[i].count > 0) ops[wait_operation_name(v, i)] = amount_json(v.waits_by_operation[i]);
  }
  for (std::size_t i = 0; i < v.waits_by_operation.size(); ++i) {
    if (v.waits_by_operation[i].count > 0 && i < v.explained_by_operation.size()) {
      ops[wait_operation_name(v, i)]["explained_s"] = v.explained_by_operation[i];
    }
  }
  return ops;
}

// The waiting per code position, with the patterns that occur there.
Json waits_by_site_json(const VariantResult& v) {
  Json sites = Json::array();
  for (const auto& site : v.wait_sites) {
    Json one;
    one["site"] = site.name;
    one["total_s"] = site.total_s();
    one["count"] = site.count();
    Json by = Json::object();
    for (std::size_t i = 0; i < analysis::wait_pattern_count; ++i) {
      if (site.patterns[i].count > 0) {
        by[std::string(analysis::to_string(static_cast<analysis::WaitPattern>(i)))] = amount_json(site.patterns[i]);
      }
    }
    one["patterns"] = by;
    sites.push_back(std::move(one));
  }
  return sites;
}

// The root causes: the code regions whose excess made others wait.
Json root_causes_json(const VariantResult& v) {
  Json causes = Json::array();
  for (const auto& c : v.causes) {
    Json cj;
    cj["region"] = c.name;
    cj["caused_s"] = c.caused_s;
    cj["excess_s"] = c.excess_s;
    cj["waits"] = c.waits;
    causes.push_back(std::move(cj));
  }
  return causes;
}

// The `wait_states` object; `whole` as in variant_json.
Json wait_states_json(const VariantResult& v, bool whole) {
  Json ws;
  ws["patterns"] = wait_patterns_json(v);
  ws["by_operation"] = waits_by_operation_json(v);
  ws["by_site"] = waits_by_site_json(v);
  ws["root_causes"] = root_causes_json(v);
  Json per = Json::array();
  if (whole) {
    for (std::size_t r = 0; r < v.waits.size(); ++r) per.push_back(processor_waits_json(v, r));
  }
  ws["processors"] = std::move(per);
  return ws;
}

// `links`: every link of a flow-level network run, in the machine's link order.
Json links_json(const VariantResult& v) {
  Json links = Json::array();
  for (const machines::LinkUsage& l : v.links) {
    Json j;
    j["name"] = l.name;
    j["sharing"] = l.sharing;
    j["bandwidth_Bps"] = l.bandwidth;
    j["bytes"] = l.bytes;
    j["utilisation"] = link_utilisation(l, v.predicted_time_s);
    j["busy_s"] = l.busy;
    j["busy_share"] = link_busy_share(l, v.predicted_time_s);
    j["peak_flows"] = l.peak_flows;
    links.push_back(std::move(j));
  }
  return links;
}

// The `machine` object: name, model and the parameters.
Json machine_json(const VariantResult& v) {
  Json m;
  m["name"] = v.machine_name;
  m["model"] = v.machine_model;
  Json params = Json::object();
  for (const auto& [k, val] : v.machine_params) params[k] = val;
  m["parameters"] = params;
  return m;
}

// One variant's object. `whole` = false leaves the two per-processor arrays (`processors` and
// `wait_states.processors`) empty, for write_json to stream.
Json variant_json(const VariantResult& v, bool whole) {
  Json j;
  j["index"] = v.index;
  j["processor_count"] = v.processors;
  j["trace"] = v.trace;
  j["machine"] = machine_json(v);
  Json swept = Json::object();
  for (const auto& [k, val] : v.swept) swept[k] = val;
  j["swept"] = swept;
  j["collectives"] = v.collectives;
  j["outcome"] = v.outcome;
  j["message"] = v.message;
  j["predicted_time_s"] = v.predicted_time_s;
  j["events"] = v.events;
  j["totals"] = lp_json(totals(v.lps));
  Json procs = Json::array();
  if (whole) {
    for (std::size_t i = 0; i < v.lps.size(); ++i) procs.push_back(processor_json(v, i));
  }
  j["processors"] = std::move(procs);
  if (!v.waits.empty()) j["wait_states"] = wait_states_json(v, whole);
  if (v.intervals) {
    if (!v.grid.empty()) {
      j["grid"] = v.grid;
      // The documented differences from the original Predictor this DVM run met ("Q1 psview_: …").
      j["differences_from_predictor"] = v.differences;
    }
    j["characteristics"] = interval_report_json(*v.intervals, interval_meta(v), v.interval_root);
  }
  if (v.static_estimate) j["static"] = static_json(*v.static_estimate, v.predicted_time_s);
  if (!v.links.empty()) j["links"] = links_json(v);
  j["warnings"] = v.warnings;
  round_numbers(j);
  return j;
}

// Streaming JSON in exactly the layout of nlohmann's dump(2): values are written as dump(2)
// writes them at their nesting depth; the arrays named in `streams` (by JSON pointer) are written
// element by element by their streamer instead of from the (empty) value in the document.
using Streamer = std::function<void(std::ostream& out, int depth)>;

void pad(std::ostream& out, int depth) {
  for (int i = 0; i < depth; ++i) out << "  ";
}

// `value` as dump(2) writes it, its lines after the first indented for nesting `depth`.
void put(std::ostream& out, const Json& value, int depth) {
  const std::string text = shortest_numbers(value.dump(2, ' ', false, Json::error_handler_t::replace));
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    pad(out, depth);
    from = nl + 1;
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

void write_value(std::ostream& out, const Json& value, int depth, const std::string& path,
                 const std::map<std::string, Streamer>& streams) {
  if (const auto it = streams.find(path); it != streams.end()) {
    it->second(out, depth);
    return;
  }
  if (!value.is_object() || value.empty()) {
    put(out, value, depth);
    return;
  }
  out << "{\n";
  bool first = true;
  for (const auto& item : value.items()) {
    if (!first) out << ",\n";
    first = false;
    pad(out, depth + 1);
    out << Json(item.key()).dump(-1, ' ', false, Json::error_handler_t::replace) << ": ";
    write_value(out, item.value(), depth + 1, path + "/" + item.key(), streams);
  }
  out << "\n";
  pad(out, depth);
  out << "}";
}

// An array of `n` elements made one at a time by `element`, as dump(2) writes it at `depth`.
void write_array(std::ostream& out, int depth, std::size_t n, const std::function<Json(std::size_t)>& element) {
  if (n == 0) {
    out << "[]";
    return;
  }
  out << "[\n";
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out << ",\n";
    pad(out, depth + 1);
    put(out, element(i), depth + 1);
  }
  out << "\n";
  pad(out, depth);
  out << "]";
}

Json document_head(const std::string& scenario) {
  Json doc;
  doc["schema_version"] = 1;
  doc["generator"] = generator();
  doc["scenario"] = scenario;
  doc["variants"] = Json::array();
  return doc;
}

}  // namespace

nlohmann::ordered_json to_json(const std::string& scenario, const std::vector<VariantResult>& variants) {
  Json doc = document_head(scenario);
  for (const VariantResult& v : variants) doc["variants"].push_back(variant_json(v, true));
  return doc;
}

void write_json(std::ostream& out, const std::string& scenario, const std::vector<VariantResult>& variants) {
  const std::map<std::string, Streamer> top = {
      {"/variants", [&](std::ostream& o, int depth) {
         if (variants.empty()) {
           o << "[]";
           return;
         }
         o << "[\n";
         for (std::size_t k = 0; k < variants.size(); ++k) {
           const VariantResult& v = variants[k];
           if (k > 0) o << ",\n";
           pad(o, depth + 1);
           const std::map<std::string, Streamer> inner = {
               {"/processors",
                [&](std::ostream& s, int d) {
                  write_array(s, d, v.lps.size(), [&](std::size_t i) { return processor_json(v, i); });
                }},
               {"/wait_states/processors",
                [&](std::ostream& s, int d) {
                  write_array(s, d, v.waits.size(), [&](std::size_t i) { return processor_waits_json(v, i); });
                }},
           };
           write_value(o, variant_json(v, false), depth + 1, "", inner);
         }
         o << "\n";
         pad(o, depth);
         o << "]";
       }}};
  write_value(out, document_head(scenario), 0, "", top);
  out << "\n";
}

void write_json(const std::string& path, const std::string& scenario, const std::vector<VariantResult>& variants) {
  engine::OutputFile f(path, "JSON report");
  write_json(f.stream(), scenario, variants);
  f.commit();
}

}  // namespace augur::models::report
