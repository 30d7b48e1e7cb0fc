// Message-passing records as SimGrid TI lines (ti_writer.hpp). Every size is a count of MPI_BYTE
// (SMPI datatype 6, 1 byte), so the sizes read back exactly whatever the datatypes were.
#include "traces/ti/ti_writer.hpp"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "traces/trace_error.hpp"

namespace augur::traces::ti {
namespace {

constexpr std::string_view byte = "6";  ///< SMPI's id of MPI_BYTE

/// The counts of a v-collective, space-separated, `n` of them (missing ones: 0).
std::string counts(std::span<const std::uint64_t> values, std::size_t from, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = from + i;
    out += fmt::format("{}{}", i == 0 ? "" : " ", at < values.size() ? values[at] : 0);
  }
  return out;
}

std::uint64_t sum(std::span<const std::uint64_t> values, std::size_t from, std::size_t n) {
  std::uint64_t total = 0;
  for (std::size_t i = from; i < from + n && i < values.size(); ++i) total += values[i];
  return total;
}

/// A file name or region as one field: blanks would split it.
std::string field(std::string_view text) {
  std::string out(text.empty() ? std::string_view("?") : text);
  for (char& c : out)
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
  return out;
}

/// The fields after the keyword (empty for actions without fields).
std::string fields(const MpRecord& r, std::size_t p) {
  using K = MpOpKind;
  switch (r.kind) {
    case K::compute:
    case K::sleep:
      return fmt::format("{}", r.amount);
    case K::send:
    case K::isend:
    case K::recv:
    case K::irecv:
      return fmt::format("{} {} {} {}", r.peer, r.tag, r.bytes, byte);
    case K::wait:
    case K::test:
      return fmt::format("{} {} {}", r.peer, r.peer2, r.tag);
    case K::waitall:
    case K::comm_size:
      return fmt::format("{}", r.count);
    case K::send_recv:
      return fmt::format("{} {} {} {} {} {}", r.bytes, r.peer, r.bytes2, r.peer2, byte, byte);
    case K::bcast:
      return fmt::format("{} {} {}", r.bytes, r.root, byte);
    case K::reduce:
      return fmt::format("{} {} {} {}", r.bytes, r.amount, r.root, byte);
    case K::allreduce:
    case K::scan:
    case K::exscan:
      return fmt::format("{} {} {}", r.bytes, r.amount, byte);
    case K::alltoall:
    case K::allgather:
      return fmt::format("{} {} {} {}", r.bytes, r.bytes2, byte, byte);
    case K::gather:
    case K::scatter:
      return fmt::format("{} {} {} {} {}", r.bytes, r.bytes2, r.root, byte, byte);
    case K::alltoallv:
      return fmt::format("{} {} {} {} {} {}", sum(r.counts, 0, p), counts(r.counts, 0, p), sum(r.counts, p, p),
                         counts(r.counts, p, p), byte, byte);
    case K::gatherv:
      return fmt::format("{} {} {} {} {}", r.bytes, counts(r.counts, 0, p), r.root, byte, byte);
    case K::allgatherv:
      return fmt::format("{} {} {} {}", r.bytes, counts(r.counts, 0, p), byte, byte);
    case K::scatterv:
      return fmt::format("{} {} {} {} {}", counts(r.counts, 0, p), r.bytes2, r.root, byte, byte);
    case K::reduce_scatter:
      return fmt::format("{} {} {}", counts(r.counts, 0, p), r.amount, byte);
    case K::location:
      return fmt::format("{} {}", field(r.text), r.count);
    case K::init:
    case K::finalize:
    case K::barrier:
    case K::comm_split:
    case K::comm_dup:
      return {};
  }
  return {};
}

}  // namespace

std::string ti_line(const MpRecord& rec, int rank, int ranks, const std::string& file, bool spans_world) {
  if (!spans_world) {
    throw TraceError(file, rec.line,
                     fmt::format("{} on communicator {}: a TI trace has no communicators (SimGrid replays every "
                                 "collective on MPI_COMM_WORLD)",
                                 to_string(rec.kind), rec.comm));
  }
  const std::string rest = fields(rec, static_cast<std::size_t>(ranks));
  return fmt::format("{} {}{}{}", rank, to_string(rec.kind), rest.empty() ? "" : " ", rest);
}

std::uint64_t write_ti_trace(MpTraceSource& source, const std::filesystem::path& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: error: cannot create the folder: {}", out.string(), ec.message()));
  const auto open = [](const std::filesystem::path& path) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file) throw std::runtime_error(fmt::format("{}: error: cannot write the file", path.string()));
    return file;
  };
  const int ranks = source.rank_count();
  // Per communicator: whether it has every rank in order (then TI's world collective is the same).
  const MpCommunicators comms = source.communicators();
  std::vector<bool> spans_world(comms.size() + 1, true);
  for (std::size_t c = 1; c < comms.size(); ++c) {
    const auto& m = comms[c];
    spans_world[c] = m.size() == static_cast<std::size_t>(ranks);
    for (std::size_t i = 0; i < m.size() && spans_world[c]; ++i) spans_world[c] = m[i] == static_cast<std::int32_t>(i);
  }
  const auto spans = [&](std::int32_t comm) {
    return comm >= 0 && static_cast<std::size_t>(comm) < spans_world.size() &&
           spans_world[static_cast<std::size_t>(comm)];
  };
  std::ofstream index = open(out / "trace.txt");
  std::uint64_t written = 0;
  for (int r = 0; r < ranks; ++r) {
    const std::string name = fmt::format("rank{}.txt", r);
    index << name << '\n';
    std::ofstream file = open(out / name);
    const std::string source_file = source.file_name(r);
    MpRecord rec;
    bool first = true;
    MpOpKind last = MpOpKind::finalize;
    while (source.next(r, rec)) {
      if (first && rec.kind != MpOpKind::init) file << r << " init\n";
      first = false;
      // Messages and waits keep their world peers: TI matches them by (source, tag) alone.
      const bool message = rec.kind == MpOpKind::send || rec.kind == MpOpKind::isend || rec.kind == MpOpKind::recv ||
                           rec.kind == MpOpKind::irecv || rec.kind == MpOpKind::wait || rec.kind == MpOpKind::test;
      file << ti_line(rec, r, ranks, source_file, message || spans(rec.comm)) << '\n';
      last = rec.kind;
      ++written;
    }
    if (first) file << r << " init\n";
    if (first || last != MpOpKind::finalize) file << r << " finalize\n";
    if (!file.flush()) throw std::runtime_error(fmt::format("{}: error: write failed", (out / name).string()));
  }
  if (!index.flush()) throw std::runtime_error(fmt::format("{}: error: write failed", (out / "trace.txt").string()));
  return written;
}

}  // namespace augur::traces::ti
