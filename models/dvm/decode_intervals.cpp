// Decoding intervals and I/O: binter_/bsloop_/bploop_ and their ends, biof_/eiof_, srmem_ and the
// I/O functions (dvm_fopen … dvm_access), which the I/O processor (processor 0) executes.
#include <algorithm>
#include <optional>

#include "models/dvm/decode.hpp"

namespace augur::models::dvm {

namespace {

using traces::libdvm::DvmFunction;

void enter_interval(Decoder& d) {
  d.a.io_mode = d.interval_flag() != 0;
  const DvmFunction f = d.c.function();
  const auto type = f == DvmFunction::binter   ? analysis::IntervalType::user
                    : f == DvmFunction::bsloop ? analysis::IntervalType::seq
                                               : analysis::IntervalType::par;
  std::optional<long> index;
  if (f == DvmFunction::binter) {
    if (auto v = d.c.find_integer("index")) index = static_cast<long>(*v);
  }
  analysis::Interval& in = d.tree.enter(type, d.c.source_file(), static_cast<int>(d.c.source_line()), index);
  d.a.kind = ActionKind::interval_enter;
  d.a.interval = in.id;
}

/// einter_/enloop_/eloop_: the interval is closed later over the processors current now.
void exit_interval(Decoder& d) {
  d.a.io_mode = d.interval_flag() != 0;
  const auto id = static_cast<std::size_t>(d.tree.current().id);
  if (d.st.active_at_exit.size() <= id) d.st.active_at_exit.resize(id + 1);
  d.st.active_at_exit[id] = d.current_system().members;
  d.tree.exit_to_parent();
  d.a.kind = ActionKind::interval_exit;
  d.a.interval = d.tree.current().id;
}

void biof(Decoder& d) {
  d.interval_flag() = 1;
  d.a.io_mode = true;
  d.a.kind = ActionKind::io_mark;
}

void eiof(Decoder& d) {
  d.interval_flag() = 0;
  d.a.io_mode = false;
}

void srmem(Decoder& d) {
  d.a.io_mode = d.interval_flag() != 0;
  DvmProgram::Op& op = d.new_op(OpType::io_sync, analysis::OpKind::io);
  // The I/O processor sends the MemoryCount buffers of LengthArray bytes to every processor.
  if (auto lengths = d.c.find_array("LengthArray")) {
    for (auto n : *lengths) op.io_bytes += static_cast<std::uint64_t>(std::max<std::int64_t>(0, n));
  }
}

void io_function(Decoder& d) {
  d.a.io_mode = d.interval_flag() != 0;
  d.a.kind = ActionKind::io_call;
}

}  // namespace

void add_interval_decoders(DecodeTable& t) {
  using F = DvmFunction;
  set_handler(t, {F::binter, F::bsloop, F::bploop}, enter_interval);
  set_handler(t, {F::einter, F::enloop, F::eloop}, exit_interval);
  set_handler(t, {F::biof}, biof);
  set_handler(t, {F::eiof}, eiof);
  set_handler(t, {F::srmem}, srmem);
  for (auto f = static_cast<std::size_t>(DvmFunction::dvm_fopen); f < static_cast<std::size_t>(DvmFunction::biof); ++f)
    t[f] = io_function;
}

}  // namespace augur::models::dvm
