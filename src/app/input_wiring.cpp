#include "app/input_wiring.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <exception>
#include <utility>

#include "input/interaction.h"
#include "input/recovering_clipboard.h"
#include "input/recovering_cursor_source.h"
#include "input/recovering_injector.h"
#include "platform/desktop_environment.h"

namespace voxl::app {

namespace {

input::InteractionSettings interaction_settings(const Config& c) {
  input::InteractionSettings s;
  s.clipboard_in = c.clipboard == ClipboardMode::kIn || c.clipboard == ClipboardMode::kBoth;
  s.clipboard_out = c.clipboard == ClipboardMode::kOut || c.clipboard == ClipboardMode::kBoth;
  s.scroll_px_per_notch = c.scroll_px_per_notch;
  s.control_timeout = std::chrono::seconds(c.control_timeout);
  if (c.capture_region) s.picture = {{c.capture_region->x, c.capture_region->y}, c.capture_region->size()};
  return s;
}

template <class Make>
auto optional_part(const Logger& log, const char* what, Make make) -> decltype(make()) {
  try {
    return make();
  } catch (const std::exception& e) {
    log->warn("{} off: {}", what, e.what());
    return nullptr;
  }
}

// The desktop's injector, remade when its connection fails (the X server
// restarted); null when the desktop refuses input from the start, which
// does not change while it runs (X11 without XTEST).
std::unique_ptr<input::InputInjector> recovering_injector(platform::DesktopEnvironment& desktop,
                                                          const Logger& log) {
  auto first = optional_part(log, "input", [&] { return desktop.make_input_injector(); });
  if (!first) return nullptr;
  return std::make_unique<input::RecoveringInjector>(
      std::move(first), [&desktop] { return desktop.make_input_injector(); }, log);
}

std::unique_ptr<input::CursorSource> recovering_cursor(boost::asio::io_context& io,
                                                      platform::DesktopEnvironment& desktop, const Logger& log) {
  auto first = optional_part(log, "cursor shapes", [&] { return desktop.make_cursor_source(io); });
  if (!first) return nullptr;
  return std::make_unique<input::RecoveringCursorSource>(
      io, std::move(first), [&desktop, &io] { return desktop.make_cursor_source(io); }, log);
}

std::unique_ptr<input::Clipboard> recovering_clipboard(const Config& config, boost::asio::io_context& io,
                                                       platform::DesktopEnvironment& desktop, const Logger& log) {
  if (config.clipboard == ClipboardMode::kOff) return nullptr;
  const bool watch = config.clipboard != ClipboardMode::kIn;
  const auto make = [&desktop, &io, watch] { return desktop.make_clipboard(io, input::kMaxClipboardBytes, watch); };
  auto first = optional_part(log, "clipboard", make);
  if (!first) return nullptr;
  return std::make_unique<input::RecoveringClipboard>(io, std::move(first), make, log);
}

}  // namespace

struct InputWiring::ControlTimer {
  explicit ControlTimer(boost::asio::io_context& io) : timer(io) {}
  boost::asio::steady_timer timer;
};

InputWiring::InputWiring(const Config& config, boost::asio::io_context& io, platform::DesktopEnvironment& desktop,
                         const Logger& log, AuditSink audit)
    : injector_(recovering_injector(desktop, log)),
      cursor_(recovering_cursor(io, desktop, log)),
      clipboard_(recovering_clipboard(config, io, desktop, log)),
      control_timer_(std::make_unique<ControlTimer>(io)) {
  input::InteractionHooks hooks;
  hooks.arm_timer = [this](std::chrono::steady_clock::time_point when) {
    control_timer_->timer.expires_at(when);  // cancels the wait before
    control_timer_->timer.async_wait([this](const boost::system::error_code& ec) {
      if (!ec && interaction_) interaction_->on_control_timer();
    });
  };
  hooks.post = [&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); };
  hooks.audit = std::move(audit);
  interaction_ = std::make_unique<input::Interaction>(injector_.get(), clipboard_.get(), cursor_.get(),
                                                      interaction_settings(config), log, std::move(hooks));
}

InputWiring::~InputWiring() = default;

}  // namespace voxl::app
