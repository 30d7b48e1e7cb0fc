// The one edit distance of the code base and the "did you mean" built on it.
#include <doctest/doctest.h>

#include "support/edit_distance.hpp"

#include <string>
#include <vector>

using augur::support::did_you_mean;
using augur::support::edit_distance;
using augur::support::nearest_name;

TEST_CASE("edit_distance counts insertions - deletions - substitutions and adjacent transpositions") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("", "run") == 3);
  CHECK(edit_distance("run", "run") == 0);
  CHECK(edit_distance("latncy", "latency") == 1);  // an insertion
  CHECK(edit_distance("rnu", "run") == 1);         // a transposition
  CHECK(edit_distance("sned", "send") == 1);
  CHECK(edit_distance("kitten", "sitting") == 3);  // two substitutions and an insertion
  CHECK(edit_distance("ca", "abc") == 3);          // optimal string alignment: not 2
}

TEST_CASE("nearest_name accepts small edit distances only") {
  const std::vector<std::string> names{"latency", "bandwidth", "gap", "processes_per_node"};
  CHECK(nearest_name("latncy", names) == "latency");      // one deletion
  CHECK(nearest_name("bandwdth", names) == "bandwidth");  // one deletion
  CHECK(nearest_name("bnadwdth", names) == "bandwidth");  // a transposition and a deletion: 2
  CHECK(nearest_name("bnadwdh", names).empty());          // distance 3 > max(2, 7/3 = 2)

  CHECK(nearest_name("gpa", names) == "gap");                             // a transposition
  CHECK(nearest_name("prcesses_pr_nde", names) == "processes_per_node");  // 3 <= 15/3 = 5
  CHECK(nearest_name("colour", names).empty());
}

TEST_CASE("nearest_name falls back to the one candidate a word of three letters or more starts") {
  const std::vector<std::string> models{"bus", "loggp_smp", "transputer_grid", "dvm_cluster"};
  CHECK(nearest_name("loggp", models) == "loggp_smp");  // distance 4 > max(2, 5/3): the prefix
  CHECK(nearest_name("lo", models).empty());            // too short for the prefix rule
  const std::vector<std::string> two{"transfer", "transputer"};
  CHECK(nearest_name("transp", two) == "transputer");
  CHECK(nearest_name("trans", {"transfer_a", "transfer_b"}).empty());  // starts two: no guess
}

TEST_CASE("did_you_mean words the nearest name as a sentence tail - or nothing") {
  const std::vector<std::string> commands{"run", "step", "check", "info", "predict"};
  CHECK(did_you_mean("rnu", commands) == "; did you mean 'run'?");
  CHECK(did_you_mean("zzzzzz", commands).empty());
}
