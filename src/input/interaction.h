// What viewers may do to the desktop besides watching: one per desktop, it
// owns nothing platform-specific and routes between the viewer sessions
// and the platform's InputInjector, Clipboard and CursorSource (any of
// which may be missing), and keeps the one mapping from the picture to the
// desktop (picture_mapping.h) that viewers' and agents' positions go
// through, following the frames the stream sends. Cursor changes go to
// every viewer; what the desktop copies goes to viewers with full access
// when the clipboard flows out; what a viewer copies is offered to the
// desktop when it flows in.
//
// Threads: loop thread only. Lifetime: outlives every ViewerInput it hands
// out; detach() before the platform objects it was given are destroyed.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "base/logging.h"
#include "input/clipboard.h"
#include "input/cursor_source.h"
#include "input/input_injector.h"
#include "input/picture_mapping.h"

namespace voxl::input {

class ViewerInput;

struct InteractionSettings {
  bool clipboard_in = true;   // viewer -> desktop
  bool clipboard_out = true;  // desktop -> viewer
  double scroll_px_per_notch = 180;
  // Where the picture lies until the first frame says (a captured
  // region's corner and size; the screen's 0,0, its size not known yet).
  PictureMapping picture;
};

// Messages of which a viewer needs only the latest: one still waiting to
// be sent may be replaced by a newer one of the same kind.
enum class ControlKind { kCursor, kClipboard };

// How a viewer session is reached; implemented by the session.
class ViewerLink {
 public:
  virtual void send_control(std::string json) = 0;
  virtual void send_latest(std::string json, ControlKind /*kind*/) { send_control(std::move(json)); }

 protected:
  virtual ~ViewerLink() = default;
};

class Interaction {
 public:
  Interaction(InputInjector* injector, Clipboard* clipboard, CursorSource* cursor, InteractionSettings settings,
              Logger log);
  ~Interaction();
  Interaction(const Interaction&) = delete;
  Interaction& operator=(const Interaction&) = delete;

  // A viewer's handle, to be dropped when the viewer goes. Sends the viewer
  // its "interaction" message and the current cursor.
  std::unique_ptr<ViewerInput> join(ViewerLink& link, bool view_only, uint64_t viewer_id);

  // Forgets the injector, clipboard and cursor source (after releasing every
  // key and button viewers hold), so they can be destroyed first.
  void detach();

  const InteractionSettings& settings() const { return settings_; }
  const Logger& log() const { return log_; }
  InputInjector* injector() const { return injector_; }
  Clipboard* clipboard() const { return clipboard_; }

  // Where the picture viewers and agents see lies on the desktop now. Set
  // from each frame the stream sends, each /screenshot and a new capturer
  // before its first frame, with when that was captured: a mapping older
  // than the one held (a screenshot posted after newer frames) is dropped.
  // Every pointer position goes through it.
  const PictureMapping& picture() const { return picture_; }
  void set_picture(const PictureMapping& m, std::chrono::steady_clock::time_point captured_at) {
    if (captured_at < picture_at_) return;
    picture_ = m;
    picture_at_ = captured_at;
  }

  // The JSON for a cursor shape, made once per serial (bounded cache).
  const std::string& cursor_json(const CursorImage& image);

 private:
  friend class ViewerInput;
  void leave(ViewerInput* v);
  void on_cursor(const CursorImagePtr& image);
  void on_copied(const ClipboardContent& content);
  void on_refused(const std::string& message);

  InputInjector* injector_;
  Clipboard* clipboard_;
  CursorSource* cursor_;
  InteractionSettings settings_;
  PictureMapping picture_;
  std::chrono::steady_clock::time_point picture_at_{};
  Logger log_;
  std::vector<ViewerInput*> viewers_;
  std::map<uint64_t, std::string> cursor_cache_;  // serial -> JSON
};

}  // namespace voxl::input
