// The executable operations of the message-passing model: what one LP does next. Trace records
// become ops; collectives expand into ops (point-to-point algorithms).
#pragma once
#include <cstdint>

namespace augur::models::mp {

/// Kinds of executable operation.
enum class OpKind : std::uint8_t {
  compute,      ///< amount = flops
  timed,        ///< a compute block already priced (roofline node): amount = seconds
  sleep,        ///< amount = seconds
  send,         ///< blocking send: peer = dst, tag, bytes (eager or rendezvous by size)
  recv,         ///< blocking receive: peer = src, tag, bytes
  isend,        ///< non-blocking send whose request joins the op group's pending set
  irecv,        ///< non-blocking receive whose request joins the op group's pending set
  waitall,      ///< wait for every request started by isend/irecv ops of this op group so far
  trace_isend,  ///< a trace's isend: its request joins the rank's trace-visible pending list
  trace_irecv,  ///< a trace's irecv: its request joins the rank's trace-visible pending list
  test_pause,   ///< MPI_Test's injected time before it tests: amount = seconds (no event)
  trace_test,   ///< a trace's test after its pause: bytes = the pending request's id, amount = the pause
};

/// One executable operation. Trivially copyable, 32 bytes.
struct Op {
  OpKind kind = OpKind::compute;
  std::int32_t peer = -1;
  std::int32_t tag = 0;
  std::int32_t comm = 0;    ///< a trace message's communicator: matched with the tag (0 = the world)
  std::uint64_t bytes = 0;  ///< message size (send/recv kinds)
  double amount = 0;        ///< flops (compute) or seconds (timed, sleep)
};
static_assert(sizeof(Op) <= 32, "ops are copied per step: keep them small");

}  // namespace augur::models::mp
