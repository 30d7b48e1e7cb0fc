// The decoding context's helpers and the handler table (decode.hpp).
#include "models/dvm/decode.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "engine/log.hpp"

namespace augur::models::dvm {

std::uint32_t add_system(DvmProgram::State& st, ProcessorSystem system) {
  DvmProgram::State::Ps ps{std::move(system), {}, {}};
  ps.members = ps.system.root_processors();
  ps.position.assign(static_cast<std::size_t>(st.lps.size()), -1);
  for (std::size_t k = 0; k < ps.members.size(); ++k) {
    ps.position[static_cast<std::size_t>(ps.members[k])] = static_cast<int>(k);
  }
  st.systems.push_back(std::move(ps));
  return static_cast<std::uint32_t>(st.systems.size() - 1);
}

DvmProgram::Op& Decoder::new_op(OpType type, analysis::OpKind kind) {
  DvmProgram::Op op;
  op.type = type;
  op.kind = kind;
  op.ps = st.current_ps;
  op.id = st.ops_base + st.ops.size() + 1;
  op.io_mode = interval_flag() != 0;
  st.ops.push_back(std::move(op));
  a.kind = ActionKind::op;
  a.op = static_cast<std::int64_t>(st.ops.back().id - 1);
  return st.ops.back();
}

traces::TraceError Decoder::error(const std::string& message) const {
  return traces::TraceError(c.trace_path(), c.trace_line(), fmt::format("{}: {}", c.name(), message));
}

void Decoder::warn_once(const char* kind, const std::string& message) {
  if (std::find(st.warned_kinds.begin(), st.warned_kinds.end(), kind) != st.warned_kinds.end()) return;
  st.warned_kinds.emplace_back(kind);
  warnings.push_back(fmt::format("{}:{}: warning: {}: {}", c.trace_path(), c.trace_line(), c.name(), message));
  if (auto* lg = engine::logger_at(engine::Folder::models, spdlog::level::info)) lg->info("{}", warnings.back());
}

traces::TraceError Decoder::not_created(const char* param, std::uint64_t ref, const char* what,
                                        const char* creator) const {
  return error(fmt::format("{}={:x} is not {} (no {} returned it)", param, ref, what, creator));
}

std::map<std::uint64_t, DvmProgram::State::Shadow>::iterator Decoder::shadow_group(const char* param) {
  const auto ref = c.handle(param);
  auto g = st.shadows.find(ref);
  if (g == st.shadows.end()) throw not_created(param, ref, "a shadow group", "crtshg_");
  return g;
}

std::uint64_t Decoder::reduction_group() const {
  const auto ref = c.handle("RedGroupRef");
  if (!st.red_group_size.count(ref)) throw not_created("RedGroupRef", ref, "a reduction group", "crtrg_");
  return ref;
}

void Decoder::check_loop() const {
  if (st.loops_untracked) return;
  const auto ref = c.handle("LoopRef");
  if (std::find(st.live_loops.begin(), st.live_loops.end(), ref) == st.live_loops.end()) {
    throw not_created("LoopRef", ref, "a parallel loop", "crtpl_");
  }
}

void Decoder::bind_template(std::uint64_t array, std::uint64_t pattern) {
  auto t = st.array_template.find(pattern);
  if (t != st.array_template.end())
    st.array_template[array] = t->second;
  else
    st.array_template.erase(array);
}

const DecodeTable& decode_table() {
  static const DecodeTable table = [] {
    DecodeTable t{};
    t.fill([](Decoder&) {});
    add_interval_decoders(t);
    add_array_decoders(t);
    add_task_decoders(t);
    add_loop_decoders(t);
    add_reduction_decoders(t);
    add_shadow_decoders(t);
    add_remote_decoders(t);
    return t;
  }();
  return table;
}

AlignParams align_params(const traces::libdvm::DvmCall& c) {
  AlignParams p;
  for (auto v : c.array("AxisArray")) p.axis.push_back(static_cast<int>(v));
  for (auto v : c.array("CoeffArray")) p.coeff.push_back(v);
  for (auto v : c.array("ConstArray")) p.constant.push_back(v);
  return p;
}

void add_key(std::vector<std::int64_t>& key, std::span<const std::int64_t> values) {
  key.push_back(static_cast<std::int64_t>(values.size()));
  key.insert(key.end(), values.begin(), values.end());
}

TransferMatrix in_root(const TransferMatrix& m, const ProcessorSystem& before, const ProcessorSystem& after) {
  return before == after ? m.to_root(before) : m;
}

const std::vector<Block>& loop_blocks(Decoder& d) {
  DvmProgram::State::LoopDerived& derived = *d.st.loop.derived;
  if (!d.memoise() || !derived.have_blocks) {
    derived.blocks = d.st.loop.loop->blocks(d.fid());
    derived.have_blocks = true;
  }
  return derived.blocks;
}

}  // namespace augur::models::dvm
