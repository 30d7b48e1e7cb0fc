// Comparing message-passing trace records in the test suites (the TI reader's paths, the
// synthetic source against its files).
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>

#include "traces/mp_record.hpp"

namespace augur::test {

/// Every field of two records: the amount bit for bit, `counts` and `text` by content.
inline void check_same_record(const traces::MpRecord& a, const traces::MpRecord& b) {
  CHECK(a.kind == b.kind);
  CHECK(a.rank == b.rank);
  CHECK(a.peer == b.peer);
  CHECK(a.peer2 == b.peer2);
  CHECK(a.tag == b.tag);
  CHECK(a.root == b.root);
  CHECK(a.bytes == b.bytes);
  CHECK(a.bytes2 == b.bytes2);
  CHECK(a.count == b.count);
  CHECK(std::bit_cast<std::uint64_t>(a.amount) == std::bit_cast<std::uint64_t>(b.amount));
  CHECK(a.line == b.line);
  CHECK(std::equal(a.counts.begin(), a.counts.end(), b.counts.begin(), b.counts.end()));
  CHECK(a.text == b.text);
}

}  // namespace augur::test
