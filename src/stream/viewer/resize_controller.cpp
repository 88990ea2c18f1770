#include "stream/viewer/resize_controller.h"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/json_text.h"

namespace voxl::stream {

ResizeController::ResizeController(ResizeSettings settings, ResizeHooks hooks, Logger log)
    : settings_(std::move(settings)),
      hooks_(std::move(hooks)),
      log_(std::move(log)),
      limits_(desktop_size_limits(settings_.max)),
      applied_(settings_.current),
      refused_log_(std::chrono::seconds(10)) {}

std::optional<uint64_t> ResizeController::holder() const { return holder_; }

ResizeController::Viewer* ResizeController::find(uint64_t id) {
  const auto it = std::find_if(viewers_.begin(), viewers_.end(), [id](const Viewer& v) { return v.id == id; });
  return it == viewers_.end() ? nullptr : &*it;
}

void ResizeController::join(uint64_t id, bool view_only, std::function<void(std::string)> send) {
  if (find(id)) return;
  Viewer v;
  v.id = id;
  v.view_only = view_only;
  v.send = std::move(send);
  viewers_.push_back(std::move(v));
  tell(viewers_.back());
}

void ResizeController::leave(uint64_t id) {
  std::erase_if(viewers_, [id](const Viewer& v) { return v.id == id; });
  if (control_holder_ == id) control_holder_ = 0;
  update_holder();
}

void ResizeController::on_request(uint64_t id, Size want) {
  Viewer* v = find(id);
  if (!v || v->view_only || !enabled()) return;
  if (!v->want) v->asked_at = now();
  v->want = want;
  if (holder_ == id) return follow_holder();
  update_holder();
}

void ResizeController::on_input(uint64_t id) {
  Viewer* v = find(id);
  if (!v || v->view_only) return;
  v->input_at = now();
  if (holder_ != id && v->want) update_holder();
}

void ResizeController::on_control(uint64_t id, bool held) {
  if (held) control_holder_ = id;
  else if (control_holder_ == id) control_holder_ = 0;
  else return;
  update_holder();
}

std::optional<uint64_t> ResizeController::choose_holder() const {
  // While someone holds control only its size counts, asked for or not.
  if (control_holder_) {
    const auto it = std::find_if(viewers_.begin(), viewers_.end(),
                                 [this](const Viewer& v) { return v.id == control_holder_ && !v.view_only; });
    if (it != viewers_.end()) return it->id;
  }
  const Viewer* best = nullptr;
  for (const Viewer& v : viewers_) {
    if (v.view_only || !v.want) continue;
    if (!best) {
      best = &v;
      continue;
    }
    // The latest input wins; without input, the earliest request.
    if (v.input_at && (!best->input_at || *v.input_at > *best->input_at)) best = &v;
    else if (!v.input_at && !best->input_at && v.asked_at < best->asked_at) best = &v;
  }
  if (!best) return std::nullopt;
  return best->id;
}

void ResizeController::update_holder() {
  const auto next = choose_holder();
  if (next != holder_) {
    holder_ = next;
    if (holder_) log_->info("viewer {} now decides the desktop's size", *holder_);
    tell_all();
  }
  follow_holder();
}

void ResizeController::follow_holder() {
  if (!enabled() || !holder_ || stopped_) return;
  const Viewer* h = find(*holder_);
  if (!h || !h->want) return;
  const Size target = fit_desktop_size(*h->want, limits_);
  const Time t = now();
  if (target.empty() || target == applied_) return;
  if (target == refused_ && t < refused_at_ + kRetryRefused) return;
  if (last_applied_at_ && t < *last_applied_at_ + kMinInterval) {
    const Time when = *last_applied_at_ + kMinInterval;
    if (timer_at_ != when && hooks_.arm_timer) {
      timer_at_ = when;
      hooks_.arm_timer(when);
    }
    return;
  }
  std::string error;
  last_applied_at_ = t;
  if (!hooks_.resize(target, error)) {
    refused_ = target;
    refused_at_ = t;
    if (refused_log_.allow(t))
      log_->warn("cannot make the desktop {}x{}: {}", target.width, target.height, error);
    if (hooks_.current_size) {
      const Size now_size = hooks_.current_size();
      if (!now_size.empty()) applied_ = now_size;
    }
    return;
  }
  log_->info("desktop resized from {}x{} to {}x{} for viewer {}", applied_.width, applied_.height, target.width,
             target.height, h->id);
  applied_ = target;
  refused_.reset();
}

void ResizeController::on_timer() {
  timer_at_.reset();
  follow_holder();
}

void ResizeController::tell(Viewer& v) {
  nlohmann::json m{{"type", "resize"}, {"enabled", enabled()}};
  if (!enabled()) {
    m["reason"] = settings_.disabled_reason;
  } else {
    m["holder"] = holder_ == v.id;
    m["policy"] = "last-input";
    m["scale"] = settings_.scale;
    m["min_width"] = limits_.min.width;
    m["min_height"] = limits_.min.height;
    m["max_width"] = limits_.max.width;
    m["max_height"] = limits_.max.height;
  }
  std::string text = json_text(m);
  if (text == v.last_sent) return;
  v.last_sent = text;
  v.send(std::move(text));
}

void ResizeController::tell_all() {
  // A send may not re-enter (it queues the text), so the list is stable.
  for (Viewer& v : viewers_) tell(v);
}

}  // namespace voxl::stream
