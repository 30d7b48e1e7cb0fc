// The old format of Predictor.par (Presage/Src/Ps.cpp PS(file, int)): one reader per setting
// (`type`, `start time`, `send byte time`, `scale`, `power`, `topology`, `procpowers`, `mapping`),
// then the machine on `bus` or `transputer_grid`.
#include <map>
#include <optional>

#include "scenarios/predictor_par_parser.hpp"
#include "support/edit_distance.hpp"

namespace augur::scenarios::par {
namespace {

/// What the settings have said so far.
struct OldFile {
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
};

const std::string old_format = "old-format Predictor.par";

/// The setting's name, `key` and the words after it: "start [time]" and "send [byte] [time]"
/// are one setting each.
std::string read_setting_name(Parser& parser, const Token& key) {
  if (key.text == "start" || key.text == "send") {
    if (key.text == "send" && parser.is_word("byte")) parser.next();
    if (parser.is_word("time")) parser.next();
  }
  return key.text == "start" ? "start time" : key.text == "send" ? "send byte time" : key.text;
}

/// Fails at `key` unless `what` is a setting of the old format.
void check_known_setting(const Parser& parser, const Token& key, const std::string& what) {
  const std::vector<std::string> valid = {"type",     "start time", "send byte time", "power",  "scale",
                                          "topology", "procpowers", "mapping",        "weight", "search"};
  if (std::find(valid.begin(), valid.end(), what) != valid.end()) return;
  const std::string suggestion = support::nearest_name(what, valid);
  parser.fail(key, "unknown setting '" + what + "' of an " + old_format +
                       (suggestion.empty() ? "; valid settings are: type, start time, send byte "
                                             "time, power, scale, topology, procpowers, mapping, "
                                             "weight, search"
                                           : "; did you mean '" + suggestion + "'?"));
}

/// `type = ethernet | network | transputer | myrinet(n)`: the model and its channels.
void parse_type(Parser& parser, OldFile& file) {
  const Token& value = parser.expect_word("ethernet, network, transputer or myrinet(n)");
  file.type = value;
  if (value.text == "ethernet" || value.text == "network") {
    file.model = "bus";
  } else if (value.text == "transputer") {
    file.model = "transputer_grid";
  } else if (value.text == "myrinet") {
    file.model = "bus";
    parser.expect_punct('(', "after myrinet (myrinet(n): n channels)");
    const Token& count = parser.peek();
    file.channels = static_cast<int>(parser.integer("the number of channels"));
    if (file.channels < 1) parser.fail(count, "myrinet(n) needs at least 1 channel");
    parser.expect_punct(')', "after the number of channels");
  } else {
    parser.fail(value,
                "unknown machine type '" + value.text + "': expected ethernet, network, transputer or myrinet(n)");
  }
}

/// `topology = {d1, d2, …}`; a dimension may also be written lb:ub (extent ub − lb + 1).
void parse_topology(Parser& parser, const Token& key, OldFile& file) {
  if (file.topology_at)
    parser.fail(key, "topology is given twice (first at line " + std::to_string(file.topology_at->line) + ")");
  file.topology_at = key;
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
    file.topology.push_back(static_cast<int>(extent));
    if (parser.is_punct('}')) break;
    parser.expect_punct(',', "or '}' in the topology");
  }
  parser.next();
}

/// `procpowers = { CLUSTER { first last : power, … } }`: processors first..last of CLUSTER have
/// `power`; processors skipped over get 1 (3.1's ClustInfo::AddProc).
void parse_procpowers(Parser& parser, const Token& key, OldFile& file) {
  file.procpowers_at = key;
  parser.expect_punct('{', "after 'procpowers ='");
  const std::int64_t cluster = parser.integer("a cluster number");
  auto& powers = file.procpowers[cluster];
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
}

/// `mapping = { CLUSTER : first last : step, … }`: the run's processors, in order, from procpowers.
void parse_mapping(Parser& parser, const Token& key, OldFile& file) {
  if (!file.procpowers_at) parser.fail(key, "mapping needs a procpowers statement before it (Predictor's error 25)");
  file.mapping_at = key;
  parser.expect_punct('{', "after 'mapping ='");
  while (true) {
    const Token& cluster_token = parser.peek();
    const std::int64_t cluster = parser.integer("a cluster number");
    const auto found = file.procpowers.find(cluster);
    if (found == file.procpowers.end())
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
      file.mapped.push_back(found->second[static_cast<std::size_t>(i)]);
    if (parser.is_punct('}')) break;
    parser.expect_punct(',', "or '}' after a mapping");
  }
  parser.next();
}

/// The value of setting `what` (named by `key`), after its `=`.
void parse_setting_value(Parser& parser, const Token& key, const std::string& what, OldFile& file) {
  if (what == "type") {
    parse_type(parser, file);
  } else if (what == "start time" || what == "send byte time") {
    (what == "start time" ? file.start_time : file.byte_time) = parser.microseconds(what);
  } else if (what == "scale") {
    const Token& value = parser.peek();
    if (!(parser.real("a scale factor") >= 0)) parser.fail(value, "scale must not be negative");
    file.scale = value.text;
  } else if (what == "power") {
    const Token& value = parser.peek();
    file.power = parser.real("the power of the processors");
    if (!(*file.power > 0)) parser.fail(value, "power must be positive");
  } else if (what == "topology") {
    parse_topology(parser, key, file);
  } else if (what == "procpowers") {
    parse_procpowers(parser, key, file);
  } else if (what == "mapping") {
    parse_mapping(parser, key, file);
  }
}

/// Reads every setting of the file and checks that the required ones are there.
OldFile parse_settings(Parser& parser) {
  OldFile file;
  while (!parser.at_end()) {
    const Token& key = parser.expect_word("a setting (type, start time, send byte time, …)");
    const std::string what = read_setting_name(parser, key);
    if (what == "weight" || what == "search") {
      parser.expect_punct('=', "after " + key.text);
      parser.skip_statement();
      continue;
    }
    check_known_setting(parser, key, what);
    parser.expect_punct('=', "after '" + what + "'");
    parse_setting_value(parser, key, what, file);
    parser.end_statement();
  }
  if (!file.type)
    throw ConfigError(parser.file(), 0, 0,
                      "missing 'type = ethernet|network|transputer|myrinet(n);' (" + old_format + ")");
  if (!file.start_time) throw ConfigError(parser.file(), 0, 0, "missing 'start time = <us>;' (" + old_format + ")");
  if (!file.byte_time) throw ConfigError(parser.file(), 0, 0, "missing 'send byte time = <us>;' (" + old_format + ")");
  if (file.procpowers_at && !file.mapping_at)
    parser.fail(*file.procpowers_at, "procpowers needs a mapping statement (Predictor's error 25)");
  return file;
}

/// The `power` list: the mapped processors' powers, else the one `power`, else none.
std::vector<std::string> power_list(const OldFile& file) {
  std::vector<std::string> powers;
  const auto text_of = [](double value) { return machines::format_quantity(value, machines::UnitKind::real); };
  if (!file.mapped.empty()) {
    for (const double p : file.mapped) powers.push_back(text_of(p));
  } else if (file.power) {
    powers.push_back(text_of(*file.power));
  }
  return powers;
}

}  // namespace

MachineDescription parse_old_format(Parser& parser, const machines::MachineRegistry& registry) {
  const OldFile file = parse_settings(parser);
  const Token& type = *file.type;
  MachineDescription machine;
  machine.model = file.model;
  machine.params = machines::make_params(registry.get(file.model));
  machine.topology = file.topology;
  const auto set = [&](const std::string& name, const std::string& value, const Token& at) {
    try {
      machine.params.set(name, value);
    } catch (const machines::ParamError& error) {
      parser.fail(at, error.what());
    }
  };
  set("start_time", *file.start_time, type);
  set("byte_time", *file.byte_time, type);
  if (file.scale) set("scale", *file.scale, type);
  if (file.model == "bus") {
    set("channels", std::to_string(file.channels), type);
    if (type.text == "myrinet") set("symmetric_transfers", "true", type);
  }
  if (file.model == "transputer_grid" && !file.topology.empty()) {
    std::vector<std::string> extents;
    for (const int extent : file.topology) extents.push_back(std::to_string(extent));
    try {
      machine.params.set_list("grid", extents);
    } catch (const machines::ParamError& error) {
      parser.fail(*file.topology_at, error.what());
    }
  }
  if (const std::vector<std::string> powers = power_list(file); !powers.empty())
    machine.params.set_list("power", powers);
  machine.description = "old-format Predictor.par: type = " + type.text +
                        (type.text == "myrinet" ? "(" + std::to_string(file.channels) + ")" : "");
  return machine;
}

}  // namespace augur::scenarios::par
