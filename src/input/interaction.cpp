#include "input/interaction.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "base/base64.h"
#include "base/json_text.h"
#include "input/viewer_input.h"

namespace voxl::input {

namespace {

using json = nlohmann::json;

// Shapes an application cycles through (busy, text, arrows) stay cached.
constexpr size_t kCursorCacheSize = 64;

std::string clipboard_mode(const InteractionSettings& s) {
  if (s.clipboard_in && s.clipboard_out) return "both";
  if (s.clipboard_in) return "in";
  if (s.clipboard_out) return "out";
  return "off";
}

}  // namespace

bool CursorImage::hidden() const {
  for (size_t i = 3; i < rgba.size(); i += 4)
    if (rgba[i]) return false;
  return true;
}

Interaction::Interaction(InputInjector* injector, Clipboard* clipboard, CursorSource* cursor,
                         InteractionSettings settings, Logger log)
    : injector_(injector),
      clipboard_(clipboard),
      cursor_(cursor),
      settings_(settings),
      picture_(settings.picture),
      log_(std::move(log)) {
  if (cursor_) cursor_->set_listener([this](const CursorImagePtr& image) { on_cursor(image); });
  if (clipboard_)
    clipboard_->set_listener({[this](const ClipboardContent& c) { on_copied(c); },
                              [this](const std::string& message) { on_refused(message); }});
}

Interaction::~Interaction() { detach(); }

std::unique_ptr<ViewerInput> Interaction::join(ViewerLink& link, bool view_only, uint64_t viewer_id) {
  auto v = std::make_unique<ViewerInput>(*this, link, view_only, viewer_id);
  viewers_.push_back(v.get());
  const bool full = !view_only;
  v->send_control(json_text(json{{"type", "interaction"},
                       {"input", full && injector_ != nullptr},
                       {"clipboard", full && clipboard_ ? clipboard_mode(settings_) : "off"},
                       {"view_only", view_only},
                       {"scroll_px_per_notch", settings_.scroll_px_per_notch}}));
  if (cursor_)
    if (auto c = cursor_->current()) v->send_cursor(*c);
  return v;
}

void Interaction::leave(ViewerInput* v) { std::erase(viewers_, v); }

void Interaction::detach() {
  for (ViewerInput* v : viewers_) v->release_all();
  if (cursor_) cursor_->set_listener(nullptr);
  if (clipboard_) clipboard_->set_listener({});
  injector_ = nullptr;
  clipboard_ = nullptr;
  cursor_ = nullptr;
}

const std::string& Interaction::cursor_json(const CursorImage& image) {
  if (auto it = cursor_cache_.find(image.serial); it != cursor_cache_.end()) return it->second;
  if (cursor_cache_.size() >= kCursorCacheSize) cursor_cache_.erase(cursor_cache_.begin());  // oldest serial
  json m{{"type", "cursor"}, {"serial", image.serial}};
  if (image.hidden()) {
    m["hidden"] = true;
  } else {
    m["width"] = image.width;
    m["height"] = image.height;
    m["hot_x"] = image.hot_x;
    m["hot_y"] = image.hot_y;
    m["rgba"] = base64_encode(std::string_view(reinterpret_cast<const char*>(image.rgba.data()), image.rgba.size()));
  }
  return cursor_cache_.emplace(image.serial, json_text(m)).first->second;
}

void Interaction::on_cursor(const CursorImagePtr& image) {
  if (!image) return;
  for (ViewerInput* v : viewers_) v->send_cursor(*image);
}

void Interaction::on_copied(const ClipboardContent& c) {
  if (!settings_.clipboard_out) return;
  json m{{"type", "clipboard"}, {"mime", c.mime}};
  if (c.mime == kMimeText)
    m["text"] = c.data;
  else
    m["data"] = base64_encode(c.data);
  // Invalid UTF-8 from an application is replaced, not an exception.
  const std::string text = json_text(m);
  size_t sent = 0;
  for (ViewerInput* v : viewers_)
    if (!v->view_only()) {
      v->send_latest(text, ControlKind::kClipboard);
      ++sent;
    }
  log_->debug("clipboard: the desktop copied {} bytes of {}; sent to {} viewer(s)", c.data.size(), c.mime, sent);
}

void Interaction::on_refused(const std::string& message) {
  if (!settings_.clipboard_out) return;
  log_->info("clipboard: {}", message);
  const std::string text = json_text(json{{"type", "clipboard_error"}, {"message", message}});
  for (ViewerInput* v : viewers_)
    if (!v->view_only()) v->send_control(text);
}

}  // namespace voxl::input
