// The global definitions of an OTF2 archive (otf2_definitions.hpp).
#include "traces/otf2/otf2_definitions.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <fmt/format.h>
#include <unordered_set>

#include "traces/trace_error.hpp"

namespace augur::traces::otf2 {
namespace {

thread_local std::string last_message;

OTF2_ErrorCode remember_error(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                              va_list args) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, args);
  last_message = text;
  return code;
}

struct RawGroup {
  OTF2_GroupType type;
  std::vector<std::uint64_t> members;
};

/// What the callbacks collect; resolved into Otf2Definitions once every definition is read.
struct Collected {
  std::string anchor;
  std::string error;
  Otf2Definitions defs;
  std::unordered_map<std::uint32_t, std::string> strings;
  std::unordered_map<std::uint64_t, OTF2_LocationType> locations;
  std::vector<std::uint64_t> mpi_locations;
  bool have_mpi_locations = false;
  std::unordered_map<std::uint32_t, RawGroup> groups;  ///< COMM_GROUP and COMM_SELF groups
  std::unordered_map<std::uint32_t, std::uint32_t> comm_groups;
  std::unordered_map<std::uint32_t, std::uint32_t> comm_parents;
  std::unordered_map<std::uint32_t, Otf2FlopSlot> flop_members;
  std::unordered_map<std::uint32_t, std::uint32_t> region_names;

  OTF2_CallbackCode fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return OTF2_CALLBACK_INTERRUPT;
  }
  const std::string* string(std::uint32_t ref) const {
    auto it = strings.find(ref);
    return it == strings.end() ? nullptr : &it->second;
  }
};

Collected& data(void* user) { return *static_cast<Collected*>(user); }

OTF2_CallbackCode on_string(void* user, OTF2_StringRef self, const char* text) {
  data(user).strings[self] = text;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_clock(void* user, uint64_t resolution, uint64_t, uint64_t, uint64_t) {
  if (resolution == 0) return data(user).fail("clock properties: timer resolution 0");
  data(user).defs.ticks_per_second = static_cast<double>(resolution);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* user, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType type, uint64_t,
                              OTF2_LocationGroupRef) {
  data(user).locations[self] = type;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* user, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                           OTF2_GroupFlag, uint32_t count, const uint64_t* members) {
  Collected& c = data(user);
  if (paradigm != OTF2_PARADIGM_MPI) return OTF2_CALLBACK_SUCCESS;
  if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
    if (c.have_mpi_locations) return c.fail("two MPI COMM_LOCATIONS groups");
    c.have_mpi_locations = true;
    c.mpi_locations.assign(members, members + count);
  } else if (type == OTF2_GROUP_TYPE_COMM_GROUP || type == OTF2_GROUP_TYPE_COMM_SELF) {
    c.groups[self] = RawGroup{type, std::vector<std::uint64_t>(members, members + count)};
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* user, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef parent,
                          OTF2_CommFlag) {
  data(user).comm_groups[self] = group;
  data(user).comm_parents[self] = parent;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* user, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t begin,
                            uint32_t) {
  Collected& c = data(user);
  Otf2Region& r = c.defs.regions[self];
  r.line = begin;
  r.mpi = paradigm == OTF2_PARADIGM_MPI;
  c.region_names[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_metric_member(void* user, OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef,
                                   OTF2_MetricType, OTF2_MetricMode, OTF2_Type type, OTF2_Base, int64_t,
                                   OTF2_StringRef) {
  Collected& c = data(user);
  const std::string* text = c.string(name);
  if (text && (*text == "PAPI_FP_OPS" || *text == "PAPI_DP_OPS")) {
    c.flop_members[self] = Otf2FlopSlot{0, type == OTF2_TYPE_DOUBLE};
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_metric_class(void* user, OTF2_MetricRef self, uint8_t count, const OTF2_MetricMemberRef* members,
                                  OTF2_MetricOccurrence, OTF2_RecorderKind) {
  Collected& c = data(user);
  for (std::uint32_t i = 0; i < count; ++i) {
    auto it = c.flop_members.find(members[i]);
    if (it == c.flop_members.end()) continue;
    c.defs.flop_metrics[self] = Otf2FlopSlot{i, it->second.is_double};
    break;
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_metric_instance(void* user, OTF2_MetricRef self, OTF2_MetricRef metric_class, OTF2_LocationRef,
                                     OTF2_MetricScope, uint64_t) {
  Collected& c = data(user);
  auto it = c.defs.flop_metrics.find(metric_class);
  if (it != c.defs.flop_metrics.end()) c.defs.flop_metrics[self] = it->second;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_GlobalDefReaderCallbacks* make_callbacks() {
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, &on_string);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, &on_clock);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, &on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, &on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, &on_comm);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, &on_region);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, &on_metric_member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, &on_metric_class);
  OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb, &on_metric_instance);
  return cb;
}

/// Ranks from the MPI COMM_LOCATIONS group; every other location is listed as not replayed.
void resolve_ranks(Collected& c) {
  Otf2Definitions& d = c.defs;
  if (!c.have_mpi_locations || c.mpi_locations.empty()) {
    throw TraceError(c.anchor, 0, "no MPI locations (no COMM_LOCATIONS group of paradigm MPI): not an MPI trace");
  }
  for (std::uint64_t loc : c.mpi_locations) {
    if (!c.locations.contains(loc)) {
      throw TraceError(c.anchor, 0, fmt::format("the MPI locations name location {}, which is not defined", loc));
    }
    if (!d.rank_of_location.try_emplace(loc, static_cast<int>(d.rank_locations.size())).second) {
      throw TraceError(c.anchor, 0, fmt::format("location {} is two MPI ranks", loc));
    }
    d.rank_locations.push_back(loc);
  }
  for (const auto& [loc, type] : c.locations) {
    if (!d.rank_of_location.contains(loc)) d.other_locations.push_back(loc);
  }
}

/// Ids for the records: 0 for the world — every rank in order, no parent (the lowest such
/// reference; without a parentless one, the lowest with every rank in order) — then the other
/// communicators in the order of their references. MPI_COMM_SELF needs none.
void number_comms(Collected& c) {
  Otf2Definitions& d = c.defs;
  std::vector<std::uint32_t> refs;
  for (const auto& [comm, members] : d.comms) refs.push_back(comm);
  std::sort(refs.begin(), refs.end());
  const auto is_world = [&](std::uint32_t comm, bool need_no_parent) {
    const std::vector<int>& m = d.comms[comm];
    if (m.size() != d.rank_locations.size()) return false;
    for (std::size_t i = 0; i < m.size(); ++i)
      if (m[i] != static_cast<int>(i)) return false;
    return !need_no_parent || c.comm_parents[comm] == OTF2_UNDEFINED_COMM;
  };
  auto world = std::find_if(refs.begin(), refs.end(), [&](std::uint32_t r) { return is_world(r, true); });
  if (world == refs.end())
    world = std::find_if(refs.begin(), refs.end(), [&](std::uint32_t r) { return is_world(r, false); });
  d.comm_table.assign(1, {});
  if (world != refs.end()) d.comm_ids[*world] = 0;
  for (std::uint32_t comm : refs) {
    if (d.comm_ids.contains(comm) || d.comms[comm].empty()) continue;
    d.comm_ids[comm] = static_cast<std::int32_t>(d.comm_table.size());
    d.comm_table.emplace_back(d.comms[comm].begin(), d.comms[comm].end());
  }
}

void resolve_comms(Collected& c) {
  Otf2Definitions& d = c.defs;
  const auto ranks = static_cast<std::uint64_t>(d.rank_locations.size());
  for (const auto& [comm, group] : c.comm_groups) {
    auto it = c.groups.find(group);
    if (it == c.groups.end()) continue;  // a communicator of another paradigm
    std::vector<int>& members = d.comms[comm];
    if (it->second.type == OTF2_GROUP_TYPE_COMM_SELF) continue;
    for (std::uint64_t m : it->second.members) {
      if (m >= ranks) {
        throw TraceError(c.anchor, 0,
                         fmt::format("communicator {} has member {} but the trace has {} MPI ranks", comm, m, ranks));
      }
      members.push_back(static_cast<int>(m));
    }
  }
  number_comms(c);
}

void resolve_regions(Collected& c) {
  for (auto& [ref, region] : c.defs.regions) {
    const std::string* name = c.string(c.region_names[ref]);
    if (!name)
      throw TraceError(c.anchor, 0,
                       fmt::format("region {} names string {}, which is not defined", ref, c.region_names[ref]));
    region.name = *name;
    region.mpi = region.mpi || region.name.starts_with("MPI_");
  }
}

}  // namespace

void capture_otf2_errors() {
  static const bool registered = (OTF2_Error_RegisterCallback(&remember_error, nullptr), true);
  (void)registered;
}

std::string otf2_message(OTF2_ErrorCode code) {
  std::string text = last_message.empty() ? OTF2_Error_GetDescription(code) : last_message;
  last_message.clear();
  return text;
}

Otf2Definitions read_otf2_definitions(OTF2_Reader* reader, const std::string& anchor) {
  Collected c;
  c.anchor = anchor;
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  if (!defs) throw TraceError(anchor, 0, "cannot read the global definitions: " + otf2_message(OTF2_SUCCESS));
  OTF2_GlobalDefReaderCallbacks* callbacks = make_callbacks();
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, callbacks, &c);
  OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
  std::uint64_t read = 0;
  const OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read);
  OTF2_Reader_CloseGlobalDefReader(reader, defs);
  if (!c.error.empty()) throw TraceError(anchor, 0, c.error);
  if (status != OTF2_SUCCESS) {
    throw TraceError(anchor, 0, "cannot read the global definitions: " + otf2_message(status));
  }
  if (c.defs.ticks_per_second == 0) throw TraceError(anchor, 0, "the definitions have no clock properties");
  resolve_ranks(c);
  resolve_comms(c);
  resolve_regions(c);
  return std::move(c.defs);
}

}  // namespace augur::traces::otf2
