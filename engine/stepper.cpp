// The stepping controller: a small command interpreter run inside the observer callback.
#include "engine/stepper.hpp"

#include <fmt/format.h>

#include <cmath>
#include <istream>
#include <ostream>
#include <sstream>

#include "engine/event_log.hpp"

namespace augur::engine {

std::optional<EventKind> event_kind_from_name(const std::string& name) {
  for (int k = 0; k <= static_cast<int>(EventKind::finish); ++k) {
    const auto kind = static_cast<EventKind>(k);
    if (to_string(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string describe_lp(const Scheduler& scheduler, const Program& program, LpId id) {
  if (id >= scheduler.lp_count()) return fmt::format("no LP {} (there are {})\n", id, scheduler.lp_count());
  const LogicalProcess& p = scheduler.lp(id);
  std::string text =
      fmt::format("LP {}: clock={:.9f} status={} events={}\n", id, p.clock, to_string(p.status), p.events);
  text += program.describe(id);
  if (p.status == LpStatus::blocked) text += "  waits for " + program.waits_for(id).what + "\n";
  return text;
}

namespace {

/// The next word of `words` as a whole number from `min` to `max` (digits only: "-5", "1e3" and
/// "abc" are not), or nothing.
std::optional<std::uint64_t> whole_number(std::istringstream& words, std::uint64_t min, std::uint64_t max) {
  std::string word;
  if (!(words >> word) || word.size() > 19 || word.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const std::uint64_t n = std::stoull(word);
  if (n < min || n > max) return std::nullopt;
  return n;
}

/// Whether `words` has nothing left.
bool at_end(std::istringstream& words) {
  std::string rest;
  return !(words >> rest);
}

const char* const help_text =
    "commands:\n"
    "  step [N] | s [N]      run N more events (default 1)\n"
    "  continue | c          run to the next breakpoint (or the end)\n"
    "  break event N         stop when the event count reaches N\n"
    "  break time T          stop at the first event at simulated time >= T seconds\n"
    "  break lp N [kind NAME]  stop at the next event of LP N (of that kind)\n"
    "  break kind NAME       stop at the next event of that kind (send, recv, wait, compute, ...)\n"
    "  delete                remove every breakpoint\n"
    "  print N | p N         show LP N: clock, status, queue, pending requests\n"
    "  blocked               list blocked LPs and what they wait for\n"
    "  quit | q              stop the run (partial results are reported)\n";

}  // namespace

Stepper::Stepper(Scheduler& scheduler, const Program& program, std::istream& in, std::ostream& out)
    : scheduler_(scheduler), program_(program), in_(in), out_(out) {}

bool Stepper::should_stop(const Event& e) {
  bool stop = false;
  if (step_target_ != 0 && seen_ >= step_target_) stop = true;
  if (break_event_ && seen_ >= *break_event_) {
    stop = true;
    break_event_.reset();
  }
  if (break_time_ && e.clock_before >= *break_time_) {
    stop = true;
    break_time_.reset();
  }
  if (break_lp_ && e.lp == *break_lp_ && (!break_lp_kind_ || e.kind == *break_lp_kind_)) stop = true;
  if (break_kind_ && e.kind == *break_kind_) stop = true;
  return stop;
}

void Stepper::on_event(const Event& event) {
  ++seen_;
  if (input_done_ || !should_stop(event)) return;
  step_target_ = 0;
  prompt(&event);
}

void Stepper::on_finish(SimTime end) { out_ << fmt::format("end of run at t={:.9f} s after {} events\n", end, seen_); }

void Stepper::print_lp(LpId id) { out_ << describe_lp(scheduler_, program_, id); }

void Stepper::print_blocked() {
  std::size_t n = 0;
  for (LpId id = 0; id < scheduler_.lp_count(); ++id) {
    if (scheduler_.lp(id).status != LpStatus::blocked) continue;
    ++n;
    out_ << fmt::format("LP {} (clock {:.9f}) waits for {}\n", id, scheduler_.lp(id).clock,
                        program_.waits_for(id).what);
  }
  if (n == 0) out_ << "no LP is blocked\n";
}

void Stepper::prompt(const Event* event) {
  if (event != nullptr) out_ << fmt::format("[event {}] {}\n", seen_, format_event(*event));
  std::string line;
  for (;;) {
    out_ << "(augur) " << std::flush;
    if (!std::getline(in_, line)) {
      input_done_ = true;  // end of input: run to the end without stopping again
      out_ << "\n";
      return;
    }
    std::istringstream words(line);
    std::string cmd;
    words >> cmd;
    if (cmd.empty()) continue;
    if (cmd == "step" || cmd == "s" || cmd == "next" || cmd == "n") {
      std::optional<std::uint64_t> n = 1;
      if (std::string arg; words >> arg) {
        std::istringstream one(arg);
        n = whole_number(one, 1, std::uint64_t{1} << 62);
      }
      if (!n || !at_end(words)) {
        out_ << "usage: step [N] (N: how many events, a whole number from 1)\n";
        continue;
      }
      step_target_ = seen_ + *n;
      return;
    }
    if (cmd == "continue" || cmd == "c") return;
    if (cmd == "quit" || cmd == "q") {
      input_done_ = true;
      scheduler_.request_stop();
      return;
    }
    if (cmd == "help" || cmd == "h" || cmd == "?") {
      out_ << help_text;
    } else if (cmd == "print" || cmd == "p") {
      const auto id = whole_number(words, 0, 0xffffffffU);
      if (!id || !at_end(words)) {
        out_ << "usage: print N (an LP number from 0)\n";
      } else {
        print_lp(static_cast<LpId>(*id));
      }
    } else if (cmd == "blocked") {
      print_blocked();
    } else if (cmd == "delete") {
      break_event_.reset();
      break_time_.reset();
      break_lp_.reset();
      break_lp_kind_.reset();
      break_kind_.reset();
      out_ << "breakpoints deleted\n";
    } else if (cmd == "break" || cmd == "b") {
      std::string what;
      words >> what;
      if (break_command(what, words)) continue;
      out_ << "usage: break event N | break time T | break lp N [kind NAME] | break kind NAME\n";
    } else {
      out_ << fmt::format("unknown command '{}' (try help)\n", cmd);
    }
  }
}

bool Stepper::break_command(const std::string& what, std::istringstream& words) {
  if (what == "event") {
    const auto n = whole_number(words, 1, std::uint64_t{1} << 62);
    if (!n || !at_end(words)) return false;
    break_event_ = *n;
    out_ << fmt::format("breakpoint at event {}\n", *n);
    return true;
  }
  if (what == "time") {
    double t = 0;
    if (!(words >> t) || !std::isfinite(t) || t < 0 || !at_end(words)) return false;
    break_time_ = t;
    out_ << fmt::format("breakpoint at t={:.9f} s\n", t);
    return true;
  }
  if (what == "lp") {
    const auto id = whole_number(words, 0, 0xffffffffU);
    if (!id) return false;
    if (*id >= scheduler_.lp_count()) {
      out_ << fmt::format("no LP {} (there are {}: 0 to {})\n", *id, scheduler_.lp_count(), scheduler_.lp_count() - 1);
      return true;
    }
    std::optional<EventKind> kind;
    std::string word, name;
    if (words >> word) {
      if (word != "kind" || !(words >> name) || !at_end(words)) return false;
      kind = event_kind_from_name(name);
      if (!kind) {
        out_ << fmt::format("unknown event kind '{}'\n", name);
        return true;
      }
    }
    break_lp_ = static_cast<LpId>(*id);
    break_lp_kind_ = kind;
    out_ << fmt::format("breakpoint on LP {}{}\n", *id, kind ? fmt::format(" at {} events", name) : "");
    return true;
  }
  if (what == "kind") {
    std::string name;
    if (!(words >> name) || !at_end(words)) return false;
    if (auto k = event_kind_from_name(name)) {
      break_kind_ = *k;
      out_ << fmt::format("breakpoint on {} events\n", name);
    } else {
      out_ << fmt::format("unknown event kind '{}'\n", name);
    }
    return true;
  }
  return false;
}

}  // namespace augur::engine
