// Cluster, torus and table routes (see topology.hpp).
#include "machines/network/topology.hpp"

#include <stdexcept>

namespace augur::machines::network {

Topology Topology::cluster(int hosts, Link private_link, Link backbone, Link loopback) {
  if (hosts < 1) throw std::invalid_argument("a cluster needs at least 1 host");
  Topology t;
  t.kind_ = Kind::cluster;
  t.hosts_ = hosts;
  // links: private 0 .. hosts−1, then the loopbacks, then the backbone
  t.links_.assign(static_cast<std::size_t>(hosts), private_link);
  if (loopback.bandwidth > 0) {
    t.loopback_first_ = hosts;
    loopback.sharing = Sharing::fatpipe;
    t.links_.insert(t.links_.end(), static_cast<std::size_t>(hosts), loopback);
  }
  if (backbone.bandwidth > 0) {
    t.backbone_ = static_cast<int>(t.links_.size());
    t.links_.push_back(backbone);
  }
  return t;
}

Topology Topology::torus(std::vector<int> dims, Link link, Link loopback) {
  Topology t;
  t.kind_ = Kind::torus;
  t.hosts_ = 1;
  for (int d : dims) {
    if (d < 1) throw std::invalid_argument("a torus dimension must be at least 1");
    t.hosts_ *= d;
  }
  if (dims.empty()) throw std::invalid_argument("a torus needs at least one dimension");
  t.dims_ = std::move(dims);
  // link of host h in dimension j: h · dims + j (from h to its successor along j)
  t.links_.assign(static_cast<std::size_t>(t.hosts_) * t.dims_.size(), link);
  if (loopback.bandwidth > 0) {
    t.loopback_first_ = static_cast<int>(t.links_.size());
    loopback.sharing = Sharing::fatpipe;
    t.links_.insert(t.links_.end(), static_cast<std::size_t>(t.hosts_), loopback);
  }
  return t;
}

Topology Topology::table(int hosts, std::vector<Link> links, const std::vector<Route>& routes) {
  if (hosts < 1) throw std::invalid_argument("a platform needs at least 1 host");
  const auto n = static_cast<std::size_t>(hosts);
  if (routes.size() != n * n) throw std::invalid_argument("a route table needs hosts x hosts routes");
  Topology t;
  t.kind_ = Kind::table;
  t.hosts_ = hosts;
  t.links_ = std::move(links);
  t.table_starts_.reserve(routes.size() + 1);
  for (const Route& r : routes) {
    t.table_starts_.push_back(static_cast<std::uint32_t>(t.table_hops_.size()));
    for (const Hop& hop : r) {
      if (hop.link >= t.links_.size()) throw std::invalid_argument("a route names a link that does not exist");
      t.table_hops_.push_back(hop);
    }
  }
  t.table_starts_.push_back(static_cast<std::uint32_t>(t.table_hops_.size()));
  return t;
}

void Topology::route(int src, int dst, Route& out) const {
  out.clear();
  if (kind_ == Kind::table) {
    const auto i = static_cast<std::size_t>(src) * static_cast<std::size_t>(hosts_) + static_cast<std::size_t>(dst);
    out.assign(table_hops_.begin() + table_starts_[i], table_hops_.begin() + table_starts_[i + 1]);
    return;
  }
  if (src == dst && loopback_first_ >= 0) {
    out.push_back({static_cast<std::uint32_t>(loopback_first_ + src), false});
    return;
  }
  if (kind_ == Kind::torus) {
    torus_route(src, dst, out);
    return;
  }
  if (kind_ == Kind::fat_tree) {
    fat_tree_route(src, dst, out);
    return;
  }
  if (kind_ == Kind::dragonfly) {
    dragonfly_route(src, dst, out);
    return;
  }
  // cluster: up the source's private link, the backbone, down the destination's
  out.push_back({static_cast<std::uint32_t>(src), false});
  if (backbone_ >= 0) out.push_back({static_cast<std::uint32_t>(backbone_), false});
  out.push_back({static_cast<std::uint32_t>(dst), true});
}

void Topology::torus_route(int src, int dst, Route& out) const {
  // Dimension order. The direction along dimension j is decided by the source's and the
  // target's coordinates (as SimGrid's torus does): forward when the target lies at most
  // ⌊d/2⌋ ahead without wrapping, or the source is past the middle and the target within
  // ⌊d/2⌋ ahead across the wrap; backward otherwise.
  const auto n = static_cast<int>(dims_.size());
  int current = src;
  while (current != dst) {
    int stride = 1;
    for (int j = 0; j < n; ++j) {
      const int d = dims_[static_cast<std::size_t>(j)];
      const int here = (current / stride) % d;
      const int mine = (src / stride) % d;
      const int target = (dst / stride) % d;
      if (here != target) {
        const bool forward =
            (target > mine && target <= mine + d / 2) || (mine > d / 2 && (mine + d / 2) % d >= target);
        const int next = forward ? (here == d - 1 ? current - stride * (d - 1) : current + stride)
                                 : (here == 0 ? current + stride * (d - 1) : current - stride);
        // forward: the current host's link along j; backward: the next host's, crossed in reverse
        const int owner = forward ? current : next;
        out.push_back({static_cast<std::uint32_t>(owner * n + j), !forward});
        current = next;
        break;
      }
      stride *= d;
    }
  }
}

}  // namespace augur::machines::network
