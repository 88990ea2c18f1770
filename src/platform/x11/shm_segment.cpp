#include "platform/x11/shm_segment.h"

#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

const char* to_string(ShmKind k) { return k == ShmKind::kMemfd ? "memfd" : "SysV"; }

std::unique_ptr<ShmSegment> ShmSegment::create(xcb_connection_t* c, size_t bytes, ShmKind kind,
                                               std::string& error) {
  if (bytes == 0) {
    error = "segment size is zero";
    return nullptr;
  }
  std::unique_ptr<ShmSegment> s(new ShmSegment(c, kind));
  s->size_ = bytes;
  s->seg_ = xcb_generate_id(c);

  if (kind == ShmKind::kMemfd) {
    const int fd = memfd_create("voxl-capture", MFD_CLOEXEC);
    if (fd < 0) {
      error = std::string("memfd_create: ") + std::strerror(errno);
      return nullptr;
    }
    if (ftruncate(fd, off_t(bytes)) != 0) {
      error = std::string("ftruncate: ") + std::strerror(errno);
      close(fd);
      return nullptr;
    }
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      error = std::string("mmap: ") + std::strerror(errno);
      close(fd);
      return nullptr;
    }
    s->data_ = static_cast<uint8_t*>(p);
    // XCB sends the descriptor and closes it.
    error = check_request(c, xcb_shm_attach_fd_checked(c, s->seg_, fd, 0));
    if (!error.empty()) {
      error = "server could not attach the memfd segment: " + error;
      return nullptr;  // destructor unmaps
    }
    s->attached_ = true;
    return s;
  }

  s->sysv_id_ = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
  if (s->sysv_id_ < 0) {
    error = std::string("shmget: ") + std::strerror(errno);
    return nullptr;
  }
  void* p = shmat(s->sysv_id_, nullptr, 0);
  if (p == reinterpret_cast<void*>(-1)) {
    error = std::string("shmat: ") + std::strerror(errno);
    shmctl(s->sysv_id_, IPC_RMID, nullptr);
    s->sysv_id_ = -1;
    return nullptr;
  }
  s->data_ = static_cast<uint8_t*>(p);
  error = check_request(c, xcb_shm_attach_checked(c, s->seg_, uint32_t(s->sysv_id_), 0));
  // Either way nobody else needs to find it by id any more: once the last
  // attachment goes, the kernel frees it.
  shmctl(s->sysv_id_, IPC_RMID, nullptr);
  if (!error.empty()) {
    error = "server could not attach the SysV segment (remote or TCP display?): " + error;
    return nullptr;
  }
  s->attached_ = true;
  return s;
}

ShmSegment::~ShmSegment() {
  if (attached_) {
    // Waiting for the reply guarantees the server no longer writes into the
    // memory before it is unmapped. An error (the segment was already
    // detached, the connection is gone) changes nothing for us.
    check_request(c_, xcb_shm_detach_checked(c_, seg_));
  }
  unmap();
}

void ShmSegment::unmap() {
  if (!data_) return;
  if (kind_ == ShmKind::kMemfd)
    munmap(data_, size_);
  else
    shmdt(data_);
  data_ = nullptr;
}

}  // namespace voxl::platform::x11
