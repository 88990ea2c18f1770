// Owns one Win32 kernel object HANDLE (event, process, job, thread) and
// closes it on destruction. Move-only value; not thread-safe itself, though
// the kernel object it names may be used from any thread.
#pragma once

#include <windows.h>

#include <utility>

namespace voxl::platform::windows {

class OwnedHandle {
 public:
  OwnedHandle() = default;
  // Takes `h`; null and INVALID_HANDLE_VALUE both mean none.
  explicit OwnedHandle(HANDLE h) : h_(h == INVALID_HANDLE_VALUE ? nullptr : h) {}
  ~OwnedHandle() { reset(); }
  OwnedHandle(OwnedHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  OwnedHandle& operator=(OwnedHandle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  OwnedHandle(const OwnedHandle&) = delete;
  OwnedHandle& operator=(const OwnedHandle&) = delete;

  HANDLE get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }
  // The caller owns it afterwards.
  HANDLE release() { return std::exchange(h_, nullptr); }
  void reset() {
    if (h_) CloseHandle(h_);
    h_ = nullptr;
  }

 private:
  HANDLE h_ = nullptr;
};

}  // namespace voxl::platform::windows
