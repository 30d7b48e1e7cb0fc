// Scheduler: total order, wake/resume, limits, deadlock diagnosis with the wait-for cycle.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <spdlog/sinks/ostream_sink.h>

#include <sstream>

#include "engine/event_log.hpp"
#include "engine/log.hpp"
#include "engine/scheduler.hpp"

using namespace augur::engine;

namespace {

// A toy program: each LP runs a script of ("compute", d), ("wait", peer) (blocks until peer
// signals it) and ("signal", peer) (wakes peer at the signaller's clock).
struct Instr {
  char op;  // 'c' compute, 'w' wait for a signal, 's' signal
  double value;
};

class ToyProgram final : public Program, public Prefetching {
 public:
  explicit ToyProgram(std::vector<std::vector<Instr>> scripts)
      : scripts_(std::move(scripts)),
        pos_(scripts_.size(), 0),
        waiting_(scripts_.size(), -1),
        signalled_(scripts_.size(), -1.0) {}

  StepResult step(LpId lp, Scheduler& s) override {
    auto& clock = s.lp(lp).clock;
    if (waiting_[lp] >= 0) {
      if (signalled_[lp] < 0) return StepResult::blocked;
      clock = std::max(clock, signalled_[lp]);
      signalled_[lp] = -1;
      waiting_[lp] = -1;
      order.push_back(fmt(lp, "resumed", clock));
      return StepResult::advanced;
    }
    if (pos_[lp] >= scripts_[lp].size()) return StepResult::done;
    const Instr in = scripts_[lp][pos_[lp]++];
    Event e;
    e.lp = lp;
    e.clock_before = clock;
    if (in.op == 'c') {
      clock += in.value;
      order.push_back(fmt(lp, "compute", clock));
    } else if (in.op == 'w') {
      waiting_[lp] = static_cast<int>(in.value);
      if (signalled_[lp] >= 0) return step(lp, s);
      return StepResult::blocked;
    } else {
      const auto peer = static_cast<LpId>(in.value);
      signalled_[peer] = clock;
      if (waiting_[peer] >= 0) s.wake(peer, clock);
    }
    e.clock_after = clock;
    s.emit(e);
    return StepResult::advanced;
  }
  WaitInfo waits_for(LpId lp) const override {
    WaitInfo w;
    w.kind = WaitInfo::Kind::message;
    w.peers.push_back(waiting_[lp]);
    w.what = "a signal from LP " + std::to_string(waiting_[lp]);
    return w;
  }
  std::string describe(LpId lp) const override { return "  toy LP " + std::to_string(lp) + "\n"; }
  void plan_prefetch(PrefetchPlan& plan) const override {
    ++records_asked;
    for (const PrefetchPlan::Records& r : records) {
      if (r.pointers) {
        plan.add_pointed_lines(static_cast<const char* const*>(r.base));
      } else {
        plan.add_records(r.base, r.bytes);
      }
    }
  }

  std::vector<std::string> order;
  std::vector<PrefetchPlan::Records> records;  ///< what plan_prefetch() declares
  mutable int records_asked = 0;

 private:
  static std::string fmt(LpId lp, const char* what, double t) {
    return std::to_string(lp) + ":" + what + "@" + std::to_string(t);
  }
  std::vector<std::vector<Instr>> scripts_;
  std::vector<std::size_t> pos_;
  std::vector<int> waiting_;
  std::vector<double> signalled_;
};

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("Scheduler advances the LP with the smallest clock and breaks ties by LP id") {
    ToyProgram p({{{'c', 2.0}, {'c', 1.0}}, {{'c', 1.0}, {'c', 1.0}}, {{'c', 1.0}}});
    Scheduler s(3);
    const RunResult r = s.run(p);
    CHECK(r.outcome == RunOutcome::completed);
    CHECK(r.end_time == doctest::Approx(3.0));
    // At t=0 all three are ready: LP 0 first (id order), then LP 1 and LP 2 (clocks 0), then LP 1
    // (clock 1) and LP 2 finishing, LP 1 again at 1 before LP 0 at 2.
    const std::vector<std::string> expected = {"0:compute@2.000000", "1:compute@1.000000", "2:compute@1.000000",
                                               "1:compute@2.000000", "0:compute@3.000000"};
    CHECK(p.order == expected);
  }

  TEST_CASE("Scheduler logs a run's start and end on the engine's logger - at the scheduler's clock") {
    std::ostringstream text;
    set_log_sink(std::make_shared<spdlog::sinks::ostream_sink_mt>(text));
    set_log_levels("engine=debug");
    ToyProgram p({{{'c', 2.0}, {'c', 1.0}}, {{'c', 1.0}, {'c', 1.0}}, {{'c', 1.0}}});
    Scheduler s(3);
    const RunResult r = s.run(p);
    set_log_sink(nullptr);
    set_log_levels("warn");
    CHECK(r.end_time == doctest::Approx(3.0));
    CHECK(text.str() ==
          "[0.000000000] [engine] [debug] run: 3 LPs, ready queue: sorted ring, 0 observers, 0 per-LP record arrays "
          "prefetched, stop after 0 events (0: none), at 0 s (0: none)\n"
          // the last turn: LP 0 at its clock 3, finding its script done
          "[3.000000000] [engine] [info] run completed: 5 events in 8 steps, last LP clock 3.000000000 s\n");
    CHECK(log_clock() == nullptr);  // the run's clock is not left behind
  }

  TEST_CASE("Scheduler wakes a blocked LP at the signalling time") {
    ToyProgram p({{{'w', 1}, {'c', 1.0}}, {{'c', 5.0}, {'s', 0}}});
    Scheduler s(2);
    const RunResult r = s.run(p);
    CHECK(r.outcome == RunOutcome::completed);
    CHECK(s.lp(0).clock == doctest::Approx(6.0));  // woken at 5, then computes 1
  }

  TEST_CASE("Scheduler reports a deadlock with the wait-for cycle") {
    ToyProgram p({{{'w', 1}}, {{'w', 2}}, {{'w', 0}}, {{'c', 1.0}}});
    Scheduler s(4);
    const RunResult r = s.run(p);
    CHECK(r.outcome == RunOutcome::deadlock);
    CHECK(r.blocked.size() == 3);
    const std::vector<LpId> cycle = {0, 1, 2, 0};
    CHECK(r.cycle == cycle);
    CHECK(r.message.find("wait-for cycle: LP 0 -> LP 1 -> LP 2 -> LP 0") != std::string::npos);
    CHECK(r.message.find("LP 1 (clock 0.000000000 s) waits for a signal from LP 2") != std::string::npos);
  }

  TEST_CASE("Scheduler names the finished LP a blocked LP waits on") {
    ToyProgram p({{{'w', 1}}, {{'c', 2.5}}});
    Scheduler s(2);
    const RunResult r = s.run(p);
    CHECK(r.outcome == RunOutcome::deadlock);
    CHECK(r.cycle.empty());
    CHECK(r.message.find("LP 0 waits for LP 1, which finished at t=2.500000000 s") != std::string::npos);
  }

  TEST_CASE("Scheduler stops at the event limit") {
    ToyProgram p({{{'c', 1.0}, {'c', 1.0}, {'c', 1.0}, {'c', 1.0}}});
    Scheduler s(1);
    RunLimits limits;
    limits.max_events = 2;
    const RunResult r = s.run(p, limits);
    CHECK(r.outcome == RunOutcome::event_limit);
    CHECK(r.events == 2);
    CHECK(r.end_time == doctest::Approx(2.0));
  }

  namespace {

  // Compute-only scripts for `lps` LPs (1 to 12 steps each, few distinct durations, zeros among
  // them: many LPs share a clock) and, in `order`, the LP of every step in the order the
  // scheduler must take them: sorted by the clock a step starts at, then by LP id (an independent
  // reference: a sort of all steps).
  std::vector<std::vector<Instr>> random_compute_scripts(LpId lps, std::vector<std::string>& order) {
    std::vector<std::vector<Instr>> scripts(lps);
    std::uint64_t x = 12345;
    auto next = [&x] {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<unsigned>(x >> 33);
    };
    std::vector<std::pair<double, LpId>> reference;  // (clock when the step starts, LP)
    for (LpId lp = 0; lp < lps; ++lp) {
      double clock = 0;
      const unsigned steps = 1 + next() % 12;
      for (unsigned k = 0; k < steps; ++k) {
        // Few distinct durations, zeros among them: many LPs share a clock.
        const unsigned pick = next() % 6;
        const double d = pick == 0 ? 0.0 : pick == 1 ? -0.0 : 0.25 * pick;
        reference.emplace_back(clock, lp);
        scripts[lp].push_back({'c', d});
        clock += d;
      }
    }
    std::sort(reference.begin(), reference.end());
    order.clear();
    for (const auto& step : reference) order.push_back(std::to_string(step.second));
    return scripts;
  }

  std::vector<std::string> stepped_lps(const ToyProgram& p) {
    std::vector<std::string> got;
    for (const std::string& o : p.order) got.push_back(o.substr(0, o.find(':')));
    return got;
  }

  // An observer keeping a record of `bytes` bytes per LP, which it declares for the prefetch.
  class RecordsObserver final : public Observer, public Prefetching {
   public:
    RecordsObserver(LpId lps, std::size_t bytes) : bytes_(bytes), records_(lps * bytes) {}
    void on_event(const Event& e) override { ++records_[e.lp * bytes_]; }
    void plan_prefetch(PrefetchPlan& plan) const override {
      ++asked;
      plan.add_records(records_.data(), bytes_);
    }
    mutable int asked = 0;

   private:
    std::size_t bytes_;
    std::vector<char> records_;
  };

  // An observer declaring `bytes` per LP and a second-stage prefetch that counts, per LP, the
  // times the scheduler called it; `last` is the LP of the latest call (the one about to step).
  class SecondStageObserver final : public Observer, public Prefetching {
   public:
    SecondStageObserver(LpId lps, std::size_t bytes) : calls(lps, 0), bytes_(bytes), records_(lps * bytes) {}
    void on_event(const Event& e) override {
      ++records_[e.lp * bytes_];
      if (e.lp != last) mismatched = true;  // an event of an LP the hook was not called for last
    }
    void plan_prefetch(PrefetchPlan& plan) const override {
      ++asked;
      plan.add_records(records_.data(), bytes_);
      plan.add_turn_hook(&hook, this);
    }
    mutable int asked = 0;
    mutable std::vector<int> calls;
    mutable LpId last = 0;
    bool mismatched = false;

   private:
    static void hook(const void* self, LpId lp) {
      const auto& o = *static_cast<const SecondStageObserver*>(self);
      ++o.calls[lp];
      o.last = lp;
      prefetch_line(&o.records_[lp * o.bytes_]);
    }
    std::size_t bytes_;
    std::vector<char> records_;
  };

  }  // namespace

  TEST_CASE("Scheduler steps thousands of LPs in (time - LP) order - ties and zero durations included") {
    // Compute-only scripts keep every LP runnable, so the steps must come out sorted by the clock
    // they start at, then by LP id (3,000 LPs: the radix heap).
    std::vector<std::string> expected;
    ToyProgram p(random_compute_scripts(3000, expected));
    Scheduler s(3000);
    const RunResult r = s.run(p);
    CHECK(r.outcome == RunOutcome::completed);
    CHECK(stepped_lps(p) == expected);
  }

  TEST_CASE("Scheduler steps a few LPs in (time - LP) order - in the sorted ring and in the heap") {
    // Up to 64 LPs the ready queue is a sorted ring, above it the heap: the same order either way,
    // at the sizes around the switch (a ring of 2, a ring of a power of two and not, its limit).
    for (const LpId lps : {2U, 3U, 5U, 16U, 17U, 32U, 33U, 63U, 64U, 65U, 100U}) {
      CAPTURE(lps);
      std::vector<std::string> expected;
      ToyProgram p(random_compute_scripts(lps, expected));
      Scheduler s(lps);
      const RunResult r = s.run(p);
      CHECK(r.outcome == RunOutcome::completed);
      CHECK(stepped_lps(p) == expected);
    }
  }

  TEST_CASE("Scheduler wakes LPs into the sorted ring - the heap and the radix heap in one order") {
    // 12 LPs pass a token 400 times (the holder signals a random other LP, which waits for it:
    // one token, so no signal is lost and nothing deadlocks) while all of them compute pieces of
    // few distinct lengths: woken LPs enter the queue anywhere among the running ones. The same
    // scripts beside 60 LPs with nothing to do (72 LPs: the heap) and beside 1,100 (1,112 LPs:
    // the radix heap) must step the same.
    constexpr LpId lps = 12;
    std::vector<std::vector<Instr>> scripts(lps);
    std::uint64_t x = 777;
    auto next = [&x] {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<unsigned>(x >> 33);
    };
    LpId holder = 0;
    for (int pass = 0; pass < 400; ++pass) {
      for (LpId lp = 0; lp < lps; ++lp) scripts[lp].push_back({'c', 0.25 * (next() % 5)});
      const LpId to = (holder + 1 + next() % (lps - 1)) % lps;
      scripts[holder].push_back({'s', static_cast<double>(to)});
      scripts[to].push_back({'w', static_cast<double>(holder)});
      holder = to;
    }
    ToyProgram ring(scripts);
    Scheduler small(lps);
    CHECK(small.run(ring).outcome == RunOutcome::completed);
    scripts.resize(lps + 60);
    ToyProgram heap(scripts);
    Scheduler large(lps + 60);
    CHECK(large.run(heap).outcome == RunOutcome::completed);
    scripts.resize(lps + 1100);
    ToyProgram radix(scripts);
    Scheduler many(lps + 1100);
    CHECK(many.run(radix).outcome == RunOutcome::completed);
    CHECK(ring.order.size() == 400 * lps + 400);  // every computation and every resumption
    CHECK(ring.order == heap.order);
    CHECK(ring.order == radix.order);
  }

  TEST_CASE("Scheduler asks for the per-LP records once per run - prefetching them keeps the order") {
    // 3,000 LPs × 200 bytes (600 KB, over the 256 KiB below which nothing is prefetched) and a
    // small observer (3,000 × 8 bytes): both are asked when the run starts, not per step, and the
    // prefetch of the next LP's records leaves the order of the steps as it is.
    std::vector<std::string> expected;
    ToyProgram p(random_compute_scripts(3000, expected));
    Scheduler s(3000);
    RecordsObserver large(3000, 200);
    RecordsObserver small(3000, 8);
    s.add_observer(&large);
    s.add_observer(&small);
    const RunResult r = s.run(p);
    CHECK(r.outcome == RunOutcome::completed);
    CHECK(large.asked == 1);
    CHECK(small.asked == 1);
    CHECK(p.records_asked == 1);
    CHECK(stepped_lps(p) == expected);
  }

  TEST_CASE("Scheduler prefetches what a program's per-LP pointers point at - nulls skipped - order kept") {
    // The program declares a record array and an array of one pointer per LP (a trace's next
    // text): every third pointer null, the others into a buffer. The run asks once and steps in
    // the same order as without any records.
    std::vector<std::string> expected;
    ToyProgram p(random_compute_scripts(3000, expected));
    const std::vector<char> records(3000 * 128, 'r');
    const std::string text(3000 * 16, 't');
    std::vector<const char*> next_text(3000, nullptr);
    for (std::size_t i = 0; i < next_text.size(); ++i) {
      if (i % 3 != 0) next_text[i] = text.data() + 16 * i;
    }
    p.records = {PrefetchPlan::Records{records.data(), 128, false},
                 PrefetchPlan::Records{next_text.data(), sizeof(const char*), true}};
    Scheduler s(3000);
    const RunResult r = s.run(p);
    CHECK(r.outcome == RunOutcome::completed);
    CHECK(p.records_asked == 1);
    CHECK(stepped_lps(p) == expected);
  }

  TEST_CASE("Scheduler calls an observer's second-stage prefetch for each LP it steps - only in large runs") {
    // 3,000 LPs × 200 bytes (over the 256 KiB of records below which nothing is prefetched): the
    // hook is asked for once and called each time an LP's turn starts, before its events (every
    // event is of the LP of the latest call), at least once per LP and at most once per step;
    // the steps keep their order. 100 LPs × 200 bytes: nothing is prefetched, the hook is never
    // called.
    std::vector<std::string> expected;
    ToyProgram p(random_compute_scripts(3000, expected));
    Scheduler s(3000);
    SecondStageObserver large(3000, 200);
    s.add_observer(&large);
    const RunResult r = s.run(p);
    CHECK(r.outcome == RunOutcome::completed);
    CHECK(large.asked == 1);
    CHECK_FALSE(large.mismatched);
    CHECK(std::count(large.calls.begin(), large.calls.end(), 0) == 0);
    CHECK(std::accumulate(large.calls.begin(), large.calls.end(), std::uint64_t{0}) <= r.steps);
    CHECK(stepped_lps(p) == expected);

    std::vector<std::string> few;
    ToyProgram q(random_compute_scripts(100, few));
    Scheduler t(100);
    SecondStageObserver small(100, 200);
    t.add_observer(&small);
    CHECK(t.run(q).outcome == RunOutcome::completed);
    CHECK(small.asked == 1);
    CHECK(std::count(small.calls.begin(), small.calls.end(), 0) == 100);
    CHECK(stepped_lps(q) == few);
  }

  TEST_CASE("format_event prints time LP kind peer bytes and clocks") {
    Event e;
    e.clock_before = 1e-6;
    e.clock_after = 3e-6;
    e.waited = 1e-6;
    e.lp = 2;
    e.peer = 1;
    e.tag = 7;
    e.bytes = 8;
    e.kind = EventKind::recv;
    e.detail = 1;
    CHECK(format_event(e) ==
          "t=0.000003000 lp=2 recv peer=1 tag=7 bytes=8 clock=0.000001000->0.000003000 waited=0.000001000");
  }
}
