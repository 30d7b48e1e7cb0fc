// Event log: a dedicated spdlog logger with a basic file sink and the bare %v pattern.
#include "engine/event_log.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/basic_file_sink.h>

#include <atomic>
#include <stdexcept>

namespace augur::engine {

std::string format_event(const Event& e) {
  // t = when the event completes (a blocking operation is logged when it ends); the clock pair
  // shows when it began.
  std::string line = fmt::format("t={:.9f} lp={} {}", e.clock_after, e.lp, to_string(e.kind));
  if (e.internal) line += "*";
  if (e.peer >= 0) line += fmt::format(" peer={}", e.peer);
  switch (e.kind) {
    case EventKind::send:
    case EventKind::recv:
    case EventKind::wait:
      line += fmt::format(" tag={}", e.tag);
      break;
    default:
      break;
  }
  if (e.bytes != 0) line += fmt::format(" bytes={}", e.bytes);
  line += fmt::format(" clock={:.9f}->{:.9f}", e.clock_before, e.clock_after);
  if (e.waited > 0) line += fmt::format(" waited={:.9f}", e.waited);
  if (e.status != LpStatus::running) line += fmt::format(" status={}", to_string(e.status));
  return line;
}

EventLog::EventLog(const std::string& path) : temporary_(path) {
  static std::atomic<unsigned> counter{0};
  try {
    auto sink = std::make_shared<spdlog::sinks::basic_file_sink_st>(temporary_.name(), true);
    logger_ = std::make_shared<spdlog::logger>(fmt::format("events{}", counter++), sink);
  } catch (const spdlog::spdlog_ex& ex) {
    throw std::runtime_error(path + ": error: cannot write the event log: " + ex.what());
  }
  logger_->set_pattern("%v");
  logger_->set_level(spdlog::level::trace);
  logger_->flush_on(spdlog::level::err);
  logger_->set_error_handler([this](const std::string&) { failed_ = true; });
}

// Not finished (an exception, an interrupt): the temporary's destructor removes the partial log.
EventLog::~EventLog() = default;

void EventLog::on_event(const Event& event) {
  if (logger_->should_log(spdlog::level::info)) logger_->info(format_event(event));
}

void EventLog::on_status(LpId lp, LpStatus from, LpStatus to, SimTime at) {
  logger_->info(fmt::format("t={:.9f} lp={} status {}->{}", at, lp, to_string(from), to_string(to)));
}

void EventLog::on_finish(SimTime end) {
  logger_->info(fmt::format("end t={:.9f}", end));
  logger_->flush();
  logger_->sinks().clear();  // closes the file
  logger_->set_level(spdlog::level::off);
  if (failed_) throw std::runtime_error(temporary_.path() + ": error: cannot write the event log: write failed");
  temporary_.commit();
}

}  // namespace augur::engine
