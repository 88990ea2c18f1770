#include "input/viewer_input.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <nlohmann/json.hpp>

#include "base/base64.h"
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
// IME commits are short; a script typing a page goes through type_text().
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

int int_field(const json& m, const char* key, int fallback) {
  const auto it = m.find(key);
  if (it == m.end() || !it->is_number()) return fallback;
  const double v = it->get<double>();
  if (!std::isfinite(v)) return fallback;
  return int(std::clamp(std::floor(v), -1e6, 1e6));
}

double number_field(const json& m, const char* key) {
  const auto it = m.find(key);
  if (it == m.end() || !it->is_number()) return 0;
  const double v = it->get<double>();
  return std::isfinite(v) ? std::clamp(v, -1e6, 1e6) : 0;
}

bool bool_field(const json& m, const char* key) {
  const auto it = m.find(key);
  return it != m.end() && it->is_boolean() && it->get<bool>();
}

// The "mods" bit set, or -1 when the message has none.
int mods_field(const json& m) {
  const auto it = m.find("mods");
  return it != m.end() && it->is_number_integer() ? int(std::clamp<int64_t>(it->get<int64_t>(), 0, 0xffff)) : -1;
}

std::string string_field(const json& m, const char* key) {
  const auto it = m.find(key);
  return it != m.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool is_input_type(std::string_view t) {
  return t == "key" || t == "text" || t == "move" || t == "button" || t == "scroll" || t == "release";
}

}  // namespace

ViewerInput::ViewerInput(Interaction& owner, ViewerLink& link, bool view_only, uint64_t id)
    : owner_(owner), link_(link), view_only_(view_only), id_(id), scroll_(owner.settings().scroll_px_per_notch) {}

ViewerInput::~ViewerInput() {
  release_all();
  owner_.leave(this);
}

bool ViewerInput::handle(std::string_view type, const json& m) {
  const bool input = is_input_type(type);
  if (!input && type != "clipboard") return false;
  if (view_only_) {
    refuse(input ? "input" : "clipboard", "this viewer may only watch");
    return true;
  }
  if (input && !owner_.injector()) {
    refuse("input", "the desktop takes no input");
    return true;
  }
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
  const auto keysym = keysym_for_browser_key(string_field(m, "code"), string_field(m, "key"));
  const bool down = bool_field(m, "down");
  if (!keysym) return;  // a dead key: the composed character comes next
  if (const int mods = mods_field(m); mods >= 0) {
    sync_modifiers(mods, *keysym);
    if (down) sync_locks(mods, *keysym);
  }
  press(*keysym, down);
}

void ViewerInput::on_text(const json& m) {
  InputInjector* inj = owner_.injector();
  const std::string text = string_field(m, "text");
  if (!inj || text.empty()) return;
  if (text.size() > kMaxTextBytes) {
    owner_.log()->info("viewer {}: text of {} bytes ignored (limit {})", id_, text.size(), kMaxTextBytes);
    return;
  }
  if (inj->type_text(text) != InputStatus::kOk)
    owner_.log()->debug("viewer {}: could not type all of the text ({} bytes)", id_, text.size());
}

void ViewerInput::move_to(const json& m) {
  if (!m.contains("x") || !m.contains("y")) return;
  const auto& s = owner_.settings();
  owner_.injector()->move(s.origin_x + std::max(0, int_field(m, "x", 0)), s.origin_y + std::max(0, int_field(m, "y", 0)));
}

void ViewerInput::on_pointer(std::string_view type, const json& m) {
  InputInjector* inj = owner_.injector();
  if (const int mods = mods_field(m); mods >= 0) sync_modifiers(mods, 0);
  move_to(m);
  if (type == "button") {
    const int b = int_field(m, "button", 0);
    if (b < 1 || (b > 3 && b != kButtonBack && b != kButtonForward)) return;
    const bool down = bool_field(m, "down");
    const auto it = std::find(buttons_.begin(), buttons_.end(), b);
    if (down && it == buttons_.end()) buttons_.push_back(b);
    if (!down && it != buttons_.end()) buttons_.erase(it);
    inj->button(b, down);
  } else if (type == "scroll") {
    const double dx = number_field(m, "dx");
    const double dy = number_field(m, "dy");
    const Notches n = string_field(m, "unit") == "notch" ? scroll_.add_notches(dx, dy) : scroll_.add_pixels(dx, dy);
    if (n.dx || n.dy) inj->scroll_notches(n.dx, n.dy);
  }
}

void ViewerInput::on_clipboard(const json& m) {
  Clipboard* cb = owner_.clipboard();
  if (!cb || !owner_.settings().clipboard_in) {
    refuse("clipboard", "the desktop's clipboard does not take what viewers copy");
    return;
  }
  const std::string mime = string_field(m, "mime");
  ClipboardContent content;
  content.mime = mime;
  if (mime == kMimeText) {
    content.data = string_field(m, "text");
  } else if (mime == kMimePng) {
    auto bytes = base64_decode(string_field(m, "data"));
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
  if (!cb->offer(std::move(content), error))
    send_control(json_text(json{{"type", "clipboard_error"}, {"message", error}}));
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
    send_control(json_text(json{{"type", "cursor"}, {"serial", image.serial}}));
    return;
  }
  if (cursors_sent_.size() >= kCursorsRemembered) cursors_sent_.clear();
  cursors_sent_.insert(image.serial);
  send_control(owner_.cursor_json(image));
}

}  // namespace voxl::input
