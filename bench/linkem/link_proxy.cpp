#include "link_proxy.h"

#include <array>
#include <deque>
#include <string>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include "link_model.h"

namespace voxl::bench {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using Clock = std::chrono::steady_clock;

namespace {

LinkModel::Time now_ns() { return std::chrono::duration_cast<LinkModel::Time>(Clock::now().time_since_epoch()); }
Clock::time_point at(LinkModel::Time t) { return Clock::time_point(std::chrono::duration_cast<Clock::duration>(t)); }

struct Connection;

// One direction: reads from `from` while the link accepts, holds each
// packet until the model delivers it, then writes it to `to`.
// `model` is the pipe's own link, or the proxy's shared one.
struct Pipe {
  Pipe(asio::io_context& io, tcp::socket& source, tcp::socket& sink, std::shared_ptr<LinkModel> link)
      : from(source), to(sink), link_owner(std::move(link)), model(*link_owner), read_timer(io), write_timer(io) {}

  struct Packet {
    LinkModel::Time deliver_at;
    std::string bytes;
  };
  tcp::socket& from;
  tcp::socket& to;
  std::shared_ptr<LinkModel> link_owner;
  LinkModel& model;
  asio::steady_timer read_timer, write_timer;
  std::array<char, 16384> buffer{};
  std::deque<Packet> in_flight;  // bounded: the model stops reads past its queue
  std::string writing;
  bool write_busy = false;
  bool read_done = false;  // the sender finished; shut down `to` once drained
};

std::shared_ptr<LinkModel> make_link(const LinkSettings& s) {
  return std::make_shared<LinkModel>(s.mbps, std::chrono::duration_cast<LinkModel::Time>(s.rtt) / 2, s.queue);
}

struct Connection : std::enable_shared_from_this<Connection> {
  Connection(asio::io_context& io, tcp::socket accepted, std::shared_ptr<LinkModel> up_link,
             std::shared_ptr<LinkModel> down_link)
      : client(std::move(accepted)), server(io), up(io, client, server, std::move(up_link)),
        down(io, server, client, std::move(down_link)) {}

  tcp::socket client, server;
  Pipe up, down;  // client -> server, server -> client
  bool closed = false;

  void start() {
    read(up);
    read(down);
  }

  void close() {
    if (closed) return;
    closed = true;
    error_code ec;
    client.close(ec);
    server.close(ec);
    for (Pipe* p : {&up, &down}) {
      p->read_timer.cancel();
      p->write_timer.cancel();
    }
  }

  void read(Pipe& p) {
    if (closed) return;
    const auto now = now_ns();
    if (!p.model.accepting(now)) {
      p.read_timer.expires_at(at(p.model.accepting_at(now)));
      p.read_timer.async_wait([self = shared_from_this(), &p](error_code ec) {
        if (!ec) self->read(p);
      });
      return;
    }
    p.from.async_read_some(asio::buffer(p.buffer), [self = shared_from_this(), &p](error_code ec, size_t n) {
      if (ec) {
        if (ec == asio::error::eof) {
          p.read_done = true;
          self->write(p);
        } else {
          self->close();
        }
        return;
      }
      const auto t = now_ns();
      for (size_t off = 0; off < n; off += LinkModel::kPacketBytes) {
        const size_t len = std::min(LinkModel::kPacketBytes, n - off);
        p.in_flight.push_back({p.model.send_packet(len, t), std::string(p.buffer.data() + off, len)});
      }
      self->write(p);
      self->read(p);
    });
  }

  void write(Pipe& p) {
    if (closed || p.write_busy) return;
    if (p.in_flight.empty()) {
      if (p.read_done) {
        error_code ec;
        p.to.shutdown(tcp::socket::shutdown_send, ec);
      }
      return;
    }
    const auto now = now_ns();
    if (p.in_flight.front().deliver_at > now) {
      p.write_busy = true;
      p.write_timer.expires_at(at(p.in_flight.front().deliver_at));
      p.write_timer.async_wait([self = shared_from_this(), &p](error_code ec) {
        p.write_busy = false;
        if (!ec) self->write(p);
      });
      return;
    }
    p.writing.clear();
    while (!p.in_flight.empty() && p.in_flight.front().deliver_at <= now) {
      p.writing += p.in_flight.front().bytes;
      p.in_flight.pop_front();
    }
    p.write_busy = true;
    asio::async_write(p.to, asio::buffer(p.writing), [self = shared_from_this(), &p](error_code ec, size_t) {
      p.write_busy = false;
      if (ec) {
        self->close();
        return;
      }
      self->write(p);
    });
  }
};

}  // namespace

struct LinkProxy::Impl : std::enable_shared_from_this<Impl> {
  Impl(asio::io_context& context, const tcp::endpoint& listen, const tcp::endpoint& to, LinkSettings s)
      : io(context), acceptor(context, listen), target(to), settings(s) {
    if (s.shared) up = make_link(s), down = make_link(s);
  }
  asio::io_context& io;
  tcp::acceptor acceptor;
  tcp::endpoint target;
  LinkSettings settings;
  std::shared_ptr<LinkModel> up, down;  // when shared
  std::vector<std::weak_ptr<LinkModel>> links;  // every link made, for set_mbps

  std::shared_ptr<LinkModel> link() {
    if (settings.shared) return nullptr;
    auto l = make_link(settings);
    std::erase_if(links, [](const std::weak_ptr<LinkModel>& w) { return w.expired(); });
    links.push_back(l);
    return l;
  }

  void accept() {
    acceptor.async_accept([self = shared_from_this()](error_code ec, tcp::socket s) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) {
        s.set_option(tcp::no_delay(true), ec);
        auto c = std::make_shared<Connection>(self->io, std::move(s),
                                              self->settings.shared ? self->up : self->link(),
                                              self->settings.shared ? self->down : self->link());
        c->server.async_connect(self->target, [c](error_code cec) {
          if (cec) return c->close();
          error_code ignored;
          c->server.set_option(tcp::no_delay(true), ignored);
          c->start();
        });
      }
      self->accept();
    });
  }
};

LinkProxy::LinkProxy(asio::io_context& io, const tcp::endpoint& listen, const tcp::endpoint& target,
                     LinkSettings settings)
    : impl_(std::make_shared<Impl>(io, listen, target, settings)) {
  impl_->accept();
}

LinkProxy::~LinkProxy() {
  error_code ec;
  impl_->acceptor.close(ec);
}

void LinkProxy::set_mbps(double mbps) {
  asio::post(impl_->io, [impl = impl_, mbps] {
    impl->settings.mbps = mbps;
    for (const auto& l : {impl->up, impl->down})
      if (l) l->set_mbps(mbps);
    for (const auto& w : impl->links)
      if (auto l = w.lock()) l->set_mbps(mbps);
  });
}

uint16_t LinkProxy::port() const { return impl_->acceptor.local_endpoint().port(); }

}  // namespace voxl::bench
