#include "frame_putter.h"

#include <sys/ipc.h>
#include <sys/shm.h>

#include <algorithm>
#include <cstdlib>

#include <xcb/shm.h>

namespace voxl::bench {

namespace {

void sync(xcb_connection_t* c) { std::free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr)); }

}  // namespace

FramePutter::FramePutter(xcb_connection_t* c, xcb_window_t w, int width, int height, uint8_t depth)
    : c_(c), w_(w), gc_(xcb_generate_id(c)), width_(width), height_(height), depth_(depth) {
  xcb_create_gc(c_, gc_, w_, 0, nullptr);
  const size_t bytes = size_t(width) * size_t(height) * 4;
  const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c_, &xcb_shm_id);
  if (ext && ext->present) {
    shmid_ = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
    if (shmid_ >= 0) {
      void* addr = shmat(shmid_, nullptr, 0);
      seg_ = xcb_generate_id(c_);
      xcb_generic_error_t* err =
          addr == reinterpret_cast<void*>(-1) ? nullptr : xcb_request_check(c_, xcb_shm_attach_checked(c_, seg_, uint32_t(shmid_), 0));
      // Marked for removal now: it goes away once both sides detach.
      shmctl(shmid_, IPC_RMID, nullptr);
      if (addr == reinterpret_cast<void*>(-1) || err) {
        std::free(err);
        if (addr != reinterpret_cast<void*>(-1)) shmdt(addr);
        shmid_ = -1;
      } else {
        pixels_ = static_cast<uint32_t*>(addr);
      }
    }
  }
  if (!pixels_) {
    local_.assign(size_t(width) * size_t(height), 0);
    pixels_ = local_.data();
  }
}

FramePutter::~FramePutter() {
  if (shmid_ >= 0) {
    xcb_shm_detach(c_, seg_);
    sync(c_);
    shmdt(pixels_);
  }
  xcb_free_gc(c_, gc_);
}

void FramePutter::put() {
  if (shmid_ >= 0) {
    xcb_shm_put_image(c_, w_, gc_, uint16_t(width_), uint16_t(height_), 0, 0, uint16_t(width_), uint16_t(height_),
                      0, 0, depth_, XCB_IMAGE_FORMAT_Z_PIXMAP, 0, seg_, 0);
  } else {
    // Strips that fit the server's request length (in 4-byte units).
    const size_t max_bytes = size_t(xcb_get_maximum_request_length(c_)) * 4 - 64;
    const int rows = std::max(1, int(max_bytes / (size_t(width_) * 4)));
    for (int y = 0; y < height_; y += rows) {
      const int h = std::min(rows, height_ - y);
      xcb_put_image(c_, XCB_IMAGE_FORMAT_Z_PIXMAP, w_, gc_, uint16_t(width_), uint16_t(h), 0, int16_t(y), 0, depth_,
                    uint32_t(size_t(width_) * size_t(h) * 4),
                    reinterpret_cast<const uint8_t*>(pixels_ + size_t(y) * size_t(width_)));
    }
  }
  sync(c_);
}

}  // namespace voxl::bench
