// The stepping controller: a small command interpreter run inside the observer callback.
#include "engine/stepper.hpp"

#include <fmt/format.h>

#include <istream>
#include <ostream>
#include <sstream>

#include "engine/event_log.hpp"

namespace augur::engine {
namespace {

std::optional<EventKind> kind_from_name(const std::string& name) {
  for (int k = 0; k <= static_cast<int>(EventKind::finish); ++k) {
    const auto kind = static_cast<EventKind>(k);
    if (to_string(kind) == name) return kind;
  }
  return std::nullopt;
}

const char* const help_text =
    "commands:\n"
    "  step [N] | s [N]      run N more events (default 1)\n"
    "  continue | c          run to the next breakpoint (or the end)\n"
    "  break event N         stop when the event count reaches N\n"
    "  break time T          stop at the first event at simulated time >= T seconds\n"
    "  break lp N            stop at the next event of LP N\n"
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
  if (break_lp_ && e.lp == *break_lp_) stop = true;
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

void Stepper::print_lp(LpId id) {
  if (id >= scheduler_.lp_count()) {
    out_ << fmt::format("no LP {} (there are {})\n", id, scheduler_.lp_count());
    return;
  }
  const LogicalProcess& p = scheduler_.lp(id);
  out_ << fmt::format("LP {}: clock={:.9f} status={} events={}\n", id, p.clock, to_string(p.status), p.events);
  out_ << program_.describe(id);
  if (p.status == LpStatus::blocked) out_ << "  waits for " << program_.waits_for(id).what << "\n";
}

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
      std::uint64_t n = 1;
      words >> n;
      step_target_ = seen_ + (n == 0 ? 1 : n);
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
      long long id = -1;
      if (!(words >> id) || id < 0) {
        out_ << "usage: print N\n";
      } else {
        print_lp(static_cast<LpId>(id));
      }
    } else if (cmd == "blocked") {
      print_blocked();
    } else if (cmd == "delete") {
      break_event_.reset();
      break_time_.reset();
      break_lp_.reset();
      break_kind_.reset();
      out_ << "breakpoints deleted\n";
    } else if (cmd == "break" || cmd == "b") {
      std::string what;
      words >> what;
      if (what == "event") {
        std::uint64_t n = 0;
        if (words >> n) {
          break_event_ = n;
          out_ << fmt::format("breakpoint at event {}\n", n);
          continue;
        }
      } else if (what == "time") {
        double t = 0;
        if (words >> t) {
          break_time_ = t;
          out_ << fmt::format("breakpoint at t={:.9f} s\n", t);
          continue;
        }
      } else if (what == "lp") {
        long long id = -1;
        if (words >> id && id >= 0) {
          break_lp_ = static_cast<LpId>(id);
          out_ << fmt::format("breakpoint on LP {}\n", id);
          continue;
        }
      } else if (what == "kind") {
        std::string name;
        words >> name;
        if (auto k = kind_from_name(name)) {
          break_kind_ = *k;
          out_ << fmt::format("breakpoint on {} events\n", name);
          continue;
        }
        out_ << fmt::format("unknown event kind '{}'\n", name);
        continue;
      }
      out_ << "usage: break event N | break time T | break lp N | break kind NAME\n";
    } else {
      out_ << fmt::format("unknown command '{}' (try help)\n", cmd);
    }
  }
}

}  // namespace augur::engine
