// One family of unit parsers for dimensioned values ("1.5us", "4KiB", "10GBps", "2Gflops").
// Case-significant; an error lists the accepted suffixes. Values come back in SI base units.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

namespace augur::machines {

/// What a parameter measures; decides which suffixes parse.
enum class UnitKind {
  time,          ///< seconds: s, ms, us, ns, ps (also min, h)
  bandwidth,     ///< bytes per second: Bps, kBps, KiBps, MBps, MiBps, GBps, GiBps, TBps; bits: bps, kbps, Mbps, Gbps
  bytes,         ///< bytes: B, kB, KiB, MB, MiB, GB, GiB, TB, TiB
  flop_rate,     ///< flop/s: f, kf, Mf, Gf, Tf, flops, kflops, Mflops, Gflops, Tflops
  count,         ///< non-negative integer, no unit
  real,          ///< plain real number, no unit
  boolean,       ///< true / false
  choice,        ///< one word out of a declared list
  int_list,      ///< list of non-negative integers, e.g. a grid shape [4, 4]
  real_list,     ///< list of reals, e.g. per-processor power ratios
  size_table,    ///< piecewise factors by message size, SimGrid's syntax "65472:0.94;1426:0.61;0:0.81"
  cluster_tree,  ///< a tree of clusters (dvm_cluster): "net = {4 x cpu} ethernet 75us 0.2us; cpu = 1"
  path,          ///< a file name, kept as written ("" = none)
};

/// Error of a unit parse: the message says what was expected. Callers add file:line:col.
class UnitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses `text` as a quantity of `kind` (time, bandwidth, bytes, flop_rate, count or real) and
/// returns it in SI base units (s, B/s, B, flop/s). Throws UnitError naming the accepted suffixes.
double parse_quantity(std::string_view text, UnitKind kind);

/// Formats a value of `kind` for humans with the most natural suffix ("1us", "10GBps").
std::string format_quantity(double value, UnitKind kind);

/// The suffixes accepted for `kind`, for error messages and help ("s, ms, us, ns, ps").
std::string accepted_suffixes(UnitKind kind);

/// A short name of the kind for help output ("time", "bandwidth").
std::string_view to_string(UnitKind kind);

}  // namespace augur::machines
