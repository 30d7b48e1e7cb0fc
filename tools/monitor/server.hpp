// The live monitor's web server (spec section 12, issue 32): one page and one WebSocket over
// HTTP/1.1 (Boost.Beast), on a thread of its own. Every request and the WebSocket need the random
// token of the printed URL; requests from another origin or naming another host are refused (403).
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace augur::tools::monitor {

/// Where the server listens: an IPv4 address and a port (0: a free one, picked when binding).
struct Endpoint {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;
};

/// "ADDRESS:PORT" with ADDRESS dotted IPv4 or `localhost` and PORT 0 to 65535, or nothing.
std::optional<Endpoint> parse_endpoint(std::string_view text);

/// The HTTP status a request gets before anything else: 403 without the right `token=` in its
/// query, with a Host other than the bound one (loopback: 127.0.0.1 or localhost with the port)
/// or with an Origin other than `http://` and its Host; 404 for a path other than `/` and `/ws`;
/// else 200. `loopback`: the server listens on a loopback address.
int request_status(std::string_view target, std::string_view host, std::string_view origin, std::string_view token,
                   std::uint16_t port, bool loopback);

/// The server. Construction binds and starts serving (throws std::runtime_error when the address
/// cannot be bound); destruction closes every connection and joins the thread. The methods are
/// safe to call from any thread.
class Server {
 public:
  explicit Server(const Endpoint& where);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// The page's address with the token: http://127.0.0.1:PORT/?token=...
  std::string url() const;
  std::uint16_t port() const;
  const std::string& token() const;

  /// The run's latest state (a JSON text): sent to every page now and to pages that connect later.
  /// A page that has not taken the previous states yet misses this one (states are snapshots).
  void publish_state(std::string json);
  /// A reply (a JSON text) sent to every page, never dropped.
  void send(std::string json);
  /// Waits until every message given so far has been written to the pages connected, at most `limit`.
  void flush(std::chrono::milliseconds limit);
  /// Pages connected now.
  std::size_t pages() const;

  /// Whether a page sent a command not taken yet (cheap: one relaxed load).
  bool has_command() const;
  /// The oldest command not taken yet, waiting for one at most `limit`; nothing when none came.
  std::optional<std::string> next_command(std::chrono::milliseconds limit);

  /// One run at a time is watched: true when the caller may attach (then detach() when done).
  bool attach();
  void detach();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace augur::tools::monitor
