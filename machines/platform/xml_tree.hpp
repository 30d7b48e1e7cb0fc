// A SimGrid platform file as a tree of elements (expat underneath): names, attributes in file
// order and the line of every element, so that later checks can point at it.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace augur::machines::platform {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  int line = 0;
  std::vector<XmlElement> children;

  /// The value of attribute `key`, or nullptr.
  const std::string* find(std::string_view key) const;
};

/// Parses `text` (the content of `file`) and returns the root element. Malformed XML throws
/// PlatformError at expat's line ("not well-formed (invalid token)").
XmlElement parse_xml(const std::string& text, const std::string& file);

}  // namespace augur::machines::platform
