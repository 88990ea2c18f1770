// Server::stop() on a real loopback server: an open viewer gets the
// WebSocket close 1001 and an HTTP request still waiting for its endpoint
// is cancelled and its connection closed; then the loop runs dry by itself,
// with the server not yet destroyed, because no session is left holding
// anything.
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include <spdlog/sinks/null_sink.h>

#include "net/server.h"
#include "stream/fanout/hub.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// Reads a socket through a buffer, so that bytes read past the HTTP head
// are the first of the WebSocket frames.
struct Reader {
  tcp::socket& s;
  std::string buf;

  std::string head() {
    const size_t end = asio::read_until(s, asio::dynamic_buffer(buf), "\r\n\r\n");
    std::string h = buf.substr(0, end);
    buf.erase(0, end);
    return h;
  }
  std::string take(size_t n) {
    if (buf.size() < n) asio::read(s, asio::dynamic_buffer(buf), asio::transfer_exactly(n - buf.size()));
    std::string out = buf.substr(0, n);
    buf.erase(0, n);
    return out;
  }
};

// One WebSocket frame from the server (never masked), payload up to 64 KiB.
struct Frame {
  int opcode = -1;
  std::string payload;
};

Frame read_frame(Reader& r) {
  const std::string head = r.take(2);
  Frame f;
  f.opcode = head[0] & 0x0f;
  size_t len = uint8_t(head[1]) & 0x7f;
  if (len == 126) {
    const std::string ext = r.take(2);
    len = size_t(uint8_t(ext[0])) << 8 | uint8_t(ext[1]);
  } else if (len == 127) {
    throw std::runtime_error("frame too long for this test");
  }
  f.payload = r.take(len);
  return f;
}

TEST(ServerStop, ClosesOpenViewersAndPendingHttpRequests) {
  auto log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>());
  stream::Hub hub({.set_active = [](bool) {}, .request_keyframe = [](int) {}, .set_paused = [](bool) {},
                   .set_target_kbps = [](int, int) {}});  // outlives the loop and its sessions
  asio::io_context io;
  std::promise<void> called;
  std::atomic<bool> cancelled{false};
  ServerOptions o;
  o.addr = "127.0.0.1";
  o.port = 0;
  o.settings.endpoints["/never"] = {{"GET"}, [&](const EndpointRequest&, ReplyFn) -> CancelFn {
                             called.set_value();
                             return [&] { cancelled = true; };
                           }};
  auto server = std::make_unique<Server>(io, o, hub, log);
  const uint16_t port = server->port();
  std::thread loop([&io] { io.run(); });
  const std::string host = "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";
  asio::io_context client_io;
  const tcp::endpoint to(asio::ip::make_address("127.0.0.1"), port);

  tcp::socket viewer(client_io);
  viewer.connect(to);
  asio::write(viewer, asio::buffer("GET /ws HTTP/1.1\r\n" + host +
                                   "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                                   "Origin: http://127.0.0.1:" + std::to_string(port) + "\r\n\r\n"));
  Reader from_viewer{viewer, {}};
  const std::string head = from_viewer.head();
  ASSERT_EQ(head.rfind("HTTP/1.1 101", 0), 0u) << head;
  const Frame hello = read_frame(from_viewer);  // sent once the session has started
  ASSERT_EQ(hello.opcode, 1);
  EXPECT_NE(hello.payload.find("hello"), std::string::npos);

  tcp::socket waiting(client_io);
  waiting.connect(to);
  asio::write(waiting, asio::buffer("GET /never HTTP/1.1\r\n" + host + "\r\n"));
  ASSERT_EQ(called.get_future().wait_for(std::chrono::seconds(60)), std::future_status::ready);

  asio::post(io, [&] { server->stop(); });

  // The viewer: whatever was queued, then the close frame saying 1001.
  Frame f;
  do f = read_frame(from_viewer);
  while (f.opcode != 8);
  ASSERT_GE(f.payload.size(), 2u);
  EXPECT_EQ((uint8_t(f.payload[0]) << 8) | uint8_t(f.payload[1]), 1001);
  viewer.close();

  // The pending request: no answer, the connection closed.
  char byte;
  boost::system::error_code ec;
  EXPECT_EQ(asio::read(waiting, asio::buffer(&byte, 1), ec), 0u);
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();

  // Nothing is left on the loop: it returns with the server still alive.
  loop.join();
  EXPECT_TRUE(cancelled);
  EXPECT_EQ(hub.sinks(), 0u);
  server.reset();
}

}  // namespace
}  // namespace voxl::net
