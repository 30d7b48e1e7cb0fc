// Predictor.par reader: a positioned tokenizer (comments `//`, case folded), format detection,
// then one statement parser per format (old: Presage/Src/Ps.cpp PS(file, int); cluster: PS(file)).
#include "scenarios/predictor_par.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "machines/dvm_cluster/cluster_tree.hpp"
#include "machines/units.hpp"
#include "scenarios/config_error.hpp"

namespace augur::scenarios {
namespace {

namespace fs = std::filesystem;
using machines::ClusterDefinition;

// ---- tokens ---------------------------------------------------------------------------------

enum class TokenKind { word, number, punct, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string text;  ///< lower case (the format ignores case)
  int line = 0;
  int col = 0;
};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word_char(char c) { return is_word_start(c) || is_digit(c); }

/// Splits the file into tokens. `//` starts a comment up to the end of the line (3.1 accepts
/// them only on their own line; here anywhere). The last token is `end`, at the end of the text.
std::vector<Token> tokenize(std::string_view text, const std::string& file) {
  std::vector<Token> tokens;
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  const auto column = [&](std::size_t at) { return static_cast<int>(at - line_start) + 1; };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    Token token;
    token.line = line;
    token.col = column(i);
    const std::size_t first = i;
    if (is_word_start(c)) {
      while (i < text.size() && is_word_char(text[i])) ++i;
      token.kind = TokenKind::word;
    } else if (is_digit(c) || (c == '.' && i + 1 < text.size() && is_digit(text[i + 1]))) {
      // digits [. digits] [e [+-] digits]; "512x" is 512 then x.
      while (i < text.size() && is_digit(text[i])) ++i;
      if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && is_digit(text[i])) ++i;
      }
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < text.size() && is_digit(text[j])) {
          i = j;
          while (i < text.size() && is_digit(text[i])) ++i;
        }
      }
      token.kind = TokenKind::number;
    } else if (std::string_view("=;{},().:").find(c) != std::string_view::npos) {
      ++i;
      token.kind = TokenKind::punct;
    } else {
      throw ConfigError(file, token.line, token.col, "unexpected character '" + std::string(1, c) + "'");
    }
    token.text = lower(text.substr(first, i - first));
    tokens.push_back(std::move(token));
  }
  Token end;
  end.line = line;
  end.col = column(i);
  tokens.push_back(end);
  return tokens;
}

/// A cursor over the tokens with positioned errors.
class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string file) : tokens_(std::move(tokens)), file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(at_ + ahead, tokens_.size() - 1)]; }
  const Token& next() {
    const Token& token = tokens_[at_];
    if (at_ + 1 < tokens_.size()) ++at_;
    return token;
  }
  bool at_end() const { return peek().kind == TokenKind::end; }
  bool is_punct(char c, std::size_t ahead = 0) const {
    const Token& token = peek(ahead);
    return token.kind == TokenKind::punct && token.text[0] == c;
  }
  bool is_word(std::string_view word, std::size_t ahead = 0) const {
    const Token& token = peek(ahead);
    return token.kind == TokenKind::word && token.text == word;
  }

  [[noreturn]] void fail(const Token& token, const std::string& message) const {
    throw ConfigError(file_, token.line, token.col, message);
  }
  /// "found 'x'" or "found the end of the file", for "expected …" messages.
  static std::string found(const Token& token) {
    return token.kind == TokenKind::end ? "found the end of the file" : "found '" + token.text + "'";
  }
  const Token& expect_punct(char c, const std::string& where) {
    if (!is_punct(c)) fail(peek(), "expected '" + std::string(1, c) + "' " + where + ", " + found(peek()));
    return next();
  }
  const Token& expect_word(const std::string& what) {
    if (peek().kind != TokenKind::word) fail(peek(), "expected " + what + ", " + found(peek()));
    return next();
  }
  const Token& expect_number(const std::string& what) {
    if (peek().kind != TokenKind::number) fail(peek(), "expected " + what + ", " + found(peek()));
    return next();
  }
  /// A non-negative integer (digits only).
  std::int64_t integer(const std::string& what) {
    const Token& token = peek();
    if (token.kind != TokenKind::number || token.text.size() > 9 ||
        token.text.find_first_not_of("0123456789") != std::string::npos)
      fail(token, "expected " + what + " (a whole number), " + found(token));
    next();
    return std::stoll(token.text);
  }
  /// A real number (as C's atof reads it: 7, 0.004, 1e-3).
  double real(const std::string& what) {
    const Token& token = expect_number(what);
    try {
      return machines::parse_quantity(token.text, machines::UnitKind::real);
    } catch (const machines::UnitError&) {
      fail(token, "expected " + what + ", found '" + token.text + "'");
    }
  }
  /// A time in microseconds, as written (3.1 reads µs); returns the text with its unit ("7us").
  std::string microseconds(const std::string& what) {
    const Token& token = expect_number(what + " in microseconds");
    try {
      machines::parse_quantity(token.text + "us", machines::UnitKind::time);
    } catch (const machines::UnitError&) {
      fail(token, "expected " + what + " in microseconds, found '" + token.text + "'");
    }
    return token.text + "us";
  }
  /// The `;` that ends every statement.
  void end_statement() { expect_punct(';', "at the end of the statement"); }
  /// Skips a statement whose value has no effect (`search = 0;`), up to and including its `;`.
  void skip_statement() {
    while (!at_end() && !is_punct(';')) next();
    end_statement();
  }

 private:
  std::vector<Token> tokens_;
  std::size_t at_ = 0;
  std::string file_;
};

// ---- format detection -----------------------------------------------------------------------

/// The key of each `key = value;` statement, lower case with blanks collapsed ("send byte time"),
/// read from the raw text so that a file that is not a machine file at all (the runtime's
/// pred_trc.par, with its /* */ comments) gets a clear message instead of a syntax error.
std::vector<std::string> statement_keys(std::string_view text) {
  std::string clean;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      clean += ' ';
      continue;
    }
    clean += text[i];
  }
  std::vector<std::string> keys;
  std::istringstream statements(clean);
  std::string statement;
  while (std::getline(statements, statement, ';')) {
    const auto equals = statement.find('=');
    if (equals == std::string::npos) continue;
    std::istringstream words(lower(statement.substr(0, equals)));
    std::string word;
    std::string key;
    while (words >> word) key += (key.empty() ? "" : " ") + word;
    keys.push_back(key);
  }
  return keys;
}

enum class ParFormat { old_format, cluster };

ParFormat detect_format(std::string_view text, const std::string& file) {
  const auto keys = statement_keys(text);
  if (std::find(keys.begin(), keys.end(), "cluster") != keys.end()) return ParFormat::cluster;
  for (const auto& key : keys)
    if (key == "type" || key == "start time" || key == "send byte time") return ParFormat::old_format;
  throw ConfigError(file, 0, 0,
                    "not a Predictor machine file: it has neither 'cluster = NAME;' (the cluster "
                    "format of Predictor 3.1) nor 'type = ethernet|network|transputer|myrinet(n);' "
                    "(the old format)");
}

// ---- the cluster format ---------------------------------------------------------------------

/// One cluster as the file states it, with the tokens errors point at.
struct ParCluster {
  Token defined_at;
  bool processor = false;
  std::string power_text;
  std::vector<std::pair<ClusterDefinition::Part, Token>> parts;
  std::string comm = "ethernet";
  int channels = 1;
  std::optional<Token> comm_reference;  ///< X.CommType = Y.CommType: Y
  std::string start_time = "0us";       ///< as written, with its unit
  std::string byte_time = "0us";
};

/// The network of `cluster` after following an `X.CommType = Y.CommType` reference: 3.1's
/// buildCluster then copies Y's CommType, channels, TStart and TByte.
const ParCluster& network_of(const Parser& parser, const std::map<std::string, ParCluster>& clusters,
                             const ParCluster& cluster) {
  if (!cluster.comm_reference) return cluster;
  const Token& reference = *cluster.comm_reference;
  const auto found = clusters.find(reference.text);
  if (found == clusters.end())
    parser.fail(reference, "CommType refers to cluster '" + reference.text + "', which is not defined");
  if (found->second.processor)
    parser.fail(reference, "CommType refers to '" + reference.text + "', which is a processor and has no network");
  if (found->second.comm_reference)
    parser.fail(reference, "CommType refers to '" + reference.text +
                               "', whose CommType is itself a reference (Predictor 3.1 rejects it)");
  return found->second;
}

MachineDescription parse_cluster_format(Parser& parser, const machines::MachineRegistry& registry) {
  std::optional<Token> root;
  std::map<std::string, ParCluster> clusters;
  while (!parser.at_end()) {
    const Token& key = parser.expect_word("a setting or a cluster name");
    if (key.text == "cluster" && parser.is_punct('=')) {
      parser.next();
      if (root) parser.fail(key, "the machine is already chosen by 'cluster = " + root->text + "'");
      root = parser.expect_word("the name of the cluster that is the whole machine");
      parser.end_statement();
      continue;
    }
    if ((key.text == "search" || key.text == "weight") && parser.is_punct('=')) {
      parser.skip_statement();  // 3.1's processor-set search and weights: no effect on prices
      continue;
    }
    if (key.text == "type" && parser.is_punct('='))
      parser.fail(key,
                  "'type = …' belongs to the old format; a cluster-format file ('cluster = …') "
                  "gives each cluster's network as NAME.CommType");
    if (parser.is_punct('.')) {
      // NAME.PROPERTY = VALUE;
      parser.next();
      const Token& property = parser.expect_word("tstart, tbyte or commtype after '.'");
      const auto found = clusters.find(key.text);
      if (found == clusters.end())
        parser.fail(key, "cluster '" + key.text + "' is not defined yet: define it ('" + key.text +
                             " = {…};') before its properties (Predictor 3.1 ignores them)");
      ParCluster& cluster = found->second;
      if (cluster.processor)
        parser.fail(key, "'" + key.text + "' is a processor ('" + key.text + " = " + cluster.power_text +
                             ";'): it has no " + property.text);
      parser.expect_punct('=', "after " + key.text + "." + property.text);
      if (property.text == "tstart") {
        cluster.start_time = parser.microseconds("TStart");
      } else if (property.text == "tbyte") {
        cluster.byte_time = parser.microseconds("TByte");
      } else if (property.text == "commtype") {
        const Token& type = parser.expect_word("ethernet, transputer or myrinet(n)");
        cluster.comm_reference.reset();
        cluster.channels = 1;
        if (parser.is_punct('.')) {
          parser.next();
          const Token& what = parser.expect_word("commtype after '" + type.text + ".'");
          if (what.text != "commtype")
            parser.fail(what, "expected '" + type.text +
                                  ".commtype' (the network of another "
                                  "cluster), found '" +
                                  type.text + "." + what.text + "'");
          cluster.comm_reference = type;
        } else if (type.text == "myrinet") {
          parser.expect_punct('(', "after myrinet (myrinet(n): n channels)");
          const Token& count = parser.peek();
          const std::int64_t channels = parser.integer("the number of channels");
          if (channels < 1) parser.fail(count, "myrinet(n) needs at least 1 channel");
          parser.expect_punct(')', "after the number of channels");
          cluster.comm = "myrinet";
          cluster.channels = static_cast<int>(channels);
        } else if (type.text == "ethernet" || type.text == "network" || type.text == "transputer") {
          cluster.comm = type.text == "network" ? "ethernet" : type.text;
        } else {
          parser.fail(type, "unknown CommType '" + type.text +
                                "': expected ethernet, transputer, myrinet(n) or OTHER.commtype");
        }
      } else {
        const std::string suggestion = machines::nearest_name(property.text, {"commtype", "tbyte", "tstart"});
        parser.fail(property, "unknown cluster property '" + property.text + "'" +
                                  (suggestion.empty() ? "; valid properties are: commtype, tbyte, tstart"
                                                      : "; did you mean '" + suggestion + "'?"));
      }
      parser.end_statement();
      continue;
    }
    // NAME = {…}; or NAME = POWER;
    parser.expect_punct('=', "after the name '" + key.text + "'");
    if (const auto found = clusters.find(key.text); found != clusters.end())
      parser.fail(key, "cluster '" + key.text + "' is defined twice (first at line " +
                           std::to_string(found->second.defined_at.line) + ")");
    ParCluster cluster;
    cluster.defined_at = key;
    if (parser.peek().kind == TokenKind::number) {
      const Token& power = parser.peek();
      cluster.processor = true;
      cluster.power_text = power.text;
      if (!(parser.real("the power of a processor") > 0))
        parser.fail(power, "the power of processor '" + key.text + "' must be positive");
    } else {
      parser.expect_punct('{', "or a number after '" + key.text + " =' (sub-clusters or a power)");
      while (true) {
        ClusterDefinition::Part part;
        if (parser.peek().kind == TokenKind::number) {
          const Token& count = parser.peek();
          part.count = parser.integer("the number of sub-clusters");
          if (part.count < 1) parser.fail(count, "a cluster needs at least 1 copy of a sub-cluster");
          if (!parser.is_word("x"))
            parser.fail(parser.peek(),
                        "expected 'x' between a count and a sub-cluster name ('2 x "
                        "node'), " +
                            Parser::found(parser.peek()));
          parser.next();
        }
        const Token& name = parser.expect_word("a sub-cluster name");
        part.name = name.text;
        cluster.parts.emplace_back(std::move(part), name);
        if (parser.is_punct('}')) break;
        parser.expect_punct(',', "or '}' after a sub-cluster");
      }
      parser.next();
    }
    parser.end_statement();
    clusters.emplace(key.text, std::move(cluster));
  }
  if (!root)
    throw ConfigError(parser.file(), 0, 0, "missing 'cluster = NAME;' (the cluster that is the whole machine)");
  if (!clusters.contains(root->text)) parser.fail(*root, "cluster '" + root->text + "' is not defined");

  // The tree from the root, depth first (3.1's buildCluster); clusters outside it are ignored.
  std::vector<ClusterDefinition> definitions;
  std::map<std::string, bool> on_path;  // false: finished
  const auto build = [&](const auto& self, const std::string& name) -> void {
    on_path[name] = true;
    const ParCluster& cluster = clusters.at(name);
    ClusterDefinition definition;
    definition.name = name;
    if (cluster.processor) {
      definition.power = machines::parse_quantity(cluster.power_text, machines::UnitKind::real);
    } else {
      const ParCluster& network = network_of(parser, clusters, cluster);
      definition.comm = network.comm;
      definition.channels = network.channels;
      // 3.1 reads microseconds and divides by 1000000: "7us" is parsed to exactly 7 / 1e6.
      definition.start_time = machines::parse_quantity(network.start_time, machines::UnitKind::time);
      definition.byte_time = machines::parse_quantity(network.byte_time, machines::UnitKind::time);
      for (const auto& [part, token] : cluster.parts) definition.parts.push_back(part);
    }
    definitions.push_back(std::move(definition));
    for (const auto& [part, token] : cluster.parts) {
      const auto found = on_path.find(part.name);
      if (found != on_path.end()) {
        if (found->second) parser.fail(token, "cluster '" + part.name + "' contains itself (through '" + name + "')");
        continue;
      }
      if (!clusters.contains(part.name)) {
        std::vector<std::string> names;
        for (const auto& [known, ignored] : clusters) names.push_back(known);
        const std::string suggestion = machines::nearest_name(part.name, names);
        parser.fail(token, "cluster '" + part.name + "' is not defined" +
                               (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
      }
      self(self, part.name);
    }
    on_path[name] = false;
  };
  build(build, root->text);

  MachineDescription machine;
  machine.model = "dvm_cluster";
  machine.params = machines::make_params(registry.get(machine.model));
  try {
    machine.params.set("clusters", machines::format_cluster_tree(definitions));
  } catch (const machines::ParamError& error) {
    parser.fail(*root, error.what());
  }
  machine.description = "Predictor 3.1 cluster file: cluster = " + root->text;
  return machine;
}

// ---- the old format -------------------------------------------------------------------------

MachineDescription parse_old_format(Parser& parser, const machines::MachineRegistry& registry) {
  std::optional<Token> type;
  std::string model;
  int channels = 1;
  std::optional<std::string> start_time;
  std::optional<std::string> byte_time;
  std::optional<std::string> scale;
  std::optional<double> power;
  std::optional<Token> topology_at;
  std::vector<int> topology;
  std::map<std::int64_t, std::vector<double>> procpowers;  // 3.1 "clusters" of powers
  std::optional<Token> procpowers_at;
  std::optional<Token> mapping_at;
  std::vector<double> mapped;

  while (!parser.at_end()) {
    const Token& key = parser.expect_word("a setting (type, start time, send byte time, …)");
    if (key.text == "start" || key.text == "send") {
      // "start [time]" and "send [byte] [time]"
      if (key.text == "send" && parser.is_word("byte")) parser.next();
      if (parser.is_word("time")) parser.next();
    }
    if (key.text == "weight" || key.text == "search") {
      parser.expect_punct('=', "after " + key.text);
      parser.skip_statement();
      continue;
    }
    const std::string what = key.text == "start" ? "start time" : key.text == "send" ? "send byte time" : key.text;
    const std::vector<std::string> valid = {"type",     "start time", "send byte time", "power",  "scale",
                                            "topology", "procpowers", "mapping",        "weight", "search"};
    if (std::find(valid.begin(), valid.end(), what) == valid.end()) {
      const std::string suggestion = machines::nearest_name(what, valid);
      parser.fail(key, "unknown setting '" + what + "' of an old-format Predictor.par" +
                           (suggestion.empty() ? "; valid settings are: type, start time, send byte "
                                                 "time, power, scale, topology, procpowers, mapping, "
                                                 "weight, search"
                                               : "; did you mean '" + suggestion + "'?"));
    }
    parser.expect_punct('=', "after '" + what + "'");
    if (what == "type") {
      const Token& value = parser.expect_word("ethernet, network, transputer or myrinet(n)");
      type = value;
      if (value.text == "ethernet" || value.text == "network") {
        model = "bus";
      } else if (value.text == "transputer") {
        model = "transputer_grid";
      } else if (value.text == "myrinet") {
        model = "bus";
        parser.expect_punct('(', "after myrinet (myrinet(n): n channels)");
        const Token& count = parser.peek();
        channels = static_cast<int>(parser.integer("the number of channels"));
        if (channels < 1) parser.fail(count, "myrinet(n) needs at least 1 channel");
        parser.expect_punct(')', "after the number of channels");
      } else {
        parser.fail(value,
                    "unknown machine type '" + value.text + "': expected ethernet, network, transputer or myrinet(n)");
      }
    } else if (what == "start time" || what == "send byte time") {
      (what == "start time" ? start_time : byte_time) = parser.microseconds(what);
    } else if (what == "scale") {
      const Token& value = parser.peek();
      if (!(parser.real("a scale factor") >= 0)) parser.fail(value, "scale must not be negative");
      scale = value.text;
    } else if (what == "power") {
      const Token& value = parser.peek();
      power = parser.real("the power of the processors");
      if (!(*power > 0)) parser.fail(value, "power must be positive");
    } else if (what == "topology") {
      // {d1, d2, …}; a dimension may also be written lb:ub (extent ub − lb + 1)
      if (topology_at)
        parser.fail(key, "topology is given twice (first at line " + std::to_string(topology_at->line) + ")");
      topology_at = key;
      parser.expect_punct('{', "after 'topology ='");
      while (true) {
        const Token& first = parser.peek();
        std::int64_t extent = parser.integer("a grid extent");
        if (parser.is_punct(':')) {
          parser.next();
          const Token& last_token = parser.peek();
          const std::int64_t last = parser.integer("the upper bound of the dimension");
          if (last < extent) parser.fail(last_token, "the upper bound is below the lower bound");
          extent = last - extent + 1;
        }
        if (extent < 1) parser.fail(first, "a grid extent must be at least 1");
        topology.push_back(static_cast<int>(extent));
        if (parser.is_punct('}')) break;
        parser.expect_punct(',', "or '}' in the topology");
      }
      parser.next();
    } else if (what == "procpowers") {
      // { CLUSTER { first last : power, … } }: processors first..last of CLUSTER have `power`;
      // processors skipped over get 1 (3.1's ClustInfo::AddProc).
      procpowers_at = key;
      parser.expect_punct('{', "after 'procpowers ='");
      const std::int64_t cluster = parser.integer("a cluster number");
      auto& powers = procpowers[cluster];
      parser.expect_punct('{', "after the cluster number");
      while (true) {
        const Token& first_token = parser.peek();
        const std::int64_t first = parser.integer("the first processor of a range");
        const std::int64_t last = parser.integer("the last processor of a range");
        if (last < first) parser.fail(first_token, "the range ends before it starts");
        if (last >= 100000) parser.fail(first_token, "at most 100000 processors per cluster");
        parser.expect_punct(':', "between a processor range and its power");
        const Token& value = parser.peek();
        const double p = parser.real("a power");
        if (!(p > 0)) parser.fail(value, "a power must be positive");
        if (powers.size() <= static_cast<std::size_t>(last)) powers.resize(static_cast<std::size_t>(last) + 1, 1.0);
        std::fill(powers.begin() + first, powers.begin() + last + 1, p);
        if (parser.is_punct('}')) break;
        parser.expect_punct(',', "or '}' after a range");
      }
      parser.next();
      parser.expect_punct('}', "closing procpowers");
    } else if (what == "mapping") {
      // { CLUSTER : first last : step, … }: the run's processors, in order, from procpowers.
      if (!procpowers_at) parser.fail(key, "mapping needs a procpowers statement before it (Predictor's error 25)");
      mapping_at = key;
      parser.expect_punct('{', "after 'mapping ='");
      while (true) {
        const Token& cluster_token = parser.peek();
        const std::int64_t cluster = parser.integer("a cluster number");
        const auto found = procpowers.find(cluster);
        if (found == procpowers.end())
          parser.fail(cluster_token, "cluster " + std::to_string(cluster) + " has no procpowers");
        parser.expect_punct(':', "after the cluster number");
        const Token& range = parser.peek();
        const std::int64_t first = parser.integer("the first processor");
        const std::int64_t last = parser.integer("the last processor");
        parser.expect_punct(':', "before the step");
        const Token& step_token = parser.peek();
        const std::int64_t step = parser.integer("the step");
        if (step < 1) parser.fail(step_token, "the step must be at least 1");
        const auto size = static_cast<std::int64_t>(found->second.size());
        if (last > size)
          parser.fail(range, "wrong range for mapping processors: cluster " + std::to_string(cluster) + " has " +
                                 std::to_string(size) + " processors");
        for (std::int64_t i = first; i <= last && i < size; i += step)
          mapped.push_back(found->second[static_cast<std::size_t>(i)]);
        if (parser.is_punct('}')) break;
        parser.expect_punct(',', "or '}' after a mapping");
      }
      parser.next();
    }
    parser.end_statement();
  }
  const std::string format = "old-format Predictor.par";
  if (!type)
    throw ConfigError(parser.file(), 0, 0, "missing 'type = ethernet|network|transputer|myrinet(n);' (" + format + ")");
  if (!start_time) throw ConfigError(parser.file(), 0, 0, "missing 'start time = <us>;' (" + format + ")");
  if (!byte_time) throw ConfigError(parser.file(), 0, 0, "missing 'send byte time = <us>;' (" + format + ")");
  if (procpowers_at && !mapping_at)
    parser.fail(*procpowers_at, "procpowers needs a mapping statement (Predictor's error 25)");

  MachineDescription machine;
  machine.model = model;
  machine.params = machines::make_params(registry.get(model));
  machine.topology = topology;
  const auto set = [&](const std::string& name, const std::string& value, const Token& at) {
    try {
      machine.params.set(name, value);
    } catch (const machines::ParamError& error) {
      parser.fail(at, error.what());
    }
  };
  set("start_time", *start_time, *type);
  set("byte_time", *byte_time, *type);
  if (scale) set("scale", *scale, *type);
  if (model == "bus") {
    set("channels", std::to_string(channels), *type);
    if (type->text == "myrinet") set("symmetric_transfers", "true", *type);
  }
  if (model == "transputer_grid" && !topology.empty()) {
    std::vector<std::string> extents;
    for (const int extent : topology) extents.push_back(std::to_string(extent));
    try {
      machine.params.set_list("grid", extents);
    } catch (const machines::ParamError& error) {
      parser.fail(*topology_at, error.what());
    }
  }
  std::vector<std::string> powers;
  const auto text_of = [](double value) { return machines::format_quantity(value, machines::UnitKind::real); };
  if (!mapped.empty()) {
    for (const double p : mapped) powers.push_back(text_of(p));
  } else if (power) {
    powers.push_back(text_of(*power));
  }
  if (!powers.empty()) machine.params.set_list("power", powers);
  machine.description = "old-format Predictor.par: type = " + type->text +
                        (type->text == "myrinet" ? "(" + std::to_string(channels) + ")" : "");
  return machine;
}

}  // namespace

bool looks_like_predictor_par(const std::string& path, std::string_view text) {
  if (lower(fs::path(path).extension().string()) == ".par") return true;
  // The first line that is not blank and not a YAML comment: `// …` or `key = value` (a YAML
  // machine has `key: value`).
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    line = line.substr(first);
    if (line.starts_with("//")) return true;
    const auto equals = line.find('=');
    const auto colon = line.find(':');
    return equals != std::string_view::npos && (colon == std::string_view::npos || equals < colon);
  }
  return false;
}

MachineDescription parse_predictor_par(std::string_view text, const std::string& file,
                                       const machines::MachineRegistry& registry) {
  const ParFormat format = detect_format(text, file);
  Parser parser(tokenize(text, file), file);
  MachineDescription machine =
      format == ParFormat::cluster ? parse_cluster_format(parser, registry) : parse_old_format(parser, registry);
  machine.source = file;
  machine.name = fs::path(file).stem().string();
  return machine;
}

MachineDescription load_predictor_par(const std::string& path, const machines::MachineRegistry& registry) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, 0, 0, "cannot open the machine file");
  std::ostringstream content;
  content << in.rdbuf();
  return parse_predictor_par(content.str(), path, registry);
}

}  // namespace augur::scenarios
