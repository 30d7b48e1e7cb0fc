// Processor systems: row-major numbering, distances and sub-systems (spec section 6.1).
#include "models/dvm/processor_system.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

namespace augur::models::dvm {

namespace {

std::vector<int> strides_of(const std::vector<int>& sizes) {
  std::vector<int> strides(sizes.size(), 1);
  for (std::size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * sizes[d];
  return strides;
}

int product(const std::vector<int>& sizes) {
  int count = 1;
  for (int s : sizes) count *= s;
  return count;
}

void check_sizes(const std::vector<int>& sizes, const char* what) {
  if (sizes.empty()) throw std::invalid_argument(std::string(what) + ": a processor grid needs rank >= 1");
  for (int s : sizes)
    if (s < 1)
      throw std::invalid_argument(std::string(what) + ": grid size " + std::to_string(s) +
                                  " (every size must be >= 1)");
}

std::vector<int> identity(int count) {
  std::vector<int> root(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) root[static_cast<std::size_t>(k)] = k;
  return root;
}

}  // namespace

ProcessorSystem::ProcessorSystem(std::vector<int> sizes) : sizes_(std::move(sizes)) {
  check_sizes(sizes_, "processor system");
  strides_ = strides_of(sizes_);
  root_ = identity(product(sizes_));
  root_sizes_ = sizes_;
}

ProcessorSystem::ProcessorSystem(std::vector<int> sizes, std::vector<int> root, std::vector<int> root_sizes)
    : sizes_(std::move(sizes)),
      strides_(strides_of(sizes_)),
      root_(std::move(root)),
      root_sizes_(std::move(root_sizes)) {}

ProcessorSystem ProcessorSystem::subsystem(const ProcessorSystem& parent, std::span<const int> init,
                                           std::span<const int> last) {
  if (init.size() != last.size() || static_cast<int>(init.size()) != parent.rank())
    throw std::invalid_argument("crtps_: " + std::to_string(init.size()) + " initial and " +
                                std::to_string(last.size()) + " last indices for a parent of rank " +
                                std::to_string(parent.rank()));
  std::vector<int> sizes(init.size());
  for (std::size_t d = 0; d < init.size(); ++d) {
    if (init[d] < 0 || last[d] < init[d] || last[d] >= parent.sizes_[d])
      throw std::invalid_argument("crtps_: dimension " + std::to_string(d) + " range [" + std::to_string(init[d]) +
                                  ", " + std::to_string(last[d]) + "] is not inside [0, " +
                                  std::to_string(parent.sizes_[d] - 1) + "]");
    sizes[d] = last[d] - init[d] + 1;
  }
  const int count = product(sizes);
  const std::vector<int> strides = strides_of(sizes);
  std::vector<int> root(static_cast<std::size_t>(count));
  std::vector<int> coords(sizes.size());
  for (int k = 0; k < count; ++k) {
    // child coordinate c ↦ parent coordinate c + init
    int rest = k;
    for (std::size_t d = 0; d < sizes.size(); ++d) {
      coords[d] = rest / strides[d] + init[d];
      rest %= strides[d];
    }
    root[static_cast<std::size_t>(k)] = parent.root_processor(parent.processor(coords));
  }
  return ProcessorSystem(std::move(sizes), std::move(root), parent.root_sizes_);
}

ProcessorSystem ProcessorSystem::view(const ProcessorSystem& parent, std::vector<int> sizes) {
  check_sizes(sizes, "psview_");
  const int count = product(sizes);
  if (count > parent.processor_count())
    throw std::invalid_argument("psview_: a view of " + std::to_string(count) + " processors of a system of " +
                                std::to_string(parent.processor_count()));
  std::vector<int> root(parent.root_.begin(), parent.root_.begin() + count);
  return ProcessorSystem(std::move(sizes), std::move(root), parent.root_sizes_);
}

ProcessorSystem ProcessorSystem::root() const { return ProcessorSystem(root_sizes_); }

std::vector<int> ProcessorSystem::coordinates(int processor) const {
  std::vector<int> coords(sizes_.size());
  for (std::size_t d = 0; d < sizes_.size(); ++d) {
    coords[d] = processor / strides_[d];
    processor %= strides_[d];
  }
  return coords;
}

int ProcessorSystem::coordinate(int processor, int dim) const {
  const auto d = static_cast<std::size_t>(dim);
  return processor / strides_[d] % sizes_[d];
}

int ProcessorSystem::processor(std::span<const int> coordinates) const {
  int index = 0;
  for (std::size_t d = 0; d < sizes_.size(); ++d) index += coordinates[d] * strides_[d];
  return index;
}

std::optional<int> ProcessorSystem::neighbour(int processor, int dim, int shift) const {
  const int moved = coordinate(processor, dim) + shift;
  if (moved < 0 || moved >= size(dim)) return std::nullopt;
  return processor + shift * strides_[static_cast<std::size_t>(dim)];
}

int ProcessorSystem::distance(int a, int b) const {
  int sum = 0;
  for (int d = 0; d < rank(); ++d) sum += std::abs(coordinate(a, d) - coordinate(b, d));
  return sum;
}

int ProcessorSystem::centre() const {
  int index = 0;
  for (std::size_t d = 0; d < sizes_.size(); ++d) index += sizes_[d] / 2 * strides_[d];
  return index;
}

}  // namespace augur::models::dvm
