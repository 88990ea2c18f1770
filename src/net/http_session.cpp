// HTTP sessions (Beast): one per accepted connection, reading requests,
// routing them (http_routes.h), calling endpoints and writing answers,
// until the client leaves or the connection is handed to a viewer session.
// One of the two translation units that include Beast; the other is
// websocket_session.cpp.
#include "net/http_session.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <exception>
#include <limits>
#include <optional>

#include <spdlog/fmt/fmt.h>

#include "net/http_routes.h"
#include "net/streamed_body.h"
#include "net/transfer_pacing.h"
#include "net/websocket_session.h"

namespace voxl::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

// For the header, then again for the body: a 1 MiB body takes about 8 s
// at 1 Mbit/s.
constexpr auto kReadTimeout = std::chrono::seconds(30);
constexpr auto kHandshakeTimeout = std::chrono::seconds(15);
// A recording of many minutes takes a while to send on a slow link. For a
// streamed body it bounds each piece, not the whole.
constexpr auto kWriteTimeout = std::chrono::minutes(10);
constexpr size_t kHeaderLimit = 16 * 1024;
constexpr size_t kBodyLimit = 64 * 1024;  // paths that are not endpoints (endpoints set their own)
// While an endpoint is pending the session reads in chunks of this much,
// keeping at most kHeaderLimit bytes of what a client sends ahead.
constexpr size_t kWatchChunk = 4096;
constexpr size_t kBodyReadChunk = 64 * 1024;  // Beast reads at most this much at a time
// A session refusing a connection over a cap reads one request and has
// this long for it.
constexpr auto kRefusalReadTimeout = std::chrono::seconds(5);

bool ignorable(const beast::error_code& ec) {
  return ec == asio::error::operation_aborted || ec == asio::error::eof ||
         ec == http::error::end_of_stream || ec == beast::error::timeout ||
         ec == asio::error::connection_reset || ec == ssl::error::stream_truncated;
}




template <class Stream>
class HttpSession final : public ClosableSession, public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  // `owner` keeps `ctx` (and its session registry) alive as long as this.
  // With `over_cap` the session answers its one request 503 and closes.
  HttpSession(Stream&& stream, SessionContext& ctx, std::shared_ptr<SessionShared> shared,
              std::shared_ptr<void> owner, std::optional<OverCap> over_cap = std::nullopt)
      : owner_(std::move(owner)), stream_(std::move(stream)), ctx_(ctx), shared_(std::move(shared)),
        over_cap_(std::move(over_cap)) {}

  ~HttpSession() {
    if (registered_) ctx_.sessions->remove(registered_);
  }

  // TLS: the handshake first.
  void run() {
    registered_ = ctx_.sessions->add(std::weak_ptr<ClosableSession>(this->shared_from_this()));
    if (ctx_.sessions->stopped()) return;  // shut down already
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      beast::get_lowest_layer(stream_).expires_after(kHandshakeTimeout);
      stream_.async_handshake(ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
        if (ec) return self->ctx_.log->debug("TLS handshake failed: {}", ec.message());
        self->guarded("reading a request", 400, [&] { self->read(); });
      });
    } else {
      guarded("reading a request", 400, [this] { read(); });
    }
  }

  // ClosableSession: a pending endpoint is cancelled and the connection
  // dropped; an answer being written is cut off.
  void shut_down() noexcept override {
    if (handed_over_) return;  // the viewer session is registered itself
    if (auto cancel = std::exchange(cancel_, nullptr)) {
      try {
        cancel();
      } catch (...) {
      }
    }
    abort();
  }

 private:
  // The last resort at every boundary of the session (routing, the
  // endpoint, its reply, the writes): an exception ends this request, never
  // the daemon. Nothing written for it yet: a JSON error (`status`) and the
  // connection closes after it; otherwise the connection closes.
  template <class F>
  void guarded(const char* where, int status, F&& f) noexcept {
    try {
      f();
      return;
    } catch (const std::exception& e) {
      fault(where, status, e.what());
    } catch (...) {
      fault(where, status, "an unknown exception");
    }
  }

  void fault(const char* where, int status, const char* what) noexcept {
    try {
      if (shared_->fault_log.allow()) {
        const uint64_t more = shared_->fault_log.suppressed();
        ctx_.log->error("internal error while {}: {}{}", where, what,
                        more ? fmt::format(" ({} more since the last report)", more) : std::string());
      }
      if (handed_over_) return;  // the stream belongs to a viewer session now
      pending_ = false;
      if (auto cancel = std::exchange(cancel_, nullptr)) cancel();
      if (responding_ || watching_) return abort();
      keep_alive_ = false;
      send_reply(json_error(status, "",
                            status < 500 ? "voxl could not handle this request"
                                         : "voxl failed while answering this request"));
    } catch (...) {
      abort();
    }
  }

  // Drops the connection without a word; the pending handlers see it fail.
  // A streamed body stops pulling, and its source goes.
  void abort() noexcept {
    pending_ = false;
    end_pacing();
    if (auto body = std::exchange(streamed_, nullptr)) body->abort();
    beast::error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
  }

  // The header first: its path says how large a body may follow.
  void read() {
    responding_ = false;
    head_ = false;
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    // No limit while the header is read (Beast would hold any Content-Length
    // against it); read_body() sets the path's.
    parser_->body_limit(std::numeric_limits<uint64_t>::max());
    beast::get_lowest_layer(stream_).expires_after(over_cap_ ? kRefusalReadTimeout : kReadTimeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = this->shared_from_this()](beast::error_code ec, size_t) {
                              self->guarded("reading a request", 400, [&] { self->read_body(ec); });
                            });
  }

  // The largest body for the path: its endpoint's max_body, else kBodyLimit.
  // A Content-Length over it is refused before a byte of the body is read
  // (or memory set aside for it); a chunked body is stopped where it
  // crosses it.
  void read_body(beast::error_code header_ec) {
    if (header_ec) return on_read(header_ec);
    if (ctx_.sessions->stopped()) return abort();
    const std::string_view target = parser_->get().target();
    body_path_ = std::string(target.substr(0, target.find('?')));
    const auto e = ctx_.settings.endpoints.find(body_path_);
    body_limit_ = e != ctx_.settings.endpoints.end() && !over_cap_ ? e->second.max_body : kBodyLimit;
    if (const auto length = parser_->content_length(); length && *length > body_limit_) return too_large();
    parser_->body_limit(uint64_t(body_limit_));
    // Beast reads into what the buffer has room for: a header-sized buffer
    // would take a large body a few KiB per system call.
    if (const auto length = parser_->content_length(); length && *length > kBodyReadChunk)
      buffer_.reserve(kBodyReadChunk);
    // The body gets its own 30 s (a refused one what is left of its 5 s).
    if (!over_cap_) beast::get_lowest_layer(stream_).expires_after(kReadTimeout);
    http::async_read(stream_, buffer_, *parser_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      self->guarded("routing a request", 400, [&] { self->on_read(ec); });
    });
  }

  // 413, and the connection closes: the rest of the body is not read.
  void too_large() {
    version_ = parser_->get().version();
    keep_alive_ = false;
    if (over_cap_) return refuse_over_cap();
    const bool endpoint = ctx_.settings.endpoints.contains(body_path_);
    send_reply(json_error(413, "body",
                          "the request body is larger than the " + std::to_string(body_limit_) + " bytes " +
                              (endpoint ? body_path_ : std::string("this server")) + " takes"));
  }

  void on_read(beast::error_code ec) {
    if (ctx_.sessions->stopped()) return abort();
    if (ec == http::error::end_of_stream) return close();
    if (ec == http::error::body_limit) return too_large();
    if (ec) {
      if (ignorable(ec)) return;
      // Malformed or oversized request: say so once, then hang up.
      return write(bad_request_response(ec.message()));
    }
    Request req = parser_->release();
    if (buffer_.capacity() > kHeaderLimit) buffer_.shrink_to_fit();  // an idle connection keeps little
    version_ = req.version();
    keep_alive_ = req.keep_alive();
    head_ = req.method() == http::verb::head;
    if (over_cap_) return refuse_over_cap();
    beast::error_code peer_ec;
    const auto peer = beast::get_lowest_layer(stream_).socket().remote_endpoint(peer_ec).address();
    remote_ = peer_ec ? std::string() : peer.to_string();
    Routed r = route_request(req, ctx_, remote_);
    if (r.upgrade) {
      beast::get_lowest_layer(stream_).expires_never();
      handed_over_ = true;
      start_viewer_session(std::move(stream_), std::move(req), r.role, ctx_, owner_);
      return;
    }
    // A handler that throws is voxl's fault, not the request's.
    if (r.endpoint) return guarded("calling an endpoint", 500, [&] { call_endpoint(*r.endpoint, r.call); });
    if (r.close) r.response.keep_alive(false);
    write(std::move(r.response));
  }

  // 503 with Retry-After and the cap in JSON, whatever was asked (a
  // WebSocket upgrade too, before it happens); the connection closes.
  void refuse_over_cap() {
    keep_alive_ = false;
    send_reply(over_cap_reply(*over_cap_));
  }

  // The handler may answer long after this returns (/wait, /record): until
  // then the session keeps reading, so that a client that hangs up (EOF, a
  // reset, a TLS close_notify) cancels the handler instead of leaving it
  // running for nobody. What a client sends meanwhile (a pipelined request)
  // is kept for after the answer, up to kHeaderLimit bytes; past that the
  // connection closes.
  void call_endpoint(const Endpoint& e, EndpointRequest& call) {
    const uint64_t token = ++calls_;
    pending_ = true;
    beast::get_lowest_layer(stream_).expires_never();
    std::weak_ptr<HttpSession> weak = this->shared_from_this();
    CancelFn cancel = e.handle(call, [weak, token](EndpointReply reply) {
      const auto self = weak.lock();
      if (!self || !self->pending_ || self->calls_ != token) return;
      self->guarded("answering from an endpoint", 500, [&] { self->on_reply(std::move(reply)); });
    });
    if (pending_) {
      cancel_ = std::move(cancel);
      watch_hang_up();
    }
  }

  void on_reply(EndpointReply reply) {
    pending_ = false;
    cancel_ = nullptr;
    if (watching_) {
      // The answer goes out once the read in flight has given up.
      held_reply_ = std::move(reply);
      beast::error_code ignored;
      beast::get_lowest_layer(stream_).socket().cancel(ignored);
      return;
    }
    send_reply(std::move(reply));
  }

  // Runs while an endpoint is pending and while a streamed body is written
  // (a read and a write may be in flight together).
  void watch_hang_up() {
    const size_t room = kHeaderLimit + 1 - std::min(buffer_.size(), kHeaderLimit);
    beast::get_lowest_layer(stream_).expires_never();  // the read's; a write in flight keeps its own
    watching_ = true;
    stream_.async_read_some(buffer_.prepare(std::min(room, kWatchChunk)),
                            [self = this->shared_from_this()](beast::error_code ec, size_t n) {
                              self->guarded("watching for a hang-up", 500, [&] { self->on_watch(ec, n); });
                            });
  }

  void on_watch(beast::error_code ec, size_t n) {
    watching_ = false;
    if (!ec) buffer_.commit(n);
    if (held_reply_) {
      EndpointReply reply = std::move(*held_reply_);
      held_reply_.reset();
      if (ec && ec != asio::error::operation_aborted) return abort();  // gone as its answer came
      return send_reply(std::move(reply));
    }
    if (next_) {  // a streamed answer ended as this read was in flight
      const After next = *std::exchange(next_, std::nullopt);
      if (ec && ec != asio::error::operation_aborted) return abort();  // gone as its answer ended
      return next == After::kClose ? close() : read();
    }
    if (!pending_ && !streamed_) return;  // already hung up or failed
    if (ec) {
      if (!ignorable(ec)) ctx_.log->debug("client left while its request was pending: {}", ec.message());
      return hang_up();
    }
    if (buffer_.size() > kHeaderLimit) {
      ctx_.log->debug("client sent more than {} bytes while its request was answered; closing", kHeaderLimit);
      return hang_up();
    }
    watch_hang_up();
  }

  void hang_up() {
    pending_ = false;
    if (auto cancel = std::exchange(cancel_, nullptr)) cancel();
    abort();
  }

  template <class Message>
  void decorate(Message& res, EndpointReply& reply) {
    res.set(http::field::server, "voxl");
    res.set(http::field::cache_control, "no-store");
    if (!reply.content_type.empty()) res.set(http::field::content_type, reply.content_type);
    for (const auto& [name, value] : reply.headers) res.set(name, value);
    res.keep_alive(keep_alive_);
  }

  // HEAD gets the header of what GET would get (its Content-Length too),
  // and no body.
  void send_reply(EndpointReply reply) {
    const auto status = http::int_to_status(unsigned(reply.status));
    if (reply.source) return send_streamed(status, std::move(reply));
    beast::get_lowest_layer(stream_).expires_after(kWriteTimeout);
    if (reply.file && reply.file->valid()) {
      http::response<http::file_body> res{status, version_};
      decorate(res, reply);
      beast::file f;
      f.native_handle(reply.file->release());  // the body owns it now
      beast::error_code ec;
      res.body().reset(std::move(f), ec);
      if (!ec) {
        res.prepare_payload();
        if (head_) {
          http::response<http::empty_body> header{status, version_};
          decorate(header, reply);
          header.content_length(res.body().size());
          return write(std::move(header));
        }
        return write(std::move(res));
      }
      reply = json_error(500, "", "cannot read the recording: " + ec.message());
    }
    http::response<http::string_body> res{status, version_};
    decorate(res, reply);
    res.body() = std::move(reply.body);
    res.prepare_payload();
    if (head_) res.body().clear();
    write(std::move(res));
  }

  // The body comes piece by piece from reply.source (streamed_body.h). The
  // hang-up watch runs meanwhile, so a client that leaves while a piece is
  // being made drops the source at once.
  void send_streamed(http::status status, EndpointReply reply) {
    responding_ = true;
    http::response<http::buffer_body> header{status, version_};
    decorate(header, reply);
    std::weak_ptr<HttpSession> weak = this->shared_from_this();
    typename StreamedBody<Stream>::Hooks hooks;
    hooks.run = [weak](const char* where, const std::function<void()>& step) {
      if (const auto self = weak.lock()) self->guarded(where, 500, step);
    };
    hooks.before_write = [weak] {
      const auto self = weak.lock();
      if (!self) return;
      beast::get_lowest_layer(self->stream_).expires_after(kWriteTimeout);
      self->pacing_.progress();
    };
    hooks.finished = [weak](StreamEnd end, const std::string& why) {
      if (const auto self = weak.lock()) self->on_streamed(end, why);
    };
    streamed_ = std::make_shared<StreamedBody<Stream>>(stream_, std::move(header), std::move(reply.source),
                                                       reply.content_length, head_, this->shared_from_this(),
                                                       std::move(hooks));
    if (!head_) {
      begin_pacing();
      watch_hang_up();
    }
    streamed_->start();
  }

  // A streamed body to an address where a viewer watches takes what the
  // picture leaves of the link (transfer_pacing.h).
  void begin_pacing() {
    std::weak_ptr<HttpSession> weak = this->shared_from_this();
    pacing_.begin(remote_, [weak](std::optional<uint64_t> bytes_per_second) {
      if (const auto self = weak.lock()) self->pacing_.apply(self->native_socket(), bytes_per_second);
    });
  }

  TransferPacing::Socket native_socket() {
    auto& socket = beast::get_lowest_layer(stream_).socket();
    if (!socket.is_open()) return std::nullopt;
    return std::intptr_t(socket.native_handle());
  }

  void end_pacing() noexcept { pacing_.end(native_socket()); }

  void on_streamed(StreamEnd end, const std::string& why) {
    end_pacing();
    const auto body = std::exchange(streamed_, nullptr);
    if (end == StreamEnd::kSourceFailed) ctx_.log->info("a streamed answer was cut off: {}", why);
    if (end == StreamEnd::kWriteFailed) ctx_.log->debug("a streamed answer was not delivered: {}", why);
    if (end != StreamEnd::kComplete || !body) return abort();
    const After next = body->need_eof() ? After::kClose : After::kRead;
    if (watching_) {
      // Once the read in flight has given up.
      next_ = next;
      beast::error_code ignored;
      beast::get_lowest_layer(stream_).socket().cancel(ignored);
      return;
    }
    if (next == After::kClose) return close();
    read();
  }

  template <class Body>
  void write(http::response<Body> res) {
    responding_ = true;
    auto msg = std::make_shared<http::response<Body>>(std::move(res));
    http::async_write(stream_, *msg, [self = this->shared_from_this(), msg](beast::error_code ec, size_t) {
      self->guarded("writing an answer", 500, [&] {
        if (ec) return;
        if (msg->need_eof()) return self->close();
        self->read();
      });
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

  std::shared_ptr<void> owner_;  // first: `ctx_` outlives everything below
  Stream stream_;
  SessionContext& ctx_;
  uint64_t registered_ = 0;  // in ctx_.sessions
  std::string remote_;       // the client's address ("" when unknown), of the request being answered
  TransferPacing pacing_{ctx_};  // while a streamed body is written
  std::shared_ptr<SessionShared> shared_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  unsigned version_ = 11;   // of the request being answered
  bool keep_alive_ = false;
  bool pending_ = false;      // an endpoint has not answered yet
  bool watching_ = false;     // a read for the hang-up watch is in flight
  bool responding_ = false;   // the answer to the current request has started
  bool handed_over_ = false;  // the stream went to a viewer session
  bool head_ = false;         // the request being answered is a HEAD
  uint64_t calls_ = 0;        // numbers endpoint calls, so a stale reply is dropped
  CancelFn cancel_;
  std::optional<EndpointReply> held_reply_;  // waits for the watch's read to end
  std::string body_path_;  // of the request being read, and the largest body it takes
  size_t body_limit_ = kBodyLimit;
  std::shared_ptr<StreamedBody<Stream>> streamed_;  // the answer being streamed
  // What follows a streamed answer once the watch's read has ended.
  enum class After { kRead, kClose };
  std::optional<After> next_;
  std::optional<OverCap> over_cap_;  // this session only answers 503 (refuse_over_cap)
};

}  // namespace

void start_http_session(tcp::socket socket, ConnectionToken token, ssl::context* tls, SessionContext& ctx,
                        std::shared_ptr<SessionShared> shared, std::shared_ptr<void> owner,
                        std::optional<OverCap> over_cap) {
  CountedTcpStream counted(std::move(socket), std::move(token));
  if (tls)
    std::make_shared<HttpSession<TlsStream>>(TlsStream(std::move(counted), *tls), ctx, std::move(shared),
                                             std::move(owner), std::move(over_cap))
        ->run();
  else
    std::make_shared<HttpSession<PlainStream>>(std::move(counted), ctx, std::move(shared), std::move(owner),
                                               std::move(over_cap))
        ->run();
}

}  // namespace voxl::net
