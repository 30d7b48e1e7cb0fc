// The skeleton source (skeleton_trace.hpp): per rank a stack of (phase list, index, iterations
// left) and the step inside the current phase; each next() emits one record.
#include "traces/skeleton/skeleton_trace.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <stdexcept>

#include "engine/limits.hpp"

namespace augur::traces::skeleton {
namespace {

constexpr double max_bytes = 1e18;  // a message or memory traffic of at most an exabyte
constexpr std::uint64_t max_total_bytes = 8'000'000'000'000'000'000ULL;  // a compute record's traffic
constexpr double max_count = 4e9;                                        // loop iterations per entry
constexpr double max_flops = 1e18;  // below 2^63: eval_count converts to an integer

/// One message of an exchange phase, before the final waitall.
struct Message {
  MpOpKind kind;
  std::int32_t peer;
  std::int32_t tag;
  std::uint64_t bytes;
};

struct Frame {
  const std::vector<Phase>* list;
  std::uint32_t index;
  std::uint64_t remaining;  ///< iterations after the current one
};

struct Cursor {
  std::vector<Frame> stack;
  std::uint64_t line = 1;
  std::uint64_t step = 0;  ///< record of the current phase
  bool done = false;
};

class SkeletonTrace final : public MpTraceSource {
 public:
  SkeletonTrace(std::shared_ptr<const Program> program, int ranks, std::vector<double> values)
      : holder_(std::move(program)),
        program_(*holder_),
        ranks_(ranks),
        values_(std::move(values)),
        cursors_(static_cast<std::size_t>(ranks)) {
    name_ = "program:" + program_.file;
    resolve_grids(program_.phases);
    for (Cursor& c : cursors_) c.stack.push_back(Frame{&program_.phases, 0, 0});
  }

  int rank_count() const override { return ranks_; }
  std::vector<std::string> memory_levels() const override { return program_.levels; }

  std::string file_name(int rank) const override {
    check_rank(rank);
    return name_ + " rank " + std::to_string(rank);
  }

  bool next(int rank, MpRecord& out) override {
    check_rank(rank);
    Cursor& c = cursors_[static_cast<std::size_t>(rank)];
    if (c.done) return false;
    values_[program_.rank_index()] = rank;
    out = MpRecord{};
    out.rank = rank;
    out.line = c.line;
    if (c.line == 1) {
      out.kind = MpOpKind::init;
    } else if (!advance(c, rank, out)) {
      out.kind = MpOpKind::finalize;
      c.done = true;
    }
    ++c.line;
    return true;
  }

 private:
  /// Fills `out` with the next record of the phases; false when they are all done.
  bool advance(Cursor& c, int rank, MpRecord& out) {
    while (!c.stack.empty()) {
      Frame& f = c.stack.back();
      if (f.index >= f.list->size()) {
        if (f.remaining > 0) {
          --f.remaining;
          f.index = 0;
          continue;
        }
        c.stack.pop_back();
        if (!c.stack.empty()) ++c.stack.back().index;
        continue;
      }
      const Phase& p = (*f.list)[f.index];
      if (p.kind == PhaseKind::loop) {
        const std::uint64_t n = p.count.eval_count(values_, "the loop count", max_count);
        if (n == 0) {
          ++f.index;
        } else {
          c.stack.push_back(Frame{&p.body, 0, n - 1});
        }
        continue;
      }
      if (p.kind == PhaseKind::region && c.step == 1) {  // the location record was emitted
        c.step = 0;
        c.stack.push_back(Frame{&p.body, 0, 0});
        continue;
      }
      if (emit(p, rank, c.step, out)) {
        ++c.step;
        return true;
      }
      c.step = 0;
      ++f.index;
    }
    return false;
  }

  /// A compute record: flops, memory traffic (bytes + loads + stores; bytes2 = stores; the part
  /// split by level in level_bytes) and the math-function calls.
  void compute(const Phase& p, MpRecord& out) {
    out.amount = static_cast<double>(p.flops.eval_count(values_, "flops", max_flops));
    out.bytes2 = p.stores.eval_count(values_, "stores", max_bytes);
    out.bytes =
        p.bytes.eval_count(values_, "bytes", max_bytes) + p.loads.eval_count(values_, "loads", max_bytes) + out.bytes2;
    if (!p.level_bytes.empty()) {
      level_bytes_.assign(program_.levels.size(), 0);
      for (const auto& [level, e] : p.level_bytes) {
        level_bytes_[level] = e.eval_count(values_, "bytes", max_bytes);
        out.bytes += level_bytes_[level];
        if (out.bytes > max_total_bytes)  // below 2^64 whatever the number of levels
          throw ExprError(p.at, "the compute phase moves more than 8e18 bytes of memory");
      }
      out.level_bytes = level_bytes_;
    }
    if (p.math.empty()) return;
    counts_.resize(p.math.size());
    for (std::size_t i = 0; i < p.math.size(); ++i) counts_[i] = p.math[i].eval_count(values_, "calls", max_count);
    out.counts = counts_;
  }

  /// Record `step` of phase `p` for `rank`; false after its last one.
  bool emit(const Phase& p, int rank, std::uint64_t step, MpRecord& out) {
    switch (p.kind) {
      case PhaseKind::compute:
        if (step > 0) return false;
        out.kind = MpOpKind::compute;
        out.amount = static_cast<double>(p.flops.eval_count(values_, "flops", max_flops));
        compute(p, out);
        return true;
      case PhaseKind::region:
        out.kind = MpOpKind::location;
        out.text = p.name;
        out.count = static_cast<std::uint64_t>(p.at.line);
        return true;
      case PhaseKind::collective:
        if (step > 0) return false;
        collective(p, out);
        return true;
      case PhaseKind::pairwise:
        if (step + 1 >= static_cast<std::uint64_t>(ranks_)) return false;
        out.kind = MpOpKind::send_recv;
        out.peer = static_cast<std::int32_t>((rank + step + 1) % static_cast<std::uint64_t>(ranks_));
        out.peer2 = static_cast<std::int32_t>((static_cast<std::uint64_t>(rank + ranks_) - step - 1) %
                                              static_cast<std::uint64_t>(ranks_));
        out.bytes = out.bytes2 = p.bytes.eval_count(values_, "bytes", max_bytes);
        return true;
      default:
        return exchange(p, rank, step, out);
    }
  }

  void collective(const Phase& p, MpRecord& out) {
    out.kind = p.op;
    if (p.op == MpOpKind::barrier) return;
    out.bytes = p.bytes.eval_count(values_, "bytes", max_bytes);
    out.amount = static_cast<double>(p.flops.eval_count(values_, "flops", max_flops));
    out.root = static_cast<std::int32_t>(p.root.eval_count(values_, "root", ranks_ - 1));
    switch (p.op) {
      case MpOpKind::alltoall:
      case MpOpKind::gather:
      case MpOpKind::scatter:
      case MpOpKind::allgather:
        out.bytes2 = out.bytes;
        break;
      case MpOpKind::reduce_scatter:
        counts_.assign(static_cast<std::size_t>(ranks_), out.bytes);
        out.counts = counts_;
        out.bytes = 0;
        break;
      default:
        break;
    }
  }

  /// Record `step` of a ring, halo or p2p phase: its messages, then one waitall.
  bool exchange(const Phase& p, int rank, std::uint64_t step, MpRecord& out) {
    std::array<Message, 4 * max_halo_dims> messages{};
    const std::size_t n = messages_of(p, rank, messages);
    if (step < n) {
      const Message& m = messages[step];
      out.kind = m.kind;
      out.peer = m.peer;
      out.tag = m.tag;
      out.bytes = m.bytes;
      return true;
    }
    if (step > n || n == 0) return false;
    out.kind = MpOpKind::waitall;
    out.count = n;
    return true;
  }

  std::size_t messages_of(const Phase& p, int rank, std::array<Message, 4 * max_halo_dims>& m) {
    if (p.kind == PhaseKind::ring) {
      const std::uint64_t bytes = p.bytes.eval_count(values_, "bytes", max_bytes);
      m[0] = Message{MpOpKind::irecv, rank == 0 ? ranks_ - 1 : rank - 1, p.tag, bytes};
      m[1] = Message{MpOpKind::isend, rank == ranks_ - 1 ? 0 : rank + 1, p.tag, bytes};
      return 2;
    }
    if (p.kind == PhaseKind::p2p) {
      const std::uint64_t bytes = p.bytes.eval_count(values_, "bytes", max_bytes);
      std::size_t n = 0;
      if (const auto from = peer(p.from, "from"); from >= 0) m[n++] = Message{MpOpKind::irecv, from, p.tag, bytes};
      if (const auto to = peer(p.to, "to"); to >= 0) m[n++] = Message{MpOpKind::isend, to, p.tag, bytes};
      return n;
    }
    return halo_messages(p, rank, m);
  }

  std::int32_t peer(const Expr& e, std::string_view what) {
    const double v = e.eval(values_);
    if (v < 0) return -1;
    return static_cast<std::int32_t>(e.eval_count(values_, std::string(what) + " (a rank)", ranks_ - 1));
  }

  std::size_t halo_messages(const Phase& p, int rank, std::array<Message, 4 * max_halo_dims>& m) {
    const std::vector<int>& dims = grids_.at(&p);
    const std::size_t d = dims.size();
    std::array<int, max_halo_dims> coords{};
    std::array<int, max_halo_dims> strides{};
    int stride = 1;
    for (std::size_t k = d; k-- > 0;) {  // row-major: the last dimension varies fastest
      strides[k] = stride;
      coords[k] = rank / stride % dims[k];
      stride *= dims[k];
    }
    std::vector<double> with_dims = values_;
    for (std::size_t k = 0; k < max_halo_dims; ++k) with_dims.push_back(k < d ? dims[k] : 1);
    std::size_t n = 0;
    std::array<Message, 2 * max_halo_dims> sends{};
    std::size_t s = 0;
    for (std::size_t k = 0; k < d; ++k) {
      const std::uint64_t bytes =
          p.faces[std::min(k, p.faces.size() - 1)].eval_count(with_dims, "face bytes", max_bytes);
      const auto tag_up = static_cast<std::int32_t>(2 * k + 1);  // travelling towards higher coordinates
      const auto tag_down = static_cast<std::int32_t>(2 * k);
      for (int side : {-1, 1}) {
        int c = coords[k] + side;
        if (c < 0 || c >= dims[k]) {
          if (!p.periodic) continue;
          c = (c + dims[k]) % dims[k];
        }
        const int neighbour = rank + (c - coords[k]) * strides[k];
        m[n++] = Message{MpOpKind::irecv, neighbour, side < 0 ? tag_up : tag_down, bytes};
        sends[s++] = Message{MpOpKind::isend, neighbour, side < 0 ? tag_down : tag_up, bytes};
      }
    }
    for (std::size_t i = 0; i < s; ++i) m[n++] = sends[i];
    return n;
  }

  /// The grid of every halo phase: its given extents (evaluated once, rank 0) or balanced ones.
  void resolve_grids(const std::vector<Phase>& phases) {
    values_[program_.rank_index()] = 0;
    for (const Phase& p : phases) {
      resolve_grids(p.body);
      if (p.kind != PhaseKind::halo) continue;
      std::vector<int> dims;
      if (p.dims.empty()) {
        dims = balanced_dims(ranks_, p.ndims);
      } else {
        long long product = 1;
        for (const Expr& e : p.dims) {
          dims.push_back(static_cast<int>(e.eval_count(values_, "a grid extent", ranks_)));
          product *= dims.back();
        }
        if (product != ranks_) {
          throw ExprError(
              p.at, "the halo's grid has " + std::to_string(product) + " processes but P = " + std::to_string(ranks_));
        }
      }
      grids_[&p] = dims;
    }
  }

  void check_rank(int rank) const {
    if (rank < 0 || rank >= ranks_) throw std::out_of_range("skeleton has no rank " + std::to_string(rank));
  }

  std::shared_ptr<const Program> holder_;
  const Program& program_;
  int ranks_;
  std::vector<double> values_;
  std::vector<Cursor> cursors_;
  std::map<const Phase*, std::vector<int>> grids_;
  std::vector<std::uint64_t> counts_;
  std::vector<std::uint64_t> level_bytes_;
  std::string name_;
};

}  // namespace

std::vector<std::string> halo_names(const std::vector<std::string>& program_names) {
  std::vector<std::string> names = program_names;
  for (int k = 0; k < max_halo_dims; ++k) names.push_back("dim" + std::to_string(k));
  return names;
}

void check_memory_levels(const Program& program, const std::vector<std::string>& node_levels) {
  for (std::size_t i = 0; i < program.levels.size(); ++i) {
    if (std::find(node_levels.begin(), node_levels.end(), program.levels[i]) != node_levels.end()) continue;
    std::string names;
    for (const std::string& n : node_levels) names += (names.empty() ? "" : ", ") + n;
    throw ExprError(program.level_at.at(i),
                    "unknown memory level '" + program.levels[i] + "' (the machine's node has " + names + ")");
  }
}

std::vector<int> balanced_dims(int nodes, int ndims) {
  std::vector<int> primes;
  int rest = nodes;
  for (int f = 2; f * f <= rest; ++f) {
    while (rest % f == 0) {
      primes.push_back(f);
      rest /= f;
    }
  }
  if (rest > 1) primes.push_back(rest);
  std::vector<int> dims(static_cast<std::size_t>(std::max(ndims, 1)), 1);
  for (auto it = primes.rbegin(); it != primes.rend(); ++it) *std::min_element(dims.begin(), dims.end()) *= *it;
  std::sort(dims.begin(), dims.end(), std::greater<>());
  return dims;
}

std::unique_ptr<MpTraceSource> make_skeleton_trace(std::shared_ptr<const Program> program, int ranks,
                                                   const std::vector<std::pair<std::string, double>>& values) {
  if (ranks < 1 || static_cast<std::uint64_t>(ranks) > engine::max_lps) {
    throw ExprError(SourcePos{program->file, 1, 1}, "the process count P must be between 1 and " +
                                                        std::to_string(engine::max_lps) + ", got " +
                                                        std::to_string(ranks));
  }
  std::vector<double> v(program->names.size(), 0);
  v[program->p_index()] = ranks;
  for (std::size_t i = 0; i < program->defaults.size(); ++i) {
    const auto given =
        std::find_if(values.begin(), values.end(), [&](const auto& nv) { return nv.first == program->names[i]; });
    v[i] = given != values.end() ? given->second : program->defaults[i].eval(v);
  }
  for (const auto& [name, value] : values) {
    if (std::find(program->names.begin(),
                  program->names.begin() + static_cast<std::ptrdiff_t>(program->defaults.size()),
                  name) == program->names.begin() + static_cast<std::ptrdiff_t>(program->defaults.size())) {
      throw ExprError(SourcePos{program->file, 1, 1}, "the program has no parameter '" + name + "'");
    }
  }
  return std::make_unique<SkeletonTrace>(std::move(program), ranks, std::move(v));
}

}  // namespace augur::traces::skeleton
