// capture::Capturer for an X11 display: the whole screen, a rectangle of it, or one
// window (followed as it resizes). Damage driven through XDamage; pixels from
// the Xvfb framebuffer, ShmGetImage or GetImage, chosen at start-up:
//
//   GetImage when VOXL_X11_DISABLE_SHM is 1/true/yes/on, MIT-SHM is missing
//   or older than 1.1, the pixel format is not 32 bpp, or no segment can be
//   created, mapped or attached (remote and TCP displays); otherwise the
//   framebuffer of a local Xvfb started with -shmem (screen and rectangle
//   targets), else ShmGetImage (memfd on MIT-SHM 1.2 over a local socket,
//   SysV otherwise). The choice and its reason are logged.
//
// With ShmGetImage the frames themselves are the shared segments (the pool
// gets them from the source's allocator): the server writes damaged rows in
// place, one copy; see shm_source.h.
//
// At run time a failed grab is retried with GetImage for that frame; only if
// the retry succeeds does the capturer switch to GetImage for good (one
// warning). If both fail, the error is returned and SHM stays.
//
// Threads: see capture::Capturer. Owns its own X connection.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/logging.h"
#include "capture/capturer.h"
#include "platform/owned_file.h"
#include "platform/x11/pixel_source.h"
#include "platform/x11/shm_segment.h"

namespace voxl::platform::x11 {

class XcbConnection;
class DamageTracker;
class GetImageSource;

struct X11CaptureOptions {
  enum class Target { kScreen, kRegion, kWindow };

  std::string display{};  // empty: $DISPLAY
  Target target = Target::kScreen;
  Rect region{};          // kRegion, in root coordinates; must lie on the screen
  uint32_t window = 0;    // kWindow
  bool allow_shm = true;  // false: GetImage only (like the environment switch)
  bool allow_framebuffer = true;
  std::optional<ShmKind> shm_kind{};     // force one segment kind (tests, benchmarks)
  std::optional<int> framebuffer_shmid{};  // known when voxl started the Xvfb itself
  Logger log{};                          // required
};

class X11Capturer final : public capture::Capturer {
 public:
  // Throws std::runtime_error with a readable message when the display
  // cannot be opened, lacks DAMAGE/XFIXES, or the target does not exist.
  explicit X11Capturer(X11CaptureOptions options);
  ~X11Capturer() override;

  capture::CaptureResult capture(capture::FramePool& pool, std::chrono::milliseconds timeout) override;

  bool wait_for_change(std::chrono::milliseconds timeout) override;
  void wait_for_quiet(std::chrono::microseconds quiet, std::chrono::microseconds longest) override;
  void invalidate(const Rect& r) override;
  void wake() override;
  Size size() const override { return size_; }
  Point origin() const override { return root_origin_; }
  std::string describe() const override;

  SourceKind source_kind() const { return active_->kind(); }
  bool uses_shm() const { return source_kind() == SourceKind::kShm; }
  // Times the capturer gave up its primary source for GetImage (0 or 1).
  int fallbacks() const { return fallbacks_; }
  // Diagnostics and tests: the server-side segment id of the SHM source, 0 if none.
  uint32_t shm_segment_id() const;
  const std::string& source_reason() const { return reason_; }

 private:
  void choose_source();
  // A ShmGetImage source for the current size, or null with `why`.
  [[nodiscard]] std::unique_ptr<PixelSource> open_shm(std::string& why);
  void drain_events();
  // Waits for X events until `deadline`, to the microsecond (ppoll): false
  // after the deadline or wake().
  [[nodiscard]] bool wait_for_events(std::chrono::steady_clock::time_point deadline);
  // Moves the server's damage into pending_blocks_ (re-arming its report).
  void take_damage();
  [[nodiscard]] bool change_pending() const;
  void resize_to(Size s);
  // Where the captured window's 0,0 lies on the root now (a round trip);
  // nullopt when the window is gone.
  [[nodiscard]] std::optional<Point> window_position();
  void add_damage(const Rect& capture_rect);
  // Prepares the active source for the current size, replacing a primary
  // source that cannot serve it; empty or why GetImage cannot either.
  [[nodiscard]] std::string prepare_active();
  // GetImage for good, the primary source (and its segments) gone.
  void fall_back(const std::string& why);
  // A frame for the active source: in its own buffers (shared memory) when
  // it has an allocator, else the pool's heap buffers.
  [[nodiscard]] std::optional<capture::FramePool::Lease> acquire(capture::FramePool& pool);
  // Empty, or why the grab failed.
  [[nodiscard]] std::string grab(std::span<const Rect> rects, capture::Frame& frame);

  X11CaptureOptions opt_;
  Logger log_;
  std::unique_ptr<XcbConnection> conn_;
  std::unique_ptr<DamageTracker> damage_;
  std::unique_ptr<PixelSource> primary_;
  std::unique_ptr<GetImageSource> get_image_;
  PixelSource* active_ = nullptr;
  std::string reason_;
  int fallbacks_ = 0;
  bool memfd_possible_ = false;

  uint32_t drawable_ = 0;
  Rect origin_;  // x, y: drawable offset of the capture area
  Point root_origin_;  // root position of the capture area's 0,0
  Size size_;
  Size prepared_;
  Size root_size_;  // followed for region captures
  bool gone_ = false;

  BlockMap pending_blocks_;
  std::vector<Rect> pending_rects_;
  std::vector<Rect> scratch_;
  uint64_t seq_ = 0;
  // An eventfd: wake() counts it up, wait_for_events() polls it beside the
  // X connection and drains it. Closed with the capturer, also when the
  // constructor fails after making it.
  OwnedFile wake_fd_;
};

}  // namespace voxl::platform::x11
