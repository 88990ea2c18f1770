#include "platform/wayland/output_resizer.h"

#include <algorithm>
#include <chrono>

#include <wayland-client.h>

#include "platform/wayland/wayland_display.h"
#include "wlr-output-management-unstable-v1-client.h"

namespace voxl::platform::wayland {

namespace {

constexpr auto kAnswerLimit = std::chrono::seconds(5);

void ignore_description(void*, zwlr_output_head_v1*, const char*) {}
void ignore_physical_size(void*, zwlr_output_head_v1*, int32_t, int32_t) {}
void ignore_enabled(void*, zwlr_output_head_v1*, int32_t) {}
void ignore_current_mode(void*, zwlr_output_head_v1*, zwlr_output_mode_v1*) {}
void ignore_position(void*, zwlr_output_head_v1*, int32_t, int32_t) {}
void ignore_transform(void*, zwlr_output_head_v1*, int32_t) {}
void ignore_scale(void*, zwlr_output_head_v1*, wl_fixed_t) {}
void ignore_text(void*, zwlr_output_head_v1*, const char*) {}
void ignore_mode_size(void*, zwlr_output_mode_v1*, int32_t, int32_t) {}
void ignore_mode_refresh(void*, zwlr_output_mode_v1*, int32_t) {}
void ignore_mode_preferred(void*, zwlr_output_mode_v1*) {}

}  // namespace

std::unique_ptr<OutputResizer> OutputResizer::open(const std::string& display, Logger log, std::string& why) {
  std::unique_ptr<WaylandDisplay> d;
  try {
    d = std::make_unique<WaylandDisplay>(display);
  } catch (const std::runtime_error& e) {
    why = std::string("cannot resize the desktop: ") + e.what();
    return nullptr;
  }
  if (!d->global("zwlr_output_manager_v1")) {
    why = "cannot resize the desktop: the Wayland compositor does not let clients set its outputs' modes "
          "(no wlr-output-management)";
    return nullptr;
  }
  std::unique_ptr<OutputResizer> r(new OutputResizer(std::move(d), std::move(log)));
  if (!r->head() || !r->have_serial_) {
    why = "cannot resize the desktop: the Wayland compositor lists no output";
    return nullptr;
  }
  return r;
}

OutputResizer::OutputResizer(std::unique_ptr<WaylandDisplay> display, Logger log)
    : display_(std::move(display)), log_(std::move(log)) {
  const auto g = display_->global("zwlr_output_manager_v1");
  manager_ = static_cast<zwlr_output_manager_v1*>(
      wl_registry_bind(display_->registry(), g->name, &zwlr_output_manager_v1_interface, std::min(g->version, 2u)));
  static constexpr zwlr_output_manager_v1_listener listener = {
      .head = &OutputResizer::on_head,
      .done = &OutputResizer::on_done,
      .finished = &OutputResizer::on_finished,
  };
  zwlr_output_manager_v1_add_listener(manager_, &listener, this);
  display_->roundtrip();
}

OutputResizer::~OutputResizer() {
  restore();
  for (zwlr_output_mode_v1* m : modes_) wl_proxy_destroy(reinterpret_cast<wl_proxy*>(m));
  for (zwlr_output_head_v1* h : heads_) wl_proxy_destroy(reinterpret_cast<wl_proxy*>(h));
  if (manager_) zwlr_output_manager_v1_destroy(manager_);
}

void OutputResizer::on_head(void* data, zwlr_output_manager_v1*, zwlr_output_head_v1* head) {
  auto* self = static_cast<OutputResizer*>(data);
  static constexpr zwlr_output_head_v1_listener listener = {
      .name = &OutputResizer::on_head_name,
      .description = ignore_description,
      .physical_size = ignore_physical_size,
      .mode = &OutputResizer::on_head_mode,
      .enabled = ignore_enabled,
      .current_mode = ignore_current_mode,
      .position = ignore_position,
      .transform = ignore_transform,
      .scale = ignore_scale,
      .finished = &OutputResizer::on_head_finished,
      .make = ignore_text,
      .model = ignore_text,
      .serial_number = ignore_text,
  };
  if (self->heads_.size() >= 64) {  // a compositor listing more is not believed
    wl_proxy_destroy(reinterpret_cast<wl_proxy*>(head));
    return;
  }
  self->heads_.insert(head);
  zwlr_output_head_v1_add_listener(head, &listener, self);
}

void OutputResizer::on_head_name(void* data, zwlr_output_head_v1* head, const char* name) {
  auto* self = static_cast<OutputResizer*>(data);
  if (name && name == self->display_->output_name()) self->named_ = head;
}

void OutputResizer::on_head_mode(void* data, zwlr_output_head_v1*, zwlr_output_mode_v1* mode) {
  auto* self = static_cast<OutputResizer*>(data);
  static constexpr zwlr_output_mode_v1_listener listener = {
      .size = ignore_mode_size,
      .refresh = ignore_mode_refresh,
      .preferred = ignore_mode_preferred,
      .finished = &OutputResizer::on_mode_finished,
  };
  if (self->modes_.size() >= 4096) {
    wl_proxy_destroy(reinterpret_cast<wl_proxy*>(mode));
    return;
  }
  self->modes_.insert(mode);
  zwlr_output_mode_v1_add_listener(mode, &listener, self);
}

void OutputResizer::on_mode_finished(void* data, zwlr_output_mode_v1* mode) {
  auto* self = static_cast<OutputResizer*>(data);
  if (self->modes_.erase(mode)) wl_proxy_destroy(reinterpret_cast<wl_proxy*>(mode));
}

void OutputResizer::on_head_finished(void* data, zwlr_output_head_v1* head) {
  auto* self = static_cast<OutputResizer*>(data);
  if (self->named_ == head) self->named_ = nullptr;
  if (self->heads_.erase(head)) wl_proxy_destroy(reinterpret_cast<wl_proxy*>(head));
}

void OutputResizer::on_done(void* data, zwlr_output_manager_v1*, uint32_t serial) {
  auto* self = static_cast<OutputResizer*>(data);
  self->serial_ = serial;
  self->have_serial_ = true;
}

void OutputResizer::on_finished(void* data, zwlr_output_manager_v1*) {
  auto* self = static_cast<OutputResizer*>(data);
  zwlr_output_manager_v1_destroy(self->manager_);
  self->manager_ = nullptr;
}

zwlr_output_head_v1* OutputResizer::head() const {
  if (named_) return named_;
  return heads_.empty() ? nullptr : *heads_.begin();
}

Size OutputResizer::current_size() {
  display_->roundtrip();
  return display_->output_size();
}

OutputResizer::Outcome OutputResizer::apply(Size size) {
  Outcome outcome = Outcome::kNoAnswer;
  static constexpr zwlr_output_configuration_v1_listener listener = {
      .succeeded = [](void* o, zwlr_output_configuration_v1*) { *static_cast<Outcome*>(o) = Outcome::kSucceeded; },
      .failed = [](void* o, zwlr_output_configuration_v1*) { *static_cast<Outcome*>(o) = Outcome::kFailed; },
      .cancelled = [](void* o, zwlr_output_configuration_v1*) { *static_cast<Outcome*>(o) = Outcome::kCancelled; },
  };
  zwlr_output_configuration_v1* config = zwlr_output_manager_v1_create_configuration(manager_, serial_);
  zwlr_output_configuration_v1_add_listener(config, &listener, &outcome);
  zwlr_output_configuration_head_v1* head_config = zwlr_output_configuration_v1_enable_head(config, head());
  zwlr_output_configuration_head_v1_set_custom_mode(head_config, size.width, size.height, 0);
  zwlr_output_configuration_v1_apply(config);
  display_->dispatch_until([&] { return outcome != Outcome::kNoAnswer; },
                           std::chrono::steady_clock::now() + kAnswerLimit);
  wl_proxy_destroy(reinterpret_cast<wl_proxy*>(head_config));
  zwlr_output_configuration_v1_destroy(config);
  // The new mode and serial arrive after the answer.
  display_->roundtrip();
  return outcome;
}

bool OutputResizer::resize(Size size, std::string& error) {
  if (!manager_ || !head() || display_->failed()) {
    error = "the Wayland compositor's outputs can no longer be set";
    return false;
  }
  if (size.width <= 0 || size.height <= 0 || size.width > kLargest.width || size.height > kLargest.height) {
    error = "the size must be at most " + std::to_string(kLargest.width) + "x" + std::to_string(kLargest.height);
    return false;
  }
  const Size before = current_size();
  if (before == size) return true;
  Outcome outcome = apply(size);
  if (outcome == Outcome::kCancelled) outcome = apply(size);  // the outputs changed meanwhile: once more
  switch (outcome) {
    case Outcome::kSucceeded:
      if (!original_) original_ = before;
      return true;
    case Outcome::kFailed:
      error = "the Wayland compositor refused " + std::to_string(size.width) + "x" + std::to_string(size.height);
      return false;
    case Outcome::kCancelled:
      error = "the Wayland compositor's outputs kept changing";
      return false;
    case Outcome::kNoAnswer:
      break;
  }
  error = "the Wayland compositor did not answer in 5 s";
  return false;
}

void OutputResizer::restore() {
  if (!original_) return;
  std::string error;
  const Size back = *original_;
  original_.reset();
  if (!resize(back, error)) log_->warn("cannot put the Wayland output back to {}x{}: {}", back.width, back.height, error);
  original_.reset();  // resize() set it again
}

}  // namespace voxl::platform::wayland
