// The elements of a SimGrid platform file (v4.1) read into zones, nodes and links
// (platform_model.hpp); every mistake is reported at its element's line.
#include "machines/platform/platform_reader.hpp"

#include <algorithm>

#include "machines/platform/platform_error.hpp"

namespace augur::machines::platform {
namespace detail {

const std::string& Reader::require(const XmlElement& e, const char* key) const {
  if (const std::string* v = e.find(key)) return *v;
  fail(e, "<" + e.name + "> needs the attribute '" + key + "'");
}

void Reader::allow(const XmlElement& e, std::initializer_list<std::string_view> allowed) const {
  for (const auto& [key, value] : e.attributes)
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(e, "unknown attribute '" + key + "' of <" + e.name + ">; accepted: " + list);
    }
}

double Reader::value(const XmlElement& e, const char* key, SgUnit unit, const char* fallback) const {
  const std::string* text = e.find(key);
  if (text == nullptr && fallback == nullptr) require(e, key);
  std::string first = text ? *text : fallback;
  // several pstate speeds "100Mf,50Mf": the first is the speed of pstate 0
  if (unit == SgUnit::speed) first = first.substr(0, first.find(','));
  try {
    return parse_sg_value(first, unit);
  } catch (const std::invalid_argument& error) {
    fail(e, std::string("attribute '") + key + "' of <" + e.name + ">: " + error.what());
  }
}

network::Sharing Reader::sharing(const XmlElement& e, const char* key, network::Sharing fallback) const {
  const std::string* text = e.find(key);
  if (text == nullptr) return fallback;
  if (*text == "SHARED") return network::Sharing::shared;
  if (*text == "SPLITDUPLEX") return network::Sharing::splitduplex;
  if (*text == "FATPIPE") return network::Sharing::fatpipe;
  fail(e, std::string("attribute '") + key + "': unknown sharing policy '" + *text +
              "'; accepted: SHARED, SPLITDUPLEX, FATPIPE");
}

int Reader::core_count(const XmlElement& e) const {
  const std::string* core = e.find("core");
  if (core == nullptr) return 1;
  if (core->empty() || core->size() > 6 || core->find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(*core) < 1)
    fail(e, "attribute 'core': '" + *core + "' is not a positive count");
  return std::stoi(*core);
}

void Reader::no_children(const XmlElement& e, std::string_view allowed) const {
  for (const XmlElement& child : e.children) {
    if (child.name != allowed)
      fail(child, "<" + child.name + "> cannot appear inside <" + e.name + "> (only <" + std::string(allowed) + ">)");
    allow(child, {"id", "value"});
  }
}

int Reader::add_node(Node node, const XmlElement& e) {
  const auto [it, fresh] = m_.node_ids.emplace(node.name, static_cast<int>(m_.nodes.size()));
  if (!fresh)
    fail(e, "duplicate id '" + node.name + "' (first declared at line " +
                std::to_string(m_.nodes[static_cast<std::size_t>(it->second)].line) + ")");
  node.line = e.line;
  m_.nodes.push_back(std::move(node));
  return it->second;
}

int Reader::add_link(const std::string& name, network::Link link, const XmlElement& e) {
  if (!(link.bandwidth > 0)) fail(e, "link '" + name + "' needs a positive bandwidth");
  const auto [it, fresh] = m_.link_ids.emplace(name, static_cast<int>(m_.links.size()));
  if (!fresh) fail(e, "duplicate link id '" + name + "'");
  m_.links.push_back(link);
  return it->second;
}

int Reader::add_zone(const XmlElement& e, const std::string& id, Routing routing, int parent) {
  const int index = static_cast<int>(m_.zones.size());
  detail::Zone z;
  z.id = id;
  z.routing = routing;
  z.line = e.line;
  if (parent >= 0) z.node = add_node({Node::Kind::zone, id, index, parent, e.line}, e);
  m_.zones.push_back(std::move(z));
  return index;
}

int Reader::add_host(const XmlElement& e, const std::string& name, double speed, int cores, int zone) {
  if (!(speed > 0)) fail(e, "host '" + name + "' needs a positive speed");
  const int host = static_cast<int>(out_.hosts.size());
  const int node = add_node({Node::Kind::host, name, host, zone, e.line}, e);
  out_.hosts.push_back({name, speed, cores, e.line});
  m_.host_nodes.push_back(node);
  return node;
}

void Reader::platform(const XmlElement& root) {
  if (root.name != "platform") fail(root, "expected <platform> as the root element, found <" + root.name + ">");
  allow(root, {"version"});
  const std::string& version = require(root, "version");
  if (version != "4.1" && version != "4")
    fail(root, "unsupported platform version '" + version + "' (augur reads version 4.1)");
  for (const XmlElement& e : root.children) {
    if (e.name == "config") {
      config(e);
    } else if (e.name == "zone" || e.name == "cluster") {
      if (!m_.zones.empty())
        fail(e, "a platform has one root zone; the first is at line " + std::to_string(m_.zones.front().line) +
                    " (nest the others in it)");
      if (e.name == "zone")
        zone(e, -1);
      else
        cluster(e, -1);
    } else {
      fail(e, "unknown element <" + e.name + "> in <platform>; accepted: config, zone, cluster");
    }
  }
  if (m_.zones.empty()) fail(root, "the platform has no <zone> or <cluster>");
  if (out_.hosts.empty()) fail(root, "the platform has no host");
}

void Reader::config(const XmlElement& e) {
  allow(e, {"id"});
  for (const XmlElement& p : e.children) {
    if (p.name != "prop") fail(p, "<" + p.name + "> cannot appear inside <config> (only <prop>)");
    allow(p, {"id", "value"});
    out_.config.emplace_back(require(p, "id"), require(p, "value"));
    out_.config_lines.push_back(p.line);
  }
}

void Reader::zone(const XmlElement& e, int parent) {
  allow(e, {"id", "routing"});
  const std::string& id = require(e, "id");
  const std::string& routing = require(e, "routing");
  Routing r = Routing::full;
  if (routing == "Full") {
    r = Routing::full;
  } else if (routing == "Floyd") {
    r = Routing::floyd;
  } else if (routing == "Dijkstra" || routing == "DijkstraCache") {
    r = Routing::dijkstra;
  } else if (routing == "None") {
    r = Routing::none;
  } else if (routing == "Cluster" || routing == "Star") {
    r = Routing::star;  // SimGrid 3.32 reads "Cluster" (a StarZone); "Star" is its later name
  } else {
    fail(e, "unknown routing '" + routing + "' of zone '" + id +
                "'; accepted: Full, Floyd, Dijkstra, DijkstraCache, None, Cluster, Star");
  }
  const int index = add_zone(e, id, r, parent);
  for (const XmlElement& child : e.children) zone_child(child, index);
}

void Reader::zone_child(const XmlElement& e, int zone) {
  if (e.name == "host") {
    host(e, zone);
  } else if (e.name == "link") {
    link(e);
  } else if (e.name == "router") {
    allow(e, {"id", "coordinates"});
    no_children(e);
    add_node({Node::Kind::router, require(e, "id"), 0, zone, e.line}, e);
  } else if (e.name == "route") {
    route(e, zone, false);
  } else if (e.name == "zoneRoute") {
    route(e, zone, true);
  } else if (e.name == "host_link") {
    host_link(e, zone);
  } else if (e.name == "bypassRoute") {
    bypass_route(e, zone);
  } else if (e.name == "zone") {
    this->zone(e, zone);
  } else if (e.name == "cluster") {
    cluster(e, zone);
  } else if (e.name == "prop") {
    allow(e, {"id", "value"});
  } else {
    fail(e, "unknown element <" + e.name +
                "> in <zone>; accepted: host, link, router, route, zoneRoute, host_link, bypassRoute, "
                "zone, cluster, prop");
  }
}

void Reader::host(const XmlElement& e, int zone) {
  allow(e, {"id", "speed", "core", "pstate", "coordinates", "availability_file", "state_file"});
  no_children(e);
  const double speed = value(e, "speed", SgUnit::speed, nullptr);
  add_host(e, require(e, "id"), speed, core_count(e), zone);
}

void Reader::link(const XmlElement& e) {
  allow(e, {"id", "bandwidth", "latency", "sharing_policy", "bandwidth_file", "latency_file", "state_file"});
  no_children(e);
  const network::Link l{value(e, "bandwidth", SgUnit::bandwidth, nullptr), value(e, "latency", SgUnit::time, "0"),
                        sharing(e, "sharing_policy", network::Sharing::shared)};
  add_link(require(e, "id"), l, e);
}

network::Route Reader::link_list(const XmlElement& e) {
  network::Route links;
  for (const XmlElement& c : e.children) {
    if (c.name != "link_ctn") fail(c, "<" + c.name + "> cannot appear inside <" + e.name + "> (only <link_ctn>)");
    allow(c, {"id", "direction"});
    links.push_back(link_ref(c, require(c, "id"), c.find("direction") ? *c.find("direction") : "NONE"));
  }
  return links;
}

network::Hop Reader::link_ref(const XmlElement& c, std::string id, std::string direction) {
  if (direction != "UP" && direction != "DOWN" && direction != "NONE")
    fail(c, "attribute 'direction': '" + direction + "' is not UP, DOWN or NONE");
  auto it = m_.link_ids.find(id);
  // SimGrid's names of the two halves of a split-duplex link: ID_UP, ID_DOWN
  for (const char* half : {"_UP", "_DOWN"}) {
    const std::string_view suffix(half);
    if (it == m_.link_ids.end() && id.size() > suffix.size() && id.ends_with(suffix)) {
      const auto base = m_.link_ids.find(id.substr(0, id.size() - suffix.size()));
      if (base != m_.link_ids.end() &&
          m_.links[static_cast<std::size_t>(base->second)].sharing == network::Sharing::splitduplex) {
        it = base;
        direction = suffix == "_UP" ? "UP" : "DOWN";
      }
    }
  }
  if (it == m_.link_ids.end()) fail(c, "unknown link '" + id + "' (links are declared before the routes using them)");
  if (m_.links[static_cast<std::size_t>(it->second)].sharing == network::Sharing::splitduplex && direction == "NONE")
    fail(c, "link '" + id + "' is SPLITDUPLEX: say which half, direction=\"UP\" or \"DOWN\"");
  return {static_cast<std::uint32_t>(it->second), direction == "DOWN"};
}

void Reader::host_link(const XmlElement& e, int zone) {
  auto& z = m_.zones[static_cast<std::size_t>(zone)];
  allow(e, {"id", "up", "down"});
  no_children(e);
  if (z.routing != Routing::star)
    fail(e, "<host_link> belongs in a zone of routing Cluster (or Star), not in zone '" + z.id + "'");
  const int node = member(e, "id", zone, Node::Kind::host);
  const network::Hop up = link_ref(e, require(e, "up"), "UP");
  const network::Hop down = link_ref(e, require(e, "down"), "DOWN");
  if (!z.host_links.emplace(node, std::make_pair(up, down)).second)
    fail(e, "host '" + m_.nodes[static_cast<std::size_t>(node)].name + "' has a <host_link> already");
}

void Reader::bypass_route(const XmlElement& e, int zone) {
  allow(e, {"src", "dst"});
  const int src = descendant(e, "src", zone);
  const int dst = descendant(e, "dst", zone);
  auto& z = m_.zones[static_cast<std::size_t>(zone)];
  if (!z.bypass.emplace(std::make_pair(src, dst), link_list(e)).second)
    fail(e, "a bypassRoute from '" + m_.nodes[static_cast<std::size_t>(src)].name + "' to '" +
                m_.nodes[static_cast<std::size_t>(dst)].name + "' exists already");
}

int Reader::member(const XmlElement& e, const char* key, int zone, Node::Kind kind) {
  const std::string& name = require(e, key);
  const auto it = m_.node_ids.find(name);
  if (it == m_.node_ids.end())
    fail(e, "attribute '" + std::string(key) + "': unknown " + (kind == Node::Kind::zone ? "zone" : "host or router") +
                " '" + name + "'");
  const Node& n = m_.nodes[static_cast<std::size_t>(it->second)];
  const bool right_kind = kind == Node::Kind::zone ? n.kind == Node::Kind::zone : n.kind != Node::Kind::zone;
  if (!right_kind || n.zone != zone)
    fail(e, "attribute '" + std::string(key) + "': '" + name + "' is not a " +
                (kind == Node::Kind::zone ? "zone" : "host or router") + " of zone '" +
                m_.zones[static_cast<std::size_t>(zone)].id + "'");
  return it->second;
}

int Reader::descendant(const XmlElement& e, const char* key, int zone) {
  const std::string& name = require(e, key);
  const auto it = m_.node_ids.find(name);
  if (it == m_.node_ids.end() || m_.nodes[static_cast<std::size_t>(it->second)].kind == Node::Kind::zone)
    fail(e, "attribute '" + std::string(key) + "': unknown host or router '" + name + "'");
  for (int z = m_.nodes[static_cast<std::size_t>(it->second)].zone; z >= 0;) {
    if (z == zone) return it->second;
    const int node = m_.zones[static_cast<std::size_t>(z)].node;
    z = node < 0 ? -1 : m_.nodes[static_cast<std::size_t>(node)].zone;
  }
  fail(e, "attribute '" + std::string(key) + "': '" + name + "' is not inside zone '" +
              m_.zones[static_cast<std::size_t>(zone)].id + "'");
}

void Reader::route(const XmlElement& e, int zone, bool between_zones) {
  auto& z = m_.zones[static_cast<std::size_t>(zone)];
  if (z.routing == Routing::none) fail(e, "zone '" + z.id + "' has routing None: it takes no routes");
  if (z.routing == Routing::star)
    fail(e, "zone '" + z.id + "' has routing Cluster: its hosts' links are <host_link>s, not routes");
  Edge edge;
  edge.line = e.line;
  if (between_zones) {
    allow(e, {"src", "dst", "gw_src", "gw_dst", "symmetrical"});
    edge.src = member(e, "src", zone, Node::Kind::zone);
    edge.dst = member(e, "dst", zone, Node::Kind::zone);
    edge.gw_src = descendant(e, "gw_src", m_.nodes[static_cast<std::size_t>(edge.src)].index);
    edge.gw_dst = descendant(e, "gw_dst", m_.nodes[static_cast<std::size_t>(edge.dst)].index);
  } else {
    allow(e, {"src", "dst", "symmetrical"});
    edge.src = edge.gw_src = member(e, "src", zone, Node::Kind::host);
    edge.dst = edge.gw_dst = member(e, "dst", zone, Node::Kind::host);
  }
  edge.links = link_list(e);
  const std::string symmetrical = e.find("symmetrical") ? *e.find("symmetrical") : "YES";
  if (symmetrical != "YES" && symmetrical != "NO" && symmetrical != "yes" && symmetrical != "no")
    fail(e, "attribute 'symmetrical': '" + symmetrical + "' is not YES or NO");
  const auto same = [&](const Edge& o) { return o.src == edge.src && o.dst == edge.dst; };
  for (const Edge& o : z.edges)
    if (same(o))
      fail(e, "a route from '" + m_.nodes[static_cast<std::size_t>(edge.src)].name + "' to '" +
                  m_.nodes[static_cast<std::size_t>(edge.dst)].name + "' exists already (line " +
                  std::to_string(o.line) + ")");
  z.edges.push_back(edge);
  if ((symmetrical == "YES" || symmetrical == "yes") && edge.src != edge.dst) {
    // the way back: the links in reverse order, each crossed the other way
    Edge back{edge.dst, edge.src, edge.gw_dst, edge.gw_src, {}, e.line};
    for (auto it = edge.links.rbegin(); it != edge.links.rend(); ++it) back.links.push_back({it->link, !it->reverse});
    if (std::none_of(z.edges.begin(), z.edges.end(),
                     [&](const Edge& o) { return o.src == back.src && o.dst == back.dst; }))
      z.edges.push_back(std::move(back));
  }
}

}  // namespace detail

int Platform::host_index(const std::string& name) const {
  for (std::size_t i = 0; i < hosts.size(); ++i)
    if (hosts[i].name == name) return static_cast<int>(i);
  return -1;
}

bool looks_like_platform(const std::string& path, const std::string& text) {
  if (path.size() >= 4 && (path.ends_with(".xml") || path.ends_with(".XML"))) return true;
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return false;
  return text.compare(start, 5, "<?xml") == 0 || text.compare(start, 9, "<platform") == 0;
}

}  // namespace augur::machines::platform
