// The cluster cost model of the DVM Predictor 3.1 (spec 6.6): CommSend on the least-busy channel
// of the smallest common cluster, and GetCost over a transfer matrix with 3.1's exact arithmetic.
#include "machines/dvm_cluster/dvm_cluster_machine.hpp"

#include "machines/bus/bus_machine.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace augur::machines {

using engine::CollectiveKind;

std::vector<ParamSpec> dvm_cluster_params() {
  auto specs = common_params();
  specs.push_back({"clusters",
                   UnitKind::cluster_tree,
                   "eth = {64 x cpu} ethernet 75us 0.2us; cpu = 1",
                   "the cluster tree, first definition = the whole machine: 'NAME = {K x SUB, ...} "
                   "ethernet|transputer|myrinet(n) TSTART TBYTE' or 'NAME = POWER' (a processor); "
                   "definitions separated by ';' or new lines",
                   {}});
  return specs;
}

DvmClusterMachine::DvmClusterMachine(const ParamSet& params, int processors)
    : MachineModel(params, processors),
      definitions_(parse_cluster_tree(params.text("clusters"))),
      tree_processors_(cluster_tree_processors(definitions_, max_cluster_processors)) {
  if (tree_processors_ < processors_)
    throw ParamError("parameter 'clusters': the machine '" + definitions_.front().name + "' has " +
                     std::to_string(tree_processors_) + " processors, but the run has " + std::to_string(processors_));
  std::map<std::string_view, std::size_t> by_name;
  for (std::size_t i = 0; i < definitions_.size(); ++i) by_name.emplace(definitions_[i].name, i);

  // Depth-first expansion, as 3.1 numbers its leaves (Set_all_fis_proc_id): processor p is the
  // p-th leaf met. Only the part of the tree holding the first P leaves is built.
  const bool own_powers = power_.empty();
  std::vector<std::size_t> path;
  std::size_t leaf = 0;
  const std::size_t wanted = static_cast<std::size_t>(processors_);
  chain_start_.push_back(0);
  const auto expand = [&](const auto& self, std::size_t index) -> void {
    if (leaf >= wanted) return;
    const ClusterDefinition& definition = definitions_[index];
    if (definition.is_processor()) {
      chain_.insert(chain_.end(), path.begin(), path.end());
      chain_start_.push_back(chain_.size());
      if (own_powers) power_.push_back(definition.power);
      ++leaf;
      return;
    }
    path.push_back(nodes_.size());
    nodes_.push_back({index, channel_free_.size()});
    channel_free_.resize(channel_free_.size() + static_cast<std::size_t>(definition.channels), 0.0);
    for (const auto& part : definition.parts)
      for (std::int64_t copy = 0; copy < part.count && leaf < wanted; ++copy) self(self, by_name.at(part.name));
    path.pop_back();
  };
  expand(expand, std::size_t{0});
  // All leaves at power 1 is the same as no power list (keeps `power` = [] semantics).
  if (own_powers && std::all_of(power_.begin(), power_.end(), [](double p) { return p == 1.0; })) power_.clear();
}

void DvmClusterMachine::reset() { std::fill(channel_free_.begin(), channel_free_.end(), 0.0); }

std::size_t DvmClusterMachine::common_node(int a, int b) const {
  if (a < 0 || b < 0 || a >= processors_ || b >= processors_ || a == b)
    throw std::out_of_range("dvm_cluster: no cluster joins processors " + std::to_string(a) + " and " +
                            std::to_string(b) + " of " + std::to_string(processors_));
  // 3.1's GetCommClust descends from the root into the sub-cluster holding both: the last
  // common entry of the two ancestor chains.
  const auto ua = static_cast<std::size_t>(a);
  const auto ub = static_cast<std::size_t>(b);
  const std::size_t* first_a = chain_.data() + chain_start_[ua];
  const std::size_t* first_b = chain_.data() + chain_start_[ub];
  const std::size_t length = std::min(chain_start_[ua + 1] - chain_start_[ua], chain_start_[ub + 1] - chain_start_[ub]);
  std::size_t common = 0;
  while (common < length && first_a[common] == first_b[common]) ++common;
  return first_a[common - 1];  // the root is common to all: common >= 1
}

const std::string& DvmClusterMachine::common_cluster(int a, int b) const {
  return cluster_of(nodes_[common_node(a, b)]).name;
}

DvmClusterMachine::Send DvmClusterMachine::send(SimTime clock, int src, int dst, std::uint64_t bytes) {
  // CommSend(float send_proc_time, …): the sender's clock arrives rounded to a float.
  const double sent = static_cast<double>(static_cast<float>(clock));
  const Node& node = nodes_[common_node(src, dst)];
  const auto first = channel_free_.begin() + static_cast<std::ptrdiff_t>(node.first_channel);
  // The least-busy channel; min_element keeps the first of equal ones, as 3.1 does.
  const ClusterDefinition& cluster = cluster_of(node);
  const auto channel = std::min_element(first, first + cluster.channels);
  Send result;
  // BeginTime = max(send, free); WaitStart = BeginTime − send;
  // EndTime = BeginTime + TStart + bytes·TByte (evaluated left to right, as in 3.1).
  result.begin = sent < *channel ? *channel : sent;
  result.wait = result.begin - sent;
  result.end = result.begin + cluster.start_time + static_cast<double>(bytes) * cluster.byte_time;
  *channel = result.end;
  return result;
}

Transfer DvmClusterMachine::transfer(int src, int dst, std::uint64_t bytes, SimTime ready) {
  if (src == dst) return {ready, ready, ready, 0};  // 3.1 never sends to itself (it would abort)
  const Send sent = send(ready, src, dst, bytes);
  return {sent.begin, ready, sent.end, 0};
}

SimTime DvmClusterMachine::collective_time(CollectiveKind kind, int processors, std::uint64_t bytes,
                                           [[maybe_unused]] int root) const {
  // The bus formulas (docs/machine-models.md, bus) on the smallest cluster holding processors
  // 0..P−1: m(n) = Ts + Tb·n, c = min(P, channels).
  if (processors <= 1) return 0;
  const int last = std::min(processors, processors_) - 1;
  if (last < 1) return 0;
  const ClusterDefinition& cluster = cluster_of(nodes_[common_node(0, last)]);
  const auto message = [&](double n) { return cluster.start_time + cluster.byte_time * n; };
  return bus_collective_time(kind, processors, cluster.channels, message(0), message(static_cast<double>(bytes)));
}

DvmClusterPricing::DvmClusterPricing(DvmClusterMachine& machine) : SimulatedDvmPricing(machine), machine_(machine) {}

SimTime DvmClusterPricing::matrix_cost_at(const std::vector<std::vector<std::uint64_t>>& matrix,
                                          const std::vector<SimTime>& ready, std::vector<SimTime>* end_per_proc) {
  const std::size_t size = matrix.size();
  if (ready.size() < size)
    throw std::invalid_argument("dvm_cluster: matrix_cost_at needs a clock for each of the " + std::to_string(size) +
                                " processors, got " + std::to_string(ready.size()));
  if (end_per_proc != nullptr) end_per_proc->assign(size, 0.0);
  // 3.1's GetCost: every message p1 → p2 (p1 ≠ p2, T > 0) in row-major order is sent with
  // CommSend at the sender's clock; cost = max_end − min_start, where
  //   first message:  min_start = BeginTime − WaitStart, max_end = EndTime;
  //   later messages: if (BeginTime < min_start) min_start = BeginTime − WaitStart;
  //                   if (EndTime > max_end) max_end = EndTime.
  // Quirks kept on purpose: (1) min_start is BeginTime − WaitStart, i.e. the sender's clock as a
  // float, recomputed in doubles (which may differ from the float in the last bit); (2) the
  // test compares the message's BeginTime, not its send time, with min_start, so an earlier
  // sender whose message waited for a channel does not lower min_start; (3) the channels are not
  // reset: the busy times persist into later operations. Difference: with no message at all 3.1
  // returns uninitialised memory; here the cost is 0.
  bool any = false;
  SimTime min_start = 0;
  SimTime max_end = 0;
  for (std::size_t p1 = 0; p1 < size; ++p1)
    for (std::size_t p2 = 0; p2 < matrix[p1].size() && p2 < size; ++p2) {
      if (p1 == p2 || matrix[p1][p2] == 0) continue;
      const DvmClusterMachine::Send sent =
          machine_.send(ready[p1], static_cast<int>(p1), static_cast<int>(p2), matrix[p1][p2]);
      if (!any) {
        any = true;
        min_start = sent.begin - sent.wait;
        max_end = sent.end;
      } else {
        if (sent.begin < min_start) min_start = sent.begin - sent.wait;
        if (sent.end > max_end) max_end = sent.end;
      }
      if (end_per_proc != nullptr) {
        (*end_per_proc)[p1] = std::max((*end_per_proc)[p1], sent.end);
        (*end_per_proc)[p2] = std::max((*end_per_proc)[p2], sent.end);
      }
    }
  return any ? max_end - min_start : 0;
}

}  // namespace augur::machines
