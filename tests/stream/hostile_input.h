// What the hardening tests throw at voxl: every client WebSocket message
// type with each of its fields given the wrong JSON type, and seeded,
// reproducible floods of malformed HTTP requests and WebSocket frames.
// The same seed always gives the same bytes (std::mt19937_64's output is
// fixed by the standard; no library distribution is used).
//
// Pure data; any thread.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace voxl::testing {

// The client message types of src/stream/viewer/wire_format.h with a well-formed
// example each ("type" first, then every field the server reads).
std::vector<std::string> client_message_types();

// For every client message type and every one of its fields (and "type"
// itself), the message with that field replaced by each value of the wrong
// JSON type: strings, numbers out of range, booleans, null, arrays, objects.
// Also the attack messages {"type":"ping","t":"x"} and
// {"type":"stats","enabled":1}. Every entry is valid UTF-8 JSON text.
std::vector<std::string> wrong_type_messages();

// A deterministic byte generator.
class Prng {
 public:
  explicit Prng(uint64_t seed) : engine_(seed) {}
  uint64_t next() { return engine_(); }
  // Uniform enough in [0, n) for picking test cases.
  size_t below(size_t n) { return n ? size_t(engine_() % n) : 0; }
  std::string bytes(size_t n);
  // Bytes that are not valid UTF-8: a stray continuation, an overlong
  // form, a surrogate, 0xff or a truncated sequence, between ASCII.
  std::string invalid_utf8();

 private:
  std::mt19937_64 engine_;
};

// How a malformed HTTP request is sent and what is read back.
struct HttpCase {
  enum class Then {
    kReadAnswer,   // voxl should answer (status line) or close
    kCloseEarly,   // the request is incomplete: send, then close
    kResetEarly,   // the same, then reset the connection (RST)
  };
  std::string kind;  // what it is, for the summary
  std::string bytes;
  Then then = Then::kReadAnswer;
};
// `count` malformed requests for a server on 127.0.0.1:`port`, from `seed`.
std::vector<HttpCase> malformed_http_requests(uint64_t seed, int count, uint16_t port);

// A malformed WebSocket message sent after a valid upgrade.
struct WebSocketCase {
  enum class Effect {
    kNone,          // a small well-formed frame voxl must ignore or refuse; the connection goes on
    kMayClose,      // large or deeply nested: voxl may ignore it or close the connection
    kServerCloses,  // a protocol error: voxl closes the connection
    kIncomplete,    // the frame never ends: the client gives up and closes
  };
  std::string kind;
  std::string frames;  // already framed (and masked, unless the case is about that)
  Effect effect = Effect::kNone;
};
// `count` cases from `seed`: JSON of the wrong types, unknown types, bad
// UTF-8 text, huge and deeply nested JSON, truncated, unmasked and oversized
// frames, binary garbage. `max_message` is the server's message size limit
// (the huge cases are just under and over it).
std::vector<WebSocketCase> malformed_websocket_messages(uint64_t seed, int count, size_t max_message);

}  // namespace voxl::testing
