// Transfer matrices T[p][q] (bytes p sends to q, spec section 6.2; priced by the machines of 6.3):
// Update(old, new) for realn_/redis_, shadow exchanges with corners, and the remote-access
// matrices of arrcpy_/aarrcp_ and remote buffers (the original's CopyUpdate, CopyUpdateDistr).
#pragma once
#include <span>
#include <vector>

#include "models/dvm/block.hpp"
#include "models/dvm/distributed_array.hpp"
#include "models/dvm/processor_system.hpp"

namespace augur::models::dvm {

/// Bytes between every ordered pair of processors of a processor system; T[p][p] stays 0.
class TransferMatrix {
 public:
  TransferMatrix() = default;
  explicit TransferMatrix(int processors);

  int size() const { return n_; }
  Index at(int from, int to) const { return bytes_[index(from, to)]; }
  /// T[from][to] += bytes (a transfer to oneself is dropped).
  void add(int from, int to, Index bytes);
  /// Σ_{p,q} T[p][q].
  Index total() const;
  /// No byte anywhere.
  bool empty() const { return total() == 0; }
  TransferMatrix& operator+=(const TransferMatrix& other);
  /// The same transfers numbered by the root system's processors (size = root processor count).
  TransferMatrix to_root(const ProcessorSystem& system) const;
  /// T'[q][p] = T[p][q] (Predictor 2.53's remote-buffer matrices, receiver by holder).
  TransferMatrix transposed() const;
  bool operator==(const TransferMatrix&) const = default;

 private:
  std::size_t index(int from, int to) const {
    return static_cast<std::size_t>(from) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(to);
  }

  int n_ = 0;
  std::vector<Index> bytes_;
};

/// Who sends an element held by several processors.
enum class Sources {
  nearest,  ///< only the holder nearest to the receiver (Manhattan distance, then lowest number)
  every,    ///< every other holder (the original's formula Σ_{p≠q} |holder_p ∩ need_q|)
};

/// Each processor q receives `needs[q]` minus what `holders[q]` already has: T[p][q] +=
/// |part taken from p|·type_size. nearest: every missing element comes from its nearest holder;
/// every: T[p][q] = Σ_{p≠q} |holders[p] ∩ needs[q]|·type_size. Elements nobody holds are not sent.
/// One block per processor of `system` in both spans.
TransferMatrix gather_matrix(const ProcessorSystem& system, std::span<const Block> holders,
                             std::span<const Block> needs, Index type_size, Sources sources);

/// Update(old, new) of spec 6.2: 0 when every processor's old and new blocks coincide, else
/// gather_matrix(old, new).
TransferMatrix update_matrix(const ProcessorSystem& system, std::span<const Block> old_blocks,
                             std::span<const Block> new_blocks, Index type_size, Sources sources = Sources::nearest);
/// realn_ / redis_ of an array: Update of its old and new local blocks (element size of the old
/// array). Arrays on different processor systems are compared in the root system's numbering
/// (the result then has the root's size). predictor: Sources::every unless the old array is
/// replicated along some grid dimension (then nearest, which is what the original's special
/// cases for replicated arrays compute).
TransferMatrix update_matrix(const DistributedArray& old_array, const DistributedArray& new_array, Fidelity fidelity);

/// Blocks of `system`'s processors re-indexed by root processor (empty blocks elsewhere).
std::vector<Block> lift_blocks(const ProcessorSystem& system, std::span<const Block> blocks);

/// An array dimension split along a grid dimension (see DistributedArray::mapped_axis).
struct ShadowDim {
  int array_dim = 0;
  int grid_dim = 0;
  int direction = 1;  ///< +1: higher array indices lie at higher grid coordinates
};

/// Shadow widths per array dimension (inssh_ / insshd_). −1 = the width declared by crtda_ (only
/// in the DistributedArray overload). corners = FullShdSign.
struct ShadowWidths {
  std::vector<Index> low;
  std::vector<Index> high;
  bool corners = false;
};

/// The exchange of shadow edges (spec 6.2 AddBound). For every processor p with a non-empty
/// block b and every split dimension d (array dimension a):
///   b has lower neighbours (b.lo_a > 0) and high_a > 0: T[p][lower] += face_a(b)·high_a·type_size
///   b has upper neighbours (b.hi_a < n_a − 1) and low_a > 0: T[p][upper] +=
///   face_a(b)·low_a·type_size
/// with face_a(b) = Π_{e≠a} extent_e(b). With corners and ≥ 2 split dimensions, every set S of
/// ≥ 2 of them and every choice of sides adds the diagonal neighbour
///   T[p][diagonal] += Π_{a∈S} width_a(side)·Π_{e∉S} extent_e(b)·type_size.
/// augur: the neighbour is the processor along the grid dimension that owns index lo − 1 (hi + 1).
/// predictor: the adjacent grid coordinate, and corners only for array dimensions 0 and 1.
TransferMatrix shadow_matrix(const ProcessorSystem& system, std::span<const Block> blocks,
                             std::span<const Index> array_sizes, std::span<const ShadowDim> dims,
                             const ShadowWidths& widths, Index type_size, Fidelity fidelity);
/// The same for an aligned array: its blocks, split dimensions and element size; −1 widths (or
/// empty width lists) take the declared widths.
TransferMatrix shadow_matrix(const DistributedArray& array, const ShadowWidths& widths, Fidelity fidelity);

/// One side of arrcpy_ / aarrcp_: {From|To}{Init,Last,Step}Array.
struct CopySide {
  std::vector<Index> init;
  std::vector<Index> last;
  std::vector<Index> step;
};

/// The side as the original reads it: Init = −1 means the whole dimension with step 1, a Last
/// beyond the array is clamped, a step 0 counts as 1. Throws std::invalid_argument for lengths
/// other than the rank or a first index outside the array.
CopySide normalise_copy_side(std::span<const Index> sizes, const CopySide& side);
/// The indices a (normalised) side names: init, init + step, … up to last in each dimension.
Block copy_region(const CopySide& side);
/// The part of the From region read for `written` ⊆ the To region: the k-th index written in a
/// dimension reads the k-th index read (same rank on both sides; throws std::invalid_argument
/// otherwise).
Block copy_read_block(const Block& written, const CopySide& to, const CopySide& from);

/// arrcpy_ into a replicated array or buffer (the original's "distributed → replicated"): every
/// processor of the array's system needs the read region. augur: it receives what it does not
/// own, from the nearest owner (CopyUpdate). predictor: every processor receives the region's
/// first index from every other owner (what ArrayCopy(From, …, CopyRegim) passes to
/// CopyUpdateDistr). A fully replicated source costs nothing.
TransferMatrix copy_to_replicated_matrix(const DistributedArray& from, const CopySide& from_side, Fidelity fidelity);
/// CopyUpdateDistr: processor q needs `read_regions[q]` of the source (blocks per processor).
TransferMatrix copy_distributed_matrix(const ProcessorSystem& system, std::span<const Block> from_blocks,
                                       std::span<const Block> read_regions, Index type_size, Sources sources);
/// arrcpy_ between distributed arrays: the processors owning part of the To region read the
/// matching part of the From region (copy_read_block). augur: from the nearest owner;
/// predictor: from every other owner. A fully replicated source costs nothing.
TransferMatrix copy_distributed_matrix(const DistributedArray& from, const CopySide& from_side,
                                       const DistributedArray& to, const CopySide& to_side, Fidelity fidelity);

/// crtrbl_: the part of the remote array a processor's loop block reads. params has one entry
/// per array axis: −1 = the whole axis, 0 or coeff 0 = index constant, else loop axis
/// (1-based) mapped by coeff·I + constant (clipped to the array).
Block remote_buffer_region(std::span<const Index> array_sizes, const AlignParams& params, const Block& loop_block);

}  // namespace augur::models::dvm
