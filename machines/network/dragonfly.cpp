// SimGrid's dragonfly (see topology.hpp): host, green, black and blue links and minimal routes.
//
// Host h = ((group · chassis + c) · routers + blade) · hosts + node; its link to its router is
// link h (forward: towards the router). Then, densely numbered, the green links (each pair of
// routers of a chassis), the black links (each pair of chassis of a group, one per blade) and
// the blue links (each pair of groups, attached to router `other group` of chassis 0). A link
// between a and b (a < b) is crossed forward from a to b.
#include <stdexcept>
#include <string>
#include <utility>

#include "machines/network/topology.hpp"

namespace augur::machines::network {

namespace {

/// Index of the pair {a, b} (a ≠ b) among the n · (n − 1) / 2 pairs of 0 .. n − 1.
long long pair_index(int a, int b, int n) {
  const int lo = a < b ? a : b;
  const int hi = a < b ? b : a;
  return static_cast<long long>(lo) * (2 * n - lo - 1) / 2 + (hi - lo - 1);
}

long long pairs(int n) { return static_cast<long long>(n) * (n - 1) / 2; }

struct Router {
  int group, chassis, blade;
};

/// The shape held in Topology's dims_: groups, blue, chassis, black, routers, green, hosts.
struct Shape {
  int groups, chassis, routers, hosts;
  explicit Shape(const std::vector<int>& d) : groups(d[0]), chassis(d[2]), routers(d[4]), hosts(d[6]) {}
  long long green_base() const { return static_cast<long long>(groups) * chassis * routers * hosts; }
  long long black_base() const { return green_base() + static_cast<long long>(groups) * chassis * pairs(routers); }
  long long blue_base() const { return black_base() + groups * pairs(chassis) * routers; }
  Hop green(const Router& r, int to) const {
    const long long chassis_index = static_cast<long long>(r.group) * chassis + r.chassis;
    return {
        static_cast<std::uint32_t>(green_base() + chassis_index * pairs(routers) + pair_index(r.blade, to, routers)),
        r.blade > to};
  }
  Hop black(const Router& r, int to) const {
    const long long pair = r.group * pairs(chassis) + pair_index(r.chassis, to, chassis);
    return {static_cast<std::uint32_t>(black_base() + pair * routers + r.blade), r.chassis > to};
  }
  Hop blue(int from, int to) const {
    return {static_cast<std::uint32_t>(blue_base() + pair_index(from, to, groups)), from > to};
  }
  Router router_of(int h) const {
    const int r = h / hosts;
    return {r / (chassis * routers), r / routers % chassis, r % routers};
  }
};

}  // namespace

DragonflyShape parse_dragonfly(std::string_view text) {
  // Four ';'-separated parts: three "count,links" pairs, then the hosts per router.
  const char* expected =
      "a dragonfly is 'groups,blue;chassis,black;routers,green;hosts' of positive integers, "
      "e.g. 3,1;2,1;3,1;2";
  std::vector<int> n;
  std::string shape;  // the separators met, in order
  std::size_t at = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',' && text[i] != ';') continue;
    const std::string item(text.substr(at, i - at));
    if (item.empty() || item.size() > 6 || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(item) < 1)
      throw std::invalid_argument(expected);
    n.push_back(std::stoi(item));
    if (i < text.size()) shape += text[i];
    at = i + 1;
  }
  if (shape != ",;,;,;") throw std::invalid_argument(expected);
  return {n[0], n[1], n[2], n[3], n[4], n[5], n[6]};
}

Topology Topology::dragonfly(const DragonflyShape& s, Link link, Link loopback) {
  for (int c : {s.groups, s.blue, s.chassis, s.black, s.routers, s.green, s.hosts})
    if (c < 1) throw std::invalid_argument("a dragonfly's counts must be at least 1");
  // SimGrid attaches group g's blue link to router g of chassis 0 and routes through it.
  if (s.groups > s.routers)
    throw std::invalid_argument("a dragonfly needs at least as many routers per chassis as groups");
  const long long hosts = static_cast<long long>(s.groups) * s.chassis * s.routers * s.hosts;
  if (hosts > 1 << 24 || static_cast<long long>(s.groups) * s.groups * s.chassis * s.chassis * s.routers > 1 << 26)
    throw std::invalid_argument("the dragonfly is too large");
  Topology t;
  t.kind_ = Kind::dragonfly;
  t.hosts_ = static_cast<int>(hosts);
  t.dims_ = {s.groups, s.blue, s.chassis, s.black, s.routers, s.green, s.hosts};
  const Shape shape(t.dims_);
  const auto widened = [&](int count) { return Link{link.bandwidth * count, link.latency, link.sharing}; };
  t.links_.assign(static_cast<std::size_t>(shape.green_base()), link);
  t.links_.resize(static_cast<std::size_t>(shape.black_base()), widened(s.green));
  t.links_.resize(static_cast<std::size_t>(shape.blue_base()), widened(s.black));
  t.links_.resize(static_cast<std::size_t>(shape.blue_base() + pairs(s.groups)), widened(s.blue));
  if (loopback.bandwidth > 0) {
    t.loopback_first_ = static_cast<int>(t.links_.size());
    loopback.sharing = Sharing::fatpipe;
    t.links_.insert(t.links_.end(), static_cast<std::size_t>(t.hosts_), loopback);
  }
  return t;
}

void Topology::dragonfly_route(int src, int dst, Route& out) const {
  // SimGrid's minimal route, including where it jumps: after a green hop in the target group it
  // continues from chassis 0 of that group, whatever chassis the hop was in.
  const Shape s(dims_);
  const Router target = s.router_of(dst);
  Router at = s.router_of(src);
  out.push_back({static_cast<std::uint32_t>(src), false});
  if (src / s.hosts != dst / s.hosts) {
    if (target.group != at.group) {
      if (at.blade != target.group) {
        out.push_back(s.green(at, target.group));
        at.blade = target.group;
      }
      if (at.chassis != 0) {
        out.push_back(s.black(at, 0));
        at.chassis = 0;
      }
      out.push_back(s.blue(at.group, target.group));
      at = {target.group, 0, at.group};
    }
    if (target.blade != at.blade) {
      out.push_back(s.green(at, target.blade));
      at = {target.group, 0, target.blade};
    }
    if (target.chassis != at.chassis) out.push_back(s.black(at, target.chassis));
  }
  out.push_back({static_cast<std::uint32_t>(dst), true});
}

}  // namespace augur::machines::network

namespace augur::machines::network {

namespace {

/// The pair {lo, hi} of 0 .. n − 1 at index k (pair_index's inverse).
std::pair<int, int> pair_at(long long k, int n) {
  int lo = 0;
  while (k >= n - lo - 1) {
    k -= n - lo - 1;
    ++lo;
  }
  return {lo, lo + 1 + static_cast<int>(k)};
}

std::string router_text(int group, int chassis, int blade) {
  return "(" + std::to_string(group) + "," + std::to_string(chassis) + "," + std::to_string(blade) + ")";
}

}  // namespace

std::string Topology::dragonfly_link_name(std::uint32_t link, bool reverse) const {
  // Forward from the lower endpoint to the higher one; a splitduplex link's reverse the other way.
  const Shape s(dims_);
  const auto index = static_cast<long long>(link);
  const bool back = reverse && links_[link].sharing == Sharing::splitduplex;
  const auto joined = [&](const std::string& kind, const std::string& a, const std::string& b) {
    return kind + ":" + (back ? b + "-" + a : a + "-" + b);
  };
  if (index < s.green_base()) {
    if (links_[link].sharing != Sharing::splitduplex) return "host" + std::to_string(index);
    return "host" + std::to_string(index) + (reverse ? "-down" : "-up");
  }
  if (index < s.black_base()) {
    const long long k = index - s.green_base();
    const long long chassis_index = k / pairs(s.routers);
    const auto [a, b] = pair_at(k % pairs(s.routers), s.routers);
    const auto group = static_cast<int>(chassis_index / s.chassis);
    const auto chassis = static_cast<int>(chassis_index % s.chassis);
    return joined("green", router_text(group, chassis, a), router_text(group, chassis, b));
  }
  if (index < s.blue_base()) {
    const long long k = index - s.black_base();
    const auto blade = static_cast<int>(k % s.routers);
    const long long pair = k / s.routers;
    const auto group = static_cast<int>(pair / pairs(s.chassis));
    const auto [a, b] = pair_at(pair % pairs(s.chassis), s.chassis);
    return joined("black", router_text(group, a, blade), router_text(group, b, blade));
  }
  const auto [a, b] = pair_at(index - s.blue_base(), s.groups);
  return joined("blue", std::to_string(a), std::to_string(b));
}

}  // namespace augur::machines::network
