// Links, routes and flows: the flow-level network of SimGrid's CM02 family (docs/network.md).
// A flow pays its route's latency, then shares the capacities of its links max-min fairly with
// the flows it meets; its rates change only when a flow of its connected component starts,
// activates or ends, and only that component is solved again.
#pragma once
#include <cstdint>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include "engine/sim_time.hpp"
#include "machines/network/maxmin.hpp"

namespace augur::machines::network {

using engine::SimTime;

/// How a link's capacity is shared: both directions together, one capacity per direction, or
/// none (every flow may use the whole bandwidth: a switch backplane, a loopback).
enum class Sharing : std::uint8_t { shared, splitduplex, fatpipe };

struct Link {
  double bandwidth = 0;  ///< bytes per second, > 0
  double latency = 0;    ///< seconds
  Sharing sharing = Sharing::shared;
};

/// One link of a route and the direction it is crossed in (matters for splitduplex only).
struct Hop {
  std::uint32_t link = 0;
  bool reverse = false;
};
using Route = std::vector<Hop>;

/// SimGrid's piecewise factor by message size ("65472:0.94;1426:0.61;0:0.81" as pairs size,
/// factor in that order): the factor of the first size ≤ bytes, 1 when none.
double size_factor(const std::vector<double>& table, double bytes);

/// The network model's constants (SimGrid's network/* options).
struct NetworkOptions {
  double tcp_gamma = 4194304;             ///< network/TCP-gamma: rate ≤ gamma / (2 · route latency); 0 = none
  bool crosstraffic = true;               ///< network/crosstraffic: the back route is loaded at 5 %
  double weight_s = 0;                    ///< network/weight-S: penalty = latency + Σ weight_s / bandwidth
  std::vector<double> latency_factors;    ///< size table; empty = 1 (LV08: 0:13.01)
  std::vector<double> bandwidth_factors;  ///< size table; empty = 1 (LV08: 0:0.97)
};

/// The flows in flight on a set of links. Times never go back: start and advance_to take
/// non-decreasing times.
class FlowNetwork {
 public:
  FlowNetwork(std::vector<Link> links, NetworkOptions options);

  /// Starts a flow of `bytes` bytes at `now` over `route` (`back_route`: the route back, loaded
  /// by cross-traffic); it joins the sharing after the route's latency · lf(n) plus `delay`
  /// (a fixed cost of the caller's model: LogGP's further MTU fragments, a node's shared memory
  /// for an empty route). Returns its id (ids of finished flows are reused).
  std::uint32_t start(const Route& route, const Route& back_route, double bytes, SimTime now, SimTime delay = 0);
  /// Adds a link (its id follows the others'); flows in flight are not affected.
  std::uint32_t add_link(const Link& link);
  /// Starts `amount` units of work at `now` on `link` alone, with no latency, no factor and
  /// penalty 1, its rate at most `bound` (0: none): a computation on a CPU whose capacity is
  /// speed × cores, bounded by one core's speed (SimGrid's CPU model). Same id space as `start`.
  std::uint32_t start_work(std::uint32_t link, double amount, double bound, SimTime now);
  /// Time of the next latency end or completion; +∞ when nothing is in flight.
  SimTime next_event();
  /// Processes every event up to `t` in time order (ties by flow id); the flows that finished
  /// are appended to `finished` when given.
  void advance_to(SimTime t, std::vector<std::uint32_t>* finished = nullptr);
  /// When `flow` would finish if no other flow started: the network is simulated forward on a
  /// copy. Cost: the events of the flow's component until then.
  SimTime projected_finish(std::uint32_t flow) const;
  /// The current data rate of `flow` (0 while it pays its latency).
  double rate(std::uint32_t flow);
  bool in_flight(std::uint32_t flow) const;
  /// What one capacity (a link, or one direction of a splitduplex link) carried: bytes moved
  /// by the flows routed over it (not their cross-traffic), the time with at least one active
  /// flow on it, and the most active flows at once.
  struct Usage {
    double bytes = 0;
    SimTime busy = 0;
    std::uint32_t peak_flows = 0;
  };
  /// Turns the usage accounting on (off by default: then it costs one test per flow event).
  /// On, each activation and end adds O(route length), as the byte counts already cost.
  void record_usage(bool on);
  /// Per constraint (constraint_of): the usage up to the network's current time (the busy
  /// time of capacities still in use counted to now). Empty when the accounting is off.
  std::vector<Usage> usage() const;
  /// The constraint of `hop`: a link's, or for a splitduplex link crossed in reverse its second.
  std::uint32_t constraint_of(const Hop& hop) const;
  std::uint32_t constraint_count() const { return static_cast<std::uint32_t>(capacity_.size()); }
  /// The link of constraint `c` and whether it is a splitduplex link's reverse direction.
  Hop hop_of_constraint(std::uint32_t c) const;
  /// Forgets every flow and counter.
  void clear();

 private:
  enum class Phase : std::uint8_t { idle, latency, active };
  struct Flow {
    std::vector<MaxMinSystem::Element> elements;  ///< constraints and weights
    std::vector<std::uint32_t> route;             ///< the route's constraints (for `usage`)
    double remaining = 0;                         ///< bytes
    double value = 0;                             ///< the solver's rate
    double rate_factor = 1;                       ///< bandwidth factor: data rate = value · factor
    double penalty = 1;
    double bound = 0;
    SimTime latency_end = 0;
    SimTime updated = 0;
    std::uint32_t version = 0;
    Phase phase = Phase::idle;
  };
  struct Event {
    SimTime time = 0;
    std::uint32_t flow = 0;
    std::uint32_t version = 0;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : flow > o.flow; }
  };
  std::uint32_t new_flow();
  void activate(std::uint32_t id);
  void finish(std::uint32_t id);
  /// Solves the components touched since the last solve (pending_) once: SimGrid's one solve
  /// per step, after every change of the same instant.
  void solve_pending();
  /// The earliest event that is not stale, without solving what is pending.
  SimTime peek();
  /// Solves the component reached from `seeds` again and reschedules its flows' completions.
  void recompute(const std::vector<std::uint32_t>& seeds);
  void settle(Flow& f);
  void schedule(std::uint32_t id);

  std::vector<Link> links_;
  std::vector<std::uint32_t> first_constraint_;      ///< per link
  std::vector<double> capacity_;                     ///< per constraint
  std::vector<char> fatpipe_;                        ///< per constraint (char: read in the solver's loops)
  std::vector<std::uint32_t> link_of_constraint_;    ///< per constraint
  std::vector<std::vector<std::uint32_t>> members_;  ///< active flows per constraint
  std::vector<Flow> flows_;
  std::vector<std::uint32_t> free_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  bool record_ = false;
  std::vector<Usage> usage_;           ///< per constraint, when recording
  std::vector<std::uint32_t> active_;  ///< per constraint, when recording: active flows on it
  std::vector<SimTime> busy_since_;    ///< per constraint, when recording: when it became busy
  std::vector<std::uint32_t> mark_;    ///< per constraint: the recompute that reached it
  std::vector<std::uint32_t> flow_mark_;
  std::vector<std::uint32_t> local_;                  ///< per constraint: its position in the last component
  std::vector<std::uint32_t> component_constraints_;  ///< recompute's buffers, kept
  std::vector<std::uint32_t> component_flows_;
  MaxMinSystem system_;
  MaxMinWork solver_;
  std::vector<std::uint32_t> pending_;  ///< constraints whose flows changed since the last solve
  std::uint32_t epoch_ = 0;
  NetworkOptions options_;
  SimTime now_ = 0;
};

}  // namespace augur::machines::network
