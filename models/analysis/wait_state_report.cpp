// WaitStateAnalyzer's results for the reports: pattern names and sums, region and site names
// (from the call codes of wait_state_calls.hpp), the lists of causes and sites in report order.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "models/analysis/wait_state_calls.hpp"
#include "models/analysis/wait_states.hpp"

namespace augur::models::analysis {

using engine::CollectiveKind;

namespace wait_calls {

std::string_view call_name(std::uint8_t code) {
  switch (code) {
    case code_start:
      return "the start";
    case code_isend:
      return "isend";
    case code_send:
      return "send";
    case code_irecv:
      return "irecv";
    case code_recv:
      return "recv";
    case code_wait:
      return "wait";
    case code_waitall:
      return "waitall";
    case code_test:
      return "test";
    case code_end:
      return "the end";
    case code_location:
      return "location";
    default:
      return engine::to_string(static_cast<CollectiveKind>(code - code_collective));
  }
}

}  // namespace wait_calls

using wait_calls::call_name;
using wait_calls::code_end;
using wait_calls::code_start;

std::string_view to_string(WaitPattern pattern) {
  switch (pattern) {
    case WaitPattern::late_sender:
      return "late_sender";
    case WaitPattern::late_receiver:
      return "late_receiver";
    case WaitPattern::wait_at_barrier:
      return "wait_at_barrier";
    case WaitPattern::early_reduce:
      return "early_reduce";
    case WaitPattern::late_broadcast:
      return "late_broadcast";
    case WaitPattern::wait_at_nxn:
      return "wait_at_nxn";
  }
  return "?";
}

double total_s(const PatternAmounts& patterns) {
  double t = 0;
  for (const WaitAmount& a : patterns) t += a.total_s;
  return t;
}

double indirect_s(const PatternAmounts& patterns) {
  double t = 0;
  for (const WaitAmount& a : patterns) t += a.indirect_s;
  return t;
}

std::uint64_t count(const PatternAmounts& patterns) {
  std::uint64_t n = 0;
  for (const WaitAmount& a : patterns) n += a.count;
  return n;
}

std::string WaitStateAnalyzer::region_name(const Region& r) const {
  if (r.location)
    return r.file.empty() ? fmt::format(FMT_COMPILE("line {}"), r.line)
                          : fmt::format(FMT_COMPILE("{}:{}"), r.file, r.line);
  std::string where;
  if (r.before != code_start) where = fmt::format(FMT_COMPILE("after {} #{}"), call_name(r.before), r.before_ordinal);
  if (r.after != code_end) {
    where +=
        fmt::format(FMT_COMPILE("{}before {} #{}"), where.empty() ? "" : ", ", call_name(r.after), r.after_ordinal);
  }
  return fmt::format(FMT_COMPILE("compute between {} and {} (rank {}{}{})"), call_name(r.before), call_name(r.after),
                     r.lp, where.empty() ? "" : ": ", where);
}

std::vector<RegionCause> WaitStateAnalyzer::causes() const {
  return causes_of(regions_, [this](const Region& r) { return region_name(r); });
}

std::string WaitStateAnalyzer::site_name(const Region& r) const {
  if (r.location) return region_name(r);
  return fmt::format(FMT_COMPILE("{} after {} (rank {}: {} #{})"), call_name(r.after), call_name(r.before), r.site_lp,
                     call_name(r.after), r.site_ordinal);
}

std::vector<WaitSite> WaitStateAnalyzer::sites() const {
  std::vector<WaitSite> out;
  for (const Region& r : regions_) {
    WaitSite site;
    site.patterns = r.waited;
    if (site.count() > 0) {
      site.name = site_name(r);
      out.push_back(std::move(site));
    }
  }
  sort_sites(out);
  return out;
}

void sort_sites(std::vector<WaitSite>& sites) {
  std::sort(sites.begin(), sites.end(), [](const WaitSite& a, const WaitSite& b) {
    const double ta = a.total_s(), tb = b.total_s();
    return ta > tb || (ta == tb && a.name < b.name);
  });
}

void sort_causes(std::vector<RegionCause>& causes) {
  std::sort(causes.begin(), causes.end(), [](const RegionCause& a, const RegionCause& b) {
    return a.caused_s > b.caused_s || (a.caused_s == b.caused_s && a.name < b.name);
  });
}

LpWaits sum_waits(const std::vector<LpWaits>& lps) {
  LpWaits t;
  for (const LpWaits& l : lps) {
    for (std::size_t i = 0; i < wait_pattern_count; ++i) t.patterns[i].add(l.patterns[i]);
    t.wrong_order.add(l.wrong_order);
    t.caused_s += l.caused_s;
  }
  return t;
}

LpWaits WaitStateAnalyzer::totals() const { return sum_waits(lps_); }

}  // namespace augur::models::analysis
