// Timelines: the Chrome trace-event JSON checked against the trace-event format by a validator
// written here, the Paraver records of a tiny run checked line by line, and both outputs of the
// `augur` executable on the tiny-4 sample.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/collective_kind.hpp"
#include "models/report/timeline_chrome.hpp"
#include "models/report/timeline_paraver.hpp"

using namespace augur;
using engine::Event;
using engine::EventKind;
using nlohmann::json;
#include "tests/support/files.hpp"

namespace fs = std::filesystem;
using augur::test::slurp;

namespace {

fs::path temp_dir(const std::string& name) { return augur::test::scratch_dir("augur_timeline_test_", name); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

Event ev(EventKind kind, engine::LpId lp, double before, double after, double waited = 0, std::int32_t peer = -1,
         std::int32_t tag = 0, std::uint64_t bytes = 0, std::uint8_t detail = 0, std::uint8_t internal = 0) {
  Event e;
  e.kind = kind;
  e.lp = lp;
  e.clock_before = before;
  e.clock_after = after;
  e.waited = waited;
  e.peer = peer;
  e.tag = tag;
  e.bytes = bytes;
  e.detail = detail;
  e.internal = internal;
  return e;
}

std::uint8_t coll(engine::CollectiveKind k) { return static_cast<std::uint8_t>(static_cast<int>(k) + 1); }

// Two ranks: compute; an eager isend from 0 to 1 (tag 7, 100 B) that rank 1 receives with a
// blocking recv after waiting 0.5 s; an expanded barrier (one message each way, tag -10); an
// analytic allreduce in which rank 0 waits 0.25 s for rank 1.
std::vector<Event> two_rank_run() {
  using engine::CollectiveKind;
  return {
      ev(EventKind::compute, 0, 0, 1),
      ev(EventKind::compute, 1, 0, 0.5),
      ev(EventKind::send, 0, 1, 1, 0, 1, 7, 100, 0),         // isend, posted at 1
      ev(EventKind::recv, 1, 0.5, 1.25, 0.5, 0, 7, 100, 1),  // waits 0.5..1, transfer 1..1.25
      ev(EventKind::wait, 0, 1, 1, 0, 1, 7, 100),            // the isend's wait
      ev(EventKind::collective_begin, 0, 1, 1, 0, 0, 0, 0, coll(CollectiveKind::barrier)),
      ev(EventKind::recv, 0, 1, 1, 0, 1, -10, 0, 0, 1),  // irecv* from 1
      ev(EventKind::collective_begin, 1, 1.25, 1.25, 0, 0, 0, 0, coll(CollectiveKind::barrier)),
      ev(EventKind::send, 1, 1.25, 1.25, 0, 0, -10, 0, 0, 1),  // isend* to 0
      ev(EventKind::waitall, 1, 1.25, 1.25, 0, -1, 0, 0, 0, 1),
      ev(EventKind::waitall, 0, 1, 1.5, 0.25, -1, 0, 0, 0, 1),  // waits 1..1.25, transfer 1.25..1.5
      ev(EventKind::send, 0, 1.5, 1.5, 0, 1, -10, 0, 0, 1),     // isend* to 1
      ev(EventKind::waitall, 0, 1.5, 1.5, 0, -1, 0, 0, 0, 1),
      ev(EventKind::collective_end, 0, 1, 1.5, 0, 0, 0, 0, coll(CollectiveKind::barrier)),
      ev(EventKind::recv, 1, 1.25, 1.75, 0.25, 0, -10, 0, 1, 1),  // recv* from 0: waits 1.25..1.5
      ev(EventKind::collective_end, 1, 1.25, 1.75, 0, 0, 0, 0, coll(CollectiveKind::barrier)),
      ev(EventKind::collective, 0, 1.5, 2, 0.25, -1, 3, 8, coll(CollectiveKind::allreduce)),
      ev(EventKind::collective, 1, 1.75, 2, 0, -1, 3, 8, coll(CollectiveKind::allreduce)),
      ev(EventKind::finish, 0, 2, 2),
      ev(EventKind::finish, 1, 2, 2),
  };
}

template <class Observer>
void feed(Observer& o, const std::vector<Event>& events, double end) {
  for (const Event& e : events) o.on_event(e);
  o.on_finish(end);
}

// What the validator found: the problems (empty when the trace is valid) and counts for further
// checks by the caller.
struct ChromeSummary {
  std::vector<std::string> problems;
  std::size_t flows = 0;                     // matched s/f pairs
  std::set<std::int64_t> named_tids;         // tids with a thread_name
  std::map<std::string, std::size_t> names;  // X and B slices by name
};

// Checks `text` against the trace-event format as Perfetto and chrome://tracing read it:
// a JSON object with a traceEvents array and displayTimeUnit "ns"; every event has name, ph, ts,
// pid, tid; X events have dur >= 0; B/E balance per thread with the same name; the slices of each
// thread nest (ordered by ts then file position, a slice that starts inside another ends inside
// it); every flow "s" has exactly one "f" with the same id, name and cat, with "bp":"e", not
// earlier, and each flow point lies inside a slice of its thread; metadata names the process and
// every thread that has slices.
ChromeSummary validate_chrome(const std::string& text) {
  ChromeSummary sum;
  auto problem = [&](const std::string& p) { sum.problems.push_back(p); };
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    problem(std::string("not JSON: ") + e.what());
    return sum;
  }
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array()) {
    problem("no traceEvents array");
    return sum;
  }
  if (doc.value("displayTimeUnit", "") != "ns") problem("displayTimeUnit is not ns");
  if (!doc.contains("otherData") || !doc["otherData"].is_object()) problem("no otherData object");
  struct Slice {
    double begin, end;
    std::size_t order;  // position of the X or B event in the file
  };
  struct Open {
    std::string name;
    double ts;
    std::size_t order;
  };
  struct FlowEnd {
    std::string name, cat;
    double ts = 0;
    int count = 0;
  };
  std::map<std::int64_t, std::vector<Slice>> slices;
  std::map<std::int64_t, std::vector<Open>> open;  // B stack per tid
  std::map<std::uint64_t, FlowEnd> starts, finishes;
  std::vector<std::pair<std::int64_t, double>> flow_points;
  bool process_named = false;
  std::size_t order = 0;
  for (const json& e : doc["traceEvents"]) {
    ++order;
    const std::string at = "event " + std::to_string(order) + ": ";
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string() || !e.contains("ph") || !e["ph"].is_string() ||
        !e.contains("ts") || !e["ts"].is_number() || !e.contains("pid") || !e["pid"].is_number_integer() ||
        !e.contains("tid") || !e["tid"].is_number_integer()) {
      problem(at + "lacks one of name, ph, ts, pid, tid: " + e.dump());
      continue;
    }
    const std::string ph = e["ph"];
    const std::string name = e["name"];
    const double ts = e["ts"];
    const std::int64_t tid = e["tid"];
    if (ts < 0) problem(at + "negative ts");
    if (ph == "M") {
      if (name == "process_name") process_named = true;
      if (name == "thread_name") sum.named_tids.insert(tid);
      if ((name == "process_name" || name == "thread_name") && !e["args"].contains("name")) {
        problem(at + "no args.name");
      }
    } else if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0) {
        problem(at + "X without a dur >= 0");
        continue;
      }
      slices[tid].push_back(Slice{ts, ts + e["dur"].get<double>(), order});
      ++sum.names[name];
    } else if (ph == "B") {
      open[tid].push_back(Open{name, ts, order});
      ++sum.names[name];
    } else if (ph == "E") {
      if (open[tid].empty()) {
        problem(at + "E without B");
        continue;
      }
      if (open[tid].back().name != name) problem(at + "E named " + name + " closes " + open[tid].back().name);
      if (ts < open[tid].back().ts) problem(at + "E before its B");
      slices[tid].push_back(Slice{open[tid].back().ts, ts, open[tid].back().order});
      open[tid].pop_back();
    } else if (ph == "s" || ph == "f") {
      if (!e.contains("id") || !e["id"].is_number_unsigned() || !e.contains("cat")) {
        problem(at + "flow without id or cat");
        continue;
      }
      FlowEnd& f = (ph == "s" ? starts : finishes)[e["id"].get<std::uint64_t>()];
      f.name = name;
      f.cat = e["cat"];
      f.ts = ts;
      ++f.count;
      if (ph == "f" && e.value("bp", "") != "e") problem(at + "flow end without bp e");
      flow_points.emplace_back(tid, ts);
    } else if (ph == "i") {
      if (e.value("s", "") != "t") problem(at + "instant not thread-scoped");
    } else {
      problem(at + "unexpected phase " + ph);
    }
  }
  if (!process_named) problem("no process_name metadata");
  for (const auto& [tid, stack] : open) {
    if (!stack.empty()) problem("unclosed B on tid " + std::to_string(tid));
  }
  constexpr double eps = 1e-6;
  for (auto& [tid, list] : slices) {
    if (sum.named_tids.count(tid) == 0) problem("tid " + std::to_string(tid) + " has no thread_name");
    std::sort(list.begin(), list.end(), [](const Slice& a, const Slice& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.order < b.order;
    });
    std::vector<Slice> stack;
    for (const Slice& sl : list) {
      while (!stack.empty() && sl.begin >= stack.back().end - eps) stack.pop_back();
      if (!stack.empty() && sl.end > stack.back().end + eps) {
        problem("slice of event " + std::to_string(sl.order) + " overlaps its parent on tid " + std::to_string(tid));
      }
      stack.push_back(sl);
    }
  }
  for (const auto& [id, st] : starts) {
    auto f = finishes.find(id);
    if (st.count != 1 || f == finishes.end() || f->second.count != 1) {
      problem("flow " + std::to_string(id) + " has not exactly one s and one f");
      continue;
    }
    if (f->second.cat != st.cat || f->second.name != st.name) {
      problem("flow " + std::to_string(id) + ": s and f differ");
    }
    if (f->second.ts < st.ts - eps) problem("flow " + std::to_string(id) + " ends before it starts");
    ++sum.flows;
  }
  for (const auto& [id, f] : finishes) {
    if (starts.count(id) == 0) problem("flow " + std::to_string(id) + " has no s");
  }
  for (const auto& [tid, ts] : flow_points) {
    const auto& list = slices[tid];
    const bool inside = std::any_of(list.begin(), list.end(),
                                    [&, t = ts](const Slice& sl) { return sl.begin <= t + eps && t <= sl.end + eps; });
    if (!inside) {
      problem("flow point at " + std::to_string(ts) + " on tid " + std::to_string(tid) + " outside every slice");
    }
  }
  return sum;
}

// Validates and fails the test case with every problem found.
ChromeSummary valid_chrome(const std::string& text) {
  ChromeSummary sum = validate_chrome(text);
  std::string all;
  for (const auto& p : sum.problems) all += p + "\n";
  CHECK_MESSAGE(sum.problems.empty(), all);
  return sum;
}

std::vector<std::string> prv_records(const fs::path& prv) {
  auto lines = lines_of(slurp(prv));
  REQUIRE_FALSE(lines.empty());
  lines.erase(lines.begin());
  return lines;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, sep);) out.push_back(x);
  return out;
}

// Ranks 0..2 in `rounds` rounds of: compute (1, 2, 3 ms), isend to the next rank, blocking
// receive from the previous one, all leaving the round 1 us after the slowest. With `blocker`, a
// rank 3 computes 1 ms, then waits in a receive from rank 0 that rank 0 sends after the last round.
std::vector<Event> ring_run(int rounds, bool blocker) {
  std::vector<Event> out;
  double clock[3] = {0, 0, 0};
  if (blocker) out.push_back(ev(EventKind::compute, 3, 0, 1e-3));
  for (int r = 0; r < rounds; ++r) {
    for (engine::LpId lp = 0; lp < 3; ++lp) {
      const double c = clock[lp], busy = c + 1e-3 * (lp + 1);
      out.push_back(ev(EventKind::compute, lp, c, busy));
      out.push_back(ev(EventKind::send, lp, busy, busy, 0, static_cast<std::int32_t>((lp + 1) % 3), 0, 8, 0));
      clock[lp] = busy;
    }
    const double done = *std::max_element(clock, clock + 3) + 1e-6;
    for (engine::LpId lp = 0; lp < 3; ++lp) {
      out.push_back(ev(EventKind::recv, lp, clock[lp], done, done - 1e-6 - clock[lp],
                       static_cast<std::int32_t>((lp + 2) % 3), 0, 8, 1));
      clock[lp] = done;
    }
  }
  if (blocker) {
    out.push_back(ev(EventKind::send, 0, clock[0], clock[0], 0, 3, 1, 8, 0));
    out.push_back(ev(EventKind::recv, 3, 1e-3, clock[0] + 1e-6, clock[0] - 1e-3, 0, 1, 8, 1));
    out.push_back(ev(EventKind::finish, 3, clock[0] + 1e-6, clock[0] + 1e-6));
  }
  for (engine::LpId lp = 0; lp < 3; ++lp) out.push_back(ev(EventKind::finish, lp, clock[lp], clock[lp]));
  return out;
}

double ring_end(int rounds) {
  const std::vector<Event> events = ring_run(rounds, true);
  return events[events.size() - 4].clock_after;
}

// Whether the records are in time order; counts the communication records.
bool time_sorted(const std::vector<std::string>& records, std::size_t& comms) {
  std::int64_t last = 0;
  bool sorted = true;
  for (const std::string& r : records) {
    const auto f = split(r, ':');
    const std::int64_t t = std::stoll(f[5]);
    sorted = sorted && t >= last;
    last = t;
    comms += f[0] == "3";
  }
  return sorted;
}

const std::string shared = AUGUR_SHARED_DIR;

}  // namespace

TEST_SUITE("timeline") {
  TEST_CASE("MessageMatcher pairs the k-th send with the k-th receive posted") {
    models::report::MessageMatcher m(3);
    std::vector<models::report::MatchedMessage> out;
    // Two sends 0 -> 2 tag 5 before any receive; a send 1 -> 2 tag 5; then 2 receives 1's first.
    m.on_event(ev(EventKind::send, 0, 1, 1, 0, 2, 5, 10, 0), out);
    m.on_event(ev(EventKind::send, 0, 2, 2, 0, 2, 5, 20, 0), out);
    m.on_event(ev(EventKind::send, 1, 3, 4, 0.5, 2, 5, 30, 1), out);  // blocking, transfer from 3.5
    m.on_event(ev(EventKind::recv, 2, 3, 5, 1, 1, 5, 30, 1), out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].src == 1);
    CHECK(out[0].bytes == 30);
    CHECK(out[0].send_call == 3);
    CHECK(out[0].send_start == 3.5);
    CHECK(out[0].recv_call == 3);
    CHECK(out[0].recv_start == 4);
    CHECK(out[0].recv_done == 5);
    out.clear();
    // Two irecvs from 0 completed by one waitall: the first gets the 10-byte message.
    m.on_event(ev(EventKind::recv, 2, 5, 5, 0, 0, 5, 0, 0), out);
    m.on_event(ev(EventKind::recv, 2, 5, 5, 0, 0, 5, 0, 0), out);
    CHECK(out.empty());
    m.on_event(ev(EventKind::waitall, 2, 5, 6, 0), out);
    REQUIRE(out.size() == 2);
    CHECK(out[0].bytes == 10);
    CHECK(out[1].bytes == 20);
    CHECK(out[0].recv_done == 6);
    CHECK(m.earliest_pending_send() == engine::infinite_time);
    CHECK(m.dropped() == 0);
  }

  TEST_CASE("MessageMatcher draws nothing into a rank after its first wildcard receive") {
    models::report::MessageMatcher m(3);
    std::vector<models::report::MatchedMessage> out;
    m.on_event(ev(EventKind::recv, 2, 0, 0, 0, 0, 1, 0, 0), out);                 // irecv from 0, posted first
    m.on_event(ev(EventKind::send, 1, 0, 0, 0, 2, 1, 8, 0), out);                 // queued, then dropped
    m.on_event(ev(EventKind::recv, 2, 0, 1, 0, engine::any_peer, 1, 8, 1), out);  // any source
    m.on_event(ev(EventKind::send, 0, 1, 1, 0, 2, 1, 8, 0), out);                 // the first irecv's message
    m.on_event(ev(EventKind::send, 0, 1, 1, 0, 2, 1, 8, 0), out);                 // dropped
    m.on_event(ev(EventKind::recv, 2, 1, 2, 0, 0, 1, 8, 1), out);                 // not drawn
    m.on_event(ev(EventKind::wait, 2, 2, 3, 0, 0, 1, 8), out);                    // completes the first irecv
    REQUIRE(out.size() == 1);
    CHECK(out[0].src == 0);
    CHECK(out[0].recv_call == 0);
    CHECK(out[0].recv_done == 3);
    CHECK(m.dropped() == 2);
  }

  TEST_CASE("MessageMatcher tells a waited send from a waited receive by what is pending") {
    models::report::MessageMatcher m(2);
    std::vector<models::report::MatchedMessage> out;
    m.on_event(ev(EventKind::send, 0, 0, 0, 0, 1, 3, 4, 0), out);  // isend 0 -> 1
    m.on_event(ev(EventKind::recv, 1, 0, 0, 0, 0, 3, 4, 0), out);  // irecv on 1
    m.on_event(ev(EventKind::wait, 0, 0, 1, 0, 1, 3, 4), out);     // rank 0 waits its send: no message ends
    CHECK(out.empty());
    CHECK(m.earliest_pending_send() == 0);
    m.on_event(ev(EventKind::wait, 1, 0, 2, 0.5, 0, 3, 4), out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].recv_start == 0.5);
    // A receive never waited for is dropped when its rank finishes; a later send to it too.
    m.on_event(ev(EventKind::recv, 1, 2, 2, 0, 0, 3, 4, 0), out);
    m.on_event(ev(EventKind::finish, 1, 2, 2), out);
    m.on_event(ev(EventKind::send, 0, 3, 3, 0, 1, 3, 4, 0), out);
    CHECK(out.size() == 1);
    CHECK(m.dropped() == 1);
  }

  TEST_CASE("ChromeTrace validator finds each defect of a broken trace") {
    auto problems = [](const std::string& events) {
      return validate_chrome(R"({"traceEvents":[)"
                             R"({"name":"process_name","ph":"M","ts":0,"pid":0,"tid":0,"args":{"name":"p"}},)"
                             R"({"name":"thread_name","ph":"M","ts":0,"pid":0,"tid":0,"args":{"name":"t"}})" +
                             events + R"(],"displayTimeUnit":"ns","otherData":{}})")
          .problems.size();
    };
    CHECK(problems("") == 0);
    CHECK(problems(R"(,{"name":"a","ph":"X","ts":0,"dur":2,"pid":0,"tid":0})") == 0);
    CHECK(problems(R"(,{"name":"a","ph":"X","ts":0,"pid":0,"tid":0})") == 1);           // no dur
    CHECK(problems(R"(,{"name":"a","ph":"X","ts":0,"dur":-1,"pid":0,"tid":0})") == 1);  // negative dur
    CHECK(problems(R"(,{"name":"a","ph":"X","ts":0,"dur":1,"pid":0})") == 1);           // no tid
    CHECK(problems(R"(,{"name":"a","ph":"X","ts":0,"dur":1,"pid":0,"tid":5})") == 1);   // unnamed thread
    CHECK(problems(R"(,{"name":"a","ph":"X","ts":0,"dur":2,"pid":0,"tid":0},)"
                   R"({"name":"b","ph":"X","ts":1,"dur":2,"pid":0,"tid":0})") == 1);  // overlap
    CHECK(problems(R"(,{"name":"b","ph":"X","ts":0,"dur":1,"pid":0,"tid":0},)"
                   R"({"name":"a","ph":"X","ts":0,"dur":2,"pid":0,"tid":0})") == 1);  // parent after child
    CHECK(problems(R"(,{"name":"a","ph":"B","ts":0,"pid":0,"tid":0})") == 1);         // unclosed
    CHECK(problems(R"(,{"name":"a","ph":"X","ts":0,"dur":2,"pid":0,"tid":0},)"
                   R"({"name":"m","cat":"c","ph":"s","id":1,"ts":1,"pid":0,"tid":0})") == 1);  // s without f
    CHECK(problems(R"(,{"name":"a","ph":"X","ts":0,"dur":2,"pid":0,"tid":0},)"
                   R"({"name":"m","cat":"c","ph":"s","id":1,"ts":1,"pid":0,"tid":0},)"
                   R"({"name":"m","cat":"d","ph":"f","bp":"e","id":1,"ts":1,"pid":0,"tid":0})") == 1);  // cat differs
    CHECK(problems(R"(,{"name":"m","cat":"c","ph":"s","id":1,"ts":1,"pid":0,"tid":0},)"
                   R"({"name":"m","cat":"c","ph":"f","bp":"e","id":1,"ts":1,"pid":0,"tid":0})") ==
          2);  // no slice there
    CHECK(validate_chrome(R"({"traceEvents":[)").problems.size() == 1);
  }

  TEST_CASE("ChromeTrace of a hand-made run satisfies the trace-event format") {
    const fs::path d = temp_dir("chrome");
    {
      models::report::ChromeTrace t((d / "t.json").string(), 2, "two \"ranks\"");
      feed(t, two_rank_run(), 2);
    }
    const std::string text = slurp(d / "t.json");
    const ChromeSummary s = valid_chrome(text);
    CHECK(s.named_tids == std::set<std::int64_t>{0, 1});
    CHECK(s.flows == 3);  // the user message and the barrier's two
    CHECK(s.names.at("computing") == 2);
    CHECK(s.names.at("barrier") == 2);
    CHECK(s.names.at("allreduce") == 2);
    // Waiting: rank 1's recv, both waits in the barrier, rank 0 in the allreduce.
    CHECK(s.names.at("waiting") == 4);
    const json doc = json::parse(text);
    CHECK(doc["otherData"]["messages_drawn"] == 3);
    CHECK(doc["otherData"]["lp_count"] == 2);
    // The exact lines of rank 1's blocking receive (0.5 s waiting, 0.25 s transfer) and its message.
    CHECK(text.find(R"({"name":"waiting","cat":"wait","ph":"X","ts":500000.000,"dur":500000.000,"pid":0,"tid":1,)"
                    R"("args":{"op":"recv","peer":0,"tag":7,"bytes":100}})") != std::string::npos);
    CHECK(text.find(R"({"name":"communicating","cat":"comm","ph":"X","ts":1000000.000,"dur":250000.000,"pid":0,)"
                    R"("tid":1,"args":{"op":"recv","peer":0,"tag":7,"bytes":100}})") != std::string::npos);
    CHECK(text.find(R"({"name":"message","cat":"message","ph":"s","id":1,"ts":1000000.000,"pid":0,"tid":0})") !=
          std::string::npos);
    CHECK(
        text.find(R"({"name":"message","cat":"message","ph":"f","bp":"e","id":1,"ts":1000000.000,"pid":0,"tid":1})") !=
        std::string::npos);
    CHECK(text.find(R"("args":{"name":"two \"ranks\""})") != std::string::npos);
  }

  TEST_CASE("ChromeTrace is byte-identical for the same events") {
    const fs::path d = temp_dir("chrome_same");
    for (const char* name : {"a.json", "b.json"}) {
      models::report::ChromeTrace t((d / name).string(), 2);
      feed(t, two_rank_run(), 2);
    }
    CHECK(slurp(d / "a.json") == slurp(d / "b.json"));
  }

  TEST_CASE("ChromeTrace stays valid when the run deadlocks; a run ended without on_finish leaves no file") {
    using engine::CollectiveKind;
    using engine::LpStatus;
    const fs::path d = temp_dir("chrome_deadlock");
    {
      // Rank 0 blocks in a recv from 1 at t=1 inside an expanded bcast; rank 1 sends to 0 with a
      // tag rank 0 never receives, then blocks; the run ends at t=3 by deadlock.
      models::report::ChromeTrace t((d / "dead.json").string(), 2);
      t.on_event(ev(EventKind::compute, 0, 0, 1));
      t.on_event(ev(EventKind::collective_begin, 0, 1, 1, 0, 0, 1, 8, coll(CollectiveKind::bcast)));
      t.on_status(0, LpStatus::running, LpStatus::blocked, 1);
      t.on_event(ev(EventKind::compute, 1, 0, 3));
      t.on_event(ev(EventKind::send, 1, 3, 3, 0, 0, 9, 8, 0));
      t.on_status(1, LpStatus::running, LpStatus::blocked, 3);
      t.on_finish(3);
    }
    const ChromeSummary s = valid_chrome(slurp(d / "dead.json"));
    CHECK(s.flows == 0);
    CHECK(s.names.at("waiting") == 1);  // rank 0 from 1 to 3; rank 1 blocked at the very end: none
    {
      models::report::ChromeTrace t((d / "cut.json").string(), 1);
      t.on_event(ev(EventKind::compute, 0, 0, 1));
      t.on_event(ev(EventKind::collective_begin, 0, 1, 1, 0, 0, 1, 8, coll(CollectiveKind::bcast)));
    }  // destroyed without on_finish, as when the run throws: neither the file nor its temporary
    CHECK_FALSE(fs::exists(d / "cut.json"));
    CHECK(std::distance(fs::directory_iterator(d), fs::directory_iterator()) == 1);  // dead.json
    CHECK_THROWS_WITH_AS(models::report::ChromeTrace((d / "no/such/dir/x.json").string(), 1),
                         doctest::Contains("no/such/dir/x.json: error: cannot write the Chrome trace"),
                         std::runtime_error);
  }

  TEST_CASE("ParaverTrace writes the expected records of a tiny run") {
    // Two ranks, times in ns. Rank 0: compute 0..1e9; isend to 1 (tag 7, 100 B) at 1e9, waited at
    // once; allreduce entered at 1e9, waits for rank 1 until 1.25e9 (state 5), transfer to 2e9
    // (state 13). Rank 1: compute 0..5e8; blocking recv from 0 posted at 5e8, waits until the data
    // moves at 1e9 (state 3), transfer until 1.25e9 (state 16); allreduce from 1.25e9 to 2e9 with no
    // wait. The message: logical send 1e9 = physical send (eager, no wait), logical receive 5e8
    // (posted), physical receive 1.25e9. Records sorted by time, then rank, then creation.
    const fs::path d = temp_dir("paraver");
    const std::uint8_t allreduce = coll(engine::CollectiveKind::allreduce);  // 4
    {
      models::report::ParaverTrace t((d / "tiny").string(), 2);
      feed(t,
           {
               ev(EventKind::compute, 0, 0, 1),
               ev(EventKind::compute, 1, 0, 0.5),
               ev(EventKind::send, 0, 1, 1, 0, 1, 7, 100, 0),
               ev(EventKind::recv, 1, 0.5, 1.25, 0.5, 0, 7, 100, 1),
               ev(EventKind::wait, 0, 1, 1, 0, 1, 7, 100),
               ev(EventKind::collective, 0, 1, 2, 0.25, -1, 3, 8, allreduce),
               ev(EventKind::collective, 1, 1.25, 2, 0, -1, 3, 8, allreduce),
               ev(EventKind::finish, 0, 2, 2),
               ev(EventKind::finish, 1, 2, 2),
           },
           2);
    }
    const std::vector<std::string> expected = {
        "#Paraver (01/01/00 at 00:00):2000000000_ns:1(2):1:2(1:1,1:1)",
        "1:1:1:1:1:0:1000000000:1",          // rank 0 computes
        "1:2:1:2:1:0:500000000:1",           // rank 1 computes
        "2:2:1:2:1:500000000:90000002:3",    // rank 1 enters recv
        "1:2:1:2:1:500000000:1000000000:3",  // ... waits for the message
        "2:1:1:1:1:1000000000:90000002:2",   // rank 0 isend (no state: it takes no time)
        "2:1:1:1:1:1000000000:90000002:0",
        "3:1:1:1:1:1000000000:1000000000:2:1:2:1:500000000:1250000000:100:7",
        "2:1:1:1:1:1000000000:90000002:5",  // wait for the isend
        "2:1:1:1:1:1000000000:90000002:0",
        "2:1:1:1:1:1000000000:90000001:4",     // allreduce
        "1:1:1:1:1:1000000000:1250000000:5",   // ... waiting for rank 1
        "1:2:1:2:1:1000000000:1250000000:16",  // rank 1 receives
        "1:1:1:1:1:1250000000:2000000000:13",  // rank 0 allreduce transfer
        "2:2:1:2:1:1250000000:90000002:0",
        "2:2:1:2:1:1250000000:90000001:4",
        "1:2:1:2:1:1250000000:2000000000:13",
        "2:1:1:1:1:2000000000:90000001:0",
        "2:2:1:2:1:2000000000:90000001:0",
    };
    CHECK(lines_of(slurp(d / "tiny.prv")) == expected);
    CHECK_FALSE(fs::exists(d / "tiny.prv.tmp0"));
    const std::string pcf = slurp(d / "tiny.pcf");
    CHECK(pcf.find("STATES\n0    Idle\n1    Running\n") != std::string::npos);
    CHECK(pcf.find("16   Send Receive\n") != std::string::npos);
    CHECK(pcf.find("EVENT_TYPE\n0    90000001    Collective operation\nVALUES\n0      End\n1      barrier\n") !=
          std::string::npos);
    CHECK(pcf.find("4      allreduce\n") != std::string::npos);
    CHECK(pcf.find("EVENT_TYPE\n0    90000002    Point-to-point operation\n") != std::string::npos);
    const std::string row = slurp(d / "tiny.row");
    CHECK(row.find("LEVEL THREAD SIZE 2\nrank 0\nrank 1\n") != std::string::npos);
    CHECK(row.find("LEVEL CPU SIZE 2\nCPU 1\nCPU 2\n") != std::string::npos);
    CHECK_THROWS_WITH_AS(models::report::ParaverTrace((d / "no/such/dir/x").string(), 1),
                         doctest::Contains("no/such/dir/x.prv: error: cannot write the Paraver trace"),
                         std::runtime_error);
  }

  TEST_CASE("ParaverTrace keeps a long run sorted while streaming") {
    const fs::path d = temp_dir("paraver_long");
    constexpr int rounds = 5000;
    {
      models::report::ParaverTrace t((d / "long").string(), 3);
      feed(t, ring_run(rounds, false), ring_end(rounds));
    }
    std::size_t comms = 0;
    CHECK(time_sorted(prv_records(d / "long.prv"), comms));
    CHECK(comms == 3 * rounds);
    CHECK_FALSE(fs::exists(d / "long.prv.tmp0"));
  }

  TEST_CASE("ParaverTrace spills to sorted runs when a blocked LP holds the buffer back") {
    // Rank 3 blocks in a receive at 1 ms that completes only at the end: no record after 1 ms is
    // final before then, so a 1000-record buffer must spill, and the merged trace must equal the one
    // written with the default buffer.
    const fs::path d = temp_dir("paraver_spill");
    constexpr int rounds = 2000;
    const std::vector<Event> events = ring_run(rounds, true);
    {
      models::report::ParaverTrace big((d / "big").string(), 4);
      models::report::ParaverTrace small((d / "small").string(), 4, 1000);
      for (const Event& e : events) {
        big.on_event(e);
        small.on_event(e);
      }
      CHECK(fs::exists(d / "small.prv.tmp1"));
      CHECK_FALSE(fs::exists(d / "big.prv.tmp1"));
      big.on_finish(ring_end(rounds));
      small.on_finish(ring_end(rounds));
    }
    CHECK(slurp(d / "small.prv") == slurp(d / "big.prv"));
    std::size_t comms = 0;
    CHECK(time_sorted(prv_records(d / "small.prv"), comms));
    CHECK(comms == 3 * rounds + 1);
    CHECK_FALSE(fs::exists(d / "small.prv.tmp0"));
    CHECK_FALSE(fs::exists(d / "small.prv.tmp1"));
  }

  TEST_CASE("augur writes Chrome and Paraver timelines of tiny-4") {
    const fs::path d = temp_dir("cli");
    const std::string run = std::string("'") + AUGUR_BINARY + "' run --trace ti:" + shared +
                            "/ti-samples/tiny-4/ti_index.txt --jobs 1 --chrome-trace '" + (d / "t.json").string() +
                            "' --paraver '" + (d / "t").string() + "' --event-log '" + (d / "events.txt").string() +
                            "' --json '" + (d / "r.json").string() + "' > '" + (d / "out.txt").string() + "' 2>&1";
    REQUIRE(std::system(run.c_str()) == 0);
    const json report = json::parse(slurp(d / "r.json"));
    const json& variant = report["variants"][0];
    std::uint64_t messages = 0;
    for (const json& p : variant["processors"]) messages += p["messages_sent"].get<std::uint64_t>();
    CHECK(messages == 16);  // 4 ring messages + the default allreduce (3 + 3) and barrier (3 + 3)

    // Chrome: valid, one track per rank, every message a flow (tiny-4 has no wildcard receive).
    const ChromeSummary chrome = valid_chrome(slurp(d / "t.json"));
    CHECK(chrome.named_tids == std::set<std::int64_t>{0, 1, 2, 3});
    CHECK(chrome.flows == messages);
    CHECK(chrome.names.at("allreduce") == 4);
    CHECK(chrome.names.at("barrier") == 4);

    // Paraver: the header, one state record per non-empty part of each event of the event log
    // (compute: one; a communication: its waiting part and its transfer part, each when > 0 ns),
    // one communication record per message.
    const auto prv = lines_of(slurp(d / "t.prv"));
    REQUIRE_FALSE(prv.empty());
    const std::int64_t end_ns = std::llround(variant["predicted_time_s"].get<double>() * 1e9);
    CHECK(prv[0] == "#Paraver (01/01/00 at 00:00):" + std::to_string(end_ns) + "_ns:1(4):1:4(1:1,1:1,1:1,1:1)");
    std::map<int, int> expected_states, states;
    for (const std::string& line : lines_of(slurp(d / "events.txt"))) {
      if (line.find(" clock=") == std::string::npos || line.find(" status ") != std::string::npos) continue;
      const int lp = std::stoi(line.substr(line.find(" lp=") + 4));
      const std::string clock = line.substr(line.find(" clock=") + 7);
      const double before = std::stod(clock.substr(0, clock.find("->")));
      const double after = std::stod(clock.substr(clock.find("->") + 2));
      const auto w = line.find(" waited=");
      const double waited = w == std::string::npos ? 0 : std::stod(line.substr(w + 8));
      const std::int64_t b = std::llround(before * 1e9), a = std::llround(after * 1e9);
      const std::int64_t mid = std::llround((before + waited) * 1e9);
      if (line.find(" compute") != std::string::npos) {
        expected_states[lp] += a > b;
      } else if (line.find(" collective_begin") == std::string::npos &&
                 line.find(" collective_end") == std::string::npos && line.find(" finish") == std::string::npos) {
        expected_states[lp] += (mid > b) + (a > mid);
      }
    }
    std::size_t comms = 0;
    for (std::size_t i = 1; i < prv.size(); ++i) {
      const auto f = split(prv[i], ':');
      if (f[0] == "1") ++states[std::stoi(f[3]) - 1];
      if (f[0] == "3") ++comms;
    }
    // By hand from the event log: rank 0 computes, waits then sends to 1, waits then receives from
    // 3, waits then finishes the allreduce's reduce step, computes its reduction, waits then
    // finishes the barrier: 10 states.
    CHECK(expected_states.at(0) == 10);
    CHECK(states == expected_states);
    CHECK(comms == messages);
    CHECK(slurp(d / "t.row").find("LEVEL THREAD SIZE 4\nrank 0\nrank 1\nrank 2\nrank 3\n") != std::string::npos);
    CHECK(fs::exists(d / "t.pcf"));
  }

  TEST_CASE("augur diagnoses a DVM run and writes its timelines") {
    // The sample Jacobi trace on a 2x2 grid of the cluster machine: processor 0 prints (I/O at
    // jac1d.cdv:21 once and :48 every iteration); the others wait for it at the next reduction's
    // synchronisation, 11 times each.
    const fs::path d = temp_dir("cli-dvm");
    const std::string run = std::string("'") + AUGUR_BINARY + "' run '" + AUGUR_SOURCE_DIR +
                            "/scenarios/examples/dvm_jacobi.yaml' --set grids=2x2 --jobs 1 --chrome-trace '" +
                            (d / "t.json").string() + "' --paraver '" + (d / "t").string() + "' --json '" +
                            (d / "r.json").string() + "' --text '" + (d / "r.txt").string() + "' > '" +
                            (d / "out.txt").string() + "' 2>&1";
    REQUIRE(std::system(run.c_str()) == 0);
    const json report = json::parse(slurp(d / "r.json"));
    const json& ws = report["variants"][0]["wait_states"];
    CHECK(ws["by_operation"]["reduction"]["count"] == 33);
    CHECK(ws["patterns"]["wait_at_nxn"]["count"] == 33);
    CHECK(ws["processors"].size() == 4);
    CHECK(ws["processors"][0]["wait_at_nxn_s"] == 0.0);
    CHECK(ws["processors"][1]["wait_at_nxn_s"].get<double>() > 0.0);
    REQUIRE(ws["root_causes"].size() >= 2);
    CHECK(ws["root_causes"][0]["region"] == "I/O at jac1d.cdv:48");
    CHECK(ws["root_causes"][0]["waits"] == 30);
    CHECK(ws["root_causes"][1]["region"] == "I/O at jac1d.cdv:21");
    // The same waiting as the characteristics' synchronisation of the reductions (the model levels
    // the processors there), all of it explained by processor 0's I/O.
    const json& main = report["variants"][0]["characteristics"]["interval"];
    CHECK(ws["patterns"]["wait_at_nxn"]["total_s"].get<double>() ==
          doctest::Approx(main["collectives"]["reduction"]["synchronization"].get<double>()).epsilon(1e-12));
    CHECK(ws["by_operation"]["reduction"]["explained_s"].get<double>() ==
          doctest::Approx(ws["by_operation"]["reduction"]["total_s"].get<double>()).epsilon(1e-12));
    // Where they wait: the reduction's statement (strtrd_ / waitrd_ at jac1d.cdv:40), all 33 waits.
    REQUIRE(ws["by_site"].size() == 1);
    CHECK(ws["by_site"][0]["site"] == "reduction at jac1d.cdv:40");
    CHECK(ws["by_site"][0]["count"] == 33);
    CHECK(ws["by_site"][0]["total_s"].get<double>() ==
          doctest::Approx(ws["patterns"]["wait_at_nxn"]["total_s"].get<double>()).epsilon(1e-12));
    const std::string text = slurp(d / "r.txt");
    CHECK(text.find("waiting by operation: reduction") != std::string::npos);
    CHECK(text.find("s  reduction at jac1d.cdv:40 (33 waits: wait_at_nxn ") != std::string::npos);
    CHECK(text.find(
              "the position where processors wait most is \"reduction at jac1d.cdv:40\" (100.0 % of the waiting)") !=
          std::string::npos);
    CHECK(text.find("  advice: efficiency 24.2 %") != std::string::npos);

    // Chrome: valid, one track per processor; Paraver: 4 tasks over the predicted time.
    const ChromeSummary chrome = valid_chrome(slurp(d / "t.json"));
    CHECK(chrome.named_tids == std::set<std::int64_t>{0, 1, 2, 3});
    const auto prv = lines_of(slurp(d / "t.prv"));
    REQUIRE(prv.size() > 100);
    const std::int64_t end_ns = std::llround(report["variants"][0]["predicted_time_s"].get<double>() * 1e9);
    CHECK(prv[0] == "#Paraver (01/01/00 at 00:00):" + std::to_string(end_ns) + "_ns:1(4):1:4(1:1,1:1,1:1,1:1)");
    // DVM tracks are processors.
    CHECK(slurp(d / "t.json").find("\"args\":{\"name\":\"processor 3\"}") != std::string::npos);
    CHECK(slurp(d / "t.row").find("LEVEL THREAD SIZE 4\nprocessor 0\nprocessor 1\nprocessor 2\nprocessor 3\n") !=
          std::string::npos);
  }
}
