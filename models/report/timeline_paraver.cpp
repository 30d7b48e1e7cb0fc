// Paraver writer: state, event and communication records put in time order by a reorder buffer
// that spills to sorted temporary runs, merged under the header at the end. Formats as produced by
// BSC's Extrae merger (mpi2prv): header
// `#Paraver (date):end_ns:nodes(cpus):appls:tasks(threads:node,…)`, records `1:`, `2:`, `3:`.
#include "models/report/timeline_paraver.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "engine/collective_kind.hpp"

namespace augur::models::report {

using engine::EventKind;
using engine::SimTime;

namespace {

constexpr std::int64_t no_limit = std::numeric_limits<std::int64_t>::max();
constexpr std::size_t batch_records = 4096;  // records written to a run at a time

std::int64_t bound_ns(SimTime t) { return std::isfinite(t) ? to_ns(t) : no_limit; }

// Paraver's default state table (names and colours of the standard .pcf), ids 0..17.
constexpr std::array<std::pair<const char*, const char*>, 18> standard_states{{
    {"Idle", "{117,195,255}"},
    {"Running", "{0,0,255}"},
    {"Not created", "{255,255,255}"},
    {"Waiting a message", "{255,0,0}"},
    {"Blocking Send", "{255,0,174}"},
    {"Synchronization", "{179,0,0}"},
    {"Test/Probe", "{0,255,0}"},
    {"Scheduling and Fork/Join", "{255,255,0}"},
    {"Wait/WaitAll", "{235,0,0}"},
    {"Blocked", "{0,162,0}"},
    {"Immediate Send", "{255,0,255}"},
    {"Immediate Receive", "{100,100,177}"},
    {"I/O", "{172,174,41}"},
    {"Group Communication", "{255,144,26}"},
    {"Tracing Disabled", "{2,255,177}"},
    {"Others", "{192,224,0}"},
    {"Send Receive", "{66,66,66}"},
    {"Memory transfer", "{255,0,96}"},
}};

// Values of paraver_p2p_type.
std::int64_t p2p_value(const engine::Event& e) {
  switch (e.kind) {
    case EventKind::send:
      return e.base_detail() == 1 ? 1 : 2;
    case EventKind::recv:
      return e.base_detail() == 1 ? 3 : 4;
    case EventKind::wait:
      return 5;
    case EventKind::waitall:
      return 6;
    case EventKind::test:
      return 7;
    default:
      return 0;
  }
}
constexpr std::array<const char*, 8> p2p_names{"End", "send", "isend", "recv", "irecv", "wait", "waitall", "test"};

void write_or_throw(const std::string& path, const std::string& text) {
  engine::write_output(path, text, "Paraver trace");
}

}  // namespace

ParaverTrace::ParaverTrace(const std::string& prefix, std::uint32_t lp_count, std::size_t buffer_records,
                           std::string track)
    : prefix_(prefix),
      track_(std::move(track)),
      lps_(lp_count),
      matcher_(lp_count),
      buffer_records_(std::max<std::size_t>(buffer_records, 1)),
      drain_at_(std::min(buffer_records_, std::max<std::size_t>(4096, lp_count))) {
  static_assert(std::is_trivially_copyable_v<Record>, "records are written to the temporary runs as raw bytes");
  open_run();
}

// A run that did not finish (an exception, an interrupt) leaves no Paraver files: they are
// written whole at on_finish or not at all.
ParaverTrace::~ParaverTrace() { remove_runs(); }

void ParaverTrace::push(Record r) {
  r.seq = seq_++;
  pending_.push(r);
}

void ParaverTrace::state(engine::LpId lp, std::int64_t begin, std::int64_t end, ParaverState s) {
  if (end <= begin) return;  // Paraver has no empty states (mpi2prv drops them too)
  push(Record{begin, 0, {end, static_cast<std::int64_t>(s), 0, 0, 0, 0}, lp, 1});
}

void ParaverTrace::event(engine::LpId lp, std::int64_t time, std::uint32_t type, std::int64_t value) {
  push(Record{time, 0, {static_cast<std::int64_t>(type), value, 0, 0, 0, 0}, lp, 2});
}

// A communication step: the `waited` part in `wait_state`, the rest in `transfer_state`.
void ParaverTrace::communication(const engine::Event& e, ParaverState wait_state, ParaverState transfer_state) {
  const std::int64_t b = to_ns(e.clock_before);
  const std::int64_t a = std::max(b, to_ns(e.clock_after));
  const std::int64_t w = std::clamp(to_ns(e.clock_before + e.waited), b, a);
  state(e.lp, b, w, wait_state);
  state(e.lp, w, a, transfer_state);
}

void ParaverTrace::on_event(const engine::Event& e) {
  if (closed_ || e.lp >= lps_.size()) return;
  LpState& s = lps_[e.lp];
  const std::int64_t b = to_ns(e.clock_before);
  const std::int64_t a = std::max(b, to_ns(e.clock_after));
  switch (e.kind) {
    case EventKind::compute:
      state(e.lp, b, a,
            static_cast<engine::ComputeCategory>(e.detail) == engine::ComputeCategory::io ? ParaverState::io
                                                                                          : ParaverState::running);
      break;
    case EventKind::loop_block:
      state(e.lp, b, a, ParaverState::running);
      break;
    case EventKind::sleep:
      state(e.lp, b, a, ParaverState::idle);
      break;
    case EventKind::send:
    case EventKind::recv:
    case EventKind::wait:
    case EventKind::waitall:
    case EventKind::test: {
      const bool blocking = e.base_detail() == 1;
      ParaverState transfer = ParaverState::wait_all;
      if (e.kind == EventKind::send) transfer = blocking ? ParaverState::blocking_send : ParaverState::immediate_send;
      if (e.kind == EventKind::recv) transfer = blocking ? ParaverState::send_receive : ParaverState::immediate_receive;
      event(e.lp, b, paraver_p2p_type, p2p_value(e));
      communication(e, ParaverState::waiting_message, transfer);
      event(e.lp, a, paraver_p2p_type, 0);
      break;
    }
    case EventKind::collective:
      event(e.lp, b, paraver_collective_type, e.detail);
      communication(e, ParaverState::synchronization, ParaverState::group_communication);
      event(e.lp, a, paraver_collective_type, 0);
      break;
    case EventKind::collective_start:
    case EventKind::collective_wait:
    case EventKind::sync_all:
      communication(e, ParaverState::synchronization, ParaverState::group_communication);
      break;
    case EventKind::collective_begin:
      event(e.lp, b, paraver_collective_type, e.detail);
      s.open.push_back(e.detail);
      break;
    case EventKind::collective_end:
      if (!s.open.empty()) {
        event(e.lp, a, paraver_collective_type, 0);
        s.open.pop_back();
      }
      break;
    case EventKind::finish:
      s.done = true;
      break;
    default:
      break;
  }
  s.clock = std::max(s.clock, e.clock_after);
  matcher_.on_event(e, matched_);
  for (const MatchedMessage& m : matched_) {
    push(Record{to_ns(m.send_call),
                0,
                {to_ns(m.send_start), static_cast<std::int64_t>(m.dst), to_ns(m.recv_call), to_ns(m.recv_done),
                 static_cast<std::int64_t>(m.bytes), m.tag},
                m.src,
                3});
  }
  matched_.clear();
  if (pending_.size() >= drain_at_) {
    // No record created from now on can be earlier than the earliest clock of an LP still running
    // or the send time of a message still in flight: everything before that is final.
    std::int64_t frontier = bound_ns(matcher_.earliest_pending_send());
    for (const LpState& l : lps_) {
      if (!l.done) frontier = std::min(frontier, to_ns(l.clock));
    }
    drain(frontier);
    if (pending_.size() >= buffer_records_) spill();
    drain_at_ = std::min(buffer_records_, std::max<std::size_t>({4096, lps_.size(), 2 * pending_.size()}));
  }
}

void ParaverTrace::on_status(engine::LpId lp, engine::LpStatus from, engine::LpStatus to, SimTime at) {
  (void)from;
  if (lp >= lps_.size()) return;
  lps_[lp].blocked_since = to == engine::LpStatus::blocked ? at : -1;
  if (to == engine::LpStatus::done) lps_[lp].done = true;
}

void ParaverTrace::on_finish(SimTime end) {
  if (!closed_) close(end);
}

void ParaverTrace::drain(std::int64_t before_ns) {
  while (!pending_.empty() && pending_.top().time < before_ns) {
    batch_.push_back(pending_.top());
    pending_.pop();
    if (batch_.size() == batch_records) write_run(runs_.front(), batch_);
  }
  write_run(runs_.front(), batch_);
}

// The whole reorder buffer, sorted, becomes a run of its own; merge_runs interleaves it later.
void ParaverTrace::spill() {
  open_run();
  while (!pending_.empty()) {
    batch_.push_back(pending_.top());
    pending_.pop();
    if (batch_.size() == batch_records) write_run(runs_.back(), batch_);
  }
  write_run(runs_.back(), batch_);
}

void ParaverTrace::open_run() {
  Run run;
  run.temporary = std::make_unique<engine::TemporaryFile>(
      engine::TemporaryFile::scratch(fmt::format("{}.prv.tmp{}", prefix_, runs_.size())));
  run.path = run.temporary->name();
  run.file = std::fopen(run.path.c_str(), "w+b");
  if (run.file == nullptr) {
    // The first run is created with the observer: name the file the user asked for.
    throw std::runtime_error(fmt::format("{}: error: cannot write the Paraver trace: {}",
                                         runs_.empty() ? prefix_ + ".prv" : run.path, std::strerror(errno)));
  }
  runs_.push_back(std::move(run));
}

void ParaverTrace::write_run(Run& run, const std::vector<Record>& records) {
  if (!records.empty() && std::fwrite(records.data(), sizeof(Record), records.size(), run.file) != records.size()) {
    throw std::runtime_error(fmt::format("{}: error: writing the Paraver trace failed", run.path));
  }
  batch_.clear();
}

// k-way merge of the runs (each sorted) into the .prv as text.
void ParaverTrace::merge_runs(std::FILE* prv) {
  struct Reader {
    std::FILE* file;
    std::vector<Record> buf;
    std::size_t pos = 0;
    bool next(Record& r) {
      if (pos == buf.size()) {
        buf.resize(batch_records);
        buf.resize(std::fread(buf.data(), sizeof(Record), buf.size(), file));
        pos = 0;
        if (buf.empty()) return false;
      }
      r = buf[pos++];
      return true;
    }
  };
  std::vector<Reader> readers;
  for (Run& run : runs_) {
    if (std::fflush(run.file) != 0 || std::fseek(run.file, 0, SEEK_SET) != 0) {
      throw std::runtime_error(fmt::format("{}: error: reading the Paraver trace back failed", run.path));
    }
    readers.push_back(Reader{run.file, {}, 0});
  }
  using Head = std::pair<Record, std::size_t>;
  auto later = [](const Head& a, const Head& b) { return a.first > b.first; };
  std::priority_queue<Head, std::vector<Head>, decltype(later)> heads(later);
  for (std::size_t i = 0; i < readers.size(); ++i) {
    Record r;
    if (readers[i].next(r)) heads.emplace(r, i);
  }
  fmt::memory_buffer text;
  auto out = std::back_inserter(text);
  const std::string prv_path = prefix_ + ".prv";
  auto flush = [&] {
    if (std::fwrite(text.data(), 1, text.size(), prv) != text.size()) {
      throw std::runtime_error(fmt::format("{}: error: writing the Paraver trace failed", prv_path));
    }
    text.clear();
  };
  while (!heads.empty()) {
    const auto [r, i] = heads.top();
    heads.pop();
    const std::uint64_t cpu = static_cast<std::uint64_t>(r.lp) + 1;
    switch (r.type) {
      case 1:
        fmt::format_to(out, "1:{0}:1:{0}:1:{1}:{2}:{3}\n", cpu, r.time, r.v[0], r.v[1]);
        break;
      case 2:
        fmt::format_to(out, "2:{0}:1:{0}:1:{1}:{2}:{3}\n", cpu, r.time, r.v[0], r.v[1]);
        break;
      default:
        fmt::format_to(out, "3:{0}:1:{0}:1:{1}:{2}:{3}:1:{3}:1:{4}:{5}:{6}:{7}\n", cpu, r.time, r.v[0], r.v[1] + 1,
                       r.v[2], r.v[3], r.v[4], r.v[5]);
        break;
    }
    if (text.size() >= (1u << 16)) flush();
    Record next;
    if (readers[i].next(next)) heads.emplace(next, i);
  }
  flush();
}

void ParaverTrace::remove_runs() {
  for (Run& run : runs_) {
    if (run.file != nullptr) std::fclose(run.file);
    run.temporary->discard();
  }
  runs_.clear();
}

void ParaverTrace::close(SimTime end) {
  closed_ = true;
  const std::int64_t end_ns = to_ns(end);
  for (engine::LpId lp = 0; lp < lps_.size(); ++lp) {
    LpState& s = lps_[lp];
    if (s.blocked_since >= 0) state(lp, to_ns(s.blocked_since), end_ns, ParaverState::blocked);
    for (; !s.open.empty(); s.open.pop_back()) event(lp, end_ns, paraver_collective_type, 0);
  }
  drain(no_limit);

  // .prv: the header, then the merged runs.
  const std::string prv_path = prefix_ + ".prv";
  engine::TemporaryFile prv_temporary(prv_path);
  std::FILE* prv = std::fopen(prv_temporary.name().c_str(), "wb");
  if (prv == nullptr) {
    throw std::runtime_error(
        fmt::format("{}: error: cannot write the Paraver trace: {}", prv_path, std::strerror(errno)));
  }
  const std::size_t n = lps_.size();
  std::string header = fmt::format("#Paraver (01/01/00 at 00:00):{}_ns:1({}):1:{}(", end_ns, n, n);
  for (std::size_t i = 0; i < n; ++i) header += i == 0 ? "1:1" : ",1:1";
  header += ")\n";
  try {
    if (std::fwrite(header.data(), 1, header.size(), prv) != header.size()) {
      throw std::runtime_error(fmt::format("{}: error: writing the Paraver trace failed", prv_path));
    }
    merge_runs(prv);
  } catch (...) {
    std::fclose(prv);
    throw;
  }
  if (std::fclose(prv) != 0) {
    throw std::runtime_error(fmt::format("{}: error: writing the Paraver trace failed", prv_path));
  }
  remove_runs();
  prv_temporary.commit();

  // .pcf: the standard state table, then augur's event types.
  std::string pcf =
      "DEFAULT_OPTIONS\n\n"
      "LEVEL               THREAD\n"
      "UNITS               NANOSEC\n"
      "LOOK_BACK           100\n"
      "SPEED               1\n"
      "FLAG_ICONS          ENABLED\n"
      "NUM_OF_STATE_COLORS 1000\n"
      "YMAX_SCALE          37\n\n\n"
      "DEFAULT_SEMANTIC\n\n"
      "THREAD_FUNC          State As Is\n\n\n"
      "STATES\n";
  for (std::size_t i = 0; i < standard_states.size(); ++i) {
    pcf += fmt::format("{:<5}{}\n", i, standard_states[i].first);
  }
  pcf += "\n\nSTATES_COLOR\n";
  for (std::size_t i = 0; i < standard_states.size(); ++i) {
    pcf += fmt::format("{:<5}{}\n", i, standard_states[i].second);
  }
  pcf += fmt::format("\n\nEVENT_TYPE\n0    {}    Collective operation\nVALUES\n0      End\n", paraver_collective_type);
  for (int k = 0; k <= static_cast<int>(engine::CollectiveKind::exscan); ++k) {
    pcf += fmt::format("{:<7}{}\n", k + 1, engine::to_string(static_cast<engine::CollectiveKind>(k)));
  }
  pcf += fmt::format("\n\nEVENT_TYPE\n0    {}    Point-to-point operation\nVALUES\n", paraver_p2p_type);
  for (std::size_t v = 0; v < p2p_names.size(); ++v) pcf += fmt::format("{:<7}{}\n", v, p2p_names[v]);
  write_or_throw(prefix_ + ".pcf", pcf);

  // .row: names of the CPUs, the node, the application, the tasks and the threads.
  std::string row = fmt::format("LEVEL CPU SIZE {}\n", n);
  for (std::size_t i = 0; i < n; ++i) row += fmt::format("CPU {}\n", i + 1);
  row += "\nLEVEL NODE SIZE 1\naugur\n";
  row += "\nLEVEL APPL SIZE 1\naugur\n";
  row += fmt::format("\nLEVEL TASK SIZE {}\n", n);
  for (std::size_t i = 0; i < n; ++i) row += fmt::format("{} {}\n", track_, i);
  row += fmt::format("\nLEVEL THREAD SIZE {}\n", n);
  for (std::size_t i = 0; i < n; ++i) row += fmt::format("{} {}\n", track_, i);
  write_or_throw(prefix_ + ".row", row);
}

}  // namespace augur::models::report
