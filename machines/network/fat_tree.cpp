// SimGrid's fat tree (see topology.hpp): links, labels and d-mod-k routes.
//
// Nodes of level l (0 = hosts, L = the top switches) carry a label of L digits; digit j ranges
// over up[j] when j < l, else down[j]; a node's position is its label read in mixed radix,
// digit 0 fastest. A node of level l < L has up[l] · parallel[l] ports to its parents: port d
// leads to the parent whose label is the node's with digit l set to d mod up[l], over the
// (d div up[l])-th parallel link. That parent sees the same link on its child port
// label[l] + (d div up[l]) · down[l]. Link of (level l, position p, port d):
// base(l) + p · up[l] · parallel[l] + d, crossed forward going up, in reverse going down.
#include <array>
#include <stdexcept>
#include <string>

#include "machines/network/topology.hpp"

namespace augur::machines::network {

namespace {

constexpr int max_levels = 16;

std::vector<int> parse_counts(std::string_view text, const char* what) {
  std::vector<int> counts;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto comma = text.find(',', at);
    const std::string item(text.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 6)
      throw std::invalid_argument(std::string("invalid ") + what + " '" + std::string(text) +
                                  "': expected positive integers separated by ','");
    counts.push_back(std::stoi(item));
    if (counts.back() < 1) throw std::invalid_argument(std::string(what) + " must be at least 1");
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  return counts;
}

/// The per-level counts of a fat tree held in Topology's dims_: L, down, up, parallel.
struct Levels {
  int count;
  const int* down;
  const int* up;
  const int* parallel;
  explicit Levels(const std::vector<int>& dims)
      : count(dims[0]), down(&dims[1]), up(&dims[1 + dims[0]]), parallel(&dims[1 + 2 * dims[0]]) {}
  int radix(int level, int digit) const { return digit < level ? up[digit] : down[digit]; }
  int ports(int level) const { return up[level] * parallel[level]; }
  long long nodes(int level) const {
    long long n = 1;
    for (int j = 0; j < count; ++j) n *= radix(level, j);
    return n;
  }
  long long base(int level) const {
    long long b = 0;
    for (int l = 0; l < level; ++l) b += nodes(l) * ports(l);
    return b;
  }
};

struct Node {
  int level = 0;
  std::array<int, max_levels> label{};
};

long long position(const Levels& t, const Node& n) {
  long long p = 0;
  for (int j = t.count - 1; j >= 0; --j) p = p * t.radix(n.level, j) + n.label[static_cast<std::size_t>(j)];
  return p;
}

Node host(const Levels& t, int h) {
  Node n;
  for (int j = 0; j < t.count; ++j) {
    n.label[static_cast<std::size_t>(j)] = h % t.down[j];
    h /= t.down[j];
  }
  return n;
}

Hop hop(const Levels& t, const Node& n, int port, bool down) {
  return {static_cast<std::uint32_t>(t.base(n.level) + position(t, n) * t.ports(n.level) + port), down};
}

/// Whether `dst` (a host) lies below `n`: n is a switch and agrees with it on digits ≥ its level.
bool below(const Levels& t, const Node& n, const Node& dst) {
  if (n.level == 0) return false;
  for (int j = n.level; j < t.count; ++j)
    if (n.label[static_cast<std::size_t>(j)] != dst.label[static_cast<std::size_t>(j)]) return false;
  return true;
}

}  // namespace

FatTreeShape parse_fat_tree(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t at = 0;
  for (auto semi = text.find(';'); semi != std::string_view::npos; semi = text.find(';', at)) {
    parts.push_back(text.substr(at, semi - at));
    at = semi + 1;
  }
  parts.push_back(text.substr(at));
  if (parts.size() != 4) throw std::invalid_argument("a fat tree is 'levels;down;up;parallel', e.g. 2;4,4;1,2;1,2");
  const auto levels = parse_counts(parts[0], "number of levels");
  if (levels.size() != 1) throw std::invalid_argument("the number of levels is one integer");
  FatTreeShape shape{parse_counts(parts[1], "down counts"), parse_counts(parts[2], "up counts"),
                     parse_counts(parts[3], "parallel link counts")};
  for (const auto* v : {&shape.down, &shape.up, &shape.parallel})
    if (static_cast<int>(v->size()) != levels[0])
      throw std::invalid_argument("a fat tree of " + std::to_string(levels[0]) + " levels needs " +
                                  std::to_string(levels[0]) + " counts in each of down, up and parallel");
  return shape;
}

Topology Topology::fat_tree(const FatTreeShape& shape, Link link, Link loopback) {
  const auto levels = static_cast<int>(shape.down.size());
  if (levels < 1 || levels > max_levels)
    throw std::invalid_argument("a fat tree has 1 to " + std::to_string(max_levels) + " levels");
  if (shape.up.size() != shape.down.size() || shape.parallel.size() != shape.down.size())
    throw std::invalid_argument("a fat tree needs as many up and parallel counts as down counts");
  Topology t;
  t.kind_ = Kind::fat_tree;
  t.dims_ = {levels};
  for (const auto* v : {&shape.down, &shape.up, &shape.parallel})
    for (int c : *v) {
      if (c < 1) throw std::invalid_argument("a fat tree's counts must be at least 1");
      t.dims_.push_back(c);
    }
  const Levels tree(t.dims_);
  const long long hosts = tree.nodes(0);
  const long long links = tree.base(levels);
  if (hosts > 1 << 24 || links > 1 << 26) throw std::invalid_argument("the fat tree is too large");
  t.hosts_ = static_cast<int>(hosts);
  // SimGrid gives a fat tree's links one capacity per direction (splitduplex) or a shared one.
  if (link.sharing != Sharing::splitduplex) link.sharing = Sharing::shared;
  t.links_.assign(static_cast<std::size_t>(links), link);
  if (loopback.bandwidth > 0) {
    t.loopback_first_ = static_cast<int>(t.links_.size());
    loopback.sharing = Sharing::fatpipe;
    t.links_.insert(t.links_.end(), static_cast<std::size_t>(t.hosts_), loopback);
  }
  return t;
}

void Topology::fat_tree_route(int src, int dst, Route& out) const {
  const Levels t(dims_);
  const Node target = host(t, dst);
  Node at = host(t, src);
  // Up to the nearest common ancestor: at level l, port (dst div Π_{i<l} ports(i)) mod ports(l).
  long long key = dst;
  while (!below(t, at, target)) {
    const int l = at.level;
    const auto port = static_cast<int>(key % t.ports(l));
    key /= t.ports(l);
    out.push_back(hop(t, at, port, false));
    at.label[static_cast<std::size_t>(l)] = port % t.up[l];
    at.level = l + 1;
  }
  // Down: SimGrid scans a switch's child ports from (src mod parallel) · down onwards for the
  // one towards the target and keeps scanning, from the next port number, on the child it
  // stepped to; a fresh scan starts when a scan ends without a step.
  while (at.level > 0) {
    int i = (src % t.parallel[at.level - 1]) * t.down[at.level - 1];
    for (; at.level > 0 && i < t.down[at.level - 1] * t.parallel[at.level - 1]; ++i) {
      const int l = at.level - 1;
      if (i % t.down[l] != target.label[static_cast<std::size_t>(l)]) continue;
      const int port = at.label[static_cast<std::size_t>(l)] + (i / t.down[l]) * t.up[l];
      at.label[static_cast<std::size_t>(l)] = i % t.down[l];
      at.level = l;
      out.push_back(hop(t, at, port, true));
    }
  }
}

}  // namespace augur::machines::network

namespace augur::machines::network {

std::string Topology::fat_tree_link_name(std::uint32_t link) const {
  // link = base(l) + position · ports(l) + port: "fat_tree:L<l>:<position>-p<port>"
  const Levels t(dims_);
  int l = 0;
  while (l + 1 < t.count && static_cast<long long>(link) >= t.base(l + 1)) ++l;
  const long long offset = static_cast<long long>(link) - t.base(l);
  return "fat_tree:L" + std::to_string(l) + ":" + std::to_string(offset / t.ports(l)) + "-p" +
         std::to_string(offset % t.ports(l));
}

}  // namespace augur::machines::network
