// The interval tree and Integrate (spec section 8).
#include "models/analysis/characteristics.hpp"

#include <algorithm>

namespace augur::models::analysis {

std::string_view to_string(OpKind kind) {
  switch (kind) {
    case OpKind::io:
      return "io";
    case OpKind::reduction:
      return "reduction";
    case OpKind::shadow:
      return "shadow";
    case OpKind::remote_access:
      return "remote_access";
    case OpKind::redistribution:
      return "redistribution";
    case OpKind::point_to_point:
      return "point_to_point";
    case OpKind::barrier:
      return "barrier";
    case OpKind::bcast:
      return "bcast";
    case OpKind::reduce:
      return "reduce";
    case OpKind::allreduce:
      return "allreduce";
    case OpKind::gather:
      return "gather";
    case OpKind::scatter:
      return "scatter";
    case OpKind::allgather:
      return "allgather";
    case OpKind::alltoall:
      return "alltoall";
    case OpKind::reduce_scatter:
      return "reduce_scatter";
    case OpKind::scan:
      return "scan";
  }
  return "?";
}

std::string_view title(OpKind kind) {
  switch (kind) {
    case OpKind::io:
      return "I/O";
    case OpKind::reduction:
      return "Reduction";
    case OpKind::shadow:
      return "Shadow";
    case OpKind::remote_access:
      return "Remote access";
    case OpKind::redistribution:
      return "Redistribution";
    case OpKind::point_to_point:
      return "Point-to-point";
    case OpKind::barrier:
      return "Barrier";
    case OpKind::bcast:
      return "Bcast";
    case OpKind::reduce:
      return "Reduce";
    case OpKind::allreduce:
      return "Allreduce";
    case OpKind::gather:
      return "Gather";
    case OpKind::scatter:
      return "Scatter";
    case OpKind::allgather:
      return "Allgather";
    case OpKind::alltoall:
      return "Alltoall";
    case OpKind::reduce_scatter:
      return "Reduce_scatter";
    case OpKind::scan:
      return "Scan";
  }
  return "?";
}

std::string_view title(IntervalType type) {
  switch (type) {
    case IntervalType::main:
      return "Main";
    case IntervalType::seq:
      return "Seq";
    case IntervalType::par:
      return "Par";
    case IntervalType::user:
      return "User";
    case IntervalType::phase:
      return "Phase";
  }
  return "?";
}

void ProcessorTable::resize(std::size_t processors) {
  procs_.resize(processors);
  for (std::vector<OpTimes>& c : ops_) {
    if (!c.empty()) c.resize(processors);
  }
}

OpTimes* ProcessorTable::add_column(OpKind k) {
  std::vector<OpTimes>& c = ops_[static_cast<std::size_t>(k)];
  if (c.empty()) c.resize(procs_.size());
  return c.data();
}

const OpTimes& ProcessorTable::op(std::size_t p, OpKind k) const {
  static const OpTimes zero{};
  const std::vector<OpTimes>& c = ops_[static_cast<std::size_t>(k)];
  return c.empty() ? zero : c[p];
}

double ProcessorTable::transfer(std::size_t p) const {
  double t = 0;
  for (const std::vector<OpTimes>& c : ops_) {
    if (!c.empty()) t += c[p].transfer;
  }
  return t;
}

IntervalTree::IntervalTree(int processors, std::string source_file, int source_line)
    : processors_(processors), root_(std::make_unique<Interval>()) {
  root_->id = next_id_++;
  root_->source_file = std::move(source_file);
  root_->source_line = source_line;
  root_->procs.resize(static_cast<std::size_t>(processors));
  current_ = root_.get();
  index_ = {nullptr, root_.get()};
}

Interval& IntervalTree::enter(IntervalType type, std::string_view file, int line, std::optional<long> index) {
  for (auto& c : current_->children) {
    if (c->type == type && c->source_line == line && c->source_file == file && c->index == index) {
      ++c->exe_count;
      current_ = c.get();
      return *current_;
    }
  }
  auto child = std::make_unique<Interval>();
  child->id = next_id_++;
  child->type = type;
  child->level = current_->level + 1;
  child->source_file = std::string(file);
  child->source_line = line;
  child->index = index;
  child->parent = current_;
  child->procs.resize(static_cast<std::size_t>(processors_));
  current_->children.push_back(std::move(child));
  current_ = current_->children.back().get();
  index_.push_back(current_);
  return *current_;
}

void IntervalTree::leave(const std::vector<int>& active) {
  if (current_->parent == nullptr) return;
  close_interval(*current_, active);
  current_ = current_->parent;
}

void IntervalTree::close_interval(Interval& interval, const std::vector<int>& active) {
  double max_exec = 0, max_sys = 0, max_usr = 0;
  for (int p : active) {
    const ProcessorTimes& t = interval.proc(p);
    max_exec = std::max(max_exec, t.execution);
    max_sys = std::max(max_sys, t.cpu_sys);
    max_usr = std::max(max_usr, t.cpu_usr);
  }
  for (int p : active) {
    ProcessorTimes& t = interval.proc(p);
    t.idle = max_exec - t.execution;
    t.load_imbalance = max_sys + max_usr - t.cpu_sys - t.cpu_usr;
  }
}

void IntervalTree::integrate(IntegrateRule rule) { integrate(*root_, rule); }

void add_nested(OpTimes& to, const OpTimes& from, IntegrateRule rule, OpKind kind) {
  to.communication += from.communication;
  to.synchronization += from.synchronization;
  to.overlap += from.overlap;
  to.transfer += from.transfer;
  to.waiting += from.waiting;
  // Predictor 3.1 adds every I/O column but only communication, synchronization and overlap of
  // the other kinds.
  if (rule == IntegrateRule::complete || kind == OpKind::io) {
    to.real_sync += from.real_sync;
    to.variation += from.variation;
  }
}

void IntervalTree::integrate(Interval& interval, IntegrateRule rule) {
  IntervalTotals t;
  double max_exec = 0;
  double idle = 0;
  // This interval's own processors (Integrate: sums over processors, execution = max).
  for (const ProcessorTimes& p : interval.procs) {
    t.io += p.io;
    t.cpu_usr += p.cpu_usr;
    t.cpu_sys += p.cpu_sys;
    t.lost += p.lost;
    t.communication += p.communication;
    t.insuff_usr += p.insuff_usr;
    t.insuff_sys += p.insuff_sys;
    t.synchronization += p.synchronization;
    t.variation += p.variation;
    t.real_sync += p.real_sync;
    idle += p.idle;
    t.load_imbalance += p.load_imbalance;
    t.overlap += p.overlap;
    max_exec = std::max(max_exec, p.execution);
  }
  // Per kind, its column over the processors in order (the same sums as processor by processor;
  // a kind without a column adds only zeros).
  for (OpKind k : all_op_kinds) {
    OpTimes& sum = t.ops[static_cast<std::size_t>(k)];
    for (const OpTimes& o : interval.procs.column(k)) add_nested(sum, o, IntegrateRule::complete, k);
  }
  t.idle = idle;
  t.lost += idle;
  t.execution = max_exec;
  t.operations = interval.operations;
  // Nested intervals add their integrated totals.
  for (auto& c : interval.children) {
    integrate(*c, rule);
    const IntervalTotals& n = c->totals;
    for (std::size_t k = 0; k < op_kind_count; ++k) {
      t.operations[k] += n.operations[k];
      add_nested(t.ops[k], n.ops[k], rule, static_cast<OpKind>(k));
    }
    t.execution += n.execution;
    t.io += n.io;
    t.cpu_usr += n.cpu_usr;
    t.cpu_sys += n.cpu_sys;
    t.lost += n.lost;
    t.communication += n.communication;
    t.insuff_usr += n.insuff_usr;
    t.insuff_sys += n.insuff_sys;
    t.synchronization += n.synchronization;
    t.real_sync += n.real_sync;
    t.idle += n.idle;
    t.load_imbalance += n.load_imbalance;
    t.overlap += n.overlap;
    t.variation += n.variation;
  }
  for (const OpTimes& o : t.ops) {
    t.transfer += o.transfer;
    t.waiting += o.waiting;
  }
  t.insufficient = t.insuff_usr + t.insuff_sys;
  t.total = t.execution * processors_;
  t.productive_cpu = t.cpu_usr - t.insuff_usr;
  t.productive_sys = t.cpu_sys - t.insuff_sys;
  t.productive = t.productive_cpu + t.productive_sys + t.io;
  if (t.productive == 0.0 && t.total == 0.0) {
    t.efficiency = 1.0;
  } else if (t.total == 0.0) {
    t.efficiency = 0.0;
  } else {
    t.efficiency = t.productive / t.total;
  }
  interval.totals = t;
}

}  // namespace augur::models::analysis
