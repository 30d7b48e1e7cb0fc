// Validated machine parameters: defaults from the declarations, values parsed by unit kind,
// unknown names and choices answered with a "did you mean" (design example 2).
#include "machines/param.hpp"

#include <algorithm>
#include <cmath>

#include "support/edit_distance.hpp"
#include "support/strings.hpp"
#include "machines/dvm_cluster/cluster_tree.hpp"

namespace augur::machines {
namespace {

bool is_list(UnitKind kind) { return kind == UnitKind::int_list || kind == UnitKind::real_list; }

/// Splits "[4, 4]", "4x4", "4" or "[]" into items; false when the brackets do not match.
bool split_list(std::string_view text, std::vector<std::string>& items) {
  std::string_view body = support::trim(text);
  const bool opens = !body.empty() && body.front() == '[';
  const bool closes = !body.empty() && body.back() == ']';
  char separator = ',';
  if (opens || closes) {
    if (!opens || !closes || body.size() < 2) return false;
    body = support::trim(body.substr(1, body.size() - 2));
  } else if (body.find(',') == std::string_view::npos) {
    separator = 'x';  // the "4x4" shape notation; a single "4" is a one-item list
  }
  if (body.empty()) return true;
  while (true) {
    const auto cut = body.find(separator);
    items.emplace_back(support::trim(body.substr(0, cut)));
    if (cut == std::string_view::npos) break;
    body = body.substr(cut + 1);
  }
  return true;
}

std::string format_list(const std::vector<double>& list, UnitKind item_kind) {
  std::string text = "[";
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i > 0) text += ", ";
    text += format_quantity(list[i], item_kind);
  }
  return text + "]";
}

}  // namespace

ParamSet::ParamSet(const std::vector<ParamSpec>& specs) : ParamSet(specs, std::string{}) {}

ParamSet::ParamSet(const std::vector<ParamSpec>& specs, std::string model_name)
    : specs_(specs), model_name_(std::move(model_name)) {
  for (const auto& spec : specs_) values_[spec.name] = parse_value(spec, spec.default_value);
}

void ParamSet::unknown_name(std::string_view name) const {
  std::string message = "unknown parameter '" + std::string(name) + "'";
  if (!model_name_.empty()) message += " of machine model '" + model_name_ + "'";
  if (name == kMemoryLevelParam)
    throw ParamError(message + ": the machine declares no node (a `node:` map with memory levels)");
  const auto valid = names();
  const std::string suggestion = support::nearest_name(name, valid);
  if (!suggestion.empty())
    message += "; did you mean '" + suggestion + "'?";
  else
    message += "; valid parameters are: " + support::join(valid);
  throw ParamError(message);
}

ParamValue ParamSet::parse_value(const ParamSpec& spec, std::string_view text) const {
  ParamValue value;
  value.text = std::string(support::trim(text));
  const std::string prefix = "parameter '" + spec.name + "': ";
  if (spec.kind == UnitKind::choice) {
    if (std::find(spec.choices.begin(), spec.choices.end(), value.text) != spec.choices.end()) return value;
    std::string message = prefix + "invalid value '" + value.text + "'";
    const std::string suggestion = support::nearest_name(value.text, spec.choices);
    message += suggestion.empty() ? "." : "; did you mean '" + suggestion + "'?";
    throw ParamError(message + " Valid values are: " + support::join(spec.choices));
  }
  if (spec.kind == UnitKind::path) return value;  // a file name: checked by whoever opens it
  if (spec.kind == UnitKind::cluster_tree) {
    // Validated here, at load time; the text kept is the canonical one (one line).
    try {
      value.text = format_cluster_tree(parse_cluster_tree(text));
    } catch (const ParamError& error) {
      throw ParamError(prefix + error.what());
    }
    return value;
  }
  if (spec.kind == UnitKind::size_table) {
    // "size:factor;size:factor;…" → list [size, factor, size, factor, …] by decreasing size.
    std::vector<std::pair<double, double>> rows;
    std::string_view rest = support::trim(text);
    while (!rest.empty()) {
      const auto semi = rest.find(';');
      const std::string_view item = support::trim(rest.substr(0, semi));
      rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
      if (item.empty()) continue;
      const auto colon = item.find(':');
      try {
        if (colon == std::string_view::npos) throw UnitError("");
        rows.emplace_back(parse_quantity(item.substr(0, colon), UnitKind::count),
                          parse_quantity(item.substr(colon + 1), UnitKind::real));
      } catch (const UnitError&) {
        throw ParamError(prefix + "invalid entry '" + std::string(item) +
                         "': expected size:factor items separated by ';', e.g. 65472:0.94;0:0.81");
      }
    }
    for (const auto& row : rows) {
      // A factor scales a latency or divides a bandwidth: zero or negative has no meaning there
      // (a message would cost nothing, or forever).
      if (!(row.second > 0))
        throw ParamError(prefix + "invalid factor '" + format_quantity(row.second, UnitKind::real) +
                         "': a factor must be positive");
    }
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [size, factor] : rows) {
      value.list.push_back(size);
      value.list.push_back(factor);
    }
    return value;
  }
  if (is_list(spec.kind)) {
    std::vector<std::string> items;
    if (!split_list(text, items))
      throw ParamError(prefix + "invalid list '" + value.text +
                       "': expected items in brackets, e.g. [4, 4], or a shape like 4x4");
    const UnitKind item_kind = spec.kind == UnitKind::int_list ? UnitKind::count : UnitKind::real;
    for (std::size_t i = 0; i < items.size(); ++i) {
      try {
        value.list.push_back(parse_quantity(items[i], item_kind));
      } catch (const UnitError& error) {
        throw ParamError(prefix + "item " + std::to_string(i + 1) + " of '" + value.text + "': " + error.what());
      }
    }
    return value;
  }
  try {
    value.number = parse_quantity(text, spec.kind);
  } catch (const UnitError& error) {
    throw ParamError(prefix + error.what());
  }
  return value;
}

void ParamSet::set_node(NodeSpec node) {
  validate(node);
  node_ = std::move(node);
  memory_level_ = node_->levels.size() - 1;
}

void ParamSet::set(std::string_view name, std::string_view text) {
  if (name == kMemoryLevelParam && node_) {
    try {
      memory_level_ = level_index(*node_, support::trim(text));
    } catch (const NodeSpecError& error) {
      throw ParamError("parameter 'memory_level': " + std::string(error.what()));
    }
    return;
  }
  const ParamSpec* declared = spec(name);
  if (declared == nullptr) unknown_name(name);
  values_.find(name)->second = parse_value(*declared, text);
}

void ParamSet::set_list(std::string_view name, const std::vector<std::string>& items) {
  const ParamSpec* declared = spec(name);
  if (declared == nullptr) unknown_name(name);
  if (!is_list(declared->kind))
    throw ParamError("parameter '" + declared->name + "': expected a single " + std::string(to_string(declared->kind)) +
                     ", not a list");
  for (const auto& item : items)
    if (item.find_first_of(",[]") != std::string::npos)
      throw ParamError("parameter '" + declared->name + "': invalid list item '" + item + "'");
  set(name, "[" + support::join(items) + "]");
}

bool ParamSet::has(std::string_view name) const {
  return spec(name) != nullptr || (name == kMemoryLevelParam && node_);
}

const ParamSpec* ParamSet::spec(std::string_view name) const {
  for (const auto& declared : specs_)
    if (declared.name == name) return &declared;
  return nullptr;
}

const ParamValue& ParamSet::value(std::string_view name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) unknown_name(name);
  return found->second;
}

double ParamSet::number(std::string_view name) const { return value(name).number; }

const std::vector<double>& ParamSet::list(std::string_view name) const { return value(name).list; }

const std::string& ParamSet::text(std::string_view name) const { return value(name).text; }

std::vector<std::pair<std::string, std::string>> ParamSet::describe() const {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const auto& [name, stored] : values_) {  // std::map: already sorted by name
    const ParamSpec& declared = *spec(name);
    std::string text;
    switch (declared.kind) {
      case UnitKind::choice:
      case UnitKind::size_table:
      case UnitKind::cluster_tree:
      case UnitKind::path:
        text = stored.text;
        break;
      case UnitKind::int_list:
        text = format_list(stored.list, UnitKind::count);
        break;
      case UnitKind::real_list:
        text = format_list(stored.list, UnitKind::real);
        break;
      default:
        text = format_quantity(stored.number, declared.kind);
        break;
    }
    lines.emplace_back(name, std::move(text));
  }
  if (node_) {
    lines.emplace_back(std::string(kMemoryLevelParam), node_->levels[memory_level_].name);
    lines.emplace_back("node", format_node(*node_));
    std::sort(lines.begin(), lines.end());
  }
  return lines;
}

std::vector<std::string> ParamSet::names() const {
  std::vector<std::string> sorted;
  sorted.reserve(specs_.size());
  for (const auto& declared : specs_) sorted.push_back(declared.name);
  if (node_) sorted.emplace_back(kMemoryLevelParam);
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

}  // namespace augur::machines
