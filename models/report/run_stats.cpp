// Accumulation rules: compute and sleep by duration; every communication event splits its
// duration into `waited` (waiting) and the rest (transfer); expanded collectives are counted
// through their messages, so collective_begin/end add only the operation count.
#include "models/report/run_stats.hpp"

namespace augur::models::report {

using engine::EventKind;

void RunStats::on_event(const engine::Event& e) {
  LpStats& s = lps_[e.lp];
  ++s.events;
  const double d = e.clock_after - e.clock_before;
  switch (e.kind) {
    case EventKind::compute:
    case EventKind::loop_block:
      s.compute_s += d;
      break;
    case EventKind::sleep:
      s.sleep_s += d;
      break;
    case EventKind::send:
      ++s.messages_sent;
      s.bytes_sent += e.bytes;
      s.wait_s += e.waited;
      s.transfer_s += d - e.waited;
      break;
    case EventKind::recv:
      ++s.messages_received;
      s.bytes_received += e.bytes;
      s.wait_s += e.waited;
      s.transfer_s += d - e.waited;
      break;
    case EventKind::wait:
    case EventKind::waitall:
    case EventKind::test:
    case EventKind::collective_wait:
    case EventKind::sync_all:
      s.wait_s += e.waited;
      s.transfer_s += d - e.waited;
      break;
    case EventKind::collective:
      ++s.collectives;
      s.wait_s += e.waited;
      s.transfer_s += d - e.waited;
      break;
    case EventKind::collective_begin:
      ++s.collectives;
      break;
    case EventKind::finish:
      s.end_s = e.clock_after;
      break;
    default:
      break;
  }
}

}  // namespace augur::models::report
