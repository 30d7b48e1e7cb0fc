// Output files through temporaries (output_file.hpp): the temporaries' names live in a fixed
// table of atomic pointers so that the signal handler can read them without locks.
#include "engine/output_file.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <sys/stat.h>
#include <unistd.h>

namespace augur::engine {
namespace {

// Up to this many temporaries are removed on a signal; further ones (hundreds of variants writing
// timelines at once) are still removed by their owners, only not on an interrupt.
constexpr std::size_t slots = 256;
std::array<std::atomic<char*>, slots> temporaries{};

int register_name(const std::string& name) {
  char* copy = strdup(name.c_str());
  if (copy == nullptr) return -1;
  for (std::size_t i = 0; i < slots; ++i) {
    char* expected = nullptr;
    if (temporaries[i].compare_exchange_strong(expected, copy)) return static_cast<int>(i);
  }
  std::free(copy);
  return -1;
}

void unregister_name(int slot) {
  if (slot < 0) return;
  std::free(temporaries[static_cast<std::size_t>(slot)].exchange(nullptr));
}

extern "C" void remove_and_reraise(int signal) {
  for (auto& slot : temporaries) {
    if (const char* name = slot.load(); name != nullptr) unlink(name);
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

/// A regular file (or none yet) at `path`: written through a temporary; anything else directly.
bool through_temporary(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode);
}

}  // namespace

TemporaryFile::TemporaryFile(std::string path) : path_(std::move(path)) {
  static std::atomic<unsigned> counter{0};
  if (!through_temporary(path_)) {
    name_ = path_;
    direct_ = true;
    return;
  }
  name_ = fmt::format("{}.augur-{}-{}.tmp", path_, getpid(), counter++);
  slot_ = register_name(name_);
}

TemporaryFile::TemporaryFile(std::string path, std::string name)
    : path_(std::move(path)), name_(std::move(name)), slot_(register_name(name_)) {}

TemporaryFile TemporaryFile::scratch(std::string name) { return TemporaryFile(std::string(), std::move(name)); }

TemporaryFile::TemporaryFile(TemporaryFile&& other) noexcept
    : path_(std::move(other.path_)),
      name_(std::move(other.name_)),
      slot_(std::exchange(other.slot_, -1)),
      open_(std::exchange(other.open_, false)),
      direct_(other.direct_) {}

TemporaryFile::~TemporaryFile() { discard(); }

void TemporaryFile::commit() {
  if (!open_) return;
  open_ = false;
  if (!direct_ && std::rename(name_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    std::remove(name_.c_str());
    unregister_name(slot_);
    throw std::runtime_error(fmt::format("{}: error: cannot write the file: {}", path_, std::strerror(error)));
  }
  unregister_name(slot_);
  slot_ = -1;
}

void TemporaryFile::discard() {
  if (!open_) return;
  open_ = false;
  if (!direct_) std::remove(name_.c_str());
  unregister_name(slot_);
  slot_ = -1;
}

OutputFile::OutputFile(const std::string& path, std::string what) : temporary_(path), what_(std::move(what)) {
  file_.open(temporary_.name(), std::ios::binary | std::ios::trunc);
  if (!file_) {
    throw std::runtime_error(fmt::format("{}: error: cannot write the {}: {}", path, what_, std::strerror(errno)));
  }
}

void OutputFile::commit() {
  errno = 0;
  file_.flush();
  int error = file_ ? 0 : (errno != 0 ? errno : EIO);
  errno = 0;
  file_.close();
  if (error == 0 && file_.fail()) error = errno != 0 ? errno : EIO;
  if (error != 0) {
    temporary_.discard();
    throw std::runtime_error(
        fmt::format("{}: error: cannot write the {}: {}", temporary_.path(), what_, std::strerror(error)));
  }
  temporary_.commit();
}

void write_output(const std::string& path, const std::string& text, const std::string& what) {
  OutputFile file(path, what);
  file.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
  file.commit();
}

void remove_temporaries_on_signal() {
  std::signal(SIGINT, remove_and_reraise);
  std::signal(SIGTERM, remove_and_reraise);
}

}  // namespace augur::engine
