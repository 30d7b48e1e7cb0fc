// Interval reports: the HTML against Predictor 3.1's own output for jac1d on a 2x2 grid (byte for
// byte but the title), its navigation on a nested tree, the JSON keys and values, and the text
// report's lines in the DVM analyzer's layout — every expected figure computed by hand here.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/analysis/characteristics.hpp"
#include "models/report/interval_report.hpp"
#include "tests/support/files.hpp"

using namespace augur::models;
using analysis::Interval;
using analysis::IntervalTree;
using analysis::IntervalType;
using analysis::OpKind;

namespace {

/// Replaces the line after each "   <TITLE>" by an empty one (the only line 3.1 lets differ).
std::string without_titles(std::string s) {
  const std::string open = "   <TITLE>\n";
  for (std::size_t at = s.find(open); at != std::string::npos; at = s.find(open, at)) {
    at += open.size();
    const std::size_t end = s.find('\n', at);
    s.erase(at, end - at);
  }
  return s;
}

/// jac1d on mvs, grid 2x2, as Predictor 3.1 reports it (oracle/figures.tsv, 9 decimals): the whole
/// figure put on processor 0, Execution on all four (Execution time = max over processors).
IntervalTree jac1d_2x2() {
  IntervalTree tree(4, "jac1d.cdv", 25);
  Interval& main = tree.root();
  for (auto& p : main.procs) p.execution = 0.008525779;
  analysis::ProcessorTimes& p = main.proc(0);
  p.cpu_usr = 0.000505080 + 0.001223490;  // productive CPU + insufficient parallelism (user)
  p.cpu_sys = 0.004825490 + 0.014476470;  // productive SYS + insufficient parallelism (sys)
  p.io = 0.002905610;
  p.insuff_usr = 0.001223490;
  p.insuff_sys = 0.014476470;
  p.idle = 0.002252610;
  p.lost = 0.025866935 - 0.002252610;  // Lost time = own lost + Idle
  p.communication = 0.007914365;
  p.synchronization = 0.006464220;
  p.overlap = 0.000226800;
  main.op(0, OpKind::reduction).communication = 0.007701853;
  main.op(0, OpKind::reduction).synchronization = 0.006464220;
  main.op(0, OpKind::reduction).overlap = 0.000125680;
  main.op(0, OpKind::shadow).communication = 0.000212512;
  main.op(0, OpKind::shadow).overlap = 0.000101120;
  for (int k = 0; k < 14; ++k) main.count_op(OpKind::io);
  for (int k = 0; k < 11; ++k) main.count_op(OpKind::reduction);
  for (int k = 0; k < 11; ++k) main.count_op(OpKind::shadow);
  tree.integrate(analysis::IntegrateRule::predictor);
  return tree;
}

report::IntervalReportMeta jac1d_meta() {
  report::IntervalReportMeta meta;
  meta.program = "jac1d";
  meta.machine = "mvs";
  meta.grid = "2x2";
  meta.processors = 4;
  meta.title = "jac1d_2_2.html";
  return meta;
}

/// Main 1 { Seq 2 (line 10) { Par 3 (line 12), Par 4 (line 20, expr 5) }, User 5 (line 30) }.
IntervalTree nested_tree() {
  IntervalTree tree(2, "n.fdv", 1);
  const std::vector<int> all{0, 1};
  tree.enter(IntervalType::seq, "n.fdv", 10, std::nullopt);
  tree.enter(IntervalType::par, "n.fdv", 12, std::nullopt);
  tree.leave(all);
  tree.enter(IntervalType::par, "n.fdv", 20, 5);
  tree.leave(all);
  tree.leave(all);
  tree.enter(IntervalType::user, "n.fdv", 30, std::nullopt);
  tree.leave(all);
  tree.integrate(analysis::IntegrateRule::predictor);
  return tree;
}

struct Navigation {
  int up = 0, pred = 0, next = 0, home = 0;
  std::vector<int> nested;  // HREFs of the nested-interval table
  bool operator==(const Navigation&) const = default;
};

/// Per HTML block (anchor id): its navigation links and nested-interval links.
std::map<int, Navigation> navigation(const std::string& html) {
  std::map<int, Navigation> out;
  const std::regex anchor("<A NAME=\n\"(\\d+)\"\n></A>");
  const std::regex link("<A HREF=\n\"#(\\d+)\"\n>([A-Z]*)");
  std::size_t start = 0;
  while (start < html.size()) {
    std::size_t end = html.find("</HTML>\n", start);
    if (end == std::string::npos) break;
    const std::string block = html.substr(start, end - start);
    start = end + 8;
    std::smatch m;
    if (!std::regex_search(block, m, anchor)) continue;
    Navigation& n = out[std::stoi(m[1])];
    for (std::sregex_iterator it(block.begin(), block.end(), link), e; it != e; ++it) {
      const int target = std::stoi((*it)[1]);
      const std::string name = (*it)[2];
      if (name == "UP")
        n.up = target;
      else if (name == "PRED")
        n.pred = target;
      else if (name == "NEXT")
        n.next = target;
      else if (name == "HOME")
        n.home = target;
      else
        n.nested.push_back(target);
    }
  }
  return out;
}

/// One row of oracle/figures.tsv, by column name.
using FigureRow = std::map<std::string, std::string>;

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
    out.push_back(line.substr(start, tab - start));
  out.push_back(line.substr(start));
  return out;
}

/// The 3.1 runs of oracle/figures.tsv and programs/sor/figures.tsv: key "program/variant/par/grid" → its intervals in
/// pre-order.
std::map<std::string, std::vector<FigureRow>> predictor_runs() {
  std::map<std::string, std::vector<FigureRow>> runs;
  for (const char* figures : {"oracle/figures.tsv", "programs/sor/figures.tsv"}) {
    std::istringstream in(augur::test::slurp(std::string(AUGUR_SHARED_DIR "/dvm-samples/") + figures));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> names = split_tabs(line);
    while (std::getline(in, line)) {
      const std::vector<std::string> cells = split_tabs(line);
      if (cells.size() != names.size() || cells[0] != "3.1") continue;
      FigureRow row;
      for (std::size_t k = 0; k < names.size(); ++k) row[names[k]] = cells[k];
      runs[row["program"] + "/" + row["variant"] + "/" + row["par"] + "/" + row["grid"]].push_back(row);
    }
  }
  return runs;
}

IntervalType interval_type(const std::string& name) {
  if (name == "Seq") return IntervalType::seq;
  if (name == "Par") return IntervalType::par;
  if (name == "User") return IntervalType::user;
  return IntervalType::main;
}

/// The interval tree of one 3.1 run rebuilt from its figures: the structure from the levels
/// (pre-order), each interval's own figures = its totals minus its nested intervals' totals, all
/// on processor 0 but Execution (on every processor). Per-kind real synchronization and variation
/// of the kinds other than I/O are not added from nested intervals by 3.1: taken as they are.
/// Returns the report root (the first row).
const Interval* tree_from_figures(IntervalTree& tree, const std::vector<FigureRow>& rows,
                                  const std::map<int, std::string>& files) {
  // 3.1's "-0.000000000" is a tiny negative value: keep its sign through the sums.
  const auto num = [](const FigureRow& r, const std::string& key) {
    const double v = std::stod(r.at(key));
    return v == 0 && r.at(key)[0] == '-' ? -1e-12 : v;
  };
  std::map<int, Interval*> by_id;
  std::map<int, const FigureRow*> row_of;
  for (const FigureRow& r : rows) {
    const int id = std::stoi(r.at("interval"));
    const int level = std::stoi(r.at("level"));
    Interval* interval = &tree.root();
    if (level > 0) {
      while (tree.current().level >= level) tree.leave({});
      interval = &tree.enter(interval_type(r.at("type")), files.at(id), std::stoi(r.at("line")), std::nullopt);
    } else {
      interval->source_line = std::stoi(r.at("line"));
      interval->source_file = files.at(id);
    }
    REQUIRE(interval->id == id);
    interval->exe_count = std::stoull(r.at("count"));
    by_id[id] = interval;
    row_of[id] = &r;
  }
  const char* kinds[] = {"IO", "Reduction", "Shadow", "Remote_access", "Redistribution"};
  for (const auto& [id, interval] : by_id) {
    const FigureRow& r = *row_of[id];
    // own = total − Σ nested totals
    const auto own = [&](const std::string& key) {
      double v = num(r, key);
      for (const auto& c : interval->children) v -= num(*row_of.at(c->id), key);
      return v;
    };
    for (auto& p : interval->procs) p.execution = own("exec");
    analysis::ProcessorTimes& p = interval->proc(0);
    p.cpu_usr = own("prod_cpu") + own("insuf_usr");
    p.cpu_sys = own("prod_sys") + own("insuf_sys");
    p.io = own("prod_io");
    p.insuff_usr = own("insuf_usr");
    p.insuff_sys = own("insuf_sys");
    p.idle = own("idle");
    p.lost = own("lost") - p.idle;
    p.communication = own("comm");
    p.real_sync = own("syn");
    p.load_imbalance = own("imbal");
    p.synchronization = own("synch");
    p.variation = own("vary");
    p.overlap = own("over");
    for (std::size_t k = 0; k < 5; ++k) {
      const std::string kind = kinds[k];
      analysis::OpTimes& op = interval->op(0, analysis::dvm_op_kinds[k]);
      op.communication = own(kind + "_comm");
      op.synchronization = own(kind + "_synch");
      op.overlap = own(kind + "_overlap");
      op.real_sync = k == 0 ? own(kind + "_realsynch") : num(r, kind + "_realsynch");
      op.variation = k == 0 ? own(kind + "_var") : num(r, kind + "_var");
      for (double n = own(kind + "_nop"); n > 0.5; n -= 1) interval->count_op(analysis::dvm_op_kinds[k]);
    }
  }
  tree.integrate(analysis::IntegrateRule::predictor);
  return by_id.begin()->second;
}

/// Per HTML block: interval id → the file named in its INTERVAL table.
std::map<int, std::string> files_of(const std::string& html) {
  std::map<int, std::string> out;
  const std::regex block(
      "<A NAME=\n\"(\\d+)\"\n></A>[^]*?\n([^\n]*)\n</FONT></CENTER>\n</TD>\n</TR>\n</TABLE></CENTER>");
  for (std::sregex_iterator it(html.begin(), html.end(), block), e; it != e; ++it) out[std::stoi((*it)[1])] = (*it)[2];
  return out;
}
}  // namespace

TEST_SUITE("interval_report") {
  TEST_CASE("Interval HTML equals Predictor 3.1's jac1d 2x2 report but the title") {
    const std::string sample = augur::test::slurp(AUGUR_SHARED_DIR "/dvm-samples/jac1d_2_2.pred_res.html");
    REQUIRE(!sample.empty());
    const IntervalTree tree = jac1d_2x2();
    // Efficiency = Productive / Total = 0.008236180 / (4 · 0.008525779) = 0.2415.
    CHECK(tree.root().totals.efficiency == doctest::Approx(0.241508).epsilon(1e-5));
    report::HtmlReportOptions plain;
    plain.augur_extras = false;
    const std::string html = report::interval_html(tree, jac1d_meta(), nullptr, plain);
    CHECK(without_titles(html) == without_titles(sample));
    CHECK(html.find("   <TITLE>\njac1d_2_2.html :: augur\n</TITLE>\n") != std::string::npos);

    // The 3.1 root (the interval current at the end of the trace) is Main here: same output.
    CHECK(report::interval_html(tree, jac1d_meta(), report::predictor_report_root(tree), plain) == html);

    // augur's section follows the 3.1 part, which stays a byte-exact prefix.
    const std::string full = report::interval_html(tree, jac1d_meta());
    REQUIRE(full.size() > html.size());
    CHECK(full.compare(0, html.size(), html) == 0);
    const std::string extras = full.substr(html.size());
    CHECK(extras.find("<A NAME=\"augur-1\"></A>") != std::string::npos);
    CHECK(extras.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
    CHECK(extras.find("<script") == std::string::npos);
    CHECK(extras.find("src=") == std::string::npos);
    // Processor 0's row: execution 0.008526, lost = own lost + idle = 0.025867.
    CHECK(extras.find("<TR ALIGN=RIGHT><TD>0</TD><TD>0.008526</TD>") != std::string::npos);
    CHECK(extras.find("<TD>0.025867</TD></TR>") != std::string::npos);
    // Bars: the whole CPU and I/O time sits on processor 0, so only P0 has a compute part.
    CHECK(extras.find("<title>P0 compute: ") != std::string::npos);
    CHECK(extras.find("<title>P1 compute: ") == std::string::npos);
  }

  TEST_CASE("Interval HTML equals every stored Predictor 3.1 report rebuilt from its figures") {
    // Every 3.1 reference run (figures.tsv, 9 decimals) with its report (4 decimals): the rebuilt
    // tree must print the same report but the titles.
    int compared = 0;
    for (const auto& [key, rows] : predictor_runs()) {
      const FigureRow& first = rows.front();
      std::string grid_file = first.at("grid");
      std::replace(grid_file.begin(), grid_file.end(), 'x', '_');
      const std::string program = first.at("program");
      const std::string path = std::string(AUGUR_SHARED_DIR "/dvm-samples/programs/") + program + "/" +
                               first.at("variant") + "/html/" + program + "_" + first.at("par") + "_" + grid_file +
                               ".html";
      if (!std::filesystem::exists(path)) continue;
      const std::string sample = augur::test::slurp(path);
      int processors = 1;  // "2x2" → 4
      std::istringstream dims(first.at("grid"));
      for (std::string d; std::getline(dims, d, 'x');) processors *= std::stoi(d);
      IntervalTree tree(processors);
      const Interval* root = tree_from_figures(tree, rows, files_of(sample));
      report::IntervalReportMeta meta;
      meta.grid = first.at("procs");  // the root processor system's shape as 3.1 prints it (tsk: "1")
      report::HtmlReportOptions plain;
      plain.augur_extras = false;
      INFO(key);
      const std::string ours = report::interval_html(tree, meta, root, plain);
      CHECK(without_titles(ours) == without_titles(sample));
      ++compared;
    }
    CHECK(compared >= 66);
  }

  TEST_CASE("Interval HTML links nested intervals with up previous next and home") {
    const IntervalTree tree = nested_tree();
    report::HtmlReportOptions plain;
    plain.augur_extras = false;
    report::IntervalReportMeta meta;
    meta.grid = "2";
    const std::string html = report::interval_html(tree, meta, nullptr, plain);
    const std::map<int, Navigation> nav = navigation(html);
    // Pre-order blocks 1 2 3 4 5. Report root: UP #1, NEXT its first nested, PRED its last nested.
    // Others: UP the parent, PRED the previous sibling (the parent for the first), NEXT the
    // following sibling (the parent for the last); HOME always #1.
    const std::map<int, Navigation> expected{
        {1, {1, 5, 2, 1, {2, 5}}}, {2, {1, 1, 5, 1, {3, 4}}}, {3, {2, 2, 4, 1, {}}},
        {4, {2, 3, 2, 1, {}}},     {5, {1, 2, 1, 1, {}}},
    };
    CHECK(nav == expected);
    // Blocks in pre-order.
    CHECK(html.find("\"1\"\n></A>") < html.find("\"2\"\n></A>"));
    CHECK(html.find("\"2\"\n></A>") < html.find("\"3\"\n></A>"));
    CHECK(html.find("\"4\"\n></A>") < html.find("\"5\"\n></A>"));
    // Nested table of block 2: Go 2 → #4, a Par at level 2, line 20, expr 5.
    CHECK(html.find("<A HREF=\n\"#4\"\n>\n2\n</A></FONT></CENTER>\n</TD>\n\n<TD>\n<CENTER><FONT SIZE=-1>\nPar\n"
                    "</FONT></CENTER>\n</TD>\n\n<TD>\n<CENTER><FONT SIZE=-1>\n2\n</FONT></CENTER>\n</TD>\n\n<TD>\n"
                    "<CENTER><FONT SIZE=-1>\n1\n</FONT></CENTER>\n</TD>\n\n<TD>\n<CENTER><FONT SIZE=-1>\n20\n"
                    "</FONT></CENTER>\n</TD>\n\n<TD>\n<CENTER><FONT SIZE=-1>\n5\n</FONT></CENTER>\n</TD>") !=
          std::string::npos);
    // Only the report root carries the given title; the others the generator's name.
    CHECK(html.find("   <TITLE>\naugur\n</TITLE>") != std::string::npos);

    // 3.1 style: the report starts from interval 2 (e.g. the program-level interval current at
    // the end of the trace); its blocks are 2, 3, 4 and HOME/UP still name #1.
    const Interval& seq = *tree.root().children[0];
    const std::map<int, Navigation> sub = navigation(report::interval_html(tree, meta, &seq, plain));
    const std::map<int, Navigation> expected_sub{
        {2, {1, 4, 3, 1, {3, 4}}}, {3, {2, 2, 4, 1, {}}}, {4, {2, 3, 2, 1, {}}}};
    CHECK(sub == expected_sub);
  }

  TEST_CASE("Interval JSON has stable keys and the integrated values") {
    // Two processors. Main own: P0 runs 1.0 s of user CPU, P1 0.5 s → Idle (0, 0.5), imbalance
    // (0, 0.5). Nested Seq (line 5, expr 7): P0 0.25 s sys; P1 0.25 s of shadow communication
    // (real sync 0.1) → its imbalance (0, 0.25).
    IntervalTree tree(2, "j.fdv", 1);
    Interval& main = tree.root();
    main.proc(0).execution = 1.0;
    main.proc(0).cpu_usr = 1.0;
    main.proc(1).execution = 0.5;
    main.proc(1).cpu_usr = 0.5;
    Interval& seq = tree.enter(IntervalType::seq, "j.fdv", 5, 7);
    seq.proc(0).execution = 0.25;
    seq.proc(0).cpu_sys = 0.25;
    seq.proc(1).execution = 0.25;
    seq.proc(1).communication = 0.25;
    seq.proc(1).lost = 0.25;
    seq.op(1, OpKind::shadow).communication = 0.25;
    seq.op(1, OpKind::shadow).real_sync = 0.1;
    seq.count_op(OpKind::shadow);
    tree.leave({0, 1});
    IntervalTree::close_interval(main, {0, 1});
    tree.integrate(analysis::IntegrateRule::predictor);

    report::IntervalReportMeta meta;
    meta.program = "j";
    meta.machine = "m";
    const nlohmann::ordered_json j = report::interval_json(tree, meta);
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.items()) keys.push_back(k);
    const std::vector<std::string> expected_keys{"id",
                                                 "type",
                                                 "level",
                                                 "exe_count",
                                                 "source_file",
                                                 "source_line",
                                                 "index",
                                                 "processors",
                                                 "efficiency",
                                                 "execution_time",
                                                 "total_time",
                                                 "productive_time",
                                                 "lost_time",
                                                 "insufficient_parallelism",
                                                 "communication",
                                                 "real_synchronization",
                                                 "idle_time",
                                                 "load_imbalance",
                                                 "synchronization",
                                                 "time_variation",
                                                 "overlap",
                                                 "collectives",
                                                 "per_processor",
                                                 "intervals"};
    CHECK(keys == expected_keys);
    CHECK(j["id"] == 1);
    CHECK(j["type"] == "Main");
    CHECK(j["index"].is_null());
    CHECK(j["processors"] == "2");
    // Execution = max own (1.0) + nested (0.25) = 1.25; Total = 2 · 1.25 = 2.5;
    // Productive = CPU 1.5 + SYS 0.25 = 1.75; Efficiency = 1.75 / 2.5 = 0.7;
    // Lost = Idle 0.5 + nested communication 0.25 = 0.75; Load imbalance = 0.5 + 0.25 = 0.75.
    CHECK(j["execution_time"].get<double>() == doctest::Approx(1.25));
    CHECK(j["total_time"].get<double>() == doctest::Approx(2.5));
    CHECK(j["efficiency"].get<double>() == doctest::Approx(0.7));
    CHECK(j["productive_time"]["total"].get<double>() == doctest::Approx(1.75));
    CHECK(j["productive_time"]["cpu"].get<double>() == doctest::Approx(1.5));
    CHECK(j["productive_time"]["sys"].get<double>() == doctest::Approx(0.25));
    CHECK(j["lost_time"].get<double>() == doctest::Approx(0.75));
    CHECK(j["idle_time"].get<double>() == doctest::Approx(0.5));
    CHECK(j["load_imbalance"].get<double>() == doctest::Approx(0.75));
    CHECK(j["insufficient_parallelism"]["total"].get<double>() == 0.0);
    std::vector<std::string> kinds;
    for (const auto& [k, v] : j["collectives"].items()) kinds.push_back(k);
    CHECK(kinds == std::vector<std::string>{"io", "reduction", "shadow", "remote_access", "redistribution"});
    std::vector<std::string> columns;
    for (const auto& [k, v] : j["collectives"]["shadow"].items()) columns.push_back(k);
    CHECK(columns == std::vector<std::string>{"operations", "communication", "real_synchronization", "synchronization",
                                              "time_variation", "overlap"});
    CHECK(j["collectives"]["shadow"]["operations"] == 1);
    CHECK(j["collectives"]["shadow"]["communication"].get<double>() == doctest::Approx(0.25));
    // Predictor 3.1 does not add a nested interval's per-kind real synchronization.
    CHECK(j["collectives"]["shadow"]["real_synchronization"].get<double>() == 0.0);
    REQUIRE(j["per_processor"].size() == 2);
    const auto& p1 = j["per_processor"][1];
    CHECK(p1["processor"] == 1);
    CHECK(p1["execution_time"].get<double>() == doctest::Approx(0.75));  // 0.5 + 0.25
    CHECK(p1["cpu"].get<double>() == doctest::Approx(0.5));
    CHECK(p1["communication"].get<double>() == doctest::Approx(0.25));
    CHECK(p1["idle_time"].get<double>() == doctest::Approx(0.5));
    CHECK(p1["load_imbalance"].get<double>() == doctest::Approx(0.75));
    CHECK(p1["lost_time"].get<double>() == doctest::Approx(0.75));  // idle 0.5 + communication 0.25
    CHECK(j["per_processor"][0]["execution_time"].get<double>() == doctest::Approx(1.25));
    REQUIRE(j["intervals"].size() == 1);
    const auto& n = j["intervals"][0];
    CHECK(n["id"] == 2);
    CHECK(n["type"] == "Seq");
    CHECK(n["level"] == 1);
    CHECK(n["source_line"] == 5);
    CHECK(n["index"] == 7);
    CHECK(n["collectives"]["shadow"]["real_synchronization"].get<double>() == doctest::Approx(0.1));
    CHECK(n["intervals"].empty());
    // Full precision: 0.1 round-trips.
    CHECK(n.dump().find("\"real_synchronization\":0.1,") != std::string::npos);

    const nlohmann::ordered_json doc = report::interval_report_json(tree, meta);
    CHECK(doc["program"] == "j");
    CHECK(doc["processor_count"] == 2);
    CHECK(doc["interval"]["id"] == 1);
  }

  namespace {

  /// Four processors, one interval (hand figures below), integrated completely.
  IntervalTree four_processors() {
    IntervalTree tree(4, "t.cdv", 25);
    Interval& i = tree.root();
    const double exec[] = {1.0, 2.5, 1.5, 2.5};
    const double usr[] = {0.5, 1.0, 0.75, 1.0};
    const double sync[] = {0.1, 0, 0.2, 0};
    for (int p = 0; p < 4; ++p) {
      auto& t = i.proc(p);
      t.execution = exec[p];
      t.cpu_usr = usr[p];
      t.cpu_sys = 0.25;
      t.io = p == 0 ? 0.1 : 0.0;
      t.insuff_usr = p == 1 ? 0.5 : 0.0;
      // Communication = execution − CPU − I/O = 0.15, 1.25, 0.5, 1.25.
      t.communication = exec[p] - usr[p] - 0.25 - t.io;
      t.lost = t.insuff_usr + t.communication;
      t.synchronization = sync[p];
      i.op(p, OpKind::reduction).communication = t.communication;
      i.op(p, OpKind::reduction).synchronization = sync[p];
    }
    for (int k = 0; k < 3; ++k) i.count_op(OpKind::reduction);
    for (int k = 0; k < 2; ++k) i.count_op(OpKind::io);
    // Idle = 2.5 − execution = 1.5, 0, 1.0, 0; imbalance = (1.0 + 0.25) − CPU = 0.5, 0, 0.25, 0.
    IntervalTree::close_interval(i, {0, 1, 2, 3});
    tree.integrate(analysis::IntegrateRule::complete);
    return tree;
  }

  }  // namespace

  TEST_CASE("Interval text report follows the analyzer's layout") {
    const IntervalTree tree = four_processors();
    report::IntervalReportMeta meta;
    meta.program = "t";
    meta.machine = "m";
    meta.grid = "2x2";
    const std::string text = report::interval_text(tree, meta);
    INFO(text);
    // Totals: Execution 2.5, Total 10, Productive = CPU (3.25 − 0.5) + Sys 1.0 + I/O 0.1 = 3.85,
    // Efficiency 0.385, Lost = 0.5 + 3.15 + Idle 2.5 = 6.15, Load imbalance 0.75, Synchronization
    // 0.3; no real synchronization, variation or overlap: those lines are left out. Columns are
    // 10 wide (the largest operation sum, 3.15, fits).
    const std::string expected_main =
        "Processor system=2*2\n"
        "Predicted by augur: program t, machine m\n"
        "Processors numbered from 1, as the DVM analyzer numbers them (processor 1 is number 0 in the other tables)\n"
        "-------------------------------------------------------------------------\n"
        "INTERVAL ( NLINE=25 SOURCE=t.cdv ) LEVEL=0  EXE_COUNT=1\n"
        "--- The main characteristics --- \n"
        "Parallelization efficiency      0.3850 \n"
        "Execution time                  2.5000 \n"
        "Processors                           4\n"
        "Total time                     10.0000\n"
        "Productive time                 3.8500 ( CPU= 2.7500 Sys= 1.0000 I/O= 0.1000 )\n"
        "Lost  time                      6.1500 \n"
        "   Insufficient parallelism     0.5000 ( User= 0.5000 Sys= 0.0000 )\n"
        "   Communication                3.1500 ( Real_sync= 0.0000 Starts= 0.0000 )\n"
        "   Idle time                    2.5000\n"
        "Load imbalance                  0.7500\n"
        "Synchronization                 0.3000\n"
        "                  Nop   Communic    Synchro \n"
        "I/O                 2     0.0000     0.0000 \n"
        "Reduction           3     3.1500     0.3000 \n";
    CHECK(text.substr(0, expected_main.size()) == expected_main);
    CHECK(text.find("Time variation") == std::string::npos);
    CHECK(text.find("Overlap                     ") == std::string::npos);
    CHECK(text.find("Shadow") == std::string::npos);

    // Comparative: Tmin at the first processor having it, Tmax at the last, Tmid = sum / 4.
    const std::string expected_comparative =
        "--- The comparative characteristics --- \n"
        "                              Tmin N proc      Tmax N proc      Tmid\n"
        "Lost time                   1.2500     4     1.7500     2     1.5375 \n"
        "User insufficient par.      0.0000     1     0.5000     2     0.1250 \n"
        "Idle time                   0.0000     2     1.5000     1     0.6250 \n"
        "Communication               0.1500     1     1.2500     4     0.7875 \n"
        "Synchronization             0.0000     2     0.2000     3     0.0750 \n"
        "Load imbalance              0.0000     2     0.5000     1     0.1875 \n"
        "Execution time              1.0000     1     2.5000     4     1.8750 \n"
        "User CPU time               0.5000     1     1.0000     4     0.6875 \n"
        "Sys. CPU time               0.2500     1     0.2500     4     0.2500 \n"
        "I/O time                    0.0000     2     0.1000     1     0.0250 \n"
        "Processors                       4     1          4     4          4 \n"
        "                      Communic          Synchro  \n"
        "Reduction       Tmin    0.1500     1     0.0000     2 \n"
        "Reduction       Tmax    1.2500     4     0.2000     3 \n"
        "Reduction       Tmid    0.7875           0.0750       \n";
    CHECK(text.find(expected_comparative) != std::string::npos);

    const std::string expected_processors =
        "--- The execution characteristics --- \n"
        "                                1          2          3          4 \n"
        "Lost time                  1.6500     1.7500     1.5000     1.2500 \n"
        "User insufficient par.     0.0000     0.5000     0.0000     0.0000 \n"
        "Idle time                  1.5000     0.0000     1.0000     0.0000 \n"
        "Communication              0.1500     1.2500     0.5000     1.2500 \n"
        "Synchronization            0.1000     0.0000     0.2000     0.0000 \n"
        "Load imbalance             0.5000     0.0000     0.2500     0.0000 \n"
        "Execution time             1.0000     2.5000     1.5000     2.5000 \n"
        "User CPU time              0.5000     0.5000     0.7500     1.0000 \n"
        "Sys. CPU time              0.2500     0.2500     0.2500     0.2500 \n"
        "I/O time                   0.1000     0.0000     0.0000     0.0000 \n"
        "Processors                      4          4          4          4 \n"
        "           Communication          \n"
        "Reduction                  0.1500     1.2500     0.5000     1.2500 \n"
        "           Synchronization        \n"
        "Reduction                  0.1000     0.0000     0.2000     0.0000 \n"
        "\n";
    CHECK(text.find(expected_processors) != std::string::npos);
    CHECK(text.size() == text.find(expected_processors) + expected_processors.size());

    SUBCASE("processor list and parts") {
      report::TextReportOptions options;
      options.processors = {2, 4};
      options.main_characteristics = false;
      options.comparative_characteristics = false;
      const std::string only = report::interval_text(tree, meta, nullptr, options);
      CHECK(only.find("--- The main characteristics") == std::string::npos);
      CHECK(only.find("--- The comparative characteristics") == std::string::npos);
      CHECK(only.find("                                2          4 \n"
                      "Lost time                  1.7500     1.2500 \n") != std::string::npos);
    }
  }

  TEST_CASE("Interval text report limits the interval level") {
    const IntervalTree tree = nested_tree();
    report::IntervalReportMeta meta;
    const auto headers = [](const std::string& s) {
      std::vector<std::string> out;
      const std::regex header("INTERVAL \\([^\n]*");
      for (std::sregex_iterator it(s.begin(), s.end(), header), e; it != e; ++it) out.push_back(it->str());
      return out;
    };
    CHECK(headers(report::interval_text(tree, meta)) ==
          std::vector<std::string>{"INTERVAL ( NLINE=1 SOURCE=n.fdv ) LEVEL=0  EXE_COUNT=1",
                                   "INTERVAL ( NLINE=10 SOURCE=n.fdv ) LEVEL=1 SEQ EXE_COUNT=1",
                                   "INTERVAL ( NLINE=12 SOURCE=n.fdv ) LEVEL=2 PAR EXE_COUNT=1",
                                   "INTERVAL ( NLINE=20 SOURCE=n.fdv ) LEVEL=2 PAR EXE_COUNT=1 EXPR=5",
                                   "INTERVAL ( NLINE=30 SOURCE=n.fdv ) LEVEL=1 USER EXE_COUNT=1"});
    report::TextReportOptions options;
    options.max_level = 1;
    CHECK(headers(report::interval_text(tree, meta, nullptr, options)).size() == 3);
  }

  TEST_CASE("ProcessorTable: operation kinds are columns created on first use - absent ones read as zeros") {
    analysis::ProcessorTable t(3);
    const analysis::ProcessorTable& ct = t;
    CHECK(t.size() == 3);
    for (OpKind k : analysis::all_op_kinds) CHECK_FALSE(t.has(k));
    // Reading through the const table creates nothing and gives zeros.
    CHECK(ct.op(2, OpKind::allreduce).communication == 0.0);
    CHECK(ct.column(OpKind::allreduce).empty());
    CHECK_FALSE(t.has(OpKind::allreduce));
    // Writing creates the kind's column for every processor, zeroed but for the figure written.
    t.op(1, OpKind::allreduce).transfer = 0.25;
    CHECK(t.has(OpKind::allreduce));
    REQUIRE(ct.column(OpKind::allreduce).size() == 3);
    CHECK(ct.op(0, OpKind::allreduce).transfer == 0.0);
    CHECK(ct.op(2, OpKind::allreduce).transfer == 0.0);
    t.add_column(OpKind::point_to_point)[1].transfer = 0.5;
    t.op(1, OpKind::io).transfer = 0.125;
    // transfer(p): the sum over the kinds in OpKind order: io, point_to_point, allreduce.
    CHECK(ct.transfer(1) == 0.125 + 0.5 + 0.25);
    CHECK(ct.transfer(0) == 0.0);
    // Growing keeps the figures and gives new processors zeros in every column present.
    t.resize(5);
    CHECK(ct.column(OpKind::allreduce).size() == 5);
    CHECK(ct.column(OpKind::point_to_point).size() == 5);
    CHECK(ct.op(1, OpKind::allreduce).transfer == 0.25);
    CHECK(ct.op(4, OpKind::point_to_point).transfer == 0.0);
    CHECK_FALSE(t.has(OpKind::barrier));
    // A copy assigned over a table with other kinds has exactly the source's kinds.
    analysis::ProcessorTable u(5);
    u.op(0, OpKind::barrier).communication = 1.0;
    u = ct;
    CHECK_FALSE(u.has(OpKind::barrier));
    CHECK(u.has(OpKind::allreduce));
    CHECK(u.op(1, OpKind::allreduce).transfer == 0.25);
    // A ProcessorTimes holds no operation kinds any more (120 bytes, not 1,016).
    CHECK(sizeof(analysis::ProcessorTimes) == 120);
  }

  TEST_CASE("Inclusive processor figures add a nested interval's kinds - also the ones the parent lacks") {
    IntervalTree tree(2);
    Interval& seq = tree.enter(IntervalType::seq, "t.c", 3, std::nullopt);
    seq.op(1, OpKind::shadow).communication = 0.25;
    seq.proc(1).idle = 0.5;
    seq.proc(1).lost = 0.25;
    tree.leave({});
    tree.root().op(0, OpKind::reduction).communication = 1.0;
    const analysis::ProcessorTable incl =
        report::inclusive_processor_times(tree.root(), analysis::IntegrateRule::complete);
    CHECK(incl.has(OpKind::shadow));
    CHECK(incl.has(OpKind::reduction));
    CHECK(incl.op(1, OpKind::shadow).communication == 0.25);
    CHECK(incl.op(0, OpKind::shadow).communication == 0.0);
    CHECK(incl.op(0, OpKind::reduction).communication == 1.0);
    CHECK(incl.op(1, OpKind::reduction).communication == 0.0);
    // A leaf's Lost gets its Idle: 0.25 + 0.5 on processor 1.
    CHECK(incl[1].lost == 0.75);
    CHECK(incl[1].idle == 0.5);
  }

}  // TEST_SUITE
