// The names reports give a topology's links (Topology::link_name): the platform's own, or
// generated from the topology's structure so that a user can find the link on a drawing; and
// the usage of every link of a flow network under those names.
#include <string>

#include "machines/network/topology.hpp"

namespace augur::machines::network {

namespace {

/// "-up" / "-down" for the two directions of a splitduplex link, nothing for another.
std::string direction(const Link& link, bool reverse) {
  if (link.sharing != Sharing::splitduplex) return "";
  return reverse ? "-down" : "-up";
}

/// "(1,2,0)": the coordinates of torus host h, coordinate 0 first.
std::string coordinates(const std::vector<int>& dims, int h) {
  std::string out = "(";
  for (std::size_t j = 0; j < dims.size(); ++j) {
    if (j > 0) out += ',';
    out += std::to_string(h % dims[j]);
    h /= dims[j];
  }
  return out + ")";
}

std::string axis(std::size_t j) { return j < 3 ? std::string(1, "xyz"[j]) : "d" + std::to_string(j); }

}  // namespace

std::string Topology::link_name(std::uint32_t link, bool reverse) const {
  const Link& l = links_[link];
  if (link < names_.size()) {
    if (l.sharing != Sharing::splitduplex) return names_[link];
    return names_[link] + (reverse ? "_DOWN" : "_UP");
  }
  const auto index = static_cast<int>(link);
  if (loopback_first_ >= 0 && index >= loopback_first_ && index < loopback_first_ + hosts_)
    return "host" + std::to_string(index - loopback_first_) + "-loopback";
  switch (kind_) {
    case Kind::cluster:
      if (index == backbone_) return "backbone";
      return "host" + std::to_string(index) + direction(l, reverse);
    case Kind::torus: {
      // link h · n + j joins host h to its successor along j; its reverse direction starts there
      const auto n = static_cast<int>(dims_.size());
      const int h = index / n;
      const auto j = static_cast<std::size_t>(index % n);
      if (l.sharing != Sharing::splitduplex || !reverse) return "torus:" + coordinates(dims_, h) + "+" + axis(j);
      int stride = 1;
      for (std::size_t i = 0; i < j; ++i) stride *= dims_[i];
      const int here = (h / stride) % dims_[j];
      const int next = here == dims_[j] - 1 ? h - stride * (dims_[j] - 1) : h + stride;
      return "torus:" + coordinates(dims_, next) + "-" + axis(j);
    }
    case Kind::fat_tree:
      return fat_tree_link_name(link) + direction(l, reverse);
    case Kind::dragonfly:
      return dragonfly_link_name(link, reverse);
    case Kind::table:
      break;
  }
  return "link" + std::to_string(link) + direction(l, reverse);
}

std::vector<LinkUsage> link_usage(const Topology& topology, const FlowNetwork& network) {
  const std::vector<FlowNetwork::Usage> usage = network.usage();
  std::vector<LinkUsage> out;
  out.reserve(usage.size());
  for (std::uint32_t c = 0; c < usage.size(); ++c) {
    const Hop hop = network.hop_of_constraint(c);
    if (hop.link >= topology.links().size()) break;  // the hosts' CPUs, added after the links
    const Link& link = topology.links()[hop.link];
    static constexpr const char* sharing[] = {"shared", "splitduplex", "fatpipe"};
    out.push_back({topology.link_name(hop.link, hop.reverse), sharing[static_cast<int>(link.sharing)], link.bandwidth,
                   usage[c].bytes, usage[c].busy, usage[c].peak_flows});
  }
  return out;
}

}  // namespace augur::machines::network
