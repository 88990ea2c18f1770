// TCP's congestion control chosen per socket (platform/socket_congestion.h),
// on real sockets of this kernel: a listening socket takes a name the
// kernel offers and passes it to the connections it accepts, and a name it
// does not offer is refused in words that say what to do.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <string>

#include "platform/socket_congestion.h"

namespace voxl::platform {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

std::intptr_t handle(auto& socket) { return std::intptr_t(socket.native_handle()); }

// reno is built into every Linux and allowed to every user.
TEST(SocketCongestion, AListenerPassesItsChoiceToWhatItAccepts) {
  asio::io_context io;
  tcp::acceptor listener(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  ASSERT_EQ(set_congestion_control(handle(listener), "reno"), "");
  EXPECT_EQ(congestion_control(handle(listener)), "reno");
  tcp::socket client(io);
  client.connect(listener.local_endpoint());
  tcp::socket accepted = listener.accept();
  EXPECT_EQ(congestion_control(handle(accepted)), "reno");
}

TEST(SocketCongestion, ANameTheKernelLacksIsRefusedWithWhatItOffers) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.open(tcp::v4());
  const std::string before = congestion_control(handle(socket));
  EXPECT_FALSE(before.empty());
  const std::string why = set_congestion_control(handle(socket), "nosuch");
  EXPECT_NE(why.find("the kernel does not offer 'nosuch'"), std::string::npos) << why;
  EXPECT_NE(why.find("it offers: "), std::string::npos) << why;
  EXPECT_NE(why.find("reno"), std::string::npos) << why;
  EXPECT_EQ(congestion_control(handle(socket)), before) << "a refusal leaves the socket as it was";
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::platform
