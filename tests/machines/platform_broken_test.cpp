// Broken SimGrid platform files (tests/machines/fixtures/platform/broken/): each one's exact
// "file:line: error: message".
#include <doctest/doctest.h>

#include <string>

#include "machines/platform/platform.hpp"
#include "machines/platform/platform_error.hpp"

using namespace augur::machines::platform;

namespace {

const std::string broken = std::string(AUGUR_SOURCE_DIR) + "/tests/machines/fixtures/platform/broken/";

/// The error of reading fixture `name` ("" when it reads).
std::string error_of(const std::string& name) {
  try {
    (void)read_platform(broken + name);
  } catch (const PlatformError& e) {
    return std::string(e.what()).substr(broken.size());
  }
  return "";
}

}  // namespace

TEST_CASE("broken platform files give file:line: error: message") {
  const std::pair<const char*, const char*> cases[] = {
      {"bad_radical.xml", "bad_radical.xml:3: error: attribute 'radical': '0-x' is not a radical like 0-63,70"},
      {"bad_topology.xml",
       "bad_topology.xml:3: error: attribute 'topo_parameters': a fat tree is 'levels;down;up;parallel', e.g. "
       "2;4,4;1,2;1,2"},
      {"bad_unit.xml",
       "bad_unit.xml:5: error: attribute 'bandwidth' of <link>: unknown unit 'GBs' in '1GBs'; expected one of Bps, "
       "kBps, MBps, GBps, TBps, KiBps, MiBps, GiBps, TiBps, bps, kbps, Mbps, Gbps, Tbps"},
      {"bad_version.xml", "bad_version.xml:2: error: unsupported platform version '3' (augur reads version 4.1)"},
      {"dangling_link.xml",
       "dangling_link.xml:7: error: unknown link 'nowhere' (links are declared before the routes using them)"},
      {"duplicate_id.xml", "duplicate_id.xml:5: error: duplicate id 'a' (first declared at line 4)"},
      {"malformed.xml", "malformed.xml:5: error: malformed XML: mismatched tag"},
      {"missing_attribute.xml", "missing_attribute.xml:4: error: <host> needs the attribute 'speed'"},
      {"no_route.xml", "no_route.xml:4: error: no route from 'a' to 'c' in zone 'z'"},
      {"route_outside_zone.xml",
       "route_outside_zone.xml:9: error: attribute 'src': 'a' is not a host or router of zone 'top'"},
      {"splitduplex_direction.xml",
       "splitduplex_direction.xml:7: error: link 'l' is SPLITDUPLEX: say which half, direction=\"UP\" or \"DOWN\""},
      {"unknown_attribute.xml",
       "unknown_attribute.xml:4: error: unknown attribute 'cores' of <host>; accepted: id, speed, core, pstate, "
       "coordinates, availability_file, state_file"},
      {"unknown_element.xml",
       "unknown_element.xml:5: error: unknown element <switch> in <zone>; accepted: host, link, router, route, "
       "zoneRoute, host_link, bypassRoute, zone, cluster, prop"},
      {"unknown_routing.xml",
       "unknown_routing.xml:3: error: unknown routing 'Fastest' of zone 'z'; accepted: Full, Floyd, Dijkstra, "
       "DijkstraCache, None, Cluster, Star"},
      {"host_link_outside_star.xml",
       "host_link_outside_star.xml:6: error: <host_link> belongs in a zone of routing Cluster (or Star), not in zone "
       "'z'"},
      {"route_in_star.xml",
       "route_in_star.xml:7: error: zone 'z' has routing Cluster: its hosts' links are <host_link>s, not routes"},
      {"bypass_unknown_host.xml",
       "bypass_unknown_host.xml:7: error: attribute 'dst': unknown host or router 'nowhere'"},
  };
  for (const auto& [file, message] : cases) {
    CAPTURE(file);
    CHECK(error_of(file) == message);
  }
}
