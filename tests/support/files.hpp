// File helpers shared by the test suites: a temporary folder removed at the end of a test,
// writing a file, reading one whole, and a named scratch folder kept for inspection.
#pragma once
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace augur::test {

/// A fresh folder under the system's temporary directory, removed at the end of the test. The
/// name holds the process id and a counter, so that concurrent tests never share one.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static std::atomic<unsigned> counter{0};
    path = std::filesystem::temp_directory_path() /
           ("augur_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path / name).string(); }
};

/// An emptied folder `prefix` + `name` under the build tree's `tests/scratch` (AUGUR_SCRATCH_DIR),
/// kept after the test so that its outputs can be inspected. Under the build tree, not the
/// system's temporary directory: two builds testing at once (a Release and a sanitizer build, two
/// checkouts) never share one; within one build every test case names its own.
inline std::filesystem::path scratch_dir(const std::string& prefix, const std::string& name) {
#ifdef AUGUR_SCRATCH_DIR
  const std::filesystem::path root = AUGUR_SCRATCH_DIR;
#else
  const std::filesystem::path root = std::filesystem::temp_directory_path();
#endif
  const std::filesystem::path d = root / (prefix + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

/// Writes `text` to `path` byte for byte.
inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// The whole content of `path` ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace augur::test
