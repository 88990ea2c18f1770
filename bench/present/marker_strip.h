// The frame marker as the X server itself holds it: a connection of its own
// with XDamage on the root window, and on every damage notification one
// GetImage of just the marker strip (16 x 2 cells, at the top-left unless
// placed elsewhere: a viewer showing the remote desktop inside its window).
// What it reads is what any capturer would see at that moment, so the first
// read of a counter is when the app's frame reached the screen.
//
// Threads: owned and used by one thread. Blocking: the constructor and
// next() make round trips to the server; nothing here waits for events (the
// caller blocks on fd() until the connection has something to read).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct xcb_connection_t;

namespace voxl::bench {

// One read of the strip: brightness 0-255 per pixel, row-major.
struct MarkerStripImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> luma;
  int at(int x, int y) const { return luma[size_t(y) * size_t(width) + size_t(x)]; }
};

class MarkerStrip {
 public:
  enum class Next { kNothing, kRead, kFailed };

  // `display` empty means $DISPLAY; the strip's top-left corner is at `x`,
  // `y` on the screen. Throws std::runtime_error when the display cannot be
  // opened, lacks DAMAGE, does not hold the strip there or has a pixel
  // format other than 32 bits per pixel.
  MarkerStrip(const std::string& display, int cell, int x = 0, int y = 0);
  ~MarkerStrip();
  MarkerStrip(const MarkerStrip&) = delete;
  MarkerStrip& operator=(const MarkerStrip&) = delete;

  // The connection's socket: readable when events may be waiting.
  int fd() const;

  // Handles every event already received. When something was drawn since
  // the last read, clears the damage and reads the strip into `out`
  // (kRead); kNothing when nothing was; kFailed when the connection broke.
  // Clearing before reading means drawing after the read always notifies
  // again, so no frame is missed.
  Next next(MarkerStripImage& out);

  uint64_t failed_reads() const { return failed_reads_; }
  std::string error() const { return error_; }

 private:
  xcb_connection_t* c_ = nullptr;
  uint32_t root_ = 0;
  uint32_t damage_ = 0;
  uint8_t damage_event_ = 0;
  int x_ = 0;
  int y_ = 0;
  int width_ = 0;
  int height_ = 0;
  bool msb_first_ = false;
  int red_shift_ = 16, green_shift_ = 8, blue_shift_ = 0;
  uint64_t failed_reads_ = 0;
  std::string error_;

  bool read(MarkerStripImage& out);
};

}  // namespace voxl::bench
