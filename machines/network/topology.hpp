// Routed topologies built from links: SimGrid's <cluster> (private links, optional backbone and
// loopback), its torus (any dimensions, wrap-around, dimension-order routing), its fat tree and
// its dragonfly (fat_tree.cpp, dragonfly.cpp), and routes given one by one (SimGrid platform
// files, machines/platform).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "machines/machine_model.hpp"
#include "machines/network/flow_network.hpp"
#include "machines/network/shapes.hpp"

namespace augur::machines::network {

class Topology {
 public:
  /// `hosts` hosts, each with a private link to a switch; the switch is a backbone link when
  /// `backbone.bandwidth` > 0 (else non-blocking); a message to oneself crosses the host's
  /// loopback when `loopback.bandwidth` > 0 (else its private link up and down).
  static Topology cluster(int hosts, Link private_link, Link backbone, Link loopback);
  /// A torus of Π dims hosts, coordinate 0 fastest, one link per host and dimension to its
  /// successor (wrapping); routes correct the dimensions in order, each the shorter way round.
  static Topology torus(std::vector<int> dims, Link link, Link loopback);
  /// SimGrid's FAT_TREE cluster: every switch link is `link` (splitduplex: one capacity per
  /// direction, else shared); routes go up to the nearest common ancestor and down, the up-link
  /// and parallel link chosen as SimGrid's FatTreeZone does (d-mod-k).
  static Topology fat_tree(const FatTreeShape& shape, Link link, Link loopback);
  /// SimGrid's DRAGONFLY cluster: host links `link`, green, black and blue links that many times
  /// its bandwidth; minimal routes as SimGrid's DragonflyZone builds them (groups ≤ routers).
  static Topology dragonfly(const DragonflyShape& shape, Link link, Link loopback);
  /// Any routes (a SimGrid platform file's zones): `routes[src · hosts + dst]` lists the links
  /// from host src to host dst (hosts² routes, held flat).
  static Topology table(int hosts, std::vector<Link> links, const std::vector<Route>& routes);

  int hosts() const { return hosts_; }
  const std::vector<Link>& links() const { return links_; }
  /// The links from `src` to `dst` (hosts), appended to `out` after clearing it.
  void route(int src, int dst, Route& out) const;
  /// The name reports give link `link` (crossed in reverse: its other direction, which has a
  /// name of its own when the link is splitduplex): the names set (platform files: SimGrid's
  /// ids, a splitduplex half with SimGrid's _UP/_DOWN), else generated (link_names.cpp):
  /// `host3-up`, `host3-down`, `backbone`, `host3-loopback`, `torus:(1,2,0)+x` (from (1,2,0) to
  /// its successor along x; `-x` the other way), `fat_tree:L1:5-p2-up` (level, node, port),
  /// `host3`, `green:(g,c,r)-(g,c,r')`, `black:…`, `blue:g-g'`, `link7` (a table without names).
  std::string link_name(std::uint32_t link, bool reverse) const;
  /// Names for every link (by index), as the platform file calls them.
  void set_link_names(std::vector<std::string> names) { names_ = std::move(names); }

 private:
  enum class Kind { cluster, torus, fat_tree, dragonfly, table };
  void torus_route(int src, int dst, Route& out) const;
  void fat_tree_route(int src, int dst, Route& out) const;
  void dragonfly_route(int src, int dst, Route& out) const;
  std::string fat_tree_link_name(std::uint32_t link) const;
  std::string dragonfly_link_name(std::uint32_t link, bool reverse) const;
  Kind kind_ = Kind::cluster;
  int hosts_ = 0;
  std::vector<Link> links_;
  std::vector<int> dims_;                    ///< torus: extents; fat tree: down, up, parallel; dragonfly: its shape
  int backbone_ = -1;                        ///< cluster: the backbone's link, −1 = none
  int loopback_first_ = -1;                  ///< the first host's loopback link, −1 = none
  std::vector<Hop> table_hops_;              ///< table: every route's hops, route after route
  std::vector<std::uint32_t> table_starts_;  ///< table: where route src · hosts + dst starts (hosts² + 1)
  std::vector<std::string> names_;           ///< link names given (set_link_names), else empty
};

/// What every capacity of `network` (built on `topology`'s links) carried, named by the topology.
std::vector<LinkUsage> link_usage(const Topology& topology, const FlowNetwork& network);

}  // namespace augur::machines::network
