#include "stream_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace voxl::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

struct StreamClient::Impl {
  asio::io_context io{1};
  websocket::stream<beast::tcp_stream> ws{io};
  beast::flat_buffer in;
  websocket::response_type response;
  bool message_ready = false;

  // Runs handlers until `ready()` or the deadline; false on timeout.
  template <class Ready>
  bool run(Clock::time_point deadline, Ready ready) {
    while (!ready()) {
      if (io.stopped()) io.restart();
      if (io.run_one_until(deadline) == 0 && (Clock::now() >= deadline || io.stopped())) return ready();
    }
    return true;
  }
};

StreamClient::StreamClient(const ClientOptions& options, std::chrono::milliseconds limit)
    : impl_(std::make_unique<Impl>()), options_(options) {
  if (!options_.save_stream.empty()) {
    saved_stream_.open(options_.save_stream, std::ios::binary | std::ios::trunc);
    if (!saved_stream_) throw std::runtime_error("cannot write " + options_.save_stream);
  }
  const auto deadline = Clock::now() + limit;
  auto& tcp_layer = beast::get_lowest_layer(impl_->ws);
  auto& socket = tcp_layer.socket();
  socket.open(tcp::v4());
  if (options_.receive_buffer > 0)
    socket.set_option(asio::socket_base::receive_buffer_size(options_.receive_buffer));

  // The Beast stream's own timer bounds connect and handshake; the
  // WebSocket then runs without one and every read has our deadline.
  tcp_layer.expires_at(deadline);
  std::optional<beast::error_code> connected;
  const tcp::endpoint server(asio::ip::make_address(options_.address), options_.port);
  tcp_layer.async_connect(server, [&](beast::error_code ec) { connected = ec; });
  impl_->run(deadline + 1s, [&] { return connected.has_value(); });
  if (!connected || *connected)
    throw std::runtime_error("cannot connect to port " + std::to_string(options_.port) + ": " +
                             (connected ? connected->message() : "timed out"));
  // As a browser's: each ack leaves at once, not held by Nagle's algorithm
  // until the last one is acknowledged (up to a delayed ACK's 40 ms later,
  // which the server would read as a queue on the link).
  socket.set_option(tcp::no_delay(true));

  impl_->ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
  impl_->ws.set_option(websocket::stream_base::decorator([o = options_](websocket::request_type& req) {
    if (o.origin) req.set(beast::http::field::origin, *o.origin);
    if (!o.authorization.empty()) req.set(beast::http::field::authorization, o.authorization);
  }));
  const std::string host =
      options_.host.empty() ? options_.address + ":" + std::to_string(options_.port) : options_.host;
  std::optional<beast::error_code> shaken;
  impl_->ws.async_handshake(impl_->response, host, "/ws", [&](beast::error_code ec) { shaken = ec; });
  impl_->run(deadline + 1s, [&] { return shaken.has_value(); });
  if (!shaken) throw std::runtime_error("WebSocket handshake timed out");
  if (*shaken) {
    const int status = int(impl_->response.result_int());
    if (*shaken == websocket::error::upgrade_declined && status != 101)
      throw HandshakeRefused(status, "WebSocket refused with HTTP " + std::to_string(status) + ": " +
                                         impl_->response.body());
    throw std::runtime_error("WebSocket handshake failed: " + shaken->message());
  }
  tcp_layer.expires_never();
  if (options_.avc444) send(R"({"type":"decoder","avc444":true})");
}

StreamClient::~StreamClient() {
  beast::error_code ec;
  beast::get_lowest_layer(impl_->ws).socket().close(ec);
}

void StreamClient::start_read() {
  reading_ = true;
  impl_->ws.async_read(impl_->in, [this](beast::error_code ec, size_t) {
    reading_ = false;
    if (ec) {
      closed_ = true;
      last_error_ = "connection ended: " + ec.message();
      return;
    }
    const bool text = impl_->ws.got_text();
    std::string bytes = beast::buffers_to_string(impl_->in.data());
    impl_->in.consume(impl_->in.size());
    on_message(text, std::move(bytes));
    impl_->message_ready = true;
  });
}

void StreamClient::on_message(bool text, std::string bytes) {
  if (text) {
    last_kind_ = Got::kText;
    texts_.push_back(json::parse(bytes, nullptr, false));
    return;
  }
  const std::span<const uint8_t> message(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  size_t offset = 0;
  if (const auto audio = stream::read_audio_header(message, stream::kKindAudio, offset)) {
    last_kind_ = Got::kAudio;
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    audio_.push_back({*audio, std::vector<uint8_t>(message.begin() + std::ptrdiff_t(offset), message.end()),
                      uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(now).count())});
    return;
  }
  last_kind_ = Got::kVideo;
  const auto header = stream::read_video_header(message, offset);
  if (!header) {
    ++decode_errors_;
    last_error_ = "a binary message that is not video (" + std::to_string(bytes.size()) + " bytes)";
    return;
  }
  frames_.push_back(*header);
  last_stamps_ = stream::read_video_stamps(message);
  last_received_wall_us_ = uint64_t(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  video_bytes_ += bytes.size();
  if (saved_stream_.is_open())
    saved_stream_.write(bytes.data() + offset, std::streamsize(bytes.size() - offset));
  const auto t0 = Clock::now();
  bool got_picture = false;
  const auto striped = stream::read_video_stripe(message);
  stream::VideoStripe stripe;
  stripe.band_height = header->height;
  if (striped && striped->stripes > 1) stripe = *striped;
  frame_stripes_.push_back(stripe);
  if (decoders_.size() < size_t(stripe.stripe) + 1) decoders_.resize(size_t(stripe.stripe) + 1);
  auto& decoder = decoders_[stripe.stripe];
  if (!decoder) decoder = std::make_unique<H264Decoder>();
  if (!decoder->decode(message.subspan(offset), got_picture)) {
    ++decode_errors_;
    last_error_ = "frame " + std::to_string(header->frame_id) + " (stripe " + std::to_string(stripe.stripe) +
                  "): " + decoder->error();
    send(json{{"type", "keyframe"}, {"reason", "decoder error"}}.dump());
    return;
  }
  const double decode_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (got_picture) {
    if (stripe.stripes > 1) compose(decoder->picture(), stripe, header->width, header->height);
    else picture_ = decoder->picture();
    // A striped capture's picture is new once its last band is in.
    if (stripe.last) picture_frame_id_ = header->frame_id;
    last_decode_ms_ = decode_ms;
  }
  if (options_.ack)
    send(json{{"type", "ack"}, {"id", header->frame_id}, {"decode_ms", decode_ms}, {"queued", 0}}.dump());
}

// Copies a decoded band into the whole picture at its rows. A band of
// another size, chroma format or range than the picture starts a new
// picture (black until its other bands come: they restart together).
void StreamClient::compose(const Picture& band, const stream::VideoStripe& stripe, int width, int height) {
  const bool fits = band.width == width && stripe.band_y + band.height <= height && stripe.band_y % 2 == 0;
  if (!fits) {
    last_error_ = "a band of " + std::to_string(band.width) + "x" + std::to_string(band.height) + " at row " +
                  std::to_string(stripe.band_y) + " does not fit a " + std::to_string(width) + "x" +
                  std::to_string(height) + " picture";
    ++decode_errors_;
    return;
  }
  if (!picture_ || picture_->width != width || picture_->height != height ||
      picture_->full_chroma != band.full_chroma || picture_->full_range != band.full_range) {
    Picture p;
    p.width = width;
    p.height = height;
    p.full_chroma = band.full_chroma;
    p.full_range = band.full_range;
    p.y.assign(size_t(width) * size_t(height), band.full_range ? 0 : 16);
    const size_t chroma_rows = size_t(band.full_chroma ? height : (height + 1) / 2);
    p.u.assign(size_t(p.chroma_width()) * chroma_rows, 128);
    p.v.assign(size_t(p.chroma_width()) * chroma_rows, 128);
    picture_ = std::move(p);
  }
  Picture& p = *picture_;
  std::copy(band.y.begin(), band.y.end(), p.y.begin() + std::ptrdiff_t(size_t(stripe.band_y) * size_t(width)));
  const size_t chroma_top = size_t(band.full_chroma ? stripe.band_y : stripe.band_y / 2);
  const auto at = std::ptrdiff_t(chroma_top * size_t(p.chroma_width()));
  std::copy(band.u.begin(), band.u.end(), p.u.begin() + at);
  std::copy(band.v.begin(), band.v.end(), p.v.begin() + at);
}

void StreamClient::send(std::string text) {
  outgoing_.push_back({true, std::move(text)});
  pump_writes();
}

void StreamClient::send_binary(std::vector<uint8_t> bytes) {
  outgoing_.push_back({false, std::string(bytes.begin(), bytes.end())});
  pump_writes();
}

// One write in flight, as Beast requires; the rest wait in outgoing_.
void StreamClient::pump_writes() {
  if (writing_ || closed_ || outgoing_.empty()) return;
  writing_ = true;
  impl_->ws.text(outgoing_.front().text);
  impl_->ws.async_write(asio::buffer(outgoing_.front().bytes), [this](beast::error_code ec, size_t) {
    writing_ = false;
    outgoing_.pop_front();
    if (ec) {
      closed_ = true;
      last_error_ = "write failed: " + ec.message();
      return;
    }
    pump_writes();
  });
}

StreamClient::Got StreamClient::read_one(std::chrono::milliseconds limit) {
  if (closed_) return Got::kClosed;
  impl_->message_ready = false;
  if (!reading_) start_read();
  impl_->run(Clock::now() + limit, [this] { return impl_->message_ready || closed_; });
  if (impl_->message_ready) return last_kind_;
  return closed_ ? Got::kClosed : Got::kTimeout;
}

bool StreamClient::wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  while (!done()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left <= 0ms) return false;
    if (read_one(left) == Got::kClosed) return done();
  }
  return true;
}

bool StreamClient::wait_for_colour(int x, int y, uint32_t rgb, std::chrono::milliseconds limit) {
  return wait_until([&] { return pixel(x, y) && near_colour(*pixel(x, y), rgb); }, limit);
}

std::optional<uint32_t> StreamClient::pixel(int x, int y) const {
  if (!picture_ || x < 0 || y < 0 || x >= picture_->width || y >= picture_->height) return std::nullopt;
  return picture_->rgb_at(x, y);
}

std::string StreamClient::status() const {
  std::string s = std::to_string(frames_.size()) + " frames, " + std::to_string(texts_.size()) + " texts";
  if (picture_)
    s += ", newest picture " + std::to_string(picture_->width) + "x" + std::to_string(picture_->height) +
         " from frame " + std::to_string(picture_frame_id_);
  if (!last_error_.empty()) s += "; " + last_error_;
  return s;
}

int handshake_status(const ClientOptions& o) {
  try {
    StreamClient c(o);
    if (!c.wait_until([&] { return !c.texts().empty(); })) return -1;
    return c.texts().front().value("type", "") == "hello" ? 101 : -2;
  } catch (const HandshakeRefused& e) {
    return e.status;
  }
}

}  // namespace voxl::testing
