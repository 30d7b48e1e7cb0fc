// A program skeleton expanded on the fly into the records of a TI trace (no files, any P).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "traces/mp_record.hpp"
#include "traces/skeleton/program.hpp"

namespace augur::traces::skeleton {

/// The skeleton `program` run by `ranks` processes, its parameters set to `values` (name → value;
/// the others keep their defaults). Throws ExprError for an unknown parameter name, a value an
/// expression cannot take (a negative count, a peer outside 0..P-1, a grid whose extents do not
/// multiply to P, …), when the records are read as at open.
///
/// Records of rank r (`line` counts them from 1, as the lines of a TI rank file):
///   `init`, then the phases, then `finalize`
///   compute     `compute flops`; MpRecord::bytes = bytes + loads + stores (memory traffic),
///               bytes2 = stores, counts = the math-function calls (when `math:` is given)
///   ring        `irecv (r-1) mod P tag bytes`, `isend (r+1) mod P tag bytes`, `waitall 2`
///   halo        per dimension k and side (lower, upper) with a neighbour: `irecv` from it (tag
///               2k+1 from the lower, 2k from the upper), then the `isend`s (tag 2k+1 to the
///               upper, 2k to the lower), then `waitall n`; face bytes of dimension k; ranks
///               are laid out row-major (the last dimension varies fastest), like MPI_Cart_create
///   pairwise    for k = 1 .. P-1: `sendRecv` to (r+k) mod P and from (r-k) mod P, bytes each way
///   p2p         `irecv from` (when from ≥ 0), `isend to` (when to ≥ 0), `waitall n`
///   collective  the collective with bytes (per peer for alltoall, per rank for gather, scatter,
///               allgather, reduce_scatter), root, flops
///   loop        its body, count times (count evaluated when the loop is entered)
///   region      `location name line` (line: the region's line in the skeleton), then its body
std::unique_ptr<MpTraceSource> make_skeleton_trace(std::shared_ptr<const Program> program, int ranks,
                                                   const std::vector<std::pair<std::string, double>>& values);

}  // namespace augur::traces::skeleton
