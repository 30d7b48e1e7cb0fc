// Names of event kinds and LP statuses (event log, stepper, reports).
#include "engine/event.hpp"

namespace augur::engine {

std::string_view to_string(EventKind kind) {
  switch (kind) {
    case EventKind::compute:
      return "compute";
    case EventKind::sleep:
      return "sleep";
    case EventKind::send:
      return "send";
    case EventKind::recv:
      return "recv";
    case EventKind::wait:
      return "wait";
    case EventKind::waitall:
      return "waitall";
    case EventKind::test:
      return "test";
    case EventKind::collective:
      return "collective";
    case EventKind::collective_begin:
      return "collective_begin";
    case EventKind::collective_end:
      return "collective_end";
    case EventKind::collective_start:
      return "collective_start";
    case EventKind::collective_wait:
      return "collective_wait";
    case EventKind::sync_all:
      return "sync_all";
    case EventKind::loop_block:
      return "loop_block";
    case EventKind::interval_enter:
      return "interval_enter";
    case EventKind::interval_exit:
      return "interval_exit";
    case EventKind::finish:
      return "finish";
  }
  return "?";
}

std::string_view to_string(LpStatus status) {
  switch (status) {
    case LpStatus::running:
      return "running";
    case LpStatus::blocked:
      return "blocked";
    case LpStatus::exception:
      return "exception";
    case LpStatus::done:
      return "done";
  }
  return "?";
}

}  // namespace augur::engine
