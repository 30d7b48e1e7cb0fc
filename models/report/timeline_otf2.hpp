// Timeline of a simulated message-passing run as an OTF2 archive (Vampir, the Score-P tools and
// augur's own otf2 reader open it): the predicted begin and end of every MPI call of each rank.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/observer.hpp"

namespace augur::models::report {

/// Observer writing `DIR/traces.otf2` (with `traces.def` and `traces/`) from a message-passing
/// run's events. Definitions: one process and one CPU-thread location per rank (location r),
/// the regions of the MPI calls written (`MPI_Send`, `MPI_Isend`, `MPI_Wait`, `MPI_Allreduce`…,
/// paradigm MPI), communicator 0 = MPI_COMM_WORLD and one per entry of `comms` (world ranks in
/// comm-rank order; parent 0), a `PAPI_FP_OPS` counter (double). Events, timestamps in
/// nanoseconds of simulated time (t · 1e9 rounded):
/// * a blocking send/receive: Enter, MpiSend at the start (MpiRecv at the end), Leave;
/// * a non-blocking one: Enter, MpiIsend / MpiIrecvRequest with a request id, Leave; its
///   completion (MpiIsendComplete / MpiIrecv, with the source the receive matched) at the end
///   of the `MPI_Wait` / `MPI_Waitall` that finishes it — a `wait` the oldest pending request
///   of its (direction, peer, tag), a `waitall` every pending request of the rank;
/// * a collective: Enter, MpiCollectiveBegin, MpiCollectiveEnd (operation, communicator, root as
///   its rank there, the event's bytes as sent and received), Leave; the messages of an expanded
///   collective are not written (they are the MPI library's, not the program's);
/// * the end of a rank: an empty MPI_Finalize;
/// * compute and sleep: the time between calls, and the counter's value at every Enter: the
///   flops computed so far, time × `flops_per_second[rank]`, so that augur's otf2 reader
///   replays the same flops on any machine (on the machine of the run: the same times).
/// Limits (of the event vocabulary): a reduction's flops inside its collective are part of the
/// call's time, not of the counter; the true source of an any-source receive completed by a
/// `waitall` is unknown (written as rank 0); a sendRecv is an Isend, an Irecv and
/// a Waitall, which also completes the rank's other pending requests; messages are written on
/// MPI_COMM_WORLD with world ranks (events carry no communicator), so equal tags of two
/// communicators between the same ranks may match differently when read back.
class Otf2Timeline final : public engine::Observer {
 public:
  /// Opens the archive (replacing an earlier `traces.otf2` there); throws std::runtime_error
  /// "DIR: error: …" when it cannot.
  Otf2Timeline(const std::string& dir, std::uint32_t lp_count, std::vector<std::vector<std::int32_t>> comms,
               std::vector<double> flops_per_second);
  ~Otf2Timeline() override;
  Otf2Timeline(const Otf2Timeline&) = delete;
  Otf2Timeline& operator=(const Otf2Timeline&) = delete;

  void on_event(const engine::Event& e) override;
  /// Writes the definitions and closes the archive.
  void on_finish(engine::SimTime end) override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace augur::models::report
