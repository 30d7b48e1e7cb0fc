// Timeline of a simulated run as a Paraver trace (BSC): PREFIX.prv (records), PREFIX.pcf (names of
// states and event types, colours), PREFIX.row (names of the rows).
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "engine/observer.hpp"
#include "engine/output_file.hpp"
#include "models/report/timeline_chrome.hpp"

namespace augur::models::report {

/// Paraver state values written by ParaverTrace: the standard ids of Paraver's default .pcf, with
/// what each one means in an augur timeline.
enum class ParaverState : std::uint8_t {
  idle = 0,                  ///< sleep
  running = 1,               ///< compute (user, system), DVM loop blocks
  waiting_message = 3,       ///< the `waited` part of a point-to-point operation
  blocking_send = 4,         ///< transfer part of a blocking send
  synchronization = 5,       ///< the `waited` part of a collective or a DVM synchronisation
  wait_all = 8,              ///< transfer part of a wait / waitall / test
  blocked = 9,               ///< still blocked when the run ended (deadlock, limit)
  immediate_send = 10,       ///< posting a non-blocking send
  immediate_receive = 11,    ///< posting a non-blocking receive
  io = 12,                   ///< compute of category I/O
  group_communication = 13,  ///< transfer part of a collective or a DVM group operation
  send_receive = 16,         ///< transfer part of a blocking receive
};

/// Paraver event type of collective operations: value CollectiveKind + 1 when one starts, 0 when it
/// ends (named in the .pcf).
inline constexpr std::uint32_t paraver_collective_type = 90000001;
/// Paraver event type of point-to-point operations: value 1 send, 2 isend, 3 recv, 4 irecv, 5 wait,
/// 6 waitall, 7 test when one starts, 0 when it ends.
inline constexpr std::uint32_t paraver_p2p_type = 90000002;

/// Observer writing a Paraver trace. One application, one task per LP with one thread (task and
/// thread rows named "rank N"), all on one node whose CPU k + 1 runs LP k. Records (times in integer
/// ns, llround(t · 1e9)):
///   `1:cpu:1:task:1:begin:end:state`        one per non-empty state interval (ParaverState);
///   `2:cpu:1:task:1:time:type:value`        collective and point-to-point operation begin / end;
///   `3:cpu:1:task:1:lsend:psend:cpu:1:task:1:lrecv:precv:size:tag`  one per message matched by
///   MessageMatcher: logical send = send posted, physical send = transfer start, logical receive =
///   receive posted, physical receive = receive completed.
/// The .prv is sorted by time (then LP, then order of creation), as Paraver's tools expect. Records
/// wait in a reorder buffer until no LP can still produce an earlier one (the minimum over running
/// LPs of their clock and over messages in flight of their send time), then go, binary, to the
/// temporary run PREFIX.prv.tmp0 in their final order. Should the buffer still exceed
/// `buffer_records` after that (an LP blocked for most of the run holds everything back), it is
/// written out sorted as a further run PREFIX.prv.tmpK, so memory stays bounded whatever the run's
/// length. on_finish merges the runs into PREFIX.prv after the header (which needs the end time),
/// writes PREFIX.pcf and PREFIX.row and removes the runs. The header's date is fixed
/// (01/01/00 at 00:00) so that the same run always gives byte-identical files.
class ParaverTrace final : public engine::Observer {
 public:
  /// Opens the first temporary run; throws std::runtime_error "file: error: …" when it cannot.
  /// The tasks and threads of the .row file are "`track` N" ("rank 3"; DVM runs: "processor 3").
  ParaverTrace(const std::string& prefix, std::uint32_t lp_count, std::size_t buffer_records = std::size_t{1} << 20,
               std::string track = "rank");
  ~ParaverTrace() override;
  ParaverTrace(const ParaverTrace&) = delete;
  ParaverTrace& operator=(const ParaverTrace&) = delete;

  void on_event(const engine::Event& e) override;
  void on_status(engine::LpId lp, engine::LpStatus from, engine::LpStatus to, engine::SimTime at) override;
  void on_finish(engine::SimTime end) override;

 private:
  /// One record, trivially copyable: it is written to the temporary runs as raw bytes.
  struct Record {
    std::int64_t time;  ///< sort key: state begin, event time, logical send
    std::uint64_t seq;  ///< sort key after time and LP: order of creation
    std::int64_t v[6];  ///< the other fields: state {end, state}; event {type, value};
                        ///< communication {psend, receiver, lrecv, precv, size, tag}
    engine::LpId lp;    ///< sort key after time: the LP (the sender of a communication)
    std::uint8_t type;  ///< 1 state, 2 event, 3 communication
    bool operator>(const Record& o) const {
      if (time != o.time) return time > o.time;
      if (lp != o.lp) return lp > o.lp;
      return seq > o.seq;
    }
  };
  struct LpState {
    engine::SimTime clock = 0;           ///< clock_after of the LP's last event: its next record starts no earlier
    engine::SimTime blocked_since = -1;  ///< when the LP blocked, -1 when it is not blocked
    std::vector<std::uint8_t> open;      ///< collectives (CollectiveKind + 1) begun and not ended
    bool done = false;
  };
  struct Run {
    std::unique_ptr<engine::TemporaryFile> temporary;  ///< removed on an interrupt too
    std::string path;
    std::FILE* file = nullptr;
  };
  void state(engine::LpId lp, std::int64_t begin, std::int64_t end, ParaverState s);
  void event(engine::LpId lp, std::int64_t time, std::uint32_t type, std::int64_t value);
  void communication(const engine::Event& e, ParaverState wait_state, ParaverState transfer_state);
  void push(Record r);
  void drain(std::int64_t before_ns);
  void spill();
  void open_run();
  void write_run(Run& run, const std::vector<Record>& records);
  void merge_runs(std::FILE* prv);
  void close(engine::SimTime end);
  void remove_runs();

  std::string prefix_;
  std::string track_;
  bool closed_ = false;
  std::vector<LpState> lps_;
  MessageMatcher matcher_;
  std::vector<MatchedMessage> matched_;
  std::priority_queue<Record, std::vector<Record>, std::greater<Record>> pending_;
  std::vector<Record> batch_;  ///< records on their way to a run
  std::vector<Run> runs_;      ///< runs_[0]: drained records in final order; then spilled sorted chunks
  std::size_t buffer_records_;
  std::size_t drain_at_;
  std::uint64_t seq_ = 0;
};

}  // namespace augur::models::report
