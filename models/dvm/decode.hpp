// Decoding one Lib-DVM call (internal to models/dvm): the context every handler shares and the
// handler table, filled one action family per file (decode_*.cpp).
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "models/dvm/dvm_state.hpp"
#include "traces/trace_error.hpp"

namespace augur::models::dvm {

/// What the handlers of one call share: the model's state, the call being decoded, the action
/// being built for it, the interval tree and the options, with the helpers every family uses.
/// A handler reads the call, updates the state and sets the action (kind, operation, shares).
struct Decoder {
  DvmProgram::State& st;
  const traces::libdvm::DvmCall& c;
  DvmProgram::Action& a;
  analysis::IntervalTree& tree;
  const DvmOptions& options;
  int root_count;
  std::vector<std::string>& warnings;

  Fidelity fid() const { return options.fidelity; }
  bool memoise() const { return options.memoise; }
  bool seed_cost() const { return options.cost == CostStyle::seed; }

  /// The I/O mode (biof_ … eiof_) of the current interval.
  char& interval_flag() {
    const auto id = static_cast<std::size_t>(tree.current().id);
    if (st.io_trafic.size() <= id) st.io_trafic.resize(id + 1, 0);
    return st.io_trafic[id];
  }
  /// A new group operation of the current system; the action becomes that operation.
  DvmProgram::Op& new_op(OpType type, analysis::OpKind kind);
  /// The system a PSRef names (0 or unknown: the current one).
  std::uint32_t ps_ref(std::uint64_t ref) const {
    if (ref == 0) return st.current_ps;
    auto it = st.ps_by_ref.find(ref);
    return it == st.ps_by_ref.end() ? st.current_ps : it->second;
  }
  const DvmProgram::State::Ps& current_system() const { return st.systems[st.current_ps]; }

  /// An input error at the call's line, "name: message".
  traces::TraceError error(const std::string& message) const;
  /// A warning at the call's line, given once per run for each `kind`.
  void warn_once(const char* kind, const std::string& message);
  /// A handle that no creating call returned (or that its deleting call removed).
  traces::TraceError not_created(const char* param, std::uint64_t ref, const char* what, const char* creator) const;
  /// The shadow group `param` names; an error when it does not exist.
  std::map<std::uint64_t, DvmProgram::State::Shadow>::iterator shadow_group(const char* param = "ShadowGroupRef");
  /// The reduction group RedGroupRef names; an error when it does not exist.
  std::uint64_t reduction_group() const;
  /// LoopRef must name a live parallel loop (unless a crtpl_ without LoopRef stopped the checks).
  void check_loop() const;
  /// An array aligned on another array is aligned on that array's template (for redis_).
  void bind_template(std::uint64_t array, std::uint64_t pattern);
};

/// One handler per Lib-DVM function (indexed by DvmFunction; unknown: nothing).
using DecodeHandler = void (*)(Decoder&);
using DecodeTable = std::array<DecodeHandler, traces::libdvm::dvm_function_count + 1>;

/// Makes `handler` the handler of every function of `functions`.
inline void set_handler(DecodeTable& t, std::initializer_list<traces::libdvm::DvmFunction> functions,
                        DecodeHandler handler) {
  for (const auto f : functions) t[static_cast<std::size_t>(f)] = handler;
}

/// The table of every family's handlers, built once.
const DecodeTable& decode_table();

// Each family registers its handlers (decode_<family>.cpp).
void add_interval_decoders(DecodeTable& t);   ///< intervals, biof_/eiof_, srmem_, I/O functions
void add_array_decoders(DecodeTable& t);      ///< processor systems, templates, arrays, realn_, redis_
void add_task_decoders(DecodeTable& t);       ///< abstract machines: getam_, mapam_, runam_, stopam_
void add_loop_decoders(DecodeTable& t);       ///< crtpl_, mappl_, dopl_, endpl_
void add_reduction_decoders(DecodeTable& t);  ///< reduction variables and groups
void add_shadow_decoders(DecodeTable& t);     ///< shadow groups, imlast_, across_, sendsh_
void add_remote_decoders(DecodeTable& t);     ///< arrcpy_/aarrcp_/waitcp_, remote buffers

// Helpers several families share.
AlignParams align_params(const traces::libdvm::DvmCall& c);
inline std::vector<Index> to_index(std::span<const std::int64_t> v) { return {v.begin(), v.end()}; }
/// Appends a length-prefixed list to a memo key.
void add_key(std::vector<std::int64_t>& key, std::span<const std::int64_t> values);
/// An update matrix in root numbering: update_matrix compares arrays of one system in that
/// system's numbering and arrays of two systems in the root's.
TransferMatrix in_root(const TransferMatrix& m, const ProcessorSystem& before, const ProcessorSystem& after);
/// The loop's blocks (ParallelLoop::blocks), computed once per mapped loop when memoising.
const std::vector<Block>& loop_blocks(Decoder& d);

}  // namespace augur::models::dvm
