// What viewers and agents may do to the desktop: input, cursor shapes and
// the clipboard from the platform (each optional: a desktop that refuses
// one, such as X11 without XTEST, is still streamed, with a warning; the
// clipboard also off with --enable_clipboard false), routed to and from the
// sessions by the Interaction. All three survive the desktop going away and
// coming back (input/recovering_*.h).
//
// Threads: the loop thread only; the cursor source and the clipboard report
// on the loop. Lifetime: made after the loop and before the agent services
// and the server, destroyed in reverse: the interaction first (it releases
// every key and button still held and lets go of the parts), then the
// clipboard, the cursor and the injector, all before the loop. The
// interaction's control timeout runs on an asio timer of the loop.
#pragma once

#include <memory>

#include "base/audit_sink.h"
#include "app/config.h"
#include "base/logging.h"

namespace boost::asio {
class io_context;
}
namespace voxl::input {
class Clipboard;
class CursorSource;
class InputInjector;
class Interaction;
}  // namespace voxl::input
namespace voxl::platform {
class DesktopEnvironment;
}

namespace voxl::app {

class InputWiring {
 public:
  // `audit` hears of control handed over and clipboard transfers.
  InputWiring(const Config& config, boost::asio::io_context& io, platform::DesktopEnvironment& desktop,
              const Logger& log, AuditSink audit = {});
  ~InputWiring();
  InputWiring(const InputWiring&) = delete;
  InputWiring& operator=(const InputWiring&) = delete;

  input::Interaction* interaction() { return interaction_.get(); }

 private:
  std::unique_ptr<input::InputInjector> injector_;
  std::unique_ptr<input::CursorSource> cursor_;
  std::unique_ptr<input::Clipboard> clipboard_;
  struct ControlTimer;
  std::unique_ptr<ControlTimer> control_timer_;
  std::unique_ptr<input::Interaction> interaction_;  // goes before the parts it routes to (and its timer)
};

}  // namespace voxl::app
