// ACROSS loops as Predictor 3.1 prices them (across31.hpp). The pipeline keeps 3.1's types: block
// finishing times in iteration units are single-precision floats, byte counts are truncated.
#include "models/dvm/across31.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace augur::models::dvm {

namespace {

constexpr int max_rank = 4;  ///< 3.1 pipelines loops of up to four axes

/// The loop's per-position ranges and the grid, with 3.1's accessors (an axis beyond the loop's
/// rank is one iteration wide; an empty block reads as 0 … 0).
struct View {
  const Across31Loop& loop;
  int positions = 0;
  int rank_mas = 0;  ///< the largest block rank
  std::array<Index, max_rank> p{1, 1, 1, 1};
  std::array<Index, max_rank> width{0, 0, 0, 0};

  bool has(int i) const { return !loop.blocks[static_cast<std::size_t>(i)].empty(); }
  const Range* range(int i, int j) const {
    const auto& b = loop.blocks[static_cast<std::size_t>(i)];
    return j < rank_mas && j < static_cast<int>(b.size()) ? &b[static_cast<std::size_t>(j)] : nullptr;
  }
  Index beg(int i, int j) const { return range(i, j) ? range(i, j)->lo : 0; }
  Index end(int i, int j) const { return range(i, j) ? range(i, j)->hi : 0; }
  /// (Upper − Lower + 1) / Step; 1 beyond the loop's rank.
  Index size(int i, int j) const {
    if (j >= rank_mas) return 1;
    const Range* r = range(i, j);
    return r ? (r->hi - r->lo + 1) / std::max<Index>(r->step, 1) : 0;
  }
  /// Blocks of s along axis j: ⌈size / s⌉.
  Index bsize(int i, int j, Index s) const {
    s = std::max<Index>(s, 1);
    return size(i, j) % s ? size(i, j) / s + 1 : size(i, j) / s;
  }
  bool differ(int i, int q, int j) const { return beg(i, j) != beg(q, j) || end(i, j) != end(q, j); }
  int inv(int k) const {
    return k < static_cast<int>(loop.invers.size()) ? loop.invers[static_cast<std::size_t>(k)] : 0;
  }
  /// Π_{k < x < rank_mas} p[x]: the position stride of grid dimension k.
  Index stride(int k) const {
    Index d = 1;
    for (int x = k + 1; x < rank_mas; ++x) d *= p[static_cast<std::size_t>(x)];
    return d;
  }
};

View make_view(const Across31Loop& loop) {
  View v{loop};
  v.positions = static_cast<int>(loop.blocks.size());
  for (const auto& b : loop.blocks) v.rank_mas = std::max(v.rank_mas, static_cast<int>(b.size()));
  for (std::size_t k = 0; k < max_rank && k < loop.grid.size(); ++k) v.p[k] = loop.grid[k];
  return v;
}

/// The wavefront order of one grid (or block) dimension: downward when the loop decreases.
template <class Body>
void sweep(int inv, Index lo, Index hi, Body&& body) {
  if (inv) {
    for (Index n = hi; n >= lo; --n) body(n);
  } else {
    for (Index n = lo; n <= hi; ++n) body(n);
  }
}

/// The parameters of the old-DVM pipeline (CommCost::Across before `calculate`).
struct Plan {
  std::array<Index, max_rank> s{1, 1, 1, 1};  ///< block size per axis
  std::array<Index, max_rank> conv_beg{}, conv_end{};
  std::array<int, max_rank> mult_is{};
};

/// Q, the portions along the non-pipelined axes (the old DVM's formulas, Tm = 3·W·Tb/M and
/// 8-byte elements), truncated and clamped to [1, N].
Index portions(const Across31Loop& loop, Index m, Index n, Index pp, Index w, double ts, double tb) {
  const double tc = loop.call_time / static_cast<double>(loop.loop_size);
  // 2.53: Tm = Ts + TByte of an element, no element length in the formulas.
  const double tm = loop.v253 ? ts + tb * static_cast<double>(loop.type_size)
                              : 3.0 * static_cast<double>(w) * tb / static_cast<double>(m);
  const double tlen = loop.v253 ? 1 : 8, md = static_cast<double>(m), nd = static_cast<double>(n),
               pd = static_cast<double>(pp);
  const double wd = static_cast<double>(w);
  double root = -1;
  if (wd * tm > 1e-10 && pd > (md * tc) / (wd * tm * tlen)) {
    if (ts > 0) root = std::sqrt(nd * (pd * (tc * md + pd * tm * wd * tlen) - 2 * tc * md) / (pd * (ts + ts)));
  } else if (ts > 0) {
    root = std::sqrt(nd * (pd - 1) * (md * tc + pd * tm * wd * tlen) / (pd * (ts + ts)));
  }
  const Index q = std::isfinite(root) && root >= 1 && root < 1e18 ? static_cast<Index>(root) : 1;
  return std::max<Index>(1, std::min(q, n));
}

/// Parallel pipelines per grid axis, from the first block `first`: neighbours with identical
/// blocks (1) or differing only along axes without a shadow (2); 0 otherwise.
std::array<int, max_rank> parallel_pipelines(const View& v, int first) {
  std::array<int, max_rank> mult_is{};
  for (int x = 0; x < max_rank; ++x) {
    const Index i0 = v.stride(x);
    if (v.p[x] <= 1 || first + i0 >= v.positions) continue;
    int r = 1;
    for (int k = 0; k < v.rank_mas; ++k) {
      if (!v.differ(static_cast<int>(first + i0), first, k)) continue;
      if (v.width[k] != 0) {
        r = 0;
        break;
      }
      r = 2;
    }
    mult_is[x] = r;
  }
  return mult_is;
}

Plan plan(const View& v, double ts, double tb) {
  const Across31Loop& loop = v.loop;
  Plan pl;
  int first = 0;
  while (first < v.positions && !v.has(first)) ++first;
  std::array<Index, max_rank> dmax{};
  for (int k = 0; k < max_rank; ++k) {
    dmax[k] = v.size(first, k);
    for (int i = first + 1; i < v.positions; ++i)
      if (v.has(i) && v.size(i, k) > dmax[k]) dmax[k] = v.size(i, k);
  }
  pl.mult_is = parallel_pipelines(v, first);
  std::array<int, max_rank> mm{1, 1, 1, 1};  // 1: every block has the same bounds along the axis
  for (int i = 0; i < v.positions; ++i) {
    const int r = static_cast<int>(loop.blocks[static_cast<std::size_t>(i)].size());
    for (int k = 0; k < r && k < max_rank; ++k)
      if (v.differ(i, first, k)) mm[k] = 0;
  }
  Index rest = first;
  for (int k = max_rank - 1; k >= 0; --k) {
    pl.conv_beg[k] = rest % v.p[k];
    rest /= v.p[k];
  }
  pl.conv_end = pl.conv_beg;
  Index i = first;
  for (int x = 0; x < v.rank_mas; ++x) {
    const Index i0 = v.stride(x);
    for (Index j = 1; j < v.p[x] && i + i0 < v.positions && v.has(static_cast<int>(i + i0)); ++j, i += i0) {
      bool same = true;
      for (int k = 0; k < v.rank_mas && same; ++k) same = !v.differ(static_cast<int>(i + i0), static_cast<int>(i), k);
      if (!same) ++pl.conv_end[x];
    }
  }
  std::array<Index, max_rank> dim{};
  for (int k = 0; k < max_rank; ++k) {
    Index y = 1;
    for (int x = k + 1; x < max_rank; ++x) y *= v.p[x];
    const auto last = static_cast<int>(std::min<Index>(pl.conv_end[k] * y, v.positions - 1));
    const auto start = static_cast<int>(std::min<Index>(pl.conv_beg[k] * y, v.positions - 1));
    dim[k] = v.end(last, k) - v.beg(start, k) + 1;
  }
  Index m = 1, n = 1, pp = 1;
  double dd = 1, shad = 0;
  for (int k = 0; k < v.rank_mas; ++k) {
    (mm[k] || v.width[k] == 0 ? n : m) *= dim[k];
    pp *= pl.conv_end[k] - pl.conv_beg[k] + 1;
    dd *= static_cast<double>(dmax[k]);
  }
  for (int k = 0; k < v.rank_mas; ++k)
    if (mm[k] == 0) shad += dd / static_cast<double>(dmax[k]) * static_cast<double>(v.width[k]);
  m = std::max<Index>(m, 1);
  n = std::max<Index>(n, 1);
  const auto w = static_cast<Index>(std::ceil(shad / static_cast<double>(n)));
  const Index q = portions(loop, m, n, pp, w, ts, tb);
  for (int k = 0; k < v.rank_mas; ++k) pl.s[k] = std::max<Index>(dmax[k], 1);
  Index quanta = std::min(q, n);
  for (int k = 0; k < v.rank_mas; ++k) {
    if (!(mm[k] || v.width[k] == 0)) continue;
    if (quanta < dim[k]) {
      pl.s[k] = std::max<Index>(dim[k] / quanta, 1);
      break;
    }
    pl.s[k] = 1;
    quanta /= dim[k];
  }
  return pl;
}

}  // namespace

void across31_edges(const Across31Loop& loop, Across31Hooks& hooks) {
  View v = make_view(loop);
  // 3.1 reads the loop's rank from position 0 only with more than four processors; otherwise
  // every block counts as one iteration per axis and every position as coordinate 0 (so with
  // 2x2 processors position 1 also sends to position 2).
  v.rank_mas = v.positions > max_rank && !loop.blocks.empty() ? static_cast<int>(loop.blocks[0].size()) : 0;
  const int rank = static_cast<int>(loop.grid.size());
  for (int i = 0; i < v.positions; ++i) {
    double a = 1;
    for (int k = 0; k < rank; ++k) a *= static_cast<double>(v.size(i, k));
    std::array<Index, max_rank> n{};
    for (int k = 0; k < v.rank_mas && k < max_rank; ++k) n[k] = i;
    for (int k = max_rank - 1; k >= 0; --k) {
      n[k] %= v.p[k];
      for (int x = 0; x < k; ++x) n[x] /= v.p[k];
    }
    for (int k = 0; k < rank && k < max_rank; ++k) {
      Index d = 1;
      for (int j = k + 1; j < rank; ++j) d *= loop.grid[static_cast<std::size_t>(j)];
      int post = -1;
      if (!v.inv(k) && n[k] != v.p[k] - 1 && i + d < v.positions) post = static_cast<int>(i + d);
      if (v.inv(k) && n[k] != 0 && i - d >= 0) post = static_cast<int>(i - d);
      if (post < 0) continue;
      // A sender without iterations sends no face (3.1 reads an empty block's bounds).
      const double face =
          v.has(i) || v.rank_mas == 0 ? a / static_cast<double>(v.size(i, k)) * static_cast<double>(loop.type_size) : 0;
      const double curr = hooks.clock(post);
      const Index bytes = std::isfinite(face) && face > 0 ? static_cast<Index>(face) : 0;
      const auto [begin, end] = hooks.send(hooks.clock(i), i, post, bytes);
      if (curr < end) hooks.wait_shadow(post, end - curr, curr > begin ? curr - begin : 0);
    }
  }
}

namespace {

/// One pipeline (CommCost's `calculate`): every position with iterations in wavefront order runs
/// its blocks (at most four per axis; the fourth extrapolated from the second and third), each
/// block waiting for its predecessors' faces along every axis.
class Pipeline {
 public:
  Pipeline(const View& v, const Plan& pl, Across31Hooks& hooks, double ts, double tb)
      : v_(v), pl_(pl), hooks_(hooks), ts_(ts), tb_(tb) {
    a_.assign(static_cast<std::size_t>(v.positions), {});
    comm_.assign(static_cast<std::size_t>(v.positions), {});
    com_.assign(static_cast<std::size_t>(v.positions), 0.0F);
    for (int i = 0; i < v.positions; ++i)
      if (v.has(i)) fill_sizes(i);
  }

  void run() {
    std::array<Index, max_rank> n{};
    const auto& cb = pl_.conv_beg;
    const auto& ce = pl_.conv_end;
    sweep(v_.inv(0), cb[0], ce[0], [&](Index n0) {
      n[0] = n0;
      sweep(v_.inv(1), cb[1], ce[1], [&](Index n1) {
        n[1] = n1;
        sweep(v_.inv(2), cb[2], ce[2], [&](Index n2) {
          n[2] = n2;
          sweep(v_.inv(3), cb[3], ce[3], [&](Index n3) {
            n[3] = n3;
            position(n);
          });
        });
      });
    });
  }

 private:
  using Blocks = std::array<float, 256>;  ///< per block index b0..b3 (four per axis)
  static std::size_t at(const std::array<Index, max_rank>& b) {
    return static_cast<std::size_t>(((b[0] * 4 + b[1]) * 4 + b[2]) * 4 + b[3]);
  }
  float& a(int i, const std::array<Index, max_rank>& b) { return a_[static_cast<std::size_t>(i)][at(b)]; }
  Index last_block(int i, int k) const { return std::min<Index>(3, v_.bsize(i, k, pl_.s[k]) - 1); }

  /// Each block's iterations: s per axis, the last block of an axis its remainder.
  void fill_sizes(int i) {
    std::array<Index, max_rank> b{};
    const auto count = [&](int k) { return std::min<Index>(4, v_.bsize(i, k, pl_.s[k])); };
    for (b[0] = 0; b[0] < count(0); ++b[0])
      for (b[1] = 0; b[1] < count(1); ++b[1])
        for (b[2] = 0; b[2] < count(2); ++b[2])
          for (b[3] = 0; b[3] < count(3); ++b[3]) {
            float x = 1;
            for (int j = 0; j < max_rank; ++j) {
              const Index s = pl_.s[j];
              const Index rem = v_.size(i, j) % s;
              x *= static_cast<float>(b[j] < std::min<Index>(3, v_.bsize(i, j, s) - 1) ? s : (rem ? rem : s));
            }
            a(i, b) = x;
          }
  }

  void neighbours(int i, const std::array<Index, max_rank>& n, std::array<int, max_rank>& prev,
                  std::array<int, max_rank>& post) const {
    prev.fill(-1);
    post.fill(-1);
    for (int k = 0; k < v_.rank_mas; ++k) {
      const auto d = static_cast<int>(v_.stride(k));
      const bool up = i + d < v_.positions && v_.has(i + d) && n[k] != pl_.conv_end[k];
      const bool down = i - d >= 0 && v_.has(i - d) && n[k] != pl_.conv_beg[k];
      prev[k] = v_.inv(k) ? (up ? i + d : -1) : (down ? i - d : -1);
      post[k] = v_.inv(k) ? (down ? i - d : -1) : (up ? i + d : -1);
    }
  }

  void position(const std::array<Index, max_rank>& n) {
    int i = 0;
    for (int k = 0; k < v_.rank_mas; ++k) i += static_cast<int>(n[k] * v_.stride(k));
    if (i >= v_.positions || !v_.has(i)) return;
    std::array<int, max_rank> prev{}, post{};
    neighbours(i, n, prev, post);
    if (ind_beg_ < 0) {
      // The axis each grid dimension pipelines: where the first position's successor differs.
      pip_ord_.fill(-1);
      for (int k = 0; k < v_.rank_mas; ++k)
        if (post[k] != -1)
          for (int j = 0; j < v_.rank_mas; ++j)
            if (v_.differ(i, post[k], j)) pip_ord_[k] = j;
    }
    std::array<int, max_rank> by_axis{-1, -1, -1, -1}, post_by_axis{-1, -1, -1, -1};
    for (int k = 0; k < max_rank; ++k)
      if (pip_ord_[k] != -1) {
        by_axis[static_cast<std::size_t>(pip_ord_[k])] = prev[k];
        post_by_axis[static_cast<std::size_t>(pip_ord_[k])] = post[k];
      }
    prev = by_axis;
    post_ = post_by_axis;
    if (ind_beg_ < 0) {
      ind_beg_ = i;
      time_beg_ = start_clock(i);
    }
    cur_ =
        static_cast<float>((start_clock(i) - time_beg_) * static_cast<double>(v_.loop.loop_size) / v_.loop.call_time);
    real_wait_ = 0;
    real_comm_ = 0;
    last_real_comm_ = 0;
    std::array<Index, max_rank> b{};
    // Blocks: axis 3, 2, 0, then 1 innermost, each in its sweep direction.
    sweep(v_.inv(3), 0, last_block(i, 3), [&](Index b3) {
      b[3] = b3;
      sweep(v_.inv(2), 0, last_block(i, 2), [&](Index b2) {
        b[2] = b2;
        sweep(v_.inv(0), 0, last_block(i, 0), [&](Index b0) {
          b[0] = b0;
          sweep(v_.inv(1), 0, last_block(i, 1), [&](Index b1) {
            b[1] = b1;
            block(i, b, prev);
          });
        });
      });
    });
    const float com = com_[static_cast<std::size_t>(i)];
    if (v_.loop.v253) {
      if (real_comm_ > 0) hooks_.wait_shadow(i, real_comm_, 0);
      return;
    }
    if (real_wait_ > 0) hooks_.wait_shadow(i, real_wait_, 0);
    if (com > 0) hooks_.wait_shadow(i, static_cast<double>(com), 0);
  }

  /// The clock a position starts its blocks from. 2.53 books the position's iterations
  /// (Π size · call_time / loop_size) before it reads the clock, so its start includes them;
  /// 3.1 books them after the pipeline.
  double start_clock(int i) const {
    if (!v_.loop.v253) return hooks_.clock(i);
    double volume = 1;
    for (int j = 0; j < max_rank; ++j) volume *= static_cast<double>(v_.size(i, j));
    return hooks_.clock(i) + volume * v_.loop.call_time / static_cast<double>(v_.loop.loop_size);
  }

  /// The fourth block along an axis of more than four: the second and third blocks' finishing
  /// times extrapolated over the blocks left. Returns false when `b` is not such a block.
  bool extrapolate(int i, std::array<Index, max_rank>& b) {
    for (int k = 0; k < v_.rank_mas; ++k) {
      const int inv = v_.inv(k);
      const Index blocks = v_.bsize(i, k, pl_.s[k]);
      if (!((!inv && b[k] == 3) || (inv && b[k] == 0 && blocks - 1 > 3))) continue;
      b[k] = inv ? 2 : 1;
      const float beg = a(i, b);
      b[k] = inv ? 1 : 2;
      const float step = a(i, b) - beg;
      const float last = sz_[at(b)];
      b[k] = inv ? 0 : 3;
      sz_[at(b)] = a(i, b);
      a(i, b) += beg + step * static_cast<float>(blocks - 2) - last;
      cur_ = a(i, b);
      auto& comm = comm_[static_cast<std::size_t>(i)];
      for (int j = 0; j < v_.rank_mas; ++j) {
        comm[j] += static_cast<float>(blocks - 3) * prev_comm_[k][j];
        prev_comm_[k][j] = 0;
      }
      real_comm_ += static_cast<double>(blocks - 3) * last_real_comm_;
      return true;
    }
    return false;
  }

  void block(int i, std::array<Index, max_rank> b, const std::array<int, max_rank>& prev) {
    float m = cur_;
    const float start = m;
    if (extrapolate(i, b)) return;
    const double loop_size = static_cast<double>(v_.loop.loop_size);
    double last_real_comm = 0;
    auto& comm = comm_[static_cast<std::size_t>(i)];
    for (int k = 0; k < v_.rank_mas; ++k) {
      const int inv = v_.inv(k);
      const Index last = last_block(i, k);
      if (prev[k] != -1 && ((!inv && b[k] == 0) || (inv && b[k] == last))) {
        // The predecessor's face of this block, sent when it finishes the block.
        const double ready = static_cast<double>(a(prev[k], b)) * v_.loop.call_time / loop_size + hooks_.clock(0);
        const float face = a(i, b) / static_cast<float>(std::max<Index>(1, std::min(pl_.s[k], v_.size(i, k))));
        const float elements = face * static_cast<float>(v_.width[k]);
        double trans = 0;
        if (v_.loop.v253) {
          trans = ts_ + static_cast<double>(elements) * tb_ * static_cast<double>(v_.loop.type_size);
        } else {
          const Index bytes = std::isfinite(elements) && elements > 0 ? static_cast<Index>(elements) : 0;
          const auto [begin, end] = hooks_.send(ready, prev[k], i, bytes);
          trans = end - begin;
          const double late = end - hooks_.clock(0) - static_cast<double>(m) * v_.loop.call_time / loop_size;
          real_wait_ += late > 0 ? late : 0;
        }
        std::array<Index, max_rank> pb = b;
        pb[k] = inv ? 0 : last;
        comm[k] = static_cast<float>(static_cast<double>(std::max(comm[k], a(prev[k], pb))) +
                                     trans * loop_size / v_.loop.call_time);
        last_real_comm = std::max(last_real_comm, trans);
      }
      // 2.53: the sender of a face waits for its start too.
      if (v_.loop.v253 && post_[k] != -1 && ((inv && b[k] == 0) || (!inv && b[k] == last)))
        last_real_comm = std::max(last_real_comm, ts_);
      for (int j = 0; j < max_rank; ++j)
        if ((!v_.inv(j) && b[j] == 1) || (v_.inv(j) && b[j] == 2)) prev_comm_[j][k] = comm[k];
      for (int j = 0; j < max_rank; ++j)
        if ((!v_.inv(j) && b[j] == 2) || (v_.inv(j) && b[j] == 1)) prev_comm_[j][k] = comm[k] - prev_comm_[j][k];
    }
    for (int k = 0; k < v_.rank_mas; ++k) m = std::max(m, comm[k]);
    real_comm_ += last_real_comm;
    last_real_comm_ = last_real_comm;
    const float mwait = m - start;
    float& com = com_[static_cast<std::size_t>(i)];
    com = static_cast<float>(static_cast<double>(com) + static_cast<double>(mwait) * v_.loop.call_time / loop_size);
    if (static_cast<double>(com) > last_real_comm) {
      // Waiting beyond the last message's own time is booked as system time, all of it lost.
      hooks_.system_loss(i, static_cast<double>(com) - last_real_comm);
      com = static_cast<float>(last_real_comm);
    }
    sz_[at(b)] = a(i, b);
    a(i, b) += m;
    cur_ = a(i, b);
  }

  const View& v_;
  const Plan& pl_;
  Across31Hooks& hooks_;
  double ts_, tb_;         ///< 2.53's closed-form message price
  std::vector<Blocks> a_;  ///< per position: each block's finishing time in iterations
  std::vector<std::array<float, max_rank>> comm_;
  std::vector<float> com_;
  Blocks sz_{};
  std::array<std::array<float, max_rank>, max_rank> prev_comm_{};
  std::array<int, max_rank> pip_ord_{-1, -1, -1, -1};
  int ind_beg_ = -1;
  double time_beg_ = 0;
  float cur_ = 0;
  double real_wait_ = 0;
  double real_comm_ = 0, last_real_comm_ = 0;  ///< 2.53's synchronous Wait_shadow
  std::array<int, max_rank> post_{-1, -1, -1, -1};
};

}  // namespace

void across31_pipeline(const Across31Loop& loop, Across31Hooks& hooks, double ts, double tb) {
  View v = make_view(loop);
  if (v.rank_mas > max_rank || loop.loop_size == 0 || loop.call_time <= 0) return;
  for (int k = 0; k < v.rank_mas; ++k)
    v.width[k] = k < static_cast<int>(loop.width.size()) ? loop.width[static_cast<std::size_t>(k)] : 0;
  if (v.rank_mas == 1) {
    // A 1-D loop is not pipelined: one face message per neighbour along the first dimension.
    for (int i = 1; i < v.p[0] && i < v.positions; ++i) {
      const double curr = hooks.clock(i);
      const auto [begin, end] = hooks.send(hooks.clock(i - 1), i - 1, i, v.width[0]);
      if (curr < end) hooks.wait_shadow(i, end - curr, curr > begin ? curr - begin : 0);
    }
    return;
  }
  int first = 0;
  while (first < v.positions && !v.has(first)) ++first;
  if (first == v.positions) return;
  Plan pl = plan(v, ts, tb);
  // Parallel pipelines (mult_is): each is run on its own.
  const Plan base = pl;
  std::array<Index, max_rank> n{};
  const auto count = [&](int k) { return base.mult_is[k] ? v.p[k] : Index{1}; };
  for (n[0] = 0; n[0] < count(0); ++n[0])
    for (n[1] = 0; n[1] < count(1); ++n[1])
      for (n[2] = 0; n[2] < count(2); ++n[2])
        for (n[3] = 0; n[3] < count(3); ++n[3]) {
          for (int k = 0; k < max_rank; ++k) {
            pl.conv_beg[k] = base.mult_is[k] ? n[k] : base.conv_beg[k];
            pl.conv_end[k] = base.mult_is[k] ? n[k] : base.conv_end[k];
          }
          Pipeline(v, pl, hooks, ts, tb).run();
        }
}

}  // namespace augur::models::dvm
