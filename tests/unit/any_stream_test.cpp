// AnyStream's parts: the buffer list keeps the first 16 non-empty pieces in
// order; an erased handler runs once and lets go of what it held; and a
// plain AnyStream over a loopback TCP pair carries a write of more pieces
// than the list holds, and a read into several, byte for byte (Asio's
// composed read and write go on past the pieces a single call took).
#include "net/any_stream.h"

#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace voxl::net {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

TEST(BufferList, KeepsTheFirstSixteenNonEmptyPiecesInOrder) {
  std::vector<char> bytes(40);
  std::vector<asio::const_buffer> pieces;
  for (size_t i = 0; i < 20; ++i) {
    pieces.emplace_back(bytes.data() + i, 0);  // an empty piece before each
    pieces.emplace_back(bytes.data() + i, 1);
  }
  const ConstBuffers list(pieces);
  ASSERT_EQ(list.end() - list.begin(), 16);
  for (size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(list.begin()[i].data(), bytes.data() + i);
    EXPECT_EQ(list.begin()[i].size(), 1u);
  }
  EXPECT_EQ(asio::buffer_size(list), 16u);
}

TEST(BufferList, TakesASingleBufferAndAnEmptyOne) {
  char byte = 'x';
  const MutableBuffers one(asio::mutable_buffer(&byte, 1));
  EXPECT_EQ(one.end() - one.begin(), 1);
  const MutableBuffers none(asio::mutable_buffer(&byte, 0));
  EXPECT_EQ(none.begin(), none.end());
}

TEST(ErasedHandler, RunsOnceAndLetsGoOfWhatItHeld) {
  auto held = std::make_shared<int>(0);
  std::weak_ptr<int> watch = held;
  int calls = 0;
  size_t got = 0;
  IoHandler handler([held = std::move(held), &calls, &got](boost::beast::error_code, size_t n) {
    ++calls;
    got = n;
  });
  EXPECT_FALSE(watch.expired());
  handler(boost::beast::error_code(), 7);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(got, 7u);
  EXPECT_TRUE(watch.expired());
}

// A connected pair on loopback: `server` behind a plain AnyStream.
struct Pair {
  asio::io_context io;
  tcp::socket client{io};
  std::unique_ptr<AnyStream> server;

  Pair() {
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    client.connect(acceptor.local_endpoint());
    tcp::socket accepted(io);
    acceptor.accept(accepted);
    server = std::make_unique<AnyStream>(AnyStream::plain(CountedTcpStream(std::move(accepted), ConnectionToken())));
  }

  // Runs the loop until `done` or 10 s pass.
  void run_until(const bool& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done && std::chrono::steady_clock::now() < deadline) io.run_one_for(std::chrono::milliseconds(100));
  }
};

TEST(AnyStream, APlainWriteOfMorePiecesThanTheListHoldsArrivesWhole) {
  Pair pair;
  std::vector<std::string> parts;
  for (int i = 0; i < 40; ++i) parts.push_back("part " + std::to_string(i) + ";");
  std::vector<asio::const_buffer> pieces;
  std::string expected;
  for (const auto& p : parts) {
    pieces.push_back(asio::buffer(p));
    expected += p;
  }
  bool written = false;
  boost::beast::error_code write_error;
  asio::async_write(*pair.server, pieces, [&](boost::beast::error_code ec, size_t) {
    write_error = ec;
    written = true;
  });
  pair.run_until(written);
  ASSERT_TRUE(written);
  EXPECT_FALSE(write_error) << write_error.message();
  std::string got(expected.size(), '\0');
  asio::read(pair.client, asio::buffer(got));
  EXPECT_EQ(got, expected);
}

TEST(AnyStream, APlainReadFillsSeveralPiecesInOrder) {
  Pair pair;
  const std::string sent = "abcdefghijklmnopqrstuvwxyz";
  asio::write(pair.client, asio::buffer(sent));
  std::string first(10, '\0'), second(16, '\0');
  const std::vector<asio::mutable_buffer> pieces = {asio::buffer(first), asio::buffer(second)};
  bool read = false;
  asio::async_read(*pair.server, pieces, [&](boost::beast::error_code ec, size_t n) {
    EXPECT_FALSE(ec) << ec.message();
    EXPECT_EQ(n, sent.size());
    read = true;
  });
  pair.run_until(read);
  ASSERT_TRUE(read);
  EXPECT_EQ(first + second, sent);
  EXPECT_FALSE(pair.server->is_tls());
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::net
