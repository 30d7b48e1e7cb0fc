// The typed record of a message-passing trace, produced by readers (TI today) and consumed by
// models/mp. Sizes are in bytes (readers apply datatypes), compute in flops, sleep in seconds.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace augur::traces {

/// Every action of a message-passing trace.
enum class MpOpKind : std::uint8_t {
  init,
  finalize,
  compute,
  sleep,
  send,
  isend,
  recv,
  irecv,
  wait,
  waitall,
  test,
  send_recv,
  barrier,
  bcast,
  reduce,
  allreduce,
  alltoall,
  alltoallv,
  gather,
  gatherv,
  scatter,
  scatterv,
  allgather,
  allgatherv,
  reduce_scatter,
  scan,
  exscan,
  comm_size,
  comm_split,
  comm_dup,
  location,
};

/// Entries of a compute record's `counts` when it states math-function calls (machines::MathFn).
inline constexpr std::size_t kMathCallKinds = 8;

/// The trace keyword of a kind ("sendRecv", "reducescatter").
std::string_view to_string(MpOpKind kind);

/// One action of one rank. Field use per kind:
/// - compute: amount = flops; bytes = memory traffic (loaded and stored), bytes2 = the part of it
///   stored; counts = math-function calls (empty, or kMathCallKinds entries in the order sin, cos,
///   tan, exp, log, sqrt, pow, div: machines::MathFn); level_bytes = the part of `bytes` moved at
///   each memory level MpTraceSource::memory_levels() names (empty: none split) — only program
///   skeletons fill these four
/// - sleep: amount = seconds
/// - send/isend: peer = dst, tag, bytes; recv/irecv: peer = src (-1 any), tag, bytes
/// - wait/test: peer = src, peer2 = dst, tag (the request key); waitall: count = handles
/// - send_recv: peer = dst, bytes = send bytes, peer2 = src, bytes2 = recv bytes
/// - bcast: bytes, root; reduce: bytes, amount = comp flops, root; allreduce/scan/exscan: bytes,
///   amount; barrier: nothing; alltoall: bytes = per-peer send bytes, bytes2 = per-peer recv bytes;
///   gather/scatter/allgather: bytes = send bytes, bytes2 = recv bytes (per rank), root;
///   v-collectives: `counts` = per-rank bytes (alltoallv: send counts then recv counts, 2·P
///   entries; gatherv/allgatherv: recv counts with bytes = send bytes; scatterv: send counts with
///   bytes2 = recv bytes; reduce_scatter: recv counts, amount = comp flops)
/// - comm_size: count; location: `text` = file, count = line
/// Peers and roots are world ranks (readers map a communicator's ranks); `comm` names the
/// communicator of a collective, and of a point-to-point record or wait, whose messages match
/// by (comm, source, tag) (0 = the world; the others: MpTraceSource::communicators()).
struct MpRecord {
  MpOpKind kind = MpOpKind::compute;
  std::int32_t rank = 0;
  std::int32_t peer = -1;
  std::int32_t peer2 = -1;
  std::int32_t tag = 0;
  std::int32_t root = 0;
  std::int32_t comm = 0;  ///< the communicator of a collective or a message (0 = world)
  std::uint64_t bytes = 0;
  std::uint64_t bytes2 = 0;
  std::uint64_t count = 0;
  double amount = 0;
  std::uint64_t line = 0;                      ///< line in the rank's trace file
  std::span<const std::uint64_t> counts;       ///< valid until the next read from the same source
  std::span<const std::uint64_t> level_bytes;  ///< compute; valid until the next read from the same source
  std::string_view text;                       ///< valid until the next read from the same source
};

/// The communicators of a trace: entry c lists the world ranks of communicator c in comm-rank
/// order. Entry 0, the world (every rank in order), is left empty.
using MpCommunicators = std::vector<std::vector<std::int32_t>>;

/// A streamed message-passing trace: one cursor per rank.
class MpTraceSource {
 public:
  virtual ~MpTraceSource() = default;
  /// Number of ranks.
  virtual int rank_count() const = 0;
  /// Reads the next record of `rank`; false at the end of its stream. Throws TraceError.
  virtual bool next(int rank, MpRecord& out) = 0;
  /// Display name of `rank`'s file ("prk-stencil-4/rank1.txt.zst"), for messages.
  virtual std::string file_name(int rank) const = 0;
  /// The communicators the records name (read before the first record). Default: the world only
  /// (SimGrid's TI has no communicators).
  virtual MpCommunicators communicators() const { return {}; }
  /// The memory levels (names of a roofline node's levels) that compute records' `level_bytes`
  /// index. Default: none (no record splits its traffic by level).
  virtual std::vector<std::string> memory_levels() const { return {}; }
};

}  // namespace augur::traces
