// Shared memory for ShmGetImage: the local mapping (ShmMemory), attaching it
// on the X server (attach_shm), and a segment that does both and detaches
// itself (ShmSegment).
//
// memfd + ShmAttachFd (MIT-SHM 1.2, local socket) needs no SysV ids at all;
// the SysV path marks its segment IPC_RMID as soon as the server has
// attached it (or failed to), so the kernel frees it even if voxl crashes.
//
// Threads: ShmMemory may be destroyed on any thread (it only unmaps);
// attach_shm and ShmSegment belong to the thread that owns the connection.
// Blocking: attach_shm, ShmSegment::create and ~ShmSegment each make one
// round trip.
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

// `bytes` of shared memory mapped into this process; unmapped on
// destruction.
class ShmMemory {
 public:
  // Null with `error` on failure. `populate_bytes` of the start are
  // faulted in now, so the first grabs into fresh memory do not pay for it.
  static std::unique_ptr<ShmMemory> create(size_t bytes, ShmKind kind, size_t populate_bytes,
                                           std::string& error);
  ~ShmMemory();
  ShmMemory(const ShmMemory&) = delete;
  ShmMemory& operator=(const ShmMemory&) = delete;

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  ShmKind kind() const { return kind_; }

 private:
  friend std::string attach_shm(xcb_connection_t* c, xcb_shm_seg_t seg, ShmMemory& memory);
  explicit ShmMemory(ShmKind kind) : kind_(kind) {}

  ShmKind kind_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int memfd_ = -1;    // until handed to the server
  int sysv_id_ = -1;  // until marked for removal
};

// Attaches `memory` on the server as `seg` and waits for the answer; empty
// on success, else why not. Either way the memfd has been handed over and
// the SysV segment is marked for removal: it can be attached only once.
std::string attach_shm(xcb_connection_t* c, xcb_shm_seg_t seg, ShmMemory& memory);

// A segment attached for as long as it lives; destruction detaches on the
// server, waits for the server to confirm, then unmaps.
class ShmSegment {
 public:
  // Creates a segment of `bytes` and attaches it on the server. On failure
  // returns null and sets `error` to what went wrong.
  static std::unique_ptr<ShmSegment> create(xcb_connection_t* c, size_t bytes, ShmKind kind,
                                            std::string& error);
  ~ShmSegment();
  ShmSegment(const ShmSegment&) = delete;
  ShmSegment& operator=(const ShmSegment&) = delete;

  uint8_t* data() const { return memory_->data(); }
  size_t size() const { return memory_->size(); }
  ShmKind kind() const { return memory_->kind(); }
  xcb_shm_seg_t id() const { return seg_; }

 private:
  ShmSegment(xcb_connection_t* c, std::unique_ptr<ShmMemory> memory, xcb_shm_seg_t seg)
      : c_(c), memory_(std::move(memory)), seg_(seg) {}

  xcb_connection_t* c_;
  std::unique_ptr<ShmMemory> memory_;
  xcb_shm_seg_t seg_;
};

}  // namespace voxl::platform::x11
