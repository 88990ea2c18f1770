#include "platform/windows/input/windows_cursor_source.h"

#include <windows.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <stdexcept>

#include "platform/windows/input/cursor_image_reader.h"
#include "platform/windows/input/message_thread.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

// Posted by the hook to its own thread; the loop there reads the shape.
constexpr UINT kCursorChanged = WM_APP + 1;

void CALLBACK on_win_event(HWINEVENTHOOK, DWORD, HWND, LONG object, LONG, DWORD, DWORD) {
  if (object == OBJID_CURSOR) PostThreadMessageW(GetCurrentThreadId(), kCursorChanged, 0, 0);
}

bool same_shape(const input::CursorImage& a, const input::CursorImage& b) {
  return a.width == b.width && a.height == b.height && a.hot_x == b.hot_x && a.hot_y == b.hot_y && a.rgba == b.rgba;
}

}  // namespace

struct WindowsCursorSource::LoopSide {
  std::function<void(const input::CursorImagePtr&)> listener;
  input::CursorImagePtr current;
};

struct WindowsCursorSource::ThreadSide {
  HWINEVENTHOOK shape_hook = nullptr;
  HWINEVENTHOOK visibility_hook = nullptr;
  std::vector<input::CursorImagePtr> known;  // most recent last, at most kCacheSize
  input::CursorImagePtr last;
  uint64_t next_serial = 1;
  bool said_unreadable = false;  // the stand-in arrow is explained once
};

WindowsCursorSource::WindowsCursorSource(boost::asio::io_context& io, Logger log)
    : io_(io), log_(std::move(log)), loop_(std::make_shared<LoopSide>()), thread_side_(std::make_unique<ThreadSide>()) {
  MessageThread::Hooks hooks;
  hooks.setup = [this] {
    auto& t = *thread_side_;
    t.shape_hook = SetWinEventHook(EVENT_OBJECT_NAMECHANGE, EVENT_OBJECT_NAMECHANGE, nullptr, on_win_event, 0, 0,
                                   WINEVENT_OUTOFCONTEXT);
    t.visibility_hook =
        SetWinEventHook(EVENT_OBJECT_SHOW, EVENT_OBJECT_HIDE, nullptr, on_win_event, 0, 0, WINEVENT_OUTOFCONTEXT);
    if (!t.shape_hook || !t.visibility_hook) throw std::runtime_error(describe_last_error("SetWinEventHook"));
    refresh();
  };
  hooks.on_thread_message = [this](const MSG& msg) {
    if (msg.message != kCursorChanged) return;
    // A burst of events is one read.
    MSG more;
    while (PeekMessageW(&more, HWND(-1), kCursorChanged, kCursorChanged, PM_REMOVE)) {
    }
    refresh();
  };
  hooks.teardown = [this] {
    auto& t = *thread_side_;
    if (t.shape_hook) UnhookWinEvent(t.shape_hook);
    if (t.visibility_hook) UnhookWinEvent(t.visibility_hook);
    t.shape_hook = t.visibility_hook = nullptr;
  };
  thread_ = std::make_unique<MessageThread>("cursor", log_, std::move(hooks));
  log_->debug("cursor: following the pointer's shape through WinEvent hooks");
}

WindowsCursorSource::~WindowsCursorSource() {
  thread_.reset();  // joins: nothing posts after this
  loop_.reset();    // handlers still queued find it gone
}

void WindowsCursorSource::set_listener(std::function<void(const input::CursorImagePtr&)> listener) {
  loop_->listener = std::move(listener);
}

input::CursorImagePtr WindowsCursorSource::current() const { return loop_->current; }

void WindowsCursorSource::refresh() {
  auto& t = *thread_side_;
  CURSORINFO info{};
  info.cbSize = sizeof(info);
  if (!GetCursorInfo(&info)) {
    log_->debug("cursor: {}", describe_last_error("GetCursorInfo"));
    return;
  }
  std::optional<input::CursorImage> img;
  if (!(info.flags & CURSOR_SHOWING) || !info.hCursor)
    img = hidden_cursor_image();
  else
    img = read_cursor_image(info.hCursor);
  if (!img) {
    // Windows lets any program read the cursor GetCursorInfo names; Wine
    // does not when another program made it (GetIconInfo: invalid cursor
    // handle). The standard arrow stands in, so no stale shape stays.
    const std::string why = describe_last_error("GetIconInfo");
    img = read_cursor_image(LoadCursorW(nullptr, MAKEINTRESOURCEW(32512)));  // IDC_ARROW
    if (!t.said_unreadable) {
      log_->info("cursor: cannot read the shape of cursor {} ({}); viewers see the standard arrow for such shapes",
                 static_cast<void*>(info.hCursor), why);
      t.said_unreadable = true;
    }
    if (!img) return;
  }
  if (t.last && same_shape(*t.last, *img)) return;
  input::CursorImagePtr shape;
  for (auto it = t.known.begin(); it != t.known.end(); ++it)
    if (same_shape(**it, *img)) {
      shape = *it;
      t.known.erase(it);
      break;
    }
  if (!shape) {
    img->serial = t.next_serial++;
    shape = std::make_shared<const input::CursorImage>(std::move(*img));
    if (t.known.size() >= kCacheSize) t.known.erase(t.known.begin());
  }
  t.known.push_back(shape);
  t.last = shape;
  std::weak_ptr<LoopSide> weak = loop_;
  Logger log = log_;
  boost::asio::post(io_, [weak, shape, log] {
    const auto loop = weak.lock();
    if (!loop) return;
    loop->current = shape;
    log->debug("cursor: shape {} ({}x{}, hotspot {},{})", shape->serial, shape->width, shape->height, shape->hot_x,
               shape->hot_y);
    if (!loop->listener) return;
    try {
      loop->listener(shape);
    } catch (const std::exception& e) {
      log->error("cursor: listener failed: {}", e.what());
    }
  });
}

}  // namespace voxl::platform::windows
