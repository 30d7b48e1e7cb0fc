// The DVM model's runtime state (internal to models/dvm): the decoded calls (Action), the group
// operations (Op) and everything decoding keeps between calls (State). Included by the model's
// .cpp files only; DvmProgram's interface is dvm_program.hpp.
#pragma once
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim_time.hpp"
#include "models/dvm/across.hpp"
#include "models/dvm/across31.hpp"
#include "models/dvm/dvm_program.hpp"

namespace augur::models::dvm {

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
  across_edges,  ///< 3.1's DoPL = 1 edge exchange, then the dopl_'s own times
};

/// The dopl_ that ends an ACROSS loop (spec 6.4): the loop's geometry and times for the pipeline.
struct AcrossLoop {
  AcrossGeometry geometry;
  std::vector<int> identical;  ///< per position: processors with the same block (insufficient parallelism)
  Index loop_size = 0;
  double call = 0;  ///< the loop's time (the dopl_'s call TIME, unscaled)
  double ret = 0;
  /// predictor31: 3.1's view of the loop (across31.hpp) and, per position, (iterations,
  /// identical blocks) for the dopl_'s own times.
  bool predictor31 = false;
  Across31Loop loop31;
  std::shared_ptr<const std::vector<std::pair<Index, int>>> blocks;
};

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
  /// Where the call is in the program: analysis::statement_key of the trace's FILE= (by the
  /// reader's file id) and LINE=.
  std::uint64_t statement = 0;
};

/// A group operation: a barrier of the processors of `ps`.
struct DvmProgram::Op {
  OpType type = OpType::reduce_start;
  analysis::OpKind kind = analysis::OpKind::reduction;
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
  engine::SimTime t0 = 0;
  engine::SimTime t1 = 0;
  std::vector<engine::SimTime> stamps;      ///< async copy, remote buffer: per root processor
  std::vector<engine::SimTime> load_start;  ///< remote buffer: per root processor (loadrb_)
  std::vector<engine::SimTime> load_end;
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
    traces::libdvm::DvmPatternType pattern = traces::libdvm::DvmPatternType::none;
    std::uint64_t pattern_ref = 0;
    bool imlast = false;
    std::uint64_t imlast_group = 0;
    /// After across_: grid, dimensions and element size of the pipeline (processors at dopl_).
    std::optional<AcrossGeometry> across;
    /// After across_: the old shadow group's widths toward the upper neighbour (3.1's width of a
    /// downward sweep), none without an old group.
    std::optional<std::vector<Index>> across_old_upper;
  };
  /// One remembered mappl_: its parameters (see mappl_key) and what it produced.
  struct MappedLoop {
    std::vector<std::int64_t> key;
    std::shared_ptr<const ParallelLoop> loop;
    std::shared_ptr<LoopDerived> derived;
    bool sets_pattern = false;  ///< the mapping succeeded: pattern and pattern_ref are set
    traces::libdvm::DvmPatternType pattern = traces::libdvm::DvmPatternType::none;
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
    traces::libdvm::DvmPatternType holders_pattern = traces::libdvm::DvmPatternType::none;
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
  std::vector<std::vector<std::uint64_t>> rows;  ///< GroupRun: the matrix as the machine takes it
  std::vector<engine::SimTime> clocks;           ///< GroupRun: every root processor's clock
  std::vector<std::uint64_t> held;               ///< release: operations named by handle maps
  std::size_t peak_ops = 0;
  std::size_t peak_actions = 0;
  std::vector<char> io_trafic;                   ///< per interval id
  std::vector<std::vector<int>> active_at_exit;  ///< per interval id
  std::uint64_t decoded = 0;
  /// The documented differences from the original that this run met (bit = Difference):
  /// corrected under `augur run`, reproduced under `augur predict`.
  std::uint32_t differences = 0;
  void met(Difference d) { differences |= 1u << static_cast<unsigned>(d); }

  Op& op(std::uint64_t index) {
    if (index < ops_base) return retained.at(index);
    return ops[static_cast<std::size_t>(index - ops_base)];
  }
};

/// Registers `system` in the state (its members and positions); returns its index.
std::uint32_t add_system(DvmProgram::State& st, ProcessorSystem system);

}  // namespace augur::models::dvm
