// The string helpers: trim and join.
#include "support/strings.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using augur::support::join;
using augur::support::trim;

TEST_CASE("trim removes spaces tabs carriage returns and newlines at both ends only") {
  CHECK(trim("") == "");
  CHECK(trim(" \t\r\n") == "");
  CHECK(trim("a") == "a");
  CHECK(trim("  4 x 4\t") == "4 x 4");
  CHECK(trim("\r\nlatency: 5us \r\n") == "latency: 5us");
  CHECK(trim("a\vb") == "a\vb");  // a vertical tab is not a blank here
}

TEST_CASE("join puts the separator between words only") {
  CHECK(join(std::vector<std::string>{}).empty());
  CHECK(join(std::vector<std::string>{"bus"}) == "bus");
  CHECK(join(std::vector<std::string>{"a", "b", "c"}) == "a, b, c");
  CHECK(join(std::vector<std::string>{"a", "", "c"}, "|") == "a||c");
}
