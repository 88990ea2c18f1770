#include "platform/x11/framebuffer_source.h"

#include <sys/ipc.h>
#include <sys/shm.h>

#include <cerrno>
#include <cstring>

#include "platform/x11/sysv_shm_table.h"

namespace voxl::platform::x11 {

namespace {

// Attaches `shmid` read-only and validates its header; null with `why` set
// when it is not a usable framebuffer for this server.
const uint8_t* attach_checked(int shmid, Size root, int depth, size_t& size, XwdHeader& header,
                              std::string& why) {
  shmid_ds info{};
  if (shmctl(shmid, IPC_STAT, &info) != 0) {
    why = "segment " + std::to_string(shmid) + ": " + std::strerror(errno);
    return nullptr;
  }
  void* p = shmat(shmid, nullptr, SHM_RDONLY);
  if (p == reinterpret_cast<void*>(-1)) {
    why = "cannot attach segment " + std::to_string(shmid) + ": " + std::strerror(errno);
    return nullptr;
  }
  const auto* base = static_cast<const uint8_t*>(p);
  size = info.shm_segsz;
  auto h = parse_xwd_header({base, std::min(size, kXwdFixedHeaderBytes)}, size, why);
  if (h) why = check_against_server(*h, root, depth);
  if (!h || !why.empty()) {
    if (h) why = "segment " + std::to_string(shmid) + ": " + why;
    else why = "segment " + std::to_string(shmid) + ": not an Xvfb framebuffer (" + why + ")";
    shmdt(p);
    return nullptr;
  }
  header = *h;
  return base;
}

}  // namespace

std::unique_ptr<FramebufferSource> FramebufferSource::open(std::optional<pid_t> server_pid,
                                                           std::optional<int> known_shmid,
                                                           Size root, int root_depth,
                                                           std::string& why) {
  std::vector<int> candidates;
  if (known_shmid) {
    candidates.push_back(*known_shmid);
  } else if (server_pid) {
    for (const auto& s : read_sysv_shm_table())
      if (s.creator_pid == *server_pid && s.key == 0 && s.size > kXwdFixedHeaderBytes)
        candidates.push_back(s.shmid);
  } else {
    why = "the X server's process is unknown (not a local socket)";
    return nullptr;
  }
  if (candidates.empty()) {
    why = "the X server has no framebuffer segment (not Xvfb, or started without -shmem)";
    return nullptr;
  }
  std::string reasons;
  for (int id : candidates) {
    size_t size = 0;
    XwdHeader h;
    std::string one;
    if (const uint8_t* base = attach_checked(id, root, root_depth, size, h, one)) {
      std::unique_ptr<FramebufferSource> src(new FramebufferSource(id, base, size, h, root_depth));
      src->root_ = root;
      return src;
    }
    reasons += (reasons.empty() ? "" : "; ") + one;
  }
  why = reasons;
  return nullptr;
}

FramebufferSource::~FramebufferSource() { shmdt(base_); }

std::string FramebufferSource::describe() const {
  return "Xvfb framebuffer (segment " + std::to_string(shmid_) + ", stride " +
         std::to_string(header_.bytes_per_line) + ")";
}

std::string FramebufferSource::prepare(Size capture) {
  // The header does not change after a RandR resize; only the visible area
  // does. Anything larger than the framebuffer cannot be read from it.
  std::string why = check_against_server(header_, capture, depth_);
  if (!why.empty()) return why;
  root_ = capture;
  return {};
}

std::string FramebufferSource::grab(xcb_drawable_t, Rect origin, std::span<const Rect> rects,
                                    capture::Frame& frame) {
  const size_t stride = header_.bytes_per_line;
  const uint8_t* pixels = base_ + header_.pixel_offset;
  for (const Rect& r : rects) {
    const Rect src = r.translated(origin.x, origin.y);
    if (src.x < 0 || src.y < 0 || uint32_t(src.right()) > header_.pixmap_width ||
        uint32_t(src.bottom()) > header_.pixmap_height)
      return "rectangle " + to_string(src) + " lies outside the framebuffer";
    const size_t row_bytes = size_t(r.width) * capture::kBytesPerPixel;
    for (int y = 0; y < r.height; ++y) {
      std::memcpy(frame.row(r.y + y) + ptrdiff_t(r.x) * capture::kBytesPerPixel,
                  pixels + size_t(src.y + y) * stride + size_t(src.x) * capture::kBytesPerPixel, row_bytes);
    }
  }
  return {};
}

}  // namespace voxl::platform::x11
