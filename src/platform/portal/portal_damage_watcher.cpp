#include "platform/portal/portal_damage_watcher.h"

#include <boost/asio/post.hpp>

#include "platform/portal/pipewire_stream.h"
#include "platform/portal/portal_session.h"

namespace voxl::platform::portal {

namespace asio = boost::asio;

PortalDamageWatcher::PortalDamageWatcher(asio::io_context& io, std::shared_ptr<PortalSession> session)
    : io_(io),
      session_(std::move(session)),
      reader_(std::make_unique<StreamReader>(session_->picture_stream())),
      news_(io, reader_->news_fd()) {
  reader_->take_news();  // the baseline: what the stream holds now
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
  if (failed() || (reader_->has_news() && !reported_)) {
    reported_ = true;
    asio::post(io_, [this, alive = alive_] {
      if (*alive) deliver();
    });
    return;
  }
  arm();
}

void PortalDamageWatcher::arm() {
  news_.async_wait(asio::posix::stream_descriptor::wait_read, [this, alive = alive_](const boost::system::error_code& ec) {
    if (!*alive || ec == asio::error::operation_aborted) return;
    reader_->clear_signal();
    // Quiet until take() once a change was reported, as the contract asks.
    if (!failed() && (reported_ || !reader_->has_news())) return arm();
    reported_ = true;
    deliver();
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
  reported_ = false;
  const StreamNews news = reader_->take_news();
  if (!news.error.empty()) return false;
  if (news.whole) out.push_back(Rect::from_size(news.size));
  else out.insert(out.end(), news.damage.begin(), news.damage.end());
  return true;
}

bool PortalDamageWatcher::failed() const { return reader_->stream().failed() || session_->closed(); }

}  // namespace voxl::platform::portal
