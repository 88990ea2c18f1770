#include "platform/windows/capture/windows_damage_watcher.h"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <condition_variable>
#include <functional>
#include <mutex>

#include "platform/windows/capture/windows_capturer.h"

namespace voxl::platform::windows {

namespace {

// Rectangles kept between two take()s; beyond it the whole screen counts.
constexpr size_t kMaxRects = 256;
// How long one watch waits before looking at stop and sync requests again
// (both also interrupt it through the capturer's wake()).
constexpr std::chrono::milliseconds kWatchWait{1000};

}  // namespace

struct WindowsDamageWatcher::Shared {
  explicit Shared(boost::asio::io_context& i) : io(i) {}
  boost::asio::io_context& io;
  std::atomic<bool> alive{true};  // false once the watcher is gone (set on the loop)

  std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  bool notified = false;  // a change since the last take()
  // A change or the failure not yet handed to a `ready`: each is reported
  // once, so a caller that waits again without taking is not called back
  // at once, over and over.
  bool undelivered = false;
  bool failed = false;
  std::vector<Rect> rects;
  std::function<void()> ready;
  uint64_t sync_requested = 0;
  uint64_t sync_done = 0;
};

WindowsDamageWatcher::WindowsDamageWatcher(boost::asio::io_context& io, std::unique_ptr<WindowsCapturer> capturer)
    : shared_(std::make_shared<Shared>(io)), capturer_(std::move(capturer)) {
  // The first grab counts everything as changed: that is not a change.
  capturer_->wait_for_change(std::chrono::milliseconds(0));
  std::vector<Rect> ignore;
  capturer_->take_damage(ignore);
  thread_ = std::thread([this] { run(); });
}

WindowsDamageWatcher::~WindowsDamageWatcher() {
  shared_->alive = false;
  {
    std::lock_guard lock(shared_->mu);
    shared_->stop = true;
  }
  shared_->cv.notify_all();
  capturer_->wake();
  thread_.join();
}

// Called with the lock held: hands `ready` to the loop, if someone waits
// and there is something to report.
void WindowsDamageWatcher::notify_locked() {
  if (!shared_->ready || !shared_->undelivered) return;
  shared_->undelivered = false;
  std::function<void()> ready = std::move(shared_->ready);
  shared_->ready = nullptr;
  boost::asio::post(shared_->io, [s = shared_, ready = std::move(ready)] {
    if (!s->alive) return;
    try {
      ready();
    } catch (...) {
      // A callback's failure is its own; the loop carries on.
    }
  });
}

void WindowsDamageWatcher::watch_once(bool now) {
  std::vector<Rect> rects;
  const bool changed = capturer_->wait_for_change(now ? std::chrono::milliseconds(0) : kWatchWait);
  const bool got = changed && capturer_->take_damage(rects);
  std::unique_lock lock(shared_->mu);
  if (got) {
    if (shared_->rects.size() + rects.size() > kMaxRects) {
      shared_->rects.assign(1, Rect::from_size(capturer_->size()));
    } else {
      shared_->rects.insert(shared_->rects.end(), rects.begin(), rects.end());
    }
    if (!shared_->notified) {
      shared_->notified = true;
      shared_->undelivered = true;
      notify_locked();
    }
  } else if (changed && !now) {
    // A failed grab: look again after a pause instead of at once.
    shared_->cv.wait_for(lock, WindowsCapturer::kGdiPollInterval, [this] { return shared_->stop; });
  }
}

void WindowsDamageWatcher::run() {
  try {
    for (;;) {
      uint64_t sync_target = 0;
      {
        std::unique_lock lock(shared_->mu);
        shared_->cv.wait(lock, [this] {
          return shared_->stop || shared_->sync_requested != shared_->sync_done || !shared_->notified;
        });
        if (shared_->stop) return;
        sync_target = shared_->sync_requested;
      }
      const bool syncing = sync_target != shared_->sync_done;  // only this thread writes sync_done
      watch_once(syncing);
      if (syncing) {
        std::lock_guard lock(shared_->mu);
        shared_->sync_done = sync_target;
        shared_->cv.notify_all();
      }
    }
  } catch (...) {
    // Nothing escapes the thread: the watcher reports itself failed.
    std::lock_guard lock(shared_->mu);
    shared_->failed = true;
    shared_->undelivered = true;
    shared_->sync_done = shared_->sync_requested;
    shared_->cv.notify_all();
    notify_locked();
  }
}

void WindowsDamageWatcher::async_wait(std::function<void()> ready) {
  std::lock_guard lock(shared_->mu);
  shared_->ready = std::move(ready);
  notify_locked();
}

bool WindowsDamageWatcher::poll() {
  std::lock_guard lock(shared_->mu);
  return shared_->notified || shared_->failed;
}

void WindowsDamageWatcher::sync() {
  std::unique_lock lock(shared_->mu);
  if (shared_->failed) return;
  const uint64_t mine = ++shared_->sync_requested;
  shared_->cv.notify_all();
  lock.unlock();
  capturer_->wake();
  lock.lock();
  shared_->cv.wait(lock, [&] { return shared_->sync_done >= mine || shared_->failed; });
}

bool WindowsDamageWatcher::take(std::vector<Rect>& out) {
  sync();
  std::lock_guard lock(shared_->mu);
  if (shared_->failed) return false;
  out.insert(out.end(), shared_->rects.begin(), shared_->rects.end());
  shared_->rects.clear();
  shared_->notified = false;
  shared_->undelivered = false;  // taken: nothing left to report
  shared_->cv.notify_all();
  return true;
}

bool WindowsDamageWatcher::failed() const {
  std::lock_guard lock(shared_->mu);
  return shared_->failed;
}

}  // namespace voxl::platform::windows
