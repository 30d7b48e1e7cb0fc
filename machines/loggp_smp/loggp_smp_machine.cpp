// The LogGP SMP cluster (spec 7.3, 5; LogGP: Alexandrov, Ionescu, Schauser, Scheiman 1995):
// LogGP messages between nodes with MTU fragments and per-node up/down links, shared memory
// inside a node. With L = 1us, G = 1/10GBps it matches SimGrid's cluster of the sample platform.
#include "machines/loggp_smp/loggp_smp_machine.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace augur::machines {

using engine::CollectiveKind;

std::vector<ParamSpec> loggp_smp_params() {
  auto specs = common_params();
  specs.push_back({"latency", UnitKind::time, "1us", "L: latency between two nodes", {}});
  specs.push_back({"overhead", UnitKind::time, "0s", "o: CPU time to send a message and, again, to receive it", {}});
  specs.push_back({"gap", UnitKind::time, "0s", "g: least time between two message injections of one node", {}});
  specs.push_back({"bandwidth", UnitKind::bandwidth, "10GBps", "1/G: bandwidth between two nodes", {}});
  specs.push_back(
      {"mtu", UnitKind::bytes, "0", "largest fragment between nodes; each fragment pays L (0 = unlimited)", {}});
  specs.push_back({"processes_per_node", UnitKind::count, "1", "c: processes on one node", {}});
  specs.push_back({"mapping",
                   UnitKind::choice,
                   "block",
                   "rank to node: block (r / c) or round_robin (r mod nodes)",
                   {"block", "round_robin"}});
  specs.push_back(
      {"intra_node_latency", UnitKind::time, "0s", "latency of the shared-memory channel inside a node", {}});
  specs.push_back({"intra_node_bandwidth",
                   UnitKind::bandwidth,
                   "0",
                   "bandwidth of the shared-memory channel (0 = same as bandwidth)",
                   {}});
  specs.push_back({"latency_factors",
                   UnitKind::size_table,
                   "",
                   "SimGrid SMPI's latency correction by message size (size:factor;…): L·factor of the "
                   "largest size <= n; empty = 1",
                   {}});
  specs.push_back({"bandwidth_factors",
                   UnitKind::size_table,
                   "",
                   "SimGrid SMPI's bandwidth correction by message size (size:factor;…); empty = 1",
                   {}});
  specs.push_back({"link_contention",
                   UnitKind::choice,
                   "true",
                   "each node has one up-link and one down-link (full duplex): off (not shared), fifo (reserved "
                   "first come first served; true, the default), fair (shared max-min fairly; false = off)",
                   {"off", "fifo", "fair", "true", "false"}});
  return specs;
}

LoggpSmpMachine::LoggpSmpMachine(const ParamSet& params, int processors)
    : MachineModel(params, processors),
      latency_(params.number("latency")),
      overhead_(params.number("overhead")),
      gap_(params.number("gap")),
      bandwidth_(params.number("bandwidth")),
      mtu_(static_cast<std::uint64_t>(params.number("mtu"))),
      processes_per_node_(static_cast<int>(params.integer("processes_per_node"))),
      round_robin_(params.text("mapping") == "round_robin"),
      intra_latency_(params.number("intra_node_latency")),
      intra_bandwidth_(params.number("intra_node_bandwidth")),
      latency_factors_(params.list("latency_factors")),
      bandwidth_factors_(params.list("bandwidth_factors")),
      link_contention_(params.text("link_contention") == "fifo" || params.text("link_contention") == "true") {
  if (!(bandwidth_ > 0)) throw ParamError("parameter 'bandwidth': must be positive");
  if (processes_per_node_ < 1) throw ParamError("parameter 'processes_per_node': a node holds at least 1 process");
  if (intra_bandwidth_ == 0) intra_bandwidth_ = bandwidth_;
  // nodes = ⌈P / c⌉
  nodes_ = (processors_ + processes_per_node_ - 1) / processes_per_node_;
  if (params.text("link_contention") == "fair") make_fair();
  up_free_.assign(static_cast<std::size_t>(nodes_), 0.0);
  down_free_.assign(static_cast<std::size_t>(nodes_), 0.0);
  last_inject_.assign(static_cast<std::size_t>(nodes_), -std::numeric_limits<SimTime>::infinity());
}

void LoggpSmpMachine::make_fair() {
  // The flow events carry no CPU time: the LogGP overheads have no place in them.
  if (overhead_ > 0 || gap_ > 0)
    throw ParamError(
        "parameter 'link_contention': fair needs overhead 0 and gap 0 (its messages are flows, "
        "whose events carry no CPU overheads)");
  // Private links up and down (splitduplex: one capacity per direction), L/2 each so that a
  // route's latency is L; no backbone (the switch does not block), no TCP window, no
  // cross-traffic: a flow alone takes L·lf(n) + n / (B·bf(n)), LogGP's L + W(n).
  const network::Link node_link{bandwidth_, latency_ / 2, network::Sharing::splitduplex};
  fair_topology_ = network::Topology::cluster(nodes_, node_link, {}, {});
  network::NetworkOptions options;
  options.tcp_gamma = 0;
  options.crosstraffic = false;
  options.latency_factors = latency_factors_;
  options.bandwidth_factors = bandwidth_factors_;
  fair_.emplace(fair_topology_->links(), options);
}

std::uint32_t LoggpSmpMachine::start_flow(int src, int dst, std::uint64_t bytes, SimTime ready) {
  const int from = node_of(src);
  const int to = node_of(dst);
  const auto n = static_cast<double>(bytes);
  if (from == to) {
    // Shared memory, not shared: no link, done after L_intra + n / B_intra.
    return fair_->start({}, {}, n, ready, intra_latency_ + n / intra_bandwidth_);
  }
  // up the source node's link, down the target node's; each further MTU fragment pays L·lf(n)
  SimTime fragments_latency = 0;
  if (mtu_ > 0 && bytes > mtu_) {
    const std::uint64_t fragments = bytes / mtu_ + (bytes % mtu_ > 0 ? 1 : 0);
    fragments_latency = static_cast<double>(fragments - 1) * latency_ * size_factor(latency_factors_, bytes);
  }
  const network::Route route{{static_cast<std::uint32_t>(from), false}, {static_cast<std::uint32_t>(to), true}};
  return fair_->start(route, {}, n, ready, fragments_latency);
}

void LoggpSmpMachine::record_link_usage() {
  if (fair_) fair_->record_usage(true);
}

std::vector<LinkUsage> LoggpSmpMachine::link_usage() const {
  if (!fair_) return {};
  std::vector<LinkUsage> links = network::link_usage(*fair_topology_, *fair_);
  for (LinkUsage& l : links) l.name.replace(0, 4, "node");  // "host3-up": the cluster's host is a node
  return links;
}

void LoggpSmpMachine::reset() {
  if (fair_) fair_->clear();
  std::fill(up_free_.begin(), up_free_.end(), 0.0);
  std::fill(down_free_.begin(), down_free_.end(), 0.0);
  std::fill(last_inject_.begin(), last_inject_.end(), -std::numeric_limits<SimTime>::infinity());
}

int LoggpSmpMachine::node_of(int rank) const {
  // block: r / c; round_robin: r mod nodes. One process per node (the common cluster): the rank
  // itself under both mappings, without an integer division per message end.
  if (processes_per_node_ == 1) return rank;
  return round_robin_ ? rank % nodes_ : rank / processes_per_node_;
}

double LoggpSmpMachine::size_factor(const std::vector<double>& table, std::uint64_t bytes) {
  for (std::size_t i = 0; i + 1 < table.size(); i += 2) {
    if (static_cast<double>(bytes) >= table[i]) return table[i + 1];
  }
  return 1.0;
}

SimTime LoggpSmpMachine::network_time(std::uint64_t bytes) const {
  // With SMPI's corrections (SimGrid's default network model): L·lf(n) + n / (B·bf(n)).
  if (!latency_factors_.empty() || !bandwidth_factors_.empty()) {
    const double latency = latency_ * size_factor(latency_factors_, bytes);
    const double bandwidth = bandwidth_ * size_factor(bandwidth_factors_, bytes);
    if (mtu_ == 0 || bytes <= mtu_) return latency + static_cast<double>(bytes) / bandwidth;
    const std::uint64_t fragments = bytes / mtu_;
    const std::uint64_t rest = bytes % mtu_;
    SimTime time = static_cast<double>(fragments) * (latency + static_cast<double>(mtu_) / bandwidth);
    if (rest > 0) time += latency + static_cast<double>(rest) / bandwidth;
    return time;
  }
  // No MTU (or n <= m): Post(n) = L + n·G, written n / bandwidth so that the sample platform's
  // 1us + n / 10GBps comes out to the last bit.
  if (mtu_ == 0 || bytes <= mtu_) return latency_ + static_cast<double>(bytes) / bandwidth_;
  // ⌊n/m⌋·(L + m·G) + (n mod m > 0 ? L + (n mod m)·G : 0)
  const std::uint64_t fragments = bytes / mtu_;
  const std::uint64_t rest = bytes % mtu_;
  SimTime time = static_cast<double>(fragments) * (latency_ + static_cast<double>(mtu_) / bandwidth_);
  if (rest > 0) time += latency_ + static_cast<double>(rest) / bandwidth_;
  return time;
}

SimTime LoggpSmpMachine::wire_time(std::uint64_t bytes) const {
  // W(n) = (L + W(n)) − L: the first fragment's latency is flight time, not link occupancy.
  if (mtu_ == 0 || bytes <= mtu_) {
    return static_cast<double>(bytes) / (bandwidth_ * size_factor(bandwidth_factors_, bytes));
  }
  return network_time(bytes) - latency_ * size_factor(latency_factors_, bytes);
}

Transfer LoggpSmpMachine::transfer(int src, int dst, std::uint64_t bytes, SimTime ready) {
  Transfer result;
  if (fair_) {
    // GetCost, analytic pricing, eager-at-send: exact up to `ready`, later flows unknown.
    const std::uint32_t flow = start_flow(src, dst, bytes, ready);
    result.start = ready;
    result.sender_free = ready;
    result.arrival = fair_->projected_finish(flow);
    return result;
  }
  result.recv_overhead = overhead_;
  const int from = node_of(src);
  const int to = node_of(dst);
  if (from == to) {
    // Shared memory: start = ready + o; arrival = start + L_intra + n / B_intra. No MTU, no links.
    result.start = ready + overhead_;
    result.sender_free = result.start;
    result.arrival = result.start + (intra_latency_ + static_cast<double>(bytes) / intra_bandwidth_);
    return result;
  }
  const auto up = static_cast<std::size_t>(from);
  const auto down = static_cast<std::size_t>(to);
  // inject = max(ready + o, last_inject[src node] + g)
  SimTime inject = ready + overhead_;
  if (gap_ > 0) inject = std::max(inject, last_inject_[up] + gap_);
  last_inject_[up] = inject;
  result.sender_free = inject;
  result.start = inject;
  if (link_contention_) {
    // start = max(inject, up[src].free, down[dst].free); both links busy for W(n)
    result.start = std::max({inject, up_free_[up], down_free_[down]});
    const SimTime released = result.start + wire_time(bytes);
    up_free_[up] = released;
    down_free_[down] = released;
  }
  // arrival = start + L + W(n)
  result.arrival = result.start + network_time(bytes);
  return result;
}

SimTime LoggpSmpMachine::collective_time(CollectiveKind kind, int processors, std::uint64_t bytes,
                                         [[maybe_unused]] int root) const {
  if (processors <= 1) return 0;
  // One message between two members: T(n) = L + 2o + W(n) (its send and receive overheads).
  // A machine of one node uses the shared-memory channel instead: T(n) = L_intra + 2o + n/B_intra.
  const bool one_node = nodes_ == 1;
  const auto wire = [&](std::uint64_t n) {
    return one_node ? static_cast<double>(n) / intra_bandwidth_ : wire_time(n);
  };
  const auto message = [&](std::uint64_t n) {
    return one_node ? intra_latency_ + 2 * overhead_ + wire(n) : network_time(n) + 2 * overhead_;
  };
  // rounds = ⌈log2 P⌉
  int rounds = 0;
  while ((1LL << rounds) < processors) ++rounds;
  const double steps = processors - 1;  // P − 1
  switch (kind) {
    case CollectiveKind::barrier:
      // dissemination: ⌈log2 P⌉·(L + 2o)
      return rounds * message(0);
    case CollectiveKind::bcast:
    case CollectiveKind::reduce:
    case CollectiveKind::scan:
    case CollectiveKind::exscan:
      // binomial tree (scans: recursive doubling): ⌈log2 P⌉·(L + 2o + W(n))
      return rounds * message(bytes);
    case CollectiveKind::allreduce:
      // reduce then bcast: 2·⌈log2 P⌉·(L + 2o + W(n))
      return 2 * rounds * message(bytes);
    case CollectiveKind::gather:
    case CollectiveKind::gatherv:
    case CollectiveKind::scatter:
    case CollectiveKind::scatterv: {
      // the root's P−1 messages pipelined; after the first each adds the largest of the gap,
      // the root's overhead and its link time: (L + 2o + W(n)) + (P−2)·max(g, o, W(n))
      const SimTime spacing = std::max({gap_, overhead_, wire(bytes)});
      return message(bytes) + (steps - 1) * spacing;
    }
    case CollectiveKind::allgather:
    case CollectiveKind::allgatherv:
    case CollectiveKind::reduce_scatter:
      // ring: (P−1)·(L + 2o + W(n))
      return steps * message(bytes);
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoallv:
      // pairwise exchange, one partner per step: (P−1)·(L + 2o + W(n))
      return steps * message(bytes);
  }
  return 0;
}

}  // namespace augur::machines
