// yaml-cpp 0.7 behind positioned ConfigErrors: 0-based marks made 1-based, the file name added,
// duplicate and unknown keys rejected where they stand (design section 3).
#include "scenarios/yaml_util.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "machines/param.hpp"
#include "support/edit_distance.hpp"

namespace augur::scenarios::detail {
namespace {

int one_based(int coordinate) { return coordinate < 0 ? 0 : coordinate + 1; }

thread_local int precise_positions = 0;

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool key_char(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.'; }
/// Characters of a plain scalar the fast path accepts (a subset of YAML's: no indicator that
/// could start an alias, anchor, tag, flow collection or quote, no '#').
bool plain_char(char c) {
  return is_alpha(c) || is_digit(c) || c == ' ' || c == '_' || c == '.' || c == '/' || c == '+' || c == '-' ||
         c == ':' || c == '=' || c == '~' || c == ',' || c == '(' || c == ')';
}
/// yaml-cpp reads these plain scalars as null, not as text.
bool null_word(std::string_view word) { return word == "null" || word == "Null" || word == "NULL" || word == "~"; }

}  // namespace

PrecisePositions::PrecisePositions() { ++precise_positions; }
PrecisePositions::~PrecisePositions() { --precise_positions; }
bool PrecisePositions::active() { return precise_positions > 0; }

std::optional<std::vector<FlatEntry>> scan_flat_map(std::string_view text) {
  for (const char c : text) {
    if (c != '\n' && (c < ' ' || c > '~')) return std::nullopt;  // tabs, CR, UTF-8, control characters
  }
  std::vector<FlatEntry> entries;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    std::size_t i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i == line.size() || line[i] == '#') continue;                           // blank or comment
    if (i != 0 || !(is_alpha(line[0]) || line[0] == '_')) return std::nullopt;  // nesting, "---", "- x", …
    std::size_t k = 1;
    while (k < line.size() && key_char(line[k])) ++k;
    if (k + 1 >= line.size() || line[k] != ':' || line[k + 1] != ' ') return std::nullopt;
    const std::string_view key = line.substr(0, k);
    if (null_word(key)) return std::nullopt;
    std::size_t v = k + 1;
    while (v < line.size() && line[v] == ' ') ++v;
    if (v == line.size() || line[v] == '#') return std::nullopt;  // no value: a null node
    std::string_view value;
    if (line[v] == '"') {
      std::size_t close = v + 1;
      while (close < line.size() && line[close] != '"' && line[close] != '\\') ++close;
      if (close == line.size() || line[close] != '"') return std::nullopt;  // escapes, several lines
      value = line.substr(v + 1, close - v - 1);
      std::size_t rest = close + 1;
      while (rest < line.size() && line[rest] == ' ') ++rest;
      if (rest != line.size() && !(line[rest] == '#' && rest > close + 1)) return std::nullopt;
    } else {
      const char first = line[v];
      const bool starts_plain = is_alpha(first) || is_digit(first) || first == '_' || first == '.' || first == '/' ||
                                first == '+' ||
                                (first == '-' && v + 1 < line.size() && (is_digit(line[v + 1]) || line[v + 1] == '.'));
      if (!starts_plain) return std::nullopt;
      std::size_t end = v;
      std::size_t last = v;  // one past the last non-blank
      while (end < line.size()) {
        const char c = line[end];
        if (c == ' ' && end + 1 < line.size() && line[end + 1] == '#') break;                   // a comment
        if (c == ':' && (end + 1 == line.size() || line[end + 1] == ' ')) return std::nullopt;  // a nested key
        if (!plain_char(c)) return std::nullopt;
        ++end;
        if (c != ' ') last = end;
      }
      value = line.substr(v, last - v);
      if (null_word(value)) return std::nullopt;
    }
    for (const FlatEntry& seen : entries)
      if (seen.key == key) return std::nullopt;  // yaml-cpp keeps both; MapReader reports it, positioned
    entries.push_back(FlatEntry{key, value});
  }
  if (entries.empty()) return std::nullopt;
  return entries;
}

std::optional<YAML::Node> parse_flat_map(std::string_view text) {
  const std::optional<std::vector<FlatEntry>> entries = scan_flat_map(text);
  if (!entries) return std::nullopt;
  YAML::Node root(YAML::NodeType::Map);
  for (const FlatEntry& entry : *entries) root.force_insert(std::string(entry.key), std::string(entry.value));
  return root;
}

ConfigError yaml_error(const std::string& file, const YAML::Exception& error, const std::string& hint) {
  const YAML::Mark& mark = error.mark;
  if (mark.is_null()) return ConfigError(file, 0, 0, error.msg + hint);
  return ConfigError(file, one_based(mark.line), one_based(mark.column), error.msg + hint);
}

Document parse_text(const std::string& text, const std::string& file) {
  if (precise_positions == 0) {
    if (std::optional<YAML::Node> flat = parse_flat_map(text)) return Document{file, std::move(*flat)};
  }
  try {
    return Document{file, YAML::Load(text)};
  } catch (const YAML::Exception& error) {
    // yaml-cpp's words name its grammar; the hint says what usually causes them.
    throw yaml_error(file, error,
                     " (YAML syntax: check the indentation and the ': ' after each key; quote a value that "
                     "contains ': ', ' #', '{' or '[', or starts with '*', '&', '!', '%' or '@')");
  }
}

std::string read_config_file(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw ConfigError(path, 0, 0, std::string("cannot open: ") + std::strerror(EISDIR));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError(path, 0, 0, std::string("cannot read: ") + std::strerror(errno));
  return std::move(text).str();
}

Document parse_file(const std::string& path) { return parse_text(read_config_file(path), path); }

void fail_at(const std::string& file, const YAML::Node& node, const std::string& message) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) throw ConfigError(file, 0, 0, message);
  throw ConfigError(file, one_based(mark.line), one_based(mark.column), message);
}

std::string describe_type(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "a scalar";
    default:
      return "nothing";
  }
}

std::string unknown_message(std::string_view word, const std::vector<std::string>& candidates, std::string_view noun) {
  std::string message = "unknown " + std::string(noun) + " '" + std::string(word) + "'";
  const std::string hint = support::did_you_mean(word, candidates);
  if (!hint.empty()) return message + hint;
  return message + "; valid " + std::string(noun) + "s are: " + support::join(candidates);
}

MapReader::MapReader(std::string file, const YAML::Node& node, std::string_view what, const YAML::Node& owner)
    : file_(std::move(file)), node_(node) {
  if (!node.IsMap()) {
    const std::string message = "expected a map for " + std::string(what) + ", found " + describe_type(node);
    fail_at(file_, node.IsNull() && owner.IsDefined() ? owner : node, message);
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar())
      fail_at(file_, key, "expected a plain key in " + std::string(what) + ", found " + describe_type(key));
    for (const Entry& earlier : entries_)
      if (earlier.key == key.Scalar())
        fail_at(file_, key,
                "duplicate key '" + earlier.key + "' (first given at line " +
                    std::to_string(one_based(earlier.key_node.Mark().line)) + ")");
    entries_.push_back(Entry{key.Scalar(), key, it->second});
  }
}

void MapReader::allow_only(const std::vector<std::string>& keys) const {
  for (const Entry& entry : entries_)
    if (std::find(keys.begin(), keys.end(), entry.key) == keys.end())
      fail_at(file_, entry.key_node, unknown_message(entry.key, keys));
}

const Entry* MapReader::find(std::string_view key) const {
  for (const Entry& entry : entries_)
    if (entry.key == key) return &entry;
  return nullptr;
}

const Entry& MapReader::require(std::string_view key) const {
  if (const Entry* entry = find(key)) return *entry;
  fail_at(file_, node_, "missing required key '" + std::string(key) + "'");
}

std::string scalar_value(const std::string& file, const Entry& entry) {
  if (entry.value.IsNull()) fail_at(file, entry.key_node, "no value given for '" + entry.key + "'");
  if (!entry.value.IsScalar())
    fail_at(file, entry.value, "expected a single value for '" + entry.key + "', found " + describe_type(entry.value));
  return entry.value.Scalar();
}

bool parse_positive_int(std::string_view text, int& value) {
  if (text.empty() || text.size() > 9) return false;
  int parsed = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    parsed = parsed * 10 + (c - '0');
  }
  if (parsed <= 0) return false;
  value = parsed;
  return true;
}

int positive_int(const std::string& file, const YAML::Node& node, std::string_view what) {
  if (!node.IsScalar())
    fail_at(file, node, "expected a positive integer " + std::string(what) + ", found " + describe_type(node));
  int value = 0;
  if (!parse_positive_int(node.Scalar(), value))
    fail_at(file, node, "invalid " + std::string(what) + " '" + node.Scalar() + "': expected a positive integer");
  return value;
}

std::string flow_text(const std::string& file, const YAML::Node& sequence, std::string_view what) {
  std::vector<std::string> items;
  for (const YAML::Node& item : sequence) {
    if (!item.IsScalar())
      fail_at(file, item,
              "expected a single value in the list of '" + std::string(what) + "', found " + describe_type(item));
    items.push_back(item.Scalar());
  }
  return "[" + support::join(items) + "]";
}

}  // namespace augur::scenarios::detail
