// The OTF2 timeline of a message-passing run (timeline_otf2.hpp): events through the OTF2
// library's event writers, one per rank, and the global definitions when the run ends.
#include "models/report/timeline_otf2.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>

#include <otf2/otf2.h>

namespace augur::models::report {
namespace {

using engine::CollectiveKind;
using engine::EventKind;

/// The regions written: the point-to-point calls, then one per collective kind.
enum Region : std::uint32_t { r_send, r_recv, r_isend, r_irecv, r_wait, r_waitall, r_finalize, r_collectives };
constexpr std::array<const char*, 7> p2p_names{"MPI_Send", "MPI_Recv",    "MPI_Isend",   "MPI_Irecv",
                                               "MPI_Wait", "MPI_Waitall", "MPI_Finalize"};

struct CollectiveInfo {
  const char* name;
  OTF2_CollectiveOp op;
  bool rooted;
};
/// In engine::CollectiveKind order.
constexpr std::array<CollectiveInfo, 15> collectives{{
    {"MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, false},
    {"MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, true},
    {"MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, true},
    {"MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, false},
    {"MPI_Gather", OTF2_COLLECTIVE_OP_GATHER, true},
    {"MPI_Gatherv", OTF2_COLLECTIVE_OP_GATHERV, true},
    {"MPI_Scatter", OTF2_COLLECTIVE_OP_SCATTER, true},
    {"MPI_Scatterv", OTF2_COLLECTIVE_OP_SCATTERV, true},
    {"MPI_Allgather", OTF2_COLLECTIVE_OP_ALLGATHER, false},
    {"MPI_Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV, false},
    {"MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, false},
    {"MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, false},
    {"MPI_Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER, false},
    {"MPI_Scan", OTF2_COLLECTIVE_OP_SCAN, false},
    {"MPI_Exscan", OTF2_COLLECTIVE_OP_EXSCAN, false},
}};

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }

struct Request {
  std::uint64_t id;
  bool is_send;
  std::int32_t peer;  ///< -1: an any-source receive
  std::int32_t tag;
  std::uint64_t bytes;
};

struct Rank {
  OTF2_EvtWriter* writer = nullptr;
  OTF2_TimeStamp last = 0;  ///< timestamps never go back on a location
  double flops = 0;         ///< computed so far (the counter)
  std::vector<Request> pending;
};

}  // namespace

struct Otf2Timeline::State {
  std::filesystem::path dir;
  OTF2_Archive* archive = nullptr;
  std::vector<Rank> ranks;
  std::vector<std::vector<std::int32_t>> comms;  ///< entry c > 0: communicator c's world ranks
  std::vector<double> speed;
  std::uint64_t next_request = 1;
  OTF2_TimeStamp end = 0;
  bool closed = false;

  OTF2_TimeStamp ticks(std::uint32_t lp, engine::SimTime t) {
    const double ns = std::isfinite(t) && t > 0 ? std::round(t * 1e9) : 0.0;
    Rank& r = ranks[lp];
    r.last = std::max(r.last, static_cast<OTF2_TimeStamp>(std::min(ns, 9.0e18)));
    end = std::max(end, r.last);
    return r.last;
  }

  void enter(std::uint32_t lp, OTF2_TimeStamp t, std::uint32_t region) {
    const OTF2_Type type = OTF2_TYPE_DOUBLE;
    OTF2_MetricValue v;
    v.floating_point = ranks[lp].flops;
    OTF2_EvtWriter_Metric(ranks[lp].writer, nullptr, t, 0, 1, &type, &v);
    OTF2_EvtWriter_Enter(ranks[lp].writer, nullptr, t, region);
  }
  void leave(std::uint32_t lp, OTF2_TimeStamp t, std::uint32_t region) {
    OTF2_EvtWriter_Leave(ranks[lp].writer, nullptr, t, region);
  }

  /// Rank `world` of communicator `comm`, or -1 when it is no member.
  std::int32_t comm_rank(std::int32_t comm, std::int32_t world) const {
    if (comm == 0) return world;
    if (comm < 0 || static_cast<std::size_t>(comm) >= comms.size()) return -1;
    const auto& m = comms[static_cast<std::size_t>(comm)];
    const auto it = std::find(m.begin(), m.end(), world);
    return it == m.end() ? -1 : static_cast<std::int32_t>(it - m.begin());
  }

  void point_to_point(const engine::Event& e);
  void complete(std::uint32_t lp, OTF2_TimeStamp t, const Request& q, std::int32_t source);
  void wait(const engine::Event& e, bool all);
  void collective_begin(const engine::Event& e);
  void collective_end(const engine::Event& e);
  void write_definitions();
  void write_regions_and_comms(OTF2_GlobalDefWriter* g, OTF2_StringRef& next_string);
};

void Otf2Timeline::State::point_to_point(const engine::Event& e) {
  const std::uint32_t lp = e.lp;
  Rank& r = ranks[lp];
  const bool send = e.kind == EventKind::send;
  const bool blocking = (e.detail & 1) != 0;
  const OTF2_TimeStamp t0 = ticks(lp, e.clock_before);
  const auto peer = static_cast<std::uint32_t>(std::max(e.peer, 0));
  const auto tag = static_cast<std::uint32_t>(e.tag);
  const std::uint32_t region = blocking ? (send ? r_send : r_recv) : (send ? r_isend : r_irecv);
  enter(lp, t0, region);
  if (blocking) {
    if (send) OTF2_EvtWriter_MpiSend(r.writer, nullptr, t0, peer, 0, tag, e.bytes);
    const OTF2_TimeStamp t1 = ticks(lp, e.clock_after);
    if (!send) OTF2_EvtWriter_MpiRecv(r.writer, nullptr, t1, peer, 0, tag, e.bytes);
    leave(lp, t1, region);
    return;
  }
  const std::uint64_t id = next_request++;
  if (send) {
    OTF2_EvtWriter_MpiIsend(r.writer, nullptr, t0, peer, 0, tag, e.bytes, id);
  } else {
    OTF2_EvtWriter_MpiIrecvRequest(r.writer, nullptr, t0, id);
  }
  r.pending.push_back(Request{id, send, e.peer, e.tag, e.bytes});
  leave(lp, ticks(lp, e.clock_after), region);
}

void Otf2Timeline::State::complete(std::uint32_t lp, OTF2_TimeStamp t, const Request& q, std::int32_t source) {
  OTF2_EvtWriter* w = ranks[lp].writer;
  if (q.is_send) {
    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, q.id);
  } else {
    OTF2_EvtWriter_MpiIrecv(w, nullptr, t, static_cast<std::uint32_t>(std::max(source, 0)), 0,
                            static_cast<std::uint32_t>(q.tag), q.bytes, q.id);
  }
}

void Otf2Timeline::State::wait(const engine::Event& e, bool all) {
  const std::uint32_t lp = e.lp;
  Rank& r = ranks[lp];
  const std::uint32_t region = all ? r_waitall : r_wait;
  enter(lp, ticks(lp, e.clock_before), region);
  const OTF2_TimeStamp t1 = ticks(lp, e.clock_after);
  if (all) {
    for (const Request& q : r.pending) complete(lp, t1, q, q.peer);
    r.pending.clear();
  } else {
    // The oldest pending request of the event's direction, peer (an any-source receive: any) and tag.
    const bool is_send = e.base_detail() == 2;
    auto it = std::find_if(r.pending.begin(), r.pending.end(), [&](const Request& q) {
      return q.is_send == is_send && (q.peer == e.peer || (!is_send && q.peer < 0)) && q.tag == e.tag;
    });
    if (it != r.pending.end()) {
      complete(lp, t1, *it, e.peer);
      r.pending.erase(it);
    }
  }
  leave(lp, t1, region);
}

void Otf2Timeline::State::collective_begin(const engine::Event& e) {
  const auto kind = static_cast<std::size_t>(e.base_detail() - 1);
  if (kind >= collectives.size()) return;
  const OTF2_TimeStamp t0 = ticks(e.lp, e.clock_before);
  enter(e.lp, t0, static_cast<std::uint32_t>(r_collectives + kind));
  OTF2_EvtWriter_MpiCollectiveBegin(ranks[e.lp].writer, nullptr, t0);
}

void Otf2Timeline::State::collective_end(const engine::Event& e) {
  const auto kind = static_cast<std::size_t>(e.base_detail() - 1);
  if (kind >= collectives.size()) return;
  const std::int32_t comm = engine::collective_event_comm(e.tag);
  const std::int32_t root = comm_rank(comm, e.peer);
  const OTF2_TimeStamp t1 = ticks(e.lp, e.clock_after);
  OTF2_EvtWriter_MpiCollectiveEnd(
      ranks[e.lp].writer, nullptr, t1, collectives[kind].op, static_cast<OTF2_CommRef>(comm),
      collectives[kind].rooted && root >= 0 ? static_cast<std::uint32_t>(root) : OTF2_COLLECTIVE_ROOT_NONE, e.bytes,
      e.bytes);
  leave(e.lp, t1, static_cast<std::uint32_t>(r_collectives + kind));
}

void Otf2Timeline::State::write_regions_and_comms(OTF2_GlobalDefWriter* g, OTF2_StringRef& next_string) {
  const OTF2_StringRef empty = 0;
  const auto region = [&](std::uint32_t ref, const char* name) {
    const OTF2_StringRef s = next_string++;
    OTF2_GlobalDefWriter_WriteString(g, s, name);
    OTF2_GlobalDefWriter_WriteRegion(g, ref, s, s, empty, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                     OTF2_REGION_FLAG_NONE, empty, 0, 0);
  };
  for (std::uint32_t i = 0; i < p2p_names.size(); ++i) region(i, p2p_names[i]);
  for (std::uint32_t i = 0; i < collectives.size(); ++i) region(r_collectives + i, collectives[i].name);
  std::vector<std::uint64_t> members(ranks.size());
  for (std::size_t i = 0; i < members.size(); ++i) members[i] = i;
  const OTF2_StringRef world = next_string++;
  OTF2_GlobalDefWriter_WriteString(g, world, "MPI_COMM_WORLD");
  OTF2_GlobalDefWriter_WriteGroup(g, 1, world, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  static_cast<std::uint32_t>(members.size()), members.data());
  OTF2_GlobalDefWriter_WriteComm(g, 0, world, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  for (std::size_t c = 1; c < comms.size(); ++c) {
    const OTF2_StringRef name = next_string++;
    OTF2_GlobalDefWriter_WriteString(g, name, fmt::format("communicator {}", c).c_str());
    members.assign(comms[c].begin(), comms[c].end());
    const auto group = static_cast<OTF2_GroupRef>(c + 1);
    OTF2_GlobalDefWriter_WriteGroup(g, group, name, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(members.size()), members.data());
    OTF2_GlobalDefWriter_WriteComm(g, static_cast<OTF2_CommRef>(c), name, group, 0, OTF2_COMM_FLAG_NONE);
  }
}

void Otf2Timeline::State::write_definitions() {
  OTF2_Archive_OpenDefFiles(archive);
  for (std::size_t r = 0; r < ranks.size(); ++r)
    OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, r));
  OTF2_Archive_CloseDefFiles(archive);
  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, end, OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteString(g, 0, "");
  OTF2_GlobalDefWriter_WriteString(g, 1, "augur");
  OTF2_GlobalDefWriter_WriteString(g, 2, "PAPI_FP_OPS");
  OTF2_StringRef next_string = 3;
  OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  std::vector<std::uint64_t> locations(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const OTF2_StringRef name = next_string++;
    OTF2_GlobalDefWriter_WriteString(g, name, fmt::format("rank {}", r).c_str());
    const auto ref = static_cast<std::uint32_t>(r);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, ref, name, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, r, name, OTF2_LOCATION_TYPE_CPU_THREAD, 0, ref);
    locations[r] = r;
  }
  OTF2_GlobalDefWriter_WriteGroup(g, 0, 1, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  static_cast<std::uint32_t>(locations.size()), locations.data());
  write_regions_and_comms(g, next_string);
  OTF2_GlobalDefWriter_WriteMetricMember(g, 0, 2, 2, OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
                                         OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, 0);
  const OTF2_MetricMemberRef member = 0;
  OTF2_GlobalDefWriter_WriteMetricClass(g, 0, 1, &member, OTF2_METRIC_SYNCHRONOUS_STRICT, OTF2_RECORDER_KIND_CPU);
  OTF2_Archive_CloseGlobalDefWriter(archive, g);
}

Otf2Timeline::Otf2Timeline(const std::string& dir, std::uint32_t lp_count, std::vector<std::vector<std::int32_t>> comms,
                           std::vector<double> flops_per_second)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.dir = dir;
  s.comms = std::move(comms);
  s.speed = std::move(flops_per_second);
  s.speed.resize(lp_count, 1e9);
  std::error_code ec;
  std::filesystem::create_directories(s.dir, ec);
  for (const char* old : {"traces.otf2", "traces.def", "traces"}) std::filesystem::remove_all(s.dir / old, ec);
  s.archive = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 1 << 22, OTF2_SUBSTRATE_POSIX,
                                OTF2_COMPRESSION_NONE);
  if (s.archive == nullptr || ec)
    throw std::runtime_error(fmt::format("{}: error: cannot write an OTF2 archive here", dir));
  static const OTF2_FlushCallbacks flush{&pre_flush, nullptr};
  OTF2_Archive_SetFlushCallbacks(s.archive, &flush, nullptr);
  OTF2_Archive_SetSerialCollectiveCallbacks(s.archive);
  OTF2_Archive_OpenEvtFiles(s.archive);
  s.ranks.resize(lp_count);
  const OTF2_Type type = OTF2_TYPE_DOUBLE;
  OTF2_MetricValue zero;
  zero.floating_point = 0;
  for (std::uint32_t r = 0; r < lp_count; ++r) {
    s.ranks[r].writer = OTF2_Archive_GetEvtWriter(s.archive, r);
    // The counter starts at 0 with the run (readers take an accumulated counter's first value as its base).
    OTF2_EvtWriter_Metric(s.ranks[r].writer, nullptr, 0, 0, 1, &type, &zero);
  }
}

Otf2Timeline::~Otf2Timeline() {
  if (!state_->closed) on_finish(0);
}

void Otf2Timeline::on_event(const engine::Event& e) {
  State& s = *state_;
  if (e.lp >= s.ranks.size()) return;
  switch (e.kind) {
    case EventKind::compute:
    case EventKind::sleep:
      if (!e.internal) s.ranks[e.lp].flops += (e.clock_after - e.clock_before) * s.speed[e.lp];
      return;
    case EventKind::send:
    case EventKind::recv:
      if (!e.internal) s.point_to_point(e);
      return;
    case EventKind::wait:
    case EventKind::waitall:
      if (!e.internal) s.wait(e, e.kind == EventKind::waitall);
      return;
    case EventKind::collective:
      s.collective_begin(e);
      s.collective_end(e);
      return;
    case EventKind::collective_begin:
      s.collective_begin(e);
      return;
    case EventKind::collective_end:
      s.collective_end(e);
      return;
    case EventKind::finish: {  // MPI_Finalize: the compute after the last call ends there
      const OTF2_TimeStamp t = s.ticks(e.lp, e.clock_after);
      s.enter(e.lp, t, r_finalize);
      s.leave(e.lp, t, r_finalize);
      return;
    }
    default:
      return;
  }
}

void Otf2Timeline::on_finish(engine::SimTime) {
  State& s = *state_;
  if (s.closed) return;
  s.closed = true;
  for (Rank& r : s.ranks) OTF2_Archive_CloseEvtWriter(s.archive, r.writer);
  OTF2_Archive_CloseEvtFiles(s.archive);
  s.write_definitions();
  OTF2_Archive_Close(s.archive);
}

}  // namespace augur::models::report
