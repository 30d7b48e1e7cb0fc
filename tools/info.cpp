// `augur info machines [NAME]`: the ready machines of the library and the machine models.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "scenarios/config_error.hpp"
#include "scenarios/scenario.hpp"
#include "tools/help.hpp"

namespace augur::tools {
namespace {

/// The names of the library's machines (machines/library/*.yaml), sorted.
std::vector<std::string> library_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(scenarios::machine_library_dir(), ec)) {
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// `line` cut to 100 columns with "..." (UTF-8 sequences kept whole), and a newline: one line
/// per machine; `augur info machines NAME` has the whole description.
std::string one_line(std::string line) {
  constexpr std::size_t columns = 100;
  if (line.size() > columns) {
    std::size_t at = columns - 3;
    while (at > 0 && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80) --at;
    line = line.substr(0, at) + "...";
  }
  return line + "\n";
}

/// One model with its parameters: kind, default and doc in aligned columns; a default longer than
/// the default column goes on a line of its own below the parameter, so the docs stay aligned.
void model_details(std::ostream& out, const machines::MachineModelInfo& m) {
  out << fmt::format("{}\n  {}\n  parameters:\n", m.name, m.description);
  constexpr std::size_t default_width = 10;
  std::size_t name_width = 22, kind_width = 10;
  for (const auto& p : m.params) {
    name_width = std::max(name_width, p.name.size());
    kind_width = std::max(kind_width, machines::to_string(p.kind).size());
  }
  for (const auto& p : m.params) {
    const std::string def = p.default_value.empty() ? "-" : p.default_value;
    const bool long_default = def.size() > default_width;
    out << fmt::format("    {:<{}} {:<{}} default {:<{}} {}\n", p.name, name_width, machines::to_string(p.kind),
                       kind_width, long_default ? "(below)" : def, default_width, p.doc);
    if (long_default) out << fmt::format("    {:<{}} default: {}\n", "", name_width, def);
    if (!p.choices.empty()) {
      std::string c;
      for (const auto& x : p.choices) c += (c.empty() ? "" : ", ") + x;
      out << fmt::format("    {:<{}} one of: {}\n", "", name_width, c);
    }
  }
}

/// One library machine: its model, description, file and every parameter's value.
void library_details(std::ostream& out, const scenarios::MachineDescription& m) {
  out << fmt::format("{} (model {}; augur info machines {} documents its parameters)\n", m.name, m.model, m.model);
  if (!m.description.empty()) out << "  " << m.description << "\n";
  out << "  file: " << m.source << "\n  parameters:\n";
  std::size_t width = 0;
  const auto params = m.params.describe();
  for (const auto& [k, v] : params) width = std::max(width, k.size());
  for (const auto& [k, v] : params) out << fmt::format("    {:<{}} {}\n", k, width, v);
}

}  // namespace

void info_machines(std::ostream& out, const machines::MachineRegistry& registry, const std::string& name) {
  const std::vector<std::string> library = library_names();
  if (name.empty()) {
    out << "ready machines (machines/library; --machine NAME, augur info machines NAME):\n";
    for (const std::string& n : library) {
      const scenarios::MachineDescription m = scenarios::resolve_machine(n, registry);
      out << one_line(fmt::format("  {:<26} {:<16} {}", n, m.model, m.description));
    }
    out << "machine models (model: in a machine file; augur info machines MODEL):\n";
    for (const auto& m : registry.all()) out << one_line(fmt::format("  {:<26} {}", m.name, m.description));
    return;
  }
  if (std::find(library.begin(), library.end(), name) != library.end()) {
    library_details(out, scenarios::resolve_machine(name, registry));
    return;
  }
  for (const auto& m : registry.all()) {
    if (m.name == name) {
      model_details(out, m);
      return;
    }
  }
  std::vector<std::string> all = library;
  for (const auto& m : registry.all()) all.push_back(m.name);
  throw std::runtime_error(fmt::format("augur: error: unknown machine '{}'{} (augur info machines lists them)", name,
                                       support::did_you_mean(name, all)));
}

}  // namespace augur::tools
