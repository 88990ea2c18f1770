#include "platform/portal/portal_capturer.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "capture/frame_pool.h"
#include "platform/portal/pipewire_stream.h"
#include "platform/portal/portal_session.h"

namespace voxl::platform::portal {

namespace {

constexpr size_t kMaxDamageRects = 64;
// How long a new stream may take to agree its format.
constexpr std::chrono::seconds kConnectLimit{10};
// Something pending before the first picture is waited for this long.
constexpr std::chrono::seconds kFirstPictureLimit{2};

}  // namespace

PortalCapturer::PortalCapturer(std::shared_ptr<PortalSession> session, Logger log)
    : log_(std::move(log)), session_(std::move(session)) {
  stream_ = std::make_unique<PipewireStream>(session_->open_pipewire_remote(), session_->stream().node, kConnectLimit);
  size_ = stream_->size();
  pending_blocks_ = BlockMap(size_);
  add_damage(Rect::from_size(size_));  // a new capturer's first frame is whole
  wake_fd_ = OwnedFile(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake_fd_.valid()) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

PortalCapturer::~PortalCapturer() = default;

std::string PortalCapturer::describe() const {
  return "PipeWire stream of " + session_->describe() + " (" + stream_->format_name() +
         " in shared memory, damage from the compositor)";
}

void PortalCapturer::add_damage(const Rect& r) {
  const Rect c = r.intersect(Rect::from_size(size_));
  if (c.empty()) return;
  pending_blocks_.add(c);
  if (pending_rects_.size() <= kMaxDamageRects) pending_rects_.push_back(c);
}

void PortalCapturer::invalidate(const Rect& r) { add_damage(r); }

void PortalCapturer::wake() {
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = write(wake_fd_.get(), &one, sizeof one);
}

bool PortalCapturer::take_stream_news() {
  if (!stream_->error().empty()) {
    lost_ = stream_->error();
    return false;
  }
  if (stream_->size() != size_) {
    size_ = stream_->size();
    log_->info("the shared screen is now {}x{}", size_.width, size_.height);
    pending_blocks_ = BlockMap(size_);
    pending_rects_.clear();
    add_damage(Rect::from_size(size_));
  }
  if (!stream_->fresh()) return true;
  if (stream_->whole()) {
    add_damage(Rect::from_size(size_));
  } else {
    for (const Rect& r : stream_->damage()) add_damage(r);
  }
  stream_->mark_read();
  return true;
}

bool PortalCapturer::wait_for_change(std::chrono::milliseconds timeout) {
  if (!pending_blocks_.empty() || !lost_.empty() || stream_->fresh()) return true;
  const auto w = stream_->wait(std::chrono::steady_clock::now() + timeout, wake_fd_.get());
  uint64_t drained = 0;
  [[maybe_unused]] ssize_t n = read(wake_fd_.get(), &drained, sizeof drained);
  return w == PipewireStream::Wait::kPicture || w == PipewireStream::Wait::kFailed;
}

void PortalCapturer::copy_blocks(const BlockMap& blocks, capture::Frame& frame) const {
  const HeldPicture& p = *stream_->picture();
  for (const Rect& r : blocks.to_rects()) {
    const Rect c = r.intersect(Rect::from_size(size_));
    for (int y = c.y; y < c.bottom(); ++y) {
      const uint8_t* src = p.data + ptrdiff_t(y) * p.stride + ptrdiff_t(c.x) * capture::kBytesPerPixel;
      uint8_t* dst = frame.row(y) + ptrdiff_t(c.x) * capture::kBytesPerPixel;
      if (!p.red_first) {
        std::memcpy(dst, src, size_t(c.width) * capture::kBytesPerPixel);
        continue;
      }
      for (int x = 0; x < c.width; ++x, src += 4, dst += 4) {
        dst[0] = src[2];
        dst[1] = src[1];
        dst[2] = src[0];
        dst[3] = 0;
      }
    }
  }
}

capture::CaptureResult PortalCapturer::capture(capture::FramePool& pool, std::chrono::milliseconds timeout) {
  if (!lost_.empty()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
  stream_->dispatch();
  if (!take_stream_news()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
  if (pending_blocks_.empty() || !stream_->picture()) {
    const auto now = std::chrono::steady_clock::now();
    // Something asked for before the first picture waits for it.
    const auto deadline = pending_blocks_.empty() ? now + timeout : std::max(now + timeout, now + kFirstPictureLimit);
    const auto w = stream_->wait(deadline, wake_fd_.get());
    uint64_t drained = 0;
    [[maybe_unused]] ssize_t n = read(wake_fd_.get(), &drained, sizeof drained);
    if (!take_stream_news()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
    if (w != PipewireStream::Wait::kPicture && (pending_blocks_.empty() || !stream_->picture())) {
      if (!pending_blocks_.empty() && std::chrono::steady_clock::now() >= deadline)
        return {capture::CaptureStatus::kTemporary, nullptr, "the desktop sent no picture in 2 s"};
      return {capture::CaptureStatus::kNoChange, nullptr, {}};
    }
  }
  const auto grab_start = std::chrono::steady_clock::now();
  auto lease = pool.acquire(size_);
  if (!lease) return {capture::CaptureStatus::kTemporary, nullptr, "no free frame buffer"};
  capture::Frame& frame = *lease->frame;
  BlockMap written = pending_blocks_;
  if (lease->source) written.unite(lease->stale);
  else written.add_all();
  copy_blocks(written, frame);

  frame.damage_blocks = pending_blocks_;
  if (pending_rects_.size() <= kMaxDamageRects) frame.damage_rects = pending_rects_;
  else frame.damage_rects = pending_blocks_.to_rects();
  frame.origin = {};
  frame.seq = ++seq_;
  frame.captured_at = std::chrono::steady_clock::now();
  frame.grab_us =
      uint32_t(std::chrono::duration_cast<std::chrono::microseconds>(frame.captured_at - grab_start).count());
  pool.publish(frame, written);
  pending_blocks_.clear();
  pending_rects_.clear();
  return {capture::CaptureStatus::kOk, std::move(lease->frame), {}};
}

}  // namespace voxl::platform::portal
