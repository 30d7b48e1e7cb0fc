// Private to machines/platform: the zones, netpoints and links of a platform file as read
// (platform_reader.cpp), before its routes are resolved host to host (platform_routes.cpp).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "machines/network/flow_network.hpp"
#include "machines/platform/platform.hpp"

namespace augur::machines::platform::detail {

enum class Routing { full, floyd, dijkstra, none, cluster, star };

/// A host, a router or a zone: what routes connect.
struct Node {
  enum class Kind { host, router, zone } kind = Kind::host;
  std::string name;
  int index = 0;  ///< host: its index in Platform::hosts; zone: its index in Model::zones
  int zone = -1;  ///< the zone holding it (−1: the zone is the root)
  int line = 0;
};

/// A <route> or <zoneRoute> between two nodes of a zone (gateways: the nodes themselves for a
/// <route>), its links in order.
struct Edge {
  int src = 0, dst = 0;
  int gw_src = 0, gw_dst = 0;
  network::Route links;
  int line = 0;
};

/// SimGrid's per-host links of a <cluster>, −1 when absent.
struct ClusterLinks {
  int up = -1;  ///< the private link (crossed forward going up, reversed going down)
  int loopback = -1;
  int limiter = -1;
};

struct Zone {
  std::string id;
  Routing routing = Routing::full;
  int node = -1;  ///< its node in the parent zone, −1 for the root
  int line = 0;
  std::vector<Edge> edges;
  // <cluster> only
  std::map<int, ClusterLinks> cluster_links;  ///< by host node
  int backbone = -1;
  int router = -1;  ///< the cluster's router node
  /// <zone routing="Cluster"> (SimGrid's star zone): the <host_link> up and down of a node
  std::map<int, std::pair<network::Hop, network::Hop>> host_links;
  /// <bypassRoute>: the links from a node to another, used instead of the route found
  std::map<std::pair<int, int>, network::Route> bypass;
};

struct Model {
  std::string file;
  std::vector<Node> nodes;
  std::vector<Zone> zones;
  std::vector<network::Link> links;
  std::map<std::string, int> link_ids;
  std::map<std::string, int> node_ids;
  std::vector<int> host_nodes;  ///< the node of Platform::hosts[i]
  /// SimGrid's `__loopback__` link (network/loopback-bw 498 MB/s, network/loopback-lat 15 us,
  /// FATPIPE): a host's route to itself in a Full, Floyd or Dijkstra zone that writes none.
  int loopback = -1;
  /// A platform that is one <cluster> gets its topology built whole (no route table).
  std::optional<network::Topology> whole;
};

/// The route from node `src` to node `dst` (hosts or routers), SimGrid's way: through the
/// lowest zone holding both, recursing into gateways. Throws PlatformError when a zone has no
/// route between the two (at `line`).
void node_route(const Model& model, int src, int dst, network::Route& out, int line);

}  // namespace augur::machines::platform::detail
