// Reads pixels straight out of a local Xvfb's framebuffer (Xvfb -shmem),
// attached read-only: no X request and no server-side copy per frame.
//
// The segment is found from the server's process id (socket peer
// credentials) in /proc/sysvipc/shm, or given by whoever started that Xvfb.
// Its XWD header is validated against the server; the visible area is the
// server's root size (RandR may have shrunk it), the stride the header's.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>

#include "platform/x11/pixel_source.h"
#include "platform/x11/xwd_header.h"

namespace voxl::platform::x11 {

class FramebufferSource final : public PixelSource {
 public:
  // Attaches the framebuffer of the Xvfb with process id `server_pid` (or the
  // segment `known_shmid`) and checks it against the server's root size and
  // depth. Null with `why` set when there is none or it does not match.
  static std::unique_ptr<FramebufferSource> open(std::optional<pid_t> server_pid,
                                                 std::optional<int> known_shmid, Size root,
                                                 int root_depth, std::string& why);
  ~FramebufferSource() override;

  SourceKind kind() const override { return SourceKind::kFramebuffer; }
  std::string describe() const override;
  // Re-checks the header against the root size, which the caller passes as
  // the capture size for screen and region captures.
  std::string prepare(Size capture) override;
  // `drawable` is ignored: the framebuffer is the root window's picture.
  std::string grab(xcb_drawable_t drawable, Rect origin, std::span<const Rect> rects,
                   capture::Frame& frame) override;

  int shmid() const { return shmid_; }
  const XwdHeader& header() const { return header_; }

 private:
  FramebufferSource(int shmid, const uint8_t* base, size_t size, XwdHeader h, int depth)
      : shmid_(shmid), base_(base), size_(size), header_(h), depth_(depth) {}

  int shmid_;
  const uint8_t* base_;
  size_t size_;
  XwdHeader header_;
  int depth_;
  Size root_;
};

}  // namespace voxl::platform::x11
