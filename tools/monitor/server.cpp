// The monitor's HTTP and WebSocket sessions on one io_context thread (Boost.Beast). The run's
// thread hands messages over with net::post; commands come back through a locked queue.
#include "tools/monitor/server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include "tools/monitor/page.hpp"

namespace augur::tools::monitor {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

/// 128 random bits as 32 hexadecimal digits.
std::string random_token() {
  std::random_device device;
  std::string token;
  for (int i = 0; i < 4; ++i) token += fmt::format("{:08x}", device());
  return token;
}

/// The value of `key` in the query of `target` ("/ws?token=abc" → "abc"), or nothing.
std::optional<std::string_view> query_value(std::string_view target, std::string_view key) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (pair.size() > key.size() && pair.substr(0, key.size()) == key && pair[key.size()] == '=')
      return pair.substr(key.size() + 1);
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

/// Equality in a time independent of where the texts differ (the token is a secret).
bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::optional<Endpoint> parse_endpoint(std::string_view text) {
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  Endpoint e;
  e.address = std::string(text.substr(0, colon));
  if (e.address == "localhost") e.address = "127.0.0.1";
  const std::string_view port = text.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  const unsigned long n = std::stoul(std::string(port));
  if (n > 65535) return std::nullopt;
  e.port = static_cast<std::uint16_t>(n);
  boost::system::error_code ec;
  const auto address = net::ip::make_address_v4(e.address, ec);
  if (ec) return std::nullopt;
  e.address = address.to_string();
  return e;
}

int request_status(std::string_view target, std::string_view host, std::string_view origin, std::string_view token,
                   std::uint16_t port, bool loopback) {
  const auto token_given = query_value(target, "token");
  if (!token_given || !same_secret(*token_given, token)) return 403;
  if (loopback && host != fmt::format("127.0.0.1:{}", port) && host != fmt::format("localhost:{}", port)) return 403;
  if (!origin.empty() && origin != fmt::format("http://{}", host)) return 403;
  const std::string_view path = target.substr(0, target.find('?'));
  return path == "/" || path == "/ws" ? 200 : 404;
}

class Server::Impl {
 public:
  class Page;
  class Http;

  explicit Impl(const Endpoint& where) : acceptor_(io_), token_(random_token()) {
    boost::system::error_code ec;
    const auto address = net::ip::make_address_v4(where.address, ec);
    if (ec) throw std::runtime_error(fmt::format("--monitor: '{}' is not an IPv4 address", where.address));
    loopback_ = address.is_loopback();
    const tcp::endpoint endpoint(address, where.port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
      throw std::runtime_error(
          fmt::format("--monitor: cannot listen on {}:{}: {}", where.address, where.port, ec.message()));
    address_ = where.address;
    port_ = acceptor_.local_endpoint().port();
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~Impl() {
    net::post(io_, [this] {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      pages_.clear();
      io_.stop();
    });
    thread_.join();
  }

  void accept();
  void deliver(std::shared_ptr<const std::string> message, bool state);
  void joined(const std::shared_ptr<Page>& page);
  void left(const std::shared_ptr<Page>& page);
  void command(std::string text) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      commands_.push_back(std::move(text));
      pending_.store(true, std::memory_order_relaxed);
    }
    arrived_.notify_all();
  }

  net::io_context io_;
  tcp::acceptor acceptor_;
  std::string token_;
  std::string address_;
  std::uint16_t port_ = 0;
  bool loopback_ = true;
  std::thread thread_;
  // Owned by the io thread:
  std::set<std::shared_ptr<Page>> pages_;
  std::shared_ptr<const std::string> last_state_;
  // Shared with the run's thread:
  std::atomic<std::size_t> page_count_{0};
  std::atomic<bool> pending_{false};
  std::atomic<bool> attached_{false};
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<std::string> commands_;
};

/// One page's WebSocket: a queue of messages written in order; commands read in a loop.
class Server::Impl::Page : public std::enable_shared_from_this<Page> {
 public:
  Page(tcp::socket&& socket, Impl& hub) : ws_(std::move(socket)), hub_(hub) {}

  void start(http::request<http::string_body> request) {
    request_ = std::move(request);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(4096);
    ws_.text(true);
    ws_.async_accept(request_, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->hub_.joined(self);
      self->read();
    });
  }
  /// Whether every message queued has been written.
  bool idle() const { return queue_.empty(); }
  /// Queues `message`; a state is dropped when the page has not taken the previous ones.
  void send(std::shared_ptr<const std::string> message, bool state) {
    if (state && queue_.size() >= 2) return;
    queue_.push_back(std::move(message));
    if (queue_.size() == 1) write();
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        self->hub_.left(self);
        return;
      }
      self->hub_.command(beast::buffers_to_string(self->buffer_.data()));
      self->buffer_.consume(self->buffer_.size());
      self->read();
    });
  }
  void write() {
    ws_.async_write(net::buffer(*queue_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      self->queue_.pop_front();
      if (ec) {
        self->hub_.left(self);
        return;
      }
      if (!self->queue_.empty()) self->write();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  Impl& hub_;
  http::request<http::string_body> request_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
};

/// One HTTP request: the page, a WebSocket upgrade, or an error status; then the connection closes.
class Server::Impl::Http : public std::enable_shared_from_this<Http> {
 public:
  Http(tcp::socket&& socket, Impl& hub) : stream_(std::move(socket)), hub_(hub) {}

  void start() {
    parser_.header_limit(8192);
    parser_.body_limit(4096);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->answer(ec); });
  }

 private:
  void answer(beast::error_code ec) {
    if (ec) return;
    http::request<http::string_body> request = parser_.release();
    const std::string_view target(request.target().data(), request.target().size());
    const auto header = [&request](http::field f) {
      const auto it = request.find(f);
      return it == request.end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
    };
    const int status = request_status(target, header(http::field::host), header(http::field::origin), hub_.token_,
                                      hub_.port_, hub_.loopback_);
    const bool ws_path = target.substr(0, target.find('?')) == "/ws";
    if (status == 200 && ws_path && websocket::is_upgrade(request)) {
      stream_.expires_never();
      std::make_shared<Page>(stream_.release_socket(), hub_)->start(std::move(request));
      return;
    }
    response_.version(request.version());
    response_.keep_alive(false);
    response_.set(http::field::cache_control, "no-store");
    response_.set(http::field::x_frame_options, "DENY");
    if (status == 200 && !ws_path && request.method() == http::verb::get) {
      response_.result(http::status::ok);
      response_.set(http::field::content_type, "text/html; charset=utf-8");
      response_.body() = page_html();
    } else {
      response_.result(status == 200 ? 400 : status);
      response_.set(http::field::content_type, "text/plain; charset=utf-8");
      response_.body() = status == 403 ? "forbidden: open the URL augur printed (it holds the token)\n"
                                       : (status == 404 ? "not found\n" : "bad request\n");
    }
    response_.prepare_payload();
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code, std::size_t) {
      beast::error_code ignored;
      self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    });
  }

  beast::tcp_stream stream_;
  Impl& hub_;
  beast::flat_buffer buffer_;
  http::request_parser<http::string_body> parser_;
  http::response<http::string_body> response_;
};

void Server::Impl::accept() {
  acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec) return;  // the acceptor closed
    std::make_shared<Http>(std::move(socket), *this)->start();
    accept();
  });
}

void Server::Impl::deliver(std::shared_ptr<const std::string> message, bool state) {
  if (state) last_state_ = message;
  for (const auto& page : pages_) page->send(message, state);
}

void Server::Impl::joined(const std::shared_ptr<Page>& page) {
  pages_.insert(page);
  page_count_.store(pages_.size());
  if (last_state_) page->send(last_state_, true);
}

void Server::Impl::left(const std::shared_ptr<Page>& page) {
  pages_.erase(page);
  page_count_.store(pages_.size());
}

Server::Server(const Endpoint& where) : impl_(std::make_unique<Impl>(where)) {}
Server::~Server() = default;

std::string Server::url() const {
  return fmt::format("http://{}:{}/?token={}", impl_->address_, impl_->port_, impl_->token_);
}
std::uint16_t Server::port() const { return impl_->port_; }
const std::string& Server::token() const { return impl_->token_; }

void Server::publish_state(std::string json) {
  net::post(impl_->io_,
            [impl = impl_.get(), m = std::make_shared<const std::string>(std::move(json))] { impl->deliver(m, true); });
}

void Server::send(std::string json) {
  net::post(impl_->io_, [impl = impl_.get(), m = std::make_shared<const std::string>(std::move(json))] {
    impl->deliver(m, false);
  });
}

void Server::flush(std::chrono::milliseconds limit) {
  // Handlers run in the order posted: when a check finds every queue empty, every message given
  // before it has been written.
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    auto idle = std::make_shared<std::promise<bool>>();
    std::future<bool> answer = idle->get_future();
    net::post(impl_->io_, [impl = impl_.get(), idle] {
      bool all = true;
      for (const auto& page : impl->pages_) all = all && page->idle();
      idle->set_value(all);
    });
    if (answer.wait_until(until) != std::future_status::ready || answer.get()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::size_t Server::pages() const { return impl_->page_count_.load(); }

bool Server::has_command() const { return impl_->pending_.load(std::memory_order_relaxed); }

std::optional<std::string> Server::next_command(std::chrono::milliseconds limit) {
  std::unique_lock<std::mutex> lock(impl_->mutex_);
  if (!impl_->arrived_.wait_for(lock, limit, [this] { return !impl_->commands_.empty(); })) return std::nullopt;
  std::string text = std::move(impl_->commands_.front());
  impl_->commands_.pop_front();
  impl_->pending_.store(!impl_->commands_.empty(), std::memory_order_relaxed);
  return text;
}

bool Server::attach() { return !impl_->attached_.exchange(true); }
void Server::detach() { impl_->attached_.store(false); }

}  // namespace augur::tools::monitor
