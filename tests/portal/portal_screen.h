// The test portal's screen (voxl-test-portal): one picture, drawn as its
// stdin tells, and the PipeWire video streams that offer it, one for each
// started screen cast. A stream sends the whole picture in every buffer,
// with SPA_META_Header and the SPA_META_VideoDamage regions of what changed
// since the buffer before (a consumer gets them when it lists them in its
// own SPA_PARAM_Meta params: PipeWire gives a link the metas both ends
// list). The streams follow PipeWire's own driver rather than drive their
// graph (portal_screen.cpp says why).
//
// Threads: one, the portal's loop; PipeWire's main-loop callbacks run
// inside pw_loop_iterate() on it. Ownership: the portal's main owns the
// Picture and the PipeWire connection; each ScreenStream owns its pw_stream
// and reads the Picture, which outlives it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <pipewire/pipewire.h>
#include <spa/param/video/raw.h>

namespace voxl::testing::portal {

// A part of the picture, in pixels.
struct Region {
  int x = 0, y = 0, w = 0, h = 0;
  bool empty() const { return w <= 0 || h <= 0; }
};

// One of the 32-bit formats the portal offers, by its PipeWire name.
struct PixelFormat {
  std::string name;  // "BGRx", "RGBx" or "BGRA"
  spa_video_format spa = SPA_VIDEO_FORMAT_UNKNOWN;
};
std::optional<PixelFormat> pixel_format(const std::string& name);

class Picture {
 public:
  Picture(int width, int height, PixelFormat format);

  int width() const { return width_; }
  int height() const { return height_; }
  const PixelFormat& format() const { return format_; }
  // Rows of width() words, each a pixel as its four bytes lie in memory.
  const std::vector<uint32_t>& words() const { return words_; }

  // 0xRRGGBB everywhere; the whole picture changed.
  Region fill(uint32_t rgb);
  // 0xRRGGBB in the rectangle, clipped to the picture; what changed
  // (empty when it lies outside).
  Region rect(int x, int y, int w, int h, uint32_t rgb);

 private:
  uint32_t word(uint32_t rgb) const;

  int width_, height_;
  PixelFormat format_;
  std::vector<uint32_t> words_;
};

class ScreenStream {
 public:
  struct Events {
    std::function<void(uint32_t node)> ready;             // its node id is known
    std::function<void(const std::string& why)> failed;  // at most once
  };

  // Connects a video source stream to `core`; throws std::runtime_error
  // when PipeWire refuses it.
  ScreenStream(pw_core* core, const Picture& picture, Events events);
  ~ScreenStream();
  ScreenStream(const ScreenStream&) = delete;
  ScreenStream& operator=(const ScreenStream&) = delete;

  // `changed` of the picture changed: sent now, or as soon as a buffer is
  // free (with everything else that changed meanwhile).
  void changed(Region changed);

 private:
  static void on_state(void* self, pw_stream_state old, pw_stream_state state, const char* error);
  static void on_param(void* self, uint32_t id, const spa_pod* param);
  static void on_process(void* self);
  void offer_buffers();
  void send();

  const Picture& picture_;
  Events events_;
  pw_stream* stream_ = nullptr;
  spa_hook listener_{};
  pw_stream_events callbacks_{};
  bool announced_ = false;   // ready() called
  bool failed_ = false;      // failed() called
  bool negotiated_ = false;  // a format was agreed: buffers come
  std::vector<Region> damage_;  // not sent yet
  uint64_t sequence_ = 0;
};

}  // namespace voxl::testing::portal
