// Routes between the nodes of a platform file, as SimGrid's routed zones find them: through the
// lowest zone holding both ends, its local route (Full: as written; Floyd and Dijkstra: the path
// of fewest links; Cluster: private links and backbone; None: no link), joined to the gateways
// of <zoneRoute>s by the same search one level down.
#include <algorithm>
#include <map>

#include "machines/platform/platform_error.hpp"
#include "machines/platform/platform_model.hpp"

namespace augur::machines::platform::detail {
namespace {

/// A local route: its links and the gateways where it leaves the source and enters the target.
struct Local {
  network::Route links;
  int gw_src = 0, gw_dst = 0;
};

int parent_zone(const Model& m, int zone) {
  const int node = m.zones[static_cast<std::size_t>(zone)].node;
  return node < 0 ? -1 : m.nodes[static_cast<std::size_t>(node)].zone;
}

/// The node standing for `node` in `zone` (an ancestor of its zone): itself, or the child zone
/// holding it.
int representative(const Model& m, int node, int zone) {
  int current = node;
  while (m.nodes[static_cast<std::size_t>(current)].zone != zone)
    current = m.zones[static_cast<std::size_t>(m.nodes[static_cast<std::size_t>(current)].zone)].node;
  return current;
}

[[noreturn]] void no_route(const Model& m, int zone, int a, int b, int line) {
  throw PlatformError(m.file, line,
                      "no route from '" + m.nodes[static_cast<std::size_t>(a)].name + "' to '" +
                          m.nodes[static_cast<std::size_t>(b)].name + "' in zone '" +
                          m.zones[static_cast<std::size_t>(zone)].id + "'");
}

Local cluster_route(const Zone& z, int a, int b) {
  Local r{{}, a, b};
  const auto links_of = [&z](int node) -> const ClusterLinks* {
    const auto it = z.cluster_links.find(node);
    return it == z.cluster_links.end() ? nullptr : &it->second;
  };
  const ClusterLinks* from = links_of(a);
  const ClusterLinks* to = links_of(b);
  if (a == b && from != nullptr && from->loopback >= 0) {
    r.links.push_back({static_cast<std::uint32_t>(from->loopback), false});
    return r;
  }
  if (from != nullptr) {  // the router has no private link
    if (from->limiter >= 0) r.links.push_back({static_cast<std::uint32_t>(from->limiter), false});
    r.links.push_back({static_cast<std::uint32_t>(from->up), false});
  }
  if (z.backbone >= 0) r.links.push_back({static_cast<std::uint32_t>(z.backbone), false});
  if (to != nullptr) {
    r.links.push_back({static_cast<std::uint32_t>(to->up), true});
    if (to->limiter >= 0) r.links.push_back({static_cast<std::uint32_t>(to->limiter), false});
  }
  return r;
}

/// A star zone (routing Cluster): the source's <host_link> up, then the target's down, a link
/// crossed once (SimGrid's StarZone; a node without one adds no link).
Local star_route(const Model& m, const Zone& z, int a, int b) {
  Local r{{}, a, b};
  const auto add = [&](const network::Hop& hop) {
    const bool halves = m.links[hop.link].sharing == network::Sharing::splitduplex;
    for (const network::Hop& h : r.links)
      if (h.link == hop.link && (!halves || h.reverse == hop.reverse)) return;
    r.links.push_back(hop);
  };
  if (const auto from = z.host_links.find(a); from != z.host_links.end()) add(from->second.first);
  if (const auto to = z.host_links.find(b); to != z.host_links.end()) add(to->second.second);
  return r;
}

/// Floyd and Dijkstra: the path of fewest links over the zone's routes (ties: the routes in file
/// order), gateways joined by node_route.
Local shortest_route(const Model& m, int zone, int a, int b, int line) {
  const Zone& z = m.zones[static_cast<std::size_t>(zone)];
  std::map<int, std::size_t> best;  // node → links so far
  std::map<int, int> via;           // node → the edge that reached it
  best[a] = 0;
  // Bellman-Ford by rounds: the graphs are small, and it keeps file order among equal paths.
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t e = 0; e < z.edges.size(); ++e) {
      const Edge& edge = z.edges[e];
      const auto from = best.find(edge.src);
      if (from == best.end() || edge.src == edge.dst) continue;
      const std::size_t cost = from->second + edge.links.size();
      const auto to = best.find(edge.dst);
      if (to == best.end() || cost < to->second) {
        best[edge.dst] = cost;
        via[edge.dst] = static_cast<int>(e);
        changed = true;
      }
    }
  }
  if (best.find(b) == best.end()) no_route(m, zone, a, b, line);
  std::vector<int> path;
  for (int node = b; node != a; node = z.edges[static_cast<std::size_t>(via[node])].src) {
    path.push_back(via[node]);
    if (path.size() > z.edges.size()) no_route(m, zone, a, b, line);
  }
  Local r{{}, 0, 0};
  for (std::size_t i = path.size(); i-- > 0;) {
    const Edge& edge = z.edges[static_cast<std::size_t>(path[i])];
    if (i + 1 == path.size()) {
      r.gw_src = edge.gw_src;
    } else if (r.gw_dst != edge.gw_src) {
      network::Route between;
      node_route(m, r.gw_dst, edge.gw_src, between, line);
      r.links.insert(r.links.end(), between.begin(), between.end());
    }
    r.links.insert(r.links.end(), edge.links.begin(), edge.links.end());
    r.gw_dst = edge.gw_dst;
  }
  return r;
}

Local local_route(const Model& m, int zone, int a, int b, int line) {
  const Zone& z = m.zones[static_cast<std::size_t>(zone)];
  switch (z.routing) {
    case Routing::cluster:
      return cluster_route(z, a, b);
    case Routing::star:
      return star_route(m, z, a, b);
    case Routing::none:
      return {{}, a, b};
    case Routing::floyd:
    case Routing::dijkstra:
      if (a != b) return shortest_route(m, zone, a, b, line);
      [[fallthrough]];
    case Routing::full:
      for (const Edge& edge : z.edges)
        if (edge.src == a && edge.dst == b) return {edge.links, edge.gw_src, edge.gw_dst};
      // SimGrid gives a node without a written route to itself the model's loopback link
      if (a == b) {
        if (m.loopback < 0) return {{}, a, b};
        return {{network::Hop{static_cast<std::uint32_t>(m.loopback), false}}, a, b};
      }
      no_route(m, zone, a, b, line);
  }
  no_route(m, zone, a, b, line);
}

}  // namespace

void node_route(const Model& m, int src, int dst, network::Route& out, int line) {
  // the lowest zone holding both: the first of src's ancestors that is also dst's
  std::vector<int> dst_chain;
  for (int z = m.nodes[static_cast<std::size_t>(dst)].zone; z >= 0; z = parent_zone(m, z)) dst_chain.push_back(z);
  int common = m.nodes[static_cast<std::size_t>(src)].zone;
  while (std::find(dst_chain.begin(), dst_chain.end(), common) == dst_chain.end()) common = parent_zone(m, common);
  // A <bypassRoute> of this zone or one above it replaces the route (one way only).
  for (int z = common; z >= 0; z = parent_zone(m, z)) {
    const auto& bypass = m.zones[static_cast<std::size_t>(z)].bypass;
    if (const auto it = bypass.find({src, dst}); it != bypass.end()) {
      out.insert(out.end(), it->second.begin(), it->second.end());
      return;
    }
  }
  const int a = representative(m, src, common);
  const int b = representative(m, dst, common);
  const Local local = local_route(m, common, a, b, line);
  if (local.gw_src != src) node_route(m, src, local.gw_src, out, line);
  out.insert(out.end(), local.links.begin(), local.links.end());
  if (local.gw_dst != dst) node_route(m, local.gw_dst, dst, out, line);
}

}  // namespace augur::machines::platform::detail
