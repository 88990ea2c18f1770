// Listener and HTTP sessions (Beast). One of the two translation units
// that include Beast; the other is websocket_session.cpp.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <sys/socket.h>

#include <cerrno>
#include <fstream>
#include <optional>

#include "net/http_routes.h"
#include "net/server.h"
#include "net/websocket_session.h"

namespace voxl::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kReadTimeout = std::chrono::seconds(30);
constexpr auto kHandshakeTimeout = std::chrono::seconds(15);
// A recording of many minutes takes a while to send on a slow link.
constexpr auto kWriteTimeout = std::chrono::minutes(10);
constexpr size_t kHeaderLimit = 16 * 1024;
constexpr size_t kBodyLimit = 64 * 1024;  // POST /input: a few hundred actions or pages of text

bool ignorable(const beast::error_code& ec) {
  return ec == asio::error::operation_aborted || ec == asio::error::eof ||
         ec == http::error::end_of_stream || ec == beast::error::timeout ||
         ec == asio::error::connection_reset || ec == ssl::error::stream_truncated;
}

template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  HttpSession(Stream&& stream, SessionContext& ctx) : stream_(std::move(stream)), ctx_(ctx) {}

  void run() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    beast::get_lowest_layer(stream_).expires_after(kReadTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream) return close();
    if (ec) {
      if (ignorable(ec)) return;
      // Malformed or oversized request: say so once, then hang up.
      return write(bad_request_response(ec.message()));
    }
    Request req = parser_->release();
    beast::error_code peer_ec;
    const auto peer = beast::get_lowest_layer(stream_).socket().remote_endpoint(peer_ec).address();
    Routed r = route_request(req, ctx_, peer_ec ? std::string() : peer.to_string());
    if (r.upgrade) {
      beast::get_lowest_layer(stream_).expires_never();
      start_viewer_session(std::move(stream_), std::move(req), r.role, ctx_);
      return;
    }
    if (r.endpoint) return call_endpoint(*r.endpoint, r.call, req);
    if (r.close) r.response.keep_alive(false);
    write(std::move(r.response));
  }

  // The handler may answer long after this returns (/wait, /record): until
  // then the session reads nothing and watches the socket, so a client that
  // hangs up cancels the handler instead of leaving it running for nobody.
  void call_endpoint(const Endpoint& e, const EndpointRequest& call, const Request& req) {
    const unsigned version = req.version();
    const bool keep_alive = req.keep_alive();
    const uint64_t token = ++calls_;
    pending_ = true;
    beast::get_lowest_layer(stream_).expires_never();
    std::weak_ptr<HttpSession> weak = this->shared_from_this();
    CancelFn cancel = e.handle(call, [weak, token, version, keep_alive](EndpointReply reply) {
      const auto self = weak.lock();
      if (!self || !self->pending_ || self->calls_ != token) return;
      self->pending_ = false;
      self->cancel_ = nullptr;
      beast::error_code ignored;
      beast::get_lowest_layer(self->stream_).socket().cancel(ignored);  // the hang-up watch
      self->reply(std::move(reply), version, keep_alive);
    });
    if (pending_) {
      cancel_ = std::move(cancel);
      watch_hang_up(token);
    }
  }

  void watch_hang_up(uint64_t token) {
    auto& sock = beast::get_lowest_layer(stream_).socket();
    sock.async_wait(tcp::socket::wait_read, [self = this->shared_from_this(), token](beast::error_code ec) {
      if (ec || !self->pending_ || self->calls_ != token) return;
      char byte;
      const ssize_t n = ::recv(beast::get_lowest_layer(self->stream_).socket().native_handle(), &byte, 1,
                               MSG_PEEK | MSG_DONTWAIT);
      // Data means a pipelined request: the client is still there, and it
      // is read once this answer is written.
      if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))) return;
      self->hang_up();
    });
  }

  void hang_up() {
    pending_ = false;
    if (auto cancel = std::exchange(cancel_, nullptr)) cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
  }

  template <class Message>
  void decorate(Message& res, EndpointReply& reply, bool keep_alive) {
    res.set(http::field::server, "voxl");
    res.set(http::field::cache_control, "no-store");
    if (!reply.content_type.empty()) res.set(http::field::content_type, reply.content_type);
    for (const auto& [name, value] : reply.headers) res.set(name, value);
    res.keep_alive(keep_alive);
  }

  void reply(EndpointReply reply, unsigned version, bool keep_alive) {
    beast::get_lowest_layer(stream_).expires_after(kWriteTimeout);
    const auto status = http::int_to_status(unsigned(reply.status));
    if (reply.file && reply.file->get() >= 0) {
      http::response<http::file_body> res{status, version};
      decorate(res, reply, keep_alive);
      beast::file f;
      f.native_handle(reply.file->release());  // the body owns it now
      beast::error_code ec;
      res.body().reset(std::move(f), ec);
      if (!ec) {
        res.prepare_payload();
        return write(std::move(res));
      }
      reply = json_error(500, "", "cannot read the recording: " + ec.message());
    }
    http::response<http::string_body> res{status, version};
    decorate(res, reply, keep_alive);
    res.body() = std::move(reply.body);
    res.prepare_payload();
    write(std::move(res));
  }

  template <class Body>
  void write(http::response<Body> res) {
    auto msg = std::make_shared<http::response<Body>>(std::move(res));
    http::async_write(stream_, *msg, [self = this->shared_from_this(), msg](beast::error_code ec, size_t) {
      if (ec) return;
      if (msg->need_eof()) return self->close();
      self->read();
    });
  }

  void close() {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      beast::get_lowest_layer(stream_).expires_after(kHandshakeTimeout);
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
    } else {
      beast::error_code ec;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    }
  }

  Stream stream_;
  SessionContext& ctx_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  bool pending_ = false;  // an endpoint has not answered yet
  uint64_t calls_ = 0;    // numbers endpoint calls, so a stale reply is dropped
  CancelFn cancel_;
};

}  // namespace

struct Server::Impl : std::enable_shared_from_this<Server::Impl> {
  Impl(asio::io_context& context, SessionContext shared) : io(context), acceptor(context), ctx(std::move(shared)) {}

  void accept() {
    acceptor.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket s) {
      if (ec) {
        if (ec != asio::error::operation_aborted) {
          self->ctx.log->warn("accept failed: {}", ec.message());
          self->accept();
        }
        return;
      }
      s.set_option(tcp::no_delay(true));
      if (self->tls) {
        auto stream = std::make_shared<TlsStream>(std::move(s), *self->tls);
        beast::get_lowest_layer(*stream).expires_after(kHandshakeTimeout);
        stream->async_handshake(ssl::stream_base::server, [self, stream](beast::error_code hec) {
          if (hec) {
            self->ctx.log->debug("TLS handshake failed: {}", hec.message());
            return;
          }
          std::make_shared<HttpSession<TlsStream>>(std::move(*stream), self->ctx)->run();
        });
      } else {
        std::make_shared<HttpSession<PlainStream>>(PlainStream(std::move(s)), self->ctx)->run();
      }
      self->accept();
    });
  }

  asio::io_context& io;
  tcp::acceptor acceptor;
  std::optional<ssl::context> tls;
  SessionContext ctx;
  std::string host_for_url;
};

namespace {

std::string read_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot read the ") + what + " " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

Server::Server(asio::io_context& io, ServerOptions o, stream::Hub& hub, Logger log) {
  beast::error_code ec;
  const auto address = asio::ip::make_address(o.addr == "localhost" ? "127.0.0.1" : o.addr, ec);
  if (ec) throw std::runtime_error("--addr: '" + o.addr + "' is not an IP address");
  o.access.loopback_only = address.is_loopback();
  impl_ = std::make_shared<Impl>(io, SessionContext{hub, o.access, o.https, log, o.stats_json, 0,
                                                    std::move(o.endpoints), o.max_fps, o.bitrate});
  impl_->ctx.audio_hub = o.audio_hub;
  impl_->ctx.microphone = o.microphone;
  impl_->ctx.interaction = o.interaction;
  if (o.https) {
    impl_->tls.emplace(ssl::context::tls_server);
    auto& tls = *impl_->tls;
    tls.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                    ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
    const std::string cert = read_file(o.cert_file, "certificate");
    const std::string key = read_file(o.key_file, "private key");
    tls.use_certificate_chain(asio::buffer(cert), ec);
    if (ec) throw std::runtime_error("--https-cert " + o.cert_file + ": " + ec.message());
    tls.use_private_key(asio::buffer(key), ssl::context::pem, ec);
    if (ec) throw std::runtime_error("--https-key " + o.key_file + ": " + ec.message());
  }
  const tcp::endpoint ep(address, o.port);
  auto& acc = impl_->acceptor;
  acc.open(ep.protocol(), ec);
  if (!ec) acc.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acc.bind(ep, ec);
  if (!ec) acc.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + o.addr + ":" + std::to_string(o.port) + ": " + ec.message());
  impl_->host_for_url = address.is_unspecified() ? "127.0.0.1"
                        : address.is_v6()        ? "[" + address.to_string() + "]"
                                                 : address.to_string();
  impl_->accept();
}

Server::~Server() { stop(); }

uint16_t Server::port() const {
  beast::error_code ec;
  return impl_->acceptor.local_endpoint(ec).port();
}

std::string Server::url() const {
  return std::string(impl_->tls ? "https://" : "http://") + impl_->host_for_url + ":" + std::to_string(port()) + "/";
}

std::string Server::signed_url() const { return with_access_token(url(), impl_->ctx.access.token); }

void Server::stop() {
  beast::error_code ec;
  impl_->acceptor.close(ec);
}

}  // namespace voxl::net
