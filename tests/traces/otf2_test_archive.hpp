// Tests only: writes small OTF2 archives through the OTF2 library's writer, so that a test
// states every event it replays (and every defect it breaks the archive with).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <otf2/otf2.h>

namespace augur::test {

/// An archive `dir/traces.otf2` of `ranks` MPI ranks (location r, one process each), timer at
/// 1e9 ticks per second. Communicator 0 is MPI_COMM_WORLD.
class Otf2TestArchive {
 public:
  Otf2TestArchive(const std::filesystem::path& dir, int ranks) : dir_(dir), ranks_(ranks) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    archive_ = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 1 << 22, OTF2_SUBSTRATE_POSIX,
                                 OTF2_COMPRESSION_NONE);
    static const OTF2_FlushCallbacks flush{&pre_flush, nullptr};
    OTF2_Archive_SetFlushCallbacks(archive_, &flush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive_);
    OTF2_Archive_OpenEvtFiles(archive_);
    for (int r = 0; r < ranks; ++r) writers_.push_back(OTF2_Archive_GetEvtWriter(archive_, location(r)));
    std::vector<std::uint64_t> all;
    for (int r = 0; r < ranks; ++r) all.push_back(static_cast<std::uint64_t>(r));
    comm(all);
  }

  /// Location of rank r (spread out like EZTrace's, so that no code confuses the two).
  static std::uint64_t location(int r) { return static_cast<std::uint64_t>(r) * 1000 + 7; }

  /// A region; an MPI call (paradigm MPI) when `name` starts with "MPI_".
  OTF2_RegionRef region(const std::string& name, std::uint32_t line = 0) {
    regions_.push_back(Region{string(name), line, name.starts_with("MPI_")});
    return static_cast<OTF2_RegionRef>(regions_.size() - 1);
  }
  /// A communicator of the given world ranks (in its rank order).
  OTF2_CommRef comm(const std::vector<std::uint64_t>& members) {
    comms_.push_back(members);
    return static_cast<OTF2_CommRef>(comms_.size() - 1);
  }
  /// Metric class 0 with one member, PAPI_FP_OPS (a UINT64 counter).
  void flop_counter() { flops_ = true; }
  /// Leaves the MPI locations group out of the definitions (a trace of no MPI program).
  void without_mpi_locations() { mpi_locations_ = false; }
  /// Adds a location that is no MPI rank (a second thread of rank 0).
  void with_thread() { thread_ = true; }

  OTF2_EvtWriter* rank(int r) { return writers_.at(static_cast<std::size_t>(r)); }

  void enter(int r, std::uint64_t t, OTF2_RegionRef reg) { OTF2_EvtWriter_Enter(rank(r), nullptr, t, reg); }
  void leave(int r, std::uint64_t t, OTF2_RegionRef reg) { OTF2_EvtWriter_Leave(rank(r), nullptr, t, reg); }
  void flops(int r, std::uint64_t t, std::uint64_t value) {
    const OTF2_Type type = OTF2_TYPE_UINT64;
    OTF2_MetricValue v;
    v.unsigned_int = value;
    OTF2_EvtWriter_Metric(rank(r), nullptr, t, 0, 1, &type, &v);
  }

  /// Writes the definitions and closes the archive; returns the anchor file's path.
  std::string close() {
    for (OTF2_EvtWriter* w : writers_) OTF2_Archive_CloseEvtWriter(archive_, w);
    OTF2_Archive_CloseEvtFiles(archive_);
    write_definitions();
    OTF2_Archive_Close(archive_);
    return (dir_ / "traces.otf2").string();
  }

 private:
  struct Region {
    OTF2_StringRef name;
    std::uint32_t line;
    bool mpi;
  };

  static OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }

  OTF2_StringRef string(const std::string& s) {
    strings_.push_back(s);
    return static_cast<OTF2_StringRef>(strings_.size() - 1);
  }

  void write_definitions() {
    OTF2_Archive_OpenDefFiles(archive_);
    for (int r = 0; r < ranks_; ++r) {
      OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, location(r)));
    }
    OTF2_Archive_CloseDefFiles(archive_);
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive_);
    const OTF2_StringRef node = string("node"), thread = string("thread");
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 1000000000, OTF2_UNDEFINED_TIMESTAMP);
    for (std::size_t i = 0; i < strings_.size(); ++i) {
      OTF2_GlobalDefWriter_WriteString(g, static_cast<OTF2_StringRef>(i), strings_[i].c_str());
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, node, node, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    std::vector<std::uint64_t> locations;
    for (int r = 0; r < ranks_; ++r) {
      const auto lg = static_cast<OTF2_LocationGroupRef>(r);
      OTF2_GlobalDefWriter_WriteLocationGroup(g, lg, node, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                              OTF2_UNDEFINED_LOCATION_GROUP);
      OTF2_GlobalDefWriter_WriteLocation(g, location(r), thread, OTF2_LOCATION_TYPE_CPU_THREAD, 0, lg);
      locations.push_back(location(r));
    }
    if (thread_) OTF2_GlobalDefWriter_WriteLocation(g, 999999, thread, OTF2_LOCATION_TYPE_CPU_THREAD, 0, 0);
    if (mpi_locations_) {
      OTF2_GlobalDefWriter_WriteGroup(g, 0, node, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                      OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(locations.size()),
                                      locations.data());
    }
    for (std::size_t c = 0; c < comms_.size(); ++c) {
      const auto group = static_cast<OTF2_GroupRef>(c + 1);
      OTF2_GlobalDefWriter_WriteGroup(g, group, node, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                      OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(comms_[c].size()),
                                      comms_[c].data());
      OTF2_GlobalDefWriter_WriteComm(g, static_cast<OTF2_CommRef>(c), node, group, OTF2_UNDEFINED_COMM,
                                     OTF2_COMM_FLAG_NONE);
    }
    for (std::size_t i = 0; i < regions_.size(); ++i) {
      const Region& r = regions_[i];
      OTF2_GlobalDefWriter_WriteRegion(g, static_cast<OTF2_RegionRef>(i), r.name, r.name, r.name,
                                       OTF2_REGION_ROLE_FUNCTION, r.mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                       OTF2_REGION_FLAG_NONE, node, r.line, r.line);
    }
    if (flops_) write_flop_counter(g);
    OTF2_Archive_CloseGlobalDefWriter(archive_, g);
  }

  void write_flop_counter(OTF2_GlobalDefWriter* g) {
    const OTF2_StringRef name = static_cast<OTF2_StringRef>(strings_.size());
    OTF2_GlobalDefWriter_WriteString(g, name, "PAPI_FP_OPS");
    OTF2_GlobalDefWriter_WriteMetricMember(g, 0, name, name, OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
                                           OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, name);
    const OTF2_MetricMemberRef member = 0;
    OTF2_GlobalDefWriter_WriteMetricClass(g, 0, 1, &member, OTF2_METRIC_SYNCHRONOUS_STRICT, OTF2_RECORDER_KIND_CPU);
  }

  std::filesystem::path dir_;
  int ranks_;
  OTF2_Archive* archive_ = nullptr;
  std::vector<OTF2_EvtWriter*> writers_;
  std::vector<std::string> strings_;
  std::vector<Region> regions_;
  std::vector<std::vector<std::uint64_t>> comms_;
  bool flops_ = false;
  bool mpi_locations_ = true;
  bool thread_ = false;
};

}  // namespace augur::test
