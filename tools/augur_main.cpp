// Entry point of the `augur` executable.
#include <iostream>
#include <string>
#include <vector>

#include "tools/cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return augur::tools::run_cli(args, std::cin, std::cout, std::cerr);
}
