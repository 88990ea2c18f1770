// The listener: accepts connections, holds them to --max-connections and
// the per-address cap (a connection over a cap is answered 503 by a
// session of its own, within kRefusalCaps), backs off while the system is
// out of descriptors, and hands each connection to an HTTP session
// (http_session.h). No Beast here.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <exception>
#include <optional>

#include <nlohmann/json.hpp>
#include <spdlog/fmt/fmt.h>

#include "base/reconnector.h"
#include "base/json_text.h"
#include "base/rate_limit.h"
#include "net/connection_limits.h"
#include "net/http_routes.h"
#include "net/http_session.h"
#include "net/server.h"
#include "net/tls_files.h"
#include "platform/fd_limits.h"
#include "platform/socket_congestion.h"

namespace voxl::net {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

namespace {

// A connection over --max-connections or --max-connections-per-address is
// answered 503 by a session of its own (so a client can tell a cap from a
// crash), at most this many at once in all and from one address; past that
// it is closed without a word. Such a session reads one request and has
// this long for it.
constexpr ConnectionCaps kRefusalCaps{64, 4};

// Out of descriptors (or memory): accept again after this, doubling.
constexpr auto kFirstAcceptBackoff = std::chrono::milliseconds(50);
constexpr auto kLongestAcceptBackoff = std::chrono::seconds(1);

// accept() failures that the next accept would repeat at once: the process
// or the system has no descriptor (or buffer, or memory) to spare.
bool out_of_resources(const error_code& ec) {
  namespace errc = boost::system::errc;
  return ec == errc::too_many_files_open || ec == errc::too_many_files_open_in_system ||
         ec == errc::no_buffer_space || ec == errc::not_enough_memory;
}

// Sets --tcp-congestion on the listening socket (its connections inherit
// it) and says what the connections will use.
void choose_congestion_control(platform::NativeSocket listener, const std::string& name, bool asked,
                               spdlog::logger& log) {
  if (name == "system") {
    const std::string used = platform::congestion_control(std::intptr_t(listener));
    if (asked && !used.empty()) log.info("TCP congestion control: {}, the system's (--tcp-congestion)", used);
    return;
  }
  const std::string why_not = platform::set_congestion_control(std::intptr_t(listener), name);
  if (why_not.empty()) return log.info("TCP congestion control: {} (--tcp-congestion)", name);
  const std::string used = platform::congestion_control(std::intptr_t(listener));
  log.log(asked ? spdlog::level::warn : spdlog::level::info, "TCP congestion control: {} ({} {}: {})",
          used.empty() ? "the system's" : used + ", the system's", asked ? "asked for" : "not", name, why_not);
}

}  // namespace

struct Server::Impl : std::enable_shared_from_this<Server::Impl> {
  Impl(asio::io_context& context, SessionContext shared, ConnectionCaps caps)
      : io(context), acceptor(context), backoff_timer(context), ctx(std::move(shared)), limiter(caps),
        refusals(kRefusalCaps), live(caps.total + kRefusalCaps.total) {
    ctx.sessions = &live;
  }

  void accept() {
    armed = true;
    acceptor.async_accept([self = shared_from_this()](error_code ec, tcp::socket s) {
      self->armed = false;
      try {
        self->on_accept(ec, std::move(s));
      } catch (const std::exception& e) {
        self->accept_fault(e.what());
      } catch (...) {
        self->accept_fault("an unknown exception");
      }
    });
  }

  void accept_fault(const char* what) noexcept {
    try {
      if (fault_log.allow()) ctx.log->error("internal error while accepting a connection: {}", what);
      if (!armed && acceptor.is_open()) accept();
    } catch (...) {
    }
  }

  void on_accept(error_code ec, tcp::socket s) {
    if (ec) return on_accept_error(ec);
    if (accept_again.failing()) {
      ctx.log->info("accepting connections again");
      accept_again.restart();
    }
    // Before anything else: a child started from now on must not inherit it.
    platform::set_close_on_exec(platform::NativeSocket(s.native_handle()));
    accept();  // the next one, whatever becomes of this one
    error_code ignored;
    const auto remote = s.remote_endpoint(ignored);
    if (ignored) return;  // gone already
    const std::string address = remote.address().to_string();
    ConnectionLimiter::Refusal why{};
    ConnectionToken token = limiter.admit(address, why);
    std::optional<OverCap> over_cap;
    if (!token.held()) {
      over_cap = refuse(address, why);
      ConnectionLimiter::Refusal ignored_why{};
      token = refusals.admit(address, ignored_why);
      // Too many refusals being answered already: closed without a word.
      if (!token.held()) {
        s.close(ignored);
        return;
      }
    }
    s.set_option(tcp::no_delay(true), ignored);
    start_http_session(std::move(s), std::move(token), tls ? &*tls : nullptr, ctx, sessions, shared_from_this(),
                       std::move(over_cap));
  }

  // Over a limit the connection is not served: counted, logged (rate
  // limited) and answered 503 (refuse_over_cap) when there is room for that.
  OverCap refuse(const std::string& address, ConnectionLimiter::Refusal why) {
    ++ctx.connections_refused;
    const bool total = why == ConnectionLimiter::Refusal::kTotal;
    OverCap cap;
    cap.limit = total ? "--max-connections" : "--max-connections-per-address";
    cap.reason = total ? fmt::format("voxl has {} connections open, its limit (--max-connections); try again later",
                                     limiter.open())
                       : fmt::format("this address has {} connections open to voxl, the limit for one address "
                                     "(--max-connections-per-address); close some or try again later",
                                     limiter.open_from(address));
    if (refusal_log.allow()) {
      const uint64_t more = refusal_log.suppressed();
      const std::string also = more ? fmt::format(" ({} more refused since the last report)", more) : "";
      if (total)
        ctx.log->warn("refused a connection from {}: {} connections are open (--max-connections){}", address,
                      limiter.open(), also);
      else
        ctx.log->warn("refused a connection from {}: it has {} open (--max-connections-per-address){}", address,
                      limiter.open_from(address), also);
    }
    return cap;
  }

  // Accepting again at once would fail again at once: wait, longer each
  // time, until a descriptor is free. Said once per episode (again only if
  // the reason changes).
  void on_accept_error(error_code ec) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (!out_of_resources(ec)) {
      if (fault_log.allow()) ctx.log->warn("accept failed: {}", ec.message());
      return accept();
    }
    accept_again.failed(ec.message(), [this](const std::string& why) {
      ctx.log->warn("cannot accept connections: {} ({} open); trying again until it works", why, limiter.open());
    });
    armed = true;  // by the timer
    backoff_timer.expires_after(accept_again.next_wait());
    backoff_timer.async_wait([self = shared_from_this()](error_code tec) {
      self->armed = false;
      if (tec || !self->acceptor.is_open()) return;
      self->accept();
    });
  }

  asio::io_context& io;
  tcp::acceptor acceptor;
  asio::steady_timer backoff_timer;
  Reconnector accept_again{kFirstAcceptBackoff, kLongestAcceptBackoff};  // while accept keeps failing
  bool armed = false;  // an accept (or the back-off timer) is pending
  std::optional<ssl::context> tls;
  SessionContext ctx;
  ConnectionLimiter limiter;
  ConnectionLimiter refusals;  // connections being answered 503 (kRefusalCaps)
  SessionRegistry live;  // every HTTP and viewer session; ctx.sessions points here
  std::shared_ptr<SessionShared> sessions = std::make_shared<SessionShared>();
  RateLimit refusal_log{std::chrono::seconds(5)};
  RateLimit fault_log{std::chrono::seconds(5)};
  std::string host_for_url;
};

Server::Server(asio::io_context& io, ServerOptions o, stream::Hub& hub, Logger log) {
  error_code ec;
  const auto address = asio::ip::make_address(o.addr == "localhost" ? "127.0.0.1" : o.addr, ec);
  if (ec) throw std::runtime_error("--addr: '" + o.addr + "' is not an IP address");
  SessionContext ctx;
  ctx.settings = std::move(o.settings);
  ctx.settings.access.loopback_only = address.is_loopback();
  ctx.settings.tls = o.https;
  ctx.viewers = std::move(o.viewers);
  ctx.sign_ins = o.sign_ins;
  ctx.viewers.hub = &hub;
  ctx.viewers.log = log;
  ctx.log = log;
  impl_ = std::make_shared<Impl>(io, std::move(ctx), o.connections);
  impl_->ctx.started_unix =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (o.https) {
    impl_->tls.emplace(ssl::context::tls_server);
    load_tls(*impl_->tls, o.cert_file, o.key_file);
  }
  const tcp::endpoint ep(address, o.port);
  auto& acc = impl_->acceptor;
  acc.open(ep.protocol(), ec);
  if (!ec) platform::set_close_on_exec(platform::NativeSocket(acc.native_handle()));
#ifndef _WIN32
  // On Windows SO_REUSEADDR would let another program bind the same port
  // and take connections meant for voxl; its default already allows a quick
  // restart.
  if (!ec) acc.set_option(asio::socket_base::reuse_address(true), ec);
#endif
  if (!ec) acc.bind(ep, ec);
  if (!ec) acc.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + o.addr + ":" + std::to_string(o.port) + ": " + ec.message());
  choose_congestion_control(platform::NativeSocket(acc.native_handle()), o.tcp_congestion, o.tcp_congestion_asked,
                            *log);
  impl_->host_for_url = address.is_unspecified() ? "127.0.0.1"
                        : address.is_v6()        ? "[" + address.to_string() + "]"
                                                 : address.to_string();
  impl_->accept();
}

Server::~Server() { stop(); }

uint16_t Server::port() const {
  error_code ec;
  return impl_->acceptor.local_endpoint(ec).port();
}

void Server::write_metrics(MetricsText& out) const { write_server_metrics(impl_->ctx, out); }

std::string Server::url() const {
  return std::string(impl_->tls ? "https://" : "http://") + impl_->host_for_url + ":" + std::to_string(port()) + "/";
}

std::string Server::signed_url() const { return with_access_token(url(), impl_->ctx.settings.access.token); }

void Server::stop() {
  error_code ec;
  impl_->acceptor.close(ec);
  impl_->backoff_timer.cancel();
  impl_->live.stop();
}

}  // namespace voxl::net
