// The flow-level network (see flow_network.hpp and docs/network.md).
#include "machines/network/flow_network.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace augur::machines::network {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
// SimGrid's cross-traffic: a flow also loads its back route at 5 % of its rate (TCP acks).
constexpr double crosstraffic_weight = 0.05;

}  // namespace

double size_factor(const std::vector<double>& table, double bytes) {
  for (std::size_t i = 0; i + 1 < table.size(); i += 2)
    if (bytes >= table[i]) return table[i + 1];
  return 1.0;
}

FlowNetwork::FlowNetwork(std::vector<Link> links, NetworkOptions options) : options_(std::move(options)) {
  for (const Link& link : links) add_link(link);
}

std::uint32_t FlowNetwork::add_link(const Link& link) {
  if (!(link.bandwidth > 0)) throw std::invalid_argument("a link's bandwidth must be positive");
  const auto id = static_cast<std::uint32_t>(links_.size());
  links_.push_back(link);
  first_constraint_.push_back(static_cast<std::uint32_t>(capacity_.size()));
  const int count = link.sharing == Sharing::splitduplex ? 2 : 1;
  for (int k = 0; k < count; ++k) {
    capacity_.push_back(link.bandwidth);
    fatpipe_.push_back(link.sharing == Sharing::fatpipe ? 1 : 0);
    link_of_constraint_.push_back(id);
    members_.emplace_back();
    mark_.push_back(0);
    local_.push_back(0);
  }
  if (record_) {  // a link added while recording (a host's CPU) has its own zero counters
    usage_.resize(capacity_.size());
    active_.resize(capacity_.size(), 0);
    busy_since_.resize(capacity_.size(), 0.0);
  }
  return id;
}

void FlowNetwork::record_usage(bool on) {
  record_ = on;
  usage_.assign(on ? capacity_.size() : 0, Usage{});
  active_.assign(on ? capacity_.size() : 0, 0);
  busy_since_.assign(on ? capacity_.size() : 0, 0.0);
}

std::vector<FlowNetwork::Usage> FlowNetwork::usage() const {
  std::vector<Usage> out = usage_;
  for (std::size_t c = 0; c < out.size(); ++c)
    if (active_[c] > 0) out[c].busy += now_ - busy_since_[c];
  return out;
}

Hop FlowNetwork::hop_of_constraint(std::uint32_t c) const {
  const std::uint32_t link = link_of_constraint_[c];
  return {link, c != first_constraint_[link]};
}

void FlowNetwork::clear() {
  for (auto& m : members_) m.clear();
  flows_.clear();
  free_.clear();
  events_ = {};
  pending_.clear();
  record_usage(record_);
  std::fill(mark_.begin(), mark_.end(), 0);
  flow_mark_.clear();
  epoch_ = 0;
  now_ = 0;
}

std::uint32_t FlowNetwork::constraint_of(const Hop& hop) const {
  // A splitduplex link has its forward capacity first and its reverse one second.
  const std::uint32_t first = first_constraint_[hop.link];
  return links_[hop.link].sharing == Sharing::splitduplex && hop.reverse ? first + 1 : first;
}

std::uint32_t FlowNetwork::new_flow() {
  if (!free_.empty()) {
    const std::uint32_t id = free_.back();
    free_.pop_back();
    return id;
  }
  flows_.emplace_back();
  flow_mark_.push_back(0);
  return static_cast<std::uint32_t>(flows_.size() - 1);
}

std::uint32_t FlowNetwork::start_work(std::uint32_t link, double amount, double bound, SimTime now) {
  advance_to(now);
  const std::uint32_t id = new_flow();
  Flow& f = flows_[id];
  // No latency, no factor, penalty 1: SimGrid's CPU model (Cas01) for a one-core execution.
  f.elements.assign(1, MaxMinSystem::Element{first_constraint_[link], 1.0});
  f.route.clear();  // work, not bytes: no link usage
  f.penalty = 1.0;
  f.bound = bound;
  f.rate_factor = 1.0;
  f.remaining = amount;
  f.value = 0;
  f.updated = now_;
  f.latency_end = now_;
  ++f.version;
  activate(id);
  return id;
}

std::uint32_t FlowNetwork::start(const Route& route, const Route& back_route, double bytes, SimTime now,
                                 SimTime delay) {
  advance_to(now);
  const std::uint32_t id = new_flow();
  Flow& f = flows_[id];
  f.elements.clear();
  f.route.clear();
  // latency = Σ route latencies; penalty = latency + Σ weight_S / bandwidth (weight_S > 0)
  double latency = 0;
  double penalty = 0;
  for (const Hop& hop : route) {
    latency += links_[hop.link].latency;
    if (options_.weight_s > 0) penalty += options_.weight_s / links_[hop.link].bandwidth;
    f.route.push_back(constraint_of(hop));
  }
  const auto add = [&](std::uint32_t constraint, double weight) {
    // A link crossed twice (a shared link on the route and the back route) adds the weights; a
    // fat pipe is limited by the heavier use alone.
    for (auto& e : f.elements)
      if (e.constraint == constraint) {
        e.weight = fatpipe_[constraint] ? std::max(e.weight, weight) : e.weight + weight;
        return;
      }
    f.elements.push_back({constraint, weight});
  };
  for (const Hop& hop : route) add(constraint_of(hop), 1.0);
  if (options_.crosstraffic)
    for (const Hop& hop : back_route) add(constraint_of(hop), crosstraffic_weight);
  f.penalty = latency > 0 ? latency + penalty : 1.0;
  f.bound = options_.tcp_gamma > 0 && latency > 0 ? options_.tcp_gamma / (2 * latency) : 0;
  f.rate_factor = size_factor(options_.bandwidth_factors, bytes);
  f.remaining = bytes;
  f.value = 0;
  f.updated = now_;
  f.latency_end = now_ + latency * size_factor(options_.latency_factors, bytes);
  if (delay > 0) f.latency_end += delay;
  ++f.version;
  if (f.latency_end > now_) {
    f.phase = Phase::latency;
    events_.push({f.latency_end, id, f.version});
  } else {
    activate(id);
  }
  return id;
}

void FlowNetwork::activate(std::uint32_t id) {
  Flow& f = flows_[id];
  f.phase = Phase::active;
  f.updated = now_;
  if (record_)
    for (std::uint32_t c : f.route) {
      // busy from the first active flow on; the peak of flows at once
      if (active_[c]++ == 0) busy_since_[c] = now_;
      usage_[c].peak_flows = std::max(usage_[c].peak_flows, active_[c]);
    }
  for (const auto& e : f.elements) {
    members_[e.constraint].push_back(id);
    pending_.push_back(e.constraint);
  }
  if (f.elements.empty()) {
    // No link (an unlimited route): done once the latency is paid.
    f.value = infinity;
    ++f.version;
    events_.push({now_, id, f.version});
  }
}

void FlowNetwork::finish(std::uint32_t id) {
  Flow& f = flows_[id];
  settle(f);
  if (record_ && f.phase == Phase::active)
    for (std::uint32_t c : f.route) {
      usage_[c].bytes += f.remaining;  // the rounding left by settle: a flow carries all its bytes
      if (--active_[c] == 0) usage_[c].busy += now_ - busy_since_[c];
    }
  f.phase = Phase::idle;
  f.remaining = 0;
  ++f.version;
  for (const auto& e : f.elements) {
    auto& m = members_[e.constraint];
    m.erase(std::find(m.begin(), m.end(), id));
    pending_.push_back(e.constraint);
  }
  free_.push_back(id);
}

void FlowNetwork::solve_pending() {
  if (pending_.empty()) return;
  recompute(pending_);
  pending_.clear();
}

void FlowNetwork::settle(Flow& f) {
  // remaining −= data rate · elapsed, counted on every link of the route.
  if (f.phase != Phase::active || !(f.value < infinity)) return;
  const double moved = std::min(f.remaining, f.value * f.rate_factor * (now_ - f.updated));
  f.remaining -= moved;
  f.updated = now_;
  if (record_)
    for (std::uint32_t c : f.route) usage_[c].bytes += moved;
}

void FlowNetwork::schedule(std::uint32_t id) {
  Flow& f = flows_[id];
  ++f.version;
  const double data_rate = f.value * f.rate_factor;
  if (data_rate > 0) events_.push({now_ + (data_rate < infinity ? f.remaining / data_rate : 0.0), id, f.version});
}

void FlowNetwork::recompute(const std::vector<std::uint32_t>& seeds) {
  // The connected component: constraints reached from the seeds through the active flows;
  // local_[c] is c's position in component_constraints_ (the solver's numbering).
  ++epoch_;
  auto& constraints = component_constraints_;
  auto& flows = component_flows_;
  constraints.clear();
  flows.clear();
  const auto reach = [&](std::uint32_t c) {
    if (mark_[c] == epoch_) return;
    mark_[c] = epoch_;
    local_[c] = static_cast<std::uint32_t>(constraints.size());
    constraints.push_back(c);
  };
  for (std::uint32_t c : seeds) reach(c);
  for (std::size_t k = 0; k < constraints.size(); ++k) {
    for (std::uint32_t id : members_[constraints[k]]) {
      if (flow_mark_[id] == epoch_) continue;
      flow_mark_[id] = epoch_;
      flows.push_back(id);
      for (const auto& e : flows_[id].elements) reach(e.constraint);
    }
  }
  if (flows.empty()) return;  // the links of flows that ended, no flow left on them
  // The system in buffers kept from solve to solve (no allocation once they have grown).
  MaxMinSystem& system = system_;
  system.capacity.clear();
  system.fatpipe.clear();
  for (std::uint32_t c : constraints) {
    system.capacity.push_back(capacity_[c]);
    system.fatpipe.push_back(fatpipe_[c]);
  }
  if (system.variables.size() < flows.size()) system.variables.resize(flows.size());
  for (std::size_t k = 0; k < flows.size(); ++k) {
    const Flow& f = flows_[flows[k]];
    MaxMinSystem::Variable& v = system.variables[k];
    v.penalty = f.penalty;
    v.bound = f.bound;
    v.elements.clear();
    for (const auto& e : f.elements) v.elements.push_back({local_[e.constraint], e.weight});
  }
  const std::vector<double>& value = solve_maxmin(system, flows.size(), solver_);
  for (std::size_t k = 0; k < flows.size(); ++k) {
    Flow& f = flows_[flows[k]];
    settle(f);
    f.value = value[k];
    schedule(flows[k]);
  }
}

SimTime FlowNetwork::next_event() {
  solve_pending();
  return peek();
}

SimTime FlowNetwork::peek() {
  while (!events_.empty()) {
    const Event& e = events_.top();
    const Flow& f = flows_[e.flow];
    if (e.version == f.version && f.phase != Phase::idle) return e.time;
    events_.pop();  // stale: the flow's rate changed or it ended
  }
  return infinity;
}

void FlowNetwork::advance_to(SimTime t, std::vector<std::uint32_t>* finished) {
  for (;;) {
    // The changes of the current instant are solved together, once time must move on: before
    // an event of a later time, or before now_ itself moves to t.
    const SimTime next = peek();
    if (!pending_.empty() && next > now_ && t > now_) {
      solve_pending();
      continue;
    }
    if (next > t) break;
    const Event e = events_.top();
    events_.pop();
    now_ = std::max(now_, e.time);
    if (flows_[e.flow].phase == Phase::latency) {
      activate(e.flow);
    } else {
      finish(e.flow);
      if (finished != nullptr) finished->push_back(e.flow);
    }
  }
  now_ = std::max(now_, t);
}

SimTime FlowNetwork::projected_finish(std::uint32_t flow) const {
  FlowNetwork copy = *this;
  std::vector<std::uint32_t> finished;
  for (SimTime next = copy.next_event(); next < infinity; next = copy.next_event()) {
    finished.clear();
    copy.advance_to(next, &finished);
    if (std::find(finished.begin(), finished.end(), flow) != finished.end()) return next;
  }
  return now_;
}

double FlowNetwork::rate(std::uint32_t flow) {
  solve_pending();
  const Flow& f = flows_[flow];
  return f.phase == Phase::active ? f.value * f.rate_factor : 0.0;
}

bool FlowNetwork::in_flight(std::uint32_t flow) const {
  return flow < flows_.size() && flows_[flow].phase != Phase::idle;
}

}  // namespace augur::machines::network
