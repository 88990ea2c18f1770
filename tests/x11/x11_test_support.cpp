#include "x11_test_support.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <stdexcept>

#include <spdlog/sinks/base_sink.h>

#include "platform/x11/sysv_shm_table.h"

namespace voxl::testing {

uint32_t pattern_at(int x, int y) {
  uint32_t h = uint32_t(x) * 0x9E3779B1u ^ uint32_t(y) * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h & 0xffffffu;
}

Painter::Painter(const std::string& display) {
  c_ = xcb_connect(display.c_str(), nullptr);
  if (xcb_connection_has_error(c_)) throw std::runtime_error("painter cannot connect to " + display);
  root_ = xcb_setup_roots_iterator(xcb_get_setup(c_)).data->root;
  gc_ = xcb_generate_id(c_);
  xcb_create_gc(c_, gc_, root_, 0, nullptr);
  sync();
}

Painter::~Painter() { xcb_disconnect(c_); }

void Painter::sync() { free(xcb_get_input_focus_reply(c_, xcb_get_input_focus(c_), nullptr)); }

void Painter::fill(xcb_drawable_t d, const Rect& r, uint32_t rgb) {
  xcb_change_gc(c_, gc_, XCB_GC_FOREGROUND, &rgb);
  const xcb_rectangle_t rect{int16_t(r.x), int16_t(r.y), uint16_t(r.width), uint16_t(r.height)};
  xcb_poly_fill_rectangle(c_, d, gc_, 1, &rect);
  sync();
}

void Painter::paint(const Rect& r, const std::function<uint32_t(int x, int y)>& pixel) {
  const size_t max_bytes = size_t(xcb_get_maximum_request_length(c_)) * 4 - 64;
  const int rows = std::max(1, int(max_bytes / (size_t(r.width) * 4)));
  std::vector<uint32_t> buf;
  for (int y0 = r.y; y0 < r.bottom(); y0 += rows) {
    const int h = std::min(rows, r.bottom() - y0);
    buf.resize(size_t(r.width) * size_t(h));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < r.width; ++x) buf[size_t(y) * size_t(r.width) + size_t(x)] = pixel(r.x + x, y0 + y);
    xcb_put_image(c_, XCB_IMAGE_FORMAT_Z_PIXMAP, root_, gc_, uint16_t(r.width), uint16_t(h),
                  int16_t(r.x), int16_t(y0), 0, 24, uint32_t(buf.size() * 4),
                  reinterpret_cast<const uint8_t*>(buf.data()));
  }
  sync();
}

void Painter::paint_pattern(const Rect& r) { paint(r, pattern_at); }

void Painter::paint_noise(const Rect& r, uint32_t seed) {
  uint32_t state = seed | 1u;  // xorshift32: cheap, and never stuck at 0
  paint(r, [&state](int, int) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state & 0xffffffu;
  });
}

xcb_window_t Painter::create_window(const Rect& r, uint32_t rgb) {
  const xcb_window_t w = xcb_generate_id(c_);
  const uint32_t values[] = {rgb, 1};
  xcb_create_window(c_, XCB_COPY_FROM_PARENT, w, root_, int16_t(r.x), int16_t(r.y),
                    uint16_t(r.width), uint16_t(r.height), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                    XCB_COPY_FROM_PARENT, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
  xcb_map_window(c_, w);
  sync();
  return w;
}

void Painter::resize_window(xcb_window_t w, Size s) {
  const uint32_t v[] = {uint32_t(s.width), uint32_t(s.height)};
  xcb_configure_window(c_, w, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, v);
  sync();
}

void Painter::move_window(xcb_window_t w, Point p) {
  const uint32_t v[] = {uint32_t(p.x), uint32_t(p.y)};
  xcb_configure_window(c_, w, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, v);
  sync();
}

void Painter::unmap_window(xcb_window_t w) {
  xcb_unmap_window(c_, w);
  sync();
}

void Painter::destroy_window(xcb_window_t w) {
  xcb_destroy_window(c_, w);
  sync();
}

namespace {

class MemorySink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  struct Entry {
    spdlog::level::level_enum level;
    std::string text;
  };
  std::vector<Entry> entries() {
    std::lock_guard lock(mutex_);
    return entries_;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    entries_.push_back({msg.level, std::string(msg.payload.data(), msg.payload.size())});
  }
  void flush_() override {}

 private:
  std::vector<Entry> entries_;
};

}  // namespace

CapturedLog make_captured_log() {
  auto sink = std::make_shared<MemorySink>();
  auto log = std::make_shared<spdlog::logger>("test", sink);
  log->set_level(spdlog::level::trace);
  return {log};
}

int CapturedLog::count(spdlog::level::level_enum level) const {
  auto* sink = static_cast<MemorySink*>(log->sinks().front().get());
  int n = 0;
  for (const auto& e : sink->entries()) n += e.level == level ? 1 : 0;
  return n;
}

std::vector<std::string> CapturedLog::messages() const {
  auto* sink = static_cast<MemorySink*>(log->sinks().front().get());
  std::vector<std::string> out;
  for (const auto& e : sink->entries()) out.push_back(e.text);
  return out;
}

int sysv_segments_of_this_process() {
  int n = 0;
  for (const auto& s : platform::x11::read_sysv_shm_table()) n += s.creator_pid == getpid() ? 1 : 0;
  return n;
}

int capture_memfd_mappings() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  int n = 0;
  while (std::getline(maps, line)) n += line.find("memfd:voxl-capture") != std::string::npos ? 1 : 0;
  return n;
}

int open_fd_count() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d)) ++n;
    closedir(d);
  }
  return n;
}

}  // namespace voxl::testing
