// The cluster format of Predictor 3.1 (Presage/Src/Ps.cpp PS(file)): one reader per statement
// kind (`cluster = NAME;`, `NAME.PROPERTY = VALUE;`, `NAME = {…};` / `NAME = POWER;`), then the
// cluster tree built from the root.
#include <map>
#include <optional>

#include "machines/dvm_cluster/cluster_tree.hpp"
#include "scenarios/predictor_par_parser.hpp"
#include "support/edit_distance.hpp"

namespace augur::scenarios::par {
namespace {

using machines::ClusterDefinition;

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

/// What the statements have said so far.
struct ClusterFile {
  std::optional<Token> root;  ///< cluster = NAME: NAME
  std::map<std::string, ParCluster> clusters;
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

/// `cluster = NAME;` after `cluster =`: the cluster that is the whole machine.
void parse_root(Parser& parser, const Token& key, ClusterFile& file) {
  if (file.root) parser.fail(key, "the machine is already chosen by 'cluster = " + file.root->text + "'");
  file.root = parser.expect_word("the name of the cluster that is the whole machine");
  parser.end_statement();
}

/// The value of `NAME.CommType = …`: ethernet, network, transputer, myrinet(n) or OTHER.commtype.
void parse_comm_type(Parser& parser, ParCluster& cluster) {
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
    parser.fail(type,
                "unknown CommType '" + type.text + "': expected ethernet, transputer, myrinet(n) or OTHER.commtype");
  }
}

/// `NAME.PROPERTY = VALUE;` after NAME (the `.` is next): TStart, TByte or CommType of a cluster
/// defined before.
void parse_property(Parser& parser, const Token& key, ClusterFile& file) {
  parser.next();
  const Token& property = parser.expect_word("tstart, tbyte or commtype after '.'");
  const auto found = file.clusters.find(key.text);
  if (found == file.clusters.end())
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
    parse_comm_type(parser, cluster);
  } else {
    const std::string suggestion = support::nearest_name(property.text, {"commtype", "tbyte", "tstart"});
    parser.fail(property, "unknown cluster property '" + property.text + "'" +
                              (suggestion.empty() ? "; valid properties are: commtype, tbyte, tstart"
                                                  : "; did you mean '" + suggestion + "'?"));
  }
  parser.end_statement();
}

/// The `{[COUNT x] NAME, …}` of `NAME = {…};`, from its `{` through its `}`.
void parse_parts(Parser& parser, const Token& key, ParCluster& cluster) {
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

/// `NAME = {…};` (a cluster of sub-clusters) or `NAME = POWER;` (a processor) after NAME.
void parse_definition(Parser& parser, const Token& key, ClusterFile& file) {
  parser.expect_punct('=', "after the name '" + key.text + "'");
  if (const auto found = file.clusters.find(key.text); found != file.clusters.end())
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
    parse_parts(parser, key, cluster);
  }
  parser.end_statement();
  file.clusters.emplace(key.text, std::move(cluster));
}

/// Reads every statement of the file.
ClusterFile parse_statements(Parser& parser) {
  ClusterFile file;
  while (!parser.at_end()) {
    const Token& key = parser.expect_word("a setting or a cluster name");
    if (key.text == "cluster" && parser.is_punct('=')) {
      parser.next();
      parse_root(parser, key, file);
    } else if ((key.text == "search" || key.text == "weight") && parser.is_punct('=')) {
      parser.skip_statement();  // 3.1's processor-set search and weights: no effect on prices
    } else if (key.text == "type" && parser.is_punct('=')) {
      parser.fail(key,
                  "'type = …' belongs to the old format; a cluster-format file ('cluster = …') "
                  "gives each cluster's network as NAME.CommType");
    } else if (parser.is_punct('.')) {
      parse_property(parser, key, file);
    } else {
      parse_definition(parser, key, file);
    }
  }
  return file;
}

/// The tree from the root, depth first (3.1's buildCluster); clusters outside it are ignored.
class TreeBuilder {
 public:
  TreeBuilder(const Parser& parser, const ClusterFile& file) : parser_(parser), clusters_(file.clusters) {}

  std::vector<ClusterDefinition> build(const std::string& root) {
    visit(root);
    return std::move(definitions_);
  }

 private:
  /// The definition of one cluster as dvm_cluster reads it.
  ClusterDefinition definition_of(const std::string& name, const ParCluster& cluster) const {
    ClusterDefinition definition;
    definition.name = name;
    if (cluster.processor) {
      definition.power = machines::parse_quantity(cluster.power_text, machines::UnitKind::real);
      return definition;
    }
    const ParCluster& network = network_of(parser_, clusters_, cluster);
    definition.comm = network.comm;
    definition.channels = network.channels;
    // 3.1 reads microseconds and divides by 1000000: "7us" is parsed to exactly 7 / 1e6.
    definition.start_time = machines::parse_quantity(network.start_time, machines::UnitKind::time);
    definition.byte_time = machines::parse_quantity(network.byte_time, machines::UnitKind::time);
    for (const auto& [part, token] : cluster.parts) definition.parts.push_back(part);
    return definition;
  }

  /// An error at a sub-cluster that is not defined, with the nearest defined name.
  [[noreturn]] void fail_undefined(const std::string& name, const Token& token) const {
    std::vector<std::string> names;
    for (const auto& [known, ignored] : clusters_) names.push_back(known);
    parser_.fail(token, "cluster '" + name + "' is not defined" + support::did_you_mean(name, names));
  }

  void visit(const std::string& name) {
    on_path_[name] = true;
    const ParCluster& cluster = clusters_.at(name);
    definitions_.push_back(definition_of(name, cluster));
    for (const auto& [part, token] : cluster.parts) {
      const auto found = on_path_.find(part.name);
      if (found != on_path_.end()) {
        if (found->second) parser_.fail(token, "cluster '" + part.name + "' contains itself (through '" + name + "')");
        continue;
      }
      if (!clusters_.contains(part.name)) fail_undefined(part.name, token);
      visit(part.name);
    }
    on_path_[name] = false;
  }

  const Parser& parser_;
  const std::map<std::string, ParCluster>& clusters_;
  std::vector<ClusterDefinition> definitions_;
  std::map<std::string, bool> on_path_;  // false: finished
};

}  // namespace

MachineDescription parse_cluster_format(Parser& parser, const machines::MachineRegistry& registry) {
  const ClusterFile file = parse_statements(parser);
  if (!file.root)
    throw ConfigError(parser.file(), 0, 0, "missing 'cluster = NAME;' (the cluster that is the whole machine)");
  const Token& root = *file.root;
  if (!file.clusters.contains(root.text)) parser.fail(root, "cluster '" + root.text + "' is not defined");
  const std::vector<ClusterDefinition> definitions = TreeBuilder(parser, file).build(root.text);

  MachineDescription machine;
  machine.model = "dvm_cluster";
  machine.params = machines::make_params(registry.get(machine.model));
  try {
    machine.params.set("clusters", machines::format_cluster_tree(definitions));
  } catch (const machines::ParamError& error) {
    parser.fail(root, error.what());
  }
  machine.description = "Predictor 3.1 cluster file: cluster = " + root.text;
  return machine;
}

}  // namespace augur::scenarios::par
