// read_platform: the XML tree read (platform_reader.cpp), then every host-to-host route
// resolved into the platform's topology.
#include "machines/platform/platform.hpp"

#include <fstream>
#include <sstream>

#include "machines/platform/platform_reader.hpp"

namespace augur::machines::platform {

/// Hosts beyond which a platform of zones (a route table of hosts² routes) is refused.
constexpr std::size_t max_table_hosts = 1024;

Platform parse_platform(const std::string& text, const std::string& file) {
  const XmlElement root = parse_xml(text, file);
  Platform out;
  out.file = file;
  detail::Model model;
  model.file = file;
  detail::Reader(model, out).platform(root);
  if (model.whole) {
    out.topology = std::move(*model.whole);
    return out;
  }
  const std::size_t n = out.hosts.size();
  if (n > max_table_hosts)
    throw PlatformError(file, root.line,
                        "a platform of zones with " + std::to_string(n) + " hosts (augur routes at most " +
                            std::to_string(max_table_hosts) + " host by host; a single <cluster> has no limit)");
  model.loopback = static_cast<int>(model.links.size());
  model.links.push_back(network::Link{498e6, 15e-6, network::Sharing::fatpipe});
  std::vector<network::Route> routes(n * n);
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t d = 0; d < n; ++d)
      detail::node_route(model, model.host_nodes[s], model.host_nodes[d], routes[s * n + d], out.hosts[s].line);
  std::vector<std::string> names(model.links.size());
  for (const auto& [name, link] : model.link_ids) names[static_cast<std::size_t>(link)] = name;
  out.topology = network::Topology::table(static_cast<int>(n), std::move(model.links), routes);
  out.topology.set_link_names(std::move(names));
  return out;
}

Platform read_platform(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PlatformError(path, 0, "cannot open the platform file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_platform(text.str(), path);
}

}  // namespace augur::machines::platform
