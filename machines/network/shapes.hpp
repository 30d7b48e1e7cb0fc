// The shapes of SimGrid's FAT_TREE and DRAGONFLY clusters, and their topo_parameters notation.
#pragma once
#include <string_view>
#include <vector>

namespace augur::machines::network {

/// SimGrid's "levels;down;up;parallel", e.g. "2;4,4;1,2;1,2": per level i (0 = the hosts' level),
/// down[i] children per node of level i + 1, up[i] parents per node of level i, parallel[i]
/// links between a node of level i and each of its parents. Hosts: Π down.
struct FatTreeShape {
  std::vector<int> down;
  std::vector<int> up;
  std::vector<int> parallel;
};

/// SimGrid's "groups,blue;chassis,black;routers,green;hosts", e.g. "3,1;2,1;3,1;2": groups of
/// chassis of routers (blades) of hosts; a link between two groups is `blue` links wide, between
/// two chassis of a group (same blade) `black`, between two routers of a chassis `green`.
struct DragonflyShape {
  int groups = 1, blue = 1;
  int chassis = 1, black = 1;
  int routers = 1, green = 1;
  int hosts = 1;
};

/// Parse SimGrid's notation; std::invalid_argument names what is wrong.
FatTreeShape parse_fat_tree(std::string_view text);
DragonflyShape parse_dragonfly(std::string_view text);

}  // namespace augur::machines::network
