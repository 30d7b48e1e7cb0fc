// A program skeleton: parameters and a per-process sequence of phases whose sizes are
// expressions (expr.hpp). scenarios/program_file.cpp reads it from YAML; skeleton_trace.hpp
// expands it into the records a TI trace gives.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "traces/mp_record.hpp"
#include "traces/skeleton/expr.hpp"

namespace augur::traces::skeleton {

/// What a phase does. The records each one expands to are listed in skeleton_trace.hpp.
enum class PhaseKind : std::uint8_t {
  compute,     ///< flops (and memory bytes, math-function calls)
  halo,        ///< exchange with the neighbours on a d-dimensional process grid
  ring,        ///< exchange with rank - 1 and rank + 1 (mod P)
  pairwise,    ///< all-to-all as P - 1 sendRecv steps
  p2p,         ///< a message to and/or from an expression of the rank
  collective,  ///< one collective call (`op` says which)
  loop,        ///< `body` `count` times
  region,      ///< `body` inside a named region (a TI `location` record)
};

/// One phase. Only the fields of its kind are used.
struct Phase {
  PhaseKind kind = PhaseKind::compute;
  SourcePos at;                     ///< the phase's key, for messages
  MpOpKind op = MpOpKind::barrier;  ///< collective: which one
  Expr flops = Expr::constant(0);   ///< compute, reduce, allreduce, reduce_scatter, scan, exscan
  Expr bytes = Expr::constant(0);   ///< compute: memory bytes; exchanges and collectives: message bytes
  /// compute: memory bytes split by level (`bytes: {L1: EXPR, DRAM: EXPR}`): (index into
  /// Program::levels, bytes) per level named; `bytes` is then 0.
  std::vector<std::pair<std::size_t, Expr>> level_bytes;
  Expr loads = Expr::constant(0);   ///< compute: bytes read from memory (besides `bytes`)
  Expr stores = Expr::constant(0);  ///< compute: bytes written to memory (besides `bytes`)
  /// compute: calls of each math function, in MpRecord's order (kMathCallKinds), or empty.
  std::vector<Expr> math;
  Expr root = Expr::constant(0);   ///< rooted collectives
  Expr count = Expr::constant(1);  ///< loop: iterations
  Expr to = Expr::constant(-1);    ///< p2p: destination rank (negative: none)
  Expr from = Expr::constant(-1);  ///< p2p: source rank (negative: none)
  std::int32_t tag = 0;            ///< ring, p2p
  /// halo: bytes of the faces across each dimension (parsed with the names dim0, dim1, … added,
  /// the grid's extents), the grid's dimension count, its extents (empty: chosen like
  /// MPI_Dims_create), and whether it wraps around.
  std::vector<Expr> faces;
  std::vector<Expr> dims;
  int ndims = 0;
  bool periodic = false;
  std::string name;         ///< region
  std::vector<Phase> body;  ///< loop, region
};

/// A whole skeleton. `names` are the parameters in order, then "P" and "rank"; every
/// expression was parsed against them.
struct Program {
  std::string file;
  std::string name;
  std::vector<std::string> names;
  /// The defaults of the parameters (names[0 .. defaults.size()-1]); each may use the parameters
  /// before it and P.
  std::vector<Expr> defaults;
  std::vector<Phase> phases;
  /// The memory levels compute phases split their bytes over, in order of first mention, and
  /// where each is first named (checked against the machine's node: check_memory_levels).
  std::vector<std::string> levels;
  std::vector<SourcePos> level_at;

  std::size_t p_index() const { return defaults.size(); }
  std::size_t rank_index() const { return defaults.size() + 1; }
};

/// The names a halo's face expressions may use besides the program's: the grid's extents.
inline constexpr int max_halo_dims = 3;
std::vector<std::string> halo_names(const std::vector<std::string>& program_names);

/// Checks that every memory level `program` names is one of `node_levels` (a roofline node's
/// level names); throws ExprError at the first mention of one that is not.
void check_memory_levels(const Program& program, const std::vector<std::string>& node_levels);

/// MPI_Dims_create(nodes, ndims): the extents of a balanced grid, largest first (the prime
/// factors of `nodes`, largest first, each given to the dimension with the smallest product).
std::vector<int> balanced_dims(int nodes, int ndims);

}  // namespace augur::traces::skeleton
