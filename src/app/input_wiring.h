// What viewers and agents may do to the desktop: XTest input, XFixes cursor
// shapes and the clipboard (each optional: a display without the extension
// it needs is still streamed, with a warning; the clipboard also off with
// --enable_clipboard false), routed to and from the sessions by the
// Interaction. Each X part has a connection of its own.
//
// Threads: the loop thread only; the cursor source and the clipboard run
// their connections' events on the loop. Lifetime: made after the loop and
// before the agent services and the server. Teardown is in two steps:
// detach_from_loop() after the server and the agent services are gone
// (releases every key and button viewers hold, then closes the cursor and
// clipboard connections, which watch the loop); the interaction and the
// injector outlive the loop, whose sessions release their keys as they end.
#pragma once

#include <memory>
#include <string>

#include "app/config.h"
#include "base/logging.h"

namespace boost::asio {
class io_context;
}
namespace voxl::input {
class Interaction;
}
namespace voxl::platform::x11 {
class SelectionClipboard;
class XFixesCursorSource;
class XTestInjector;
}  // namespace voxl::platform::x11

namespace voxl::app {

class InputWiring {
 public:
  InputWiring(const Config& config, boost::asio::io_context& io, const std::string& display, const Logger& log);
  ~InputWiring();
  InputWiring(const InputWiring&) = delete;
  InputWiring& operator=(const InputWiring&) = delete;

  input::Interaction* interaction() { return interaction_.get(); }

  void detach_from_loop();

 private:
  std::unique_ptr<platform::x11::XTestInjector> injector_;
  std::unique_ptr<platform::x11::XFixesCursorSource> cursor_;
  std::unique_ptr<platform::x11::SelectionClipboard> clipboard_;
  std::unique_ptr<input::Interaction> interaction_;  // goes before the parts it routes to
};

}  // namespace voxl::app
