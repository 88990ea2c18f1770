// One HTTP connection's life, as a state machine with no socket and no
// Beast: what to read next and with what limits, when an endpoint is
// called, when its answer may be written, what follows an answer (the next
// request, a graceful close, a dropped connection), and what a fault or a
// hang-up does. The bytes, the HTTP parser, the routing of the parsed
// request and the writing of answers are the transport's (HttpTransport:
// Beast in http_session.cpp; a recording fake in the tests and the fuzz
// target), which reports each operation's end back here.
//
//   reading header -> reading body -> (routed answer)   -> writing
//                                  -> (endpoint)        -> pending
//                                  -> (upgrade)         -> handed over
//                                  -> (sign-in to check) -> signing in
//   signing in -> (checked) -> routed again, as after reading the body
//   pending -> (answer while the hang-up watch reads)   -> answer held
//           -> writing | streaming;  hang-up -> closed (endpoint cancelled)
//   writing -> reading header | closing;  streaming -> (watch ends) -> same
//
// While an endpoint is pending, and while a streamed body is written, the
// transport reads ahead (the "watch"), so that a client that hangs up
// cancels the endpoint at once; up to kHeaderLimit bytes of a pipelined
// request are kept for after the answer. A whole answer is written only
// once no read is in flight.
//
// Threads: the loop thread only (the transport's executor). Every entry
// point is noexcept: an exception from the transport, the routing or an
// endpoint ends that request (a JSON error when nothing was written for it
// yet, else a dropped connection), never the daemon.
// Ownership: the transport owns the exchange and outlives each call into
// it; an endpoint's late answer reaches it only while transport.lifetime()
// is alive.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/rate_limit.h"
#include "net/endpoint.h"
#include "net/session_context.h"

namespace voxl::net {

// What every HTTP session of one server shares besides SessionContext: the
// rate limit of the log lines about faults. Loop thread only.
struct SessionShared {
  RateLimit fault_log{std::chrono::seconds(5)};
};

// Why a connection is answered 503 instead of being served.
struct OverCap {
  std::string limit;   // the flag: "--max-connections" or "--max-connections-per-address"
  std::string reason;  // for the JSON answer
};

// What a refused client is told to wait before trying again.
inline constexpr auto kRefusalRetryAfter = std::chrono::seconds(5);

// The 503 a connection over a cap gets, whatever it asked (a WebSocket
// upgrade too): Retry-After and the cap in JSON.
EndpointReply over_cap_reply(const OverCap& cap);

// How an answer is framed: from the request it answers.
struct ReplyFraming {
  unsigned version = 11;    // HTTP/1.x of the request
  bool keep_alive = false;  // false: the connection closes after the answer
  bool head = false;        // a HEAD request: the header alone
};

// A request's header, read.
struct RequestHead {
  std::string path;  // the target up to '?'
  std::optional<uint64_t> content_length;
  unsigned version = 11;
};

// How a read ended without a request.
enum class ReadFailure {
  kEndOfStream,   // the client closed between requests
  kBodyTooLarge,  // a chunked body crossed the limit
  kGone,          // a reset, a timeout, a read cancelled: nobody to answer
  kMalformed,     // not HTTP (or a header over kHeaderLimit): answered 400
};

// How a read of the hang-up watch ended.
enum class WatchEnd {
  kData,       // bytes arrived (kept in the transport's buffer)
  kCancelled,  // cancel_watch() ended it
  kGone,       // the client left (EOF, a reset, a TLS close)
  kFailed,     // any other error
};

// How a streamed answer ended.
enum class StreamEnd {
  kComplete,      // all of it was written
  kWriteFailed,   // the client went away (or the write timed out)
  kSourceFailed,  // the source gave an error, or bytes that do not fit the announced length
};

// The transport's verdict on a request read whole (it holds the request).
struct RouteOutcome {
  enum class Kind { kAnswer, kEndpoint, kUpgrade, kSignIn };
  Kind kind = Kind::kAnswer;
  const Endpoint* endpoint = nullptr;  // kEndpoint
  EndpointRequest call;                // kEndpoint: the handler's to take from
  // kSignIn: a users file's sign-in to check (ctx.sign_ins) before the
  // same request is routed again.
  std::string user;
  std::string password;
  std::string address;  // the client's, for the audit trail
};

class HttpExchange;

// What an exchange asks of its connection. Each asynchronous operation
// reports its end to the exchange exactly once (also when abort() cut it
// short), never from inside the call that started it. At most one read
// (header, body or watch) and one write (write_* or stream) are in flight.
class HttpTransport {
 public:
  using Seconds = std::chrono::seconds;

  // Keeps the transport (and the exchange it owns) alive; an endpoint's
  // late answer is dropped once it has expired.
  virtual std::weak_ptr<void> lifetime() = 0;

  // The next request's header, within `limit` -> on_header or on_read_failed.
  virtual void read_header(Seconds limit) = 0;
  // Its body, at most `max_body` bytes; `limit` restarts the read's clock
  // (nullopt: the header's clock runs on) -> on_request or on_read_failed.
  virtual void read_body(size_t max_body, std::optional<Seconds> limit) = 0;
  // Routes the request just read (no socket work; may throw).
  virtual RouteOutcome route() = 0;
  // The request just read was a permitted upgrade: the connection becomes
  // a viewer's. Nothing more is reported to the exchange.
  virtual void hand_over() = 0;

  // Reads at most `room` bytes ahead, with no time limit -> on_watched.
  virtual void watch(size_t room) = 0;
  virtual void cancel_watch() = 0;
  // Bytes read ahead and not yet consumed by a request.
  virtual size_t buffered() const = 0;

  // The answer the routing made -> on_written.
  virtual void write_routed() = 0;
  // "400 bad request: <why>"; the connection closes after it -> on_written.
  virtual void write_bad_request(const std::string& why) = 0;
  // A whole answer (its body, or its file) -> on_written.
  virtual void write_reply(EndpointReply reply, const ReplyFraming& framing) = 0;
  // An answer whose body comes from reply.source, piece by piece ->
  // on_streamed.
  virtual void stream_reply(EndpointReply reply, const ReplyFraming& framing) = 0;

  // Ends the connection politely (TLS close_notify, TCP FIN); nothing is
  // reported.
  virtual void close() = 0;
  // Drops the connection: what is in flight ends with an error, a streamed
  // body stops pulling. Idempotent.
  virtual void abort() noexcept = 0;

 protected:
  ~HttpTransport() = default;
};

class HttpExchange {
 public:
  enum class State {
    kIdle,          // not started
    kReadingHeader,
    kReadingBody,
    kSigningIn,     // a users file's password is being checked
    kPending,       // an endpoint has not answered; the watch reads
    kAnswerHeld,    // it answered while a watch read was in flight
    kWriting,       // a whole answer
    kStreaming,     // a streamed answer (the watch reads unless HEAD)
    kStreamEnded,   // it ended while a watch read was in flight
    kClosing,       // closed politely after an answer
    kClosed,        // dropped, or the client left
    kHandedOver,    // a viewer's connection now
  };

  // For the header, then again for the body: a 1 MiB body takes about 8 s
  // at 1 Mbit/s.
  static constexpr auto kReadTimeout = std::chrono::seconds(30);
  // A connection over a cap reads one request and has this long for it.
  static constexpr auto kRefusalReadTimeout = std::chrono::seconds(5);
  static constexpr size_t kHeaderLimit = 16 * 1024;
  // The body of a path that is not an endpoint (endpoints set their own).
  static constexpr size_t kBodyLimit = 64 * 1024;
  // The watch reads in pieces of this much.
  static constexpr size_t kWatchChunk = 4096;
  // A request routed this often to a sign-in still unchecked (the users
  // changed meanwhile) is answered 503.
  static constexpr int kMaxSignInChecks = 2;

  // With `over_cap` the exchange answers its one request 503 and closes.
  HttpExchange(HttpTransport& transport, SessionContext& ctx, SessionShared& shared,
               std::optional<OverCap> over_cap);
  HttpExchange(const HttpExchange&) = delete;
  HttpExchange& operator=(const HttpExchange&) = delete;

  // Reads the first request (after a TLS handshake).
  void start() noexcept;
  // The server is stopping: a pending endpoint is cancelled, the
  // connection dropped.
  void shut_down() noexcept;

  // The transport's reports.
  void on_header(const RequestHead& head) noexcept;
  void on_request(const ReplyFraming& request) noexcept;
  void on_read_failed(ReadFailure failure, const std::string& why) noexcept;
  void on_watched(WatchEnd end, const std::string& why) noexcept;
  void on_written(bool ok, bool need_eof) noexcept;
  void on_streamed(StreamEnd end, const std::string& why, bool need_eof) noexcept;

  // Runs a step of the transport's own (a piece of a streamed answer)
  // under the exchange's last resort.
  void run_guarded(const char* where, const std::function<void()>& step) noexcept;

  State state() const { return state_; }
  bool watching() const { return watching_; }

 private:
  template <class F>
  void guarded(const char* where, int status, F&& f) noexcept;
  void fault(const char* where, int status, const char* what) noexcept;

  void read_header();
  void header_read(const RequestHead& head);
  void request_read(const ReplyFraming& request);
  void route_read();
  void sign_in(RouteOutcome& r);
  void signed_in(uint64_t check);
  void busy(const std::string& why);
  void read_failed(ReadFailure failure, const std::string& why);
  void too_large();
  void call_endpoint(const Endpoint& e, EndpointRequest& call);
  void on_reply(uint64_t call, EndpointReply reply);
  void answered(EndpointReply reply);
  void watch();
  void watched(WatchEnd end, const std::string& why);
  void send_reply(EndpointReply reply);
  void streamed(StreamEnd end, const std::string& why, bool need_eof);
  void after_answer(bool need_eof);
  void hang_up();
  void cancel_endpoint() noexcept;
  void close();
  void abort() noexcept;

  HttpTransport& transport_;
  SessionContext& ctx_;
  SessionShared& shared_;
  std::optional<OverCap> over_cap_;
  State state_ = State::kIdle;
  bool watching_ = false;   // a watch read is in flight
  ReplyFraming framing_;    // of the request being answered
  std::string body_path_;   // of the request being read, and the largest body it takes
  size_t body_limit_ = kBodyLimit;
  uint64_t calls_ = 0;      // numbers endpoint calls and sign-in checks, so a stale answer is dropped
  int sign_in_checks_ = 0;  // of the request being routed
  CancelFn cancel_;         // the pending endpoint's
  std::optional<EndpointReply> held_;  // kAnswerHeld
  // The pending call's line for the audit trail, finished with the answer's
  // status; null when it is not recorded.
  std::optional<nlohmann::json> audit_call_;
  bool close_after_stream_ = false;    // kStreamEnded: what follows
};

}  // namespace voxl::net
