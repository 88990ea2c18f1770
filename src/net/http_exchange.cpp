#include "net/http_exchange.h"

#include <algorithm>
#include <exception>
#include <utility>

#include <nlohmann/json.hpp>
#include <spdlog/fmt/fmt.h>

#include "base/json_text.h"
#include "net/sign_ins.h"

namespace voxl::net {

EndpointReply over_cap_reply(const OverCap& cap) {
  const auto wait = kRefusalRetryAfter.count();
  EndpointReply reply;
  reply.status = 503;
  reply.headers = {{"Retry-After", std::to_string(wait)}};
  reply.body = json_text(nlohmann::json{{"error", cap.reason}, {"limit", cap.limit}, {"retry_after", wait}}) + "\n";
  return reply;
}

HttpExchange::HttpExchange(HttpTransport& transport, SessionContext& ctx, SessionShared& shared,
                           std::optional<OverCap> over_cap)
    : transport_(transport), ctx_(ctx), shared_(shared), over_cap_(std::move(over_cap)) {}

// The last resort at every entry: an exception ends this request, never
// the daemon.
template <class F>
void HttpExchange::guarded(const char* where, int status, F&& f) noexcept {
  try {
    f();
    return;
  } catch (const std::exception& e) {
    fault(where, status, e.what());
  } catch (...) {
    fault(where, status, "an unknown exception");
  }
}

// Nothing written for the request yet: a JSON error (`status`) and the
// connection closes after it; otherwise the connection is dropped.
void HttpExchange::fault(const char* where, int status, const char* what) noexcept {
  try {
    if (shared_.fault_log.allow()) {
      const uint64_t more = shared_.fault_log.suppressed();
      ctx_.log->error("internal error while {}: {}{}", where, what,
                      more ? fmt::format(" ({} more since the last report)", more) : std::string());
    }
    if (state_ == State::kHandedOver) return;  // the connection is a viewer's now
    cancel_endpoint();
    const bool answering = state_ != State::kReadingHeader && state_ != State::kReadingBody &&
                           state_ != State::kPending && state_ != State::kSigningIn && state_ != State::kIdle;
    if (answering || watching_) return abort();
    framing_.keep_alive = false;
    send_reply(json_error(status, "",
                          status < 500 ? "voxl could not handle this request"
                                       : "voxl failed while answering this request"));
  } catch (...) {
    abort();
  }
}

void HttpExchange::run_guarded(const char* where, const std::function<void()>& step) noexcept {
  guarded(where, 500, step);
}

void HttpExchange::start() noexcept {
  guarded("reading a request", 400, [this] {
    if (ctx_.sessions && ctx_.sessions->stopped()) return abort();
    read_header();
  });
}

void HttpExchange::shut_down() noexcept {
  if (state_ == State::kHandedOver) return;  // the viewer session is registered itself
  cancel_endpoint();
  abort();
}

// The header first: its path says how large a body may follow.
void HttpExchange::read_header() {
  state_ = State::kReadingHeader;
  framing_ = ReplyFraming{};
  transport_.read_header(over_cap_ ? kRefusalReadTimeout : kReadTimeout);
}

void HttpExchange::on_header(const RequestHead& head) noexcept {
  guarded("reading a request", 400, [&] { header_read(head); });
}

// The largest body for the path: its endpoint's max_body, else kBodyLimit.
// A Content-Length over it is refused before a byte of the body is read; a
// chunked body is stopped where it crosses it.
void HttpExchange::header_read(const RequestHead& head) {
  if (state_ != State::kReadingHeader) return;
  if (ctx_.sessions && ctx_.sessions->stopped()) return abort();
  framing_.version = head.version;
  body_path_ = head.path;
  const auto e = ctx_.settings.endpoints.find(body_path_);
  body_limit_ = e != ctx_.settings.endpoints.end() && !over_cap_ ? e->second.max_body : kBodyLimit;
  if (head.content_length && *head.content_length > body_limit_) return too_large();
  state_ = State::kReadingBody;
  // The body gets its own 30 s; a refused one what is left of its 5 s.
  transport_.read_body(body_limit_, over_cap_ ? std::nullopt : std::optional(HttpTransport::Seconds(kReadTimeout)));
}

// 413 (or the 503 of a connection over a cap), and the connection closes:
// the rest of the body is not read.
void HttpExchange::too_large() {
  framing_.keep_alive = false;
  if (over_cap_) return send_reply(over_cap_reply(*over_cap_));
  const bool endpoint = ctx_.settings.endpoints.contains(body_path_);
  send_reply(json_error(413, "body",
                        "the request body is larger than the " + std::to_string(body_limit_) + " bytes " +
                            (endpoint ? body_path_ : std::string("this server")) + " takes"));
}

void HttpExchange::on_read_failed(ReadFailure failure, const std::string& why) noexcept {
  guarded("reading a request", 400, [&] { read_failed(failure, why); });
}

void HttpExchange::read_failed(ReadFailure failure, const std::string& why) {
  if (state_ != State::kReadingHeader && state_ != State::kReadingBody) return;
  if (ctx_.sessions && ctx_.sessions->stopped()) return abort();
  switch (failure) {
    case ReadFailure::kEndOfStream: return close();
    case ReadFailure::kBodyTooLarge: return too_large();
    case ReadFailure::kGone: state_ = State::kClosed; return;
    case ReadFailure::kMalformed:
      // Say so once, then hang up.
      state_ = State::kWriting;
      return transport_.write_bad_request(why);
  }
}

void HttpExchange::on_request(const ReplyFraming& request) noexcept {
  guarded("routing a request", 400, [&] { request_read(request); });
}

void HttpExchange::request_read(const ReplyFraming& request) {
  if (state_ != State::kReadingBody) return;
  if (ctx_.sessions && ctx_.sessions->stopped()) return abort();
  framing_ = request;
  if (over_cap_) {
    // 503 with Retry-After and the cap in JSON, whatever was asked (a
    // WebSocket upgrade too, before it happens); the connection closes.
    framing_.keep_alive = false;
    return send_reply(over_cap_reply(*over_cap_));
  }
  sign_in_checks_ = 0;
  route_read();
}

void HttpExchange::route_read() {
  RouteOutcome r = transport_.route();
  switch (r.kind) {
    case RouteOutcome::Kind::kUpgrade:
      state_ = State::kHandedOver;
      return transport_.hand_over();
    case RouteOutcome::Kind::kEndpoint:
      // A handler that throws is voxl's fault, not the request's.
      if (!r.endpoint) throw std::logic_error("an endpoint route without its endpoint");
      return guarded("calling an endpoint", 500, [&] { call_endpoint(*r.endpoint, r.call); });
    case RouteOutcome::Kind::kSignIn:
      return guarded("checking a sign-in", 500, [&] { sign_in(r); });
    case RouteOutcome::Kind::kAnswer:
      state_ = State::kWriting;
      return transport_.write_routed();
  }
}

// The password is checked off the loop (SignIns); the request waits, read
// whole, and is routed again once the verdict is known. Nothing is read
// meanwhile: a check takes a fraction of a second.
void HttpExchange::sign_in(RouteOutcome& r) {
  if (!ctx_.sign_ins) throw std::logic_error("a sign-in to check without a users file");
  if (++sign_in_checks_ > kMaxSignInChecks) return busy("the users changed while this sign-in was checked");
  const uint64_t check = ++calls_;
  state_ = State::kSigningIn;
  // Nothing else is in flight to keep the connection: the check holds it
  // (for a fraction of a second; a check dropped unrun lets it go).
  std::shared_ptr<void> hold = transport_.lifetime().lock();
  if (!hold) return abort();
  const bool queued = ctx_.sign_ins->check(r.user, r.password, r.address, [this, hold = std::move(hold), check] {
    guarded("routing a request", 500, [&] { signed_in(check); });
  });
  if (!queued) busy("too many sign-ins are being checked");
}

void HttpExchange::signed_in(uint64_t check) {
  if (state_ != State::kSigningIn || calls_ != check) return;  // dropped meanwhile
  if (ctx_.sessions && ctx_.sessions->stopped()) return abort();
  route_read();
}

// 503 with Retry-After: the sign-in could not be checked now.
void HttpExchange::busy(const std::string& why) {
  EndpointReply reply = json_error(503, "sign-in", "voxl could not check the password now (" + why + "); try again");
  reply.headers.emplace_back("Retry-After", "1");
  send_reply(std::move(reply));
}

// The handler may answer long after this returns (/wait, /record): until
// then the watch reads, so that a client that hangs up (EOF, a reset, a TLS
// close_notify) cancels the handler instead of leaving it running for
// nobody.
void HttpExchange::call_endpoint(const Endpoint& e, EndpointRequest& call) {
  const uint64_t token = ++calls_;
  const bool reads = call.method == "GET" || call.method == "HEAD" || call.method == "OPTIONS";
  audit_call_.reset();
  if (ctx_.settings.audit && (!reads || e.audit_reads))
    audit_call_ = nlohmann::json{{"user", call.user},
                                 {"address", call.remote_address},
                                 {"method", call.method},
                                 {"path", call.path},
                                 {"query", call.query.substr(0, 512)}};
  state_ = State::kPending;
  std::weak_ptr<void> alive = transport_.lifetime();
  CancelFn cancel = e.handle(call, [this, alive = std::move(alive), token](EndpointReply reply) {
    if (const auto keep = alive.lock()) on_reply(token, std::move(reply));
  });
  if (state_ == State::kPending && calls_ == token) {
    cancel_ = std::move(cancel);
    watch();
  }
}

void HttpExchange::on_reply(uint64_t call, EndpointReply reply) {
  if (state_ != State::kPending || calls_ != call) return;  // late, or for nobody
  guarded("answering from an endpoint", 500, [&] { answered(std::move(reply)); });
}

void HttpExchange::answered(EndpointReply reply) {
  cancel_ = nullptr;
  if (audit_call_) {
    (*audit_call_)["status"] = reply.status;
    ctx_.settings.audit("request", std::move(*audit_call_));
    audit_call_.reset();
  }
  if (watching_) {
    // The answer goes out once the read in flight has given up.
    state_ = State::kAnswerHeld;
    held_ = std::move(reply);
    return transport_.cancel_watch();
  }
  send_reply(std::move(reply));
}

// Runs while an endpoint is pending and while a streamed body is written.
// What a client sends meanwhile (a pipelined request) is kept for after the
// answer, up to kHeaderLimit bytes; past that the connection closes.
void HttpExchange::watch() {
  const size_t room = kHeaderLimit + 1 - std::min(transport_.buffered(), kHeaderLimit);
  watching_ = true;
  transport_.watch(std::min(room, kWatchChunk));
}

void HttpExchange::on_watched(WatchEnd end, const std::string& why) noexcept {
  guarded("watching for a hang-up", 500, [&] { watched(end, why); });
}

void HttpExchange::watched(WatchEnd end, const std::string& why) {
  watching_ = false;
  const bool gone = end == WatchEnd::kGone || end == WatchEnd::kFailed;
  if (state_ == State::kAnswerHeld) {
    EndpointReply reply = std::move(*held_);
    held_.reset();
    if (gone) return abort();  // the client left as its answer came
    return send_reply(std::move(reply));
  }
  if (state_ == State::kStreamEnded) {
    if (gone) return abort();  // the client left as its answer ended
    return after_answer(close_after_stream_);
  }
  if (state_ != State::kPending && state_ != State::kStreaming) return;  // hung up or failed already
  if (end != WatchEnd::kData) {
    if (end == WatchEnd::kFailed) ctx_.log->debug("client left while its request was pending: {}", why);
    return hang_up();
  }
  if (transport_.buffered() > kHeaderLimit) {
    ctx_.log->debug("client sent more than {} bytes while its request was answered; closing", kHeaderLimit);
    return hang_up();
  }
  watch();
}

// HEAD gets the header of what GET would get, and no body.
void HttpExchange::send_reply(EndpointReply reply) {
  if (reply.source) {
    // The watch runs meanwhile, so a client that leaves while a piece is
    // being made drops the source at once.
    state_ = State::kStreaming;
    if (!framing_.head && !watching_) watch();
    return transport_.stream_reply(std::move(reply), framing_);
  }
  state_ = State::kWriting;
  transport_.write_reply(std::move(reply), framing_);
}

void HttpExchange::on_written(bool ok, bool need_eof) noexcept {
  guarded("writing an answer", 500, [&] {
    if (state_ != State::kWriting) return;
    if (!ok) {
      state_ = State::kClosed;
      return;
    }
    after_answer(need_eof);
  });
}

void HttpExchange::on_streamed(StreamEnd end, const std::string& why, bool need_eof) noexcept {
  guarded("ending a streamed answer", 500, [&] { streamed(end, why, need_eof); });
}

void HttpExchange::streamed(StreamEnd end, const std::string& why, bool need_eof) {
  if (state_ != State::kStreaming) return;
  if (end == StreamEnd::kSourceFailed) ctx_.log->info("a streamed answer was cut off: {}", why);
  if (end == StreamEnd::kWriteFailed) ctx_.log->debug("a streamed answer was not delivered: {}", why);
  if (end != StreamEnd::kComplete) return abort();
  if (watching_) {
    // Once the read in flight has given up.
    state_ = State::kStreamEnded;
    close_after_stream_ = need_eof;
    return transport_.cancel_watch();
  }
  after_answer(need_eof);
}

void HttpExchange::after_answer(bool need_eof) {
  if (need_eof) return close();
  read_header();
}

void HttpExchange::hang_up() {
  cancel_endpoint();
  abort();
}

void HttpExchange::cancel_endpoint() noexcept {
  if (audit_call_) {
    try {
      (*audit_call_)["status"] = "cancelled";  // the client left, or the server stopped
      ctx_.settings.audit("request", std::move(*audit_call_));
    } catch (...) {
    }
    audit_call_.reset();
  }
  if (auto cancel = std::exchange(cancel_, nullptr)) {
    try {
      cancel();
    } catch (...) {
    }
  }
}

void HttpExchange::close() {
  state_ = State::kClosing;
  transport_.close();
}

// Drops the connection without a word; the reads and writes in flight end
// with errors, and a streamed body's source goes.
void HttpExchange::abort() noexcept {
  if (state_ == State::kHandedOver) return;
  state_ = State::kClosed;
  held_.reset();
  transport_.abort();
}

}  // namespace voxl::net
