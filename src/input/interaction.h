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
// It also keeps the stream's viewer list and who holds control
// (input/control_handover.h): input and clipboard from a full viewer that
// does not hold control are dropped (ViewerInput refuses them once per
// loss of control), the keys and buttons of a viewer that loses control
// are released, and every viewer is sent the list ("viewers",
// wire_format.h) when it joins and whenever anyone joins, leaves, renames
// or control moves or is asked for. The list is sent once per loop turn
// however many changes that turn made (InteractionHooks::post), so N viewers
// renaming or asking cost N lists, not N per message; and each viewer's
// renames and control actions go through its own token bucket (a burst of
// kActionBurst, then one per kActionRefill; the rest are ignored). Its one
// timer (the holder's idle timeout) is armed through InteractionHooks on
// the loop thread.
//
// Threads: loop thread only. Lifetime: outlives every ViewerInput it hands
// out; detach() before the platform objects it was given are destroyed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/geometry.h"
#include "base/audit_sink.h"
#include "base/logging.h"
#include "input/viewer_permissions.h"
#include "base/token_bucket.h"
#include "input/clipboard.h"
#include "input/control_handover.h"
#include "input/cursor_source.h"
#include "input/input_injector.h"
#include "input/picture_mapping.h"

namespace voxl::input {

class ViewerInput;

struct InteractionSettings {
  bool clipboard_in = true;   // viewer -> desktop
  bool clipboard_out = true;  // desktop -> viewer
  double scroll_px_per_notch = 180;
  // --control-timeout: the holder's idle time after which a requester
  // gets control; zero: never.
  std::chrono::seconds control_timeout{10};
  // Where the picture lies until the first frame says (a captured
  // region's corner and size; the screen's 0,0, its size not known yet).
  PictureMapping picture;
};

// Messages of which a viewer needs only the latest: one still waiting to
// be sent may be replaced by a newer one of the same kind.
enum class ControlKind { kCursor, kClipboard, kViewers };

// The clock and the timer of the control handover; empty members: the
// system's clock, and no timeout (nothing arms the timer).
struct InteractionHooks {
  using Time = std::chrono::steady_clock::time_point;
  // Calls Interaction::on_control_timer() once at `when` (on the loop
  // thread), replacing any call still to come.
  std::function<void(Time when)> arm_timer{};
  std::function<Time()> now{};
  // Runs `f` once on the loop thread after the current handler (asio
  // post); empty: `f` runs at once (each change sends the list).
  std::function<void(std::function<void()> f)> post{};
  // The audit trail: control handed over, clipboard transfers (their size
  // and type, never their content). Empty: none.
  AuditSink audit{};
};

// How a viewer session is reached; implemented by the session.
class ViewerLink {
 public:
  virtual void send_control(std::string json) = 0;
  virtual void send_latest(std::string json, ControlKind /*kind*/) { send_control(std::move(json)); }
  // This viewer got control of the keyboard and mouse (or lost it: its
  // keys and buttons have been released).
  virtual void on_control(bool /*held*/) {}

 protected:
  virtual ~ViewerLink() = default;
};

class Interaction {
 public:
  Interaction(InputInjector* injector, Clipboard* clipboard, CursorSource* cursor, InteractionSettings settings,
              Logger log, InteractionHooks hooks = {});
  ~Interaction();
  Interaction(const Interaction&) = delete;
  Interaction& operator=(const Interaction&) = delete;

  // A viewer's handle, to be dropped (or detached) when the viewer goes.
  // Sends the viewer its "interaction" message and the current cursor,
  // then every viewer the new list.
  // `user`: who signed in ("" when no one did by name), shown to everyone.
  std::unique_ptr<ViewerInput> join(ViewerLink& link, ViewerPermissions permissions, uint64_t viewer_id,
                                    std::string user = {});
  // Everything, or watching only (a view-only password).
  std::unique_ptr<ViewerInput> join(ViewerLink& link, bool view_only, uint64_t viewer_id);

  // The handover's timer fired (see InteractionHooks::arm_timer).
  void on_control_timer();
  const ControlHandover& control() const { return handover_; }
  // At most this many entries in a "viewers" message (the rest are
  // counted in "more"); the recipient, the holder and the requesters first.
  static constexpr size_t kMaxListed = 32;
  // A viewer's renames and control actions: a burst of 5, then one a second.
  static constexpr int kActionBurst = 5;
  static constexpr std::chrono::seconds kActionRefill{1};

  // Forgets the injector, clipboard and cursor source (after releasing every
  // key and button viewers hold), so they can be destroyed first.
  void detach();

  const InteractionSettings& settings() const { return settings_; }
  const Logger& log() const { return log_; }
  InputInjector* injector() const { return injector_; }
  Clipboard* clipboard() const { return clipboard_; }
  CursorSource* cursor() const { return cursor_; }

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
  using Time = InteractionHooks::Time;
  void leave(ViewerInput* v);
  // A full viewer's input: true when it holds control (taking it when free).
  bool take_input(ViewerInput& v);
  // A "control" message's action ("request", "release", "grant", "deny").
  ControlHandover::Outcome on_control(ViewerInput& v, std::string_view action, uint64_t to);
  // False when the viewer's actions are over their limit (nothing done).
  bool rename(ViewerInput& v, std::string name);
  // Takes one of the viewer's action tokens.
  bool allow_action(ViewerInput& v);
  // "viewer 3 (alice)", "viewer 3" or "nobody", for the log.
  std::string who(uint64_t id) const;
  std::string user_of(uint64_t id) const;  // "" when none, or gone
  const AuditSink& audit() const { return hooks_.audit; }
  Time now() const;
  // After a handover call: releases what a viewer that lost control holds,
  // tells both, re-arms the timer and sends the list when anything moved
  // (true then).
  bool settle(uint64_t holder_before, uint64_t changes_before);
  void arm_timer();
  // Marks the list changed: it is sent once, at the end of this loop turn.
  void send_viewers();
  void flush_viewers();
  std::string viewers_json(const ViewerInput& to) const;
  ViewerInput* viewer(uint64_t id) const;
  bool listed(const ViewerInput* v) const;
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
  InteractionHooks hooks_;
  ControlHandover handover_;
  std::vector<ViewerInput*> viewers_;  // in join order
  std::map<uint64_t, std::string> cursor_cache_;  // serial -> JSON
  bool viewers_dirty_ = false;  // a list is due this loop turn
  // Expires with this object: a posted flush after it is gone does nothing.
  std::shared_ptr<Interaction*> self_ = std::make_shared<Interaction*>(this);
};

}  // namespace voxl::input
