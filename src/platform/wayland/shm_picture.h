// A picture in shared memory the compositor writes into: an unnamed memfd,
// mapped here, offered as one wl_buffer of a given format, size and stride.
//
// Threads: made, used and destroyed on the thread that owns its
// WaylandDisplay, before that display goes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/geometry.h"

struct wl_buffer;
struct wl_shm;

namespace voxl::platform::wayland {

class ShmPicture {
 public:
  // Null with `why` set when the memory cannot be made or mapped.
  static std::unique_ptr<ShmPicture> make(wl_shm* shm, uint32_t format, Size size, int stride, std::string& why);
  ~ShmPicture();
  ShmPicture(const ShmPicture&) = delete;
  ShmPicture& operator=(const ShmPicture&) = delete;

  wl_buffer* buffer() const { return buffer_; }
  const uint8_t* data() const { return data_; }
  uint32_t format() const { return format_; }
  Size size() const { return size_; }
  int stride() const { return stride_; }
  bool fits(uint32_t format, Size size, int stride) const {
    return format == format_ && size == size_ && stride == stride_;
  }

 private:
  ShmPicture() = default;

  wl_buffer* buffer_ = nullptr;
  uint8_t* data_ = nullptr;
  size_t bytes_ = 0;
  int fd_ = -1;
  uint32_t format_ = 0;
  Size size_;
  int stride_ = 0;
};

}  // namespace voxl::platform::wayland
