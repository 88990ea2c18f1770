#include "platform/portal/portal_capturer.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "capture/frame_pool.h"
#include "capture/picture_copy.h"
#include "platform/portal/pipewire_stream.h"
#include "platform/portal/portal_session.h"

namespace voxl::platform::portal {

namespace {

constexpr size_t kMaxDamageRects = 64;
// Something pending before the first picture is waited for this long.
constexpr std::chrono::seconds kFirstPictureLimit{2};

}  // namespace

PortalCapturer::PortalCapturer(std::shared_ptr<PortalSession> session, Logger log)
    : log_(std::move(log)), session_(std::move(session)) {
  reader_ = std::make_unique<StreamReader>(session_->picture_stream());
  size_ = reader_->take_news().size;
  pending_blocks_ = BlockMap(size_);
  add_damage(Rect::from_size(size_));  // a new capturer's first frame is whole
  wake_fd_ = OwnedFile(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake_fd_.valid()) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

PortalCapturer::~PortalCapturer() = default;

std::string PortalCapturer::describe() const {
  return "PipeWire stream of " + session_->describe() + " (" + reader_->stream().format_name() +
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

void PortalCapturer::drain_wake() {
  uint64_t count = 0;
  [[maybe_unused]] ssize_t n = read(wake_fd_.get(), &count, sizeof count);
}

bool PortalCapturer::take_stream_news() {
  const StreamNews news = reader_->take_news();
  if (!news.error.empty()) {
    lost_ = news.error;
    return false;
  }
  if (news.size != size_ && news.size.width > 0) {
    size_ = news.size;
    log_->info("the shared screen is now {}x{}", size_.width, size_.height);
    pending_blocks_ = BlockMap(size_);
    pending_rects_.clear();
    add_damage(Rect::from_size(size_));
  }
  if (news.whole) add_damage(Rect::from_size(size_));
  for (const Rect& r : news.damage) add_damage(r);
  return true;
}

bool PortalCapturer::has_picture() const {
  bool held = false;
  reader_->with_picture([&](const HeldPicture* p) { held = p != nullptr && p->size == size_; });
  return held;
}

bool PortalCapturer::wait_for_change(std::chrono::milliseconds timeout) {
  if (!pending_blocks_.empty() || !lost_.empty()) return true;
  const auto w = reader_->wait(std::chrono::steady_clock::now() + timeout, wake_fd_.get());
  drain_wake();
  return w == StreamReader::Wait::kNews;
}

capture::CaptureResult PortalCapturer::capture(capture::FramePool& pool, std::chrono::milliseconds timeout) {
  if (lost_.empty() && session_->closed()) lost_ = "the desktop ended the screen-sharing session";
  if (!lost_.empty() || !take_stream_news()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
  if (pending_blocks_.empty() || !has_picture()) {
    const auto now = std::chrono::steady_clock::now();
    // Something asked for before the first picture waits for it.
    const auto deadline = pending_blocks_.empty() ? now + timeout : std::max(now + timeout, now + kFirstPictureLimit);
    reader_->wait(deadline, wake_fd_.get());
    drain_wake();
    if (!take_stream_news()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
    if (pending_blocks_.empty() || !has_picture()) {
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
  bool copied = false;
  reader_->with_picture([&](const HeldPicture* p) {
    if (!p || p->size != size_) return;  // the size changed meanwhile: the next capture follows
    capture::copy_into_frame({p->data, p->stride, size_, p->red_first, false}, written, frame);
    copied = true;
  });
  if (!copied) return {capture::CaptureStatus::kTemporary, nullptr, "the shared screen changed size"};

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
