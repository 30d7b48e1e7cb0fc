// `augur convert FORMAT:PATH OUT_DIR`: a message-passing trace (OTF2, TI, synthetic) written as a
// SimGrid TI trace (traces/ti/ti_writer.hpp) that SimGrid's smpirun -replay and augur both read.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>
#include <stdexcept>
#include <string>

#include "tools/cli.hpp"
#include "tools/cli_options.hpp"
#include "traces/ti/ti_writer.hpp"
#include "traces/trace_format.hpp"

namespace augur::tools {

int convert_command(const CommandLine& cl, std::ostream& out, std::ostream& err) {
  if (cl.positional.size() != 2) {
    err << "augur: error: convert needs a trace and an output folder: augur convert FORMAT:PATH OUT_DIR\n";
    return exit_bad_input;
  }
  const std::string& spec = cl.positional[0];
  const auto colon = spec.find(':');
  const traces::TraceFormat* format =
      colon == std::string::npos ? nullptr : traces::find_trace_format(std::string_view(spec).substr(0, colon));
  if (format == nullptr || colon + 1 == spec.size()) {
    err << "augur: error: convert: '" << spec << "': expected FORMAT:PATH, FORMAT one of "
        << fmt::format("{}", fmt::join(traces::trace_format_names(), ", ")) << "\n";
    return exit_bad_input;
  }
  const std::string path = spec.substr(colon + 1);
  const traces::TraceFormat& known = *format;
  if (known.model != traces::ProgramModel::message_passing || known.open == nullptr) {
    err << "augur: error: convert: a " << known.name
        << " trace is no message-passing trace: only ti, otf2 and synthetic traces convert to TI\n";
    return exit_bad_input;
  }
  const auto source = known.open(path);
  const std::string folder = cl.positional[1];
  const std::uint64_t records = traces::ti::write_ti_trace(*source, folder);
  out << fmt::format("{}/trace.txt: {} ranks, {} records (SimGrid TI; replay with --trace ti:{}/trace.txt)\n", folder,
                     source->rank_count(), records, folder);
  return exit_ok;
}

}  // namespace augur::tools
