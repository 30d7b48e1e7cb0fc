// SimGrid's <cluster>: hosts PREFIX<n>SUFFIX for every n of the radical, each with its private
// link (and optional loopback and limiter), an optional backbone and the cluster's router; or a
// FAT_TREE, TORUS or DRAGONFLY topology (the platform's only zone: built by network::Topology).
#include <algorithm>
#include <stdexcept>

#include "machines/network/shapes.hpp"
#include "machines/platform/platform_reader.hpp"

namespace augur::machines::platform::detail {
namespace {

/// "0-63,70,72-75" → the numbers in order; std::invalid_argument when malformed.
std::vector<int> parse_radical(const std::string& text) {
  std::vector<int> out;
  std::size_t pos = 0;
  const auto number = [&text](const std::string& item) {
    if (item.empty() || item.size() > 7 || item.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("'" + text + "' is not a radical like 0-63,70");
    return std::stoi(item);
  };
  while (pos <= text.size()) {
    const auto comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const auto dash = item.find('-');
    const int first = number(item.substr(0, dash));
    const int last = dash == std::string::npos ? first : number(item.substr(dash + 1));
    if (last < first || out.size() + static_cast<std::size_t>(last - first) > 1000000)
      throw std::invalid_argument("'" + text + "': bad range '" + item + "'");
    for (int n = first; n <= last; ++n) out.push_back(n);
    pos = comma + 1;
  }
  return out;
}

/// Π counts, or −1 beyond `limit` (a shape's hosts, checked before anything is built).
long long product(const std::vector<int>& counts, long long limit) {
  long long p = 1;
  for (int c : counts) {
    p *= std::max(c, 0);
    if (p > limit) return -1;
  }
  return p;
}

/// A TORUS ("4,4,4"), FAT_TREE or DRAGONFLY cluster's topology (SimGrid's topo_parameters) of
/// `hosts` hosts; std::invalid_argument when the parameters are malformed or hold another count.
network::Topology shaped(const std::string& topology, const std::string& parameters, network::Link link,
                         network::Link loopback, std::size_t hosts) {
  const auto limit = static_cast<long long>(hosts);
  const auto check = [&](long long holds) {
    if (holds != limit)
      throw std::invalid_argument("the " + topology + " holds " + (holds < 0 ? "more" : std::to_string(holds)) +
                                  " hosts, the radical names " + std::to_string(hosts));
  };
  if (topology == "TORUS") {
    const std::vector<int> dims = parse_radical(parameters);
    check(product(dims, limit));
    return network::Topology::torus(dims, link, loopback);
  }
  if (topology == "FAT_TREE") {
    const network::FatTreeShape shape = network::parse_fat_tree(parameters);
    check(product(shape.down, limit));
    // links between levels l and l + 1: (Π_{i≥l} down[i] · Π_{i<l} up[i]) · up[l] · parallel[l]
    constexpr double max_links = 1 << 24;
    double links = 0;
    for (std::size_t l = 0; l < shape.down.size() && l < shape.up.size() && l < shape.parallel.size(); ++l) {
      double nodes = 1;
      for (std::size_t i = 0; i < shape.down.size(); ++i) nodes *= i >= l ? shape.down[i] : shape.up[i];
      links += nodes * shape.up[l] * shape.parallel[l];
    }
    if (links > max_links) throw std::invalid_argument("a fat tree of more than 16777216 links");
    return network::Topology::fat_tree(shape, link, loopback);
  }
  const network::DragonflyShape shape = network::parse_dragonfly(parameters);
  check(product({shape.groups, shape.chassis, shape.routers, shape.hosts}, limit));
  return network::Topology::dragonfly(shape, link, loopback);
}

}  // namespace

void Reader::cluster(const XmlElement& e, int parent) {
  // clang-format off
  allow(e, {"id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy", "topology",
            "topo_parameters", "bb_bw", "bb_lat", "bb_sharing_policy", "loopback_bw", "loopback_lat", "limiter_link",
            "router_id", "availability_file", "state_file"});
  // clang-format on
  no_children(e);
  const std::string& id = require(e, "id");
  std::vector<int> radical;
  try {
    radical = parse_radical(require(e, "radical"));
  } catch (const std::invalid_argument& error) {
    fail(e, std::string("attribute 'radical': ") + error.what());
  }
  const double speed = value(e, "speed", SgUnit::speed, nullptr);
  const int cores = core_count(e);
  const network::Link link{value(e, "bw", SgUnit::bandwidth, nullptr), value(e, "lat", SgUnit::time, nullptr),
                           sharing(e, "sharing_policy", network::Sharing::splitduplex)};
  const bool has_loopback = e.find("loopback_bw") != nullptr || e.find("loopback_lat") != nullptr;
  network::Link loopback{value(e, "loopback_bw", SgUnit::bandwidth, "0"), value(e, "loopback_lat", SgUnit::time, "0"),
                         network::Sharing::fatpipe};
  if (has_loopback && !(loopback.bandwidth > 0)) fail(e, "attribute 'loopback_bw': needs a positive bandwidth");
  const network::Link backbone{value(e, "bb_bw", SgUnit::bandwidth, "0"), value(e, "bb_lat", SgUnit::time, "0"),
                               sharing(e, "bb_sharing_policy", network::Sharing::shared)};
  const double limiter = value(e, "limiter_link", SgUnit::bandwidth, "0");
  const std::string topology = e.find("topology") ? *e.find("topology") : "FLAT";
  const std::string prefix = e.find("prefix") ? *e.find("prefix") : "";
  const std::string suffix = e.find("suffix") ? *e.find("suffix") : "";

  const int zone = add_zone(e, id, Routing::cluster, parent);
  for (int n : radical) add_host(e, prefix + std::to_string(n) + suffix, speed, cores, zone);

  if (topology != "FLAT") {
    if (topology != "TORUS" && topology != "FAT_TREE" && topology != "DRAGONFLY")
      fail(e, "attribute 'topology': unknown '" + topology + "'; accepted: FLAT, TORUS, FAT_TREE, DRAGONFLY");
    if (parent >= 0) fail(e, "a " + topology + " cluster must be the whole platform (augur routes it only alone)");
    if (backbone.bandwidth > 0 || limiter > 0)
      fail(e, "bb_bw and limiter_link are not modelled with topology=" + topology);
    network::Topology t;
    try {
      t = shaped(topology, require(e, "topo_parameters"), link, has_loopback ? loopback : network::Link{},
                 radical.size());
    } catch (const std::invalid_argument& error) {
      fail(e, "attribute 'topo_parameters': " + std::string(error.what()));
    }
    m_.whole = std::move(t);
    return;
  }
  if (parent < 0 && !(limiter > 0)) {
    m_.whole = network::Topology::cluster(static_cast<int>(radical.size()), link, backbone,
                                          has_loopback ? loopback : network::Link{});
    // SimGrid's names, in Topology::cluster's order: private links, loopbacks, the backbone
    std::vector<std::string> names;
    for (int n : radical) names.push_back(id + "_link_" + std::to_string(n));
    if (has_loopback)
      for (int n : radical) names.push_back(id + "_link_" + std::to_string(n) + "_loopback");
    if (backbone.bandwidth > 0) names.push_back(id + "_backbone");
    m_.whole->set_link_names(std::move(names));
  }
  // SimGrid's links: ID_link_N (private), ID_link_N_loopback, ID_link_N_limiter, ID_backbone
  auto& links = m_.zones[static_cast<std::size_t>(zone)].cluster_links;
  for (std::size_t i = 0; i < radical.size(); ++i) {
    const int node = m_.host_nodes[m_.host_nodes.size() - radical.size() + i];
    const std::string base = id + "_link_" + std::to_string(radical[i]);
    ClusterLinks& l = links[node];
    if (has_loopback) l.loopback = add_link(base + "_loopback", loopback, e);
    if (limiter > 0) l.limiter = add_link(base + "_limiter", {limiter, 0, network::Sharing::shared}, e);
    l.up = add_link(base, link, e);
  }
  if (backbone.bandwidth > 0)
    m_.zones[static_cast<std::size_t>(zone)].backbone = add_link(id + "_backbone", backbone, e);
  const std::string router = e.find("router_id") ? *e.find("router_id") : prefix + id + "_router" + suffix;
  m_.zones[static_cast<std::size_t>(zone)].router = add_node({Node::Kind::router, router, 0, zone, e.line}, e);
}

}  // namespace augur::machines::platform::detail
