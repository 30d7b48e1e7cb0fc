// Decoding parallel loops: crtpl_, mappl_ (the loop on its pattern, memoised per geometry), dopl_
// (each processor's iterations; in an ACROSS loop the edge exchange and the pipeline), endpl_.
#include <algorithm>
#include <fmt/format.h>

#include "models/dvm/decode.hpp"

namespace augur::models::dvm {

namespace {

using traces::libdvm::DvmCall;
using traces::libdvm::DvmFunction;
using traces::libdvm::DvmPatternType;
using traces::libdvm::DvmSide;
using State = DvmProgram::State;

void crtpl(Decoder& d) {
  d.st.loop = State::LoopInfo{};
  if (auto ref = d.c.find_handle("LoopRef", DvmSide::ret)) {
    if (std::find(d.st.live_loops.begin(), d.st.live_loops.end(), *ref) == d.st.live_loops.end()) {
      d.st.live_loops.push_back(*ref);
    }
  } else {
    d.st.loops_untracked = true;
  }
}

/// The memo key of a mappl_: pattern type and handle, the loop's bounds and steps, the
/// alignment. False (no memo) when a parameter is missing or unreadable: the call is then
/// decoded as without memo, which reports the defect.
bool mappl_key(const DvmCall& c, std::vector<std::int64_t>& key) {
  key.clear();
  try {
    const auto type = c.pattern_type("PatternRef");
    key.push_back(static_cast<std::int64_t>(type));
    const auto ref = c.find_handle(type == DvmPatternType::dis_array ? "PatternRefPtr" : "PatternRef");
    key.push_back(ref ? static_cast<std::int64_t>(*ref) : -1);
    for (const char* name :
         {"InInitIndexArray", "InLastIndexArray", "InStepArray", "AxisArray", "CoeffArray", "ConstArray"}) {
      const auto v = c.find_array(name);
      if (!v) return false;
      add_key(key, *v);
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

/// The loop of an identical mappl_ since the last geometry change, made current; false if none.
bool reuse_mapped_loop(State& st) {
  State::Memo& memo = st.memo;
  auto hit =
      std::find_if(memo.loops.begin(), memo.loops.end(), [&](const State::MappedLoop& m) { return m.key == memo.key; });
  if (hit == memo.loops.end()) return false;
  st.loop.loop = hit->loop;
  st.loop.derived = hit->derived;
  if (hit->sets_pattern) {
    st.loop.pattern = hit->pattern;
    st.loop.pattern_ref = hit->pattern_ref;
  }
  return true;
}

/// Maps `loop` on the call's pattern of `type` (a distributed template or an aligned array), after the
/// runtime's checks of its range (RTS errors 060.024–027); true when it is mapped.
bool map_on_pattern(Decoder& d, ParallelLoop& loop, DvmPatternType type) {
  auto check_bounds = [&](std::span<const Index> sizes) {
    if (const std::string why = loop_bounds_problem(loop, sizes, align_params(d.c)); !why.empty()) throw d.error(why);
  };
  if (type == DvmPatternType::am_view) {
    auto t = d.st.templates.find(d.c.handle("PatternRef"));
    if (t == d.st.templates.end() || !t->second.distributed()) return false;
    check_bounds(t->second.sizes());
    loop.map(t->second, align_params(d.c));
    d.st.loop.pattern_ref = d.c.handle("PatternRef");
  } else if (type == DvmPatternType::dis_array) {
    auto p = d.st.arrays.find(d.c.handle("PatternRefPtr"));
    if (p == d.st.arrays.end() || !p->second.aligned()) return false;
    check_bounds(p->second.sizes());
    loop.map(p->second, align_params(d.c));
    d.st.loop.pattern_ref = d.c.handle("PatternRefPtr");
  } else {
    return false;
  }
  d.st.loop.pattern = type;
  return true;
}

void mappl(Decoder& d) {
  d.check_loop();
  // The same parameters between two geometry changes map the same loop: reuse it (and what its
  // dopl_ calls derived from it) instead of building it again.
  State::Memo& memo = d.st.memo;
  const bool keyed = d.memoise() && mappl_key(d.c, memo.key);
  if (keyed && reuse_mapped_loop(d.st)) return;
  const auto type = d.c.pattern_type("PatternRef");
  ParallelLoop loop(to_index(d.c.array("InInitIndexArray")), to_index(d.c.array("InLastIndexArray")),
                    to_index(d.c.array("InStepArray")));
  if (const std::string why = empty_loop_reason(loop); !why.empty()) {
    // Legal (the DVM runtime maps an empty loop and runs no iteration), but its dopl_ times
    // cannot be divided among iterations: they are counted as ordinary calls.
    d.warn_once("empty-loop", fmt::format("empty loop ({}): its dopl_ times are counted as ordinary calls", why));
  }
  const bool sets_pattern = map_on_pattern(d, loop, type);
  State::LoopInfo& info = d.st.loop;
  info.loop = std::make_shared<const ParallelLoop>(std::move(loop));
  info.derived = std::make_shared<State::LoopDerived>();
  if (!keyed) return;
  State::MappedLoop entry{memo.key, info.loop, info.derived, sets_pattern, info.pattern, info.pattern_ref};
  if (memo.loops.size() < State::memo_capacity) {
    memo.loops.push_back(std::move(entry));
  } else {
    memo.loops[memo.next_loop] = std::move(entry);
    memo.next_loop = (memo.next_loop + 1) % State::memo_capacity;
  }
}

/// The loop as 3.1's ACROSS sees it: each position's ranges, the loop's direction per axis and
/// per grid dimension the width waited for (upward: the new group's low shadow; downward: the old
/// group's high shadow, 1 without an old group).
Across31Loop loop31(const Decoder& d, const State::LoopDerived& derived, const AcrossGeometry& geo) {
  Across31Loop out;
  out.grid = geo.grid;
  out.type_size = geo.type_size;
  out.call_time = d.a.call;
  out.loop_size = d.a.loop_size;
  const ParallelLoop& loop = *d.st.loop.loop;
  for (int x = 0; x < loop.rank(); ++x) out.invers.push_back(loop.step(x) < 0 ? 1 : 0);
  for (std::size_t k = 0; k < geo.dims.size(); ++k) {
    const bool down = k < out.invers.size() && out.invers[k] != 0;
    const auto& upper = d.st.loop.across_old_upper;
    Index w = geo.dims[k].width;
    if (down) w = upper ? (k < upper->size() ? (*upper)[k] : 0) : 1;
    out.width.push_back(w);
  }
  for (const Block& b : derived.blocks) out.blocks.push_back(b.empty() ? std::vector<Range>{} : b.dims());
  return out;
}

/// dopl_ in an ACROSS loop (spec 6.4): DoPL = 1 adds the edge exchange; DoPL = 0 (the loop's
/// body) runs as a pipeline, a group operation of the system.
void across_dopl(Decoder& d, State::LoopDerived& derived) {
  const auto more = d.c.find_integer("DoPL", DvmSide::ret);
  if (!more) {
    throw traces::TraceError(d.c.trace_path(), d.c.trace_line(),
                             "dopl_ of an ACROSS loop without DoPL on its ret line");
  }
  if (!derived.have_blocks) {
    derived.blocks = d.st.loop.loop->blocks(d.fid());
    derived.have_blocks = true;
  }
  auto across = std::make_shared<AcrossLoop>();
  across->geometry = *d.st.loop.across;
  const ProcessorSystem& sys = d.current_system().system;
  for (int k = 0; k < sys.processor_count(); ++k) {
    AcrossProcessor p;
    p.coords = sys.coordinates(k);
    const auto at = static_cast<std::size_t>(k);
    if (at < derived.blocks.size() && !derived.blocks[at].empty()) {
      for (int x = 0; x < derived.blocks[at].rank(); ++x) p.extents.push_back(derived.blocks[at].extent(x));
    }
    across->geometry.procs.push_back(std::move(p));
    across->identical.push_back(at < d.a.blocks->size() ? (*d.a.blocks)[at].second : 1);
  }
  across->loop_size = d.a.loop_size;
  across->call = d.a.call;
  across->ret = d.a.ret;
  across->blocks = d.a.blocks;
  if (d.seed_cost() && *more == 0) d.st.met(Difference::across_pipeline_253);
  if (!d.seed_cost() || d.options.quirks) {
    // `augur predict` with an old-format .par: 2.53's pricing of 3.1's pipeline.
    across->predictor31 = true;
    across->loop31 = loop31(d, derived, across->geometry);
    across->loop31.v253 = d.seed_cost();
    // 2.53's dopl_ hands its pipeline the loop's AcrossFlag as the element size: the faces of
    // sor's runs cost Ts alone (its Shadow communication is one Ts per processor and loop on 2x2).
    if (across->loop31.v253) across->loop31.type_size = 0;
  }
  if (*more != 0 && (!across->predictor31 || across->loop31.v253)) {
    d.a.across_wait = across_edge_costs(across->geometry, d.st.across_price).back();
    return;
  }
  DvmProgram::Op& op = d.new_op(*more != 0 ? OpType::across_edges : OpType::across_pipeline, analysis::OpKind::shadow);
  op.sync = false;
  op.across = std::move(across);
  d.a.regular_after = false;
}

void dopl(Decoder& d) {
  d.check_loop();
  d.a.io_mode = d.interval_flag() != 0;
  d.a.kind = ActionKind::silent;
  if (!d.st.loop.loop || !d.st.loop.loop->mapped()) return;
  d.a.loop_size = d.st.loop.loop->iteration_count(d.fid());
  if (d.a.loop_size == 0) {
    // An empty loop (mappl_ warned): no iteration to divide the time among; the call's times
    // are an ordinary call's, not lost.
    d.a.kind = ActionKind::regular;
    return;
  }
  if (d.a.call == 0) return;  // the original returns without any time
  // Every dopl_ of a loop on one processor system has the same portions (the loop is fixed at
  // mappl_): computed once per loop and system.
  State::LoopDerived& derived = *d.st.loop.derived;
  if (!d.memoise() || !derived.portions || derived.portions_ps != d.st.current_ps) {
    const auto& blocks = loop_blocks(d);
    const auto counts = identical_block_counts(blocks);
    const State::Ps& ps = d.current_system();
    auto data = std::make_shared<std::vector<std::pair<Index, int>>>(ps.members.size());
    for (std::size_t k = 0; k < ps.members.size() && k < blocks.size(); ++k) {
      (*data)[k] = {blocks[k].empty() ? 0 : blocks[k].volume(), counts[k]};
    }
    derived.portions = std::move(data);
    derived.portions_ps = d.st.current_ps;
  }
  d.a.blocks = derived.portions;
  d.a.kind = ActionKind::dopl;
  if (d.st.loop.across && d.st.loop.across->grid == d.current_system().system.sizes()) across_dopl(d, derived);
}

void endpl(Decoder& d) {
  d.check_loop();
  if (!d.st.loops_untracked) std::erase(d.st.live_loops, d.c.handle("LoopRef"));
  if (d.st.loop.imlast) {
    auto sh = d.st.shadows.find(d.st.loop.imlast_group);
    if (sh != d.st.shadows.end() && sh->second.last_start >= 0) {
      d.a.kind = ActionKind::endpl_imlast;
      d.a.op = sh->second.last_start;
    }
  }
  // The original keeps the loop's pattern until the next crtpl_ (a waitrd_ after endpl_ still
  // reduces over it); only the imlast_ request ends here.
  d.st.loop.imlast = false;
  d.st.loop.across.reset();  // the ACROSS pipeline ends with its loop
}

}  // namespace

void add_loop_decoders(DecodeTable& t) {
  using F = DvmFunction;
  set_handler(t, {F::crtpl}, crtpl);
  set_handler(t, {F::mappl}, mappl);
  set_handler(t, {F::dopl}, dopl);
  set_handler(t, {F::endpl}, endpl);
}

}  // namespace augur::models::dvm
