#include "net/any_stream.h"

#include <boost/asio/post.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket/ssl.hpp>

namespace voxl::net {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;

class PlainCore final : public StreamCore {
 public:
  explicit PlainCore(CountedTcpStream tcp) : tcp_(std::move(tcp)) {}

  CountedTcpStream& tcp() noexcept override { return tcp_; }
  bool tls() const noexcept override { return false; }
  void read_some(MutableBuffers buffers, IoHandler handler) override {
    tcp_.async_read_some(buffers, std::move(handler));
  }
  void write_some(ConstBuffers buffers, IoHandler handler) override {
    tcp_.async_write_some(buffers, std::move(handler));
  }
  void handshake(DoneHandler handler) override { done_at_once(std::move(handler), beast::error_code()); }
  void shutdown(DoneHandler handler) override {
    beast::error_code ec;
    tcp_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
    done_at_once(std::move(handler), ec);
  }
  void async_teardown(beast::role_type role, DoneHandler handler) override {
    net::async_teardown(role, tcp_, std::move(handler));
  }

 private:
  void done_at_once(DoneHandler handler, beast::error_code ec) {
    asio::post(tcp_.get_executor(), [handler = std::move(handler), ec]() mutable { handler(ec); });
  }

  CountedTcpStream tcp_;
};

class TlsCore final : public StreamCore {
 public:
  TlsCore(CountedTcpStream tcp, asio::ssl::context& context) : stream_(std::move(tcp), context) {}

  CountedTcpStream& tcp() noexcept override { return stream_.next_layer(); }
  bool tls() const noexcept override { return true; }
  void read_some(MutableBuffers buffers, IoHandler handler) override {
    stream_.async_read_some(buffers, std::move(handler));
  }
  void write_some(ConstBuffers buffers, IoHandler handler) override {
    stream_.async_write_some(buffers, std::move(handler));
  }
  void handshake(DoneHandler handler) override {
    stream_.async_handshake(asio::ssl::stream_base::server, std::move(handler));
  }
  void shutdown(DoneHandler handler) override { stream_.async_shutdown(std::move(handler)); }
  void async_teardown(beast::role_type role, DoneHandler handler) override {
    beast::async_teardown(role, stream_, std::move(handler));
  }

 private:
  beast::ssl_stream<CountedTcpStream> stream_;
};

}  // namespace

AnyStream AnyStream::plain(CountedTcpStream tcp) { return AnyStream(std::make_unique<PlainCore>(std::move(tcp))); }

AnyStream AnyStream::tls(CountedTcpStream tcp, asio::ssl::context& context) {
  return AnyStream(std::make_unique<TlsCore>(std::move(tcp), context));
}

}  // namespace voxl::net
