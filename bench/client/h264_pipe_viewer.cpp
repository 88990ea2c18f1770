#include "h264_pipe_viewer.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "h264_decoder.h"
#include "picture_views.h"

namespace voxl::bench {

namespace {

using Clock = std::chrono::steady_clock;

// Offset of the next access unit delimiter's start code (00 00 01 09) at or
// after `from`, or npos.
size_t next_delimiter(const std::vector<uint8_t>& b, size_t from) {
  for (size_t i = from; i + 3 < b.size(); ++i)
    if (b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1 && (b[i + 3] & 0x1f) == 9) return i;
  return std::string::npos;
}

}  // namespace

bool run_h264_pipe(const PipeRun& run, FrameRecorder& recorder, PictureQuality& quality, int& decode_errors,
                   std::string& error) {
  testing::H264Decoder decoder;
  std::vector<uint8_t> buffer;
  std::optional<uint32_t> counter;
  bool decoded = false;
  auto decode = [&](std::span<const uint8_t> unit) {
    const auto t0 = Clock::now();
    bool got = false;
    if (!decoder.decode(unit, got)) {
      ++decode_errors;
      return;
    }
    if (!got) return;
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const auto& pic = decoder.picture();
    const bool in_window = recorder.in_window();
    counter = recorder.on_picture(
        [&pic](int x, int y) { return (pic.y[size_t(y) * size_t(pic.width) + size_t(x)] - 16) * 255 / 219; }, ms);
    quality.on_picture(view_of(pic), counter, in_window);
    decoded = true;
  };
  const auto window = Clock::now() + run.warmup;
  const auto end = window + run.measure;
  const auto still_end = end + run.still;
  uint8_t chunk[65536];
  while (Clock::now() < still_end) {
    if (!recorder.window_started() && Clock::now() >= window) {
      recorder.start_window();
      if (run.on_window_start) run.on_window_start();
    }
    if (recorder.in_window() && Clock::now() >= end) {
      recorder.stop_window();
      if (run.still.count() == 0) break;
      quality.start_still();
      if (run.on_still_start) run.on_still_start();
    }
    pollfd p{run.fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, buffer.empty() ? 50 : 1);
    if (ready < 0 && errno != EINTR) {
      error = "poll failed";
      return false;
    }
    if (ready == 0) {
      // Quiet pipe: what is buffered is a whole access unit.
      if (!buffer.empty()) {
        decode(buffer);
        buffer.clear();
      }
      continue;
    }
    const ssize_t n = ::read(run.fd, chunk, sizeof chunk);
    if (n == 0) {
      error = "the H.264 stream ended";
      return false;
    }
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      error = "read failed";
      return false;
    }
    recorder.on_bytes(uint64_t(n));
    buffer.insert(buffer.end(), chunk, chunk + n);
    // Every unit that the next delimiter closes.
    size_t start = next_delimiter(buffer, 0);
    if (start == std::string::npos) continue;
    for (size_t next; (next = next_delimiter(buffer, start + 4)) != std::string::npos; start = next)
      decode(std::span<const uint8_t>(buffer).subspan(start, next - start));
    buffer.erase(buffer.begin(), buffer.begin() + ptrdiff_t(start));
  }
  if (decoded) quality.finish_still(view_of(decoder.picture()), counter);
  return true;
}

}  // namespace voxl::bench
