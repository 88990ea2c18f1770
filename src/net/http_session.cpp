// HTTP sessions (Beast): one per accepted connection, the transport of an
// HttpExchange (http_exchange.h), which decides what happens when. This
// file reads and parses requests, routes them (http_routes.h), writes
// answers and streamed bodies, and hands an upgraded connection to a viewer
// session. One of the two translation units that include Beast; the other
// is websocket_session.cpp.
#include "net/http_session.h"

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/asio/ssl/error.hpp>

#include <limits>
#include <optional>

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

constexpr auto kHandshakeTimeout = std::chrono::seconds(15);
// A recording of many minutes takes a while to send on a slow link. For a
// streamed body it bounds each piece, not the whole.
constexpr auto kWriteTimeout = std::chrono::minutes(10);
constexpr size_t kBodyReadChunk = 64 * 1024;  // Beast reads at most this much at a time

bool ignorable(const beast::error_code& ec) {
  return ec == asio::error::operation_aborted || ec == asio::error::eof ||
         ec == http::error::end_of_stream || ec == beast::error::timeout ||
         ec == asio::error::connection_reset || ec == ssl::error::stream_truncated;
}

class HttpSession final : public ClosableSession,
                          public HttpTransport,
                          public std::enable_shared_from_this<HttpSession> {
 public:
  // `owner` keeps `ctx` (and its session registry) alive as long as this.
  HttpSession(AnyStream&& stream, SessionContext& ctx, std::shared_ptr<SessionShared> shared,
              std::shared_ptr<void> owner, std::optional<OverCap> over_cap)
      : owner_(std::move(owner)),
        stream_(std::move(stream)),
        ctx_(ctx),
        shared_(std::move(shared)),
        exchange_(*this, ctx, *shared_, std::move(over_cap)) {}

  ~HttpSession() {
    if (registered_) ctx_.sessions->remove(registered_);
  }

  // TLS: the handshake first.
  void run() {
    registered_ = ctx_.sessions->add(std::weak_ptr<ClosableSession>(shared_from_this()));
    if (ctx_.sessions->stopped()) return;  // shut down already
    if (stream_.is_tls()) {
      lowest().expires_after(kHandshakeTimeout);
      stream_.async_handshake([self = shared_from_this()](beast::error_code ec) {
        if (ec) return self->ctx_.log->debug("TLS handshake failed: {}", ec.message());
        self->exchange_.start();
      });
    } else {
      exchange_.start();
    }
  }

  void shut_down() noexcept override {
    if (!handed_over_) exchange_.shut_down();
  }

  // HttpTransport.
  std::weak_ptr<void> lifetime() override { return weak_from_this(); }

  void read_header(Seconds limit) override {
    parser_.emplace();
    parser_->header_limit(HttpExchange::kHeaderLimit);
    // No limit while the header is read (Beast would hold any Content-Length
    // against it); read_body() sets the path's.
    parser_->body_limit(std::numeric_limits<uint64_t>::max());
    lowest().expires_after(limit);
    http::async_read_header(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->read_failed(ec);
      const std::string_view target = self->parser_->get().target();
      RequestHead head;
      head.path = std::string(target.substr(0, target.find('?')));
      if (const auto length = self->parser_->content_length()) head.content_length = *length;
      head.version = self->parser_->get().version();
      self->exchange_.on_header(head);
    });
  }

  void read_body(size_t max_body, std::optional<Seconds> limit) override {
    parser_->body_limit(uint64_t(max_body));
    // Beast reads into what the buffer has room for: a header-sized buffer
    // would take a large body a few KiB per system call.
    if (const auto length = parser_->content_length(); length && *length > kBodyReadChunk)
      buffer_.reserve(kBodyReadChunk);
    if (limit) lowest().expires_after(*limit);
    http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->read_failed(ec);
      self->request_ = self->parser_->release();
      // An idle connection keeps little.
      if (self->buffer_.capacity() > HttpExchange::kHeaderLimit) self->buffer_.shrink_to_fit();
      const auto& req = self->request_;
      self->exchange_.on_request({req.version(), req.keep_alive(), req.method() == http::verb::head});
    });
  }

  RouteOutcome route() override {
    beast::error_code peer_ec;
    const auto peer = lowest().socket().remote_endpoint(peer_ec).address();
    remote_ = peer_ec ? std::string() : peer.to_string();
    Routed r = route_request(request_, ctx_, remote_);
    RouteOutcome out;
    if (r.sign_in_pending) {
      out.kind = RouteOutcome::Kind::kSignIn;
      out.user = std::move(r.user);
      out.password = std::move(r.password);
      out.address = std::move(r.address);
    } else if (r.upgrade) {
      out.kind = RouteOutcome::Kind::kUpgrade;
      grant_ = viewer_grant(r.user, r.rights, r.address);
    } else if (r.endpoint) {
      out.kind = RouteOutcome::Kind::kEndpoint;
      out.endpoint = r.endpoint;
      out.call = std::move(r.call);
    } else {
      if (r.close) r.response.keep_alive(false);
      routed_ = std::move(r.response);
    }
    return out;
  }

  void hand_over() override {
    lowest().expires_never();
    handed_over_ = true;
    start_viewer_session(std::move(stream_), std::move(request_), std::move(grant_), ctx_, owner_);
  }

  void watch(size_t room) override {
    lowest().expires_never();  // the read's; a write in flight keeps its own
    stream_.async_read_some(buffer_.prepare(room), [self = shared_from_this()](beast::error_code ec, size_t n) {
      if (!ec) {
        self->buffer_.commit(n);
        return self->exchange_.on_watched(WatchEnd::kData, "");
      }
      const WatchEnd end = ec == asio::error::operation_aborted ? WatchEnd::kCancelled
                           : ignorable(ec)                      ? WatchEnd::kGone
                                                                : WatchEnd::kFailed;
      self->exchange_.on_watched(end, ec.message());
    });
  }

  void cancel_watch() override {
    beast::error_code ignored;
    lowest().socket().cancel(ignored);
  }

  size_t buffered() const override { return buffer_.size(); }

  void write_routed() override { write(std::move(routed_)); }

  void write_bad_request(const std::string& why) override { write(bad_request_response(why)); }

  // HEAD gets the header of what GET would get (its Content-Length too).
  void write_reply(EndpointReply reply, const ReplyFraming& framing) override {
    const auto status = http::int_to_status(unsigned(reply.status));
    if (reply.file && reply.file->valid()) {
      http::response<http::file_body> res{status, framing.version};
      decorate(res, reply, framing);
      beast::file f;
      f.native_handle(reply.file->release());  // the body owns it now
      beast::error_code ec;
      res.body().reset(std::move(f), ec);
      if (!ec) {
        res.prepare_payload();
        if (framing.head) {
          http::response<http::empty_body> header{status, framing.version};
          decorate(header, reply, framing);
          header.content_length(res.body().size());
          return write(std::move(header));
        }
        return write(std::move(res));
      }
      reply = json_error(500, "", "cannot read the recording: " + ec.message());
    }
    http::response<http::string_body> res{http::int_to_status(unsigned(reply.status)), framing.version};
    decorate(res, reply, framing);
    res.body() = std::move(reply.body);
    res.prepare_payload();
    if (framing.head) res.body().clear();
    write(std::move(res));
  }

  // The body comes piece by piece from reply.source (streamed_body.h).
  void stream_reply(EndpointReply reply, const ReplyFraming& framing) override {
    http::response<http::buffer_body> header{http::int_to_status(unsigned(reply.status)), framing.version};
    decorate(header, reply, framing);
    std::weak_ptr<HttpSession> weak = shared_from_this();
    StreamedBody<AnyStream>::Hooks hooks;
    hooks.run = [weak](const char* where, const std::function<void()>& step) {
      if (const auto self = weak.lock()) self->exchange_.run_guarded(where, step);
    };
    hooks.before_write = [weak] {
      const auto self = weak.lock();
      if (!self) return;
      self->lowest().expires_after(kWriteTimeout);
      self->pacing_.progress();
    };
    hooks.finished = [weak](StreamEnd end, const std::string& why) {
      const auto self = weak.lock();
      if (!self) return;
      self->end_pacing();
      const auto body = std::exchange(self->streamed_, nullptr);
      self->exchange_.on_streamed(body ? end : StreamEnd::kWriteFailed, why, !body || body->need_eof());
    };
    streamed_ = std::make_shared<StreamedBody<AnyStream>>(stream_, std::move(header), std::move(reply.source),
                                                       reply.content_length, framing.head,
                                                       shared_from_this(), std::move(hooks));
    if (!framing.head) begin_pacing();
    streamed_->start();
  }

  void close() override {
    if (stream_.is_tls()) lowest().expires_after(kHandshakeTimeout);  // the close_notify's exchange
    stream_.async_shutdown([self = shared_from_this()](beast::error_code) {});
  }

  // A streamed body stops pulling, and its source goes.
  void abort() noexcept override {
    end_pacing();
    if (auto body = std::exchange(streamed_, nullptr)) body->abort();
    beast::error_code ignored;
    lowest().socket().close(ignored);
  }

 private:
  CountedTcpStream& lowest() { return stream_.next_layer(); }

  void read_failed(const beast::error_code& ec) {
    if (ec == http::error::end_of_stream) return exchange_.on_read_failed(ReadFailure::kEndOfStream, "");
    if (ec == http::error::body_limit) return exchange_.on_read_failed(ReadFailure::kBodyTooLarge, "");
    if (ignorable(ec)) return exchange_.on_read_failed(ReadFailure::kGone, ec.message());
    exchange_.on_read_failed(ReadFailure::kMalformed, ec.message());
  }

  template <class Message>
  void decorate(Message& res, const EndpointReply& reply, const ReplyFraming& framing) {
    res.set(http::field::server, "voxl");
    res.set(http::field::cache_control, "no-store");
    if (!reply.content_type.empty()) res.set(http::field::content_type, reply.content_type);
    for (const auto& [name, value] : reply.headers) res.set(name, value);
    res.keep_alive(framing.keep_alive);
  }

  template <class Body>
  void write(http::response<Body> res) {
    lowest().expires_after(kWriteTimeout);
    auto msg = std::make_shared<http::response<Body>>(std::move(res));
    http::async_write(stream_, *msg, [self = shared_from_this(), msg](beast::error_code ec, size_t) {
      self->exchange_.on_written(!ec, msg->need_eof());
    });
  }

  // A streamed body to an address where a viewer watches takes what the
  // picture leaves of the link (transfer_pacing.h).
  void begin_pacing() {
    std::weak_ptr<HttpSession> weak = shared_from_this();
    pacing_.begin(remote_, [weak](std::optional<uint64_t> bytes_per_second) {
      if (const auto self = weak.lock()) self->pacing_.apply(self->native_socket(), bytes_per_second);
    });
  }

  TransferPacing::Socket native_socket() {
    auto& socket = lowest().socket();
    if (!socket.is_open()) return std::nullopt;
    return std::intptr_t(socket.native_handle());
  }

  void end_pacing() noexcept { pacing_.end(native_socket()); }

  std::shared_ptr<void> owner_;  // first: `ctx_` outlives everything below
  AnyStream stream_;
  SessionContext& ctx_;
  std::shared_ptr<SessionShared> shared_;  // before exchange_, which refers to it
  HttpExchange exchange_;
  uint64_t registered_ = 0;  // in ctx_.sessions
  bool handed_over_ = false;  // the stream went to a viewer session
  std::string remote_;  // the client's address ("" when unknown), of the request being answered
  TransferPacing pacing_{ctx_};  // while a streamed body is written
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Request request_;  // read whole, being answered
  Response routed_;  // the routing's answer, until written
  stream::ViewerGrant grant_;  // of a permitted upgrade
  std::shared_ptr<StreamedBody<AnyStream>> streamed_;  // the answer being streamed
};

}  // namespace

void start_http_session(tcp::socket socket, ConnectionToken token, ssl::context* tls, SessionContext& ctx,
                        std::shared_ptr<SessionShared> shared, std::shared_ptr<void> owner,
                        std::optional<OverCap> over_cap) {
  CountedTcpStream counted(std::move(socket), std::move(token));
  AnyStream stream = tls ? AnyStream::tls(std::move(counted), *tls) : AnyStream::plain(std::move(counted));
  std::make_shared<HttpSession>(std::move(stream), ctx, std::move(shared), std::move(owner), std::move(over_cap))->run();
}

}  // namespace voxl::net
