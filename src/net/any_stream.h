// Internal to src/net: one connection's byte stream, plain TCP or TLS,
// behind one type. The HTTP and WebSocket sessions are written once against
// it, so Beast's parsers, serializers and WebSocket code are instantiated
// once rather than once for each kind of stream (the TLS copy doubled the
// build time of the two largest files of the tree). What varies, the four
// operations that touch the bytes, goes through a virtual call and a
// completion handler in one heap allocation; the buffers are copied into a
// short list. Per read or write that is noise beside the system call.
//
// Threads: the loop thread only (the stream's executor; there are no
// strands). Ownership: owns the TCP stream and, with TLS, its SSL state;
// movable (from the HTTP session to a viewer session), not copyable.
#pragma once

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/role.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "net/counted_tcp_stream.h"

namespace boost::asio::ssl {
class context;
}

namespace voxl::net {

// A move-only completion handler behind one type: `Signature` is
// void(Args...). Calling it releases what it holds before it returns.
template <class Signature>
class ErasedHandler;

template <class... Args>
class ErasedHandler<void(Args...)> {
 public:
  ErasedHandler() = default;
  template <class Handler, class = std::enable_if_t<!std::is_same_v<std::decay_t<Handler>, ErasedHandler>>>
  ErasedHandler(Handler&& handler)  // NOLINT: converting, as an asio handler argument
      : held_(std::make_unique<Held<std::decay_t<Handler>>>(std::forward<Handler>(handler))) {}

  void operator()(Args... args) {
    const std::unique_ptr<Base> held = std::move(held_);
    held->call(std::move(args)...);
  }

 private:
  struct Base {
    virtual ~Base() = default;
    virtual void call(Args... args) = 0;
  };
  template <class Handler>
  struct Held final : Base {
    template <class H>
    explicit Held(H&& h) : handler(std::forward<H>(h)) {}
    void call(Args... args) override { std::move(handler)(std::move(args)...); }
    Handler handler;
  };
  std::unique_ptr<Base> held_;
};

using IoHandler = ErasedHandler<void(boost::beast::error_code, std::size_t)>;
using DoneHandler = ErasedHandler<void(boost::beast::error_code)>;

// The first 16 non-empty pieces of a buffer sequence, held by value. A read
// or write of "some" bytes may use fewer pieces than it is given (Asio
// itself takes at most 64): the caller goes on with the rest.
template <class Buffer>
class BufferList {
 public:
  static constexpr std::size_t kMaxPieces = 16;

  template <class Sequence>
  explicit BufferList(const Sequence& sequence) {
    const auto end = boost::asio::buffer_sequence_end(sequence);
    for (auto it = boost::asio::buffer_sequence_begin(sequence); it != end && count_ < kMaxPieces; ++it) {
      const Buffer piece(*it);
      if (piece.size() > 0) pieces_[count_++] = piece;
    }
  }

  const Buffer* begin() const noexcept { return pieces_.data(); }
  const Buffer* end() const noexcept { return pieces_.data() + count_; }

 private:
  std::array<Buffer, kMaxPieces> pieces_{};
  std::size_t count_ = 0;
};

using MutableBuffers = BufferList<boost::asio::mutable_buffer>;
using ConstBuffers = BufferList<boost::asio::const_buffer>;

// The stream beneath AnyStream: one subclass for plain TCP, one for TLS
// (any_stream.cpp).
class StreamCore {
 public:
  virtual ~StreamCore() = default;
  virtual CountedTcpStream& tcp() noexcept = 0;
  virtual bool tls() const noexcept = 0;
  virtual void read_some(MutableBuffers buffers, IoHandler handler) = 0;
  virtual void write_some(ConstBuffers buffers, IoHandler handler) = 0;
  virtual void handshake(DoneHandler handler) = 0;
  virtual void shutdown(DoneHandler handler) = 0;
  virtual void async_teardown(boost::beast::role_type role, DoneHandler handler) = 0;
};

// A Beast AsyncStream (async_read_some, async_write_some, get_executor) over
// either kind of connection.
class AnyStream {
 public:
  using executor_type = CountedTcpStream::executor_type;

  static AnyStream plain(CountedTcpStream tcp);
  // The server's side of TLS over `tcp`; `context` outlives the stream.
  static AnyStream tls(CountedTcpStream tcp, boost::asio::ssl::context& context);

  executor_type get_executor() noexcept { return core_->tcp().get_executor(); }
  bool is_tls() const noexcept { return core_->tls(); }

  // The TCP stream beneath, with or without TLS between: Beast's
  // get_lowest_layer() reaches it through here (timeouts, the socket).
  CountedTcpStream& next_layer() noexcept { return core_->tcp(); }

  template <class MutableBufferSequence, class ReadHandler>
  void async_read_some(const MutableBufferSequence& buffers, ReadHandler&& handler) {
    core_->read_some(MutableBuffers(buffers), IoHandler(std::forward<ReadHandler>(handler)));
  }

  template <class ConstBufferSequence, class WriteHandler>
  void async_write_some(const ConstBufferSequence& buffers, WriteHandler&& handler) {
    core_->write_some(ConstBuffers(buffers), IoHandler(std::forward<WriteHandler>(handler)));
  }

  // TLS: the server's handshake (a plain stream has none: it completes,
  // posted, without error). The end of sending: TLS's close_notify, or a
  // plain stream's TCP shutdown of its sending side.
  void async_handshake(DoneHandler handler) { core_->handshake(std::move(handler)); }
  void async_shutdown(DoneHandler handler) { core_->shutdown(std::move(handler)); }

  // Beast's asynchronous WebSocket close (found by argument-dependent
  // lookup): TLS's close_notify where there is TLS, then the TCP stream's.
  template <class TeardownHandler>
  friend void async_teardown(boost::beast::role_type role, AnyStream& stream, TeardownHandler&& handler) {
    stream.core_->async_teardown(role, DoneHandler(std::forward<TeardownHandler>(handler)));
  }

 private:
  explicit AnyStream(std::unique_ptr<StreamCore> core) : core_(std::move(core)) {}

  std::unique_ptr<StreamCore> core_;
};

}  // namespace voxl::net
