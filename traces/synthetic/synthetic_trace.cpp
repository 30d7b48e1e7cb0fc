// The synthetic workload of issue 4: its spec string, its action count and the on-the-fly source
// whose whole per-rank state is the next line number.
#include "traces/synthetic/synthetic_trace.hpp"

#include <charconv>
#include <limits>
#include <stdexcept>
#include <vector>

#include "engine/log.hpp"
#include "engine/limits.hpp"
#include "support/strings.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::synthetic {
namespace {

/// Workload constants (issue 4): compute of (1 + r mod 4) ms at 1 Gflop/s, a 1000-byte ring
/// exchange, an 8-byte allreduce every 10th iteration.
constexpr double flops_per_ms = 1e6;
constexpr std::uint64_t ring_bytes = 1000;
constexpr std::int32_t ring_tag = 0;
constexpr std::uint64_t allreduce_bytes = 8;
constexpr std::uint64_t allreduce_period = 10;
/// Actions of one iteration without the allreduce: compute, irecv, isend, waitall.
constexpr std::uint64_t actions_per_iteration = 4;
/// Body lines of a block of `allreduce_period` iterations: 10 × 4 + 1 allreduce.
constexpr std::uint64_t lines_per_block = allreduce_period * actions_per_iteration + 1;

const char* const spec_syntax = "P=<ranks>,I=<iterations>";

[[noreturn]] void spec_error(std::string_view text, const std::string& message) {
  throw TraceError("synthetic:" + std::string(text), 0, message);
}

std::uint64_t spec_number(std::string_view text, std::string_view key, std::string_view value, std::uint64_t max) {
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || error == std::errc::invalid_argument || end != value.data() + value.size()) {
    spec_error(text, "'" + std::string(value) + "' is not a decimal number (key '" + std::string(key) + "')");
  }
  if (error == std::errc::result_out_of_range || number > max) {
    spec_error(text, "'" + std::string(value) + "' is too large for key '" + std::string(key) + "' (at most " +
                         std::to_string(max) + ")");
  }
  return number;
}

/// A rank's whole state: the line number of its next action (last line + 1 once finished).
struct RankCursor {
  std::uint64_t next_line = 1;
};
static_assert(sizeof(RankCursor) <= 16, "per-rank state of the synthetic source: at most 16 bytes");

/// The trace source: one RankCursor per rank and nothing else per rank.
class SyntheticTrace final : public MpTraceSource {
 public:
  explicit SyntheticTrace(const SyntheticSpec& spec)
      : spec_(spec),
        name_("synthetic:" + to_string(spec)),
        last_line_(synthetic_actions_per_rank(spec)),
        cursors_(static_cast<std::size_t>(spec.ranks)) {}

  int rank_count() const override { return spec_.ranks; }

  std::string file_name(int rank) const override {
    check_rank(rank);
    return name_ + " rank " + std::to_string(rank);
  }

  bool next(int rank, MpRecord& out) override {
    check_rank(rank);
    std::uint64_t& line = cursors_[static_cast<std::size_t>(rank)].next_line;
    if (line > last_line_) return false;
    out = MpRecord{};
    out.rank = rank;
    out.line = line;
    if (line == 1) {
      out.kind = MpOpKind::init;
    } else if (line == last_line_) {
      out.kind = MpOpKind::finalize;
    } else {
      // Body line k (0-based) of blocks of 10 iterations: 4 actions each, then the allreduce.
      const std::uint64_t in_block = (line - 2) % lines_per_block;
      if (in_block == lines_per_block - 1) {
        out.kind = MpOpKind::allreduce;
        out.bytes = allreduce_bytes;
      } else {
        switch (in_block % actions_per_iteration) {
          case 0:
            out.kind = MpOpKind::compute;
            out.amount = static_cast<double>(1 + rank % 4) * flops_per_ms;
            break;
          case 1:
            out.kind = MpOpKind::irecv;
            out.peer = rank == 0 ? spec_.ranks - 1 : rank - 1;
            out.tag = ring_tag;
            out.bytes = ring_bytes;
            break;
          case 2:
            out.kind = MpOpKind::isend;
            out.peer = rank == spec_.ranks - 1 ? 0 : rank + 1;
            out.tag = ring_tag;
            out.bytes = ring_bytes;
            break;
          default:
            out.kind = MpOpKind::waitall;
            out.count = 2;
            break;
        }
      }
    }
    ++line;
    return true;
  }

 private:
  void check_rank(int rank) const {
    if (rank < 0 || rank >= spec_.ranks) {
      throw std::out_of_range("synthetic trace has no rank " + std::to_string(rank));
    }
  }

  SyntheticSpec spec_;
  std::string name_;
  std::uint64_t last_line_;
  std::vector<RankCursor> cursors_;
};

}  // namespace

SyntheticSpec parse_synthetic_spec(std::string_view text) {
  SyntheticSpec spec;
  bool have_ranks = false;
  bool have_iterations = false;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = support::trim(rest.substr(0, comma));
    const auto equals = item.find('=');
    if (equals == std::string_view::npos) {
      spec_error(text, "expected KEY=VALUE items separated by commas (" + std::string(spec_syntax) + "), found '" +
                           std::string(item) + "'");
    }
    const std::string_view key = support::trim(item.substr(0, equals));
    const std::string_view value = support::trim(item.substr(equals + 1));
    if (key == "P") {
      if (have_ranks) spec_error(text, "key 'P' given twice");
      spec.ranks =
          static_cast<std::int32_t>(spec_number(text, key, value, static_cast<std::uint64_t>(engine::max_lps)));
      if (spec.ranks < 1) spec_error(text, "P must be at least 1");
      have_ranks = true;
    } else if (key == "I") {
      if (have_iterations) spec_error(text, "key 'I' given twice");
      spec.iterations =
          static_cast<std::uint32_t>(spec_number(text, key, value, std::numeric_limits<std::uint32_t>::max()));
      have_iterations = true;
    } else {
      spec_error(text, "unknown key '" + std::string(key) + "' (valid keys: P, I)");
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (!have_ranks) spec_error(text, "missing key 'P' (expected " + std::string(spec_syntax) + ")");
  if (!have_iterations) spec_error(text, "missing key 'I' (expected " + std::string(spec_syntax) + ")");
  return spec;
}

std::string to_string(const SyntheticSpec& spec) {
  return "P=" + std::to_string(spec.ranks) + ",I=" + std::to_string(spec.iterations);
}

std::uint64_t synthetic_actions_per_rank(const SyntheticSpec& spec) {
  const std::uint64_t iterations = spec.iterations;
  return 2 + actions_per_iteration * iterations + iterations / allreduce_period;
}

std::uint64_t synthetic_action_count(const SyntheticSpec& spec) {
  return static_cast<std::uint64_t>(spec.ranks) * synthetic_actions_per_rank(spec);
}

std::unique_ptr<MpTraceSource> make_synthetic_trace(const SyntheticSpec& spec) {
  if (spec.ranks < 1) throw std::invalid_argument("synthetic trace: P must be at least 1");
  if (auto* lg = engine::logger_at(engine::Folder::traces, spdlog::level::info)) {
    lg->info("synthetic trace {}: the issue-4 workload generated on the fly, {} actions", to_string(spec),
             synthetic_action_count(spec));
  }
  return std::make_unique<SyntheticTrace>(spec);
}

}  // namespace augur::traces::synthetic
