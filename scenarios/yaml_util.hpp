// Private to scenarios/: yaml-cpp 0.7 wrapped so that every error is a ConfigError with the file
// and a 1-based position (design section 3: yaml-cpp's marks are 0-based, its exceptions never
// name the file, and a missing key has no position at all).
#pragma once
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/config_error.hpp"
#include "support/strings.hpp"

namespace augur::scenarios::detail {

/// A parsed YAML document and the file name its errors carry.
struct Document {
  std::string file;
  YAML::Node root;
};

/// The text of `path`. Throws ConfigError(path, 0, 0, "cannot open: …") when the file cannot be
/// read (a folder, a missing file) and "cannot read: …" when reading fails.
std::string read_config_file(const std::string& path);
/// Reads and parses `path`. Throws ConfigError(path, 0, 0, "cannot open: …") when the file cannot
/// be read, and ConfigError with yaml-cpp's position (made 1-based) for a syntax error.
Document parse_file(const std::string& path);
/// Parses `text`; `file` names it in errors. A flat map of `key: value` lines (printable ASCII,
/// plain or double-quoted one-line scalars, comments, no repeated key: the command line's
/// scenario, most machine files) is read by parse_flat_map into the same nodes but without
/// positions; anything else, and everything while a PrecisePositions is alive, by yaml-cpp.
/// Kept for a measured reason: yaml-cpp alone costs a small run 1.76 -> 3.03 M instructions.
Document parse_text(const std::string& text, const std::string& file);

/// One `key: value` line of a flat map: the key and the scalar's text (quotes removed), views
/// into the text scanned.
struct FlatEntry {
  std::string_view key;
  std::string_view value;
};
/// The entries of `text` in order when every line is blank, a comment or `key: value` at column 0
/// as parse_text describes (no key repeated, no null value) — else nothing.
std::optional<std::vector<FlatEntry>> scan_flat_map(std::string_view text);
/// The flat map of `text` (scan_flat_map) as the nodes yaml-cpp would build, without marks.
std::optional<YAML::Node> parse_flat_map(std::string_view text);

/// While one is alive on this thread, parse_text reads every document with yaml-cpp.
class PrecisePositions {
 public:
  PrecisePositions();
  ~PrecisePositions();
  PrecisePositions(const PrecisePositions&) = delete;
  PrecisePositions& operator=(const PrecisePositions&) = delete;
  static bool active();
};

/// Runs `load` (which parses documents and reads them); if it throws a ConfigError, runs it again
/// with yaml-cpp's positions (PrecisePositions), so that the error names its line and column:
/// the fast path's nodes have none. Loading has no side effects, so the second run throws the
/// same error, positioned.
template <class Load>
auto with_positions(Load&& load) -> decltype(load()) {
  if (PrecisePositions::active()) return load();
  try {
    return load();
  } catch (const ConfigError&) {
  }
  const PrecisePositions precise;
  return load();
}

/// A yaml-cpp exception as a ConfigError in `file` at its mark (made 1-based).
ConfigError yaml_error(const std::string& file, const YAML::Exception& error, const std::string& hint = "");

/// Throws ConfigError at `node`'s position (1-based; 0:0 when yaml-cpp has no mark for it).
[[noreturn]] void fail_at(const std::string& file, const YAML::Node& node, const std::string& message);

/// "a map", "a list", "a scalar" or "nothing", for "expected …, found …" messages.
std::string describe_type(const YAML::Node& node);

/// "unknown key 'x'; did you mean 'y'?" — or, with no close candidate, "unknown key 'x'; valid
/// keys are: a, b". `noun` replaces "key" ("collective kind").
std::string unknown_message(std::string_view word, const std::vector<std::string>& candidates,
                            std::string_view noun = "key");

/// One `key: value` entry of a map.
struct Entry {
  std::string key;      ///< the key's scalar text
  YAML::Node key_node;  ///< for errors about the key itself (unknown, duplicate, no value)
  YAML::Node value;
};

/// The entries of one YAML map, checked once: the node is a map, every key is a scalar and no key
/// repeats (yaml-cpp 0.7 silently keeps both). Keeps the file for positioned errors.
class MapReader {
 public:
  /// `what` names the map in messages ("'model'", "the scenario"). A null node (`model:` with
  /// nothing after it) is reported at `owner` (its key), since yaml-cpp gives it no useful mark.
  MapReader(std::string file, const YAML::Node& node, std::string_view what, const YAML::Node& owner = YAML::Node());

  /// Rejects every key not in `keys`, at the key's own position, with a "did you mean".
  void allow_only(const std::vector<std::string>& keys) const;
  /// The entries in file order.
  const std::vector<Entry>& entries() const { return entries_; }
  /// The entry of `key`, or nullptr.
  const Entry* find(std::string_view key) const;
  /// The entry of `key`; a missing key is reported at the map's own position.
  const Entry& require(std::string_view key) const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  YAML::Node node_;
  std::vector<Entry> entries_;
};

/// The value of `entry` as text; it must be a scalar (a missing value is reported at the key).
std::string scalar_value(const std::string& file, const Entry& entry);
/// Parses decimal digits as a positive int (at most 9 digits); false otherwise.
bool parse_positive_int(std::string_view text, int& value);
/// `node` as a positive integer (what: "processor count"), or a positioned error.
int positive_int(const std::string& file, const YAML::Node& node, std::string_view what);
/// A list value written in YAML (`[1, 1]`) back as the text the parameter parsers read.
std::string flow_text(const std::string& file, const YAML::Node& sequence, std::string_view what);

}  // namespace augur::scenarios::detail
