// A Clipboard that outlives the desktop's connection (rebuilt_part.h): when
// the platform's clipboard loses the display, a new one is made once the
// display is back and reports to the same listener. Offers made while the
// display is away fail with a clear error.
//
// Threads: the loop thread only. Owns the platform clipboard.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "base/logging.h"
#include "input/clipboard.h"
#include "input/rebuilt_part.h"

namespace voxl::input {

class RecoveringClipboard final : public Clipboard {
 public:
  RecoveringClipboard(boost::asio::io_context& io, std::unique_ptr<Clipboard> first,
                      RebuiltPart<Clipboard>::Factory make, Logger log);

  void set_listener(Listener listener) override;
  bool offer(ClipboardContent content, std::string& error) override;
  // It never gives up on the desktop.
  void set_lost_handler(std::function<void()>) override {}

 private:
  Listener listener_;
  RebuiltPart<Clipboard> part_;  // last: its callbacks use the listener
};

}  // namespace voxl::input
