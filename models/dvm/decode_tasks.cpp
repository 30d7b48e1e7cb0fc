// Decoding tasks (abstract machines): getam_, getamr_, mapam_, and the (AM, PS) stack of runam_ and
// stopam_, which makes a task's processor system current while it runs.
#include <fmt/format.h>

#include "models/dvm/decode.hpp"

namespace augur::models::dvm {

namespace {

using traces::libdvm::DvmFunction;
using traces::libdvm::DvmSide;

void getam(Decoder& d) {
  if (auto ref = d.c.find_handle("AMRef", DvmSide::ret)) {
    if (d.st.current_am == 0) d.st.current_am = *ref;
    d.st.am_ps.emplace(*ref, d.st.current_ps);
  }
}

void mapam(Decoder& d) { d.st.am_ps[d.c.handle("AMRef")] = d.ps_ref(d.c.handle("PSRef")); }

void runam(Decoder& d) {
  const auto am = d.c.handle("AMRef");
  auto it = d.st.am_ps.find(am);
  if (it == d.st.am_ps.end()) {
    throw traces::TraceError(
        d.c.trace_path(), d.c.trace_line(),
        fmt::format("runam_: abstract machine {:x} was never mapped on a processor system (mapam_)", am));
  }
  d.st.am_stack.emplace_back(d.st.current_am, d.st.current_ps);
  d.st.current_am = am;
  d.st.current_ps = it->second;
}

void stopam(Decoder& d) {
  if (d.st.am_stack.empty()) return;
  d.st.current_am = d.st.am_stack.back().first;
  d.st.current_ps = d.st.am_stack.back().second;
  d.st.am_stack.pop_back();
}

}  // namespace

void add_task_decoders(DecodeTable& t) {
  using F = DvmFunction;
  set_handler(t, {F::getam}, getam);
  set_handler(t, {F::mapam}, mapam);
  set_handler(t, {F::runam}, runam);
  set_handler(t, {F::stopam}, stopam);
  // getamr_ (a reference to an abstract machine of the hierarchy) changes nothing modelled: the
  // table's default.
}

}  // namespace augur::models::dvm
