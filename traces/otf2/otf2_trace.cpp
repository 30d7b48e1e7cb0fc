// OTF2 archives as an MpTraceSource (otf2_trace.hpp): the global definitions read at open, then
// each rank's events read in chunks as the replay asks for its records.
#include "traces/otf2/otf2_trace.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "engine/log.hpp"
#include "traces/otf2/otf2_definitions.hpp"
#include "traces/otf2/otf2_events.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::otf2 {
namespace {

struct Spec {
  std::string path;
  double recorded_on = default_recorded_on;
};

Spec parse_spec(const std::string& spec) {
  constexpr std::string_view key = ",recorded_on=";
  const std::size_t at = spec.rfind(key);
  if (at == std::string::npos) return Spec{spec};
  Spec s{spec.substr(0, at)};
  const std::string value = spec.substr(at + key.size());
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, s.recorded_on);
  if (ec != std::errc{} || ptr != end || !std::isfinite(s.recorded_on) || s.recorded_on <= 0) {
    throw TraceError(s.path, 0, fmt::format("recorded_on: '{}' is not a positive speed in flops/s", value));
  }
  return s;
}

/// An anchor file: a regular file whose first chunk names the format (bytes 2 to 5: "OTF2").
void check_anchor(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw TraceError(path, 0, "is a folder: name the archive's anchor file (traces.otf2)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path, 0, "cannot open: " + std::string(std::strerror(errno)));
  char head[6] = {};
  in.read(head, 6);
  if (in.gcount() < 6 || std::string_view(head + 2, 4) != "OTF2") {
    throw TraceError(path, 0, "not an OTF2 archive (no OTF2 anchor file header)");
  }
}

/// OTF2_Reader_Open. The library leaks its archive object when the anchor file is damaged (no
/// handle is returned to free it): leak checking is off for the call in sanitizer builds.
OTF2_Reader* open_reader(const std::string& path) {
#if defined(__SANITIZE_ADDRESS__)
  __lsan_disable();
  OTF2_Reader* reader = OTF2_Reader_Open(path.c_str());
  __lsan_enable();
  return reader;
#else
  return OTF2_Reader_Open(path.c_str());
#endif
}

struct ReaderCloser {
  void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};

class Otf2Trace final : public MpTraceSource {
 public:
  Otf2Trace(const Spec& spec, OTF2_Reader* reader)
      : anchor_(spec.path), reader_(reader), defs_(read_otf2_definitions(reader, spec.path)) {
    const std::filesystem::path anchor(spec.path);
    const std::filesystem::path folder = anchor.parent_path() / anchor.stem();
    for (std::size_t r = 0; r < defs_.rank_locations.size(); ++r) {
      const std::uint64_t loc = defs_.rank_locations[r];
      streams_.push_back(std::make_unique<Otf2RankStream>(defs_, static_cast<int>(r), spec.recorded_on,
                                                          (folder / fmt::format("{}.evt", loc)).string()));
    }
    open_events();
    if (!defs_.other_locations.empty()) {
      if (auto* lg = engine::logger_at(engine::Folder::traces, spdlog::level::warn)) {
        lg->warn("{}: warning: {} location(s) are no MPI rank (threads, devices): not replayed", anchor_,
                 defs_.other_locations.size());
      }
    }
  }

  int rank_count() const override { return static_cast<int>(streams_.size()); }
  std::string file_name(int rank) const override { return streams_.at(static_cast<std::size_t>(rank))->file(); }
  MpCommunicators communicators() const override { return defs_.comm_table; }

  bool next(int rank, MpRecord& out) override {
    Otf2RankStream& s = *streams_.at(static_cast<std::size_t>(rank));
    const bool has = s.next(out);
    if (!warned_dropped_ && s.dropped_receives() > 0) {
      warned_dropped_ = true;
      if (auto* lg = engine::logger_at(engine::Folder::traces, spdlog::level::warn)) {
        lg->warn(
            "{}: warning: receive requests the trace never completes (EZTrace 2.0 writes no completion "
            "events): not replayed (reported once)",
            s.file());
      }
    }
    return has;
  }

 private:
  void open_events() {
    OTF2_Reader* r = reader_.get();
    for (std::uint64_t loc : defs_.rank_locations) OTF2_Reader_SelectLocation(r, loc);
    const bool local_defs = OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS;
    if (OTF2_ErrorCode code = OTF2_Reader_OpenEvtFiles(r); code != OTF2_SUCCESS) {
      throw TraceError(anchor_, 0, "cannot open the event files: " + otf2_message(code));
    }
    for (std::size_t i = 0; i < streams_.size(); ++i) {
      const std::uint64_t loc = defs_.rank_locations[i];
      if (local_defs) read_local_definitions(loc);
      OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(r, loc);
      if (!evt) {
        throw TraceError(streams_[i]->file(), 0,
                         fmt::format("cannot open the events of rank {}: {}", i, otf2_message(OTF2_SUCCESS)));
      }
      streams_[i]->attach(r, evt);
    }
    if (local_defs) OTF2_Reader_CloseDefFiles(r);
  }

  /// A location's own definitions: the mappings of its local identifiers, if it has any.
  void read_local_definitions(std::uint64_t loc) {
    OTF2_Reader* r = reader_.get();
    OTF2_DefReader* defs = OTF2_Reader_GetDefReader(r, loc);
    if (!defs) return;
    std::uint64_t read = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalDefinitions(r, defs, &read);
    OTF2_Reader_CloseDefReader(r, defs);
    if (code != OTF2_SUCCESS) {
      throw TraceError(anchor_, 0,
                       fmt::format("cannot read the definitions of location {}: {}", loc, otf2_message(code)));
    }
  }

  std::string anchor_;
  std::unique_ptr<OTF2_Reader, ReaderCloser> reader_;
  Otf2Definitions defs_;
  std::vector<std::unique_ptr<Otf2RankStream>> streams_;
  bool warned_dropped_ = false;
};

}  // namespace

std::unique_ptr<MpTraceSource> open_otf2_trace(const std::string& spec_text) {
  const Spec spec = parse_spec(spec_text);
  check_anchor(spec.path);
  capture_otf2_errors();
  OTF2_Reader* reader = open_reader(spec.path);
  if (!reader) throw TraceError(spec.path, 0, "cannot open the OTF2 archive: " + otf2_message(OTF2_SUCCESS));
  std::unique_ptr<OTF2_Reader, ReaderCloser> owner(reader);
  if (OTF2_ErrorCode code = OTF2_Reader_SetSerialCollectiveCallbacks(reader); code != OTF2_SUCCESS) {
    throw TraceError(spec.path, 0, "cannot open the OTF2 archive: " + otf2_message(code));
  }
  return std::make_unique<Otf2Trace>(spec, owner.release());
}

}  // namespace augur::traces::otf2
