// The expat callbacks that build an XmlElement tree (see xml_tree.hpp).
#include "machines/platform/xml_tree.hpp"

#include <expat.h>

#include <limits>

#include "machines/platform/platform_error.hpp"

namespace augur::machines::platform {

const std::string* XmlElement::find(std::string_view key) const {
  for (const auto& [attribute, value] : attributes)
    if (attribute == key) return &value;
  return nullptr;
}

namespace {

struct Builder {
  XML_Parser parser = nullptr;
  XmlElement root;
  std::vector<XmlElement*> open;  ///< the path from the root to the element being read
  bool has_root = false;
};

void on_start(void* data, const XML_Char* name, const XML_Char** attributes) {
  auto* b = static_cast<Builder*>(data);
  XmlElement element;
  element.name = name;
  element.line = static_cast<int>(XML_GetCurrentLineNumber(b->parser));
  for (const XML_Char** a = attributes; a[0] != nullptr; a += 2) element.attributes.emplace_back(a[0], a[1]);
  if (b->open.empty()) {
    b->root = std::move(element);
    b->has_root = true;
    b->open.push_back(&b->root);
    return;
  }
  // Children are appended in place: a parent's vector only grows while it is open, and the
  // pointers kept in `open` are those of the ancestors, which do not move.
  auto& siblings = b->open.back()->children;
  siblings.push_back(std::move(element));
  b->open.push_back(&siblings.back());
}

void on_end(void* data, const XML_Char*) { static_cast<Builder*>(data)->open.pop_back(); }

}  // namespace

XmlElement parse_xml(const std::string& text, const std::string& file) {
  Builder b;
  b.parser = XML_ParserCreate(nullptr);
  if (b.parser == nullptr) throw PlatformError(file, 0, "cannot create an XML parser");
  XML_SetUserData(b.parser, &b);
  XML_SetElementHandler(b.parser, on_start, on_end);
  if (text.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    XML_ParserFree(b.parser);
    throw PlatformError(file, 0, "file too large for a platform");
  }
  const auto status = XML_Parse(b.parser, text.data(), static_cast<int>(text.size()), 1);
  if (status != XML_STATUS_OK) {
    const int line = static_cast<int>(XML_GetCurrentLineNumber(b.parser));
    const std::string message = std::string("malformed XML: ") + XML_ErrorString(XML_GetErrorCode(b.parser));
    XML_ParserFree(b.parser);
    throw PlatformError(file, line, message);
  }
  XML_ParserFree(b.parser);
  if (!b.has_root) throw PlatformError(file, 1, "malformed XML: no element");
  return std::move(b.root);
}

}  // namespace augur::machines::platform
