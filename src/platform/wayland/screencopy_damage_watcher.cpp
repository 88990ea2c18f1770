#include "platform/wayland/screencopy_damage_watcher.h"

#include <boost/asio/post.hpp>

#include "platform/wayland/screencopy_stream.h"
#include "platform/wayland/wayland_display.h"

namespace voxl::platform::wayland {

namespace asio = boost::asio;

ScreencopyDamageWatcher::ScreencopyDamageWatcher(asio::io_context& io, const std::string& display)
    : io_(io),
      display_(std::make_unique<WaylandDisplay>(display)),
      stream_(std::make_unique<ScreencopyStream>(*display_)),
      socket_(io, display_->fd()) {
  // The first frame is the whole output, at once: it is the baseline the
  // damage of the frames after it is counted from, and not a change.
  stream_->request(false);
  display_->dispatch_until([this] { return answered(); }, std::chrono::steady_clock::now() + std::chrono::seconds(5));
  stream_->consume();
  stream_->request(true);
  display_->dispatch_ready();
}

ScreencopyDamageWatcher::~ScreencopyDamageWatcher() {
  *alive_ = false;
  boost::system::error_code ignored;
  socket_.cancel(ignored);
  socket_.release();
  stream_.reset();
}

bool ScreencopyDamageWatcher::answered() const {
  const auto s = stream_->state();
  return s == ScreencopyStream::State::kReady || s == ScreencopyStream::State::kFailed || display_->failed();
}

void ScreencopyDamageWatcher::async_wait(std::function<void()> ready) {
  ready_ = std::move(ready);
  // Events libwayland already read (during a round trip) are not readable
  // on the socket again: look at what is queued first.
  display_->dispatch_ready();
  if (due()) {
    reported_ = true;
    asio::post(io_, [this, alive = alive_] {
      if (*alive) deliver();
    });
    return;
  }
  arm();
}

bool ScreencopyDamageWatcher::due() const { return display_->failed() || (answered() && !reported_); }

void ScreencopyDamageWatcher::arm() {
  socket_.async_wait(asio::posix::stream_descriptor::wait_read,
                     [this, alive = alive_](const boost::system::error_code& ec) {
                       if (!*alive || ec == asio::error::operation_aborted) return;
                       // Read what came, or the socket stays readable.
                       display_->dispatch_ready();
                       // Quiet until take() once a change was reported, as
                       // the contract asks: the compositor's other events
                       // are read here and nothing more.
                       if (!due()) return arm();
                       reported_ = true;
                       deliver();
                     });
}

void ScreencopyDamageWatcher::deliver() {
  if (auto ready = std::move(ready_)) {
    ready_ = nullptr;
    ready();
  }
}

bool ScreencopyDamageWatcher::poll() {
  display_->dispatch_ready();
  return stream_->state() == ScreencopyStream::State::kReady;
}

void ScreencopyDamageWatcher::sync() { display_->roundtrip(); }

bool ScreencopyDamageWatcher::take(std::vector<Rect>& out) {
  reported_ = false;
  if (display_->failed()) return false;
  display_->dispatch_ready();
  bool ok = true;
  switch (stream_->state()) {
    case ScreencopyStream::State::kReady:
      out.insert(out.end(), stream_->damage().begin(), stream_->damage().end());
      break;
    case ScreencopyStream::State::kFailed:
      ok = false;  // the copy failed: say everything may have changed
      break;
    default:
      return true;  // nothing reported yet; the frame asked for still waits
  }
  stream_->consume();
  stream_->request(true);
  display_->dispatch_ready();
  return ok;
}

bool ScreencopyDamageWatcher::failed() const { return display_->failed(); }

}  // namespace voxl::platform::wayland
