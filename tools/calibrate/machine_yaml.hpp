// The machine file `augur calibrate` writes: a loggp_smp machine (network from OSU, size tables
// where one line fits badly) with a roofline `node:` when ERT or STREAM output is given.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tools/calibrate/calibrate.hpp"

namespace augur::calibrate {

// What the benchmark outputs gave (empty: not given). OSU rows as parsed: latency in µs,
// bandwidths in MB/s; `files` names each input kind's file for the comments.
struct Calibration {
  std::vector<Point> latency, bw, bibw;                    // inter-node (two nodes)
  std::vector<Point> latency_intra, bw_intra, bibw_intra;  // two ranks on one node
  std::map<std::string, double> stream;                    // STREAM function → MB/s
  Ert ert;                                                 // gflops 0: not given
  int cores = 1;                                           // cores of a node (node: cores)
  double performance = 0;                                  // flop/s of one core; 0: ERT's peak / cores
  double knee = 65536;    // bytes: where the size tables split (loggp_smp's eager threshold)
  double bad_fit = 0.10;  // a single line whose worst relative error exceeds this is split
  std::map<std::string, std::string> files;
};

// The YAML text. Rules (tools/calibrate/README.md): latency L = intercept of the least-squares
// line through osu_latency's (size, one-way seconds); when that line's worst relative error is
// over `bad_fit`, the rows are split at `knee` and fitted per piece, L is the first piece's
// intercept and the pieces give latency_factors (L_piece / L) and bandwidth_factors (B_piece /
// B) keyed by their first size, eager_threshold = knee. B = osu_bw's best rate, else osu_bibw's
// best / 2 (both directions at once), else 1 / the line's (last piece's) slope. The _intra inputs
// give intra_node_latency and intra_node_bandwidth the same way (no tables). ERT gives the node's
// levels (bandwidth_per_node) and performance (peak / cores); STREAM's Triad the DRAM level.
// Throws CalibrateError when a node is asked for without a flop rate (STREAM without ERT or
// performance=).
std::string machine_yaml(const Calibration& c);

}  // namespace augur::calibrate
