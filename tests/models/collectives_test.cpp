// Tests of the collective expansion: SimGrid 3.32's default patterns pinned by hand-written op
// lists, and a matcher + deadlock simulation run over every kind x algorithm x size x root.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "engine/collective_kind.hpp"
#include "engine/sim_time.hpp"
#include "models/mp/collective_algorithms.hpp"
#include "models/mp/collectives.hpp"

namespace {

using augur::engine::CollectiveKind;
using augur::models::mp::CollectiveCall;
using augur::models::mp::Op;
using augur::models::mp::OpKind;
namespace mp = augur::models::mp;

constexpr std::array<CollectiveKind, 15> all_kinds{
    CollectiveKind::barrier,        CollectiveKind::bcast,      CollectiveKind::reduce,   CollectiveKind::allreduce,
    CollectiveKind::gather,         CollectiveKind::gatherv,    CollectiveKind::scatter,  CollectiveKind::scatterv,
    CollectiveKind::allgather,      CollectiveKind::allgatherv, CollectiveKind::alltoall, CollectiveKind::alltoallv,
    CollectiveKind::reduce_scatter, CollectiveKind::scan,       CollectiveKind::exscan,
};

/// "send 4 1000", "irecv 2 8", "waitall", "compute 5": one op, readable in a failure message.
std::string show(const Op& op) {
  switch (op.kind) {
    case OpKind::compute:
      return "compute " + std::to_string(static_cast<long long>(op.amount));
    case OpKind::sleep:
      return "sleep";
    case OpKind::waitall:
      return "waitall";
    case OpKind::send:
      return "send " + std::to_string(op.peer) + " " + std::to_string(op.bytes);
    case OpKind::recv:
      return "recv " + std::to_string(op.peer) + " " + std::to_string(op.bytes);
    case OpKind::isend:
      return "isend " + std::to_string(op.peer) + " " + std::to_string(op.bytes);
    case OpKind::irecv:
      return "irecv " + std::to_string(op.peer) + " " + std::to_string(op.bytes);
    default:
      return "other";  // kinds the collective expansion never writes
  }
}

std::vector<std::string> expand(const CollectiveCall& call, int rank, int processors,
                                std::string_view algorithm = "default") {
  std::vector<Op> ops;
  mp::expand_collective(call, rank, processors, algorithm, ops);
  std::vector<std::string> shown;
  for (const Op& op : ops) shown.push_back(show(op));
  return shown;
}

using Lines = std::vector<std::string>;

CollectiveCall make_call(CollectiveKind kind, std::uint64_t bytes, int root = 0, double flops = 0) {
  CollectiveCall call;
  call.kind = kind;
  call.root = root;
  call.send_bytes = bytes;
  call.recv_bytes = bytes;
  call.comp_flops = flops;
  return call;
}

// ---- the matcher and dependency simulation --------------------------------------------------

/// The outcome of running every rank's ops against each other.
struct RunResult {
  bool finished = false;
  std::vector<std::string> problems;    ///< empty when every check passed
  std::vector<std::uint64_t> received;  ///< bytes delivered to each rank
};

/// Matches sends with receives per (src, dst, tag) channel in posting order (MPI's
/// non-overtaking rule) and runs the ranks: blocking send/recv wait until matched (rendezvous,
/// the strictest protocol), isend/irecv just post, waitall waits for the rank's posted requests.
RunResult simulate(const std::vector<std::vector<Op>>& programs, std::int32_t tag) {
  const int p = static_cast<int>(programs.size());
  RunResult result;
  result.received.assign(programs.size(), 0);
  for (int rank = 0; rank < p; ++rank) {
    for (const Op& op : programs[static_cast<std::size_t>(rank)]) {
      if (op.kind == OpKind::compute || op.kind == OpKind::sleep || op.kind == OpKind::waitall) continue;
      if (op.peer < 0 || op.peer >= p || op.peer == rank)
        result.problems.push_back("rank " + std::to_string(rank) + ": bad peer " + std::to_string(op.peer));
      if (op.tag != tag) result.problems.push_back("rank " + std::to_string(rank) + ": wrong tag");
    }
  }
  if (!result.problems.empty()) return result;

  struct Request {
    int src, dst;
    std::uint64_t bytes;
    bool matched = false;
  };
  std::vector<Request> requests;
  // Unmatched requests per (src, dst) channel, oldest first; every op carries the same tag.
  std::map<std::tuple<int, int>, std::deque<std::size_t>> sends, recvs;
  const auto post = [&](int src, int dst, std::uint64_t bytes, bool is_send) {
    const std::size_t id = requests.size();
    requests.push_back(Request{src, dst, bytes});
    auto& theirs = is_send ? recvs[{src, dst}] : sends[{src, dst}];
    if (theirs.empty()) {
      (is_send ? sends[{src, dst}] : recvs[{src, dst}]).push_back(id);
      return id;
    }
    Request& other = requests[theirs.front()];
    theirs.pop_front();
    Request& mine = requests[id];
    const std::uint64_t sent = is_send ? mine.bytes : other.bytes;
    const std::uint64_t expected = is_send ? other.bytes : mine.bytes;
    if (sent != expected)
      result.problems.push_back("size mismatch " + std::to_string(src) + "->" + std::to_string(dst) + ": sent " +
                                std::to_string(sent) + ", received " + std::to_string(expected));
    mine.matched = other.matched = true;
    result.received[static_cast<std::size_t>(dst)] += sent;
    return id;
  };

  std::vector<std::size_t> pc(programs.size(), 0);
  std::vector<std::optional<std::size_t>> blocked_on(programs.size());
  std::vector<std::vector<std::size_t>> pending(programs.size());
  bool progress = true;
  while (progress) {
    progress = false;
    for (int rank = 0; rank < p; ++rank) {
      const auto r = static_cast<std::size_t>(rank);
      const auto& ops = programs[r];
      while (pc[r] < ops.size()) {
        const Op& op = ops[pc[r]];
        if (op.kind == OpKind::send || op.kind == OpKind::recv) {
          if (!blocked_on[r]) {
            blocked_on[r] =
                op.kind == OpKind::send ? post(rank, op.peer, op.bytes, true) : post(op.peer, rank, op.bytes, false);
            progress = true;
          }
          if (!requests[*blocked_on[r]].matched) break;
          blocked_on[r].reset();
        } else if (op.kind == OpKind::isend) {
          pending[r].push_back(post(rank, op.peer, op.bytes, true));
        } else if (op.kind == OpKind::irecv) {
          pending[r].push_back(post(op.peer, rank, op.bytes, false));
        } else if (op.kind == OpKind::waitall) {
          const bool done =
              std::all_of(pending[r].begin(), pending[r].end(), [&](std::size_t id) { return requests[id].matched; });
          if (!done) break;
          pending[r].clear();
        }
        ++pc[r];
        progress = true;
      }
    }
  }
  result.finished = true;
  for (int rank = 0; rank < p; ++rank) {
    const auto r = static_cast<std::size_t>(rank);
    if (pc[r] < programs[r].size()) {
      result.finished = false;
      result.problems.push_back("deadlock: rank " + std::to_string(rank) + " stuck at op " + std::to_string(pc[r]) +
                                " (" + show(programs[r][pc[r]]) + ")");
    } else if (!pending[r].empty()) {
      result.problems.push_back("rank " + std::to_string(rank) + " ends with requests not waited for");
    }
  }
  for (const Request& request : requests)
    if (!request.matched)
      result.problems.push_back("unmatched message " + std::to_string(request.src) + "->" +
                                std::to_string(request.dst));
  return result;
}

/// Per-rank inputs of one collective on P ranks, with the count arrays the spans point into.
struct Scenario {
  CollectiveKind kind;
  int p;
  int root;
  std::uint64_t n;
  bool irregular;                                              ///< reduce_scatter: unequal counts
  std::vector<std::uint64_t> counts;                           // gatherv, scatterv, allgatherv, reduce_scatter
  std::vector<std::vector<std::uint64_t>> a2a_send, a2a_recv;  // alltoallv, per rank

  /// Bytes rank a sends to rank b in the alltoallv case (some pairs exchange 0 bytes).
  std::uint64_t pair_bytes(int a, int b) const {
    return (a + b) % 3 == 0 ? 0 : n + static_cast<std::uint64_t>(3 * a + 7 * b);
  }

  Scenario(CollectiveKind k, int processors, int root_rank, std::uint64_t bytes, bool uneven)
      : kind(k), p(processors), root(root_rank), n(bytes), irregular(uneven) {
    for (int j = 0; j < p; ++j) {
      const bool varies = kind != CollectiveKind::reduce_scatter || irregular;
      counts.push_back(n + (varies ? static_cast<std::uint64_t>(10 * j) : 0));
    }
    a2a_send.assign(static_cast<std::size_t>(p), {});
    a2a_recv.assign(static_cast<std::size_t>(p), {});
    for (int r = 0; r < p; ++r)
      for (int j = 0; j < p; ++j) {
        a2a_send[static_cast<std::size_t>(r)].push_back(pair_bytes(r, j));
        a2a_recv[static_cast<std::size_t>(r)].push_back(pair_bytes(j, r));
      }
  }

  CollectiveCall call_for(int rank) const {
    CollectiveCall call = make_call(kind, n, root, 7);
    const auto r = static_cast<std::size_t>(rank);
    switch (kind) {
      case CollectiveKind::gatherv:
        call.send_bytes = counts[r];
        call.recv_counts = counts;
        break;
      case CollectiveKind::scatterv:
        call.send_counts = counts;
        call.recv_bytes = counts[r];
        break;
      case CollectiveKind::allgatherv:
        call.send_bytes = counts[r];
        call.recv_counts = counts;
        break;
      case CollectiveKind::reduce_scatter:
        call.recv_counts = counts;
        break;
      case CollectiveKind::alltoallv:
        call.send_counts = a2a_send[r];
        call.recv_counts = a2a_recv[r];
        break;
      default:
        break;
    }
    return call;
  }

  /// What the collective must deliver to `rank` at least (exact when `exact` is set).
  std::uint64_t required(int rank, bool& exact) const {
    exact = false;
    const auto others = static_cast<std::uint64_t>(p - 1);
    std::uint64_t sum_others = 0;
    for (int j = 0; j < p; ++j)
      if (j != rank) sum_others += counts[static_cast<std::size_t>(j)];
    switch (kind) {
      case CollectiveKind::barrier:
        exact = true;
        return 0;
      case CollectiveKind::bcast:
        return rank == root ? 0 : n;
      case CollectiveKind::reduce:
        return rank == root ? n : 0;
      case CollectiveKind::allreduce:
        return n;
      case CollectiveKind::gather:
        exact = rank == root;
        return rank == root ? others * n : 0;
      case CollectiveKind::gatherv:
        exact = rank == root;
        return rank == root ? sum_others : 0;
      case CollectiveKind::scatter:
        return rank == root ? 0 : n;
      case CollectiveKind::scatterv:
        exact = true;
        return rank == root ? 0 : counts[static_cast<std::size_t>(rank)];
      case CollectiveKind::allgather:
        return others * n;
      case CollectiveKind::allgatherv:
        return sum_others;
      case CollectiveKind::alltoall:
        return others * n;
      case CollectiveKind::alltoallv: {
        exact = true;
        std::uint64_t sum = 0;
        for (int j = 0; j < p; ++j)
          if (j != rank) sum += pair_bytes(j, rank);
        return sum;
      }
      case CollectiveKind::reduce_scatter:
        return counts[static_cast<std::size_t>(rank)];
      case CollectiveKind::scan:
      case CollectiveKind::exscan:
        return rank == 0 ? 0 : n;
    }
    return 0;
  }
};

bool has_reduction_compute(CollectiveKind kind) {
  return kind == CollectiveKind::reduce || kind == CollectiveKind::allreduce ||
         kind == CollectiveKind::reduce_scatter || kind == CollectiveKind::scan || kind == CollectiveKind::exscan;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("CollectiveKind names round-trip") {
    for (CollectiveKind kind : all_kinds) {
      const auto name = augur::engine::to_string(kind);
      CHECK(augur::engine::collective_kind_from_string(name) == kind);
    }
    CHECK(augur::engine::to_string(CollectiveKind::reduce_scatter) == "reduce_scatter");
    CHECK(augur::engine::to_string(CollectiveKind::allgatherv) == "allgatherv");
    CHECK_FALSE(augur::engine::collective_kind_from_string("reducescatter").has_value());
    CHECK_FALSE(augur::engine::collective_kind_from_string("").has_value());
  }

  TEST_CASE("Collectives list default first for every kind") {
    for (CollectiveKind kind : all_kinds) {
      const auto names = mp::collective_algorithms(kind);
      REQUIRE(names.size() >= 2);
      CHECK(names.front() == "default");
    }
    CHECK(mp::collective_algorithms(CollectiveKind::bcast) ==
          std::vector<std::string>{"default", "binomial", "flat", "scatter_allgather"});
    CHECK(mp::collective_algorithms(CollectiveKind::alltoall) ==
          std::vector<std::string>{"default", "pairwise", "bruck", "basic_linear"});
    // has_collective_algorithm answers for exactly the names listed.
    for (CollectiveKind kind : all_kinds) {
      for (const std::string& name : mp::collective_algorithms(kind)) CHECK(mp::has_collective_algorithm(kind, name));
    }
    CHECK(mp::has_collective_algorithm(CollectiveKind::bcast, "flat"));
    CHECK_FALSE(mp::has_collective_algorithm(CollectiveKind::alltoall, "flat"));
    CHECK_FALSE(mp::has_collective_algorithm(CollectiveKind::bcast, "binomia"));
    CHECK_FALSE(mp::has_collective_algorithm(CollectiveKind::bcast, ""));
  }

  TEST_CASE("Collectives reject an unknown algorithm with the valid names") {
    std::vector<Op> ops;
    CHECK_THROWS_WITH_AS(mp::expand_collective(make_call(CollectiveKind::bcast, 8), 0, 4, "foo", ops),
                         "unknown algorithm 'foo' for bcast; valid: default, binomial, flat, scatter_allgather",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(mp::expand_collective(make_call(CollectiveKind::barrier, 0), 0, 4, "ring", ops),
                         "unknown algorithm 'ring' for barrier; valid: default, dissemination, binomial",
                         std::invalid_argument);
    CHECK_THROWS_AS(mp::expand_collective(make_call(CollectiveKind::bcast, 8, 4), 0, 4, "default", ops),
                    std::invalid_argument);
    CHECK_THROWS_AS(mp::expand_collective(make_call(CollectiveKind::bcast, 8), 4, 4, "default", ops),
                    std::invalid_argument);
    CHECK(ops.empty());
  }

  TEST_CASE("Collectives use one negative tag per kind") {
    std::vector<std::int32_t> tags;
    for (CollectiveKind kind : all_kinds) {
      const std::int32_t tag = mp::collective_tag(kind);
      CHECK(tag < 0);
      CHECK(tag != augur::engine::any_tag);
      for (std::int32_t seen : tags) CHECK(seen != tag);
      tags.push_back(tag);
    }
    CHECK(mp::collective_tag(CollectiveKind::barrier) == -10);
    CHECK(mp::collective_tag(CollectiveKind::exscan) == -24);
  }

  TEST_CASE("Collectives on one processor only compute") {
    for (CollectiveKind kind : all_kinds) {
      for (const std::string& algorithm : mp::collective_algorithms(kind)) {
        const Lines ops = expand(make_call(kind, 1000, 0, 9), 0, 1, algorithm);
        if (has_reduction_compute(kind))
          CHECK(ops == Lines{"compute 9"});
        else
          CHECK(ops.empty());
      }
    }
    CHECK(expand(make_call(CollectiveKind::allreduce, 1000, 0, 0), 0, 1).empty());
  }

  // SimGrid bcast-binomial-tree.cpp: receive from vr - lowest set bit, then send to vr + 4, 2, 1.
  TEST_CASE("Collectives binomial bcast on 8 ranks") {
    const CollectiveCall call = make_call(CollectiveKind::bcast, 1000);
    const std::vector<Lines> expected{
        {"send 4 1000", "send 2 1000", "send 1 1000"}, {"recv 0 1000"}, {"recv 0 1000", "send 3 1000"}, {"recv 2 1000"},
        {"recv 0 1000", "send 6 1000", "send 5 1000"}, {"recv 4 1000"}, {"recv 4 1000", "send 7 1000"}, {"recv 6 1000"},
    };
    for (int rank = 0; rank < 8; ++rank) {
      CAPTURE(rank);
      CHECK(expand(call, rank, 8) == expected[static_cast<std::size_t>(rank)]);
      CHECK(expand(call, rank, 8, "binomial") == expected[static_cast<std::size_t>(rank)]);
    }
  }

  // Root 3 of 5: relative ranks vr = (rank - 3) mod 5, i.e. ranks 3 4 0 1 2 are vr 0 1 2 3 4.
  TEST_CASE("Collectives binomial bcast rotates around the root") {
    const CollectiveCall call = make_call(CollectiveKind::bcast, 64, 3);
    const std::vector<Lines> expected{
        {"recv 3 64", "send 1 64"},
        {"recv 0 64"},
        {"recv 3 64"},
        {"send 2 64", "send 0 64", "send 4 64"},
        {"recv 3 64"},
    };
    for (int rank = 0; rank < 5; ++rank) {
      CAPTURE(rank);
      CHECK(expand(call, rank, 5) == expected[static_cast<std::size_t>(rank)]);
    }
  }

  // SimGrid colls::ireduce (reduce__default with MPI_OP_NULL), then the replay's comp_flops.
  TEST_CASE("Collectives default reduce is a flat tree of isends") {
    const CollectiveCall call = make_call(CollectiveKind::reduce, 80, 2, 5);
    CHECK(expand(call, 2, 4) == Lines{"irecv 0 80", "irecv 1 80", "irecv 3 80", "waitall", "compute 5"});
    CHECK(expand(call, 0, 4) == Lines{"isend 2 80", "waitall", "compute 5"});
    CHECK(expand(call, 3, 4) == Lines{"isend 2 80", "waitall", "compute 5"});
    // Open MPI basic linear: blocking, the root receives from the highest rank down.
    CHECK(expand(call, 2, 4, "flat") == Lines{"recv 3 80", "recv 1 80", "recv 0 80", "compute 5"});
    CHECK(expand(call, 1, 4, "flat") == Lines{"send 2 80", "compute 5"});
  }

  // allreduce__default: reduce__default to 0, then bcast__default (binomial) from 0.
  TEST_CASE("Collectives default allreduce is reduce to 0 then binomial bcast") {
    const CollectiveCall call = make_call(CollectiveKind::allreduce, 40, 0, 3);
    CHECK(expand(call, 0, 4) ==
          Lines{"irecv 1 40", "irecv 2 40", "irecv 3 40", "waitall", "send 2 40", "send 1 40", "compute 3"});
    CHECK(expand(call, 1, 4) == Lines{"isend 0 40", "waitall", "recv 0 40", "compute 3"});
    CHECK(expand(call, 2, 4) == Lines{"isend 0 40", "waitall", "recv 0 40", "send 3 40", "compute 3"});
    CHECK(expand(call, 3, 4) == Lines{"isend 0 40", "waitall", "recv 2 40", "compute 3"});
  }

  // barrier__ompi_basic_linear.
  TEST_CASE("Collectives default barrier is Open MPI basic linear") {
    const CollectiveCall call = make_call(CollectiveKind::barrier, 0);
    CHECK(expand(call, 0, 4) ==
          Lines{"irecv 1 0", "irecv 2 0", "irecv 3 0", "waitall", "isend 1 0", "isend 2 0", "isend 3 0", "waitall"});
    CHECK(expand(call, 3, 4) == Lines{"send 0 0", "recv 0 0"});
    CHECK(expand(call, 1, 2, "dissemination") == Lines{"isend 0 0", "irecv 0 0", "waitall"});
  }

  TEST_CASE("Collectives alltoall decision table matches Open MPI thresholds") {
    using mp::coll::AlltoallChoice;
    using mp::coll::ompi_alltoall_choice;
    // communicator size 2
    CHECK(ompi_alltoall_choice(1, 2) == AlltoallChoice::pairwise);
    CHECK(ompi_alltoall_choice(2, 2) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(4, 2) == AlltoallChoice::pairwise);
    CHECK(ompi_alltoall_choice(32767, 2) == AlltoallChoice::pairwise);
    CHECK(ompi_alltoall_choice(32768, 2) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(1048576, 2) == AlltoallChoice::pairwise);
    // < 8 (1 included)
    CHECK(ompi_alltoall_choice(8191, 4) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(524287, 4) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(524288, 4) == AlltoallChoice::pairwise);
    CHECK(ompi_alltoall_choice(1048576, 4) == AlltoallChoice::basic_linear);
    // < 16 never Bruck, < 32 Bruck for 4..511 bytes
    CHECK(ompi_alltoall_choice(100, 8) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(3, 16) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(4, 16) == AlltoallChoice::bruck);
    CHECK(ompi_alltoall_choice(511, 31) == AlltoallChoice::bruck);
    CHECK(ompi_alltoall_choice(512, 16) == AlltoallChoice::basic_linear);
    // larger communicators
    CHECK(ompi_alltoall_choice(1023, 64) == AlltoallChoice::bruck);
    CHECK(ompi_alltoall_choice(1024, 64) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(511, 63) == AlltoallChoice::bruck);
    CHECK(ompi_alltoall_choice(512, 63) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(511, 64) == AlltoallChoice::bruck);
    CHECK(ompi_alltoall_choice(1023, 100) == AlltoallChoice::bruck);
    CHECK(ompi_alltoall_choice(262144, 100) == AlltoallChoice::pairwise);
    CHECK(ompi_alltoall_choice(262143, 200) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(40000, 300) == AlltoallChoice::pairwise);
    CHECK(ompi_alltoall_choice(200000, 1000) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(300000, 1000) == AlltoallChoice::pairwise);
    CHECK(ompi_alltoall_choice(300000, 2000) == AlltoallChoice::basic_linear);
    CHECK(ompi_alltoall_choice(2047, 5000) == AlltoallChoice::bruck);
    CHECK(ompi_alltoall_choice(70000, 5000) == AlltoallChoice::basic_linear);
  }

  TEST_CASE("Collectives default alltoall follows the decision table") {
    SUBCASE("4 ranks and 100 bytes: basic linear - receives upward and sends downward") {
      CHECK(expand(make_call(CollectiveKind::alltoall, 100), 1, 4) ==
            Lines{"irecv 2 100", "irecv 3 100", "irecv 0 100", "isend 0 100", "isend 3 100", "isend 2 100", "waitall"});
    }
    SUBCASE("4 ranks and 600000 bytes: pairwise exchange with rank XOR i") {
      CHECK(expand(make_call(CollectiveKind::alltoall, 600000), 1, 4) ==
            Lines{"isend 0 600000", "irecv 0 600000", "waitall", "isend 3 600000", "irecv 3 600000", "waitall",
                  "isend 2 600000", "irecv 2 600000", "waitall"});
    }
    SUBCASE("5 ranks and 600000 bytes: pairwise by rank plus and minus i") {
      CHECK(expand(make_call(CollectiveKind::alltoall, 600000), 0, 5) ==
            Lines{"isend 1 600000", "irecv 4 600000", "waitall", "isend 2 600000", "irecv 3 600000", "waitall",
                  "isend 3 600000", "irecv 2 600000", "waitall", "isend 4 600000", "irecv 1 600000", "waitall"});
    }
    SUBCASE("2 ranks: 1 byte pairwise and 2 bytes linear") {
      CHECK(expand(make_call(CollectiveKind::alltoall, 1), 0, 2) == Lines{"isend 1 1", "irecv 1 1", "waitall"});
      CHECK(expand(make_call(CollectiveKind::alltoall, 2), 0, 2) == Lines{"irecv 1 2", "isend 1 2", "waitall"});
    }
    SUBCASE("16 ranks and 100 bytes: Bruck - 8 blocks per step") {
      CHECK(expand(make_call(CollectiveKind::alltoall, 100), 0, 16) ==
            Lines{"isend 1 800", "irecv 15 800", "waitall", "isend 2 800", "irecv 14 800", "waitall", "isend 4 800",
                  "irecv 12 800", "waitall", "isend 8 800", "irecv 8 800", "waitall"});
    }
    SUBCASE("16 ranks and 1000 bytes: basic linear") {
      const Lines ops = expand(make_call(CollectiveKind::alltoall, 1000), 0, 16);
      REQUIRE(ops.size() == 31);
      CHECK(ops.front() == "irecv 1 1000");
      CHECK(ops[15] == "isend 15 1000");
      CHECK(ops.back() == "waitall");
    }
  }

  // colls::ialltoallv: all irecvs in rank order, then all isends in rank order (0 bytes included).
  TEST_CASE("Collectives default alltoallv posts all receives then all sends") {
    const std::vector<std::uint64_t> send{5, 0, 7};
    const std::vector<std::uint64_t> recv{3, 0, 9};
    CollectiveCall call = make_call(CollectiveKind::alltoallv, 0);
    call.send_counts = send;
    call.recv_counts = recv;
    CHECK(expand(call, 1, 3) == Lines{"irecv 0 3", "irecv 2 9", "isend 0 5", "isend 2 7", "waitall"});
    CHECK(expand(call, 1, 3, "pairwise") ==
          Lines{"isend 2 7", "irecv 0 3", "waitall", "isend 0 5", "irecv 2 9", "waitall"});
  }

  TEST_CASE("Collectives default gather and scatter are linear non-blocking") {
    const CollectiveCall gather = make_call(CollectiveKind::gather, 16, 1);
    CHECK(expand(gather, 1, 3) == Lines{"irecv 0 16", "irecv 2 16", "waitall"});
    CHECK(expand(gather, 0, 3) == Lines{"isend 1 16", "waitall"});
    const CollectiveCall scatter = make_call(CollectiveKind::scatter, 16, 2);
    CHECK(expand(scatter, 2, 3) == Lines{"isend 0 16", "isend 1 16", "waitall"});
    CHECK(expand(scatter, 0, 3) == Lines{"irecv 2 16", "waitall"});
    // Binomial gather on 5 ranks, root 0: rank 4 is alone under 0; rank 2 forwards 3's block.
    const CollectiveCall tree = make_call(CollectiveKind::gather, 10, 0);
    CHECK(expand(tree, 0, 5, "binomial") == Lines{"recv 1 10", "recv 2 20", "recv 4 10"});
    CHECK(expand(tree, 2, 5, "binomial") == Lines{"recv 3 10", "send 0 20"});
  }

  // colls::iallgather: per other rank an isend then an irecv, one waitall.
  TEST_CASE("Collectives default allgather interleaves isend and irecv per peer") {
    CHECK(expand(make_call(CollectiveKind::allgather, 12), 1, 3) ==
          Lines{"isend 0 12", "irecv 0 12", "isend 2 12", "irecv 2 12", "waitall"});
    const std::vector<std::uint64_t> counts{4, 5, 6};
    CollectiveCall v = make_call(CollectiveKind::allgatherv, 5);
    v.recv_counts = counts;
    CHECK(expand(v, 1, 3) == Lines{"isend 0 5", "irecv 0 4", "isend 2 5", "irecv 2 6", "waitall"});
  }

  // colls::scan: irecv from every lower rank, isend to every higher rank, then comp_flops.
  TEST_CASE("Collectives default scan talks to every other rank") {
    const CollectiveCall call = make_call(CollectiveKind::scan, 8, 0, 2);
    CHECK(expand(call, 2, 4) == Lines{"irecv 0 8", "irecv 1 8", "isend 3 8", "waitall", "compute 2"});
    CHECK(expand(call, 0, 4) == Lines{"isend 1 8", "isend 2 8", "isend 3 8", "waitall", "compute 2"});
    CollectiveCall ex = call;
    ex.kind = CollectiveKind::exscan;
    CHECK(expand(ex, 3, 4) == Lines{"irecv 0 8", "irecv 1 8", "irecv 2 8", "waitall", "compute 2"});
  }

  // reduce_scatter__default: equal counts -> reduce of the whole buffer to 0, then scatterv from 0.
  TEST_CASE("Collectives default reduce_scatter with equal counts is reduce then scatterv") {
    const std::vector<std::uint64_t> counts{10, 10, 10};
    CollectiveCall call = make_call(CollectiveKind::reduce_scatter, 0, 0, 4);
    call.recv_counts = counts;
    CHECK(expand(call, 0, 3) ==
          Lines{"irecv 1 30", "irecv 2 30", "waitall", "isend 1 10", "isend 2 10", "waitall", "compute 4"});
    CHECK(expand(call, 2, 3) == Lines{"isend 0 30", "waitall", "irecv 0 10", "waitall", "compute 4"});
    // Unequal counts take MPICH's selector: recursive doubling below 524288 bytes in total.
    const std::vector<std::uint64_t> uneven{10, 20, 30, 40};
    call.recv_counts = uneven;
    CHECK(expand(call, 0, 4) == expand(call, 0, 4, "recursive_doubling"));
    const std::vector<std::uint64_t> large{200000, 200000, 200000, 200001};
    call.recv_counts = large;
    CHECK(expand(call, 0, 4) == expand(call, 0, 4, "pairwise"));
  }

  TEST_CASE("Collectives expansion is deterministic") {
    for (CollectiveKind kind : all_kinds) {
      const Scenario s(kind, 7, 6, 1000, true);
      for (const std::string& algorithm : mp::collective_algorithms(kind))
        for (int rank = 0; rank < 7; ++rank)
          CHECK(expand(s.call_for(rank), rank, 7, algorithm) == expand(s.call_for(rank), rank, 7, algorithm));
    }
  }

  // Every kind x algorithm x size x P x root: messages pair up one to one with equal sizes in
  // non-overtaking order, the ranks finish under rendezvous semantics, and every rank receives
  // what the collective must deliver to it.
  TEST_CASE("Collectives match and finish for every algorithm") {
    const std::vector<int> sizes{1, 2, 3, 4, 5, 7, 8, 16};
    const std::vector<std::uint64_t> byte_counts{0, 1, 100, 5000, 300000, 600000};
    int runs = 0;
    for (CollectiveKind kind : all_kinds) {
      for (const std::string& algorithm : mp::collective_algorithms(kind)) {
        for (int p : sizes) {
          for (int root : {0, p - 1}) {
            for (std::uint64_t n : byte_counts) {
              for (bool irregular : {false, true}) {
                if (irregular && kind != CollectiveKind::reduce_scatter) continue;
                const Scenario s(kind, p, root, n, irregular);
                CAPTURE(augur::engine::to_string(kind));
                CAPTURE(algorithm);
                CAPTURE(p);
                CAPTURE(root);
                CAPTURE(n);
                CAPTURE(irregular);
                std::vector<std::vector<Op>> programs(static_cast<std::size_t>(p));
                for (int rank = 0; rank < p; ++rank)
                  mp::expand_collective(s.call_for(rank), rank, p, algorithm, programs[static_cast<std::size_t>(rank)]);
                const RunResult result = simulate(programs, mp::collective_tag(kind));
                ++runs;
                std::string problems;
                for (const std::string& problem : result.problems) problems += problem + "; ";
                CHECK(result.finished);
                CHECK(problems == "");
                if (!result.finished || !result.problems.empty()) continue;
                for (int rank = 0; rank < p; ++rank) {
                  CAPTURE(rank);
                  bool exact = false;
                  const std::uint64_t required = p == 1 ? 0 : s.required(rank, exact);
                  const std::uint64_t got = result.received[static_cast<std::size_t>(rank)];
                  if (exact || p == 1)
                    CHECK(got == required);
                  else
                    CHECK(got >= required);
                }
                for (int rank = 0; rank < p; ++rank) {
                  const auto& ops = programs[static_cast<std::size_t>(rank)];
                  const bool ends_with_compute = !ops.empty() && ops.back().kind == OpKind::compute;
                  CHECK(ends_with_compute == has_reduction_compute(kind));
                }
              }
            }
          }
        }
      }
    }
    CHECK(runs > 4000);
  }

}  // TEST_SUITE
