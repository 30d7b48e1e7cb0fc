// VariantResult to JSON and back (result_json.hpp). Each plain struct is one flat array whose
// order one field list (`fields`) gives for both directions.
#include "models/report/result_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace augur::models::report {
namespace {

using nlohmann::json;
using namespace analysis;

/// Appends fields to a flat array.
struct Writer {
  json out = json::array();
  void operator()(const double& x) {
    if (std::isfinite(x))
      out.push_back(x);
    else
      out.push_back(std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf"));
  }
  void operator()(const std::uint64_t& x) { out.push_back(x); }
  void operator()(const std::string& s) { out.push_back(s); }
};

/// Takes fields from a flat array, in the order Writer appended them.
struct Reader {
  const json& in;
  std::size_t at = 0;
  const json& next() {
    if (!in.is_array() || at >= in.size()) throw std::invalid_argument("a record has too few fields");
    return in[at++];
  }
  void operator()(double& x) {
    const json& j = next();
    if (j.is_number()) {
      x = j.get<double>();
    } else if (j == "inf" || j == "-inf") {
      x = j == "inf" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    } else if (j == "nan") {
      x = std::numeric_limits<double>::quiet_NaN();
    } else {
      throw std::invalid_argument(fmt::format("'{}' is not a number", j.dump()));
    }
  }
  void operator()(std::uint64_t& x) {
    const json& j = next();
    if (!j.is_number_unsigned()) throw std::invalid_argument(fmt::format("'{}' is not a count", j.dump()));
    x = j.get<std::uint64_t>();
  }
  void operator()(std::string& s) {
    const json& j = next();
    if (!j.is_string()) throw std::invalid_argument(fmt::format("'{}' is not a string", j.dump()));
    s = j.get<std::string>();
  }
  void finish() const {
    if (at != in.size()) throw std::invalid_argument("a record has too many fields");
  }
};

// The field lists: T is the struct or its const version (Writer or Reader).
template <class Io, class T>
void fields(Io& io, T& s) requires std::is_same_v<std::remove_const_t<T>, LpStats> {
  for (auto* x : {&s.compute_s, &s.transfer_s, &s.wait_s, &s.sleep_s, &s.end_s}) io(*x);
  for (auto* x : {&s.messages_sent, &s.bytes_sent, &s.messages_received, &s.bytes_received, &s.collectives, &s.events})
    io(*x);
}
template <class Io, class T>
void fields(Io& io, T& s) requires std::is_same_v<std::remove_const_t<T>, WaitAmount> {
  io(s.total_s);
  io(s.indirect_s);
  io(s.count);
}
template <class Io, class T>
void fields(Io& io, T& s) requires std::is_same_v<std::remove_const_t<T>, LpWaits> {
  for (auto& p : s.patterns) fields(io, p);
  fields(io, s.wrong_order);
  io(s.caused_s);
}
template <class Io, class T>
void fields(Io& io, T& s) requires std::is_same_v<std::remove_const_t<T>, RegionCause> {
  io(s.name);
  io(s.caused_s);
  io(s.excess_s);
  io(s.waits);
}
template <class Io, class T>
void fields(Io& io, T& s) requires std::is_same_v<std::remove_const_t<T>, WaitSite> {
  io(s.name);
  for (auto& p : s.patterns) fields(io, p);
}
template <class Io, class T>
void fields(Io& io, T& s) requires std::is_same_v<std::remove_const_t<T>, OpTimes> {
  for (auto* x :
       {&s.communication, &s.real_sync, &s.synchronization, &s.variation, &s.overlap, &s.transfer, &s.waiting})
    io(*x);
}
template <class Io, class T>
void fields(Io& io, T& s) requires std::is_same_v<std::remove_const_t<T>, ProcessorTimes> {
  for (auto* x :
       {&s.execution, &s.cpu_usr, &s.cpu_sys, &s.io, &s.insuff_usr, &s.insuff_sys, &s.insuff_par, &s.communication,
        &s.real_sync, &s.synchronization, &s.variation, &s.overlap, &s.lost, &s.idle, &s.load_imbalance})
    io(*x);
}
template <class Io, class T>
void fields(Io& io, T& s) requires std::is_same_v<std::remove_const_t<T>, IntervalTotals> {
  for (auto* x :
       {&s.efficiency, &s.execution, &s.total,          &s.productive,      &s.productive_cpu, &s.productive_sys,
        &s.io,         &s.lost,      &s.insufficient,   &s.insuff_usr,      &s.insuff_sys,     &s.communication,
        &s.real_sync,  &s.idle,      &s.load_imbalance, &s.synchronization, &s.variation,      &s.overlap,
        &s.cpu_usr,    &s.cpu_sys,   &s.transfer,       &s.waiting})
    io(*x);
  for (auto& o : s.ops) fields(io, o);
  for (auto& n : s.operations) io(n);
}

template <class T>
json flat(const T& s) {
  Writer w;
  fields(w, s);
  return std::move(w.out);
}
template <class T>
void unflat(const json& j, T& s) {
  Reader r{j};
  fields(r, s);
  r.finish();
}
template <class T>
json flat_list(const std::vector<T>& items) {
  json a = json::array();
  for (const T& s : items) a.push_back(flat(s));
  return a;
}
template <class T>
std::vector<T> unflat_list(const json& j) {
  if (!j.is_array()) throw std::invalid_argument("a list is not an array");
  std::vector<T> items(j.size());
  for (std::size_t i = 0; i < items.size(); ++i) unflat(j[i], items[i]);
  return items;
}

json pairs(const std::vector<std::pair<std::string, std::string>>& items) {
  json a = json::array();
  for (const auto& [k, v] : items) a.push_back(json::array({k, v}));
  return a;
}
std::vector<std::pair<std::string, std::string>> unpairs(const json& j) {
  std::vector<std::pair<std::string, std::string>> items;
  for (const json& p : j) items.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
  return items;
}

json interval_to_json(const Interval& i) {
  json j;
  j["id"] = i.id;
  j["parent"] = i.parent != nullptr ? i.parent->id : 0;
  j["type"] = static_cast<int>(i.type);
  j["level"] = i.level;
  j["exe_count"] = i.exe_count;
  j["file"] = i.source_file;
  j["line"] = i.source_line;
  j["index"] = i.index ? json(*i.index) : json();
  j["operations"] = json(i.operations);
  j["totals"] = flat(i.totals);
  json procs = json::array();
  for (const ProcessorTimes& p : i.procs) procs.push_back(flat(p));
  j["procs"] = std::move(procs);
  json columns = json::array();
  for (std::size_t k = 0; k < op_kind_count; ++k) {
    if (i.procs.has(static_cast<OpKind>(k))) columns.push_back({k, flat_list(i.procs.column(static_cast<OpKind>(k)))});
  }
  j["columns"] = std::move(columns);
  return j;
}

json tree_to_json(const VariantResult& v) {
  if (!v.intervals) return json();
  const IntervalTree& tree = *v.intervals;
  std::vector<const Interval*> nodes;
  tree.for_each([&](const Interval& i) { nodes.push_back(&i); });
  std::sort(nodes.begin(), nodes.end(), [](const Interval* a, const Interval* b) { return a->id < b->id; });
  json j;
  j["processors"] = tree.processors();
  j["rule"] = static_cast<int>(v.intervals_rule);
  j["current"] = tree.current().id;
  j["report_root"] = v.interval_root != nullptr ? v.interval_root->id : 0;
  j["intervals"] = json::array();
  for (const Interval* i : nodes) j["intervals"].push_back(interval_to_json(*i));
  return j;
}

/// Makes `target` (an interval already in the tree) the tree's current interval: up to the root,
/// then down its path (enter() finds each step; the exe_counts it adds are overwritten later).
void go_to(IntervalTree& tree, const Interval& target) {
  while (tree.current().parent != nullptr) tree.exit_to_parent();
  std::vector<const Interval*> path;
  for (const Interval* i = &target; i->parent != nullptr; i = i->parent) path.push_back(i);
  for (auto it = path.rbegin(); it != path.rend(); ++it)
    tree.enter((*it)->type, (*it)->source_file, (*it)->source_line, (*it)->index);
}

Interval& interval_by_id(IntervalTree& tree, const json& id) {
  Interval* i = tree.by_id(id.get<int>());
  if (i == nullptr) throw std::invalid_argument(fmt::format("no interval {}", id.dump()));
  return *i;
}

/// The figures of one interval (its place in the tree is made already).
void interval_figures(const json& j, Interval& i, int processors) {
  i.level = j.at("level").get<int>();
  i.exe_count = j.at("exe_count").get<std::uint64_t>();
  i.operations = j.at("operations").get<std::array<std::uint64_t, op_kind_count>>();
  unflat(j.at("totals"), i.totals);
  const json& procs = j.at("procs");
  if (procs.size() != static_cast<std::size_t>(processors))
    throw std::invalid_argument(fmt::format("interval {} has {} processors, not {}", i.id, procs.size(), processors));
  for (std::size_t p = 0; p < procs.size(); ++p) unflat(procs[p], i.procs[p]);
  for (const json& c : j.at("columns")) {
    const auto k = c.at(0).get<std::size_t>();
    if (k >= op_kind_count || c.at(1).size() != procs.size())
      throw std::invalid_argument(fmt::format("interval {} has a bad operation column", i.id));
    OpTimes* column = i.procs.add_column(static_cast<OpKind>(k));
    for (std::size_t p = 0; p < procs.size(); ++p) unflat(c.at(1)[p], column[p]);
  }
}

/// The tree, rebuilt with enter() in id order (the order the run created the intervals in), so
/// that every interval gets its id back; checked.
void tree_from_json(const json& j, VariantResult& v) {
  if (j.is_null()) return;
  const int processors = j.at("processors").get<int>();
  if (processors < 0 || processors > (1 << 24)) throw std::invalid_argument("bad processor count");
  const json& intervals = j.at("intervals");
  if (intervals.empty() || intervals[0].at("id") != 1) throw std::invalid_argument("the tree has no root");
  auto tree = std::make_shared<IntervalTree>(processors, intervals[0].at("file").get<std::string>(),
                                             intervals[0].at("line").get<int>());
  for (std::size_t n = 1; n < intervals.size(); ++n) {
    const json& i = intervals[n];
    const auto type = i.at("type").get<int>();
    if (type < 0 || type > static_cast<int>(IntervalType::phase)) throw std::invalid_argument("bad interval type");
    go_to(*tree, interval_by_id(*tree, i.at("parent")));
    const std::optional<long> index = i.at("index").is_null() ? std::nullopt : std::optional(i.at("index").get<long>());
    const Interval& made =
        tree->enter(static_cast<IntervalType>(type), i.at("file").get<std::string>(), i.at("line").get<int>(), index);
    if (made.id != i.at("id").get<int>())
      throw std::invalid_argument(fmt::format("interval {} does not rebuild in place", i.at("id").dump()));
  }
  for (const json& i : intervals) interval_figures(i, interval_by_id(*tree, i.at("id")), processors);
  go_to(*tree, interval_by_id(*tree, j.at("current")));
  const auto rule = j.at("rule").get<int>();
  if (rule < 0 || rule > static_cast<int>(IntegrateRule::predictor)) throw std::invalid_argument("bad integrate rule");
  v.intervals_rule = static_cast<IntegrateRule>(rule);
  v.interval_root = j.at("report_root") == 0 ? nullptr : &interval_by_id(*tree, j.at("report_root"));
  v.intervals = std::move(tree);
}

/// The fields of one StaticFigures, in a fixed order (shared by the writer and the reader).
template <class Visit, class Figures>
void visit_figures(Visit& visit, Figures& f) {
  visit(f.flops);
  visit(f.bytes_loaded);
  visit(f.bytes_stored);
  visit(f.messages);
  visit(f.bytes_sent);
  visit(f.bytes_received);
  visit(f.mpi_calls);
  visit(f.t_comm);
}

/// The static estimate as one flat array: the level count and names, the chosen level, latency,
/// bandwidth, the process count, then the program's figures and each process's (figures, time count,
/// times).
json static_to_json(const VariantResult& v) {
  if (!v.static_estimate) return nullptr;
  const StaticEstimate& e = *v.static_estimate;
  Writer w;
  w(static_cast<std::uint64_t>(e.levels.size()));
  for (const std::string& l : e.levels) w(l);
  w(static_cast<std::uint64_t>(e.chosen));
  w(e.latency);
  w(e.bandwidth);
  w(static_cast<std::uint64_t>(e.processes.size()));
  const auto figures = [&w](const StaticFigures& f) {
    StaticFigures copy = f;
    visit_figures(w, copy);
    w(static_cast<std::uint64_t>(f.time.size()));
    for (const double t : f.time) w(t);
  };
  figures(e.program);
  for (const StaticFigures& f : e.processes) figures(f);
  return std::move(w.out);
}

void static_from_json(const json& j, VariantResult& v) {
  if (j.is_null()) return;
  auto e = std::make_shared<StaticEstimate>();
  Reader r{j};
  std::uint64_t n = 0;
  r(n);
  if (n > j.size()) throw std::invalid_argument("a static estimate has too few fields");
  e->levels.resize(n);
  for (std::string& l : e->levels) r(l);
  std::uint64_t chosen = 0;
  r(chosen);
  if (!e->levels.empty() && chosen >= e->levels.size()) throw std::invalid_argument("bad memory level index");
  e->chosen = chosen;
  r(e->latency);
  r(e->bandwidth);
  r(n);
  if (n > j.size()) throw std::invalid_argument("a static estimate has too few fields");
  e->processes.resize(n);
  const auto figures = [&r, &j](StaticFigures& f) {
    visit_figures(r, f);
    std::uint64_t times = 0;
    r(times);
    if (times > j.size()) throw std::invalid_argument("a static estimate has too few fields");
    f.time.resize(times);
    for (double& t : f.time) r(t);
  };
  figures(e->program);
  for (StaticFigures& f : e->processes) figures(f);
  r.finish();
  v.static_estimate = std::move(e);
}

}  // namespace

json result_to_json(const VariantResult& v) {
  json j;
  j["index"] = v.index;
  j["processors"] = v.processors;
  j["trace"] = v.trace;
  j["machine_name"] = v.machine_name;
  j["machine_model"] = v.machine_model;
  j["machine_params"] = pairs(v.machine_params);
  j["swept"] = pairs(v.swept);
  j["collectives"] = v.collectives;
  j["outcome"] = v.outcome;
  j["message"] = v.message;
  Writer time;
  time(v.predicted_time_s);
  j["predicted_time_s"] = std::move(time.out);
  j["events"] = v.events;
  j["lps"] = flat_list(v.lps);
  j["waits"] = flat_list(v.waits);
  j["wait_states"] = v.wait_states;
  j["wait_operations"] = static_cast<int>(v.wait_operations);
  j["waits_by_operation"] = flat_list(v.waits_by_operation);
  Writer explained;
  for (const double x : v.explained_by_operation) explained(x);
  j["explained_by_operation"] = std::move(explained.out);
  j["causes"] = flat_list(v.causes);
  j["wait_sites"] = flat_list(v.wait_sites);
  j["warnings"] = v.warnings;
  j["intervals"] = tree_to_json(v);
  j["grid"] = v.grid;
  j["static"] = static_to_json(v);
  j["report_grid"] = v.report_grid;
  j["differences"] = v.differences;
  json links = json::array();
  for (const machines::LinkUsage& l : v.links) {
    Writer w;
    w(l.name);
    w(l.sharing);
    w(l.bandwidth);
    w(l.bytes);
    w(l.busy);
    w(static_cast<std::uint64_t>(l.peak_flows));
    links.push_back(std::move(w.out));
  }
  j["links"] = std::move(links);
  return j;
}

VariantResult result_from_json(const json& j) {
  try {
    VariantResult v;
    v.index = j.at("index").get<int>();
    v.processors = j.at("processors").get<int>();
    v.trace = j.at("trace").get<std::string>();
    v.machine_name = j.at("machine_name").get<std::string>();
    v.machine_model = j.at("machine_model").get<std::string>();
    v.machine_params = unpairs(j.at("machine_params"));
    v.swept = unpairs(j.at("swept"));
    v.collectives = j.at("collectives").get<std::string>();
    v.outcome = j.at("outcome").get<std::string>();
    v.message = j.at("message").get<std::string>();
    Reader time{j.at("predicted_time_s")};
    time(v.predicted_time_s);
    time.finish();
    v.events = j.at("events").get<std::uint64_t>();
    v.lps = unflat_list<LpStats>(j.at("lps"));
    v.waits = unflat_list<LpWaits>(j.at("waits"));
    v.wait_states = j.at("wait_states").get<bool>();
    v.wait_operations = j.at("wait_operations").get<int>() == 0 ? WaitOperations::message_passing : WaitOperations::dvm;
    v.waits_by_operation = unflat_list<WaitAmount>(j.at("waits_by_operation"));
    Reader explained{j.at("explained_by_operation")};
    v.explained_by_operation.resize(j.at("explained_by_operation").size());
    for (double& x : v.explained_by_operation) explained(x);
    v.causes = unflat_list<RegionCause>(j.at("causes"));
    v.wait_sites = unflat_list<WaitSite>(j.at("wait_sites"));
    v.warnings = j.at("warnings").get<std::vector<std::string>>();
    tree_from_json(j.at("intervals"), v);
    v.grid = j.at("grid").get<std::string>();
    if (j.contains("static")) static_from_json(j.at("static"), v);
    v.report_grid = j.value("report_grid", std::string());
    v.differences = j.value("differences", std::vector<std::string>());
    if (j.contains("links"))
      for (const json& record : j.at("links")) {
        Reader r{record};
        machines::LinkUsage l;
        std::uint64_t peak = 0;
        r(l.name);
        r(l.sharing);
        r(l.bandwidth);
        r(l.bytes);
        r(l.busy);
        r(peak);
        r.finish();
        l.peak_flows = static_cast<std::uint32_t>(peak);
        v.links.push_back(std::move(l));
      }
    return v;
  } catch (const json::exception& e) {
    throw std::invalid_argument(e.what());
  }
}

}  // namespace augur::models::report
