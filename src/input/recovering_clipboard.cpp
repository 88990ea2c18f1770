#include "input/recovering_clipboard.h"

#include <utility>

namespace voxl::input {

RecoveringClipboard::RecoveringClipboard(boost::asio::io_context& io, std::unique_ptr<Clipboard> first,
                                         RebuiltPart<Clipboard>::Factory make, Logger log)
    : part_(io, std::move(first), std::move(make), "clipboard", std::move(log), [this](Clipboard& c) {
        // Through this object, so a listener set later reaches every clipboard.
        c.set_listener({[this](const ClipboardContent& content) {
                          if (listener_.copied) listener_.copied(content);
                        },
                        [this](const std::string& why) {
                          if (listener_.refused) listener_.refused(why);
                        }});
      }) {}

void RecoveringClipboard::set_listener(Listener listener) { listener_ = std::move(listener); }

bool RecoveringClipboard::offer(ClipboardContent content, std::string& error) {
  Clipboard* c = part_.get();
  if (!c) {
    error = "the desktop's clipboard is away (its display server is restarting)";
    return false;
  }
  return c->offer(std::move(content), error);
}

}  // namespace voxl::input
