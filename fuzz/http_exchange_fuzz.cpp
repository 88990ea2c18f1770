// HttpExchange driven by a schedule of events: each input byte picks what
// happens next among what can happen (the read in flight ends with a
// header, a body, data or one of its failures; the write in flight ends or
// fails; a pending endpoint answers, with a whole or a streamed body; the
// server shuts down; the session goes away), over the recording transport
// of the unit tests. The first byte picks whether the connection is over a
// cap. After every event: the transport's contract holds (one read and one
// write at most, no whole answer during a read, nothing after the end, each
// request answered once), the connection never stalls (something is in
// flight, an endpoint is pending, or it has ended), and an endpoint is
// cancelled at most once and never after it answered.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "net/http_exchange.h"
#include "recording_http_transport.h"

namespace VOXL_TEST_FILE {

using namespace voxl;
using net::testing::RecordingHttpTransport;
using Read = RecordingHttpTransport::Read;
using Write = RecordingHttpTransport::Write;

struct EmptySource : net::BodySource {
  void pull(Deliver deliver) override { deliver({}, true, ""); }
};

// The byte schedule; zeros once it runs out.
struct Bytes {
  const uint8_t* data;
  size_t size;
  size_t at = 0;
  bool done() const { return at >= size; }
  uint8_t next() { return at < size ? data[at++] : 0; }
};

// One endpoint that keeps its reply function until the schedule answers.
struct Handler {
  net::ReplyFn reply;
  int calls = 0, cancels = 0;
  bool answered = false;  // since the last call
  bool cancelled = false;
  net::CancelFn on_call(net::ReplyFn r) {
    ++calls;
    reply = std::move(r);
    answered = cancelled = false;
    return [this] {
      FUZZ_CHECK(!answered);   // never after the answer
      FUZZ_CHECK(!cancelled);  // at most once
      cancelled = true;
      ++cancels;
    };
  }
};

const char* const kPaths[] = {"/", "/wait", "/upload", "/ws", "/stats"};

void step(RecordingHttpTransport& t, Handler& h, net::SessionContext& ctx, Bytes& in) {
  const uint8_t b = in.next();
  const int choice = b & 7;
  if (choice == 7) return t.exchange.shut_down();
  if (choice == 6 && h.reply) {
    net::EndpointReply r;
    r.status = 200 + (b >> 3) % 300;
    if (b & 0x40) {
      r.source = std::make_shared<EmptySource>();
      r.content_length = 0;
    }
    h.answered = t.alive != nullptr;  // a reply to a session that is gone never arrives
    auto reply = std::exchange(h.reply, nullptr);
    return reply(std::move(r));
  }
  if (t.read == Read::kHeader) {
    if (choice < 4) {
      std::optional<uint64_t> length;
      if (b & 0x08) length = uint64_t(in.next()) << (in.next() % 24);
      return t.header_arrives(kPaths[(b >> 4) % 5], length, (b & 0x80) ? 10 : 11);
    }
    return t.read_fails(net::ReadFailure((b >> 3) % 4), "what the parser said");
  }
  if (t.read == Read::kBody) {
    if (choice < 4) {
      const uint8_t route = in.next();
      t.next_route = {};
      t.route_throws = (route & 3) == 3;
      // kSignIn without a users file: the fault path (the unit tests check a real one).
      t.next_route.kind = net::RouteOutcome::Kind((route >> 2) % 4);
      if (t.next_route.kind == net::RouteOutcome::Kind::kEndpoint) t.next_route.endpoint = &ctx.settings.endpoints.at("/wait");
      return t.body_arrives((b & 0x08) != 0, (b & 0x10) != 0, (b & 0x20) ? 10 : 11);
    }
    return t.read_fails(net::ReadFailure((b >> 3) % 4), "what the parser said");
  }
  if (t.read == Read::kWatch && choice < 3) return t.watch_ends(net::WatchEnd((b >> 3) % 4), in.next() * 97u);
  if (t.write == Write::kStream && choice < 5) return t.stream_ends(net::StreamEnd((b >> 3) % 3), "why");
  if (t.write != Write::kNone && t.write != Write::kStream && choice < 5) return t.written((b & 0x08) != 0);
  if (choice == 5 && (b & 0x80)) t.alive.reset();  // the session is gone: late answers are dropped
}

}  // namespace

VOXL_FUZZ_TARGET(http_exchange) {
  static const auto log =
      std::make_shared<spdlog::logger>("http-exchange-fuzz", std::make_shared<spdlog::sinks::null_sink_mt>());
  Bytes in{data, size};
  net::SessionContext ctx;
  ctx.log = log;
  Handler h;
  net::Endpoint wait;
  wait.methods = {"GET"};
  wait.max_body = 100;
  wait.handle = [&h](net::EndpointRequest&, net::ReplyFn r) { return h.on_call(std::move(r)); };
  ctx.settings.endpoints["/wait"] = wait;
  ctx.settings.endpoints["/upload"] = wait;
  net::SessionShared shared;
  std::optional<net::OverCap> over_cap;
  if (in.next() & 1) over_cap = net::OverCap{"--max-connections", "too many connections"};
  RecordingHttpTransport t(ctx, shared, over_cap);
  t.exchange.start();
  for (int steps = 0; steps < 400 && !in.done(); ++steps) {
    step(t, h, ctx, in);
    if (!t.violations.empty()) {
      std::fprintf(stderr, "broken: %s (state %d)\n", t.violations.front().c_str(), int(t.exchange.state()));
      FUZZ_CHECK(t.violations.empty());
    }
    using State = net::HttpExchange::State;
    const auto s = t.exchange.state();
    const bool ended = t.gone() || s == State::kClosed;
    FUZZ_CHECK(ended || t.read != Read::kNone || t.write != Write::kNone || (s == State::kPending && h.reply));
    if (s == State::kPending) FUZZ_CHECK(t.read == Read::kWatch);
    if (over_cap) FUZZ_CHECK(h.calls == 0);
    FUZZ_CHECK(h.cancels <= h.calls);
  }
  return 0;
}
