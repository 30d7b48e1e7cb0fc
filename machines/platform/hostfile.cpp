// smpirun's hostfile (see hostfile.hpp).
#include "machines/platform/hostfile.hpp"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <sstream>

#include "machines/platform/platform_error.hpp"

namespace augur::machines::platform {

std::vector<int> parse_hostfile(const std::string& text, const std::string& file, const Platform& platform, int ranks) {
  std::vector<int> lines;  // one entry per (unrolled) line
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    // smpirun strips the line; "host:N" repeats it N times
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
    std::string host = line;
    long count = 1;
    if (const auto colon = line.rfind(':'); colon != std::string::npos) {
      host = line.substr(0, colon);
      const std::string n = line.substr(colon + 1);
      if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos)
        throw PlatformError(file, number, "'" + n + "' is not a count of processes (host:N)");
      count = std::stol(n);
    }
    const int index = platform.host_index(host);
    if (index < 0) throw PlatformError(file, number, "unknown host '" + host + "' (not in " + platform.file + ")");
    lines.insert(lines.end(), static_cast<std::size_t>(count), index);
  }
  if (lines.empty()) throw PlatformError(file, 0, "the hostfile names no host");
  std::vector<int> hosts(static_cast<std::size_t>(std::max(ranks, 0)));
  for (std::size_t r = 0; r < hosts.size(); ++r) hosts[r] = lines[r % lines.size()];
  return hosts;
}

std::vector<int> read_hostfile(const std::string& path, const Platform& platform, int ranks) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PlatformError(path, 0, "cannot open the hostfile");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_hostfile(text.str(), path, platform, ranks);
}

std::vector<int> default_mapping(const Platform& platform, int ranks) {
  std::vector<int> order(platform.hosts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return platform.hosts[static_cast<std::size_t>(a)].name < platform.hosts[static_cast<std::size_t>(b)].name;
  });
  std::vector<int> hosts(static_cast<std::size_t>(std::max(ranks, 0)));
  for (std::size_t r = 0; r < hosts.size(); ++r) hosts[r] = order[r % order.size()];
  return hosts;
}

}  // namespace augur::machines::platform
