// The call codes of WaitStateAnalyzer's regions (internal to models/analysis): the kind of call
// that ends a computation phase, as the analyzer counts it and the reports name it.
#pragma once
#include <cstdint>
#include <string_view>

#include "engine/event.hpp"

namespace augur::models::analysis::wait_calls {

// Call codes (WaitStateAnalyzer::call_code_count of them): what a user finds in the program.
// A TI `location` action (interval_enter) counts as a call: it ends the phase before a rank's
// first marked region. Message-passing programs emit no other kinds of calls.
constexpr std::uint8_t code_start = 0, code_isend = 1, code_send = 2, code_irecv = 3, code_recv = 4, code_wait = 5,
                       code_waitall = 6, code_test = 7, code_end = 8, code_location = 9, code_collective = 10;

/// The code of the call event `e` records (an event that is no call: code_location).
inline std::uint8_t call_code(const engine::Event& e) {
  switch (e.kind) {
    case engine::EventKind::send:
      return e.base_detail() == 1 ? code_send : code_isend;
    case engine::EventKind::recv:
      return e.base_detail() == 1 ? code_recv : code_irecv;
    case engine::EventKind::wait:
      return code_wait;
    case engine::EventKind::waitall:
      return code_waitall;
    case engine::EventKind::test:
      return code_test;
    case engine::EventKind::collective:
    case engine::EventKind::collective_begin:
    case engine::EventKind::collective_end:
      return static_cast<std::uint8_t>(code_collective + (e.detail > 0 ? e.detail - 1 : 0));
    case engine::EventKind::finish:
      return code_end;
    default:
      return code_location;
  }
}

/// The call's name in region and site names ("send", "the start", a collective's name).
std::string_view call_name(std::uint8_t code);

}  // namespace augur::models::analysis::wait_calls
