// Decoding processor systems, templates and distributed arrays: crtps_, psview_, getps_, crtamv_,
// delamv_, blkdiv_, distr_, setelw_, redis_, crtda_, align_, delda_, realn_.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/dvm/decode.hpp"

namespace augur::models::dvm {

namespace {

using traces::libdvm::DvmFunction;
using traces::libdvm::DvmPatternType;
using traces::libdvm::DvmSide;

// ---------------------------------------------------------------- processor systems

void crtps(Decoder& d) {
  const auto init = d.c.array("InitIndexArray");
  const auto last = d.c.array("LastIndexArray");
  std::vector<int> i0(init.begin(), init.end()), i1(last.begin(), last.end());
  const auto ref = d.c.ret_handle("PSRef");
  d.st.ps_by_ref[ref] = add_system(d.st, ProcessorSystem::subsystem(d.current_system().system, i0, i1));
}

void psview(Decoder& d) {
  const auto sizes = d.c.array("SizeArray");
  std::vector<int> sz(sizes.begin(), sizes.end());
  const auto idx = add_system(d.st, ProcessorSystem::view(d.current_system().system, sz));
  if (auto ref = d.c.find_handle("PSRef", DvmSide::ret)) d.st.ps_by_ref[*ref] = idx;
  if (sz != d.current_system().system.sizes()) d.st.met(Difference::psview_overwrite);
  if (d.options.quirks) {
    // Predictor 3.1 (`augur predict`, difference Q1): `*currentVM = *vm` overwrites the current
    // system object itself with the view, before the call's own time is booked; every name of
    // that system (the root's PSRef, the task stack, the Processors cell) sees the view from now
    // on. The view's PSRef names a copy, as in 3.1.
    d.st.systems[d.st.current_ps] = d.st.systems[idx];
    d.a.ps = d.st.current_ps;
    return;
  }
  // augur: the view is a system of its own and becomes current; the system it views is unchanged.
  d.st.current_ps = idx;
}

void getps(Decoder& d) {
  if (auto ref = d.c.find_handle("PSRef", DvmSide::ret)) {
    d.st.ps_by_ref.emplace(*ref, d.st.current_ps);
    if (d.st.current_am != 0) d.st.am_ps[d.st.current_am] = d.st.ps_by_ref[*ref];
  }
}

// ---------------------------------------------------------------- templates

void crtamv(Decoder& d) {
  d.st.templates.insert_or_assign(d.c.ret_handle("AMViewRef"), Template(to_index(d.c.array("SizeArray"))));
}

void delamv(Decoder& d) { d.st.templates.erase(d.c.handle("AMViewRef")); }

void blkdiv(Decoder& d) {
  auto it = d.st.templates.find(d.c.handle("AMViewRef"));
  if (it != d.st.templates.end()) it->second.set_multiples(to_index(d.c.array("AMVAxisDiv")));
}

std::vector<int> axis_array(const traces::libdvm::DvmCall& c) {
  std::vector<int> axes;
  for (auto v : c.array("AxisArray")) axes.push_back(static_cast<int>(v));
  return axes;
}

void distr(Decoder& d) {
  auto it = d.st.templates.find(d.c.handle("AMViewRef"));
  if (it != d.st.templates.end()) {
    const std::vector<int> axes = axis_array(d.c);
    it->second.distribute(d.st.systems[d.ps_ref(d.c.handle("PSRef"))].system, axes);
  }
}

/// The DVM runtime's checks of setelw_ (RTS errors 032.091, 032.092): no negative count or load,
/// no count beyond the loads given.
void check_load_weights(const Decoder& d, std::span<const Index> wn, std::span<const double> loads) {
  for (std::size_t j = 0; j < loads.size(); ++j) {
    if (!std::isfinite(loads[j])) throw d.error(fmt::format("LoadWeight[{}]={} is not a finite number", j, loads[j]));
    if (loads[j] < 0) {
      throw d.error(
          fmt::format("LoadWeight[{}]={} is negative (the DVM runtime rejects negative load weights)", j, loads[j]));
    }
  }
  for (std::size_t k = 0; k < wn.size(); ++k) {
    if (wn[k] < 0) throw d.error(fmt::format("WeightNumber[{}]={} is negative", k, wn[k]));
    if (static_cast<std::uint64_t>(wn[k]) > loads.size()) {
      throw d.error(fmt::format("WeightNumber[{}]={} but the call has {} LoadWeight value{} (a cut trace?)", k, wn[k],
                                loads.size(), loads.size() == 1 ? "" : "s"));
    }
  }
}

void setelw(Decoder& d) {
  if (!d.c.find_array("WeightNumber")) {
    throw traces::TraceError(
        d.c.trace_path(), d.c.trace_line(),
        "setelw_ without WeightNumber: record the trace with LoadWeightTrace=1; WeightArrayTrace=1;");
  }
  const auto wn = to_index(d.c.array("WeightNumber"));
  const auto loads = d.c.has("LoadWeight") ? d.c.real_array("LoadWeight") : std::span<const double>{};
  check_load_weights(d, wn, loads);
  auto it = d.st.templates.find(d.c.handle("AMViewRef"));
  if (it == d.st.templates.end()) return;
  const ProcessorSystem& s = d.st.systems[d.ps_ref(d.c.handle("PSRef"))].system;
  auto raw = load_weights(s, wn, loads, d.fid());
  for (int k = 0; k < s.rank(); ++k) {
    const auto at = static_cast<std::size_t>(k);
    const Index number = at < wn.size() ? wn[at] : 0;
    if (number <= 0) continue;
    if (number < s.size(k)) {
      // Legal: the runtime solves its partition only with a weight per processor at least.
      d.warn_once("setelw-few", fmt::format("WeightNumber[{0}]={1} load weights for the {2} processors of grid "
                                            "dimension {0}: the DVM runtime does not use them, the dimension is "
                                            "divided equally",
                                            k, number, s.size(k)));
    } else if (std::all_of(raw[at].begin(), raw[at].end(), [](double w) { return w == 0; })) {
      // The runtime's partition of all-zero loads gives every coordinate the same weight.
      d.warn_once("setelw-zero", fmt::format("the load weights of grid dimension {0} are all 0: the dimension "
                                             "is divided equally, as the DVM runtime does",
                                             k));
      raw[at].assign(raw[at].size(), 1.0);
    }
  }
  it->second.set_weights(coordinate_weights(s, raw, {}));
}

void redis(Decoder& d) {
  // Predictor 3.1 returns before modelling redis_ (no time at all; see docs/dvm-model.md).
  // The seed's intended model (spec 6.2): the template gets its new distribution and every
  // array aligned on it, directly or through other arrays, moves as realn_ would move it.
  d.a.kind = ActionKind::silent;
  if (!d.seed_cost()) return;
  DvmProgram::State& st = d.st;
  std::uint64_t ref = d.c.handle("AMViewRef");
  if (!st.templates.count(ref)) {
    // An array header names the template its array is aligned on (Lib-DVM's redis_).
    auto via = st.array_template.find(ref);
    if (via != st.array_template.end()) ref = via->second;
  }
  auto t = st.templates.find(ref);
  if (t == st.templates.end() || !t->second.distributed()) return;
  const std::vector<int> axes = axis_array(d.c);
  const auto ps_handle = d.c.find_handle("PSRef").value_or(0);
  const ProcessorSystem target = ps_handle == 0 ? t->second.system() : st.systems[d.ps_ref(ps_handle)].system;
  Template next = t->second;
  next.distribute(target, axes);
  const bool new_sign = d.c.find_integer("NewSign").value_or(0) != 0;
  TransferMatrix moved(d.root_count);
  for (auto& [aref, arr] : st.arrays) {
    auto bound = st.array_template.find(aref);
    if (bound == st.array_template.end() || bound->second != ref || !arr.aligned()) continue;
    DistributedArray after = arr.with_template(next);
    if (!new_sign) moved += in_root(update_matrix(arr, after, d.fid()), arr.system(), after.system());
    arr = std::move(after);
  }
  t->second = std::move(next);
  DvmProgram::Op& op = d.new_op(OpType::realign, analysis::OpKind::redistribution);
  op.matrix = std::move(moved);
  d.a.regular_after = false;
}

// ---------------------------------------------------------------- arrays

void crtda(Decoder& d) {
  std::vector<Index> low, high;
  if (auto v = d.c.find_array("LowShdWidthArray")) low = to_index(*v);
  if (auto v = d.c.find_array("HiShdWidthArray")) high = to_index(*v);
  d.st.arrays.insert_or_assign(d.c.handle("ArrayHeader"),
                               DistributedArray(to_index(d.c.array("SizeArray")), d.c.integer("TypeSize"), low, high));
  d.a.kind = ActionKind::silent;
}

/// Aligns `target` (the array `array` or its next state) on the call's pattern, a distributed
/// template or an aligned array; a pattern that is neither leaves it as it is.
void align_on_pattern(Decoder& d, std::uint64_t array, DistributedArray& target, DvmPatternType type) {
  if (type == DvmPatternType::am_view) {
    auto t = d.st.templates.find(d.c.handle("PatternRef"));
    if (t != d.st.templates.end() && t->second.distributed()) {
      target.align(t->second, align_params(d.c));
      d.st.array_template[array] = t->first;
    }
  } else {
    auto p = d.st.arrays.find(d.c.handle("PatternRefPtr"));
    if (p != d.st.arrays.end() && p->second.aligned()) {
      target.align(p->second, align_params(d.c));
      d.bind_template(array, p->first);
    }
  }
}

void align(Decoder& d) {
  d.a.kind = ActionKind::silent;
  auto it = d.st.arrays.find(d.c.handle("ArrayHeader"));
  if (it == d.st.arrays.end()) return;
  const auto type = d.c.pattern_type("PatternRef");
  if (type == DvmPatternType::am_view || type == DvmPatternType::dis_array) {
    align_on_pattern(d, it->first, it->second, type);
  }
}

void delda(Decoder& d) {
  d.a.kind = ActionKind::silent;
  d.st.arrays.erase(d.c.handle("ArrayHeader"));
  d.st.array_template.erase(d.c.handle("ArrayHeader"));
}

void realn(Decoder& d) {
  auto it = d.st.arrays.find(d.c.handle("ArrayHeader"));
  const auto type = d.c.pattern_type("PatternRef");
  if (it == d.st.arrays.end() || type == DvmPatternType::none) {
    d.a.kind = ActionKind::silent;
    return;
  }
  DistributedArray next = it->second;
  align_on_pattern(d, it->first, next, type);
  DvmProgram::Op& op = d.new_op(OpType::realign, analysis::OpKind::redistribution);
  d.a.regular_after = false;
  const bool new_sign = d.c.find_integer("NewSign").value_or(0) != 0;
  if (it->second.aligned() && next.aligned() && !new_sign) {
    op.matrix = in_root(update_matrix(it->second, next, d.fid()), it->second.system(), next.system());
  }
  it->second = std::move(next);
}

}  // namespace

void add_array_decoders(DecodeTable& t) {
  using F = DvmFunction;
  set_handler(t, {F::crtps}, crtps);
  set_handler(t, {F::psview}, psview);
  set_handler(t, {F::getps}, getps);
  set_handler(t, {F::crtamv}, crtamv);
  set_handler(t, {F::delamv}, delamv);
  set_handler(t, {F::blkdiv}, blkdiv);
  set_handler(t, {F::distr}, distr);
  set_handler(t, {F::setelw}, setelw);
  set_handler(t, {F::redis}, redis);
  set_handler(t, {F::crtda}, crtda);
  set_handler(t, {F::align}, align);
  set_handler(t, {F::delda}, delda);
  set_handler(t, {F::realn}, realn);
}

}  // namespace augur::models::dvm
