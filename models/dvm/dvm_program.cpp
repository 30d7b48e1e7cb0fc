// The DVM runtime model on the engine (spec section 6). Decoding (object bookkeeping, intervals,
// loop blocks) happens once per call in trace order; each LP then replays the decoded calls on its
// own clock; group operations wait for every processor of their processor system and run in
// trace order, so channel occupancy and clocks are those of the original's sequential model.
#include "models/dvm/dvm_program.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>

#include "engine/log.hpp"
#include "engine/scheduler.hpp"
#include "models/dvm/across.hpp"
#include "traces/trace_error.hpp"

namespace augur::models::dvm {

using analysis::OpKind;
using engine::ComputeCategory;
using engine::Event;
using engine::EventKind;
using engine::LpId;
using engine::SimTime;
using engine::StepResult;
using traces::libdvm::DvmCall;
using traces::libdvm::DvmFunction;
using traces::libdvm::DvmPatternType;
using traces::libdvm::DvmSide;

namespace {

enum class ActionKind : std::uint8_t {
  regular,         ///< RegularTime
  silent,          ///< no time at all (crtda_, align_, delda_, redis_; dopl_ without time)
  interval_enter,  ///< RegularTime, then enter `interval`
  interval_exit,   ///< RegularTime, then return to `interval`
  io_call,         ///< I/O processor: IO_time += vret_0; then RegularTime
  io_mark,         ///< biof_: one I/O operation, then RegularTime
  dopl,            ///< loop portion
  op,              ///< group operation (barrier), then `after`
  shadow_wait,     ///< waitsh_: compare with the shadow's end, then RegularTime
  endpl_imlast,    ///< endpl_ completing an imlast_ shadow, then RegularTime
  copy_wait,       ///< waitcp_: per-processor stamps
  buffer_load,     ///< loadrb_: the buffer's transfer starts at each processor's clock
  buffer_wait,     ///< waitrb_: wait for it
};

enum class OpType : std::uint8_t {
  reduce_start,
  reduce_wait,
  shadow_start,
  realign,
  copy,
  async_copy,
  io_sync,
  across,
  remote_buffer,
  across_pipeline,
};

/// The dopl_ that ends an ACROSS loop (spec 6.4): the loop's geometry and times for the pipeline.
struct AcrossLoop {
  AcrossGeometry geometry;
  std::vector<int> identical;  ///< per position: processors with the same block (insufficient parallelism)
  Index loop_size = 0;
  double call = 0;  ///< the loop's time (the dopl_'s call TIME, unscaled)
  double ret = 0;
};

}  // namespace

namespace {

/// A FIFO in one array of 2^k slots reused in place (the decoded calls between the slowest and the
/// fastest processor): no allocation per element, indexing by a mask. Growing moves the elements,
/// so references are valid only until the next push_back.
template <class T>
class Ring {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return slots_[(head_ + i) & (slots_.size() - 1)]; }
  const T& operator[](std::size_t i) const { return slots_[(head_ + i) & (slots_.size() - 1)]; }
  void push_back(T&& value) {
    if (size_ == slots_.size()) grow();
    (*this)[size_] = std::move(value);
    ++size_;
  }
  /// Drops the first element (its slot is reset, releasing what it holds).
  void pop_front() {
    slots_[head_] = T{};
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
  }

 private:
  void grow() {
    std::vector<T> next(slots_.empty() ? 64 : 2 * slots_.size());
    for (std::size_t i = 0; i < size_; ++i) next[i] = std::move((*this)[i]);
    slots_ = std::move(next);
    head_ = 0;
  }
  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace

/// One decoded call: what every processor of system `ps` does.
struct DvmProgram::Action {
  ActionKind kind = ActionKind::regular;
  bool io_mode = false;       ///< between biof_ and eiof_ (the original's io_trafic)
  bool regular_after = true;  ///< op: RegularTime after the operation
  std::uint32_t ps = 0;       ///< processor system index
  double call = 0;            ///< TIME of the call line (unscaled)
  double ret = 0;             ///< TIME of the ret line (unscaled)
  int interval = 0;           ///< interval_enter / interval_exit: the interval after the switch
  std::int64_t op = -1;       ///< op: the operation; shadow_wait/endpl_imlast/copy_wait: its start
  /// dopl_: per position of `ps`, the iterations and the count of identical blocks; loop size.
  std::shared_ptr<const std::vector<std::pair<Index, int>>> blocks;
  Index loop_size = 0;
  /// arrcpy_: per position, the share of the call's user time (the original's write split).
  std::shared_ptr<const std::vector<double>> share;
  std::shared_ptr<const std::vector<bool>> share_insuff;
  /// dopl_ with DoPL = 1 in an ACROSS loop: the edge exchange's Wait_shadow on every processor.
  double across_wait = 0;
  /// Where the call is in the program: DvmProgram::statement_key of the trace's FILE= (by the
  /// reader's file id) and LINE=.
  std::uint64_t statement = 0;
};

/// A group operation: a barrier of the processors of `ps`.
struct DvmProgram::Op {
  OpType type = OpType::reduce_start;
  OpKind kind = OpKind::reduction;
  std::uint32_t ps = 0;
  std::uint64_t id = 0;  ///< 1, 2, … in trace order
  int arrived = 0;
  bool done = false;
  bool divide_by_p = false;  ///< shadow start of 3.1
  bool sync = true;
  bool io_mode = false;          ///< inside biof_ … eiof_: times go to processor 0 as I/O
  std::int64_t start_op = -1;    ///< reduce_wait: its start
  std::uint64_t total_size = 0;  ///< reduction bytes
  /// reduction: positions holding part of the loop's pattern (shared by the waitrd_ calls of one
  /// loop pattern and processor system between two geometry changes)
  std::shared_ptr<const std::vector<bool>> holders;
  machines::ProcessorGrid grid;  ///< seed reduction: the group's processor system
  std::vector<bool> split;       ///< seed reduction: grid dimensions the loop is split along
  std::uint64_t io_bytes = 0;    ///< srmem_: Σ LengthArray
  TransferMatrix matrix;         ///< root numbering
  /// A matrix shared with its shadow group (strtsh_, exfrst_) instead of `matrix` when set.
  std::shared_ptr<const TransferMatrix> shared_matrix;
  SimTime t0 = 0;
  SimTime t1 = 0;
  std::vector<SimTime> stamps;      ///< async copy, remote buffer: per root processor
  std::vector<SimTime> load_start;  ///< remote buffer: per root processor (loadrb_)
  std::vector<SimTime> load_end;
  std::shared_ptr<const AcrossLoop> across;  ///< across_pipeline: the loop
  // Who may still refer to this operation (DvmProgram::release frees it when nobody can):
  std::uint64_t last_action = 0;  ///< 1 + global index of the last action naming it (0: none)
  std::uint64_t last_op = 0;      ///< 1 + index of the last operation naming it (reduce_wait → start)

  const TransferMatrix& transfers() const { return shared_matrix ? *shared_matrix : matrix; }
};

struct DvmProgram::State {
  struct Lp {
    std::uint64_t cursor = 0;
    bool arrived = false;  ///< waiting at the op of the action under the cursor
    bool op_done = false;  ///< that op has run: finish the action
    int interval = 1;      ///< interval the LP is in
  };
  struct Ps {
    ProcessorSystem system;
    std::vector<int> members;   ///< root processor of each position
    std::vector<int> position;  ///< position of each root processor, −1 outside
  };
  struct Shadow {
    std::shared_ptr<const TransferMatrix> matrix;  ///< root numbering; null before any inssh_
    std::int64_t last_start = -1;
    /// ACROSS: per grid dimension, the widest shadow facing the lower / upper neighbour.
    std::vector<Index> toward_lower, toward_upper;
    Index type_size = 0;  ///< the largest element size of the group's arrays
  };
  /// What is derived from one mapped loop (it never changes: the loop holds copies of its
  /// template), computed on first use and shared by every dopl_/crtrbl_ of the loop and by
  /// every identical mappl_ between two geometry changes.
  struct LoopDerived {
    bool have_blocks = false;
    std::vector<Block> blocks;  ///< ParallelLoop::blocks(fidelity)
    std::uint32_t portions_ps = std::numeric_limits<std::uint32_t>::max();
    /// dopl_ on processor system `portions_ps`: per position (iterations, identical blocks)
    std::shared_ptr<const std::vector<std::pair<Index, int>>> portions;
  };
  struct LoopInfo {
    std::shared_ptr<const ParallelLoop> loop;
    std::shared_ptr<LoopDerived> derived;
    DvmPatternType pattern = DvmPatternType::none;
    std::uint64_t pattern_ref = 0;
    bool imlast = false;
    std::uint64_t imlast_group = 0;
    /// After across_: grid, dimensions and element size of the pipeline (processors at dopl_).
    std::optional<AcrossGeometry> across;
  };
  /// One remembered mappl_: its parameters (see mappl_key) and what it produced.
  struct MappedLoop {
    std::vector<std::int64_t> key;
    std::shared_ptr<const ParallelLoop> loop;
    std::shared_ptr<LoopDerived> derived;
    bool sets_pattern = false;  ///< the mapping succeeded: pattern and pattern_ref are set
    DvmPatternType pattern = DvmPatternType::none;
    std::uint64_t pattern_ref = 0;
  };
  /// One remembered inssh_/insshd_/incsh_/incshd_ matrix: array, widths, corners → T (root).
  struct ShadowMemo {
    std::vector<std::int64_t> key;
    std::shared_ptr<const TransferMatrix> matrix;
  };
  /// The memos of the geometry (valid while `epoch` is the state's geometry epoch).
  struct Memo {
    std::uint64_t epoch = 0;
    std::vector<MappedLoop> loops;  ///< at most memo_capacity, replaced round-robin
    std::size_t next_loop = 0;
    std::vector<ShadowMemo> shadows;
    std::size_t next_shadow = 0;
    // waitrd_ holders of the last (pattern, array, system)
    bool have_holders = false;
    DvmPatternType holders_pattern = DvmPatternType::none;
    std::uint64_t holders_ref = 0;
    std::uint32_t holders_ps = 0;
    std::shared_ptr<const std::vector<bool>> holders;
    std::vector<std::int64_t> key;  ///< scratch for building keys
  };
  static constexpr std::size_t memo_capacity = 8;

  Ring<Action> actions;
  std::uint64_t base = 0;  ///< global index of actions[0]
  bool trace_done = false;
  std::vector<Lp> lps;
  std::vector<Ps> systems;
  std::uint32_t current_ps = 0;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> am_stack;  ///< (AM, PS) pushed by runam_
  std::uint64_t current_am = 0;
  std::map<std::uint64_t, std::uint32_t> ps_by_ref;
  std::map<std::uint64_t, std::uint32_t> am_ps;  ///< AM → PS index (mapam_, getps_)
  std::map<std::uint64_t, Template> templates;
  std::map<std::uint64_t, DistributedArray> arrays;
  std::map<std::uint64_t, std::uint64_t> red_var_size;
  std::map<std::uint64_t, std::uint64_t> red_group_size;
  std::map<std::uint64_t, std::int64_t> red_group_start;
  std::map<std::uint64_t, std::uint32_t> red_group_ps;    ///< reduction group → system of its crtrg_
  std::map<std::uint64_t, std::uint64_t> array_template;  ///< array → the template it is finally aligned on
  std::map<std::uint64_t, Shadow> shadows;
  std::map<std::uint64_t, std::int64_t> copy_flags;
  std::map<std::uint64_t, std::int64_t> buffers;  ///< remote buffer → its crtrbl_ op
  LoopInfo loop;
  /// Parallel loops created by crtpl_ and not yet ended by endpl_ (nesting depth: a few).
  std::vector<std::uint64_t> live_loops;
  bool loops_untracked = false;           ///< a crtpl_ without LoopRef on its ret line: no loop checks
  std::vector<std::string> warned_kinds;  ///< warnings given once per run
  MessagePrice across_price;              ///< one message between processors 0 and 1 (ACROSS)
  std::deque<Op> ops;
  std::uint64_t ops_base = 0;  ///< id − 1 of ops.front()
  std::uint64_t next_op = 0;   ///< index (id − 1) of the next op to run
  /// Done operations released from `ops` while a handle map (red_group_start, shadows,
  /// copy_flags, buffers) still names them: a later call may refer to them.
  std::map<std::uint64_t, Op> retained;
  std::uint64_t geometry_epoch = 0;  ///< incremented by every call that may change geometry
  Memo memo;
  traces::libdvm::DvmCall call;                  ///< the call being decoded (its buffers reused)
  std::vector<std::vector<std::uint64_t>> rows;  ///< execute_op: the matrix as the machine takes it
  std::vector<SimTime> clocks;                   ///< execute_op: every root processor's clock
  std::vector<std::uint64_t> held;               ///< release: operations named by handle maps
  std::size_t peak_ops = 0;
  std::size_t peak_actions = 0;
  std::vector<char> io_trafic;                   ///< per interval id
  std::vector<std::vector<int>> active_at_exit;  ///< per interval id
  std::vector<bool> warned;
  std::uint64_t decoded = 0;

  Op& op(std::uint64_t index) {
    if (index < ops_base) return retained.at(index);
    return ops[static_cast<std::size_t>(index - ops_base)];
  }
};

namespace {

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

/// `message` without a leading Lib-DVM function name ("crtps_: "), which the caller replaces by
/// the name of the call being decoded.
std::string_view without_function_prefix(std::string_view message) {
  const auto colon = message.find(": ");
  if (colon == std::string_view::npos || colon < 2 || message[colon - 1] != '_') return message;
  for (std::size_t i = 0; i + 1 < colon; ++i) {
    const char ch = message[i];
    if (!(ch >= 'a' && ch <= 'z') && !(ch >= '0' && ch <= '9')) return message;
  }
  return message.substr(colon + 2);
}

AlignParams align_params(const DvmCall& c) {
  AlignParams p;
  for (auto v : c.array("AxisArray")) p.axis.push_back(static_cast<int>(v));
  for (auto v : c.array("CoeffArray")) p.coeff.push_back(v);
  for (auto v : c.array("ConstArray")) p.constant.push_back(v);
  return p;
}

std::vector<Index> to_index(std::span<const std::int64_t> v) { return {v.begin(), v.end()}; }

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

/// `m` as the machine takes it (rows of bytes), written into `rows` (its buffers reused).
const std::vector<std::vector<std::uint64_t>>& as_rows(const TransferMatrix& m,
                                                       std::vector<std::vector<std::uint64_t>>& rows) {
  const auto n = static_cast<std::size_t>(m.size());
  rows.resize(n);
  for (std::size_t p = 0; p < n; ++p) {
    auto& row = rows[p];
    row.resize(n);
    for (std::size_t q = 0; q < n; ++q)
      row[q] = static_cast<std::uint64_t>(m.at(static_cast<int>(p), static_cast<int>(q)));
  }
  return rows;
}

/// Calls after which a template, an array, a processor system or the current system may differ:
/// the memos of loops, shadows and reduction holders are dropped (State::Memo).
bool changes_geometry(DvmFunction f) {
  switch (f) {
    case DvmFunction::crtps:
    case DvmFunction::psview:
    case DvmFunction::crtamv:
    case DvmFunction::delamv:
    case DvmFunction::blkdiv:
    case DvmFunction::distr:
    case DvmFunction::setelw:
    case DvmFunction::redis:
    case DvmFunction::crtda:
    case DvmFunction::align:
    case DvmFunction::delda:
    case DvmFunction::realn:
    case DvmFunction::mapam:
    case DvmFunction::runam:
    case DvmFunction::stopam:
      return true;
    default:
      return false;
  }
}

/// Appends a length-prefixed list to a memo key.
void add_key(std::vector<std::int64_t>& key, std::span<const std::int64_t> values) {
  key.push_back(static_cast<std::int64_t>(values.size()));
  key.insert(key.end(), values.begin(), values.end());
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

/// An update matrix in root numbering: update_matrix compares arrays of one system in that
/// system's numbering and arrays of two systems in the root's.
TransferMatrix in_root(const TransferMatrix& m, const ProcessorSystem& before, const ProcessorSystem& after) {
  return before == after ? m.to_root(before) : m;
}

}  // namespace

DvmProgram::DvmProgram(traces::libdvm::DvmTraceReader& reader, machines::MachineModel& machine,
                       analysis::IntervalTree& tree, DvmOptions options)
    : state_(std::make_unique<State>()), reader_(reader), machine_(machine), tree_(tree), options_(std::move(options)) {
  if (options_.grid.empty()) options_.grid = {1};
  ProcessorSystem root(options_.grid);
  root_count_ = root.processor_count();
  if (tree_.processors() != root_count_) {
    throw std::invalid_argument("DvmProgram: the interval tree has a different processor count");
  }
  state_->lps.resize(static_cast<std::size_t>(root_count_));
  statements_.assign(static_cast<std::size_t>(root_count_), 0);
  // The machine's processors are the root system's, laid out on its grid (a transputer grid
  // without a grid of its own takes this one, as the Predictor's transputer is the grid of VM).
  machine_.arrange(options_.grid);
  if (root_count_ >= 2) {
    // ACROSS pipelines price their messages as Ts + Tb·bytes: the machine's price of one message
    // of 1 and of 2 bytes from processor 0 to 1, before the run (as 3.1's CommCost::Across does).
    std::vector<std::vector<std::uint64_t>> probe(static_cast<std::size_t>(root_count_),
                                                  std::vector<std::uint64_t>(static_cast<std::size_t>(root_count_), 0));
    probe[0][1] = 1;
    const double one = machine_.matrix_cost(probe);
    probe[0][1] = 2;
    const double two = machine_.matrix_cost(probe);
    state_->across_price.tb = std::max(0.0, two - one);
    state_->across_price.ts = std::max(0.0, one - state_->across_price.tb);
  }
  state_->current_ps = add_system(*state_, root);
  state_->io_trafic.assign(2, 0);
  state_->active_at_exit.resize(2);
  state_->warned.assign(traces::libdvm::dvm_function_count + 1, false);
  if (auto* lg = engine::logger_at(engine::Folder::models, spdlog::level::debug)) {
    std::string grid;
    for (const int d : options_.grid) grid += (grid.empty() ? "" : "x") + std::to_string(d);
    lg->debug("DVM model: grid {} ({} processors), {} pricing, ACROSS messages Ts {:.9f} s + Tb {:.9f} s per byte",
              grid, root_count_, options_.cost == CostStyle::predictor31 ? "Predictor 3.1's" : "the seed's",
              state_->across_price.ts, state_->across_price.tb);
  }
}

DvmProgram::~DvmProgram() = default;

const DvmProgram::Action* DvmProgram::action_at(std::uint64_t index) const {
  if (index < state_->base || index >= state_->base + state_->actions.size()) return nullptr;
  return &state_->actions[static_cast<std::size_t>(index - state_->base)];
}

// ------------------------------------------------------------------------------------------
// Decoding: the original's object bookkeeping, in trace order.
// ------------------------------------------------------------------------------------------

bool DvmProgram::decode_next() {
  State& st = *state_;
  if (st.trace_done) return false;
  DvmCall& c = st.call;
  if (!reader_.next(c)) {
    st.trace_done = true;
    return false;
  }
  if (st.decoded++ == 0) {
    tree_.root().source_file = std::string(c.source_file());
    tree_.root().source_line = static_cast<int>(c.source_line());
  }
  Action a;
  a.call = c.call_time();
  a.ret = c.ret_time();
  a.ps = st.current_ps;
  a.statement = statement_key(c.source_file_id(), c.source_line());
  const std::uint64_t action_index = st.base + st.actions.size();
  const std::uint64_t first_new_op = st.ops_base + st.ops.size();
  if (changes_geometry(c.function())) ++st.geometry_epoch;
  if (st.memo.epoch != st.geometry_epoch) {
    st.memo.loops.clear();
    st.memo.next_loop = 0;
    st.memo.shadows.clear();
    st.memo.next_shadow = 0;
    st.memo.have_holders = false;
    st.memo.holders.reset();
    st.memo.epoch = st.geometry_epoch;
  }
  const bool memoise = options_.memoise;
  auto interval_flag = [&]() -> char& {
    const auto id = static_cast<std::size_t>(tree_.current().id);
    if (st.io_trafic.size() <= id) st.io_trafic.resize(id + 1, 0);
    return st.io_trafic[id];
  };
  auto new_op = [&](OpType type, OpKind kind) -> Op& {
    Op op;
    op.type = type;
    op.kind = kind;
    op.ps = st.current_ps;
    op.id = st.ops_base + st.ops.size() + 1;
    op.io_mode = interval_flag() != 0;
    st.ops.push_back(std::move(op));
    a.kind = ActionKind::op;
    a.op = static_cast<std::int64_t>(st.ops.back().id - 1);
    return st.ops.back();
  };
  auto ps_ref = [&](std::uint64_t ref) -> std::uint32_t {
    if (ref == 0) return st.current_ps;
    auto it = st.ps_by_ref.find(ref);
    return it == st.ps_by_ref.end() ? st.current_ps : it->second;
  };
  const Fidelity fid = options_.fidelity;
  // Input errors and oddities at the call's line.
  auto error = [&](const std::string& message) {
    return traces::TraceError(c.trace_path(), c.trace_line(), fmt::format("{}: {}", c.name(), message));
  };
  auto warn_once = [&](const char* kind, const std::string& message) {
    if (std::find(st.warned_kinds.begin(), st.warned_kinds.end(), kind) != st.warned_kinds.end()) return;
    st.warned_kinds.emplace_back(kind);
    warnings_.push_back(fmt::format("{}:{}: warning: {}: {}", c.trace_path(), c.trace_line(), c.name(), message));
    if (auto* lg = engine::logger_at(engine::Folder::models, spdlog::level::info)) lg->info("{}", warnings_.back());
  };
  // A handle that no creating call returned (or that its deleting call removed).
  auto not_created = [&](const char* param, std::uint64_t ref, const char* what, const char* creator) {
    return error(fmt::format("{}={:x} is not {} (no {} returned it)", param, ref, what, creator));
  };
  auto shadow_group = [&](const char* param = "ShadowGroupRef") {
    const auto ref = c.handle(param);
    auto g = st.shadows.find(ref);
    if (g == st.shadows.end()) throw not_created(param, ref, "a shadow group", "crtshg_");
    return g;
  };
  auto reduction_group = [&]() {
    const auto ref = c.handle("RedGroupRef");
    if (!st.red_group_size.count(ref)) throw not_created("RedGroupRef", ref, "a reduction group", "crtrg_");
    return ref;
  };
  auto check_loop = [&]() {
    if (st.loops_untracked) return;
    const auto ref = c.handle("LoopRef");
    if (std::find(st.live_loops.begin(), st.live_loops.end(), ref) == st.live_loops.end()) {
      throw not_created("LoopRef", ref, "a parallel loop", "crtpl_");
    }
  };
  // An array aligned on another array is aligned on that array's template (for redis_).
  auto bind_template = [&](std::uint64_t array, std::uint64_t pattern) {
    auto t = st.array_template.find(pattern);
    if (t != st.array_template.end())
      st.array_template[array] = t->second;
    else
      st.array_template.erase(array);
  };

  try {
    switch (c.function()) {
      // ---------------------------------------------------------------- intervals
      case DvmFunction::binter:
      case DvmFunction::bsloop:
      case DvmFunction::bploop: {
        a.io_mode = interval_flag() != 0;
        const auto type = c.function() == DvmFunction::binter   ? analysis::IntervalType::user
                          : c.function() == DvmFunction::bsloop ? analysis::IntervalType::seq
                                                                : analysis::IntervalType::par;
        std::optional<long> index;
        if (c.function() == DvmFunction::binter) {
          if (auto v = c.find_integer("index")) index = static_cast<long>(*v);
        }
        analysis::Interval& in = tree_.enter(type, c.source_file(), static_cast<int>(c.source_line()), index);
        a.kind = ActionKind::interval_enter;
        a.interval = in.id;
        break;
      }
      case DvmFunction::einter:
      case DvmFunction::enloop:
      case DvmFunction::eloop: {
        a.io_mode = interval_flag() != 0;
        const auto id = static_cast<std::size_t>(tree_.current().id);
        if (st.active_at_exit.size() <= id) st.active_at_exit.resize(id + 1);
        st.active_at_exit[id] = st.systems[st.current_ps].members;
        tree_.exit_to_parent();
        a.kind = ActionKind::interval_exit;
        a.interval = tree_.current().id;
        break;
      }
      // ---------------------------------------------------------------- I/O
      case DvmFunction::biof:
        interval_flag() = 1;
        a.io_mode = true;
        a.kind = ActionKind::io_mark;
        break;
      case DvmFunction::eiof:
        interval_flag() = 0;
        a.io_mode = false;
        break;
      case DvmFunction::srmem: {
        a.io_mode = interval_flag() != 0;
        Op& op = new_op(OpType::io_sync, OpKind::io);
        // The I/O processor sends the MemoryCount buffers of LengthArray bytes to every processor.
        if (auto lengths = c.find_array("LengthArray")) {
          for (auto n : *lengths) op.io_bytes += static_cast<std::uint64_t>(std::max<std::int64_t>(0, n));
        }
        break;
      }
      // ---------------------------------------------------------------- systems, templates
      case DvmFunction::crtps: {
        const auto init = c.array("InitIndexArray");
        const auto last = c.array("LastIndexArray");
        std::vector<int> i0(init.begin(), init.end()), i1(last.begin(), last.end());
        const auto ref = c.ret_handle("PSRef");
        st.ps_by_ref[ref] = add_system(st, ProcessorSystem::subsystem(st.systems[st.current_ps].system, i0, i1));
        break;
      }
      case DvmFunction::psview: {
        const auto sizes = c.array("SizeArray");
        std::vector<int> sz(sizes.begin(), sizes.end());
        const auto idx = add_system(st, ProcessorSystem::view(st.systems[st.current_ps].system, sz));
        if (auto ref = c.find_handle("PSRef", DvmSide::ret)) st.ps_by_ref[*ref] = idx;
        // The original overwrites the current system with the view (Predictor 3.1 psview_).
        st.current_ps = idx;
        break;
      }
      case DvmFunction::getps: {
        if (auto ref = c.find_handle("PSRef", DvmSide::ret)) {
          st.ps_by_ref.emplace(*ref, st.current_ps);
          if (st.current_am != 0) st.am_ps[st.current_am] = st.ps_by_ref[*ref];
        }
        break;
      }
      case DvmFunction::getam:
        if (auto ref = c.find_handle("AMRef", DvmSide::ret)) {
          if (st.current_am == 0) st.current_am = *ref;
          st.am_ps.emplace(*ref, st.current_ps);
        }
        break;
      case DvmFunction::getamr:
        break;
      case DvmFunction::mapam:
        st.am_ps[c.handle("AMRef")] = ps_ref(c.handle("PSRef"));
        break;
      case DvmFunction::runam: {
        const auto am = c.handle("AMRef");
        auto it = st.am_ps.find(am);
        if (it == st.am_ps.end()) {
          throw traces::TraceError(
              c.trace_path(), c.trace_line(),
              fmt::format("runam_: abstract machine {:x} was never mapped on a processor system (mapam_)", am));
        }
        st.am_stack.emplace_back(st.current_am, st.current_ps);
        st.current_am = am;
        st.current_ps = it->second;
        break;
      }
      case DvmFunction::stopam:
        if (!st.am_stack.empty()) {
          st.current_am = st.am_stack.back().first;
          st.current_ps = st.am_stack.back().second;
          st.am_stack.pop_back();
        }
        break;
      case DvmFunction::crtamv: {
        st.templates.insert_or_assign(c.ret_handle("AMViewRef"), Template(to_index(c.array("SizeArray"))));
        break;
      }
      case DvmFunction::delamv:
        st.templates.erase(c.handle("AMViewRef"));
        break;
      case DvmFunction::blkdiv: {
        auto it = st.templates.find(c.handle("AMViewRef"));
        if (it != st.templates.end()) it->second.set_multiples(to_index(c.array("AMVAxisDiv")));
        break;
      }
      case DvmFunction::distr: {
        auto it = st.templates.find(c.handle("AMViewRef"));
        if (it != st.templates.end()) {
          std::vector<int> axes;
          for (auto v : c.array("AxisArray")) axes.push_back(static_cast<int>(v));
          it->second.distribute(st.systems[ps_ref(c.handle("PSRef"))].system, axes);
        }
        break;
      }
      case DvmFunction::setelw: {
        if (!c.find_array("WeightNumber")) {
          throw traces::TraceError(
              c.trace_path(), c.trace_line(),
              "setelw_ without WeightNumber: record the trace with LoadWeightTrace=1; WeightArrayTrace=1;");
        }
        // The DVM runtime's checks (RTS errors 032.091, 032.092): no negative count or load.
        const auto wn = to_index(c.array("WeightNumber"));
        const auto loads = c.has("LoadWeight") ? c.real_array("LoadWeight") : std::span<const double>{};
        for (std::size_t j = 0; j < loads.size(); ++j) {
          if (!std::isfinite(loads[j]))
            throw error(fmt::format("LoadWeight[{}]={} is not a finite number", j, loads[j]));
          if (loads[j] < 0) {
            throw error(fmt::format("LoadWeight[{}]={} is negative (the DVM runtime rejects negative load weights)", j,
                                    loads[j]));
          }
        }
        for (std::size_t d = 0; d < wn.size(); ++d) {
          if (wn[d] < 0) throw error(fmt::format("WeightNumber[{}]={} is negative", d, wn[d]));
          if (static_cast<std::uint64_t>(wn[d]) > loads.size()) {
            throw error(fmt::format("WeightNumber[{}]={} but the call has {} LoadWeight value{} (a cut trace?)", d,
                                    wn[d], loads.size(), loads.size() == 1 ? "" : "s"));
          }
        }
        auto it = st.templates.find(c.handle("AMViewRef"));
        if (it != st.templates.end()) {
          const ProcessorSystem& s = st.systems[ps_ref(c.handle("PSRef"))].system;
          auto raw = load_weights(s, wn, loads, fid);
          for (int d = 0; d < s.rank(); ++d) {
            const auto at = static_cast<std::size_t>(d);
            const Index number = at < wn.size() ? wn[at] : 0;
            if (number <= 0) continue;
            if (number < s.size(d)) {
              // Legal: the runtime solves its partition only with a weight per processor at least.
              warn_once("setelw-few", fmt::format("WeightNumber[{0}]={1} load weights for the {2} processors of grid "
                                                  "dimension {0}: the DVM runtime does not use them, the dimension is "
                                                  "divided equally",
                                                  d, number, s.size(d)));
            } else if (std::all_of(raw[at].begin(), raw[at].end(), [](double w) { return w == 0; })) {
              // The runtime's partition of all-zero loads gives every coordinate the same weight.
              warn_once("setelw-zero", fmt::format("the load weights of grid dimension {0} are all 0: the dimension "
                                                   "is divided equally, as the DVM runtime does",
                                                   d));
              raw[at].assign(raw[at].size(), 1.0);
            }
          }
          it->second.set_weights(coordinate_weights(s, raw, {}));
        }
        break;
      }
      case DvmFunction::redis: {
        // Predictor 3.1 returns before modelling redis_ (no time at all; see models/dvm/README.md).
        // The seed's intended model (spec 6.2): the template gets its new distribution and every
        // array aligned on it, directly or through other arrays, moves as realn_ would move it.
        a.kind = ActionKind::silent;
        if (options_.cost == CostStyle::predictor31) break;
        std::uint64_t ref = c.handle("AMViewRef");
        if (!st.templates.count(ref)) {
          // An array header names the template its array is aligned on (Lib-DVM's redis_).
          auto via = st.array_template.find(ref);
          if (via != st.array_template.end()) ref = via->second;
        }
        auto t = st.templates.find(ref);
        if (t == st.templates.end() || !t->second.distributed()) break;
        std::vector<int> axes;
        for (auto v : c.array("AxisArray")) axes.push_back(static_cast<int>(v));
        const auto ps_handle = c.find_handle("PSRef").value_or(0);
        const ProcessorSystem target = ps_handle == 0 ? t->second.system() : st.systems[ps_ref(ps_handle)].system;
        Template next = t->second;
        next.distribute(target, axes);
        const bool new_sign = c.find_integer("NewSign").value_or(0) != 0;
        TransferMatrix moved(root_count_);
        for (auto& [aref, arr] : st.arrays) {
          auto bound = st.array_template.find(aref);
          if (bound == st.array_template.end() || bound->second != ref || !arr.aligned()) continue;
          DistributedArray after = arr.with_template(next);
          if (!new_sign) moved += in_root(update_matrix(arr, after, fid), arr.system(), after.system());
          arr = std::move(after);
        }
        t->second = std::move(next);
        Op& op = new_op(OpType::realign, OpKind::redistribution);
        op.matrix = std::move(moved);
        a.regular_after = false;
        break;
      }
      // ---------------------------------------------------------------- arrays
      case DvmFunction::crtda: {
        std::vector<Index> low, high;
        if (auto v = c.find_array("LowShdWidthArray")) low = to_index(*v);
        if (auto v = c.find_array("HiShdWidthArray")) high = to_index(*v);
        st.arrays.insert_or_assign(c.handle("ArrayHeader"),
                                   DistributedArray(to_index(c.array("SizeArray")), c.integer("TypeSize"), low, high));
        a.kind = ActionKind::silent;
        break;
      }
      case DvmFunction::align: {
        a.kind = ActionKind::silent;
        auto it = st.arrays.find(c.handle("ArrayHeader"));
        if (it == st.arrays.end()) break;
        const auto type = c.pattern_type("PatternRef");
        if (type == DvmPatternType::am_view) {
          auto t = st.templates.find(c.handle("PatternRef"));
          if (t != st.templates.end() && t->second.distributed()) {
            it->second.align(t->second, align_params(c));
            st.array_template[it->first] = t->first;
          }
        } else if (type == DvmPatternType::dis_array) {
          auto p = st.arrays.find(c.handle("PatternRefPtr"));
          if (p != st.arrays.end() && p->second.aligned()) {
            it->second.align(p->second, align_params(c));
            bind_template(it->first, p->first);
          }
        }
        break;
      }
      case DvmFunction::delda:
        a.kind = ActionKind::silent;
        st.arrays.erase(c.handle("ArrayHeader"));
        st.array_template.erase(c.handle("ArrayHeader"));
        break;
      case DvmFunction::realn: {
        auto it = st.arrays.find(c.handle("ArrayHeader"));
        const auto type = c.pattern_type("PatternRef");
        if (it == st.arrays.end() || type == DvmPatternType::none) {
          a.kind = ActionKind::silent;
          break;
        }
        DistributedArray next = it->second;
        if (type == DvmPatternType::am_view) {
          auto t = st.templates.find(c.handle("PatternRef"));
          if (t != st.templates.end() && t->second.distributed()) {
            next.align(t->second, align_params(c));
            st.array_template[it->first] = t->first;
          }
        } else {
          auto p = st.arrays.find(c.handle("PatternRefPtr"));
          if (p != st.arrays.end() && p->second.aligned()) {
            next.align(p->second, align_params(c));
            bind_template(it->first, p->first);
          }
        }
        Op& op = new_op(OpType::realign, OpKind::redistribution);
        a.regular_after = false;
        const bool new_sign = c.find_integer("NewSign").value_or(0) != 0;
        if (it->second.aligned() && next.aligned() && !new_sign) {
          op.matrix = in_root(update_matrix(it->second, next, fid), it->second.system(), next.system());
        }
        it->second = std::move(next);
        break;
      }
      case DvmFunction::arrcpy:
      case DvmFunction::aarrcp: {
        const bool async = c.function() == DvmFunction::aarrcp;
        const auto from_buf = c.find_handle("FromBufferPtr").value_or(0);
        const auto to_buf = c.find_handle("ToBufferPtr").value_or(0);
        const DistributedArray* from = nullptr;
        const DistributedArray* to = nullptr;
        if (from_buf == 0) {
          auto f = st.arrays.find(c.handle("FromArrayHeader"));
          if (f != st.arrays.end() && f->second.aligned()) from = &f->second;
        }
        if (to_buf == 0) {
          auto t = st.arrays.find(c.handle("ToArrayHeader"));
          if (t != st.arrays.end() && t->second.aligned()) to = &t->second;
        }
        auto side = [&](const char* init, const char* last, const char* step) {
          CopySide cs;
          if (auto v = c.find_array(init)) cs.init = to_index(*v);
          if (auto v = c.find_array(last)) cs.last = to_index(*v);
          if (auto v = c.find_array(step)) cs.step = to_index(*v);
          return cs;
        };
        const CopySide fs = side("FromInitIndexArray", "FromLastIndexArray", "FromStepArray");
        const CopySide ts = side("ToInitIndexArray", "ToLastIndexArray", "ToStepArray");
        if (from != nullptr && fs.init.size() != static_cast<std::size_t>(from->rank())) from = nullptr;
        if (to != nullptr && ts.init.size() != static_cast<std::size_t>(to->rank())) to = nullptr;
        TransferMatrix m;
        if (from && to) {
          m = copy_distributed_matrix(*from, fs, *to, ts, fid).to_root(from->system());
        } else if (from && !to) {
          m = copy_to_replicated_matrix(*from, fs, fid).to_root(from->system());
        }
        if (!async) {
          // The call's user time is split by each processor's share of the written region.
          const DistributedArray* w = to ? to : from;
          const CopySide& wside = to ? ts : fs;
          if (w != nullptr) {
            const State::Ps& ps = st.systems[st.current_ps];
            std::vector<Range> dims;
            for (std::size_t d = 0; d < wside.init.size() && d < wside.last.size() && d < wside.step.size(); ++d) {
              const Index s = wside.step[d];
              if (s > 0)
                dims.push_back(make_range(wside.init[d], wside.last[d], s));
              else if (s < 0)
                dims.push_back(make_range(wside.last[d], wside.init[d], -s));
              else
                dims.push_back(make_range(wside.init[d], wside.last[d], 1));
            }
            const Block write(dims);
            const Index total = write.empty() ? 0 : write.volume();
            auto share = std::make_shared<std::vector<double>>(ps.members.size(), 0.0);
            auto insuff = std::make_shared<std::vector<bool>>(ps.members.size(), false);
            int holders = 0;
            for (std::size_t k = 0; k < ps.members.size(); ++k) {
              const Block loc = w->block(static_cast<int>(k), fid);
              if (total != 0) {
                const Block part = intersect(loc, write);
                (*share)[k] = part.empty() ? 0.0 : static_cast<double>(part.volume()) / static_cast<double>(total);
              } else if (to != nullptr && to->fully_replicated()) {
                (*share)[k] = 1.0;
              }
              if (to != nullptr && to->fully_replicated()) {
                (*insuff)[k] = holders != 0;
                if (!loc.empty()) ++holders;
              }
            }
            a.share = share;
            a.share_insuff = insuff;
          }
          if (!from && to) {  // replicated → distributed: only the user time
            a.kind = ActionKind::silent;
            a.op = -1;
            break;
          }
          if (!from && !to) {
            a.kind = ActionKind::silent;
            break;
          }
          Op& op = new_op(OpType::copy, OpKind::remote_access);
          op.matrix = std::move(m);
          a.regular_after = false;
        } else {
          Op& op = new_op(OpType::async_copy, OpKind::remote_access);
          op.sync = false;
          op.matrix = std::move(m);
          a.regular_after = false;
          st.copy_flags[c.handle("CopyFlagPtr")] = static_cast<std::int64_t>(op.id - 1);
        }
        break;
      }
      case DvmFunction::waitcp: {
        auto it = st.copy_flags.find(c.handle("CopyFlagPtr"));
        if (it == st.copy_flags.end()) {
          a.kind = ActionKind::silent;
          break;
        }
        a.kind = ActionKind::copy_wait;
        a.op = it->second;
        st.copy_flags.erase(it);
        break;
      }
      // ---------------------------------------------------------------- parallel loops
      case DvmFunction::crtpl:
        st.loop = State::LoopInfo{};
        if (auto ref = c.find_handle("LoopRef", DvmSide::ret)) {
          if (std::find(st.live_loops.begin(), st.live_loops.end(), *ref) == st.live_loops.end()) {
            st.live_loops.push_back(*ref);
          }
        } else {
          st.loops_untracked = true;
        }
        break;
      case DvmFunction::mappl: {
        check_loop();
        // The same parameters between two geometry changes map the same loop: reuse it (and
        // what its dopl_ calls derived from it) instead of building it again.
        State::Memo& memo = st.memo;
        const bool keyed = memoise && mappl_key(c, memo.key);
        if (keyed) {
          auto hit = std::find_if(memo.loops.begin(), memo.loops.end(),
                                  [&](const State::MappedLoop& m) { return m.key == memo.key; });
          if (hit != memo.loops.end()) {
            st.loop.loop = hit->loop;
            st.loop.derived = hit->derived;
            if (hit->sets_pattern) {
              st.loop.pattern = hit->pattern;
              st.loop.pattern_ref = hit->pattern_ref;
            }
            break;
          }
        }
        const auto type = c.pattern_type("PatternRef");
        ParallelLoop loop(to_index(c.array("InInitIndexArray")), to_index(c.array("InLastIndexArray")),
                          to_index(c.array("InStepArray")));
        if (const std::string why = empty_loop_reason(loop); !why.empty()) {
          // Legal (the DVM runtime maps an empty loop and runs no iteration), but its dopl_
          // times cannot be divided among iterations: they are counted as ordinary calls.
          warn_once("empty-loop", fmt::format("empty loop ({}): its dopl_ times are counted as ordinary calls", why));
        }
        // The runtime's checks of the loop's range against its pattern (RTS errors 060.024–027).
        auto check_bounds = [&](std::span<const Index> sizes) {
          if (const std::string why = loop_bounds_problem(loop, sizes, align_params(c)); !why.empty()) throw error(why);
        };
        bool sets_pattern = false;
        if (type == DvmPatternType::am_view) {
          auto t = st.templates.find(c.handle("PatternRef"));
          if (t != st.templates.end() && t->second.distributed()) {
            check_bounds(t->second.sizes());
            loop.map(t->second, align_params(c));
            st.loop.pattern = type;
            st.loop.pattern_ref = c.handle("PatternRef");
            sets_pattern = true;
          }
        } else if (type == DvmPatternType::dis_array) {
          auto p = st.arrays.find(c.handle("PatternRefPtr"));
          if (p != st.arrays.end() && p->second.aligned()) {
            check_bounds(p->second.sizes());
            loop.map(p->second, align_params(c));
            st.loop.pattern = type;
            st.loop.pattern_ref = c.handle("PatternRefPtr");
            sets_pattern = true;
          }
        }
        st.loop.loop = std::make_shared<const ParallelLoop>(std::move(loop));
        st.loop.derived = std::make_shared<State::LoopDerived>();
        if (keyed) {
          State::MappedLoop entry{memo.key,     st.loop.loop,    st.loop.derived,
                                  sets_pattern, st.loop.pattern, st.loop.pattern_ref};
          if (memo.loops.size() < State::memo_capacity) {
            memo.loops.push_back(std::move(entry));
          } else {
            memo.loops[memo.next_loop] = std::move(entry);
            memo.next_loop = (memo.next_loop + 1) % State::memo_capacity;
          }
        }
        break;
      }
      case DvmFunction::dopl: {
        check_loop();
        a.io_mode = interval_flag() != 0;
        a.kind = ActionKind::silent;
        if (!st.loop.loop || !st.loop.loop->mapped()) break;
        const ParallelLoop& loop = *st.loop.loop;
        a.loop_size = loop.iteration_count(fid);
        if (a.loop_size == 0) {
          // An empty loop (mappl_ warned): no iteration to divide the time among; the call's
          // times are an ordinary call's, not lost.
          a.kind = ActionKind::regular;
          break;
        }
        if (a.call == 0) break;  // the original returns without any time
        // Every dopl_ of a loop on one processor system has the same portions (the loop is
        // fixed at mappl_): computed once per loop and system.
        State::LoopDerived& derived = *st.loop.derived;
        if (!memoise || !derived.portions || derived.portions_ps != st.current_ps) {
          if (!memoise || !derived.have_blocks) {
            derived.blocks = loop.blocks(fid);
            derived.have_blocks = true;
          }
          const auto& blocks = derived.blocks;
          const auto counts = identical_block_counts(blocks);
          const State::Ps& ps = st.systems[st.current_ps];
          auto data = std::make_shared<std::vector<std::pair<Index, int>>>(ps.members.size());
          for (std::size_t k = 0; k < ps.members.size() && k < blocks.size(); ++k) {
            (*data)[k] = {blocks[k].empty() ? 0 : blocks[k].volume(), counts[k]};
          }
          derived.portions = std::move(data);
          derived.portions_ps = st.current_ps;
        }
        a.blocks = derived.portions;
        a.kind = ActionKind::dopl;
        if (st.loop.across && st.loop.across->grid == st.systems[st.current_ps].system.sizes()) {
          // ACROSS (spec 6.4): DoPL = 1 adds the edge exchange; DoPL = 0 (the loop's body)
          // runs as a pipeline, a group operation of the system.
          const auto more = c.find_integer("DoPL", DvmSide::ret);
          if (!more) {
            throw traces::TraceError(c.trace_path(), c.trace_line(),
                                     "dopl_ of an ACROSS loop without DoPL on its ret line");
          }
          if (!derived.have_blocks) {
            derived.blocks = loop.blocks(fid);
            derived.have_blocks = true;
          }
          auto across = std::make_shared<AcrossLoop>();
          across->geometry = *st.loop.across;
          const ProcessorSystem& sys = st.systems[st.current_ps].system;
          for (int k = 0; k < sys.processor_count(); ++k) {
            AcrossProcessor p;
            p.coords = sys.coordinates(k);
            const auto at = static_cast<std::size_t>(k);
            if (at < derived.blocks.size() && !derived.blocks[at].empty()) {
              for (int x = 0; x < derived.blocks[at].rank(); ++x) p.extents.push_back(derived.blocks[at].extent(x));
            }
            across->geometry.procs.push_back(std::move(p));
            across->identical.push_back(at < a.blocks->size() ? (*a.blocks)[at].second : 1);
          }
          if (*more != 0) {
            a.across_wait = across_edge_costs(across->geometry, st.across_price).back();
          } else {
            across->loop_size = a.loop_size;
            across->call = a.call;
            across->ret = a.ret;
            Op& op = new_op(OpType::across_pipeline, OpKind::shadow);
            op.sync = false;
            op.across = std::move(across);
            a.regular_after = false;
          }
        }
        break;
      }
      case DvmFunction::endpl:
        check_loop();
        if (!st.loops_untracked) std::erase(st.live_loops, c.handle("LoopRef"));
        if (st.loop.imlast) {
          auto sh = st.shadows.find(st.loop.imlast_group);
          if (sh != st.shadows.end() && sh->second.last_start >= 0) {
            a.kind = ActionKind::endpl_imlast;
            a.op = sh->second.last_start;
          }
        }
        // The original keeps the loop's pattern until the next crtpl_ (a waitrd_ after endpl_
        // still reduces over it); only the imlast_ request ends here.
        st.loop.imlast = false;
        st.loop.across.reset();  // the ACROSS pipeline ends with its loop
        break;
      // ---------------------------------------------------------------- reductions
      case DvmFunction::crtrg:
        st.red_group_size[c.ret_handle("RedGroupRef")] = 0;
        st.red_group_ps[c.ret_handle("RedGroupRef")] = st.current_ps;
        break;
      case DvmFunction::crtred: {
        const auto elem = reduction_element_size(c.integer("RedArrayType"));
        const auto len = static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.integer("RedArrayLength")));
        const auto loc =
            static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.find_integer("LocElmLength").value_or(0)));
        // RedVar::GetSize: (element size + LocElmLength) · RedArrayLength.
        st.red_var_size[c.ret_handle("RedRef")] = (elem + loc) * len;
        break;
      }
      case DvmFunction::insred: {
        const auto g = reduction_group();
        const auto var = st.red_var_size.find(c.handle("RedRef"));
        if (var == st.red_var_size.end())
          throw not_created("RedRef", c.handle("RedRef"), "a reduction variable", "crtred_");
        st.red_group_size[g] += var->second;
        break;
      }
      case DvmFunction::delred:
        st.red_var_size.erase(c.handle("RedRef"));
        break;
      case DvmFunction::delrg: {
        const auto g = reduction_group();
        st.red_group_size.erase(g);
        st.red_group_ps.erase(g);
        break;
      }
      case DvmFunction::strtrd: {
        const auto g = reduction_group();
        Op& op = new_op(OpType::reduce_start, OpKind::reduction);
        st.red_group_start[g] = static_cast<std::int64_t>(op.id - 1);
        break;
      }
      case DvmFunction::waitrd: {
        const auto g = reduction_group();
        const auto start = st.red_group_start.count(g) ? st.red_group_start[g] : -1;
        Op& op = new_op(OpType::reduce_wait, OpKind::reduction);
        op.start_op = start;
        op.total_size = st.red_group_size[g];
        const State::Ps& ps = st.systems[op.ps];
        if (options_.cost == CostStyle::seed) {
          // StartR of the seed (spec 6.2): priced by the machine over the group's processor
          // system (the current one at crtrg_) with the grid dimensions the most recently mapped
          // loop is split along: those of the distributed template axes a loop axis maps onto.
          const auto gps = st.red_group_ps.find(g);
          const State::Ps& group = st.systems[gps == st.red_group_ps.end() ? op.ps : gps->second];
          op.grid.shape = group.system.sizes();
          op.grid.processors = group.members;
          op.split.assign(op.grid.shape.size(), false);
          if (st.loop.loop && st.loop.loop->mapped()) {
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
          break;
        }
        // The holders depend on the pattern array's blocks and the system only: the same for
        // every waitrd_ of a pattern between two geometry changes.
        State::Memo& memo = st.memo;
        if (memoise && memo.have_holders && memo.holders_pattern == st.loop.pattern &&
            memo.holders_ref == st.loop.pattern_ref && memo.holders_ps == op.ps) {
          op.holders = memo.holders;
          break;
        }
        auto holders = std::make_shared<std::vector<bool>>(ps.members.size(), false);
        if (st.loop.pattern == DvmPatternType::dis_array) {
          auto p = st.arrays.find(st.loop.pattern_ref);
          if (p != st.arrays.end() && p->second.aligned()) {
            for (std::size_t k = 0; k < ps.members.size(); ++k) {
              (*holders)[k] = !p->second.block(static_cast<int>(k), fid).empty();
            }
          }
        }
        op.holders = holders;
        if (memoise) {
          memo.have_holders = true;
          memo.holders_pattern = st.loop.pattern;
          memo.holders_ref = st.loop.pattern_ref;
          memo.holders_ps = op.ps;
          memo.holders = std::move(holders);
        }
        break;
      }
      // ---------------------------------------------------------------- shadows
      case DvmFunction::crtshg:
        st.shadows[c.ret_handle("ShadowGroupRef")] = State::Shadow{};
        break;
      case DvmFunction::inssh:
      case DvmFunction::insshd:
      case DvmFunction::incsh:
      case DvmFunction::incshd: {
        auto g = shadow_group();
        auto arr = st.arrays.find(c.handle("ArrayHeader"));
        if (arr == st.arrays.end() || !arr->second.aligned()) break;
        const DistributedArray& da = arr->second;
        ShadowWidths w;
        const bool inc = c.function() == DvmFunction::incsh || c.function() == DvmFunction::incshd;
        if (inc) {
          const auto il = c.array("InitLowShdIndex"), ll = c.array("LastLowShdIndex");
          const auto ih = c.array("InitHiShdIndex"), lh = c.array("LastHiShdIndex");
          for (std::size_t d = 0; d < il.size(); ++d) {
            w.low.push_back(il[d] == -1 ? (ll[d] == -1 ? da.low_shadow(static_cast<int>(d)) : ll[d])
                                        : ll[d] - il[d] + 1);
            w.high.push_back(ih[d] == -1 ? (lh[d] == -1 ? da.high_shadow(static_cast<int>(d)) : lh[d])
                                         : lh[d] - ih[d] + 1);
          }
        } else {
          w.low = to_index(c.array("LowShdWidthArray"));
          w.high = to_index(c.array("HiShdWidthArray"));
        }
        const bool corner_call = c.function() == DvmFunction::inssh || c.function() == DvmFunction::incsh;
        w.corners = corner_call && c.find_integer("FullShdSign").value_or(0) == 1;
        {
          // ACROSS (spec 6.4): the widths facing each neighbour along the grid dimensions.
          State::Shadow& sh = g->second;
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
        // The matrix depends on the array's blocks and the widths only: the same for every
        // such call between two geometry changes.
        std::shared_ptr<const TransferMatrix> m;
        State::Memo& memo = st.memo;
        if (memoise) {
          memo.key.clear();
          memo.key.push_back(static_cast<std::int64_t>(arr->first));
          add_key(memo.key, w.low);
          add_key(memo.key, w.high);
          memo.key.push_back(w.corners ? 1 : 0);
          auto hit = std::find_if(memo.shadows.begin(), memo.shadows.end(),
                                  [&](const State::ShadowMemo& e) { return e.key == memo.key; });
          if (hit != memo.shadows.end()) m = hit->matrix;
        }
        if (!m) {
          m = std::make_shared<const TransferMatrix>(shadow_matrix(da, w, fid).to_root(da.system()));
          if (memoise) {
            State::ShadowMemo entry{memo.key, m};
            if (memo.shadows.size() < State::memo_capacity) {
              memo.shadows.push_back(std::move(entry));
            } else {
              memo.shadows[memo.next_shadow] = std::move(entry);
              memo.next_shadow = (memo.next_shadow + 1) % State::memo_capacity;
            }
          }
        }
        // The group's matrix: T of its first array shared as is, a sum from the second on.
        auto& group = g->second.matrix;
        if (!group && m->size() == root_count_) {
          group = std::move(m);
        } else {
          auto sum = std::make_shared<TransferMatrix>(group ? *group : TransferMatrix(root_count_));
          *sum += *m;
          group = std::move(sum);
        }
        break;
      }
      case DvmFunction::delshg:
        st.shadows.erase(shadow_group());
        break;
      case DvmFunction::strtsh:
      case DvmFunction::exfrst: {
        auto g = shadow_group();
        Op& op = new_op(OpType::shadow_start, OpKind::shadow);
        op.divide_by_p = c.function() == DvmFunction::strtsh && options_.cost == CostStyle::predictor31;
        op.shared_matrix = g->second.matrix;
        g->second.last_start = static_cast<std::int64_t>(op.id - 1);
        break;
      }
      case DvmFunction::waitsh: {
        auto g = shadow_group();
        if (g->second.last_start >= 0) {
          a.kind = ActionKind::shadow_wait;
          a.op = g->second.last_start;
          g->second.last_start = -1;
        }
        break;
      }
      case DvmFunction::imlast:
        st.loop.imlast = true;
        st.loop.imlast_group = shadow_group()->first;
        break;
      case DvmFunction::across: {
        // ACROSS (spec 6.4): a synchronisation of the system (one shadow operation) now; the
        // loop's dopl_ calls then run the edge exchange (DoPL = 1) and the pipeline (DoPL = 0)
        // over the grid dimensions the loop is split along, with the new group's widths.
        const auto new_ref = c.handle("NewShadowGroupRef");
        const auto old_ref = c.find_handle("OldShadowGroupRef").value_or(0);
        auto fresh = st.shadows.find(new_ref);
        if (fresh == st.shadows.end()) {
          throw traces::TraceError(
              c.trace_path(), c.trace_line(),
              fmt::format("across_: NewShadowGroupRef={:x} is not a shadow group (no crtshg_ returned it)", new_ref));
        }
        if (old_ref != 0 && !st.shadows.count(old_ref)) {
          throw traces::TraceError(
              c.trace_path(), c.trace_line(),
              fmt::format("across_: OldShadowGroupRef={:x} is not a shadow group (no crtshg_ returned it)", old_ref));
        }
        if (!st.loop.loop) {
          throw traces::TraceError(c.trace_path(), c.trace_line(),
                                   "across_ outside a parallel loop: no crtpl_ and mappl_ before it");
        }
        new_op(OpType::across, OpKind::shadow);
        st.loop.across.reset();
        const ParallelLoop& loop = *st.loop.loop;
        if (!loop.mapped()) break;
        AcrossGeometry geo;
        geo.grid = loop.system().sizes();
        geo.dims.resize(geo.grid.size());
        geo.type_size = fresh->second.type_size > 0 ? fresh->second.type_size : 8;
        const Template& t = loop.distribution();
        const auto& rules = loop.rules();
        for (int ax = 0; ax < t.rank() && ax < static_cast<int>(rules.size()); ++ax) {
          const AxisRule& r = rules[static_cast<std::size_t>(ax)];
          const int dim = t.dim_of_axis(ax);
          if (r.kind != AxisRuleKind::linear || dim < 0 || dim >= static_cast<int>(geo.dims.size()) || r.coeff == 0)
            continue;
          AcrossDim& d = geo.dims[static_cast<std::size_t>(dim)];
          d.axis = r.source_axis;
          // The sweep goes to higher coordinates when the loop variable and the template index
          // grow together; the successor then needs the shadow facing its lower neighbour.
          d.direction = (r.coeff > 0) == (loop.step(r.source_axis) > 0) ? 1 : -1;
          const auto& facing = d.direction > 0 ? fresh->second.toward_lower : fresh->second.toward_upper;
          const auto at = static_cast<std::size_t>(dim);
          d.width = at < facing.size() ? facing[at] : 0;
        }
        st.loop.across = std::move(geo);
        break;
      }
      case DvmFunction::sendsh:
        new_op(OpType::across, OpKind::shadow).sync = false;
        break;
      // ---------------------------------------------------------------- remote buffers
      case DvmFunction::crtrbl: {
        auto arr = st.arrays.find(c.handle("RemArrayHeader"));
        Op& op = new_op(OpType::remote_buffer, OpKind::remote_access);
        op.sync = false;
        st.buffers[c.handle("BufferHeader")] = static_cast<std::int64_t>(op.id - 1);
        if (arr == st.arrays.end() || !arr->second.aligned() || !st.loop.loop || !st.loop.loop->mapped()) break;
        const DistributedArray& da = arr->second;
        State::LoopDerived& derived = *st.loop.derived;
        if (!memoise || !derived.have_blocks) {
          derived.blocks = st.loop.loop->blocks(fid);
          derived.have_blocks = true;
        }
        const auto& loop_blocks = derived.blocks;
        const AlignParams params = align_params(c);
        std::vector<Block> regions;
        for (const Block& lb : loop_blocks) {
          regions.push_back(lb.empty() ? Block::empty_of_rank(da.rank())
                                       : remote_buffer_region(da.sizes(), params, lb));
        }
        regions.resize(static_cast<std::size_t>(da.system().processor_count()), Block::empty_of_rank(da.rank()));
        op.matrix = copy_distributed_matrix(da.system(), da.blocks(fid), regions, da.type_size(), Sources::every)
                        .to_root(da.system());
        break;
      }
      case DvmFunction::loadrb:
      case DvmFunction::waitrb: {
        auto b = st.buffers.find(c.handle("BufferHeader"));
        if (b == st.buffers.end()) break;
        a.kind = c.function() == DvmFunction::loadrb ? ActionKind::buffer_load : ActionKind::buffer_wait;
        a.op = b->second;
        break;
      }
      // ---------------------------------------------------------------- I/O functions
      default:
        if (c.function() >= DvmFunction::dvm_fopen && c.function() < DvmFunction::biof) {
          a.io_mode = interval_flag() != 0;
          a.kind = ActionKind::io_call;
        }
        break;
    }
  } catch (const std::invalid_argument& e) {
    // The model's messages often name the Lib-DVM function they check ("crtps_: …", or "align_: …"
    // under realn_): the call's own name is written once, in front.
    throw error(std::string(without_function_prefix(e.what())));
  }
  if (a.kind != ActionKind::interval_enter && a.kind != ActionKind::interval_exit &&
      c.function() != DvmFunction::biof && c.function() != DvmFunction::eiof) {
    a.io_mode = interval_flag() != 0;
  }
  // Who refers to which operation, so that release() keeps it as long as needed.
  if (a.op >= 0) {
    Op& named = st.op(static_cast<std::uint64_t>(a.op));
    named.last_action = std::max(named.last_action, action_index + 1);
  }
  for (std::uint64_t i = first_new_op; i < st.ops_base + st.ops.size(); ++i) {
    const Op& op = st.op(i);
    if (op.start_op < 0) continue;
    Op& start = st.op(static_cast<std::uint64_t>(op.start_op));
    start.last_op = std::max(start.last_op, i + 1);
  }
  st.actions.push_back(std::move(a));
  st.peak_actions = std::max(st.peak_actions, st.actions.size());
  st.peak_ops = std::max(st.peak_ops, st.ops.size() + st.retained.size());
  return true;
}

// ------------------------------------------------------------------------------------------
// Replay on one LP.
// ------------------------------------------------------------------------------------------

namespace {

struct Emitter {
  engine::Scheduler& s;
  LpId lp;

  void emit(EventKind kind, SimTime before, SimTime after, std::uint8_t detail, std::int32_t tag,
            std::uint8_t internal = 0, SimTime waited = 0, std::int32_t peer = -1) {
    Event e;
    e.clock_before = before;
    e.clock_after = after;
    e.waited = waited;
    e.lp = lp;
    e.peer = peer;
    e.tag = tag;
    e.kind = kind;
    e.detail = detail;
    e.internal = internal;
    s.lp(lp).clock = after;
    if (s.has_observers()) s.emit(e);
  }
  SimTime clock() const { return s.lp(lp).clock; }
};

}  // namespace

engine::StepResult DvmProgram::run_action(LpId lp, const Action& a, engine::Scheduler& s) {
  State& st = *state_;
  State::Lp& me = st.lps[lp];
  const State::Ps& ps = st.systems[a.ps];
  const int pos = ps.position[lp];
  const int P = static_cast<int>(ps.members.size());
  Emitter out{s, lp};

  // Time of the current processor in the original's AddTime: in I/O mode (biof_ … eiof_) only
  // processor 0 advances, as I/O time; every other processor's share is dropped.
  auto add = [&](ComputeCategory cat, double dt, int replicas) {
    if (a.io_mode) {
      if (lp != 0) return;
      const double insuff = replicas > 1 ? dt * (replicas - 1.0) / replicas : 0.0;
      const SimTime t = out.clock();
      out.emit(EventKind::compute, t, t + dt + insuff, static_cast<std::uint8_t>(ComputeCategory::io), 1);
      return;
    }
    const SimTime t = out.clock();
    out.emit(EventKind::compute, t, t + dt, static_cast<std::uint8_t>(cat), replicas);
  };
  auto regular = [&]() {
    if (pos < 0) return;
    add(ComputeCategory::user, machine_.scaled_time(lp, a.call), P);
    if (a.ret != 0.0) add(ComputeCategory::system, machine_.scaled_time(lp, a.ret), P);
  };
  auto local_wait = [&](const Op& op) {
    // waitsh_ / imlast_ at endpl_: overlap = clock − t0; communication = t1 − clock if positive.
    const SimTime c = out.clock();
    const SimTime after = c < op.t1 ? op.t1 : c;
    out.emit(EventKind::collective_wait, c, after, static_cast<std::uint8_t>(op.kind), static_cast<std::int32_t>(op.id),
             0, after - c);
  };

  switch (a.kind) {
    case ActionKind::silent:
      if (a.share && pos >= 0) {  // arrcpy_ replicated → distributed: the user-time split only
        const double v = machine_.scaled_time(lp, a.call);
        const double sh = (*a.share)[static_cast<std::size_t>(pos)];
        if (sh > 0) add(ComputeCategory::user, v * sh, 1);
      }
      break;
    case ActionKind::regular:
      regular();
      break;
    case ActionKind::interval_enter:
    case ActionKind::interval_exit:
      regular();
      me.interval = a.interval;
      {
        const SimTime t = out.clock();
        out.emit(a.kind == ActionKind::interval_enter ? EventKind::interval_enter : EventKind::interval_exit, t, t, 0,
                 a.interval);
      }
      break;
    case ActionKind::io_call:
      if (lp == 0) {
        // The I/O processor (processor 0 of the root system) does the I/O: IO_time += vret_0.
        const SimTime t = out.clock();
        out.emit(EventKind::compute, t, t + machine_.scaled_time(0, a.ret),
                 static_cast<std::uint8_t>(ComputeCategory::io), 1, 1);
      }
      regular();
      break;
    case ActionKind::io_mark:
      if (lp == 0) {
        const SimTime t = out.clock();
        out.emit(EventKind::compute, t, t, static_cast<std::uint8_t>(ComputeCategory::io), 1, 1);
      }
      regular();
      break;
    case ActionKind::dopl: {
      if (pos < 0) break;
      if (a.across_wait > 0) {
        // ACROSS, DoPL = 1: the edge exchange's cost on every processor (Wait_shadow).
        const SimTime c = out.clock();
        out.emit(EventKind::collective_wait, c, c + a.across_wait, static_cast<std::uint8_t>(OpKind::shadow), 0, 2, 0);
      }
      const auto [iters, cnt] = (*a.blocks)[static_cast<std::size_t>(pos)];
      if (iters > 0) {
        // t_i = vcall_i · N_i / N on every processor with iterations; identical blocks on cnt
        // processors: (cnt − 1)/cnt of it is insufficient parallelism.
        const double t =
            machine_.scaled_time(lp, a.call) * (static_cast<double>(iters) / static_cast<double>(a.loop_size));
        if (a.io_mode) {
          add(ComputeCategory::user, t, cnt);
        } else {
          const SimTime c = out.clock();
          out.emit(EventKind::loop_block, c, c + t, 0, std::max(cnt, 1));
        }
      }
      add(ComputeCategory::system, machine_.scaled_time(lp, a.ret), P);
      break;
    }
    case ActionKind::shadow_wait:
    case ActionKind::endpl_imlast:
      if (pos >= 0) local_wait(st.op(static_cast<std::uint64_t>(a.op)));
      regular();
      break;
    case ActionKind::buffer_load:
    case ActionKind::buffer_wait: {
      if (pos >= 0) {
        Op& op = st.op(static_cast<std::uint64_t>(a.op));
        const SimTime c = out.clock();
        const auto r = static_cast<std::size_t>(lp);
        const std::uint8_t count = pos == 0 ? 1 : 0;
        if (op.load_start.empty()) {
          op.load_start.assign(static_cast<std::size_t>(root_count_), 0);
          op.load_end.assign(static_cast<std::size_t>(root_count_), 0);
        }
        if (a.kind == ActionKind::buffer_load) {
          // loadrb_: the transfer of processor p runs from its clock for its stamp.
          op.load_start[r] = c;
          op.load_end[r] = (op.stamps.empty() ? 0 : op.stamps[r]) + c;
          out.emit(EventKind::collective_wait, c, c, static_cast<std::uint8_t>(OpKind::remote_access), 0, count, 0);
        } else if (c < op.load_end[r]) {
          out.emit(EventKind::collective_wait, c, op.load_end[r], static_cast<std::uint8_t>(OpKind::remote_access), 0,
                   static_cast<std::uint8_t>(count | 2), c - op.load_start[r]);
        } else {
          out.emit(EventKind::collective_wait, c, c, static_cast<std::uint8_t>(OpKind::remote_access), 0,
                   static_cast<std::uint8_t>(count | 2), op.load_end[r] - op.load_start[r]);
        }
      }
      regular();
      break;
    }
    case ActionKind::copy_wait: {
      if (pos >= 0) {
        const Op& op = st.op(static_cast<std::uint64_t>(a.op));
        const SimTime c = out.clock();
        const SimTime stamp = op.stamps.empty() ? 0 : op.stamps[lp];
        const bool first = pos == 0;
        if (stamp > 0 && c < op.t0 + stamp) {
          if (c < op.t0) {
            out.emit(EventKind::sync_all, c, c, static_cast<std::uint8_t>(OpKind::remote_access), 1, 0, op.t0 - c);
          }
          const SimTime w = std::max(op.t0 + stamp - c, stamp);
          out.emit(EventKind::collective_wait, c, c + w, static_cast<std::uint8_t>(OpKind::remote_access), 0,
                   first ? 1 : 0, w);
        } else if (first) {
          out.emit(EventKind::collective_wait, c, c, static_cast<std::uint8_t>(OpKind::remote_access), 0, 1, 0);
        }
      }
      break;
    }
    case ActionKind::op: {
      if (pos < 0) break;
      Op& op = st.op(static_cast<std::uint64_t>(a.op));
      if (!me.op_done) {
        if (!me.arrived) {
          // arrcpy_: the user-time split comes before the synchronisation.
          if (a.share) {
            const double v = machine_.scaled_time(lp, a.call);
            const double sh = (*a.share)[static_cast<std::size_t>(pos)];
            if (sh > 0) add(ComputeCategory::user, v * sh, 1);
            if ((*a.share_insuff)[static_cast<std::size_t>(pos)]) {
              const SimTime c = out.clock();
              // Replicated target: the assignment is repeated on every other holder (pure loss).
              out.emit(EventKind::compute, c, c, static_cast<std::uint8_t>(ComputeCategory::user), 0, 0,
                       v);  // tag 0: loss only
            }
          }
          me.arrived = true;
          ++op.arrived;
        }
        execute_ready_ops(s);
        if (!me.op_done) return StepResult::blocked;
      }
      me.arrived = false;
      me.op_done = false;
      if (a.regular_after) regular();
      break;
    }
  }
  return StepResult::advanced;
}

void DvmProgram::execute_ready_ops(engine::Scheduler& s) {
  State& st = *state_;
  while (st.next_op < st.ops_base + st.ops.size()) {
    Op& op = st.op(st.next_op);
    const auto& members = st.systems[op.ps].members;
    if (op.arrived < static_cast<int>(members.size())) return;
    execute_op(op, s);
    op.done = true;
    ++st.next_op;
    for (int m : members) {
      st.lps[static_cast<std::size_t>(m)].op_done = true;
      s.wake(static_cast<LpId>(m), s.lp(static_cast<LpId>(m)).clock);
    }
  }
}

void DvmProgram::execute_op(Op& op, engine::Scheduler& s) {
  State& st = *state_;
  const auto& members = st.systems[op.ps].members;
  const int P = static_cast<int>(members.size());
  const auto kind = static_cast<std::uint8_t>(op.kind);
  auto clock = [&](int root) { return s.lp(static_cast<LpId>(root)).clock; };
  // Every root processor's clock (a buffer reused from operation to operation).
  auto clocks = [&]() -> const std::vector<SimTime>& {
    st.clocks.resize(static_cast<std::size_t>(root_count_));
    for (int p = 0; p < root_count_; ++p) st.clocks[static_cast<std::size_t>(p)] = clock(p);
    return st.clocks;
  };
  auto synchronise = [&]() {
    // MPSSynchronize: every processor waits for the latest one (synchronization of this kind,
    // counted as its communication).
    SimTime latest = 0;
    int last = members.front();  // the latest processor (the lowest number among equals): the one waited for
    for (int m : members) {
      if (clock(m) > latest) {
        latest = clock(m);
        last = m;
      }
    }
    for (int m : members) {
      Emitter out{s, static_cast<LpId>(m)};
      const SimTime c = out.clock();
      if (op.io_mode) {
        // Inside biof_ … eiof_ the original counts the synchronisation but only processor 0
        // advances (as I/O time); the others' share is dropped.
        out.emit(EventKind::sync_all, c, c, kind, 2, 0, latest - c);
        if (m == 0) out.emit(EventKind::compute, c, latest, static_cast<std::uint8_t>(ComputeCategory::io), 1);
        continue;
      }
      out.emit(EventKind::sync_all, c, latest, kind, 0, 0, latest - c, last);
    }
  };
  // Communication time `cost` added to every member (AddMPSTime of the kind).
  auto communicate = [&](SimTime cost, std::int32_t tag) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      Emitter out{s, static_cast<LpId>(members[k])};
      const SimTime c = out.clock();
      if (op.io_mode) {
        if (k == 0) out.emit(EventKind::collective_wait, c, c, kind, 0, 1, 0);
        if (members[k] == 0)
          out.emit(EventKind::compute, c, c + cost, static_cast<std::uint8_t>(ComputeCategory::io), 1);
        continue;
      }
      out.emit(EventKind::collective_wait, c, c + cost, kind, tag, k == 0 ? 1 : 0, cost);
    }
  };
  auto matrix_cost = [&](std::vector<SimTime>* end_per_proc) -> SimTime {
    const TransferMatrix& m = op.transfers();
    if (m.size() == 0 || m.empty()) return 0;
    return machine_.matrix_cost_at(as_rows(m, st.rows), clocks(), end_per_proc);
  };
  auto start_events = [&](SimTime t0) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      Emitter out{s, static_cast<LpId>(members[k])};
      const SimTime c = out.clock();
      out.emit(EventKind::collective_start, c, c, kind, static_cast<std::int32_t>(op.id), k == 0 ? 1 : 0);
      (void)t0;
    }
  };
  // Per processor: how long its part of a matrix takes from the operation's start (the stamps of
  // aarrcp_ and remote buffers). 3.1's GetCost gives absolute ends from the senders' clocks; the
  // seed's machines price the matrix from time 0, so their ends are already durations.
  auto stamps = [&](const std::vector<SimTime>& ends, const std::vector<SimTime>& before) {
    std::vector<SimTime> out(static_cast<std::size_t>(root_count_), 0);
    for (std::size_t i = 0; i < out.size() && i < ends.size(); ++i) {
      if (options_.cost == CostStyle::seed)
        out[i] = ends[i];
      else if (ends[i] > before[i])
        out[i] = ends[i] - before[i];
    }
    return out;
  };
  // The original takes the start of an operation from processor 0's clock.
  auto first_clock = [&]() { return st.systems[op.ps].position[0] >= 0 ? clock(0) : clock(members.front()); };

  switch (op.type) {
    case OpType::reduce_start:
      synchronise();
      op.t0 = first_clock();
      start_events(op.t0);
      break;
    case OpType::reduce_wait: {
      const std::int32_t tag =
          op.start_op >= 0 ? static_cast<std::int32_t>(st.op(static_cast<std::uint64_t>(op.start_op)).id) : 0;
      if (options_.cost == CostStyle::seed) {
        // The seed's waitrd_: t1 = t0 + StartR (the machine's grid reduction); a processor whose
        // clock c is below t1 waits t1 − c; the overlap c − t0 comes from the start's event.
        const SimTime t0 = op.start_op >= 0 ? st.op(static_cast<std::uint64_t>(op.start_op)).t0 : first_clock();
        const SimTime t1 = t0 + machine_.grid_reduction_time(op.grid, op.split, op.total_size);
        for (int m : members) {
          Emitter out{s, static_cast<LpId>(m)};
          const SimTime c = out.clock();
          const SimTime after = c < t1 ? t1 : c;
          out.emit(EventKind::collective_wait, c, after, kind, tag, 0, after - c);
        }
        break;
      }
      // Predictor 3.1 StartR: every processor holding part of the loop's pattern sends the
      // reduction variables to processor 0, which sends the result back; the reduction ends
      // when the last message arrives.
      SimTime end = 0;
      for (int k = 1; k < P; ++k) {
        if (!(*op.holders)[static_cast<std::size_t>(k)]) continue;
        machine_.transfer(members[static_cast<std::size_t>(k)], members[0], op.total_size,
                          clock(members[static_cast<std::size_t>(k)]));
      }
      for (int k = 1; k < P; ++k) {
        if (!(*op.holders)[static_cast<std::size_t>(k)]) continue;
        const auto t =
            machine_.transfer(members[0], members[static_cast<std::size_t>(k)], op.total_size, clock(members[0]));
        end = std::max(end, t.arrival);
      }
      // Every processor's completion depends on processor 0's entry (it sends the result): the
      // part of the wait before that entry is waiting for processor 0, the rest the transfer.
      const SimTime root_entry = clock(members[0]);
      for (int m : members) {
        Emitter out{s, static_cast<LpId>(m)};
        const SimTime c = out.clock();
        const SimTime after = c < end ? end : c;
        const SimTime waiting = std::clamp(root_entry - c, SimTime{0}, after - c);
        out.emit(EventKind::collective_wait, c, after, kind, tag, 0, waiting, members[0]);
      }
      break;
    }
    case OpType::shadow_start: {
      const SimTime cost = matrix_cost(nullptr);
      synchronise();
      op.t0 = first_clock();
      op.t1 = op.t0 + (op.divide_by_p ? cost / P : cost);
      start_events(op.t0);
      break;
    }
    case OpType::realign:
    case OpType::copy: {
      const SimTime cost = matrix_cost(nullptr);
      synchronise();
      communicate(cost, 0);
      break;
    }
    case OpType::async_copy: {
      std::vector<SimTime> ends(static_cast<std::size_t>(root_count_), 0);
      const std::vector<SimTime> before = clocks();
      const SimTime cost = matrix_cost(&ends);
      op.t0 = first_clock();
      op.t1 = op.t0 + cost;
      op.stamps = stamps(ends, before);
      for (std::size_t k = 0; k < members.size(); ++k) {
        Emitter out{s, static_cast<LpId>(members[k])};
        const SimTime c = out.clock();
        out.emit(EventKind::collective_start, c, c, kind, static_cast<std::int32_t>(op.id), k == 0 ? 1 : 0);
      }
      break;
    }
    case OpType::io_sync:
      synchronise();
      if (options_.cost == CostStyle::seed) {
        // srmem_ of the seed: after the synchronisation, processor k of the system is busy
        // receiving for the machine's broadcast time Δ_k (IO communication, not an operation).
        const auto delta = machine_.broadcast_times(members, op.io_bytes);
        for (std::size_t k = 0; k < members.size(); ++k) {
          Emitter out{s, static_cast<LpId>(members[k])};
          const SimTime c = out.clock();
          if (op.io_mode) {
            // Inside biof_ … eiof_ only processor 0 advances, as I/O time.
            if (members[k] == 0)
              out.emit(EventKind::compute, c, c + delta[k], static_cast<std::uint8_t>(ComputeCategory::io), 1);
            continue;
          }
          out.emit(EventKind::collective_wait, c, c + delta[k], kind, 0, 0, delta[k]);
        }
      }
      break;
    case OpType::remote_buffer: {
      // crtrbl_: the buffer's messages are priced now; each processor keeps the time from its
      // clock to the last arrival of a message it takes part in (the original's stamps).
      std::vector<SimTime> ends(static_cast<std::size_t>(root_count_), 0);
      const std::vector<SimTime> before = clocks();
      matrix_cost(&ends);
      op.stamps = stamps(ends, before);
      for (std::size_t k = 0; k < members.size(); ++k) {
        Emitter out{s, static_cast<LpId>(members[k])};
        const SimTime c = out.clock();
        out.emit(EventKind::collective_wait, c, c, kind, 0, k == 0 ? 1 : 0, 0);
      }
      break;
    }
    case OpType::across:
      if (op.sync) synchronise();
      start_events(first_clock());
      break;
    case OpType::across_pipeline: {
      // The dopl_ ending an ACROSS loop (spec 6.4): the spread of the clocks is a potential loss
      // (Synchronization of Shadow, clocks unchanged); the pipeline gives each processor its
      // waits for the predecessors' faces (Wait_shadow) and its iterations (CPU usr); the spread
      // of the finishing times is the Time variation of Shadow (clocks unchanged); then the
      // ret TIME as system time on every processor.
      const AcrossLoop& al = *op.across;
      SimTime latest = 0;
      for (int m : members) latest = std::max(latest, clock(m));
      std::vector<double> loop_time, start;
      for (int m : members) {
        Emitter out{s, static_cast<LpId>(m)};
        const SimTime c = out.clock();
        out.emit(EventKind::sync_all, c, c, kind, 2, 0, latest - c);
        loop_time.push_back(machine_.scaled_time(m, al.call));
        start.push_back(c);
      }
      const AcrossRun run = across_pipeline(al.geometry, st.across_price, loop_time, al.loop_size, start);
      SimTime done = 0;
      for (std::size_t k = 0; k < members.size(); ++k) {
        Emitter out{s, static_cast<LpId>(members[k])};
        SimTime c = out.clock();
        if (run.wait[k] > 0) out.emit(EventKind::collective_wait, c, c + run.wait[k], kind, 0, 2, 0);
        c = out.clock();
        if (run.compute[k] > 0) out.emit(EventKind::loop_block, c, c + run.compute[k], 0, std::max(al.identical[k], 1));
        done = std::max(done, out.clock());
      }
      for (std::size_t k = 0; k < members.size(); ++k) {
        Emitter out{s, static_cast<LpId>(members[k])};
        const SimTime c = out.clock();
        out.emit(EventKind::sync_all, c, c, kind, 3, 0, done - c);
        const SimTime r = machine_.scaled_time(members[k], al.ret);
        out.emit(EventKind::compute, c, c + r, static_cast<std::uint8_t>(ComputeCategory::system), P);
      }
      break;
    }
  }
}

// ------------------------------------------------------------------------------------------

engine::StepResult DvmProgram::step(LpId lp, engine::Scheduler& s) {
  State& st = *state_;
  State::Lp& me = st.lps[lp];
  while (me.cursor >= st.base + st.actions.size()) {
    try {
      if (!decode_next()) {
        const SimTime c = s.lp(lp).clock;
        Emitter{s, lp}.emit(EventKind::finish, c, c, 0, 0);
        return StepResult::done;
      }
    } catch (const std::exception& e) {
      s.fail(lp, e.what());
      return StepResult::done;
    }
    if ((st.decoded & 255) == 0) {
      std::uint64_t lowest = me.cursor;
      for (const auto& l : st.lps) lowest = std::min(lowest, l.cursor);
      release(lowest);
    }
  }
  const Action& a = st.actions[static_cast<std::size_t>(me.cursor - st.base)];
  statements_[lp] = a.statement;
  const StepResult r = run_action(lp, a, s);
  if (r == StepResult::blocked) return r;
  ++me.cursor;
  return StepResult::advanced;
}

void DvmProgram::release(std::uint64_t upto) {
  State& st = *state_;
  while (st.base < upto && !st.actions.empty()) {
    st.actions.pop_front();
    ++st.base;
  }
  // Operations, oldest first: one that has run can go when no live action (index ≥ base) and no
  // operation still to run (index ≥ next_op) names it. One that a handle map still names
  // (a reduction group's last start, a shadow group's, a copy flag, a remote buffer) may be
  // named again by a later call: it moves to `retained` until the map lets go of it.
  auto unnamed = [&](const Op& op) { return op.last_action <= st.base && op.last_op <= st.next_op; };
  st.held.clear();
  for (const auto& [ref, start] : st.red_group_start) st.held.push_back(static_cast<std::uint64_t>(start));
  for (const auto& [ref, shadow] : st.shadows) {
    if (shadow.last_start >= 0) st.held.push_back(static_cast<std::uint64_t>(shadow.last_start));
  }
  for (const auto& [ref, op] : st.copy_flags) st.held.push_back(static_cast<std::uint64_t>(op));
  for (const auto& [ref, op] : st.buffers) st.held.push_back(static_cast<std::uint64_t>(op));
  std::sort(st.held.begin(), st.held.end());
  auto held = [&](std::uint64_t index) { return std::binary_search(st.held.begin(), st.held.end(), index); };
  while (!st.ops.empty() && st.ops_base < st.next_op && unnamed(st.ops.front())) {
    if (held(st.ops_base)) st.retained.emplace(st.ops_base, std::move(st.ops.front()));
    st.ops.pop_front();
    ++st.ops_base;
  }
  for (auto it = st.retained.begin(); it != st.retained.end();) {
    if (!held(it->first) && unnamed(it->second))
      it = st.retained.erase(it);
    else
      ++it;
  }
}

DvmProgram::Footprint DvmProgram::footprint() const {
  const State& st = *state_;
  return {st.actions.size(), st.ops.size() + st.retained.size(), st.peak_actions, st.peak_ops};
}

engine::WaitInfo DvmProgram::waits_for(LpId lp) const {
  engine::WaitInfo w;
  const State& st = *state_;
  const Action* a = action_at(st.lps[lp].cursor);
  w.kind = engine::WaitInfo::Kind::collective;
  if (a != nullptr && a->kind == ActionKind::op) {
    for (int m : st.systems[a->ps].members) {
      if (!st.lps[static_cast<std::size_t>(m)].arrived) w.peers.push_back(m);
    }
  }
  w.what = "a group operation of its processor system";
  return w;
}

std::string DvmProgram::describe(LpId lp) const {
  const State& st = *state_;
  return fmt::format("DVM processor {}: call {} of the trace, interval {}", lp, st.lps[lp].cursor, st.lps[lp].interval);
}

void DvmProgram::close_intervals() {
  State& st = *state_;
  for (int id = 2; id < static_cast<int>(st.active_at_exit.size()); ++id) {
    analysis::Interval* in = tree_.by_id(id);
    if (in != nullptr && !st.active_at_exit[static_cast<std::size_t>(id)].empty()) {
      analysis::IntervalTree::close_interval(*in, st.active_at_exit[static_cast<std::size_t>(id)]);
    }
  }
  // The original closes the interval current at the end over the current processor system.
  analysis::IntervalTree::close_interval(tree_.current(), st.systems[st.current_ps].members);
}

const analysis::Interval* DvmProgram::report_root() const { return &tree_.current(); }

}  // namespace augur::models::dvm
