// The server's last-resort guard on a real loopback socket: an endpoint
// that throws gets its request a 500, and the server carries on serving.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <sstream>
#include <stdexcept>
#include <thread>

#include <spdlog/sinks/ostream_sink.h>

#include "net/server.h"
#include "stream/fanout/hub.h"

namespace voxl::net {
namespace VOXL_TEST_FILE {

// Sends `request` and reads until the server closes or 30 s pass.
std::string round_trip(uint16_t port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string out;
  if (fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0 &&
      ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == ssize_t(request.size())) {
    char buf[4096];
    for (;;) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 30000) <= 0) break;
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, size_t(n));
    }
  }
  if (fd >= 0) ::close(fd);
  return out;
}

TEST(HttpServerFaults, AThrowingEndpointGetsA500AndTheServerCarriesOn) {
  std::ostringstream logged;
  auto log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(logged));
  stream::Hub hub({.set_active = [](bool) {}, .request_keyframe = [](int) {}, .set_paused = [](bool) {},
                   .set_target_kbps = [](int, int) {}});  // outlives the loop and its sessions
  boost::asio::io_context io;
  ServerOptions o;
  o.addr = "127.0.0.1";
  o.port = 0;
  o.settings.endpoints["/boom"] = {{"GET"}, [](const EndpointRequest&, ReplyFn) -> CancelFn {
                            throw std::runtime_error("the handler broke");
                          }};
  o.settings.endpoints["/fine"] = {{"GET"}, [](const EndpointRequest&, ReplyFn reply) -> CancelFn {
                            EndpointReply r;
                            r.body = "{}\n";
                            reply(std::move(r));
                            return nullptr;
                          }};
  auto server = std::make_unique<Server>(io, o, hub, log);
  const uint16_t port = server->port();
  std::thread loop([&io] { io.run(); });
  const std::string host = "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";

  const std::string boom = round_trip(port, "GET /boom HTTP/1.1\r\n" + host + "\r\n");
  EXPECT_EQ(boom.rfind("HTTP/1.1 500", 0), 0u) << boom;
  EXPECT_NE(boom.find("application/json"), std::string::npos) << boom;
  const std::string fine = round_trip(port, "GET /fine HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n");
  EXPECT_EQ(fine.rfind("HTTP/1.1 200", 0), 0u) << fine;

  boost::asio::post(io, [&] {
    server.reset();
    io.stop();
  });
  loop.join();
  EXPECT_NE(logged.str().find("the handler broke"), std::string::npos) << logged.str();
}

}  // namespace
}  // namespace voxl::net
