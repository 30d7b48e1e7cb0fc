// Decoding shadow groups: crtshg_, the inclusion of an array's edges (inssh_, insshd_, incsh_,
// incshd_: the group's transfer matrix, memoised per geometry), delshg_, the exchange (strtsh_,
// exfrst_, waitsh_, imlast_) and ACROSS loops (across_, sendsh_).
#include <algorithm>
#include <fmt/format.h>

#include "models/dvm/decode.hpp"

namespace augur::models::dvm {

namespace {

using traces::libdvm::DvmFunction;
using State = DvmProgram::State;

void crtshg(Decoder& d) { d.st.shadows[d.c.ret_handle("ShadowGroupRef")] = State::Shadow{}; }

/// The widths of the call: given (inssh_, insshd_) or as index ranges (incsh_, incshd_), −1
/// meaning the array's declared width; corners with FullShdSign = 1 (inssh_, incsh_).
ShadowWidths shadow_widths(const Decoder& d, const DistributedArray& da) {
  ShadowWidths w;
  const DvmFunction f = d.c.function();
  if (f == DvmFunction::incsh || f == DvmFunction::incshd) {
    const auto il = d.c.array("InitLowShdIndex"), ll = d.c.array("LastLowShdIndex");
    const auto ih = d.c.array("InitHiShdIndex"), lh = d.c.array("LastHiShdIndex");
    for (std::size_t k = 0; k < il.size(); ++k) {
      w.low.push_back(il[k] == -1 ? (ll[k] == -1 ? da.low_shadow(static_cast<int>(k)) : ll[k]) : ll[k] - il[k] + 1);
      w.high.push_back(ih[k] == -1 ? (lh[k] == -1 ? da.high_shadow(static_cast<int>(k)) : lh[k]) : lh[k] - ih[k] + 1);
    }
  } else {
    w.low = to_index(d.c.array("LowShdWidthArray"));
    w.high = to_index(d.c.array("HiShdWidthArray"));
  }
  const bool corner_call = f == DvmFunction::inssh || f == DvmFunction::incsh;
  w.corners = corner_call && d.c.find_integer("FullShdSign").value_or(0) == 1;
  return w;
}

/// ACROSS (spec 6.4): the group's widths facing each neighbour along the grid dimensions.
void add_facing_widths(State::Shadow& sh, const DistributedArray& da, const ShadowWidths& w) {
  for (int ax = 0; ax < da.rank(); ++ax) {
    const auto at = static_cast<std::size_t>(ax);
    const auto mapped = da.mapped_axis(ax);
    if (!mapped || mapped->grid_dim < 0) continue;
    const Index low = at < w.low.size() ? (w.low[at] == -1 ? da.low_shadow(ax) : w.low[at]) : 0;
    const Index high = at < w.high.size() ? (w.high[at] == -1 ? da.high_shadow(ax) : w.high[at]) : 0;
    const auto dim = static_cast<std::size_t>(mapped->grid_dim);
    if (sh.toward_lower.size() <= dim) sh.toward_lower.resize(dim + 1, 0);
    if (sh.toward_upper.size() <= dim) sh.toward_upper.resize(dim + 1, 0);
    sh.toward_lower[dim] = std::max(sh.toward_lower[dim], mapped->direction > 0 ? low : high);
    sh.toward_upper[dim] = std::max(sh.toward_upper[dim], mapped->direction > 0 ? high : low);
  }
  sh.type_size = std::max(sh.type_size, da.type_size());
}

/// The array's shadow matrix (root numbering). It depends on the array's blocks and the widths
/// only: the same for every such call between two geometry changes.
std::shared_ptr<const TransferMatrix> shadow_transfers(Decoder& d, std::uint64_t array, const DistributedArray& da,
                                                       const ShadowWidths& w) {
  State::Memo& memo = d.st.memo;
  if (d.memoise()) {
    memo.key.clear();
    memo.key.push_back(static_cast<std::int64_t>(array));
    add_key(memo.key, w.low);
    add_key(memo.key, w.high);
    memo.key.push_back(w.corners ? 1 : 0);
    auto hit = std::find_if(memo.shadows.begin(), memo.shadows.end(),
                            [&](const State::ShadowMemo& e) { return e.key == memo.key; });
    if (hit != memo.shadows.end()) return hit->matrix;
  }
  auto m = std::make_shared<const TransferMatrix>(shadow_matrix(da, w, d.fid()).to_root(da.system()));
  if (d.memoise()) {
    State::ShadowMemo entry{memo.key, m};
    if (memo.shadows.size() < State::memo_capacity) {
      memo.shadows.push_back(std::move(entry));
    } else {
      memo.shadows[memo.next_shadow] = std::move(entry);
      memo.next_shadow = (memo.next_shadow + 1) % State::memo_capacity;
    }
  }
  return m;
}

void include_array(Decoder& d) {
  auto g = d.shadow_group();
  auto arr = d.st.arrays.find(d.c.handle("ArrayHeader"));
  if (arr == d.st.arrays.end() || !arr->second.aligned()) return;
  const DistributedArray& da = arr->second;
  const ShadowWidths w = shadow_widths(d, da);
  add_facing_widths(g->second, da, w);
  std::shared_ptr<const TransferMatrix> m = shadow_transfers(d, arr->first, da, w);
  // The group's matrix: T of its first array shared as is, a sum from the second on.
  auto& group = g->second.matrix;
  if (!group && m->size() == d.root_count) {
    group = std::move(m);
  } else {
    auto sum = std::make_shared<TransferMatrix>(group ? *group : TransferMatrix(d.root_count));
    *sum += *m;
    group = std::move(sum);
  }
}

void delshg(Decoder& d) { d.st.shadows.erase(d.shadow_group()); }

void start_exchange(Decoder& d) {
  auto g = d.shadow_group();
  DvmProgram::Op& op = d.new_op(OpType::shadow_start, analysis::OpKind::shadow);
  op.divide_by_p = d.c.function() == DvmFunction::strtsh && d.options.cost == CostStyle::predictor31;
  op.shared_matrix = g->second.matrix;
  g->second.last_start = static_cast<std::int64_t>(op.id - 1);
}

void waitsh(Decoder& d) {
  auto g = d.shadow_group();
  if (g->second.last_start < 0) return;
  d.a.kind = ActionKind::shadow_wait;
  d.a.op = g->second.last_start;
  g->second.last_start = -1;
}

void imlast(Decoder& d) {
  d.st.loop.imlast = true;
  d.st.loop.imlast_group = d.shadow_group()->first;
}

/// The pipeline of the current loop with the widths of shadow group `fresh`: per grid dimension
/// the loop is split along, the loop axis, the sweep's direction and the width it waits for.
AcrossGeometry across_geometry(const ParallelLoop& loop, const State::Shadow& fresh) {
  AcrossGeometry geo;
  geo.grid = loop.system().sizes();
  geo.dims.resize(geo.grid.size());
  geo.type_size = fresh.type_size > 0 ? fresh.type_size : 8;
  const Template& t = loop.distribution();
  const auto& rules = loop.rules();
  for (int ax = 0; ax < t.rank() && ax < static_cast<int>(rules.size()); ++ax) {
    const AxisRule& r = rules[static_cast<std::size_t>(ax)];
    const int dim = t.dim_of_axis(ax);
    if (r.kind != AxisRuleKind::linear || dim < 0 || dim >= static_cast<int>(geo.dims.size()) || r.coeff == 0) continue;
    AcrossDim& ad = geo.dims[static_cast<std::size_t>(dim)];
    ad.axis = r.source_axis;
    // The sweep goes to higher coordinates when the loop variable and the template index grow
    // together; the successor then needs the shadow facing its lower neighbour.
    ad.direction = (r.coeff > 0) == (loop.step(r.source_axis) > 0) ? 1 : -1;
    const auto& facing = ad.direction > 0 ? fresh.toward_lower : fresh.toward_upper;
    const auto at = static_cast<std::size_t>(dim);
    ad.width = at < facing.size() ? facing[at] : 0;
  }
  return geo;
}

void across(Decoder& d) {
  // ACROSS (spec 6.4): a synchronisation of the system (one shadow operation) now; the loop's
  // dopl_ calls then run the edge exchange (DoPL = 1) and the pipeline (DoPL = 0) over the grid
  // dimensions the loop is split along, with the new group's widths.
  const auto new_ref = d.c.handle("NewShadowGroupRef");
  const auto old_ref = d.c.find_handle("OldShadowGroupRef").value_or(0);
  auto fresh = d.st.shadows.find(new_ref);
  if (fresh == d.st.shadows.end()) {
    throw traces::TraceError(
        d.c.trace_path(), d.c.trace_line(),
        fmt::format("across_: NewShadowGroupRef={:x} is not a shadow group (no crtshg_ returned it)", new_ref));
  }
  if (old_ref != 0 && !d.st.shadows.count(old_ref)) {
    throw traces::TraceError(
        d.c.trace_path(), d.c.trace_line(),
        fmt::format("across_: OldShadowGroupRef={:x} is not a shadow group (no crtshg_ returned it)", old_ref));
  }
  if (!d.st.loop.loop) {
    throw traces::TraceError(d.c.trace_path(), d.c.trace_line(),
                             "across_ outside a parallel loop: no crtpl_ and mappl_ before it");
  }
  // 2.53 (`augur predict` with an old-format .par, Q4) counts the operation without
  // synchronising: the clocks' spread reaches the pipeline of the DoPL = 0 dopl_.
  d.new_op(OpType::across, analysis::OpKind::shadow).sync = !(d.seed_cost() && d.options.quirks);
  d.st.loop.across.reset();
  if (!d.st.loop.loop->mapped()) return;
  d.st.loop.across = across_geometry(*d.st.loop.loop, fresh->second);
  d.st.loop.across_old_upper.reset();
  if (old_ref != 0) d.st.loop.across_old_upper = d.st.shadows.at(old_ref).toward_upper;
}

void sendsh(Decoder& d) { d.new_op(OpType::across, analysis::OpKind::shadow).sync = false; }

}  // namespace

void add_shadow_decoders(DecodeTable& t) {
  using F = DvmFunction;
  set_handler(t, {F::crtshg}, crtshg);
  set_handler(t, {F::inssh, F::insshd, F::incsh, F::incshd}, include_array);
  set_handler(t, {F::delshg}, delshg);
  set_handler(t, {F::strtsh, F::exfrst}, start_exchange);
  set_handler(t, {F::waitsh}, waitsh);
  set_handler(t, {F::imlast}, imlast);
  set_handler(t, {F::across}, across);
  set_handler(t, {F::sendsh}, sendsh);
}

}  // namespace augur::models::dvm
