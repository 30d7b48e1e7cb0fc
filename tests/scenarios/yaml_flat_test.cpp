// The fast path of parse_text (parse_flat_map): on every document it accepts it builds what
// yaml-cpp builds (same keys in the same order, same scalar text), it leaves every other document
// to yaml-cpp, and errors in documents it read still name their line and column.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "machines/registry.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/machine_file.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/yaml_util.hpp"
#include "tests/support/files.hpp"

namespace {

using augur::scenarios::detail::parse_flat_map;

/// The (key, value) pairs of a map of scalars as yaml-cpp reads it; empty when it is not one.
std::vector<std::pair<std::string, std::string>> pairs(const YAML::Node& map) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!map.IsMap()) return out;
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!it->first.IsScalar() || !it->second.IsScalar()) return {};
    out.emplace_back(it->first.Scalar(), it->second.Scalar());
  }
  return out;
}

/// True when parse_flat_map declines `text` or reads it as yaml-cpp does.
bool agrees_with_yaml_cpp(const std::string& text) {
  const auto flat = parse_flat_map(text);
  if (!flat) return true;
  YAML::Node reference;
  try {
    reference = YAML::Load(text);
  } catch (const YAML::Exception&) {
    return false;  // accepted what yaml-cpp rejects
  }
  const auto expected = pairs(reference);
  return !expected.empty() && expected == pairs(*flat);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("parse_flat_map reads flat maps as yaml-cpp does") {
    const std::vector<std::string> documents{
        "schema_version: 1\nname: command line\ntrace: /tmp/a b/trace.txt\nmachine: /tmp/m.yaml\n",
        "# comment\n\n  # indented comment\nmodel: loggp_smp\nlatency: 1us   \nbandwidth: 10GBps # ten\n",
        "description: \"a cluster: 1 Gflop/s hosts, #1\"   # quoted\nmtu: 0\nmapping: block",
        "trace: ti:../x/trace.txt\nratio: -0.5\nspeed: +3e9\nlist_like: 1,2,3\nexpr: a=b (c) ~d\n",
        "a_b-c.d: x:y\n_k: .5\n",
    };
    for (const std::string& text : documents) {
      CAPTURE(text);
      const auto flat = parse_flat_map(text);
      REQUIRE(flat.has_value());
      CHECK(pairs(*flat) == pairs(YAML::Load(text)));
      CHECK(flat->Mark().is_null());  // no positions: errors are found again with yaml-cpp
    }
    const auto machine = parse_flat_map("model: loggp_smp\nlatency: 1us # one\ndescription: \"x  y \"\n");
    REQUIRE(machine.has_value());
    CHECK((*machine)["model"].Scalar() == "loggp_smp");
    CHECK((*machine)["latency"].Scalar() == "1us");
    CHECK((*machine)["description"].Scalar() == "x  y ");
  }

  TEST_CASE("parse_flat_map leaves everything else to yaml-cpp") {
    const std::vector<std::string> declined{
        "",                       // no key: yaml-cpp's null document
        "# only a comment\n",     //
        "a: 1\nb:\n  c: 2\n",     // nested map
        "a: 1\n  b: 2\n",         // indented line
        "a: [1, 2]\n",            // flow sequence
        "a: {b: 1}\n",            // flow map
        "a:\n- 1\n",              // block sequence, and a key without value
        "- 1\n",                  // a list document
        "a: &x 1\nb: *x\n",       // anchor and alias
        "a: !!str 1\n",           // tag
        "a: 'single'\n",          // single quotes
        "a: \"esc\\\"aped\"\n",   // escape
        "a: \"two\n  lines\"\n",  // quoted scalar over lines
        "a: |\n  block\n",        // block scalar
        "a: null\n",
        "a: ~\n",
        "a: NULL\n",     // null values
        "null: 1\n",     // null key
        "a: 1\na: 2\n",  // repeated key
        "a:\tb\n",
        "a: b\r\n",
        "a: caf\xc3\xa9\n",  // tab, CR, UTF-8
        "a: b: c\n",
        "a: b:\n",  // nested key in a value
        "a: b#c\n",
        "a: \"b\"#c\n",  // '#' not starting a comment
        "a:b\n",         // no space after the colon
        "---\na: 1\n",
        "%YAML 1.2\na: 1\n",  // document marker, directive
        "a: -b\n",
        "a: @b\n",
        "a: `b`\n",
        "a: ?b\n",
        "a: :b\n",
        "a: %b\n",
        "a: b\n...\n",  // document end
        "1a: b\n",      // key starting with a digit
    };
    for (const std::string& text : declined) {
      CAPTURE(text);
      CHECK_FALSE(parse_flat_map(text).has_value());
    }
  }

  TEST_CASE("parse_flat_map agrees with yaml-cpp on random documents") {
    // Lines assembled from fragments that are valid or almost valid YAML: whatever the fast path
    // accepts, yaml-cpp must read to the same map.
    const std::vector<std::string> keys{"a", "key", "b_c", "x-y", "v.1", "null", "a", " a", "a b", "-a"};
    const std::vector<std::string> separators{": ", ":  ", ":", ": \t", " : "};
    const std::vector<std::string> values{"1",   "1us",  "x y",  "-2.5",     "\"q: #x\"", "\"\"", "/p/q.txt",
                                          "a:b", "a: b", "v #c", "v#c",      "~",         "null", "[1]",
                                          "'s'", "\"s",  "s\"",  "1,2",      "(x)",       "a=b",  "+1",
                                          "-x",  ".5",   "y  ",  "\"a\" #c", "\"a\"x",    "&a",   "*a"};
    const std::vector<std::string> extras{"", "", "", "# c", "  # c", "  ", "---", "  k: v", "- 1"};
    std::mt19937 random(4);
    const auto pick = [&](const std::vector<std::string>& from) {
      return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(random)];
    };
    int accepted = 0;
    for (int k = 0; k < 3000; ++k) {
      std::string text;
      const int lines = 1 + k % 5;
      for (int line = 0; line < lines; ++line) {
        if (random() % 4 == 0) text += pick(extras) + "\n";
        text += pick(keys) + pick(separators) + pick(values) + "\n";
      }
      CAPTURE(text);
      REQUIRE(agrees_with_yaml_cpp(text));
      if (parse_flat_map(text)) ++accepted;
    }
    CHECK(accepted > 50);  // the test exercises both paths
    CHECK(accepted < 2950);
  }

  TEST_CASE("a flat machine file reads to the machine its YAML nodes give - and anything wrong goes the YAML way") {
    augur::machines::MachineRegistry registry;
    augur::machines::register_builtin_machines(registry);
    using augur::scenarios::MachineDescription;
    using augur::scenarios::detail::parse_flat_machine;
    using augur::scenarios::detail::scan_flat_map;
    const auto same = [](const MachineDescription& a, const MachineDescription& b) {
      CHECK(a.model == b.model);
      CHECK(a.name == b.name);
      CHECK(a.description == b.description);
      CHECK(a.source == b.source);
      CHECK(a.params.describe() == b.params.describe());
    };
    const auto through_yaml = [&](const std::string& path) {
      const augur::scenarios::detail::PrecisePositions precise;  // the fast path stands aside
      return augur::scenarios::load_machine_file(path, registry);
    };
    int flat = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(AUGUR_SOURCE_DIR) + "/machines/library")) {
      const std::string path = entry.path().string();
      CAPTURE(path);
      const std::string text = augur::test::slurp(entry.path());
      const auto entries = scan_flat_map(text);
      if (entries && parse_flat_machine(*entries, registry)) ++flat;
      same(augur::scenarios::load_machine_file(path, registry), through_yaml(path));
    }
    CHECK(flat >= 3);  // the library's flat files take the fast path

    const std::filesystem::path dir = augur::test::scratch_dir("augur_flat_machine_", "files");
    const auto write = [&](const std::string& name, const std::string& text) {
      augur::test::write_file((dir / name).string(), text);
      return (dir / name).string();
    };
    // Quotes, comments and a name: the fast path's values are yaml-cpp's.
    const std::string quoted_text =
        "# a cluster\nschema_version: 1\nmodel: loggp_smp\nname: \"my cluster\"  # named\n"
        "description: \"x: y, #1\"\nlatency: 2us # two\nbandwidth: \"5GBps\"\n";
    const std::string quoted = write("quoted.yaml", quoted_text);
    const auto entries = scan_flat_map(quoted_text);
    REQUIRE(entries.has_value());
    const auto fast = parse_flat_machine(*entries, registry);
    REQUIRE(fast.has_value());
    CHECK(fast->name == "my cluster");
    CHECK(fast->description == "x: y, #1");
    const MachineDescription loaded = augur::scenarios::load_machine_file(quoted, registry);
    CHECK(loaded.name == "my cluster");
    CHECK(loaded.source == quoted);
    same(loaded, through_yaml(quoted));
    // A version written "01", which the YAML way accepts: not the fast path's, still read.
    const std::string version_text = "schema_version: 01\nmodel: bus\n";
    const std::string version = write("version.yaml", version_text);
    CHECK_FALSE(parse_flat_machine(*scan_flat_map(version_text), registry).has_value());
    CHECK(augur::scenarios::load_machine_file(version, registry).model == "bus");
    CHECK(augur::scenarios::load_machine_file(version, registry).name == "version");
    // Errors in flat files: each declined by the fast path and reported at its line and column.
    struct Broken {
      std::string name, text, error;
    };
    const std::vector<Broken> broken{
        {"bad_value.yaml", "schema_version: 1\nmodel: loggp_smp\nlatency: soon\n", "bad_value.yaml:3:10: error: "},
        {"bad_model.yaml", "schema_version: 1\nmodel: loggp\n",
         "bad_model.yaml:2:8: error: unknown machine model 'loggp'"},
        {"bad_version.yaml", "model: loggp_smp\nlatency: 1us\n", "bad_version.yaml:1:1: error: "},
        {"bad_version2.yaml", "schema_version: 2\nmodel: loggp_smp\n",
         "bad_version2.yaml:1:17: error: unsupported schema_version 2"},
    };
    for (const Broken& b : broken) {
      const std::string path = write(b.name, b.text);
      CAPTURE(path);
      CHECK_FALSE(parse_flat_machine(*scan_flat_map(b.text), registry).has_value());
      CHECK_THROWS_WITH_AS(augur::scenarios::load_machine_file(path, registry), doctest::Contains(b.error.c_str()),
                           augur::scenarios::ConfigError);
    }
  }

  TEST_CASE("an error in a document of the fast path still names its line and column") {
    augur::machines::MachineRegistry registry;
    augur::machines::register_builtin_machines(registry);
    // A flat file: parse_flat_map reads it, the unknown key throws, the load runs again with
    // yaml-cpp and reports the key where it stands.
    const std::string file = "scenarios/fixtures/broken/unknown_machine_param.yaml";
    REQUIRE(parse_flat_map("# Defect: a parameter the model does not declare.\nschema_version: 1\n"
                           "model: loggp_smp\ncpu_speed: 1Gflops\nlatncy: 1us\n")
                .has_value());
    CHECK_THROWS_WITH_AS(augur::scenarios::load_machine_file(file, registry),
                         doctest::Contains("unknown_machine_param.yaml:5:1: error: unknown key 'latncy'"),
                         augur::scenarios::ConfigError);
    CHECK_FALSE(augur::scenarios::detail::PrecisePositions::active());
  }
}
