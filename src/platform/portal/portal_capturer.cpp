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

// Something pending before the first picture is waited for this long.
constexpr std::chrono::seconds kFirstPictureLimit{2};

}  // namespace

PortalCapturer::PortalCapturer(std::shared_ptr<PortalSession> session, Logger log, Rect region)
    : log_(std::move(log)), session_(std::move(session)), region_(region) {
  reader_ = std::make_unique<StreamReader>(session_->picture_stream());
  picture_ = reader_->take_news().size;
  // Before the first picture its size is the one the portal announced.
  if (picture_.width <= 0 && session_->stream().size) picture_ = *session_->stream().size;
  if (!region_.empty() && picture_.width > 0 && !Rect::from_size(picture_).contains(region_))
    throw std::runtime_error(region_outside());
  size_ = region_.empty() ? picture_ : region_.size();
  pending_.reset(size_);  // a new capturer's first frame is whole
  wake_fd_ = OwnedFile(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake_fd_.valid()) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

PortalCapturer::~PortalCapturer() = default;

std::string PortalCapturer::describe() const {
  return "PipeWire stream of " + session_->describe() + (region_.empty() ? "" : ", region " + to_string(region_)) +
         " (" + reader_->stream().format_name() + " in shared memory, damage from the compositor)";
}

std::string PortalCapturer::region_outside() const {
  return "capture region " + to_string(region_) + " does not lie on the " + std::to_string(picture_.width) + "x" +
         std::to_string(picture_.height) + " screen the desktop shares";
}

void PortalCapturer::invalidate(const Rect& r) { pending_.add(r); }

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
  if (news.size != picture_ && news.size.width > 0) {
    picture_ = news.size;
    if (region_.empty()) size_ = picture_;
    log_->info("the shared screen is now {}x{}", picture_.width, picture_.height);
    pending_.reset(size_);
  }
  if (news.whole) pending_.add_all();
  const Rect area = region_.empty() ? Rect::from_size(picture_) : region_;
  for (const Rect& r : news.damage) pending_.add_seen_through(r, area);
  return true;
}

bool PortalCapturer::wait_for_change(std::chrono::milliseconds timeout) {
  if (!pending_.empty() || !lost_.empty()) return true;
  const auto w = reader_->wait(std::chrono::steady_clock::now() + timeout, wake_fd_.get());
  drain_wake();
  return w == StreamReader::Wait::kNews;
}

capture::CaptureResult PortalCapturer::capture(capture::FramePool& pool, std::chrono::milliseconds timeout) {
  if (!lost_.empty() || !take_stream_news()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
  if (!region_.empty() && picture_.width > 0 && !Rect::from_size(picture_).contains(region_))
    return {capture::CaptureStatus::kTemporary, nullptr, region_outside()};
  if (!pending_.empty()) {
    if (auto frame = copy_pending(pool)) return {capture::CaptureStatus::kOk, std::move(frame), {}};
    if (pool_exhausted_) return {capture::CaptureStatus::kTemporary, nullptr, "no free frame buffer"};
  }
  // Nothing to copy yet: wait for the desktop's next picture. Something
  // asked for before the first picture waits for it.
  const auto now = std::chrono::steady_clock::now();
  const auto deadline = pending_.empty() ? now + timeout : std::max(now + timeout, now + kFirstPictureLimit);
  const bool news = reader_->wait(deadline, wake_fd_.get()) == StreamReader::Wait::kNews;
  drain_wake();
  // The session's end is read from its bus only while no picture comes
  // (the stream usually fails first): not a D-Bus read a frame.
  if (!news && session_->closed()) lost_ = "the desktop ended the screen-sharing session";
  if (!lost_.empty() || !take_stream_news()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
  if (!pending_.empty()) {
    if (auto frame = copy_pending(pool)) return {capture::CaptureStatus::kOk, std::move(frame), {}};
    if (pool_exhausted_) return {capture::CaptureStatus::kTemporary, nullptr, "no free frame buffer"};
    if (std::chrono::steady_clock::now() >= deadline)
      return {capture::CaptureStatus::kTemporary, nullptr, "the desktop sent no picture in 2 s"};
  }
  return {capture::CaptureStatus::kNoChange, nullptr, {}};
}

capture::FrameRef PortalCapturer::copy_pending(capture::FramePool& pool) {
  const auto start = std::chrono::steady_clock::now();
  auto lease = pool.acquire(size_);  // before the stream's lock, which the copy alone holds
  pool_exhausted_ = !lease;
  if (!lease) return nullptr;
  capture::Frame& frame = *lease->frame;
  BlockMap written = pending_.blocks();
  if (lease->source) written.unite(lease->stale);
  else written.add_all();
  bool copied = false;
  reader_->with_picture([&](const HeldPicture* p) {
    if (!p || p->size != picture_) return;  // none yet, or of a size the next news brings
    if (!region_.empty() && !Rect::from_size(picture_).contains(region_)) return;  // the next capture says why
    const capture::PictureView whole{p->data, p->stride, picture_, p->red_first, false};
    capture::copy_into_frame(region_.empty() ? whole : capture::crop(whole, region_), written, frame);
    copied = true;
  });
  if (!copied) return nullptr;
  pending_.hand_to(frame);
  frame.origin = {region_.x, region_.y};
  frame.seq = ++seq_;
  frame.captured_at = std::chrono::steady_clock::now();
  frame.grab_us = uint32_t(std::chrono::duration_cast<std::chrono::microseconds>(frame.captured_at - start).count());
  pool.publish(frame, written);
  return std::move(lease->frame);
}

}  // namespace voxl::platform::portal
