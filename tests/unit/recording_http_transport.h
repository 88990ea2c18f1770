// A transport for HttpExchange with no socket: it records what the exchange
// asks, lets the caller end each operation by hand (as Beast would report
// it), and checks the transport's contract as it goes: at most one read and
// one write in flight, no whole answer written while a read is in flight,
// nothing asked after the connection was dropped, closed or handed over,
// and every request read answered once before the next is read. Used by the
// unit tests and the http_exchange fuzz target.
//
// Threads: one (the test's). The exchange lives inside; `alive` stands for
// the session's lifetime (reset it to play a session that is gone).
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "net/http_exchange.h"

namespace voxl::net::testing {

class RecordingHttpTransport final : public HttpTransport {
 public:
  enum class Read { kNone, kHeader, kBody, kWatch };
  enum class Write { kNone, kRouted, kBadRequest, kReply, kStream };

  RecordingHttpTransport(SessionContext& ctx, SessionShared& shared, std::optional<OverCap> over_cap = {})
      : exchange(*this, ctx, shared, std::move(over_cap)) {}

  // What the exchange asked, in order: "read_header", "read_body",
  // "watch", "cancel_watch", "route", "hand_over", "write_routed",
  // "write_bad_request", "write_reply 200", "stream_reply 200", "close",
  // "abort".
  std::vector<std::string> calls;
  // Broken promises of the exchange (empty when it kept the contract).
  std::vector<std::string> violations;

  Read read = Read::kNone;    // in flight
  Write write = Write::kNone;  // in flight
  bool cancel_asked = false;  // cancel_watch() since the watch began
  bool closed = false, aborted = false, handed_over = false;
  size_t bytes_ahead = 0;  // what buffered() answers
  std::optional<Seconds> read_limit;  // of the last read_header/read_body
  size_t max_body = 0;                // of the last read_body
  EndpointReply reply;                // the last write_reply/stream_reply
  ReplyFraming framing;
  ReplyFraming request;               // of the last request read whole
  std::string bad_request;            // the last write_bad_request's reason
  RouteOutcome next_route;            // what route() answers
  bool route_throws = false;
  int unanswered = 0;  // requests read and not yet answered (0 or 1)
  std::shared_ptr<int> alive = std::make_shared<int>(0);

  HttpExchange exchange;

  // HttpTransport.
  std::weak_ptr<void> lifetime() override { return alive; }
  void read_header(Seconds limit) override {
    start_read("read_header", Read::kHeader);
    if (write != Write::kNone) broken("read_header while an answer is written");
    if (unanswered) broken("read_header before the request read was answered");
    read_limit = limit;
  }
  void read_body(size_t limit, std::optional<Seconds> clock) override {
    start_read("read_body", Read::kBody);
    max_body = limit;
    read_limit = clock;
  }
  RouteOutcome route() override {
    note("route");
    if (route_throws) throw std::runtime_error("the routing failed");
    return std::move(next_route);
  }
  void hand_over() override {
    note("hand_over");
    handed_over = true;
    unanswered = 0;
  }
  void watch(size_t room) override {
    start_read("watch", Read::kWatch);
    cancel_asked = false;
    if (room == 0) broken("a watch with no room");
  }
  void cancel_watch() override {
    note("cancel_watch");
    cancel_asked = true;
  }
  size_t buffered() const override { return bytes_ahead; }
  void write_routed() override { start_write("write_routed", Write::kRouted); }
  void write_bad_request(const std::string& why) override {
    start_write("write_bad_request", Write::kBadRequest);
    bad_request = why;
  }
  void write_reply(EndpointReply r, const ReplyFraming& f) override {
    start_write("write_reply " + std::to_string(r.status), Write::kReply);
    if (read != Read::kNone) broken("a whole answer written while a read is in flight");
    reply = std::move(r);
    framing = f;
  }
  void stream_reply(EndpointReply r, const ReplyFraming& f) override {
    start_write("stream_reply " + std::to_string(r.status), Write::kStream);
    if (read != Read::kNone && read != Read::kWatch) broken("a streamed answer while a request is read");
    reply = std::move(r);
    framing = f;
  }
  void close() override {
    note("close");
    closed = true;
  }
  void abort() noexcept override {
    try {
      calls.push_back("abort");
    } catch (...) {
    }
    aborted = true;
  }

  // Ending the operation in flight, as the transport would report it.
  void header_arrives(std::string path, std::optional<uint64_t> length = {}, unsigned version = 11) {
    expect_read(Read::kHeader);
    bytes_ahead = 0;  // what was read ahead was this request
    RequestHead head;
    head.path = std::move(path);
    head.content_length = length;
    head.version = version;
    exchange.on_header(head);
  }
  void body_arrives(bool keep_alive = true, bool head = false, unsigned version = 11) {
    expect_read(Read::kBody);
    ++unanswered;
    request = {version, keep_alive, head};
    exchange.on_request(request);
  }
  void read_fails(ReadFailure failure, const std::string& why = "") {
    if (read != Read::kHeader && read != Read::kBody) broken("a read failure with no request read in flight");
    read = Read::kNone;
    exchange.on_read_failed(failure, why);
  }
  void watch_ends(WatchEnd end, size_t bytes = 0) {
    expect_read(Read::kWatch);
    if (end == WatchEnd::kData) bytes_ahead += bytes;
    exchange.on_watched(end, end == WatchEnd::kFailed ? "broken pipe" : "");
  }
  void written(bool ok = true) {
    if (write == Write::kNone || write == Write::kStream) broken("a write ended with none in flight");
    const bool eof = need_eof();
    write = Write::kNone;
    exchange.on_written(ok, eof);
  }
  void stream_ends(StreamEnd end, const std::string& why = "") {
    if (write != Write::kStream) broken("a stream ended with none in flight");
    write = Write::kNone;
    exchange.on_streamed(end, why, !framing.keep_alive);
  }

  bool gone() const { return closed || aborted || handed_over; }

 private:
  void note(std::string call) {
    if (gone() && call != "abort") broken(call + " after the connection " + (handed_over ? "was handed over" : "ended"));
    calls.push_back(std::move(call));
  }
  void broken(std::string what) { violations.push_back(std::move(what)); }
  void start_read(std::string call, Read r) {
    note(std::move(call));
    if (read != Read::kNone) broken("a read started while another is in flight");
    read = r;
  }
  void start_write(std::string call, Write w) {
    note(std::move(call));
    if (write != Write::kNone) broken("a write started while another is in flight");
    unanswered = 0;
    write = w;
  }
  void expect_read(Read r) {
    if (read != r) broken("a read ended that was not in flight");
    read = Read::kNone;
  }
  // Whether the connection closes after the whole answer in flight, as
  // Beast's need_eof() says: a routed answer as its request asked (the
  // routing's own close is not played here), a 400 always.
  bool need_eof() const {
    if (write == Write::kBadRequest) return true;
    if (write == Write::kRouted) return !request.keep_alive;
    return !framing.keep_alive;
  }
};

}  // namespace voxl::net::testing
