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
                         InteractionSettings settings, Logger log, InteractionHooks hooks)
    : injector_(injector),
      clipboard_(clipboard),
      cursor_(cursor),
      settings_(settings),
      picture_(settings.picture),
      log_(std::move(log)),
      hooks_(std::move(hooks)),
      handover_(hooks_.arm_timer ? settings.control_timeout : std::chrono::seconds(0)) {
  if (cursor_) cursor_->set_listener([this](const CursorImagePtr& image) { on_cursor(image); });
  if (clipboard_)
    clipboard_->set_listener({[this](const ClipboardContent& c) { on_copied(c); },
                              [this](const std::string& message) { on_refused(message); }});
}

Interaction::~Interaction() { detach(); }

std::unique_ptr<ViewerInput> Interaction::join(ViewerLink& link, bool view_only, uint64_t viewer_id) {
  return join(link, ViewerPermissions::from_view_only(view_only), viewer_id);
}

std::unique_ptr<ViewerInput> Interaction::join(ViewerLink& link, ViewerPermissions permissions, uint64_t viewer_id,
                                               std::string user) {
  auto v = std::make_unique<ViewerInput>(*this, link, permissions, viewer_id);
  v->user_ = std::move(user);
  viewers_.push_back(v.get());
  const bool view_only = !permissions.control;
  InteractionSettings mine = settings_;
  mine.clipboard_in = mine.clipboard_in && permissions.control && permissions.clipboard_in;
  mine.clipboard_out = mine.clipboard_out && permissions.clipboard_out;
  v->send_control(json_text(json{{"type", "interaction"},
                       {"input", !view_only && injector_ != nullptr},
                       {"clipboard", clipboard_ ? clipboard_mode(mine) : "off"},
                       {"view_only", view_only},
                       {"scroll_px_per_notch", settings_.scroll_px_per_notch}}));
  if (cursor_)
    if (auto c = cursor_->current()) v->send_cursor(*c);
  handover_.join(viewer_id, view_only);
  send_viewers();
  return v;
}

void Interaction::leave(ViewerInput* v) {
  if (!listed(v)) return;
  std::erase(viewers_, v);
  const uint64_t holder = handover_.holder();
  const uint64_t changes = handover_.changes();
  handover_.leave(v->id(), now());
  if (!settle(holder, changes)) send_viewers();  // it left, whatever else moved
}

Interaction::Time Interaction::now() const { return hooks_.now ? hooks_.now() : std::chrono::steady_clock::now(); }

bool Interaction::listed(const ViewerInput* v) const {
  return std::find(viewers_.begin(), viewers_.end(), v) != viewers_.end();
}

ViewerInput* Interaction::viewer(uint64_t id) const {
  for (ViewerInput* v : viewers_)
    if (v->id() == id) return v;
  return nullptr;
}

bool Interaction::take_input(ViewerInput& v) {
  const uint64_t holder = handover_.holder();
  const uint64_t changes = handover_.changes();
  const bool ok = handover_.on_input(v.id(), now());
  settle(holder, changes);
  return ok;
}

ControlHandover::Outcome Interaction::on_control(ViewerInput& v, std::string_view action, uint64_t to) {
  const uint64_t holder = handover_.holder();
  const uint64_t changes = handover_.changes();
  const Time t = now();
  ControlHandover::Outcome out = ControlHandover::Outcome::kUnknown;
  if (action == "request") out = handover_.request(v.id(), t);
  else if (action == "release") out = handover_.release(v.id(), t);
  else if (action == "grant") out = handover_.grant(v.id(), to, t);
  else if (action == "deny") out = handover_.deny(v.id(), to);
  settle(holder, changes);
  return out;
}

void Interaction::on_control_timer() {
  const uint64_t holder = handover_.holder();
  const uint64_t changes = handover_.changes();
  handover_.on_timer(now());
  if (handover_.holder() != holder) log_->info("control: {} idled past the timeout", who(holder));
  // Nothing changed: the holder's input moved the deadline on; wait for it.
  if (!settle(holder, changes)) arm_timer();
}

bool Interaction::rename(ViewerInput& v, std::string name) {
  if (v.name() == name) return true;
  if (!allow_action(v)) return false;
  v.set_name(std::move(name));
  send_viewers();
  return true;
}

std::string Interaction::user_of(uint64_t id) const {
  for (const ViewerInput* v : viewers_)
    if (v->id() == id) return v->user();
  return "";
}

std::string Interaction::who(uint64_t id) const {
  if (id == 0) return "nobody";
  const std::string viewer_n = "viewer " + std::to_string(id);
  for (const ViewerInput* v : viewers_)
    if (v->id() == id && !v->user().empty()) return viewer_n + " (" + v->user() + ")";
  return viewer_n;
}

bool Interaction::allow_action(ViewerInput& v) { return v.actions_.take(now()); }

bool Interaction::settle(uint64_t holder_before, uint64_t changes_before) {
  if (handover_.changes() == changes_before) return false;
  const uint64_t holder = handover_.holder();
  if (holder != holder_before) {
    log_->info("control: {} -> {}", who(holder_before), who(holder));
    if (hooks_.audit)
      hooks_.audit("control", json{{"from", holder_before}, {"from_user", user_of(holder_before)},
                                   {"to", holder}, {"to_user", user_of(holder)}});
    if (ViewerInput* old = viewer(holder_before)) old->lost_control();
    if (ViewerInput* now_holding = viewer(holder)) now_holding->gained_control();
  }
  arm_timer();
  send_viewers();
  return true;
}

void Interaction::arm_timer() {
  if (const auto due = handover_.deadline(); due && hooks_.arm_timer) hooks_.arm_timer(*due);
}

std::string Interaction::viewers_json(const ViewerInput& to) const {
  // The recipient, the holder and the requesters always; then the rest in
  // join order, up to kMaxListed; shown in join order.
  std::vector<const ViewerInput*> shown;
  const auto first = [&](const ViewerInput* v) {
    return v == &to || v->id() == handover_.holder() || handover_.requesting(v->id());
  };
  for (const ViewerInput* v : viewers_)
    if (first(v) && shown.size() < kMaxListed) shown.push_back(v);
  for (const ViewerInput* v : viewers_)
    if (!first(v) && shown.size() < kMaxListed) shown.push_back(v);
  if (std::find(shown.begin(), shown.end(), &to) == shown.end()) shown.back() = &to;
  json list = json::array();
  for (const ViewerInput* v : viewers_) {
    if (std::find(shown.begin(), shown.end(), v) == shown.end()) continue;
    list.push_back({{"id", v->id()},
                    {"role", v->view_only() ? "view-only" : "full"},
                    {"name", v->name()},
                    {"user", v->user()},
                    {"requesting", handover_.requesting(v->id())}});
  }
  return json_text(json{{"type", "viewers"},
                        {"you", to.id()},
                        {"holder", handover_.holder()},
                        {"timeout_s", handover_.timeout().count()},
                        {"viewers", std::move(list)},
                        {"more", viewers_.size() - shown.size()}});
}

void Interaction::send_viewers() {
  if (!hooks_.post) return flush_viewers();
  if (viewers_dirty_) return;
  viewers_dirty_ = true;
  hooks_.post([alive = std::weak_ptr<Interaction*>(self_)] {
    if (const auto self = alive.lock()) (*self)->flush_viewers();
  });
}

// A viewer may leave while being told (its queue overflowed): iterate a
// copy and skip those gone. Up to kMaxListed viewers everyone gets the
// same list but for "you", which is made once and stamped per recipient
// (the object's keys are sorted, so "you" is its last).
void Interaction::flush_viewers() {
  viewers_dirty_ = false;
  const auto all = viewers_;
  if (all.empty()) return;
  std::string shared;
  if (all.size() <= kMaxListed) {
    shared = viewers_json(*all.front());
    const std::string tail = "\"you\":" + std::to_string(all.front()->id()) + "}";
    if (!shared.ends_with(tail)) shared.clear();  // not as expected: one per viewer
    else shared.resize(shared.size() - tail.size());
  }
  for (ViewerInput* v : all) {
    if (!listed(v)) continue;
    // Only the newest list waits: another viewer renaming or asking over
    // and over cannot fill this one's queue.
    if (shared.empty()) v->send_latest(viewers_json(*v), ControlKind::kViewers);
    else v->send_latest(shared + "\"you\":" + std::to_string(v->id()) + "}", ControlKind::kViewers);
  }
}

void Interaction::detach() {
  for (ViewerInput* v : viewers_) v->release_all();
  hooks_.arm_timer = nullptr;
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
    if (v->receives_clipboard()) {
      v->send_latest(text, ControlKind::kClipboard);
      ++sent;
    }
  log_->debug("clipboard: the desktop copied {} bytes of {}; sent to {} viewer(s)", c.data.size(), c.mime, sent);
  if (hooks_.audit && sent > 0)
    hooks_.audit("clipboard", json{{"direction", "out"}, {"mime", c.mime}, {"bytes", c.data.size()}, {"viewers", sent}});
}

void Interaction::on_refused(const std::string& message) {
  if (!settings_.clipboard_out) return;
  log_->info("clipboard: {}", message);
  const std::string text = json_text(json{{"type", "clipboard_error"}, {"message", message}});
  for (ViewerInput* v : viewers_)
    if (v->receives_clipboard()) v->send_control(text);
}

}  // namespace voxl::input
