// The phases of a message-passing run's characteristics (mp_characteristics.hpp): a completed
// phase added to the record of the same calls, the records kept within the budget, and the phase
// intervals built from them at the end. The sheet arithmetic they use is here too.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "models/analysis/mp_characteristics.hpp"
#include "models/analysis/mp_phase_signature.hpp"

namespace augur::models::analysis {

double MpCharacteristics::lost(const Sheet& f) const {
  // Lost = communication + idle, idle(p) = max_j execution(j) − execution(p).
  double max_exec = 0, exec = 0, comm = 0;
  for (std::size_t p = 0; p < f.base.size(); ++p) {
    max_exec = std::max(max_exec, f.base[p].execution);
    exec += f.base[p].execution;
    for (std::size_t k = 0; k < op_kind_count; ++k) {  // before complete()
      if ((f.used >> k & 1) != 0) comm += f.kinds[k][p].communication;
    }
  }
  return comm + max_exec * static_cast<double>(f.base.size()) - exec;
}

void MpCharacteristics::add_to(Sheet& to, const Sheet& from) const {
  if (to.full != nullptr) {
    add_to(*to.full, from);
    for (std::size_t k = 0; k < op_kind_count; ++k) to.operations[k] += from.operations[k];
    return;
  }
  if (to.base.empty()) to.base.resize(lps_.size());
  for (std::size_t p = 0; p < from.base.size(); ++p) {
    Base& t = to.base[p];
    const Base& f = from.base[p];
    t.execution += f.execution;
    t.cpu_usr += f.cpu_usr;
    t.cpu_sys += f.cpu_sys;
    t.io += f.io;
    t.overlap += f.overlap;
  }
  for (std::size_t k = 0; k < op_kind_count; ++k) {
    if ((from.used >> k & 1) == 0) continue;
    KindFigures* t = column(to, static_cast<OpKind>(k));
    const std::vector<KindFigures>& f = from.kinds[k];
    for (std::size_t p = 0; p < f.size(); ++p) {
      t[p].communication += f[p].communication;
      t[p].real_sync += f[p].real_sync;
      t[p].synchronization += f[p].synchronization;
      t[p].variation += f[p].variation;
    }
  }
  for (std::size_t k = 0; k < op_kind_count; ++k) to.operations[k] += from.operations[k];
}

// A compact sheet's figures added to a processor table (each figure's sum is the same, in the same
// order, as adding processor by processor).
void MpCharacteristics::add_to(ProcessorTable& to, const Sheet& from) {
  for (std::size_t p = 0; p < from.base.size(); ++p) {
    ProcessorTimes& t = to[p];
    const Base& f = from.base[p];
    t.execution += f.execution;
    t.cpu_usr += f.cpu_usr;
    t.cpu_sys += f.cpu_sys;
    t.io += f.io;
    if (f.overlap != 0) to.op(p, OpKind::point_to_point).overlap += f.overlap;  // adding 0 changes no sum
  }
  for (std::size_t k = 0; k < op_kind_count; ++k) {
    if ((from.used >> k & 1) == 0) continue;
    OpTimes* column = to.add_column(static_cast<OpKind>(k));
    const std::vector<KindFigures>& kind = from.kinds[k];
    for (std::size_t p = 0; p < kind.size(); ++p) {
      const KindFigures& x = kind[p];
      OpTimes& o = column[p];
      o.communication += x.communication;
      o.real_sync += x.real_sync;
      o.synchronization += x.synchronization;
      o.variation += x.variation;
    }
  }
}

// A phase seen for the first time: a record while there is room, else the phase with the least
// lost time (the newcomer on ties) goes to "other phases".
void MpCharacteristics::add_record(Pending& p, std::uint64_t number, std::uint64_t key) {
  Record r;
  r.figures = std::move(p.figures);
  r.key = key;
  r.number = number;
  r.occurrences = 1;
  r.opening = p.opening;
  r.closing = p.closing;
  if (records_.size() < max_phases_) {
    record_index_.emplace(key, records_.size());
    records_.push_back(std::move(r));
    return;
  }
  std::size_t victim = records_.size();
  double least = lost(*r.figures);
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const double x = lost(*records_[i].figures);
    if (x < least) {
      least = x;
      victim = i;
    }
  }
  if (!other_) other_ = new_sheet();
  if (victim == records_.size()) {
    add_to(*other_, *r.figures);
    ++other_occurrences_;
    clear(*r.figures);
    spare_.push_back(std::move(r.figures));
    return;
  }
  add_to(*other_, *records_[victim].figures);
  other_occurrences_ += records_[victim].occurrences;
  record_index_.erase(records_[victim].key);
  record_index_.emplace(key, victim);
  clear(*records_[victim].figures);
  spare_.push_back(std::move(records_[victim].figures));
  records_[victim] = std::move(r);
}

// Every LP has left phase `phase` (or the run ended): add it to the record of the same calls.
void MpCharacteristics::flush(std::uint64_t phase) {
  auto it = pending_.find(phase);
  if (it == pending_.end()) return;
  Pending& p = it->second;
  if (auto next = pending_.find(phase + 1); next != pending_.end()) next->second.opening = p.closing;
  bool empty = true;
  for (std::uint64_t n : p.figures->operations) empty = empty && n == 0;
  for (const Base& b : p.figures->base) empty = empty && b.execution == 0;
  if (!empty && regions_seen_) {
    add_to(main_, *p.figures);
  } else if (!empty) {
    std::uint64_t key = mix(signature_seed, p.opening.known ? 1 + static_cast<std::uint64_t>(p.opening.kind) : 0);
    key = mix(key, p.closing.known ? 1 + static_cast<std::uint64_t>(p.closing.kind) : 0);
    for (std::uint64_t s : p.signature) key = mix(key, s);
    if (auto r = record_index_.find(key); r != record_index_.end()) {
      Record& rec = records_[r->second];
      add_to(*rec.figures, *p.figures);
      ++rec.occurrences;
    } else {
      add_record(p, phase + 1, key);
    }
  }
  if (p.figures) {  // not moved into a record: reuse the sheet
    clear(*p.figures);
    spare_.push_back(std::move(p.figures));
  }
  pending_.erase(it);
}

// The name of a phase interval; `line` = the trace line of the call closing it (0: unknown).
std::string MpCharacteristics::phase_name(const Record& r, std::uint64_t& line) const {
  line = 0;
  auto call = [&](const Boundary& b) {
    std::string s = fmt::format(FMT_COMPILE("{} #{}"), engine::to_string(b.kind), b.ordinal);
    const std::uint64_t at = b.line;
    if (at > 0) {
      s += options_.call_file.empty() ? fmt::format(FMT_COMPILE(" (line {})"), at)
                                      : fmt::format(FMT_COMPILE(" ({}:{})"), options_.call_file, at);
    }
    if (&b == &r.closing) line = at;
    return s;
  };
  std::string span;
  if (!r.opening.known && !r.closing.known) {
    span = "the whole run";
  } else if (!r.opening.known) {
    span = "from the start to " + call(r.closing);
  } else if (!r.closing.known) {
    span = "after " + call(r.opening) + " to the end";
  } else {
    span = "after " + call(r.opening) + ", before " + call(r.closing);
  }
  return fmt::format(FMT_COMPILE("phase {}{}: {}"), r.number,
                     r.occurrences > 1 ? fmt::format(FMT_COMPILE(" (+{} alike)"), r.occurrences - 1) : std::string(),
                     span);
}

// Phases become intervals under Main in program order (then "other phases"), unless regions were
// marked or a single phase covers the run: then their figures are Main's own.
void MpCharacteristics::build_phase_intervals() {
  std::uint64_t occurrences = other_occurrences_;
  for (const Record& r : records_) occurrences += r.occurrences;
  if (regions_seen_ || occurrences <= 1) {
    for (const Record& r : records_) add_to(main_, *r.figures);
    if (other_) add_to(main_, *other_);
    records_.clear();
    record_index_.clear();
    return;
  }
  std::sort(records_.begin(), records_.end(), [](const Record& a, const Record& b) { return a.number < b.number; });
  auto add = [&](const Sheet& f, const std::string& name, std::uint64_t line, std::uint64_t count) {
    Interval& i = tree_.enter(IntervalType::phase, name, static_cast<int>(line), std::nullopt);
    tree_.leave({});
    add_to(i.procs, f);
    i.operations = f.operations;
    i.exe_count = count;
  };
  for (Record& r : records_) {
    std::uint64_t line = 0;
    const std::string name = phase_name(r, line);
    add(*r.figures, name, line, r.occurrences);
  }
  if (other_occurrences_ > 0) {
    add(*other_,
        fmt::format("other phases: {} with less lost time than the {} shown", other_occurrences_, records_.size()), 0,
        other_occurrences_);
  }
  records_.clear();
  record_index_.clear();
}

}  // namespace augur::models::analysis
