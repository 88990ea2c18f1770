// The desktop's clipboard, platform-neutral: voxl takes what applications
// copy and offers what viewers copy. The X11 implementation (CLIPBOARD
// selection) lives in input/x11.
//
// Threads: created and used on the loop thread; listeners are called there.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace voxl::input {

// Text is UTF-8 with mime "text/plain"; images are PNG bytes, "image/png".
struct ClipboardContent {
  std::string mime;
  std::string data;
  bool operator==(const ClipboardContent&) const = default;
};

inline constexpr std::string_view kMimeText = "text/plain";
inline constexpr std::string_view kMimePng = "image/png";
// Largest clipboard content carried either way (before base64).
inline constexpr size_t kMaxClipboardBytes = 8 * 1024 * 1024;

class Clipboard {
 public:
  virtual ~Clipboard() = default;

  struct Listener {
    std::function<void(const ClipboardContent&)> copied;  // an application copied this
    std::function<void(const std::string&)> refused;      // it copied something voxl cannot carry
  };
  virtual void set_listener(Listener listener) = 0;

  // The desktop's clipboard holds `content` from now on (voxl serves it to
  // applications that paste). False with `error` set when it cannot.
  virtual bool offer(ClipboardContent content, std::string& error) = 0;
  // Called once, on the loop, when the clipboard lost the desktop for good
  // (the X server went away); a RecoveringClipboard makes a new one.
  // Clipboards that cannot lose it never call it.
  virtual void set_lost_handler(std::function<void()> on_lost) = 0;
};

}  // namespace voxl::input
