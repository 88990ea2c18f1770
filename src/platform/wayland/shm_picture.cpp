#include "platform/wayland/shm_picture.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <wayland-client.h>

namespace voxl::platform::wayland {

std::unique_ptr<ShmPicture> ShmPicture::make(wl_shm* shm, uint32_t format, Size size, int stride, std::string& why) {
  if (size.width <= 0 || size.height <= 0 || stride < size.width * 4 || size.height > (1 << 15) ||
      stride > (1 << 17)) {
    why = "the compositor asked for an impossible picture (" + std::to_string(size.width) + "x" +
          std::to_string(size.height) + ", stride " + std::to_string(stride) + ")";
    return nullptr;
  }
  std::unique_ptr<ShmPicture> p(new ShmPicture);
  p->format_ = format;
  p->size_ = size;
  p->stride_ = stride;
  p->bytes_ = size_t(stride) * size_t(size.height);
  p->fd_ = memfd_create("voxl-wayland-picture", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (p->fd_ < 0 || ftruncate(p->fd_, off_t(p->bytes_)) != 0) {
    why = std::string("cannot make shared memory for the picture: ") + std::strerror(errno);
    return nullptr;
  }
  void* m = mmap(nullptr, p->bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd_, 0);
  if (m == MAP_FAILED) {
    why = std::string("cannot map the picture's shared memory: ") + std::strerror(errno);
    return nullptr;
  }
  p->data_ = static_cast<uint8_t*>(m);
  wl_shm_pool* pool = wl_shm_create_pool(shm, p->fd_, int32_t(p->bytes_));
  p->buffer_ = wl_shm_pool_create_buffer(pool, 0, size.width, size.height, stride, format);
  wl_shm_pool_destroy(pool);  // the buffer keeps the memory it needs
  return p;
}

ShmPicture::~ShmPicture() {
  if (buffer_) wl_buffer_destroy(buffer_);
  if (data_) munmap(data_, bytes_);
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace voxl::platform::wayland
