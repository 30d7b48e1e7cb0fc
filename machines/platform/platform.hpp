// A SimGrid platform file (XML v4.1) read into hosts, links and the routes between hosts: the
// network of augur's flow model (machines/network) and the host speeds that price compute.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "machines/network/topology.hpp"

namespace augur::machines::platform {

struct PlatformHost {
  std::string name;
  double speed = 0;  ///< flop/s (the first pstate's)
  int cores = 1;
  int line = 0;  ///< where it is declared (a <host> or its <cluster>)
};

struct Platform {
  std::string file;
  std::vector<PlatformHost> hosts;  ///< in the order of the file
  network::Topology topology;       ///< host i of the topology is hosts[i]
  /// The <config><prop id value> of the file, in file order, each with its line.
  std::vector<std::pair<std::string, std::string>> config;
  std::vector<int> config_lines;
  /// The index of the host named `name`, or −1.
  int host_index(const std::string& name) const;
};

/// Reads `path`. Throws PlatformError ("file:line: error: …") on anything SimGrid would refuse or
/// augur cannot model: malformed XML, an unknown element or attribute value, a bad unit, a
/// missing attribute, a duplicate id, a route naming an unknown link or host, two hosts without
/// a route between them, bad topology parameters.
Platform read_platform(const std::string& path);
/// The same from text (`file` names it in errors).
Platform parse_platform(const std::string& text, const std::string& file);

/// True when `path` names a platform file: extension .xml, or content starting with "<?xml" or
/// "<platform".
bool looks_like_platform(const std::string& path, const std::string& text);

}  // namespace augur::machines::platform
