// Who decides the desktop's size, and when it changes: the server side of
// dynamic resolution (--enable-resize). Viewers' pages ask for the desktop
// size their window would show 1:1 ({"type":"resize"}, wire_format.h); one
// viewer at a time holds the size and its latest request is applied.
//
// Policy "last-input": among the full viewers that asked for a size, the one
// that last used input (a key, text, a button, the wheel; not a pointer
// merely moving) holds it; until one of
// them has, the first that asked. View-only viewers never hold it, and
// viewers that never ask (scripts, benchmark clients) do not count, so an
// agent driving the desktop with input does not freeze its size. The size
// stays when the holder leaves, until another viewer holds it.
//
// While a viewer holds control of the keyboard and mouse
// (input/control_handover.h), only it holds the size, whether it asked for
// one or not: another viewer's request is kept and applied when that
// viewer gets control, and never resizes the desktop under the holder.
//
// Sizes are fitted to the display's limits (desktop_sizing.h) and applied
// at most once per kMinInterval, the latest request winning, so a window
// being dragged costs a few resizes, not one per pixel. A size the platform
// refused is not tried again for kRetryRefused (unless a different one is
// wanted), and after a refusal the desktop's size is read again, since a
// half-made change or someone else's xrandr may have moved it.
//
// Every viewer is told the state that concerns it (enabled, holder, limits)
// when it joins and whenever that changes; with no resizer (the display
// cannot follow) every viewer is told why, once.
//
// Threads: the loop thread only; pure logic on the caller's clock and
// timer. Lifetime: outlives the viewers registered with it; a viewer leaves
// before it goes.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "base/logging.h"
#include "base/rate_limit.h"
#include "stream/viewer/desktop_sizing.h"

namespace voxl::stream {

struct ResizeHooks {
  using Time = std::chrono::steady_clock::time_point;
  // Makes the desktop `size`; false with `error` set when the platform
  // refused. Empty: the desktop cannot follow (`disabled_reason` says why).
  std::function<bool(Size size, std::string& error)> resize{};
  // Calls ResizeController::on_timer() once at `when`, replacing any call
  // still to come.
  std::function<void(Time when)> arm_timer{};
  // The desktop's size now (read after a refusal); empty: not known.
  std::function<Size()> current_size{};
  std::function<Time()> now{};  // steady_clock::now when empty
};

struct ResizeSettings {
  Size current{};            // the desktop's size at start
  Size max{};                // the largest it may take
  double scale = 1.5;        // --resize-scale, passed on to the pages
  std::string disabled_reason{};  // why the desktop cannot follow, when it cannot
};

class ResizeController {
 public:
  using Time = ResizeHooks::Time;
  static constexpr std::chrono::milliseconds kMinInterval{250};
  static constexpr std::chrono::seconds kRetryRefused{5};

  ResizeController(ResizeSettings settings, ResizeHooks hooks, Logger log);

  bool enabled() const { return static_cast<bool>(hooks_.resize); }
  const DesktopSizeLimits& limits() const { return limits_; }
  // The size last applied (or the starting one).
  Size applied() const { return applied_; }
  // The viewer holding the size, if any.
  std::optional<uint64_t> holder() const;

  // `send` delivers one JSON text to the viewer; it is called from here
  // (join, requests, input, leave, the timer), never after leave().
  void join(uint64_t id, bool view_only, std::function<void(std::string json)> send);
  void leave(uint64_t id);
  // A viewer's request, already checked to be 1..16384 each way.
  // View-only viewers' requests are ignored (the caller refuses them).
  void on_request(uint64_t id, Size want);
  // A full viewer used input: cheap unless it changes the holder.
  void on_input(uint64_t id);
  // Viewer `id` got control of the keyboard and mouse (or lost it).
  void on_control(uint64_t id, bool held);
  void on_timer();
  // No more resizes (the server is stopping and its viewers leave one by
  // one; the desktop's first size is put back next).
  void stop() { stopped_ = true; }

 private:
  struct Viewer {
    uint64_t id = 0;
    bool view_only = false;
    std::function<void(std::string)> send;
    std::optional<Size> want;
    Time asked_at{};
    std::optional<Time> input_at;
    std::string last_sent;
  };

  Time now() const { return hooks_.now ? hooks_.now() : std::chrono::steady_clock::now(); }
  Viewer* find(uint64_t id);
  // The holder chosen by the policy from scratch.
  std::optional<uint64_t> choose_holder() const;
  void update_holder();
  void tell(Viewer& v);
  void tell_all();
  // Applies the holder's request now or arms the timer for when it may be.
  void follow_holder();

  ResizeSettings settings_;
  ResizeHooks hooks_;
  Logger log_;
  DesktopSizeLimits limits_;
  std::vector<Viewer> viewers_;
  std::optional<uint64_t> holder_;
  uint64_t control_holder_ = 0;  // 0: nobody holds control
  Size applied_;
  std::optional<Size> refused_;
  Time refused_at_{};
  bool stopped_ = false;
  std::optional<Time> last_applied_at_;
  std::optional<Time> timer_at_;
  RateLimit refused_log_;
};

}  // namespace voxl::stream
