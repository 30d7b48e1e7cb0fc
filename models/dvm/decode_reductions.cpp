// Decoding reductions: variables (crtred_, delred_), groups (crtrg_, insred_, delrg_) and their
// operations, strtrd_ and waitrd_ (what the wait prices: the holders of the loop's pattern in
// Predictor 3.1's style, the group's grid and split dimensions in the seed's).
#include <algorithm>

#include "models/dvm/decode.hpp"

namespace augur::models::dvm {

namespace {

using traces::libdvm::DvmFunction;
using traces::libdvm::DvmPatternType;
using State = DvmProgram::State;

/// Element size of a reduction variable type (1 int, 2 long, 3 float, 4 double: sizes on the
/// LP64 machines the original ran on).
std::uint64_t reduction_element_size(std::int64_t type) {
  switch (type) {
    case 1:
      return 4;
    case 2:
      return 8;
    case 3:
      return 4;
    case 4:
      return 8;
    default:
      return 0;
  }
}

void crtrg(Decoder& d) {
  d.st.red_group_size[d.c.ret_handle("RedGroupRef")] = 0;
  d.st.red_group_ps[d.c.ret_handle("RedGroupRef")] = d.st.current_ps;
}

void crtred(Decoder& d) {
  const auto elem = reduction_element_size(d.c.integer("RedArrayType"));
  const auto len = static_cast<std::uint64_t>(std::max<std::int64_t>(0, d.c.integer("RedArrayLength")));
  const auto loc = static_cast<std::uint64_t>(std::max<std::int64_t>(0, d.c.find_integer("LocElmLength").value_or(0)));
  // RedVar::GetSize: (element size + LocElmLength) · RedArrayLength.
  d.st.red_var_size[d.c.ret_handle("RedRef")] = (elem + loc) * len;
}

void insred(Decoder& d) {
  const auto g = d.reduction_group();
  const auto var = d.st.red_var_size.find(d.c.handle("RedRef"));
  if (var == d.st.red_var_size.end())
    throw d.not_created("RedRef", d.c.handle("RedRef"), "a reduction variable", "crtred_");
  d.st.red_group_size[g] += var->second;
}

void delred(Decoder& d) { d.st.red_var_size.erase(d.c.handle("RedRef")); }

void delrg(Decoder& d) {
  const auto g = d.reduction_group();
  d.st.red_group_size.erase(g);
  d.st.red_group_ps.erase(g);
}

void strtrd(Decoder& d) {
  const auto g = d.reduction_group();
  DvmProgram::Op& op = d.new_op(OpType::reduce_start, analysis::OpKind::reduction);
  d.st.red_group_start[g] = static_cast<std::int64_t>(op.id - 1);
}

/// StartR of the seed (spec 6.2): priced by the machine over the group's processor system (the
/// current one at crtrg_) with the grid dimensions the most recently mapped loop is split
/// along: those of the distributed template axes a loop axis maps onto.
void seed_reduction(const State& st, std::uint64_t group_ref, DvmProgram::Op& op) {
  const auto gps = st.red_group_ps.find(group_ref);
  const State::Ps& group = st.systems[gps == st.red_group_ps.end() ? op.ps : gps->second];
  op.grid.shape = group.system.sizes();
  op.grid.processors = group.members;
  op.split.assign(op.grid.shape.size(), false);
  if (!st.loop.loop || !st.loop.loop->mapped()) return;
  const Template& t = st.loop.loop->distribution();
  const auto& rules = st.loop.loop->rules();
  for (int axis = 0; axis < t.rank() && axis < static_cast<int>(rules.size()); ++axis) {
    const int dim = t.dim_of_axis(axis);
    if (rules[static_cast<std::size_t>(axis)].kind == AxisRuleKind::linear && dim >= 0 &&
        dim < static_cast<int>(op.split.size())) {
      op.split[static_cast<std::size_t>(dim)] = true;
    }
  }
}

/// Predictor 3.1's reduction: the positions holding part of the loop's pattern array. They
/// depend on the pattern's blocks and the system only: the same for every waitrd_ of a pattern
/// between two geometry changes.
void pattern_holders(Decoder& d, DvmProgram::Op& op) {
  State& st = d.st;
  State::Memo& memo = st.memo;
  if (d.memoise() && memo.have_holders && memo.holders_pattern == st.loop.pattern &&
      memo.holders_ref == st.loop.pattern_ref && memo.holders_ps == op.ps) {
    op.holders = memo.holders;
    return;
  }
  const State::Ps& ps = st.systems[op.ps];
  auto holders = std::make_shared<std::vector<bool>>(ps.members.size(), false);
  if (st.loop.pattern == DvmPatternType::dis_array) {
    auto p = st.arrays.find(st.loop.pattern_ref);
    if (p != st.arrays.end() && p->second.aligned()) {
      for (std::size_t k = 0; k < ps.members.size(); ++k) {
        (*holders)[k] = !p->second.block(static_cast<int>(k), d.fid()).empty();
      }
    }
  }
  op.holders = holders;
  if (d.memoise()) {
    memo.have_holders = true;
    memo.holders_pattern = st.loop.pattern;
    memo.holders_ref = st.loop.pattern_ref;
    memo.holders_ps = op.ps;
    memo.holders = std::move(holders);
  }
}

void waitrd(Decoder& d) {
  const auto g = d.reduction_group();
  const auto start = d.st.red_group_start.count(g) ? d.st.red_group_start[g] : -1;
  DvmProgram::Op& op = d.new_op(OpType::reduce_wait, analysis::OpKind::reduction);
  op.start_op = start;
  op.total_size = d.st.red_group_size[g];
  if (d.seed_cost())
    seed_reduction(d.st, g, op);
  else
    pattern_holders(d, op);
}

}  // namespace

void add_reduction_decoders(DecodeTable& t) {
  using F = DvmFunction;
  set_handler(t, {F::crtrg}, crtrg);
  set_handler(t, {F::crtred}, crtred);
  set_handler(t, {F::insred}, insred);
  set_handler(t, {F::delred}, delred);
  set_handler(t, {F::delrg}, delrg);
  set_handler(t, {F::strtrd}, strtrd);
  set_handler(t, {F::waitrd}, waitrd);
}

}  // namespace augur::models::dvm
