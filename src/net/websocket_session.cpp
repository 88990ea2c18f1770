// Viewer sessions: one WebSocket per viewer. This is only the transport of
// a stream::ViewerConnection, which reads the viewer's messages and decides
// what it is sent: here are the reads, the one write in flight, the close
// and the stats timer. Every completion handler runs under a last-resort
// guard: a throw closes this viewer (1011), never the daemon. The second
// translation unit with Beast.
#include "net/websocket_session.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <array>
#include <exception>
#include <string>

#include "platform/tcp_path.h"
#include "stream/viewer/viewer_connection.h"

namespace voxl::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {

constexpr auto kStatsEvery = std::chrono::seconds(1);
// After the server's stop(): how long a viewer has to answer the close
// frame before its socket is closed anyway.
constexpr auto kShutdownGrace = std::chrono::seconds(2);

// `link_id`: where this viewer's link samples go in ctx.link_shares (0
// until it is registered).
stream::ViewerServices services_of(SessionContext& ctx, const uint64_t& link_id) {
  stream::ViewerServices s = ctx.viewers;
  s.metrics = &ctx.viewer_metrics;
  s.on_link_sample = [&ctx, &link_id](const stream::LinkSample& sample, std::chrono::steady_clock::time_point now) {
    if (link_id) ctx.link_shares.on_viewer_sample(link_id, sample, now);
  };
  return s;
}

class ViewerSession final : public stream::ViewerTransport,
                            public ClosableSession,
                            public std::enable_shared_from_this<ViewerSession> {
 public:
  ViewerSession(AnyStream&& s, stream::ViewerGrant grant, SessionContext& ctx, std::shared_ptr<void> owner)
      : owner_(std::move(owner)), ws_(std::move(s)), ctx_(ctx), view_only_(grant.view_only()),
        stats_timer_(ws_.get_executor()), shutdown_timer_(ws_.get_executor()),
        conn_(*this, services_of(ctx, link_id_), std::move(grant)) {}

  ~ViewerSession() {
    if (link_id_) ctx_.link_shares.remove_viewer(link_id_);
    if (registered_) ctx_.sessions->remove(registered_);
  }

  void start(Request req) {
    registered_ = ctx_.sessions->add(std::weak_ptr<ClosableSession>(shared_from_this()));
    if (ctx_.sessions->stopped()) return;  // shut down already
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(beast::http::field::server, "voxl");
    }));
    // The largest message this viewer may send of any type; the connection
    // checks each type's own limit.
    ws_.read_message_max(stream::ClientLimits::read_limit(view_only_));
    ws_.auto_fragment(false);
    ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) {
      self->guard("the handshake", [&] { self->on_accept(ec); });
    });
  }

  // stream::ViewerTransport
  void write_text(std::string_view text) override {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(asio::buffer(text.data(), text.size()),
                    [self = shared_from_this()](beast::error_code ec, size_t) { self->on_write(ec); });
  }

  void write_binary(std::span<const uint8_t> header, std::span<const uint8_t> payload) override {
    writing_ = true;
    ws_.binary(true);
    const std::array<asio::const_buffer, 2> bufs{asio::buffer(header.data(), header.size()),
                                                 asio::buffer(payload.data(), payload.size())};
    ws_.async_write(bufs, [self = shared_from_this()](beast::error_code ec, size_t) { self->on_write(ec); });
  }

  void close(stream::CloseCode code, std::string_view reason) override {
    if (closing_) return;
    closing_ = true;
    close_reason_ = websocket::close_reason(websocket::close_code(uint16_t(code)), reason);
    stats_timer_.cancel();
    if (!writing_) start_close();  // else after the write in flight
  }

  // ClosableSession: the close frame (1001) after the write in flight, and
  // the socket closed after kShutdownGrace whatever the viewer does.
  void shut_down() noexcept override {
    try {
      if (accepted_) conn_.shut_down();
      beast::error_code ignored;
      auto& socket = beast::get_lowest_layer(ws_).socket();
      if (!accepted_ || !socket.is_open()) {
        socket.close(ignored);
        return;
      }
      shutdown_timer_.expires_after(kShutdownGrace);
      shutdown_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (ec) return;
        beast::error_code e;
        beast::get_lowest_layer(self->ws_).socket().close(e);
      });
    } catch (...) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().close(ignored);
    }
  }

  void set_ticking(bool on) override {
    ticking_ = on;
    if (on && !timer_armed_) schedule_stats();
    if (!on) stats_timer_.cancel();
  }

  std::optional<platform::TcpPath> tcp_path() override {
    auto& socket = beast::get_lowest_layer(ws_).socket();
    if (!socket.is_open()) return std::nullopt;
    return platform::tcp_path(std::intptr_t(socket.native_handle()));
  }

 private:
  // Runs one step of a completion handler; what it throws closes this
  // viewer alone.
  template <class F>
  void guard(const char* where, F&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      conn_.fault(where, e.what());
    } catch (...) {
      conn_.fault(where, "unknown exception");
    }
  }

  void on_accept(beast::error_code ec) {
    if (ec) {
      ctx_.log->debug("WebSocket handshake failed: {}", ec.message());
      return;
    }
    if (ctx_.sessions->stopped()) return;  // stopped during the handshake: the socket is closed
    accepted_ = true;
    beast::error_code peer_ec;
    const auto peer = beast::get_lowest_layer(ws_).socket().remote_endpoint(peer_ec);
    if (!peer_ec) link_id_ = ctx_.link_shares.add_viewer(peer.address().to_string(), std::chrono::steady_clock::now());
    conn_.start(++ctx_.viewers_seen);
    read();
  }

  void read() {
    ws_.async_read(in_, [self = shared_from_this()](beast::error_code ec, size_t) {
      self->guard("a read", [&] { self->on_read(ec); });
    });
  }

  void on_read(beast::error_code ec) {
    if (ec) return fail(ec, "read");
    const auto data = in_.cdata();
    if (ws_.got_text())
      conn_.receive_text(std::string_view(static_cast<const char*>(data.data()), data.size()));
    else
      conn_.receive_binary(std::span<const uint8_t>(static_cast<const uint8_t*>(data.data()), data.size()));
    in_.consume(in_.size());
    read();  // after a close too: the read sees the peer's close or the error
  }

  void on_write(beast::error_code ec) {
    writing_ = false;
    guard("a write", [&] {
      if (ec) return fail(ec, "write");
      if (closing_) return start_close();
      conn_.on_written();
    });
  }

  void start_close() {
    if (close_started_) return;
    close_started_ = true;
    ws_.async_close(close_reason_, [self = shared_from_this()](beast::error_code) {
      self->shutdown_timer_.cancel();  // closed: nothing left to force
    });
  }

  void fail(beast::error_code ec, const char* what) {
    if (!conn_.closed() && ec != websocket::error::closed && ec != asio::error::operation_aborted &&
        ec != asio::error::eof && ec != asio::error::connection_reset)
      ctx_.log->debug("viewer {} {}: {}", conn_.id(), what, ec.message());
    ticking_ = false;
    stats_timer_.cancel();
    shutdown_timer_.cancel();
    conn_.on_transport_closed();
  }

  void schedule_stats() {
    timer_armed_ = true;
    stats_timer_.expires_after(kStatsEvery);
    stats_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      self->timer_armed_ = false;
      if (ec || !self->ticking_ || self->conn_.closed()) return;
      self->guard("the stats timer", [&] {
        self->conn_.tick();
        if (self->ticking_ && !self->conn_.closed()) self->schedule_stats();
      });
    });
  }

  std::shared_ptr<void> owner_;  // first: `ctx_` outlives everything below
  websocket::stream<AnyStream> ws_;
  SessionContext& ctx_;
  uint64_t registered_ = 0;  // in ctx_.sessions
  uint64_t link_id_ = 0;     // in ctx_.link_shares, once accepted (read by conn_'s link samples)
  bool accepted_ = false;    // the WebSocket handshake is done
  bool view_only_;
  beast::flat_buffer in_;
  asio::steady_timer stats_timer_;
  asio::steady_timer shutdown_timer_;  // armed by shut_down()
  bool writing_ = false;
  bool closing_ = false;
  bool close_started_ = false;
  bool ticking_ = false;
  bool timer_armed_ = false;
  websocket::close_reason close_reason_;
  stream::ViewerConnection conn_;  // last: it leaves the hubs before the stream goes
};

}  // namespace

void start_viewer_session(AnyStream&& stream, Request request, stream::ViewerGrant grant, SessionContext& ctx,
                          std::shared_ptr<void> owner) {
  std::make_shared<ViewerSession>(std::move(stream), std::move(grant), ctx, std::move(owner))->start(std::move(request));
}

}  // namespace voxl::net
