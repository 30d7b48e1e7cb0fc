// Trace keywords of the message-passing actions (the spelling of SimGrid's TI format).
#include "traces/mp_record.hpp"

namespace augur::traces {

std::string_view to_string(MpOpKind kind) {
  switch (kind) {
    case MpOpKind::init:
      return "init";
    case MpOpKind::finalize:
      return "finalize";
    case MpOpKind::compute:
      return "compute";
    case MpOpKind::sleep:
      return "sleep";
    case MpOpKind::send:
      return "send";
    case MpOpKind::isend:
      return "isend";
    case MpOpKind::recv:
      return "recv";
    case MpOpKind::irecv:
      return "irecv";
    case MpOpKind::wait:
      return "wait";
    case MpOpKind::waitall:
      return "waitall";
    case MpOpKind::test:
      return "test";
    case MpOpKind::send_recv:
      return "sendRecv";
    case MpOpKind::barrier:
      return "barrier";
    case MpOpKind::bcast:
      return "bcast";
    case MpOpKind::reduce:
      return "reduce";
    case MpOpKind::allreduce:
      return "allreduce";
    case MpOpKind::alltoall:
      return "alltoall";
    case MpOpKind::alltoallv:
      return "alltoallv";
    case MpOpKind::gather:
      return "gather";
    case MpOpKind::gatherv:
      return "gatherv";
    case MpOpKind::scatter:
      return "scatter";
    case MpOpKind::scatterv:
      return "scatterv";
    case MpOpKind::allgather:
      return "allgather";
    case MpOpKind::allgatherv:
      return "allgatherv";
    case MpOpKind::reduce_scatter:
      return "reducescatter";
    case MpOpKind::scan:
      return "scan";
    case MpOpKind::exscan:
      return "exscan";
    case MpOpKind::comm_size:
      return "comm_size";
    case MpOpKind::comm_split:
      return "comm_split";
    case MpOpKind::comm_dup:
      return "comm_dup";
    case MpOpKind::location:
      return "location";
  }
  return "unknown";
}

}  // namespace augur::traces
