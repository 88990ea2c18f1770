#include "platform/portal/portal_damage_watcher.h"

#include <boost/asio/post.hpp>

#include "platform/portal/pipewire_stream.h"
#include "platform/portal/portal_session.h"

namespace voxl::platform::portal {

namespace asio = boost::asio;

PortalDamageWatcher::PortalDamageWatcher(asio::io_context& io, const std::shared_ptr<PortalSession>& session)
    : io_(io),
      reader_(std::make_unique<StreamReader>(session->picture_stream())),
      news_(io, reader_->news_fd()) {
  bool held = false;
  reader_->with_picture([&](const HeldPicture* p) { held = p != nullptr; });
  if (!held) reader_->wait(std::chrono::steady_clock::now() + std::chrono::seconds(2), -1);
  reader_->take_news();
}

PortalDamageWatcher::~PortalDamageWatcher() {
  *alive_ = false;
  boost::system::error_code ignored;
  news_.cancel(ignored);
  news_.release();
  reader_.reset();
}

void PortalDamageWatcher::async_wait(std::function<void()> ready) {
  ready_ = std::move(ready);
  if (reader_->has_news()) {
    asio::post(io_, [this, alive = alive_] {
      if (*alive) deliver();
    });
    return;
  }
  news_.async_wait(asio::posix::stream_descriptor::wait_read, [this, alive = alive_](const boost::system::error_code& ec) {
    if (!*alive || ec == asio::error::operation_aborted) return;
    deliver();  // a picture, or the stream failed: poll() and failed() tell
  });
}

void PortalDamageWatcher::deliver() {
  if (auto ready = std::move(ready_)) {
    ready_ = nullptr;
    ready();
  }
}

bool PortalDamageWatcher::poll() { return reader_->has_news(); }

void PortalDamageWatcher::sync() {}

bool PortalDamageWatcher::take(std::vector<Rect>& out) {
  const StreamNews news = reader_->take_news();
  if (!news.error.empty()) return false;
  if (news.whole) out.push_back(Rect::from_size(news.size));
  else out.insert(out.end(), news.damage.begin(), news.damage.end());
  return true;
}

bool PortalDamageWatcher::failed() const { return reader_->stream().failed(); }

}  // namespace voxl::platform::portal
