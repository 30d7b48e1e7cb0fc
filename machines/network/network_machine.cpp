// The flow_network machine model (see network_machine.hpp, docs/network.md).
#include "machines/network/network_machine.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace augur::machines {

using network::Link;
using network::Sharing;

ParamSpec smpi_eager_threshold_param() {
  // SMPI detaches a send smaller than smpi/send-is-detached-thresh (65,536 B by default): a
  // message of exactly 64 KiB is already rendezvous, so the eager sizes end one byte below.
  return {"eager_threshold",
          UnitKind::bytes,
          "65535B",
          "messages larger than this use rendezvous: smpi/send-is-detached-thresh - 1 (SMPI detaches sends "
          "smaller than that option, 65536 B by default)",
          {}};
}

std::vector<ParamSpec> flow_network_params() {
  auto specs = common_params();
  for (ParamSpec& spec : specs)
    if (spec.name == "eager_threshold") spec = smpi_eager_threshold_param();
  specs.push_back({"topology",
                   UnitKind::choice,
                   "cluster",
                   "cluster (private links, optional backbone), torus, fat_tree or dragonfly",
                   {"cluster", "torus", "fat_tree", "dragonfly"}});
  specs.push_back({"hosts", UnitKind::count, "0", "cluster hosts; 0 = as many as the processes need", {}});
  specs.push_back({"dims", UnitKind::int_list, "[]", "torus extents, coordinate 0 fastest (product = hosts)", {}});
  specs.push_back({"fat_tree_down", UnitKind::int_list, "[]", "fat tree: children per switch, per level", {}});
  specs.push_back({"fat_tree_up", UnitKind::int_list, "[]", "fat tree: parents per node, per level", {}});
  specs.push_back({"fat_tree_parallel", UnitKind::int_list, "[]", "fat tree: links to each parent; [] = all 1", {}});
  specs.push_back({"dragonfly_groups", UnitKind::int_list, "[]", "dragonfly: [groups, links between 2 groups]", {}});
  specs.push_back(
      {"dragonfly_chassis", UnitKind::int_list, "[]", "dragonfly: [chassis per group, links between 2]", {}});
  specs.push_back(
      {"dragonfly_routers", UnitKind::int_list, "[]", "dragonfly: [routers per chassis, links between 2]", {}});
  specs.push_back({"dragonfly_hosts", UnitKind::count, "1", "dragonfly: hosts per router", {}});
  specs.push_back(
      {"link_bandwidth", UnitKind::bandwidth, "10GBps", "bandwidth of a private (torus: neighbour) link", {}});
  specs.push_back({"link_latency", UnitKind::time, "0.5us", "latency of a private (torus: neighbour) link", {}});
  specs.push_back({"link_sharing",
                   UnitKind::choice,
                   "splitduplex",
                   "sharing policy of those links",
                   {"splitduplex", "shared", "fatpipe"}});
  specs.push_back({"backbone_bandwidth", UnitKind::bandwidth, "0", "cluster backbone; 0 = a non-blocking switch", {}});
  specs.push_back({"backbone_latency", UnitKind::time, "0s", "latency of the backbone", {}});
  specs.push_back(
      {"backbone_sharing", UnitKind::choice, "shared", "sharing policy of the backbone", {"shared", "fatpipe"}});
  specs.push_back({"loopback_bandwidth", UnitKind::bandwidth, "0", "a host's link to itself; 0 = none", {}});
  specs.push_back({"loopback_latency", UnitKind::time, "0s", "latency of the loopback", {}});
  specs.push_back({"network_model",
                   UnitKind::choice,
                   "SMPI",
                   "SimGrid's network/model: CM02 (no factors), LV08 (latency x13.01, bandwidth x0.97), SMPI "
                   "(SimGrid 3.32's size-dependent factors)",
                   {"CM02", "LV08", "SMPI"}});
  specs.push_back(
      {"crosstraffic", UnitKind::boolean, "true", "a flow loads its back route at 5 % (network/crosstraffic)", {}});
  specs.push_back(
      {"tcp_gamma", UnitKind::bytes, "4194304B", "TCP window: rate <= tcp_gamma / (2 route latency); 0 = none", {}});
  specs.push_back(
      {"latency_factors", UnitKind::size_table, "", "overrides the model's latency factors (size:factor;…)", {}});
  specs.push_back(
      {"bandwidth_factors", UnitKind::size_table, "", "overrides the model's bandwidth factors (size:factor;…)", {}});
  specs.push_back({"message_envelope",
                   UnitKind::bytes,
                   "16B",
                   "bytes SMPI adds to every message (tag, source, communicator): the flow carries n + this",
                   {}});
  specs.push_back({"test_time",
                   UnitKind::time,
                   "100us",
                   "MPI_Test's injected cost (smpi/test), times 1 + the tests failed since the last success",
                   {}});
  specs.push_back({"processes_per_node", UnitKind::count, "1", "processes on one host", {}});
  specs.push_back({"mapping",
                   UnitKind::choice,
                   "block",
                   "block: host r/c; round_robin: host r mod hosts",
                   {"block", "round_robin"}});
  return specs;
}

namespace {

Sharing sharing_of(const std::string& name) {
  if (name == "shared") return Sharing::shared;
  if (name == "fatpipe") return Sharing::fatpipe;
  return Sharing::splitduplex;
}

network::NetworkOptions options_of(const ParamSet& params) {
  network::NetworkOptions o;
  o.crosstraffic = params.flag("crosstraffic");
  o.tcp_gamma = params.number("tcp_gamma");
  const std::string& model = params.text("network_model");
  if (model == "LV08") {
    o.latency_factors = {0, 13.01};
    o.bandwidth_factors = {0, 0.97};
    o.weight_s = 20537;
  } else if (model == "SMPI") {
    // SimGrid 3.32's defaults of the SMPI model (network/latency-factor, network/bandwidth-factor).
    o.latency_factors = {65472,   11.6436, 15424,   3.48845, 9376,   2.59299, 5776,    2.18796, 3484,
                         1.88101, 1426,    1.61075, 732,     1.9503, 257,     1.95341, 0,       2.01467};
    o.bandwidth_factors = {65472,   0.940694, 15424,    0.697866, 9376,     0.58729, 5776,     1.08739, 3484,
                           0.77493, 1426,     0.608902, 732,      0.341987, 257,     0.338112, 0,       0.812084};
    o.weight_s = 8775;
  }
  if (!params.list("latency_factors").empty()) o.latency_factors = params.list("latency_factors");
  if (!params.list("bandwidth_factors").empty()) o.bandwidth_factors = params.list("bandwidth_factors");
  return o;
}

std::vector<int> ints(const ParamSet& params, const std::string& name) {
  std::vector<int> out;
  for (double d : params.list(name)) out.push_back(static_cast<int>(d));
  return out;
}

/// The dragonfly's shape from its three pairs and the hosts per router.
network::DragonflyShape dragonfly_of(const ParamSet& params) {
  std::vector<int> n;
  for (const char* name : {"dragonfly_groups", "dragonfly_chassis", "dragonfly_routers"}) {
    const auto pair = ints(params, name);
    if (pair.size() != 2) throw ParamError(std::string("parameter '") + name + "': expected [count, links]");
    n.insert(n.end(), pair.begin(), pair.end());
  }
  return {n[0], n[1], n[2], n[3], n[4], n[5], static_cast<int>(params.integer("dragonfly_hosts"))};
}

/// A fat tree or a dragonfly (SimGrid's shapes); std::invalid_argument becomes a ParamError.
network::Topology shaped_topology(const ParamSet& params, Link link, Link loopback, int needed) {
  const bool fat = params.text("topology") == "fat_tree";
  network::Topology t;
  try {
    if (fat) {
      network::FatTreeShape shape{ints(params, "fat_tree_down"), ints(params, "fat_tree_up"),
                                  ints(params, "fat_tree_parallel")};
      if (shape.parallel.empty()) shape.parallel.assign(shape.down.size(), 1);
      t = network::Topology::fat_tree(shape, link, loopback);
    } else {
      t = network::Topology::dragonfly(dragonfly_of(params), link, loopback);
    }
  } catch (const std::invalid_argument& error) {
    throw ParamError(std::string("parameter '") + (fat ? "fat_tree_down" : "dragonfly_groups") + "': " + error.what());
  }
  if (t.hosts() < needed)
    throw ParamError("parameter 'topology': the " + params.text("topology") + " holds " + std::to_string(t.hosts()) +
                     " hosts, " + std::to_string(needed) + " are needed");
  return t;
}

network::Topology topology_of(const ParamSet& params, int processors) {
  const int ppn = static_cast<int>(params.integer("processes_per_node"));
  if (ppn < 1) throw ParamError("parameter 'processes_per_node': a host holds at least 1 process");
  const Link link{params.number("link_bandwidth"), params.number("link_latency"),
                  sharing_of(params.text("link_sharing"))};
  const Link loopback{params.number("loopback_bandwidth"), params.number("loopback_latency"), Sharing::fatpipe};
  if (!(link.bandwidth > 0)) throw ParamError("parameter 'link_bandwidth': must be positive");
  const int needed = (processors + ppn - 1) / ppn;
  if (params.text("topology") == "fat_tree" || params.text("topology") == "dragonfly")
    return shaped_topology(params, link, loopback, needed);
  if (params.text("topology") == "torus") {
    std::vector<int> dims;
    for (double d : params.list("dims")) dims.push_back(static_cast<int>(d));
    long long product = 1;
    for (int d : dims) product *= std::max(d, 0);
    if (dims.empty() || product < needed)
      throw ParamError("parameter 'dims': the torus must hold the " + std::to_string(needed) + " hosts needed");
    return network::Topology::torus(dims, link, loopback);
  }
  const int hosts = params.integer("hosts") > 0 ? static_cast<int>(params.integer("hosts")) : needed;
  if (hosts < needed)
    throw ParamError("parameter 'hosts': " + std::to_string(hosts) + " hosts cannot hold the " +
                     std::to_string(needed) + " needed");
  const Link backbone{params.number("backbone_bandwidth"), params.number("backbone_latency"),
                      sharing_of(params.text("backbone_sharing"))};
  return network::Topology::cluster(hosts, link, backbone, loopback);
}

}  // namespace

FlowNetworkMachine::FlowNetworkMachine(const ParamSet& params, int processors)
    : MachineModel(params, processors),
      topology_(topology_of(params, processors)),
      options_(options_of(params)),
      network_(topology_.links(), options_),
      envelope_(static_cast<std::uint64_t>(params.number("message_envelope"))),
      test_time_(params.number("test_time")),
      processes_per_node_(static_cast<int>(params.integer("processes_per_node"))),
      round_robin_(params.text("mapping") == "round_robin") {}

FlowNetworkMachine::FlowNetworkMachine(const ParamSet& params, int processors, network::Topology topology,
                                       std::vector<int> rank_hosts, std::vector<double> host_speeds,
                                       const std::vector<int>& host_cores)
    : MachineModel(params, processors),
      topology_(std::move(topology)),
      options_(options_of(params)),
      network_(topology_.links(), options_),
      envelope_(static_cast<std::uint64_t>(params.number("message_envelope"))),
      test_time_(params.number("test_time")),
      rank_hosts_(std::move(rank_hosts)),
      host_speeds_(std::move(host_speeds)),
      simulate_computation_(!params.has("simulate_computation") || params.flag("simulate_computation")) {
  if (rank_hosts_.size() < static_cast<std::size_t>(processors))
    throw ParamError("the mapping names hosts for " + std::to_string(rank_hosts_.size()) + " ranks, not the " +
                     std::to_string(processors) + " needed");
  std::vector<int> ranks_on(static_cast<std::size_t>(topology_.hosts()), 0);
  for (int rank = 0; rank < processors; ++rank) {
    const int host = rank_hosts_[static_cast<std::size_t>(rank)];
    if (host < 0 || host >= topology_.hosts()) throw ParamError("the mapping names a host the topology lacks");
    ++ranks_on[static_cast<std::size_t>(host)];
  }
  // A host with more ranks than cores gets a CPU in the network (capacity speed × cores): its
  // computations become flows on it, so they share it max-min fairly.
  for (std::size_t h = 0; h < ranks_on.size() && h < host_cores.size() && h < host_speeds_.size(); ++h) {
    if (ranks_on[h] <= std::max(host_cores[h], 1)) continue;
    cpu_link_.resize(ranks_on.size(), no_flow);
    cpu_link_[h] = network_.add_link(Link{host_speeds_[h] * host_cores[h], 0, Sharing::shared});
  }
}

std::uint32_t FlowNetworkMachine::start_compute(int rank, double flops, SimTime ready) {
  if (!simulate_computation_ || cpu_link_.empty()) return no_flow;
  const auto host = static_cast<std::size_t>(host_of(rank));
  if (cpu_link_[host] == no_flow) return no_flow;
  // flops / power at a rate of at most one core's speed (compute_time's t = flops / (speed · power)
  // when the rank runs alone).
  return network_.start_work(cpu_link_[host], flops / power(rank), host_speeds_[host], ready);
}

void FlowNetworkMachine::reset() { network_.clear(); }

SimTime FlowNetworkMachine::compute_time(int proc, double flops) const {
  if (!simulate_computation_) return 0;
  if (host_speeds_.empty()) return MachineModel::compute_time(proc, flops);
  // t = flops / (speed of the host · power[proc])
  return flops / (host_speeds_[static_cast<std::size_t>(host_of(proc))] * power(proc));
}

int FlowNetworkMachine::host_of(int rank) const {
  if (!rank_hosts_.empty()) return rank_hosts_[static_cast<std::size_t>(rank)];
  if (processes_per_node_ == 1) return rank;
  const int used = (processors_ + processes_per_node_ - 1) / processes_per_node_;
  return round_robin_ ? rank % used : rank / processes_per_node_;
}

std::uint32_t FlowNetworkMachine::start_flow(int src, int dst, std::uint64_t bytes, SimTime ready) {
  const int from = host_of(src);
  const int to = host_of(dst);
  const network::Route& route = route_from_cache(from, to);
  // The back route matters to cross-traffic alone (a route costs as much as the rest of a start).
  if (options_.crosstraffic) topology_.route(to, from, back_route_);
  // SMPI sends n + 16 bytes (its envelope); the size factors are those of that size too.
  return network_.start(route, back_route_, static_cast<double>(bytes + envelope_), ready);
}

const network::Route& FlowNetworkMachine::route_from_cache(int from, int to) {
  // The last two routes per source host (up to route_cache_size hosts, then shared by index),
  // the latest first: a rank mostly sends to the same few peers (a ring's neighbour between a
  // collective's partners), and a fat tree's or dragonfly's route costs about as much as the
  // rest of a message's start.
  if (route_cache_.empty())
    route_cache_.resize(static_cast<std::size_t>(std::min(std::max(topology_.hosts(), 1), route_cache_size)));
  auto& [latest, before] = route_cache_[static_cast<std::size_t>(from) % route_cache_.size()];
  if (latest.from == from && latest.to == to) return latest.route;
  std::swap(latest, before);
  if (latest.from != from || latest.to != to) {
    latest.from = from;
    latest.to = to;
    latest.route.clear();
    topology_.route(from, to, latest.route);
  }
  return latest.route;
}

Transfer FlowNetworkMachine::transfer(int src, int dst, std::uint64_t bytes, SimTime ready) {
  const std::uint32_t flow = start_flow(src, dst, bytes, ready);
  Transfer result;
  result.start = ready;
  result.sender_free = ready;
  result.arrival = network_.projected_finish(flow);
  return result;
}

SimTime FlowNetworkMachine::alone(int src_host, int dst_host, std::uint64_t bytes) const {
  // One flow on an empty network: latency · lf(n) + n / (min bandwidth · bf(n)), within the
  // TCP-window bound.
  network::Route route;
  topology_.route(src_host, dst_host, route);
  double latency = 0;
  double bandwidth = std::numeric_limits<double>::infinity();
  for (const auto& hop : route) {
    latency += topology_.links()[hop.link].latency;
    bandwidth = std::min(bandwidth, topology_.links()[hop.link].bandwidth);
  }
  if (options_.tcp_gamma > 0 && latency > 0) bandwidth = std::min(bandwidth, options_.tcp_gamma / (2 * latency));
  const double n = static_cast<double>(bytes + envelope_);
  return latency * network::size_factor(options_.latency_factors, n) +
         n / (bandwidth * network::size_factor(options_.bandwidth_factors, n));
}

SimTime FlowNetworkMachine::collective_time(engine::CollectiveKind kind, int processors, std::uint64_t bytes,
                                            [[maybe_unused]] int root) const {
  if (processors <= 1) return 0;
  const int other = topology_.hosts() > 1 ? 1 : 0;
  const auto message = [&](std::uint64_t n) { return alone(0, other, n); };
  int rounds = 0;
  while ((1LL << rounds) < processors) ++rounds;
  const double steps = processors - 1;
  switch (kind) {
    case engine::CollectiveKind::barrier:
      return rounds * message(0);
    case engine::CollectiveKind::bcast:
    case engine::CollectiveKind::reduce:
    case engine::CollectiveKind::scan:
    case engine::CollectiveKind::exscan:
      return rounds * message(bytes);
    case engine::CollectiveKind::allreduce:
      return 2 * rounds * message(bytes);
    default:
      return steps * message(bytes);
  }
}

}  // namespace augur::machines
