// A viewer of voxl's stream for tests: a WebSocket client that reads the
// control and video messages, decodes the H.264 with libavcodec and acks
// every frame like the browser does. Every wait takes a deadline and returns
// when it passes, so a test fails instead of hanging.
//
// Nothing happens in the background: messages are only read (and acks only
// written) inside read_one() and wait_until(). A client that is never asked
// to read is therefore a stalled viewer; with a small receive_buffer its
// socket fills quickly.
//
// Threads: one thread at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "h264_decoder.h"
#include "stream/viewer/wire_format.h"

namespace voxl::testing {

using namespace std::chrono_literals;

struct ClientOptions {
  uint16_t port = 0;
  std::string address = "127.0.0.1";  // the server's IP address
  std::string host;                   // the Host header; empty: <address>:<port>
  std::optional<std::string> origin;  // sent as Origin when set
  std::string authorization;          // sent as Authorization when not empty
  int receive_buffer = 0;             // SO_RCVBUF set before connecting; 0 keeps the default
  bool ack = true;                    // ack every decoded frame
  // Say {"type":"decoder","avc444":true} at once: libavcodec decodes High
  // 4:4:4, so the server may send a still screen in 4:4:4.
  bool avc444 = false;
  // When set, every video message's access unit is appended to this file
  // (Annex B), so the stream itself can be decoded by another decoder.
  std::string save_stream;
};

// The server declined the WebSocket handshake; `status` is its HTTP answer.
struct HandshakeRefused : std::runtime_error {
  HandshakeRefused(int code, const std::string& what) : std::runtime_error(what), status(code) {}
  int status;
};

class StreamClient {
 public:
  // Connects and completes the handshake within `limit`. Throws
  // HandshakeRefused when the server answers with an error status, and
  // std::runtime_error for anything else.
  explicit StreamClient(const ClientOptions& options, std::chrono::milliseconds limit = 30s);
  ~StreamClient();
  StreamClient(const StreamClient&) = delete;
  StreamClient& operator=(const StreamClient&) = delete;

  enum class Got { kText, kVideo, kAudio, kTimeout, kClosed };
  // Handles the next message, waiting at most `limit` for it.
  Got read_one(std::chrono::milliseconds limit);
  // Handles messages until `done()` holds (true) or `limit` passes or the
  // connection ends (false). `done` is checked after every message.
  bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit = 30s);
  // Waits for a decoded picture whose pixel at (x, y) is near `rgb`.
  bool wait_for_colour(int x, int y, uint32_t rgb, std::chrono::milliseconds limit = 30s);

  // The newest decoded picture and the id of the frame it came from (of a
  // striped stream: the frame whose band completed its capture's picture;
  // the bands are composed into it as they decode).
  const std::optional<Picture>& picture() const { return picture_; }
  uint32_t picture_frame_id() const { return picture_frame_id_; }
  // 0x00RRGGBB of the newest picture at (x, y); nullopt before any.
  std::optional<uint32_t> pixel(int x, int y) const;

  const std::vector<nlohmann::json>& texts() const { return texts_; }
  // Headers of every video message received, in order, and the stripe each
  // belongs to (stripe 0 of 1, the whole picture, for an unstriped stream).
  const std::vector<stream::VideoHeader>& frames() const { return frames_; }
  const std::vector<stream::VideoStripe>& frame_stripes() const { return frame_stripes_; }
  int decode_errors() const { return decode_errors_; }
  // The stage stamps of the newest video message (if its header had them)
  // and the wall clock (µs) when it was read, before decoding.
  const std::optional<stream::VideoStamps>& last_stamps() const { return last_stamps_; }
  uint64_t last_received_wall_us() const { return last_received_wall_us_; }
  // How long decoding the newest picture took, in ms.
  double last_decode_ms() const { return last_decode_ms_; }
  // Every desktop-audio message received, in order: header, Opus packet and
  // the wall clock (µs) when it was read.
  struct AudioMessage {
    stream::AudioHeader header;
    std::vector<uint8_t> packet;
    uint64_t received_wall_us = 0;
  };
  const std::vector<AudioMessage>& audio() const { return audio_; }
  // Queues a binary message (e.g. a microphone packet) for sending; it goes
  // out while the client reads.
  void send_binary(std::vector<uint8_t> bytes);
  // Queues a text (control) message the same way.
  void send_text(std::string text) { send(std::move(text)); }

  // Bytes of every video message received.
  uint64_t video_bytes() const { return video_bytes_; }
  bool closed() const { return closed_; }
  // What happened last: a decoder error, how the connection ended.
  std::string status() const;

 private:
  struct Impl;
  void start_read();
  void on_message(bool text, std::string bytes);
  void send(std::string text);
  struct Outgoing {
    bool text;
    std::string bytes;
  };
  void pump_writes();

  std::unique_ptr<Impl> impl_;
  ClientOptions options_;
  // One decoder per stream: a striped picture's bands are decoded apart
  // and composed into picture_.
  std::vector<std::unique_ptr<H264Decoder>> decoders_;
  void compose(const Picture& band, const stream::VideoStripe& stripe, int width, int height);
  std::ofstream saved_stream_;
  std::optional<Picture> picture_;
  uint32_t picture_frame_id_ = 0;
  std::vector<nlohmann::json> texts_;
  std::vector<stream::VideoHeader> frames_;
  std::vector<stream::VideoStripe> frame_stripes_;
  std::deque<Outgoing> outgoing_;
  std::vector<AudioMessage> audio_;
  uint64_t video_bytes_ = 0;
  int decode_errors_ = 0;
  double last_decode_ms_ = 0;
  std::optional<stream::VideoStamps> last_stamps_;
  uint64_t last_received_wall_us_ = 0;
  Got last_kind_ = Got::kTimeout;
  bool reading_ = false;
  bool writing_ = false;
  bool closed_ = false;
  std::string last_error_;
};

// The HTTP status a WebSocket handshake with `o` gets: 101 once the
// server's hello arrived, -1 when nothing came, -2 when something else did.
int handshake_status(const ClientOptions& o);

}  // namespace voxl::testing
