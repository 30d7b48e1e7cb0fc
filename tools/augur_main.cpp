// Entry point of the `augur` executable.
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "engine/output_file.hpp"
#include "tools/cli.hpp"

int main(int argc, char** argv) {
  augur::engine::remove_temporaries_on_signal();  // Ctrl-C leaves no partial output files
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    return augur::tools::run_cli(args, std::cin, std::cout, std::cerr);
  } catch (const std::bad_alloc&) {
    std::cerr << "augur: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "augur: error: " << e.what() << "\n";
  }
  return augur::tools::exit_bad_input;
}
