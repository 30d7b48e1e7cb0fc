// Machine-model parameters: the declaration next to each model (name, unit kind, default, doc)
// and the validated values of one machine (spec section 7; design example 2).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "machines/roofline/roofline.hpp"
#include "machines/units.hpp"
#include "support/edit_distance.hpp"

namespace augur::machines {

/// Declaration of one parameter of a machine model.
struct ParamSpec {
  std::string name;  ///< snake_case YAML key ("latency")
  UnitKind kind = UnitKind::real;
  std::string default_value;         ///< as the user would write it ("1us", "[]", "block")
  std::string doc;                   ///< one line
  std::vector<std::string> choices;  ///< for UnitKind::choice
};

/// A parameter error: unknown name, bad value. The message is complete except for the location.
class ParamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Value of one parameter, in SI units.
struct ParamValue {
  double number = 0;         ///< time, bandwidth, bytes, flop_rate, count, real, boolean (0/1)
  std::vector<double> list;  ///< int_list, real_list
  std::string text;          ///< choice; also the text as written, for reports
};

/// The validated parameter values of one machine: every declared parameter has a value
/// (its default unless set).
class ParamSet {
 public:
  ParamSet() = default;
  /// All parameters of `specs` at their defaults.
  explicit ParamSet(const std::vector<ParamSpec>& specs);
  /// All parameters of `specs` at their defaults; errors name the machine model `model_name`.
  ParamSet(const std::vector<ParamSpec>& specs, std::string model_name);
  /// The machine model the parameters belong to ("" when not given), for error messages.
  const std::string& model_name() const { return model_name_; }

  /// Sets `name` from `text` (parsed by the declared kind). Throws ParamError: unknown name
  /// (with "did you mean"), or a bad value (with the accepted suffixes).
  void set(std::string_view name, std::string_view text);
  /// Sets a list parameter from already split items.
  void set_list(std::string_view name, const std::vector<std::string>& items);
  /// True when `name` is declared.
  bool has(std::string_view name) const;
  /// The declaration of `name`, or nullptr.
  const ParamSpec* spec(std::string_view name) const;

  double number(std::string_view name) const;
  std::int64_t integer(std::string_view name) const { return static_cast<std::int64_t>(number(name)); }
  bool flag(std::string_view name) const { return number(name) != 0; }
  const std::vector<double>& list(std::string_view name) const;
  const std::string& text(std::string_view name) const;

  /// Every parameter name with its value as text, sorted by name (for reports and JSON).
  std::vector<std::pair<std::string, std::string>> describe() const;
  /// Names of the declared parameters.
  std::vector<std::string> names() const;

  /// The roofline node of the machine (`node:` of a machine file), if it declares one.
  const std::optional<NodeSpec>& node() const { return node_; }
  /// Declares the node (validated: NodeSpecError). With a node the set gains the parameter
  /// `memory_level` (a level name; its default is the last level); without one, `memory_level`
  /// is an unknown parameter. Both appear in describe() only when a node is declared, so the
  /// reports of machines without one are unchanged.
  void set_node(NodeSpec node);
  /// Index in node()->levels of the chosen memory level (`memory_level`); 0 without a node.
  std::size_t memory_level() const { return memory_level_; }

 private:
  const ParamValue& value(std::string_view name) const;
  ParamValue parse_value(const ParamSpec& spec, std::string_view text) const;
  [[noreturn]] void unknown_name(std::string_view name) const;
  std::vector<ParamSpec> specs_;
  std::string model_name_;
  std::map<std::string, ParamValue, std::less<>> values_;
  std::optional<NodeSpec> node_;
  std::size_t memory_level_ = 0;
};

/// The name of the node-level pseudo-parameter (ParamSet::set_node).
inline constexpr std::string_view kMemoryLevelParam = "memory_level";

}  // namespace augur::machines
