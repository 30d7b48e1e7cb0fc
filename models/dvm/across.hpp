// ACROSS loops (spec 6.4, ../shared/docs/dvm-functions.md "ACROSS loops"): the edge exchange of
// the first dopl_ and the pipeline of the loop's iterations over the grid dimensions it crosses,
// as pure functions of the loop geometry, the shadow widths and the price of one message.
#pragma once
#include <cstdint>
#include <vector>

#include "models/dvm/block.hpp"

namespace augur::models::dvm {

/// One processor of the loop's processor system.
struct AcrossProcessor {
  std::vector<int> coords;     ///< grid coordinates
  std::vector<Index> extents;  ///< iterations per loop axis (empty or a 0: no iterations)
  Index volume() const;
};

/// What the loop does along one grid dimension.
struct AcrossDim {
  int axis = -1;      ///< the loop axis split along this dimension (−1: none)
  int direction = 1;  ///< +1: the sweep goes from low to high coordinates; −1: high to low
  Index width = 0;    ///< elements of the shadow a processor needs from its predecessor
};

/// The loop on its processor system.
struct AcrossGeometry {
  std::vector<int> grid;               ///< sizes of the processor system
  std::vector<AcrossDim> dims;         ///< one per grid dimension
  std::vector<AcrossProcessor> procs;  ///< in system order (last dimension fastest)
  Index type_size = 8;                 ///< bytes per element of the pipelined array
};

/// The price of one message of b bytes: ts + tb·b.
struct MessagePrice {
  double ts = 0;
  double tb = 0;
};

/// Checks the geometry: one AcrossDim per grid dimension, Π grid processors with coordinates
/// inside the grid, equal loop ranks, axes inside the loop, directions ±1, widths ≥ 0.
/// Throws std::invalid_argument naming the first defect.
void validate(const AcrossGeometry& g);

/// dopl_ with DoPL = 1 (the original's edge exchange): com_i = Σ over grid dimensions with a loop
/// axis x along which i has a successor (Ts + Tb·type_size·a_i/extent_i(x)), a_i = i's iterations
/// (a_i/extent_i(x) = the face); 0 for a processor without iterations.
std::vector<double> across_edge_costs(const AcrossGeometry& g, MessagePrice price);

/// The pipeline's parameters (dvm-functions.md): pipelined grid dimensions are those with a loop
/// axis, more than one processor and a width > 0.
struct AcrossPlan {
  Index n = 1;                 ///< N: Π over the other loop axes of the largest extent (what is cut in portions)
  Index m = 1;                 ///< M: Π over the pipelined loop axes of the loop's extent
  Index p = 1;                 ///< P: Π over the pipelined grid dimensions of their size (pipeline length)
  Index w = 0;                 ///< W = ⌈shad/N⌉, shad = Σ_pipelined (Π_x dmax_x / dmax_axis)·width
  double tc = 0;               ///< Tc = loop time / loop size
  double tm = 0;               ///< Tm = Ts + Tb·type_size
  bool message_bound = false;  ///< W·Tm > 0 and P > M·Tc/(W·Tm): the first branch of Q
  Index q = 1;                 ///< the number of portions
};

/// The optimal number of portions: with S = 2·Ts,
///   P > M·Tc/(W·Tm): Q = ⌊√(N·(P·(Tc·M + P·Tm·W) − 2·Tc·M) / (P·S))⌋,
///   otherwise:       Q = ⌊√(N·(P − 1)·(M·Tc + P·Tm·W) / (P·S))⌋,
/// clamped to [1, N]; Ts = 0 (portions cost no start-up) gives N. Sets `message_bound`.
Index across_portions(AcrossPlan& plan, double ts);

/// N, M, P, W, Tc, Tm and Q of the loop (loop_time: the call time of the dopl_ that ends it).
AcrossPlan across_plan(const AcrossGeometry& g, MessagePrice price, double loop_time, Index loop_size);

/// The pipeline simulated portion by portion.
struct AcrossRun {
  AcrossPlan plan;
  std::vector<double> compute;  ///< per processor: Tc_i · iterations
  std::vector<double> wait;     ///< per processor: time spent waiting for predecessors' faces
  std::vector<double> finish;   ///< per processor: the clock at the end of the loop
};

/// Every processor cuts the product n_i of its extents along the non-pipelined axes into Q
/// portions (portion k: ⌊n_i(k+1)/Q⌋ − ⌊n_i·k/Q⌋ of them, times m_i along the pipelined axes) and
/// runs them in order; portion k starts when portion k − 1 is done and, for every pipelined grid
/// dimension, when portion k of the predecessor (the neighbour at coordinate − direction, if it
/// has iterations) is done and its face has arrived: Ts + Tb·(face of the portion)·width·type_size.
/// A portion of k iterations takes k·loop_time[i]/loop_size. Processors start at `start[i]`;
/// without a pipelined dimension every processor just runs its block.
AcrossRun across_pipeline(const AcrossGeometry& g, MessagePrice price, const std::vector<double>& loop_time,
                          Index loop_size, const std::vector<double>& start);

}  // namespace augur::models::dvm
