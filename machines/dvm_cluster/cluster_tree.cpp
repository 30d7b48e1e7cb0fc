// The `clusters` notation of the dvm_cluster model: a small recursive-descent reader over one
// definition at a time, then the checks that make the tree usable (defined, acyclic, all used).
#include "machines/dvm_cluster/cluster_tree.hpp"

#include <array>
#include <charconv>
#include <map>

#include "machines/param.hpp"
#include "machines/units.hpp"
#include "support/edit_distance.hpp"

namespace augur::machines {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// A cursor over the text of one definition; every error quotes the definition.
class DefinitionReader {
 public:
  explicit DefinitionReader(std::string_view text) : text_(text) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw ParamError("in '" + std::string(text_) + "': " + what);
  }
  void skip_blanks() {
    while (at_ < text_.size() && is_blank(text_[at_])) ++at_;
  }
  bool done() {
    skip_blanks();
    return at_ >= text_.size();
  }
  char peek() {
    skip_blanks();
    return at_ < text_.size() ? text_[at_] : '\0';
  }
  void expect(char c, const std::string& where) {
    if (peek() != c) fail("expected '" + std::string(1, c) + "' " + where);
    ++at_;
  }
  std::string name(const std::string& what) {
    skip_blanks();
    if (at_ >= text_.size() || !is_name_start(text_[at_])) fail("expected " + what);
    const std::size_t first = at_;
    while (at_ < text_.size() && is_name_char(text_[at_])) ++at_;
    return std::string(text_.substr(first, at_ - first));
  }
  std::int64_t integer(const std::string& what) {
    skip_blanks();
    const std::size_t first = at_;
    while (at_ < text_.size() && is_digit(text_[at_])) ++at_;
    const std::string_view digits = text_.substr(first, at_ - first);
    if (digits.empty() || digits.size() > 9) fail("expected " + what);
    return std::stoll(std::string(digits));
  }
  /// The next word: everything up to a blank (or the end).
  std::string_view word() {
    skip_blanks();
    const std::size_t first = at_;
    while (at_ < text_.size() && !is_blank(text_[at_])) ++at_;
    return text_.substr(first, at_ - first);
  }
  /// Consumes `keyword` when the text continues with it (followed by a non-name character).
  bool accept(std::string_view keyword) {
    skip_blanks();
    if (text_.substr(at_, keyword.size()) != keyword) return false;
    const std::size_t after = at_ + keyword.size();
    if (after < text_.size() && is_name_char(text_[after])) return false;
    at_ = after;
    return true;
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

/// A time with its unit ("7us"); `what` names it in the error.
engine::SimTime read_time(DefinitionReader& reader, const std::string& what) {
  const std::string_view text = reader.word();
  if (text.empty()) reader.fail("expected " + what + " (a time such as 7us)");
  try {
    return parse_quantity(text, UnitKind::time);
  } catch (const UnitError& error) {
    reader.fail(what + ": " + error.what());
  }
}

ClusterDefinition read_definition(std::string_view text) {
  DefinitionReader reader(text);
  ClusterDefinition definition;
  definition.name = reader.name("a cluster name at the start of the definition");
  reader.expect('=', "after the name '" + definition.name + "'");
  if (reader.peek() != '{') {
    // NAME = POWER: a processor.
    const std::string_view power = reader.word();
    try {
      definition.power = parse_quantity(power, UnitKind::real);
    } catch (const UnitError&) {
      reader.fail("expected '{' (sub-clusters) or a number (the power of a processor), not '" + std::string(power) +
                  "'");
    }
    if (!(definition.power > 0)) reader.fail("the power of processor '" + definition.name + "' must be positive");
    if (!reader.done()) reader.fail("unexpected '" + std::string(reader.word()) + "' after the power");
    return definition;
  }
  // NAME = {K x SUB, SUB, ...} COMM START BYTE
  reader.expect('{', "");
  while (true) {
    ClusterDefinition::Part part;
    if (is_digit(reader.peek())) {
      part.count = reader.integer("a count (at most 9 digits)");
      if (part.count < 1) reader.fail("a count of sub-clusters must be at least 1");
      reader.expect('x', "between a count and a sub-cluster name ('2 x node')");
    }
    part.name = reader.name("a sub-cluster name");
    definition.parts.push_back(std::move(part));
    if (reader.peek() == '}') break;
    reader.expect(',', "or '}' after a sub-cluster");
  }
  reader.expect('}', "");
  if (reader.accept("ethernet") || reader.accept("network")) {
    definition.comm = "ethernet";
  } else if (reader.accept("transputer")) {
    definition.comm = "transputer";
  } else if (reader.accept("myrinet")) {
    definition.comm = "myrinet";
    reader.expect('(', "after myrinet (myrinet(n): n channels)");
    const std::int64_t channels = reader.integer("the number of channels of myrinet(n)");
    if (channels < 1) reader.fail("myrinet(n) needs at least 1 channel");
    definition.channels = static_cast<int>(channels);
    reader.expect(')', "after the number of channels");
  } else {
    reader.fail("expected the network after '}': ethernet, transputer or myrinet(n)");
  }
  definition.start_time = read_time(reader, "the start time TStart");
  definition.byte_time = read_time(reader, "the time per byte TByte");
  if (!reader.done()) reader.fail("unexpected '" + std::string(reader.word()) + "' after TByte");
  return definition;
}

/// Splits at ';' and new lines; drops blank pieces.
std::vector<std::string_view> split_definitions(std::string_view text) {
  std::vector<std::string_view> pieces;
  std::size_t first = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ';' && text[i] != '\n') continue;
    std::string_view piece = text.substr(first, i - first);
    while (!piece.empty() && (is_blank(piece.front()))) piece.remove_prefix(1);
    while (!piece.empty() && (is_blank(piece.back()))) piece.remove_suffix(1);
    if (!piece.empty()) pieces.push_back(piece);
    first = i + 1;
  }
  return pieces;
}

/// A time in microseconds, as the Predictor's files write it ("0.004us"): the shortest text that
/// parses back to exactly `seconds`; format_quantity's choice when none does.
std::string format_microseconds(engine::SimTime seconds) {
  std::array<char, 64> buffer{};
  for (int precision = 1; precision <= 17; ++precision) {
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), seconds * 1e6,
                                      std::chars_format::general, precision);
    const std::string text = std::string(buffer.data(), result.ptr) + "us";
    try {
      if (parse_quantity(text, UnitKind::time) == seconds) return text;
    } catch (const UnitError&) {
      break;
    }
  }
  return format_quantity(seconds, UnitKind::time);
}

}  // namespace

std::vector<ClusterDefinition> parse_cluster_tree(std::string_view text) {
  std::vector<ClusterDefinition> definitions;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const std::string_view piece : split_definitions(text)) {
    ClusterDefinition definition = read_definition(piece);
    if (!index.emplace(definition.name, definitions.size()).second)
      throw ParamError("cluster '" + definition.name + "' is defined twice");
    definitions.push_back(std::move(definition));
  }
  if (definitions.empty())
    throw ParamError("no cluster defined: expected e.g. 'net = {4 x cpu} ethernet 75us 0.2us; cpu = 1'");
  for (const auto& definition : definitions)
    for (const auto& part : definition.parts)
      if (!index.contains(part.name)) {
        std::vector<std::string> names;
        for (const auto& [name, ignored] : index)
          if (name != definition.name) names.push_back(name);
        throw ParamError("cluster '" + definition.name + "' contains '" + part.name + "', which is not defined" +
                         support::did_you_mean(part.name, names));
      }
  // Depth-first from the root (the first definition): a definition met again on the current path
  // is a cycle; one never met is unused.
  enum class Mark { unseen, on_path, done };
  std::vector<Mark> marks(definitions.size(), Mark::unseen);
  const auto visit = [&](const auto& self, std::size_t at) -> void {
    marks[at] = Mark::on_path;
    for (const auto& part : definitions[at].parts) {
      const std::size_t sub = index.find(part.name)->second;
      if (marks[sub] == Mark::on_path)
        throw ParamError("cluster '" + part.name + "' contains itself (through '" + definitions[at].name + "')");
      if (marks[sub] == Mark::unseen) self(self, sub);
    }
    marks[at] = Mark::done;
  };
  visit(visit, 0);
  for (std::size_t i = 0; i < definitions.size(); ++i)
    if (marks[i] == Mark::unseen)
      throw ParamError("cluster '" + definitions[i].name + "' is not part of the machine '" + definitions[0].name +
                       "' (the first definition is the whole machine)");
  return definitions;
}

std::string format_cluster_tree(const std::vector<ClusterDefinition>& definitions) {
  std::string text;
  for (const auto& definition : definitions) {
    if (!text.empty()) text += "; ";
    text += definition.name + " = ";
    if (definition.is_processor()) {
      text += format_quantity(definition.power, UnitKind::real);
      continue;
    }
    text += "{";
    for (std::size_t i = 0; i < definition.parts.size(); ++i) {
      if (i > 0) text += ", ";
      const auto& part = definition.parts[i];
      if (part.count != 1) text += std::to_string(part.count) + " x ";
      text += part.name;
    }
    text += "} ";
    text += definition.comm == "myrinet" ? "myrinet(" + std::to_string(definition.channels) + ")" : definition.comm;
    text += " " + format_microseconds(definition.start_time) + " " + format_microseconds(definition.byte_time);
  }
  return text;
}

std::int64_t cluster_tree_processors(const std::vector<ClusterDefinition>& definitions, std::int64_t limit) {
  // leaves(processor) = 1; leaves(cluster) = Σ count · leaves(sub). The tree is acyclic
  // (parse_cluster_tree checked it), so a memo per definition is enough.
  std::map<std::string, std::int64_t, std::less<>> memo;
  const auto leaves = [&](const auto& self, const ClusterDefinition& definition) -> std::int64_t {
    if (definition.is_processor()) return 1;
    if (const auto found = memo.find(definition.name); found != memo.end()) return found->second;
    std::int64_t total = 0;
    for (const auto& part : definition.parts) {
      const ClusterDefinition* sub = nullptr;
      for (const auto& candidate : definitions)
        if (candidate.name == part.name) sub = &candidate;
      if (sub == nullptr) throw ParamError("cluster '" + part.name + "' is not defined");
      const std::int64_t each = self(self, *sub);
      if (each > 0 && part.count > (limit - total) / each)
        throw ParamError("the cluster tree holds more than " + std::to_string(limit) + " processors");
      total += part.count * each;
    }
    memo.emplace(definition.name, total);
    return total;
  };
  return definitions.empty() ? 0 : leaves(leaves, definitions.front());
}

}  // namespace augur::machines
