// Private to traces/ti: one parser per TI action (grammar: ../shared/ti-samples/README.md, as
// SimGrid 3.32's replayer reads it: counts read like strtod and truncated, sizes = count x
// datatype). Each reads its fields through `F`, CheckedFields or OnePassFields (ti_fields.hpp),
// into `out` (kind and rank set by the caller), and leaves the end of the line to the caller.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "traces/mp_record.hpp"
#include "traces/ti/ti_fields.hpp"

namespace augur::traces::ti {

/// What a rank's cursor carries from line to line.
struct TiRankState {
  std::int32_t rank = 0;
  /// Size of a count without a datatype field: MPI_BYTE, or MPI_DOUBLE after `init 1`.
  unsigned default_type_size = 1;
  /// Scratch storage behind MpRecord::counts (reused, so no allocation per record).
  std::vector<std::uint64_t> counts;
};

namespace actions {

template <typename F>
void init(F& f, TiRankState& state, MpRecord& /*out*/) {
  if (f.more()) {
    f.take("default_is_double");
    state.default_type_size = datatype_size(0);  // MPI_DOUBLE, the MPE default
  }
}

/// barrier, finalize: no fields.
template <typename F>
void no_fields(F& /*f*/, TiRankState& /*state*/, MpRecord& /*out*/) {}

/// comm_split, comm_dup: no-ops whose arguments the replayer never reads.
template <typename F>
void ignored_fields(F& f, TiRankState& /*state*/, MpRecord& /*out*/) {
  f.skip_rest();
}

template <typename F>
void compute(F& f, TiRankState& /*state*/, MpRecord& out) {
  out.amount = f.amount("flops");
}

template <typename F>
void sleep(F& f, TiRankState& /*state*/, MpRecord& out) {
  out.amount = f.amount("seconds");
}

/// send, isend.
template <typename F>
void send(F& f, TiRankState& state, MpRecord& out) {
  out.peer = f.rank("dst", "to rank");
  out.tag = f.integer("tag");
  const std::uint64_t count = f.count("count");
  out.bytes = f.bytes(count, f.datatype("datatype", state.default_type_size), "count");
}

/// recv, irecv: the source may be -1 (MPI_ANY_SOURCE).
template <typename F>
void recv(F& f, TiRankState& state, MpRecord& out) {
  out.peer = f.rank("src", "from rank", true);
  out.tag = f.integer("tag");
  const std::uint64_t count = f.count("count");
  out.bytes = f.bytes(count, f.datatype("datatype", state.default_type_size), "count");
}

/// wait, test.
template <typename F>
void wait(F& f, TiRankState& /*state*/, MpRecord& out) {
  out.peer = f.rank("src", "with src rank");
  out.peer2 = f.rank("dst", "with dst rank");
  out.tag = f.integer("tag");
}

template <typename F>
void waitall(F& f, TiRankState& /*state*/, MpRecord& out) {
  if (f.more()) out.count = f.count("n");
}

template <typename F>
void send_recv(F& f, TiRankState& state, MpRecord& out) {
  const std::uint64_t send_count = f.count("sendcount");
  out.peer = f.rank("dst", "to rank");
  const std::uint64_t recv_count = f.count("recvcount");
  out.peer2 = f.rank("src", "from rank");
  const unsigned send_type = f.datatype("sendtype", state.default_type_size);
  const unsigned recv_type = f.datatype("recvtype", state.default_type_size);
  out.bytes = f.bytes(send_count, send_type, "sendcount");
  out.bytes2 = f.bytes(recv_count, recv_type, "recvcount");
}

template <typename F>
void bcast(F& f, TiRankState& state, MpRecord& out) {
  const std::uint64_t count = f.count("count");
  if (f.more()) out.root = f.rank("root", "with root");
  out.bytes = f.bytes(count, f.datatype("datatype", state.default_type_size), "count");
}

template <typename F>
void reduce(F& f, TiRankState& state, MpRecord& out) {
  const std::uint64_t count = f.count("count");
  out.amount = f.amount("comp_flops");
  if (f.more()) out.root = f.rank("root", "with root");
  out.bytes = f.bytes(count, f.datatype("datatype", state.default_type_size), "count");
}

/// allreduce, scan, exscan.
template <typename F>
void all_reduce(F& f, TiRankState& state, MpRecord& out) {
  const std::uint64_t count = f.count("count");
  out.amount = f.amount("comp_flops");
  out.bytes = f.bytes(count, f.datatype("datatype", state.default_type_size), "count");
}

/// alltoall, allgather (`rooted` false); gather, scatter (true).
template <bool rooted, typename F>
void exchange(F& f, TiRankState& state, MpRecord& out) {
  const std::uint64_t send_count = f.count("sendcount");
  const std::uint64_t recv_count = f.count("recvcount");
  if (rooted && f.more()) out.root = f.rank("root", "with root");
  const unsigned send_type = f.datatype("sendtype", state.default_type_size);
  const unsigned recv_type = f.datatype("recvtype", state.default_type_size);
  out.bytes = f.bytes(send_count, send_type, "sendcount");
  out.bytes2 = f.bytes(recv_count, recv_type, "recvcount");
}

/// `ranks` counts of one per-rank list into state.counts from `first` on.
template <typename F>
void per_rank_counts(F& f, TiRankState& state, std::size_t first, const char* name) {
  const int ranks = f.rank_count();
  for (int i = 0; i < ranks; ++i) state.counts[first + static_cast<std::size_t>(i)] = f.count(name, i);
}

template <typename F>
void alltoallv(F& f, TiRankState& state, MpRecord& out) {
  const auto n = static_cast<std::size_t>(f.rank_count());
  state.counts.resize(2 * n);
  const std::uint64_t send_total = f.count("sendtotal");
  per_rank_counts(f, state, 0, "sendcount");
  const std::uint64_t recv_total = f.count("recvtotal");
  per_rank_counts(f, state, n, "recvcount");
  const unsigned send_type = f.datatype("sendtype", state.default_type_size);
  const unsigned recv_type = f.datatype("recvtype", state.default_type_size);
  for (std::size_t i = 0; i < n; ++i) {
    state.counts[i] = f.bytes(state.counts[i], send_type, "sendcount");
    state.counts[n + i] = f.bytes(state.counts[n + i], recv_type, "recvcount");
  }
  out.bytes = f.bytes(send_total, send_type, "sendtotal");
  out.bytes2 = f.bytes(recv_total, recv_type, "recvtotal");
  out.counts = state.counts;
}

/// gatherv (`rooted` true), allgatherv (false).
template <bool rooted, typename F>
void gatherv(F& f, TiRankState& state, MpRecord& out) {
  state.counts.resize(static_cast<std::size_t>(f.rank_count()));
  const std::uint64_t send_count = f.count("sendcount");
  per_rank_counts(f, state, 0, "recvcount");
  if (rooted && f.more()) out.root = f.rank("root", "with root");
  const unsigned send_type = f.datatype("sendtype", state.default_type_size);
  const unsigned recv_type = f.datatype("recvtype", state.default_type_size);
  for (std::uint64_t& count : state.counts) count = f.bytes(count, recv_type, "recvcount");
  out.bytes = f.bytes(send_count, send_type, "sendcount");
  out.counts = state.counts;
}

template <typename F>
void scatterv(F& f, TiRankState& state, MpRecord& out) {
  state.counts.resize(static_cast<std::size_t>(f.rank_count()));
  per_rank_counts(f, state, 0, "sendcount");
  const std::uint64_t recv_count = f.count("recvcount");
  if (f.more()) out.root = f.rank("root", "with root");
  const unsigned send_type = f.datatype("sendtype", state.default_type_size);
  const unsigned recv_type = f.datatype("recvtype", state.default_type_size);
  for (std::uint64_t& count : state.counts) count = f.bytes(count, send_type, "sendcount");
  out.bytes2 = f.bytes(recv_count, recv_type, "recvcount");
  out.counts = state.counts;
}

template <typename F>
void reduce_scatter(F& f, TiRankState& state, MpRecord& out) {
  state.counts.resize(static_cast<std::size_t>(f.rank_count()));
  per_rank_counts(f, state, 0, "recvcount");
  out.amount = f.amount("comp_flops");
  const unsigned type = f.datatype("datatype", state.default_type_size);
  for (std::uint64_t& count : state.counts) count = f.bytes(count, type, "recvcount");
  out.counts = state.counts;
}

template <typename F>
void comm_size(F& f, TiRankState& /*state*/, MpRecord& out) {
  out.count = f.count("n");
}

template <typename F>
void location(F& f, TiRankState& /*state*/, MpRecord& out) {
  out.text = f.take("file");
  out.count = f.count("line");
}

}  // namespace actions
}  // namespace augur::traces::ti
