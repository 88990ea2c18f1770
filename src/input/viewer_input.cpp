#include "input/viewer_input.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <nlohmann/json.hpp>

#include "base/base64.h"
#include "base/json_fields.h"
#include "base/json_text.h"
#include "input/key_mapping.h"
#include "input/keysyms.h"

namespace voxl::input {

namespace {

using json = nlohmann::json;
namespace ks = keysym;

// Per-viewer cursor serials remembered as delivered; past this the set
// starts over (the viewer then gets some images a second time).
constexpr size_t kCursorsRemembered = 64;
// IME text; a script typing a page goes through type_text().
constexpr size_t kMaxTextBytes = 4096;

struct ModifierFamily {
  int bit;
  uint32_t left;
  uint32_t right;
};
constexpr std::array kFamilies{
    ModifierFamily{kModShift, ks::kShiftL, ks::kShiftR},
    ModifierFamily{kModControl, ks::kControlL, ks::kControlR},
    ModifierFamily{kModAlt, ks::kAltL, ks::kAltR},
    ModifierFamily{kModMeta, ks::kSuperL, ks::kSuperR},
    ModifierFamily{kModAltGraph, ks::kIsoLevel3Shift, ks::kIsoLevel3Shift},
};

// Field bounds: a message with a field outside them is ignored.
constexpr double kMaxCoordinate = 1e6;  // stream pixels, either way
constexpr double kMaxScrollDelta = 1e6;
constexpr size_t kMaxKeyNameBytes = 64;  // KeyboardEvent .code and .key
constexpr size_t kMaxMimeBytes = 64;
constexpr size_t kMaxBase64ClipboardBytes = (kMaxClipboardBytes + 2) / 3 * 4;
constexpr int64_t kMaxViewerId = (int64_t(1) << 53) - 1;  // what a page's number holds exactly

// The "mods" bit set, or -1 when the message has none.
int mods_field(JsonFields& f) { return int(f.integer("mods", 0, 0xffff).value_or(-1)); }

// A stream coordinate, whole pixels.
std::optional<int> coordinate(JsonFields& f, const char* key) {
  const auto v = f.number(key, -kMaxCoordinate, kMaxCoordinate);
  if (!v) return std::nullopt;
  return int(std::floor(*v));
}

bool is_input_type(std::string_view t) {
  return t == "key" || t == "text" || t == "move" || t == "button" || t == "scroll" || t == "release";
}

}  // namespace

ViewerInput::ViewerInput(Interaction& owner, ViewerLink& link, ViewerPermissions permissions, uint64_t id)
    : owner_(owner), link_(link), permissions_(permissions), id_(id), scroll_(owner.settings().scroll_px_per_notch) {}

ViewerInput::~ViewerInput() { detach(); }

void ViewerInput::detach() {
  if (detached_) return;
  detached_ = true;
  release_all();
  owner_.leave(this);
}

bool ViewerInput::rename(std::string name) {
  return detached_ || owner_.rename(*this, std::move(name));
}

bool ViewerInput::handle(std::string_view type, const json& m) {
  bad_field_ = nullptr;
  used_input_ = false;
  over_limit_ = false;
  if (detached_) return false;
  if (type == "control") {
    on_control_message(m);
    return true;
  }
  const bool input = is_input_type(type);
  if (!input && type != "clipboard") return false;
  if (view_only()) {
    refuse(input ? "input" : "clipboard", "this viewer may only watch");
    return true;
  }
  if (!input && !permissions_.clipboard_in) {
    refuse("clipboard", "this viewer may not put into the desktop's clipboard (no clipboard-in right)");
    return true;
  }
  if (input && !owner_.injector()) {
    refuse("input", "the desktop takes no input");
    return true;
  }
  // Control is taken (and the holder's idle deadline moved) only by a
  // message that parsed and is acted on (take_control() in each handler);
  // letting go of its own keys needs none (it holds none without).
  if (type == "key")
    on_key(m);
  else if (type == "text")
    on_text(m);
  else if (type == "release")
    release_all();
  else if (type == "clipboard")
    on_clipboard(m);
  else
    on_pointer(type, m);
  return true;
}

void ViewerInput::refuse(std::string_view what, std::string_view reason) {
  bool& told = what == "clipboard" ? refused_clipboard_ : refused_input_;
  if (told) return;  // once per kind is enough; the rest are dropped quietly
  told = true;
  owner_.log()->info("viewer {}: {} refused: {}", id_, what, reason);
  send_control(json_text(json{{"type", "refused"}, {"what", std::string(what)}, {"reason", std::string(reason)}}));
}

bool ViewerInput::take_control() {
  if (!owner_.take_input(*this)) {
    refuse_no_control();
    return false;
  }
  used_input_ = true;
  return true;
}

void ViewerInput::refuse_no_control() {
  if (refused_no_control_) return;
  refused_no_control_ = true;
  send_control(json_text(json{{"type", "refused"}, {"what", "input"}, {"reason", "another viewer has control"}}));
}

void ViewerInput::lost_control() {
  release_all();
  refused_no_control_ = false;  // told again, once, when it next tries
  link_.on_control(false);
}

void ViewerInput::gained_control() { link_.on_control(true); }

// {"type":"control","action":"request"|"release"|"grant"|"deny","to":ID}
void ViewerInput::on_control_message(const json& m) {
  JsonFields f(m);
  const auto action = f.string("action", 16);
  const auto to = f.integer("to", 0, kMaxViewerId);
  if (!f.ok()) {
    bad_field_ = f.bad_field();
    return;
  }
  const std::string_view a = action.value_or("");
  if (a != "request" && a != "release" && a != "grant" && a != "deny") {
    bad_field_ = "action";
    return;
  }
  if (view_only()) {
    if (!refused_control_) {
      refused_control_ = true;
      send_control(json_text(
          json{{"type", "refused"}, {"what", "control"}, {"reason", "view-only viewers cannot take control"}}));
    }
    return;
  }
  if (!owner_.allow_action(*this)) {
    over_limit_ = true;
    return;
  }
  if (owner_.on_control(*this, a, uint64_t(to.value_or(0))) != ControlHandover::Outcome::kDone)
    owner_.log()->debug("viewer {}: control {} to {} not done", id_, a, to.value_or(0));
}

void ViewerInput::press(uint32_t keysym, bool down) {
  InputInjector* inj = owner_.injector();
  if (!inj) return;
  const InputStatus s = inj->key(keysym, down);
  if (s == InputStatus::kNoSpareKeycode) {
    owner_.log()->warn("viewer {}: no spare keycode to type keysym {:#x}", id_, keysym);
    return;
  }
  if (s != InputStatus::kOk) return;
  if (down)
    keys_.insert(keysym);
  else
    keys_.erase(keysym);
}

// The page knows which modifiers are down at each event; a key pressed or
// released while the page had no focus is pressed or released here.
void ViewerInput::sync_modifiers(int mods, uint32_t except) {
  for (const auto& f : kFamilies) {
    if (except == f.left || except == f.right) continue;
    const bool want = (mods & f.bit) != 0;
    const bool held = keys_.contains(f.left) || keys_.contains(f.right);
    if (want && !held) press(f.left, true);
    if (!want && held) {
      press(f.left, false);
      press(f.right, false);
    }
  }
}

void ViewerInput::sync_locks(int mods, uint32_t except) {
  InputInjector* inj = owner_.injector();
  if (!inj) return;
  const auto toggle = [&](uint32_t keysym) {
    if (inj->key(keysym, true) == InputStatus::kOk) inj->key(keysym, false);
  };
  if (except != ks::kCapsLock && bool(mods & kModCapsLock) != inj->caps_lock()) toggle(ks::kCapsLock);
  if (except != ks::kNumLock && bool(mods & kModNumLock) != inj->num_lock()) toggle(ks::kNumLock);
}

void ViewerInput::on_key(const json& m) {
  JsonFields f(m);
  const auto code = f.string("code", kMaxKeyNameBytes);
  const auto key = f.string("key", kMaxKeyNameBytes);
  const bool down = f.boolean("down").value_or(false);
  const int mods = mods_field(f);
  if (!f.ok()) {
    bad_field_ = f.bad_field();
    return;
  }
  const auto keysym = keysym_for_browser_key(code.value_or(""), key.value_or(""));
  if (!keysym) return;  // a dead key: the composed character comes next
  if (!take_control()) return;
  if (mods >= 0) {
    sync_modifiers(mods, *keysym);
    if (down) sync_locks(mods, *keysym);
  }
  press(*keysym, down);
  mark_keys(down ? 1 : 0);
}

// A recorded session marks that keys were typed, never which
// (sessions/session_recorder.h).
void ViewerInput::mark_keys(size_t count) {
  if (count == 0) return;
  if (const AuditSink& audit = owner_.audit()) audit("key", json{{"viewer", id_}, {"user", user_}, {"count", count}});
}

void ViewerInput::on_text(const json& m) {
  InputInjector* inj = owner_.injector();
  JsonFields f(m);
  // IME commits are short; a script typing a page goes through type_text().
  const auto text = f.string("text", kMaxTextBytes);
  if (!f.ok()) {
    bad_field_ = f.bad_field();
    return;
  }
  if (!inj || !text || text->empty()) return;
  if (!take_control()) return;
  mark_keys(1);
  if (inj->type_text(*text) != InputStatus::kOk)
    owner_.log()->debug("viewer {}: could not type all of the text ({} bytes)", id_, text->size());
}

void ViewerInput::on_pointer(std::string_view type, const json& m) {
  InputInjector* inj = owner_.injector();
  JsonFields f(m);
  const int mods = mods_field(f);
  const auto x = coordinate(f, "x");
  const auto y = coordinate(f, "y");
  const int b = int(f.integer("button", 0, 255).value_or(0));
  const bool down = f.boolean("down").value_or(false);
  const double dx = f.number("dx", -kMaxScrollDelta, kMaxScrollDelta).value_or(0);
  const double dy = f.number("dy", -kMaxScrollDelta, kMaxScrollDelta).value_or(0);
  const auto unit = f.string("unit", 16);
  if (!f.ok()) {
    bad_field_ = f.bad_field();
    return;
  }
  if (!take_control()) return;
  if (mods >= 0) sync_modifiers(mods, 0);
  if (x && y) {
    const Point p = owner_.picture().to_desktop(*x, *y);
    inj->move(p.x, p.y);
  }
  if (type == "button") {
    if (b < 1 || (b > 3 && b != kButtonBack && b != kButtonForward)) return;
    const auto it = std::find(buttons_.begin(), buttons_.end(), b);
    if (down && it == buttons_.end()) buttons_.push_back(b);
    if (!down && it != buttons_.end()) buttons_.erase(it);
    inj->button(b, down);
  } else if (type == "scroll") {
    const Notches n = unit == "notch" ? scroll_.add_notches(dx, dy) : scroll_.add_pixels(dx, dy);
    if (n.dx || n.dy) inj->scroll_notches(n.dx, n.dy);
  }
}

void ViewerInput::on_clipboard(const json& m) {
  JsonFields f(m);
  const auto mime = f.string("mime", kMaxMimeBytes);
  const auto text = f.string("text", kMaxClipboardBytes);
  const auto data = f.string("data", kMaxBase64ClipboardBytes);
  if (!f.ok()) {
    bad_field_ = f.bad_field();
    return;
  }
  Clipboard* cb = owner_.clipboard();
  if (!cb || !owner_.settings().clipboard_in) {
    refuse("clipboard", "the desktop's clipboard does not take what viewers copy");
    return;
  }
  if (!take_control()) return;
  ClipboardContent content;
  content.mime = std::string(mime.value_or(""));
  if (content.mime == kMimeText) {
    content.data = std::string(text.value_or(""));
  } else if (content.mime == kMimePng) {
    auto bytes = base64_decode(data.value_or(""));
    if (!bytes) {
      send_control(json_text(json{{"type", "clipboard_error"}, {"message", "the image was not valid base64"}}));
      return;
    }
    content.data = std::move(*bytes);
  } else {
    send_control(json_text(json{{"type", "clipboard_error"}, {"message", "only text/plain and image/png can be pasted"}}));
    return;
  }
  std::string error;
  const std::string mime_of = content.mime;
  const size_t bytes = content.data.size();
  if (!cb->offer(std::move(content), error))
    return send_control(json_text(json{{"type", "clipboard_error"}, {"message", error}}));
  if (const AuditSink& audit = owner_.audit())
    audit("clipboard", json{{"direction", "in"}, {"mime", mime_of}, {"bytes", bytes}, {"viewer", id_}, {"user", user_}});
}

void ViewerInput::release_all() {
  InputInjector* inj = owner_.injector();
  if (inj) {
    for (int b : buttons_) inj->button(b, false);
    for (uint32_t k : keys_) inj->key(k, false);
  }
  buttons_.clear();
  keys_.clear();
  scroll_.reset();
}

void ViewerInput::send_cursor(const CursorImage& image) {
  if (cursors_sent_.contains(image.serial)) {
    send_latest(json_text(json{{"type", "cursor"}, {"serial", image.serial}}), ControlKind::kCursor);
    return;
  }
  if (cursors_sent_.size() >= kCursorsRemembered) cursors_sent_.clear();
  cursors_sent_.insert(image.serial);
  send_latest(owner_.cursor_json(image), ControlKind::kCursor);
}

}  // namespace voxl::input
