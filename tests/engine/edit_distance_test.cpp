// The one edit distance of the code base.
#include <doctest/doctest.h>

#include "engine/edit_distance.hpp"

using augur::engine::edit_distance;

TEST_CASE("edit_distance counts insertions, deletions, substitutions and adjacent transpositions") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("", "run") == 3);
  CHECK(edit_distance("run", "run") == 0);
  CHECK(edit_distance("latncy", "latency") == 1);  // an insertion
  CHECK(edit_distance("rnu", "run") == 1);         // a transposition
  CHECK(edit_distance("sned", "send") == 1);
  CHECK(edit_distance("kitten", "sitting") == 3);  // two substitutions and an insertion
  CHECK(edit_distance("ca", "abc") == 3);          // optimal string alignment: not 2
}
