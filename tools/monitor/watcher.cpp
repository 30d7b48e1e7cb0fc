// The monitor's observer: display states, publishing and the command interpreter.
#include "tools/monitor/watcher.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/stepper.hpp"

namespace augur::tools::monitor {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto publish_every = std::chrono::milliseconds(200);

/// A whole number from `min` to `max` in `word` (digits only), or nothing.
std::optional<std::uint64_t> whole(const std::string& word, std::uint64_t min, std::uint64_t max) {
  if (word.empty() || word.size() > 18 || word.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const std::uint64_t n = std::stoull(word);
  if (n < min || n > max) return std::nullopt;
  return n;
}

std::string error_json(const std::string& text) { return nlohmann::json{{"type", "error"}, {"text", text}}.dump(); }

}  // namespace

Watcher::Watcher(Server& server, const engine::Scheduler& scheduler, const engine::Program& program,
                 std::string variant, bool paused)
    : server_(server),
      scheduler_(scheduler),
      program_(program),
      variant_(std::move(variant)),
      shown_(scheduler.lp_count(), Shown::idle),
      published_at_(Clock::now()) {
  if (paused) {
    step_target_ = 1;
    armed_ = true;
  }
  publish();
}

Watcher::~Watcher() { server_.detach(); }

Shown Watcher::shown_after(const engine::Event& e, Shown before) {
  using K = engine::EventKind;
  switch (e.kind) {
    case K::interval_enter:
    case K::interval_exit:
    case K::finish:
      return before;
    case K::compute:
    case K::sleep:
    case K::loop_block:
      return Shown::computing;
    default:
      return e.waited > 0 ? Shown::waiting : Shown::communicating;
  }
}

void Watcher::on_status(engine::LpId lp, engine::LpStatus, engine::LpStatus to, engine::SimTime) {
  switch (to) {
    case engine::LpStatus::blocked:
      shown_[lp] = Shown::blocked;
      break;
    case engine::LpStatus::done:
      shown_[lp] = Shown::done;
      break;
    case engine::LpStatus::exception:
      shown_[lp] = Shown::error;
      break;
    case engine::LpStatus::running:
      shown_[lp] = Shown::waiting;  // woken: it waited until now
      break;
  }
}

void Watcher::on_finish(engine::SimTime end) {
  finished_ = true;
  paused_ = false;
  time_ = end;
  std::size_t done = 0;
  for (const Shown s : shown_) done += s == Shown::done ? 1 : 0;
  outcome_ = done == shown_.size() ? std::string("completed")
                                   : fmt::format("ended, {} of {} LPs not done", shown_.size() - done, shown_.size());
  publish();
  server_.flush(std::chrono::seconds(2));  // the pages see the end before augur goes on and exits
}

bool Watcher::should_stop(const engine::Event& e) {
  bool stop = false;
  if (step_target_ != 0 && seen_ >= step_target_) {
    stop = true;
    step_target_ = 0;
  }
  if (break_time_ && e.clock_before >= *break_time_) {
    stop = true;
    break_time_.reset();
  }
  if (break_kind_ && e.kind == *break_kind_) {
    stop = true;
    break_kind_.reset();
  }
  armed_ = step_target_ != 0 || break_time_ || break_kind_;
  if (stop) time_ = e.clock_after;
  return stop;
}

void Watcher::tick() {
  while (server_.has_command()) {
    if (auto command = server_.next_command(std::chrono::milliseconds(0))) obey(*command);
  }
  if (Clock::now() - published_at_ >= publish_every) {
    time_ = scheduler_.now();
    publish();
  }
}

void Watcher::pause() {
  paused_ = true;
  publish();
  for (;;) {
    const auto command = server_.next_command(std::chrono::milliseconds(500));
    if (!command) continue;
    if (obey(*command)) break;
    publish();
  }
  paused_ = false;
  published_at_ = Clock::now();
  published_events_ = seen_;
}

bool Watcher::obey(const std::string& command) {
  std::istringstream words(command);
  std::string verb, arg, extra;
  words >> verb >> arg >> extra;
  const bool one_arg = !arg.empty() && extra.empty();
  if (verb == "pause" && arg.empty()) {
    if (!paused_) {
      step_target_ = seen_ + 1;  // stop at the next event
      armed_ = true;
    }
    return false;
  }
  if ((verb == "resume" || verb == "continue") && arg.empty()) return true;
  if (verb == "step" && (arg.empty() || one_arg)) {
    const auto n = arg.empty() ? std::optional<std::uint64_t>(1) : whole(arg, 1, std::uint64_t{1} << 50);
    if (!n) {
      server_.send(error_json("step N: N is a whole number of events from 1"));
      return false;
    }
    step_target_ = seen_ + *n;
    armed_ = true;
    return true;
  }
  if (verb == "time" && one_arg) {
    char* end = nullptr;
    const double t = std::strtod(arg.c_str(), &end);
    if (end == arg.c_str() || *end != '\0' || !std::isfinite(t) || t < 0) {
      server_.send(error_json(fmt::format("time T: '{}' is not a simulated time in seconds", arg)));
      return false;
    }
    break_time_ = t;
    armed_ = true;
    return true;
  }
  if (verb == "kind" && one_arg) {
    const auto kind = engine::event_kind_from_name(arg);
    if (!kind) {
      server_.send(error_json(fmt::format("kind NAME: '{}' is not an event kind", arg)));
      return false;
    }
    break_kind_ = *kind;
    armed_ = true;
    return true;
  }
  if (verb == "print" && one_arg) {
    const auto id = whole(arg, 0, 0xffffffffU);
    if (!id) {
      server_.send(error_json("print N: N is an LP number from 0"));
      return false;
    }
    const auto lp = static_cast<engine::LpId>(*id);
    server_.send(
        nlohmann::json{{"type", "lp"}, {"id", lp}, {"text", engine::describe_lp(scheduler_, program_, lp)}}.dump(
            -1, ' ', false, nlohmann::json::error_handler_t::replace));
    return false;
  }
  server_.send(error_json(
      fmt::format("unknown command '{}' (pause, resume, step N, time T, kind NAME, print N)", command.substr(0, 80))));
  return false;
}

void Watcher::publish() {
  const auto now = Clock::now();
  const double seconds = std::chrono::duration<double>(now - published_at_).count();
  if (!paused_ && seconds > 0) rate_ = static_cast<double>(seen_ - published_events_) / seconds;
  if (paused_ || finished_) rate_ = 0;
  published_at_ = now;
  published_events_ = seen_;
  server_.publish_state(state_json());
}

std::string Watcher::state_json() {
  const auto lps = static_cast<std::uint32_t>(shown_.size());
  const std::uint32_t group = lps <= max_cells ? 1 : (lps + max_cells - 1) / max_cells;
  std::array<std::uint64_t, shown_count> counts{};
  for (const Shown s : shown_) ++counts[static_cast<std::size_t>(s)];
  std::string cells;
  cells.reserve(lps / group + 1);
  for (std::uint32_t first = 0; first < lps; first += group) {
    // A group shows the state most of its LPs are in (the lower state on a tie).
    std::array<std::uint32_t, shown_count> in_group{};
    const std::uint32_t last = std::min(lps, first + group);
    for (std::uint32_t i = first; i < last; ++i) ++in_group[static_cast<std::size_t>(shown_[i])];
    std::size_t most = 0;
    for (std::size_t k = 1; k < in_group.size(); ++k) most = in_group[k] > in_group[most] ? k : most;
    cells += static_cast<char>('0' + most);
  }
  nlohmann::json j{{"type", "state"},   {"variant", variant_},   {"lps", lps},
                   {"group", group},    {"cells", cells},        {"counts", counts},
                   {"events", seen_},   {"time", time_},         {"rate", rate_},
                   {"paused", paused_}, {"finished", finished_}, {"outcome", outcome_}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace augur::tools::monitor
