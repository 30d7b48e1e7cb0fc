// ACROSS loops as Predictor 3.1 prices them (models/dvm/README.md, "ACROSS loops"): the edge
// exchange of the dopl_ with DoPL = 1 and the block pipeline of the dopl_ with DoPL = 0, with
// 3.1's bookings and its single-precision arithmetic. The predictor31 cost style uses these; the
// seed style keeps augur's own pipeline (across.hpp).
#pragma once
#include <utility>
#include <vector>

#include "models/dvm/block.hpp"

namespace augur::models::dvm {

/// The loop on its processor system, as 3.1's ProcBlock array sees it.
struct Across31Loop {
  std::vector<int> grid;                   ///< sizes of the processor system (last dimension fastest)
  std::vector<std::vector<Range>> blocks;  ///< per position: its range per loop axis (empty: no iterations)
  std::vector<int> invers;                 ///< per loop axis: 1 when the loop variable decreases
  std::vector<Index> width;                ///< per grid dimension: the shadow width a processor waits for
  double call_time = 0;                    ///< the loop's time on processor 0 (vcall_time[0])
  Index loop_size = 0;
  Index type_size = 8;
  /// Predictor 2.53's pricing (`augur predict` with an old-format .par): a face costs Ts +
  /// elements · Tb · type_size without channels, Q takes Tm = Ts + Tb · type_size, and each
  /// position's Wait_shadow is the synchronous sum of its blocks' longest message (Ts for a face
  /// sent) instead of 3.1's late arrivals.
  bool v253 = false;
};

/// What the model does for the pipeline: positions are the system's (0 … P−1).
class Across31Hooks {
 public:
  virtual ~Across31Hooks() = default;
  /// The position's clock (CurrProcTime).
  virtual double clock(int pos) = 0;
  /// 3.1's CommSend of `bytes` from `from` to `to`, the sender ready at `ready`: {begin, end}.
  virtual std::pair<double, double> send(double ready, int from, int to, Index bytes) = 0;
  /// AddTime(__Wait_shadow, pos, t), with `overlap` of it overlapped (AddTime(__Shadow_overlap)).
  virtual void wait_shadow(int pos, double t, double overlap) = 0;
  /// AddTime(__CPU_time_sys, pos, t) and AddTime(__Insuff_parall_sys, pos, t).
  virtual void system_loss(int pos, double t) = 0;
};

/// dopl_ with DoPL = 1: every position i in order sends to its successor along each grid
/// dimension k (a_i / extent_i(k) · type_size bytes, a_i = Π_{k < rank} extent_i(k)) from its
/// clock; a successor whose clock is before the end waits for it (the part after the begin
/// overlapped).
void across31_edges(const Across31Loop& loop, Across31Hooks& hooks);

/// dopl_ with DoPL = 0 (CommCost::Across, old-DVM pipeline): portions, wavefront order and
/// bookings as 3.1 computes them. `ts`, `tb`: the probed price of a message (Q's formula).
/// Loops over one axis or more than four are not pipelined (3.1: 1-D loops exchange faces with
/// one message per neighbour, done here; more than 4 axes are not modelled).
void across31_pipeline(const Across31Loop& loop, Across31Hooks& hooks, double ts, double tb);

}  // namespace augur::models::dvm
