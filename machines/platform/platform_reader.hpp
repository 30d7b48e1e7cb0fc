// Private to machines/platform: the reader of a platform file's elements (platform_reader.cpp,
// <cluster> in platform_cluster.cpp).
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

#include "machines/platform/platform_error.hpp"
#include "machines/platform/platform_model.hpp"
#include "machines/platform/sg_units.hpp"
#include "machines/platform/xml_tree.hpp"

namespace augur::machines::platform::detail {

/// Reads the elements into `model` and the hosts and config of `out`.
class Reader {
 public:
  Reader(Model& model, Platform& out) : m_(model), out_(out) {}

  void platform(const XmlElement& root);
  [[noreturn]] void fail(const XmlElement& e, const std::string& message) const {
    throw PlatformError(m_.file, e.line, message);
  }
  const std::string& require(const XmlElement& e, const char* key) const;
  void allow(const XmlElement& e, std::initializer_list<std::string_view> allowed) const;
  double value(const XmlElement& e, const char* key, SgUnit unit, const char* fallback) const;
  /// The `core` attribute (1 when absent), a positive count.
  int core_count(const XmlElement& e) const;
  network::Sharing sharing(const XmlElement& e, const char* key, network::Sharing fallback) const;
  int add_node(Node node, const XmlElement& e);
  int add_link(const std::string& name, network::Link link, const XmlElement& e);
  int add_zone(const XmlElement& e, const std::string& id, Routing routing, int parent);
  int add_host(const XmlElement& e, const std::string& name, double speed, int cores, int zone);
  void no_children(const XmlElement& e, std::string_view allowed = "prop") const;
  Model& model() { return m_; }
  Platform& out() { return out_; }

 private:
  void zone(const XmlElement& e, int parent);
  void cluster(const XmlElement& e, int parent);  // platform_cluster.cpp
  void zone_child(const XmlElement& e, int zone);
  void host(const XmlElement& e, int zone);
  void link(const XmlElement& e);
  void route(const XmlElement& e, int zone, bool between_zones);
  network::Route link_list(const XmlElement& e);
  /// The link named `id` (a SPLITDUPLEX link's half as ID_UP / ID_DOWN or by `direction`).
  network::Hop link_ref(const XmlElement& e, std::string id, std::string direction);
  void host_link(const XmlElement& e, int zone);
  void bypass_route(const XmlElement& e, int zone);
  void config(const XmlElement& e);
  int member(const XmlElement& e, const char* key, int zone, Node::Kind kind);
  int descendant(const XmlElement& e, const char* key, int zone);

  Model& m_;
  Platform& out_;
};

}  // namespace augur::machines::platform::detail
