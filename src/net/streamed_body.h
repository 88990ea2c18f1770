// One HTTP response whose body comes from a BodySource, written piece by
// piece on any Beast AsyncWriteStream: the header first, then a piece is
// pulled, written, and the next one pulled only once that write is done, so
// a slow client holds at most one piece in memory. With a known length the
// response has a Content-Length (and a source that gives more or fewer
// bytes ends it cut off, never wrong); without, it is chunked for HTTP/1.1
// and ends with the connection for HTTP/1.0. A HEAD request gets the header
// alone and the source is never pulled.
//
// Internal to src/net: included by http_server.cpp and its tests only.
//
// Threads: the loop thread (the stream's executor) only.
// Ownership: the owner (the HTTP session) holds this in a shared_ptr and
// owns the stream, which outlives every write in flight: each write keeps
// the owner (`keep`, held weakly here) alive until it completes. This holds
// the source until the body ends or abort() is called (or, if a write is in
// flight then, until that write completes, as it may still point into the
// source's bytes). A delivery after the end, after abort() or after this is
// gone does nothing.
#pragma once

#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "net/endpoint.h"
#include "net/http_exchange.h"  // StreamEnd

namespace voxl::net {

template <class Stream>
class StreamedBody : public std::enable_shared_from_this<StreamedBody<Stream>> {
 public:
  using Message = boost::beast::http::response<boost::beast::http::buffer_body>;

  struct Hooks {
    // Runs each step (after a write, on a delivery): the owner's last-resort
    // guard, which must catch what the step throws.
    std::function<void(const char* where, const std::function<void()>& step)> run;
    // Before each write (the header, each piece): the owner re-arms its
    // write timeout, so the timeout bounds a piece, not the whole body.
    std::function<void()> before_write;
    // Once, at the end (never after abort()): anything but kComplete means
    // the client has a cut-off body and the connection must be dropped.
    std::function<void(StreamEnd end, const std::string& why)> finished;
  };

  // `header` carries the status and fields; the framing (Content-Length,
  // chunked, or closing at the end) is set here from `length` and the
  // message's version.
  StreamedBody(Stream& stream, Message header, std::shared_ptr<BodySource> source,
               std::optional<uint64_t> length, bool head, std::shared_ptr<void> keep, Hooks hooks)
      : stream_(stream),
        msg_(std::move(header)),
        serializer_(msg_),
        source_(std::move(source)),
        length_(length),
        head_(head),
        keep_(std::move(keep)),
        hooks_(std::move(hooks)) {
    if (length_) {
      msg_.content_length(*length_);
    } else if (msg_.version() >= 11) {
      msg_.chunked(true);
    } else if (!head_) {
      msg_.keep_alive(false);  // the end of the body is the end of the connection
    }
    msg_.body().data = nullptr;
    msg_.body().size = 0;
    msg_.body().more = !head_;
  }

  StreamedBody(const StreamedBody&) = delete;
  StreamedBody& operator=(const StreamedBody&) = delete;

  // Writes the header, then (unless HEAD) pulls the first piece.
  void start() {
    auto keep = keep_.lock();
    if (!keep) return;
    hooks_.before_write();
    writing_ = true;
    boost::beast::http::async_write_header(
        stream_, serializer_,
        [self = this->shared_from_this(), keep = std::move(keep)](boost::beast::error_code ec, size_t) {
          self->after_write("writing the header of a streamed answer", ec, true);
        });
  }

  // Stops for good, without calling `finished`: the owner drops the
  // connection. Safe from inside any of the hooks.
  void abort() noexcept {
    ended_ = true;
    if (!writing_) source_.reset();
  }

  // After kComplete: whether the connection must close now (HTTP/1.0
  // without a known length, or the client asked for it).
  bool need_eof() const { return msg_.need_eof(); }

 private:
  void after_write(const char* where, boost::beast::error_code ec, bool header) {
    writing_ = false;
    if (ended_) {
      source_.reset();
      return;
    }
    hooks_.run(where, [&] {
      if (ec == boost::beast::http::error::need_buffer) ec = {};  // the piece is out: more wanted
      if (ec) return finish(StreamEnd::kWriteFailed, ec.message());
      if (head_) return finish(StreamEnd::kComplete, "");
      if (!header && !msg_.body().more) return finish(StreamEnd::kComplete, "");
      pull();
    });
  }

  void pull() {
    const uint64_t token = ++pulls_;
    awaiting_ = true;
    std::weak_ptr<StreamedBody> weak = this->shared_from_this();
    const std::shared_ptr<BodySource> source = source_;  // may be dropped while it runs
    source->pull([weak, token](std::string_view bytes, bool done, const std::string& error) {
      const auto self = weak.lock();
      if (!self || self->ended_ || !self->awaiting_ || self->pulls_ != token) return;
      self->awaiting_ = false;
      // The source stays alive until this returns, whatever ends meanwhile.
      const std::shared_ptr<BodySource> hold = self->source_;
      self->hooks_.run("sending a piece of a streamed answer", [&] { self->on_piece(bytes, done, error); });
    });
  }

  void on_piece(std::string_view bytes, bool done, const std::string& error) {
    if (!error.empty()) return finish(StreamEnd::kSourceFailed, error);
    if (bytes.empty() && !done) return finish(StreamEnd::kSourceFailed, "the body source gave an empty piece");
    sent_ += bytes.size();
    if (length_ && (sent_ > *length_ || (done && sent_ < *length_)))
      return finish(StreamEnd::kSourceFailed, "the body source gave " + std::string(done ? "" : "at least ") +
                                                  std::to_string(sent_) + " bytes where " +
                                                  std::to_string(*length_) + " were announced");
    auto keep = keep_.lock();
    if (!keep) return;  // the stream is gone with its owner
    auto& body = msg_.body();
    body.data = bytes.empty() ? nullptr : const_cast<char*>(bytes.data());  // only read
    body.size = bytes.size();
    body.more = !done;
    hooks_.before_write();
    writing_ = true;
    boost::beast::http::async_write(
        stream_, serializer_,
        [self = this->shared_from_this(), keep = std::move(keep)](boost::beast::error_code ec, size_t) {
          self->after_write("writing a piece of a streamed answer", ec, false);
        });
  }

  void finish(StreamEnd end, const std::string& why) {
    if (ended_) return;
    ended_ = true;
    const auto self = this->shared_from_this();  // the owner may drop this in the hook
    source_.reset();
    hooks_.finished(end, why);
  }

  Stream& stream_;
  Message msg_;  // before serializer_, which refers to it
  boost::beast::http::response_serializer<boost::beast::http::buffer_body> serializer_;
  std::shared_ptr<BodySource> source_;
  std::optional<uint64_t> length_;
  bool head_;
  std::weak_ptr<void> keep_;  // weak: the owner holds this
  Hooks hooks_;
  uint64_t pulls_ = 0;     // numbers the pulls, so a stale delivery is dropped
  uint64_t sent_ = 0;      // body bytes taken from the source
  bool awaiting_ = false;  // a pull has not delivered yet
  bool writing_ = false;   // a write is in flight
  bool ended_ = false;     // finished or aborted
};

}  // namespace voxl::net
