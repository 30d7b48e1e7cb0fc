// One rank's OTF2 events as MpRecords (otf2_events.hpp).
//
// Compute is the time outside MPI calls: from the end of one MPI call (or the rank's first event)
// to the start of the next, as flops (the flop counter's increase, or the duration times the
// recording machine's speed). Each record waits in a queue until nothing before it is unknown: a
// receive request (MpiIrecvRequest) learns its source, tag and size only at its completion
// (MpiIrecv, inside the MPI_Wait* that completes it).
#include "traces/otf2/otf2_events.hpp"

#include <deque>
#include <fmt/format.h>
#include <unordered_map>
#include <vector>

#include "engine/sim_time.hpp"
#include "traces/otf2/otf2_collectives.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::otf2 {
namespace {

constexpr std::uint64_t chunk_events = 256;       ///< events read per refill of a rank's queue
constexpr std::uint32_t proc_null = 0xFFFFFFFEu;  ///< EZTrace's peer of a message to MPI_PROC_NULL

struct Slot {
  MpRecord rec;
  std::uint64_t request = 0;
  bool unresolved = false;  ///< a receive request whose completion is still ahead
  bool dropped = false;
  std::vector<std::uint64_t> counts;  ///< a v-collective's per-rank bytes
};

struct PendingSend {
  std::int32_t dst;
  std::int32_t tag;
  std::int32_t comm;
};

}  // namespace

struct Otf2RankStream::State {
  const Otf2Definitions& defs;
  int rank;
  double flops_per_second;
  std::string file;
  OTF2_Reader* reader = nullptr;
  OTF2_EvtReader* evt = nullptr;
  bool at_end = false;
  std::string error;
  std::uint64_t error_event = 0;

  std::deque<Slot> queue;
  std::uint64_t popped = 0;  ///< slots taken from the queue so far (sequence of its front)
  std::unordered_map<std::uint64_t, std::uint64_t> receives;  ///< request → sequence of its slot
  std::unordered_map<std::uint64_t, PendingSend> sends;
  std::uint64_t dropped_receives = 0;
  std::vector<std::uint64_t> counts;  ///< the counts of the record handed out last

  bool started = false;
  OTF2_TimeStamp mark = 0;  ///< start of the current compute
  double flops_now = 0;
  double flops_mark = 0;
  bool has_flops = false;
  int mpi_depth = 0;
  int completions_in_call = 0;         ///< completion events inside the current MPI call
  std::vector<std::uint32_t> regions;  ///< the user regions entered, innermost last

  State(const Otf2Definitions& d, int r, double fps, std::string f)
      : defs(d), rank(r), flops_per_second(fps), file(std::move(f)) {}

  OTF2_CallbackCode fail(std::uint64_t event, std::string message) {
    if (error.empty()) {
      error = std::move(message);
      error_event = event;
    }
    return OTF2_CALLBACK_INTERRUPT;
  }

  Slot& push(MpOpKind kind, std::uint64_t event) {
    Slot& s = queue.emplace_back();
    s.rec.kind = kind;
    s.rec.rank = rank;
    s.rec.line = event;
    return s;
  }

  void begin(OTF2_TimeStamp time) {
    if (started) return;
    started = true;
    mark = time;
  }

  /// Ends the current compute at `time` (outside MPI calls) and starts the next one there.
  void flush_compute(OTF2_TimeStamp time, std::uint64_t event) {
    if (mpi_depth > 0) return;
    const double amount =
        has_flops ? flops_now - flops_mark
                  : static_cast<double>(time > mark ? time - mark : 0) / defs.ticks_per_second * flops_per_second;
    if (amount > 0) push(MpOpKind::compute, event).rec.amount = amount;
    mark = time;
    flops_mark = flops_now;
  }

  /// The id of `comm` in the records (MpRecord::comm): 0 for the world and MPI_COMM_SELF.
  std::int32_t comm_id(OTF2_CommRef comm) const {
    const auto id = defs.comm_ids.find(comm);
    return id == defs.comm_ids.end() ? 0 : id->second;
  }

  /// The world rank of rank `peer` of `comm`; -1 for MPI_PROC_NULL.
  bool world_rank(OTF2_CommRef comm, std::uint32_t peer, std::uint64_t event, std::int32_t& out) {
    auto it = defs.comms.find(comm);
    if (it == defs.comms.end()) {
      fail(event, fmt::format("unknown communicator {} (not among the definitions)", comm));
      return false;
    }
    if (peer == proc_null) {
      out = -1;
      return true;
    }
    if (it->second.empty()) {  // MPI_COMM_SELF
      out = rank;
      return true;
    }
    if (peer >= it->second.size()) {
      fail(event, fmt::format("rank {} of communicator {}, which has {} ranks", peer, comm, it->second.size()));
      return false;
    }
    out = it->second[peer];
    return true;
  }

  OTF2_CallbackCode point_to_point(MpOpKind kind, std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag,
                                   std::uint64_t bytes, std::uint64_t event, OTF2_TimeStamp time) {
    flush_compute(time, event);
    std::int32_t world = 0;
    if (!world_rank(comm, peer, event, world)) return OTF2_CALLBACK_INTERRUPT;
    if (world < 0) return OTF2_CALLBACK_SUCCESS;  // MPI_PROC_NULL: no message
    Slot& s = push(kind, event);
    s.rec.peer = world;
    s.rec.tag = static_cast<std::int32_t>(tag);
    s.rec.comm = comm_id(comm);
    s.rec.bytes = bytes;
    return OTF2_CALLBACK_SUCCESS;
  }

  void push_wait(std::int32_t src, std::int32_t dst, std::int32_t tag, std::int32_t comm, std::uint64_t event) {
    Slot& s = push(MpOpKind::wait, event);
    s.rec.peer = src;
    s.rec.peer2 = dst;
    s.rec.tag = tag;
    s.rec.comm = comm;
  }

  /// The end of an MPI_Wait* call in which the trace recorded no completion (EZTrace 2.0), or of
  /// the trace: the receive requests still open are left out; a waitall completes the sends.
  void end_silent_wait(std::uint64_t event, bool wait_for_sends) {
    for (auto& [request, seq] : receives) {
      Slot& s = queue[seq - popped];
      s.unresolved = false;
      s.dropped = true;
      ++dropped_receives;
    }
    receives.clear();
    if (!wait_for_sends) return;
    if (!sends.empty()) push(MpOpKind::waitall, event).rec.count = sends.size();
    sends.clear();
  }
};

namespace {

Otf2RankStream::State& state(void* user) { return *static_cast<Otf2RankStream::State*>(user); }

OTF2_CallbackCode on_enter(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user, OTF2_AttributeList*,
                           OTF2_RegionRef region) {
  auto& s = state(user);
  s.begin(time);
  auto it = s.defs.regions.find(region);
  if (it == s.defs.regions.end()) return s.fail(event, fmt::format("Enter: unknown region {}", region));
  if (it->second.mpi) {
    s.flush_compute(time, event);
    if (s.mpi_depth++ == 0) s.completions_in_call = 0;
    return OTF2_CALLBACK_SUCCESS;
  }
  if (s.mpi_depth > 0) return OTF2_CALLBACK_SUCCESS;
  s.flush_compute(time, event);
  s.regions.push_back(region);
  Slot& slot = s.push(MpOpKind::location, event);
  slot.rec.text = it->second.name;
  slot.rec.count = it->second.line;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_leave(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user, OTF2_AttributeList*,
                           OTF2_RegionRef region) {
  auto& s = state(user);
  s.begin(time);
  auto it = s.defs.regions.find(region);
  if (it == s.defs.regions.end()) return s.fail(event, fmt::format("Leave: unknown region {}", region));
  if (it->second.mpi) {
    if (s.mpi_depth == 0) return s.fail(event, fmt::format("Leave of {} without its Enter", it->second.name));
    if (--s.mpi_depth > 0) return OTF2_CALLBACK_SUCCESS;
    if (it->second.name.starts_with("MPI_Wait") && s.completions_in_call == 0) s.end_silent_wait(event, true);
    s.mark = time;
    s.flops_mark = s.flops_now;
    return OTF2_CALLBACK_SUCCESS;
  }
  if (s.mpi_depth > 0) return OTF2_CALLBACK_SUCCESS;
  s.flush_compute(time, event);
  if (!s.regions.empty() && s.regions.back() == region) s.regions.pop_back();
  if (!s.regions.empty()) {
    const Otf2Region& outer = s.defs.regions.at(s.regions.back());
    Slot& slot = s.push(MpOpKind::location, event);
    slot.rec.text = outer.name;
    slot.rec.count = outer.line;
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_send(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user, OTF2_AttributeList*,
                          uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes) {
  state(user).begin(time);
  return state(user).point_to_point(MpOpKind::send, receiver, comm, tag, bytes, event, time);
}

OTF2_CallbackCode on_recv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user, OTF2_AttributeList*,
                          uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes) {
  state(user).begin(time);
  return state(user).point_to_point(MpOpKind::recv, sender, comm, tag, bytes, event, time);
}

OTF2_CallbackCode on_isend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user, OTF2_AttributeList*,
                           uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request) {
  auto& s = state(user);
  s.begin(time);
  const std::size_t before = s.queue.size();
  const OTF2_CallbackCode code = s.point_to_point(MpOpKind::isend, receiver, comm, tag, bytes, event, time);
  if (code == OTF2_CALLBACK_SUCCESS && s.queue.size() > before && s.queue.back().rec.kind == MpOpKind::isend) {
    s.sends[request] = PendingSend{s.queue.back().rec.peer, s.queue.back().rec.tag, s.queue.back().rec.comm};
  }
  return code;
}

OTF2_CallbackCode on_isend_complete(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user,
                                    OTF2_AttributeList*, uint64_t request) {
  auto& s = state(user);
  s.begin(time);
  ++s.completions_in_call;
  auto it = s.sends.find(request);
  if (it == s.sends.end()) return OTF2_CALLBACK_SUCCESS;  // a send to MPI_PROC_NULL
  s.push_wait(s.rank, it->second.dst, it->second.tag, it->second.comm, event);
  s.sends.erase(it);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_irecv_request(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user,
                                   OTF2_AttributeList*, uint64_t request) {
  auto& s = state(user);
  s.begin(time);
  s.flush_compute(time, event);
  Slot& slot = s.push(MpOpKind::irecv, event);
  slot.unresolved = true;
  slot.request = request;
  s.receives[request] = s.popped + s.queue.size() - 1;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_irecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user, OTF2_AttributeList*,
                           uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request) {
  auto& s = state(user);
  s.begin(time);
  ++s.completions_in_call;
  std::int32_t src = 0;
  if (!s.world_rank(comm, sender, event, src)) return OTF2_CALLBACK_INTERRUPT;
  auto it = s.receives.find(request);
  Slot* slot = nullptr;
  if (it != s.receives.end()) {
    slot = &s.queue[it->second - s.popped];
    s.receives.erase(it);
  } else {
    slot = &s.push(MpOpKind::irecv, event);  // a tracer writing no MpiIrecvRequest
  }
  slot->unresolved = false;
  if (src < 0) {  // from MPI_PROC_NULL
    slot->dropped = true;
    return OTF2_CALLBACK_SUCCESS;
  }
  slot->rec.peer = src;
  slot->rec.tag = static_cast<std::int32_t>(tag);
  slot->rec.comm = s.comm_id(comm);
  slot->rec.bytes = bytes;
  s.push_wait(src, s.rank, static_cast<std::int32_t>(tag), slot->rec.comm, event);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_request_cancelled(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user, OTF2_AttributeList*,
                                       uint64_t request) {
  auto& s = state(user);
  s.begin(time);
  ++s.completions_in_call;
  if (auto it = s.receives.find(request); it != s.receives.end()) {
    Slot& slot = s.queue[it->second - s.popped];
    slot.unresolved = false;
    slot.dropped = true;
    s.receives.erase(it);
  }
  s.sends.erase(request);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_collective_begin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user,
                                      OTF2_AttributeList*) {
  auto& s = state(user);
  s.begin(time);
  s.flush_compute(time, event);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_collective_end(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t event, void* user,
                                    OTF2_AttributeList*, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                                    uint64_t sent, uint64_t received) {
  auto& s = state(user);
  s.begin(time);
  auto it = s.defs.comms.find(comm);
  if (it == s.defs.comms.end()) {
    return s.fail(event,
                  fmt::format("{}: unknown communicator {} (not among the definitions)", collective_name(op), comm));
  }
  if (s.mpi_depth == 0) s.mark = time;  // a collective outside any MPI region is no compute
  CollectiveRecord c;
  std::string problem;
  const std::int32_t comm_id = s.comm_id(comm);  // 0 for MPI_COMM_SELF
  if (!collective_record(op, it->second, comm_id, root, sent, received, c, problem)) {
    return s.fail(event, std::move(problem));
  }
  if (!c.replayed) return OTF2_CALLBACK_SUCCESS;
  Slot& slot = s.push(c.rec.kind, event);
  const std::uint64_t line = slot.rec.line;
  slot.rec = c.rec;
  slot.rec.rank = s.rank;
  slot.rec.line = line;
  slot.rec.counts = {};
  slot.counts = std::move(c.counts);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_metric(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user, OTF2_AttributeList*,
                            OTF2_MetricRef metric, uint8_t count, const OTF2_Type*, const OTF2_MetricValue* values) {
  auto& s = state(user);
  s.begin(time);
  auto it = s.defs.flop_metrics.find(metric);
  if (it == s.defs.flop_metrics.end() || it->second.index >= count) return OTF2_CALLBACK_SUCCESS;
  const OTF2_MetricValue& v = values[it->second.index];
  s.flops_now = it->second.is_double ? v.floating_point : static_cast<double>(v.unsigned_int);
  if (!s.has_flops) s.flops_mark = s.flops_now;
  s.has_flops = true;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_EvtReaderCallbacks* make_callbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, &on_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, &on_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, &on_send);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, &on_recv);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, &on_isend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, &on_isend_complete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, &on_irecv_request);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, &on_irecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, &on_request_cancelled);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, &on_collective_begin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, &on_collective_end);
  OTF2_EvtReaderCallbacks_SetMetricCallback(cb, &on_metric);
  return cb;
}

}  // namespace

Otf2RankStream::Otf2RankStream(const Otf2Definitions& defs, int rank, double flops_per_second, std::string file)
    : state_(std::make_unique<State>(defs, rank, flops_per_second, std::move(file))) {}

Otf2RankStream::~Otf2RankStream() = default;

void Otf2RankStream::attach(OTF2_Reader* reader, OTF2_EvtReader* evt) {
  state_->reader = reader;
  state_->evt = evt;
  OTF2_EvtReaderCallbacks* callbacks = make_callbacks();
  OTF2_Reader_RegisterEvtCallbacks(reader, evt, callbacks, state_.get());
  OTF2_EvtReaderCallbacks_Delete(callbacks);
}

bool Otf2RankStream::next(MpRecord& out) {
  State& s = *state_;
  for (;;) {
    while (!s.queue.empty() && s.queue.front().dropped) {
      s.queue.pop_front();
      ++s.popped;
    }
    if (!s.queue.empty() && !s.queue.front().unresolved) break;
    if (s.at_end) {
      if (s.queue.empty()) return false;
      s.end_silent_wait(0, false);  // requests never completed: left out
      continue;
    }
    std::uint64_t read = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadLocalEvents(s.reader, s.evt, chunk_events, &read);
    if (!s.error.empty()) throw TraceError(s.file, s.error_event, s.error);
    if (code != OTF2_SUCCESS && code != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
      throw TraceError(s.file, 0, "cannot read the events: " + otf2_message(code));
    }
    if (read < chunk_events) s.at_end = true;
  }
  Slot& front = s.queue.front();
  out = front.rec;
  if (!front.counts.empty()) {
    s.counts.swap(front.counts);
    out.counts = s.counts;
  }
  s.queue.pop_front();
  ++s.popped;
  return true;
}

const std::string& Otf2RankStream::file() const { return state_->file; }

std::uint64_t Otf2RankStream::dropped_receives() const { return state_->dropped_receives; }

}  // namespace augur::traces::otf2
