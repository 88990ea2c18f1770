#include "platform/x11/shm_segment.h"

#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

const char* to_string(ShmKind k) { return k == ShmKind::kMemfd ? "memfd" : "SysV"; }

std::unique_ptr<ShmMemory> ShmMemory::create(size_t bytes, ShmKind kind, size_t populate_bytes,
                                             std::string& error) {
  if (bytes == 0) {
    error = "segment size is zero";
    return nullptr;
  }
  std::unique_ptr<ShmMemory> m(new ShmMemory(kind));
  if (kind == ShmKind::kMemfd) {
    m->memfd_ = memfd_create("voxl-capture", MFD_CLOEXEC);
    if (m->memfd_ < 0) {
      error = std::string("memfd_create: ") + std::strerror(errno);
      return nullptr;
    }
    if (ftruncate(m->memfd_, off_t(bytes)) != 0) {
      error = std::string("ftruncate: ") + std::strerror(errno);
      return nullptr;
    }
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, m->memfd_, 0);
    if (p == MAP_FAILED) {
      error = std::string("mmap: ") + std::strerror(errno);
      return nullptr;
    }
    m->data_ = static_cast<uint8_t*>(p);
  } else {
    m->sysv_id_ = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
    if (m->sysv_id_ < 0) {
      error = std::string("shmget: ") + std::strerror(errno);
      return nullptr;
    }
    void* p = shmat(m->sysv_id_, nullptr, 0);
    if (p == reinterpret_cast<void*>(-1)) {
      error = std::string("shmat: ") + std::strerror(errno);
      return nullptr;  // the destructor removes the id
    }
    m->data_ = static_cast<uint8_t*>(p);
  }
  m->size_ = bytes;
  // Best effort: an older kernel without MADV_POPULATE_WRITE faults lazily.
  if (populate_bytes > 0) madvise(m->data_, std::min(populate_bytes, bytes), MADV_POPULATE_WRITE);
  return m;
}

ShmMemory::~ShmMemory() {
  if (data_) {
    if (kind_ == ShmKind::kMemfd)
      munmap(data_, size_);
    else
      shmdt(data_);
  }
  if (memfd_ >= 0) close(memfd_);
  if (sysv_id_ >= 0) shmctl(sysv_id_, IPC_RMID, nullptr);
}

std::string attach_shm(xcb_connection_t* c, xcb_shm_seg_t seg, ShmMemory& m) {
  if (m.kind_ == ShmKind::kMemfd) {
    // XCB sends the descriptor and closes it.
    const int fd = m.memfd_;
    m.memfd_ = -1;
    std::string error = check_request(c, xcb_shm_attach_fd_checked(c, seg, fd, 0));
    if (!error.empty()) return "server could not attach the memfd segment: " + error;
    return {};
  }
  std::string error = check_request(c, xcb_shm_attach_checked(c, seg, uint32_t(m.sysv_id_), 0));
  // Either way nobody else needs to find it by id any more: once the last
  // attachment goes, the kernel frees it.
  shmctl(m.sysv_id_, IPC_RMID, nullptr);
  m.sysv_id_ = -1;
  if (!error.empty())
    return "server could not attach the SysV segment (remote or TCP display?): " + error;
  return {};
}

std::unique_ptr<ShmSegment> ShmSegment::create(xcb_connection_t* c, size_t bytes, ShmKind kind,
                                               std::string& error) {
  auto memory = ShmMemory::create(bytes, kind, 0, error);
  if (!memory) return nullptr;
  const xcb_shm_seg_t seg = xcb_generate_id(c);
  error = attach_shm(c, seg, *memory);
  if (!error.empty()) return nullptr;  // unmapped by the memory's destructor
  return std::unique_ptr<ShmSegment>(new ShmSegment(c, std::move(memory), seg));
}

ShmSegment::~ShmSegment() {
  // Waiting for the reply guarantees the server no longer writes into the
  // memory before it is unmapped. An error (the segment was already
  // detached, the connection is gone) changes nothing for us.
  check_request(c_, xcb_shm_detach_checked(c_, seg_));
}

}  // namespace voxl::platform::x11
