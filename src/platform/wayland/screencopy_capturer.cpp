#include "platform/wayland/screencopy_capturer.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "capture/frame_pool.h"
#include "capture/picture_copy.h"
#include "platform/wayland/screencopy_stream.h"
#include "platform/wayland/wayland_display.h"

namespace voxl::platform::wayland {

namespace {

// A grab is the compositor's answer: its next frame (at most one refresh
// away) and a copy. Something pending here is waited for this long even
// when the caller's timeout is shorter, as an X11 grab would be.
constexpr std::chrono::seconds kGrabLimit{2};
// How long a capture waits for the compositor's answer to the next frame's
// request (ask_ahead); a slower answer is read at the next capture.
constexpr std::chrono::milliseconds kAskAheadLimit{20};

}  // namespace

ScreencopyCapturer::ScreencopyCapturer(const std::string& display, Logger log, Rect region)
    : log_(std::move(log)), display_(std::make_unique<WaylandDisplay>(display)), region_(region) {
  stream_ = std::make_unique<ScreencopyStream>(*display_);
  output_ = display_->output_size();
  if (output_.width <= 0 || output_.height <= 0)
    throw std::runtime_error("the Wayland output " + display_->output_name() + " has no current mode");
  if (!region_.empty() && !Rect::from_size(output_).contains(region_))
    throw std::runtime_error(region_outside());
  size_ = region_.empty() ? output_ : region_.size();
  pending_.reset(size_);  // a new capturer's first frame is whole
  wake_fd_ = OwnedFile(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake_fd_.valid()) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

ScreencopyCapturer::~ScreencopyCapturer() {
  stream_.reset();  // its frame goes before the connection
}

std::string ScreencopyCapturer::describe() const {
  const std::string output = display_->output_name().empty() ? "the output" : display_->output_name();
  return "wlr-screencopy of " + output + (region_.empty() ? "" : ", region " + to_string(region_)) + " on " +
         display_->path() + " (shared memory, damage from the compositor)";
}

std::string ScreencopyCapturer::region_outside() const {
  return "capture region " + to_string(region_) + " does not lie on the " + std::to_string(output_.width) + "x" +
         std::to_string(output_.height) + " Wayland output";
}

void ScreencopyCapturer::invalidate(const Rect& r) { pending_.add(r); }

void ScreencopyCapturer::wake() {
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = write(wake_fd_.get(), &one, sizeof one);
}

bool ScreencopyCapturer::wait_for_frame(std::chrono::steady_clock::time_point deadline) {
  using State = ScreencopyStream::State;
  if (!lost_.empty()) return false;
  const bool now = !pending_.empty();
  if (stream_->state() == State::kIdle || (now && stream_->waiting_for_damage())) stream_->request(!now);
  const auto wait = display_->dispatch_until(
      [this] { return stream_->state() == State::kReady || stream_->state() == State::kFailed; }, deadline,
      wake_fd_.get());
  if (wait == WaylandDisplay::Wait::kFailed) lost_ = "the Wayland connection was lost: " + display_->error();
  return wait == WaylandDisplay::Wait::kDone;
}

bool ScreencopyCapturer::wait_for_change(std::chrono::milliseconds timeout) {
  if (!pending_.empty() || !lost_.empty()) return true;
  return wait_for_frame(std::chrono::steady_clock::now() + timeout) || !lost_.empty();
}

void ScreencopyCapturer::copy_blocks(const BlockMap& blocks, capture::Frame& frame) const {
  const ShmPicture& p = *stream_->picture();
  const capture::PictureView whole{p.data(), p.stride(), p.size(), red_first(p.format()), stream_->y_inverted()};
  capture::copy_into_frame(region_.empty() ? whole : capture::crop(whole, region_), blocks, frame);
}

void ScreencopyCapturer::ask_ahead() {
  using State = ScreencopyStream::State;
  // The picture has been read: the next one is asked for now, with the
  // compositor's answer awaited briefly so that the copy itself is asked
  // for too, and the compositor copies the output when it next draws while
  // this frame is encoded. Asked for at the next capture instead, every
  // other picture of a 60 Hz output was missed (29 of 60 frames a second).
  stream_->request(true);
  const auto wait = display_->dispatch_until(
      [this] { return stream_->copy_asked() || stream_->state() != State::kWaiting; },
      std::chrono::steady_clock::now() + kAskAheadLimit);
  if (wait == WaylandDisplay::Wait::kFailed || !display_->send_requests())
    lost_ = "the Wayland connection was lost: " + display_->error();
}

capture::CaptureResult ScreencopyCapturer::capture(capture::FramePool& pool, std::chrono::milliseconds timeout) {
  using State = ScreencopyStream::State;
  if (!lost_.empty()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
  const auto now = std::chrono::steady_clock::now();
  const bool pending = !pending_.empty();
  const auto deadline = pending ? std::max(now + timeout, now + kGrabLimit) : now + timeout;
  if (stream_->state() != State::kReady && !wait_for_frame(deadline)) {
    if (!lost_.empty()) return {capture::CaptureStatus::kReinit, nullptr, lost_};
    if (pending && std::chrono::steady_clock::now() >= deadline)
      return {capture::CaptureStatus::kTemporary, nullptr, "the compositor did not give a frame in 2 s"};
    return {capture::CaptureStatus::kNoChange, nullptr, {}};
  }
  if (stream_->state() == State::kFailed) {
    std::string why = stream_->failure();
    stream_->consume();
    return {capture::CaptureStatus::kTemporary, nullptr, why};
  }
  const auto grab_start = std::chrono::steady_clock::now();
  const Size s = stream_->picture()->size();
  if (s != output_) {
    log_->info("the Wayland output is now {}x{}", s.width, s.height);
    output_ = s;
    if (region_.empty()) size_ = s;
    pending_.reset(size_);
  }
  if (!region_.empty() && !Rect::from_size(s).contains(region_)) {
    stream_->consume();
    ask_ahead();
    return {capture::CaptureStatus::kTemporary, nullptr, region_outside()};
  }
  const Rect area = region_.empty() ? Rect::from_size(s) : region_;
  for (const Rect& r : stream_->damage()) pending_.add_seen_through(r, area);
  if (pending_.empty()) {
    // Everything that changed lies outside the region.
    stream_->consume();
    ask_ahead();
    return {capture::CaptureStatus::kNoChange, nullptr, {}};
  }

  auto lease = pool.acquire(size_);
  // The picture stays in shared memory; the next capture asks for a new one
  // at once, since the damage is still pending here.
  stream_->consume();
  if (!lease) return {capture::CaptureStatus::kTemporary, nullptr, "no free frame buffer"};
  capture::Frame& frame = *lease->frame;
  BlockMap written = pending_.blocks();
  if (lease->source) written.unite(lease->stale);
  else written.add_all();
  copy_blocks(written, frame);

  pending_.hand_to(frame);
  frame.origin = {region_.x, region_.y};
  frame.seq = ++seq_;
  frame.captured_at = std::chrono::steady_clock::now();
  frame.grab_us =
      uint32_t(std::chrono::duration_cast<std::chrono::microseconds>(frame.captured_at - grab_start).count());
  pool.publish(frame, written);
  ask_ahead();
  return {capture::CaptureStatus::kOk, std::move(lease->frame), {}};
}

}  // namespace voxl::platform::wayland
