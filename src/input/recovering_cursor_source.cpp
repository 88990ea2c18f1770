#include "input/recovering_cursor_source.h"

#include <utility>

namespace voxl::input {

RecoveringCursorSource::RecoveringCursorSource(boost::asio::io_context& io, std::unique_ptr<CursorSource> first,
                                               RebuiltPart<CursorSource>::Factory make, Logger log)
    : part_(io, std::move(first), std::move(make), "cursor shapes", std::move(log),
            [this](CursorSource& s) { made(s); }) {}

void RecoveringCursorSource::set_listener(std::function<void(const CursorImagePtr&)> listener) {
  listener_ = std::move(listener);
}

CursorImagePtr RecoveringCursorSource::current() const {
  if (CursorSource* s = part_.get()) {
    if (auto now = s->current(); now && now != last_raw_) return renumbered(now);
  }
  return last_;
}

CursorImagePtr RecoveringCursorSource::renumbered(const CursorImagePtr& image) const {
  if (generation_ == 0) return image;
  auto copy = std::make_shared<CursorImage>(*image);
  copy->serial = (generation_ << 32) | (image->serial & 0xffffffffu);
  return copy;
}

void RecoveringCursorSource::made(CursorSource& source) {
  if (made_once_) ++generation_;
  made_once_ = true;
  source.set_listener([this](const CursorImagePtr& image) { changed(image); });
  // A remade source's shape is already known, and the viewers still show
  // the old server's.
  if (auto now = source.current()) {
    if (generation_ > 0) {
      changed(now);
    } else {
      last_raw_ = now;
      last_ = now;
    }
  }
}

void RecoveringCursorSource::changed(const CursorImagePtr& image) {
  if (!image) return;
  last_raw_ = image;
  last_ = renumbered(image);
  if (listener_) listener_(last_);
}

}  // namespace voxl::input
