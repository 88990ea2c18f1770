// A CursorSource that outlives the desktop's connection (rebuilt_part.h):
// when the platform's source loses the display, a new one is made once the
// display is back, and its first shape goes to the listener, so viewers see
// the new server's pointer without reconnecting. current() is the last
// shape known meanwhile. A new server numbers its shapes from the start
// again, so the serials of each source made after the first carry its
// generation in their upper 32 bits: a serial never names two shapes.
//
// Threads: the loop thread only. Owns the platform source.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "base/logging.h"
#include "input/cursor_source.h"
#include "input/rebuilt_part.h"

namespace voxl::input {

class RecoveringCursorSource final : public CursorSource {
 public:
  RecoveringCursorSource(boost::asio::io_context& io, std::unique_ptr<CursorSource> first,
                         RebuiltPart<CursorSource>::Factory make, Logger log);

  void set_listener(std::function<void(const CursorImagePtr&)> listener) override;
  CursorImagePtr current() const override;
  // It never gives up on the desktop.
  void set_lost_handler(std::function<void()>) override {}

 private:
  void made(CursorSource& source);
  void changed(const CursorImagePtr& image);
  CursorImagePtr renumbered(const CursorImagePtr& image) const;

  std::function<void(const CursorImagePtr&)> listener_;
  CursorImagePtr last_raw_;  // as the source gave it
  CursorImagePtr last_;      // renumbered
  uint64_t generation_ = 0;  // sources made before the current one
  bool made_once_ = false;
  RebuiltPart<CursorSource> part_;  // last: its callbacks use the members above
};

}  // namespace voxl::input
