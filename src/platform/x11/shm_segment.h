// A shared-memory segment attached to the X server for ShmGetImage.
//
// memfd + ShmAttachFd (MIT-SHM 1.2, local socket) needs no SysV ids at all;
// the SysV path marks its segment IPC_RMID as soon as the server has
// attached it, so the kernel frees it even if voxl crashes. Destruction
// detaches on the server, waits for the server to confirm, then unmaps.
//
// Threads: owned by the thread that owns the connection. Blocking: create()
// and the destructor each make one round trip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <xcb/shm.h>
#include <xcb/xcb.h>

namespace voxl::platform::x11 {

enum class ShmKind { kMemfd, kSysV };
const char* to_string(ShmKind k);

class ShmSegment {
 public:
  // Creates a segment of `bytes` and attaches it on the server. On failure
  // returns null and sets `error` to what went wrong.
  static std::unique_ptr<ShmSegment> create(xcb_connection_t* c, size_t bytes, ShmKind kind,
                                            std::string& error);
  ~ShmSegment();
  ShmSegment(const ShmSegment&) = delete;
  ShmSegment& operator=(const ShmSegment&) = delete;

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  ShmKind kind() const { return kind_; }
  xcb_shm_seg_t id() const { return seg_; }

 private:
  ShmSegment(xcb_connection_t* c, ShmKind kind) : c_(c), kind_(kind) {}
  void unmap();

  xcb_connection_t* c_;
  ShmKind kind_;
  xcb_shm_seg_t seg_ = 0;
  bool attached_ = false;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int sysv_id_ = -1;
};

}  // namespace voxl::platform::x11
