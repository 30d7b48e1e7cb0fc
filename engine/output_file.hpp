// Output files written whole or not at all: each is written to a temporary file beside it and
// renamed over it at the end, and SIGINT or SIGTERM removes the temporaries not yet renamed.
#pragma once
#include <fstream>
#include <string>

namespace augur::engine {

/// The temporary beside an output `path`: created by the owner under `name()`, renamed onto
/// `path` by `commit`, removed by the destructor when not committed, and removed by the signal
/// handler of `remove_temporaries_on_signal` should the process be interrupted. A path that is
/// not a regular file's (/dev/null, /dev/full, a FIFO) is written directly: `name() == path`.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string path);
  /// A scratch file of the given name, never committed (the destructor removes it).
  static TemporaryFile scratch(std::string name);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  TemporaryFile(TemporaryFile&& other) noexcept;
  TemporaryFile& operator=(TemporaryFile&&) = delete;

  const std::string& name() const { return name_; }
  const std::string& path() const { return path_; }
  /// Renames the temporary onto the path; throws std::runtime_error "path: error: …" when it cannot.
  void commit();
  /// Removes the temporary (nothing when already committed).
  void discard();

 private:
  std::string path_;
  std::string name_;
  int slot_ = -1;  ///< the signal handler's slot holding `name_`, -1 = none
  bool open_ = true;
  bool direct_ = false;  ///< `name_` is `path_` itself (not a regular file): never removed or renamed

  TemporaryFile(std::string path, std::string name);
};

/// A text or binary output file through a std::ofstream on a TemporaryFile. `what` names the
/// output in errors ("JSON report"). Every error is "path: error: cannot write the WHAT: reason".
class OutputFile {
 public:
  OutputFile(const std::string& path, std::string what);
  std::ostream& stream() { return file_; }
  /// Flushes, checks that every write succeeded, renames onto the path.
  void commit();

 private:
  TemporaryFile temporary_;
  std::string what_;
  std::ofstream file_;
};

/// Writes `text` to `path` through an OutputFile.
void write_output(const std::string& path, const std::string& text, const std::string& what);

/// Installs SIGINT and SIGTERM handlers that remove every temporary not yet committed, then end
/// the process as the signal would have (the executable's main calls it once).
void remove_temporaries_on_signal();

}  // namespace augur::engine
