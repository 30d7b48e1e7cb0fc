// SimGrid's units of platform files: speeds (f, kf, Mf, Gf … and flops), bandwidths (Bps and bps
// with decimal k M G T P E or binary Ki Mi Gi Ti prefixes) and times (s, ms, us, ns, ps, m, h, d, w).
#pragma once
#include <stdexcept>
#include <string_view>

namespace augur::machines::platform {

enum class SgUnit { speed, bandwidth, time };

/// The value of `text` in flop/s, B/s or s. A number without unit is accepted only for 0.
/// Throws std::invalid_argument whose message names the accepted units.
double parse_sg_value(std::string_view text, SgUnit unit);

}  // namespace augur::machines::platform
