// A small HTTP and WebSocket client for the tests (Boost.Beast, blocking, IPv4 loopback):
// the monitor's server tests and the DevTools protocol of the browser test.
#pragma once
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <cstdint>
#include <string>

namespace augur::test {

namespace web {
namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
}  // namespace web

/// What a GET gave.
struct HttpReply {
  int status = 0;
  std::string body;
};

/// GET `target` from 127.0.0.1:`port` with the given Host (empty: 127.0.0.1:PORT) and Origin
/// (empty: none) headers.
inline HttpReply http_get(std::uint16_t port, const std::string& target, const std::string& origin = "",
                          const std::string& host = "") {
  web::net::io_context io;
  web::beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(20));
  stream.connect(web::tcp::endpoint(web::net::ip::make_address_v4("127.0.0.1"), port));
  web::http::request<web::http::empty_body> request(web::http::verb::get, target, 11);
  request.set(web::http::field::host, host.empty() ? "127.0.0.1:" + std::to_string(port) : host);
  if (!origin.empty()) request.set(web::http::field::origin, origin);
  web::http::write(stream, request);
  web::beast::flat_buffer buffer;
  web::http::response<web::http::string_body> response;
  web::http::read(stream, buffer, response);
  web::beast::error_code ignored;
  stream.socket().shutdown(web::tcp::socket::shutdown_both, ignored);
  return {static_cast<int>(response.result_int()), response.body()};
}

/// A WebSocket client; the constructor does the handshake and throws boost::system::system_error
/// when it is refused.
class WsClient {
 public:
  WsClient(std::uint16_t port, const std::string& target, const std::string& origin = "") : ws_(io_) {
    web::beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(20));
    web::beast::get_lowest_layer(ws_).connect(web::tcp::endpoint(web::net::ip::make_address_v4("127.0.0.1"), port));
    if (!origin.empty()) {
      ws_.set_option(web::beast::websocket::stream_base::decorator(
          [origin](web::beast::websocket::request_type& r) { r.set(web::http::field::origin, origin); }));
    }
    ws_.handshake(response_, "127.0.0.1:" + std::to_string(port), target);
    web::beast::get_lowest_layer(ws_).expires_never();
    ws_.read_message_max(64 << 20);
  }
  ~WsClient() {
    web::beast::error_code ignored;
    web::beast::get_lowest_layer(ws_).socket().close(ignored);
  }
  void send(const std::string& text) {
    ws_.text(true);
    ws_.write(web::net::buffer(text));
  }
  /// The next message; throws when none comes within `limit` or the connection closed.
  std::string read(std::chrono::seconds limit = std::chrono::seconds(60)) {
    web::beast::get_lowest_layer(ws_).expires_after(limit);
    web::beast::flat_buffer buffer;
    ws_.read(buffer);
    web::beast::get_lowest_layer(ws_).expires_never();
    return web::beast::buffers_to_string(buffer.data());
  }

 private:
  web::net::io_context io_;
  web::beast::websocket::stream<web::beast::tcp_stream> ws_;
  web::beast::websocket::response_type response_;
};

}  // namespace augur::test
