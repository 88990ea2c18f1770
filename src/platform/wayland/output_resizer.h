// platform::DesktopResizer for a wlroots compositor's output, through
// wlr-output-management: the output takes a custom mode of the size asked
// for (headless outputs take any size; a real monitor only its own modes,
// which the compositor refuses otherwise), and the size it had before is
// put back by restore() and at destruction.
//
// Threads: one thread (the loop thread) owns it; resize() and
// current_size() make round trips to the compositor, bounded by 5 s.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "base/logging.h"
#include "platform/desktop_resizer.h"

struct zwlr_output_manager_v1;
struct zwlr_output_head_v1;
struct zwlr_output_mode_v1;
struct zwlr_output_configuration_v1;

namespace voxl::platform::wayland {

class WaylandDisplay;

class OutputResizer final : public DesktopResizer {
 public:
  // Null with `why` set when the compositor cannot be reached, lacks
  // output management or lists no output.
  static std::unique_ptr<OutputResizer> open(const std::string& display, Logger log, std::string& why);
  ~OutputResizer() override;
  OutputResizer(const OutputResizer&) = delete;
  OutputResizer& operator=(const OutputResizer&) = delete;

  Size current_size() override;
  Size max_size() override { return kLargest; }
  bool resize(Size size, std::string& error) override;
  void restore() override;

  static constexpr Size kLargest{3840, 2160};

 private:
  OutputResizer(std::unique_ptr<WaylandDisplay> display, Logger log);
  static void on_head(void* self, zwlr_output_manager_v1*, zwlr_output_head_v1* head);
  static void on_done(void* self, zwlr_output_manager_v1*, uint32_t serial);
  static void on_finished(void* self, zwlr_output_manager_v1*);
  static void on_head_name(void* self, zwlr_output_head_v1* head, const char* name);
  static void on_head_mode(void* self, zwlr_output_head_v1* head, zwlr_output_mode_v1* mode);
  static void on_head_finished(void* self, zwlr_output_head_v1* head);
  static void on_mode_finished(void* self, zwlr_output_mode_v1* mode);
  // The head of the output voxl captures: the one named like it, else the
  // first listed.
  zwlr_output_head_v1* head() const;
  // One configuration applied; its outcome.
  enum class Outcome { kSucceeded, kFailed, kCancelled, kNoAnswer };
  Outcome apply(Size size);

  std::unique_ptr<WaylandDisplay> display_;
  Logger log_;
  zwlr_output_manager_v1* manager_ = nullptr;
  std::set<zwlr_output_head_v1*> heads_;
  std::set<zwlr_output_mode_v1*> modes_;
  zwlr_output_head_v1* named_ = nullptr;  // the head whose name is the output's
  uint32_t serial_ = 0;
  bool have_serial_ = false;
  std::optional<Size> original_;
};

}  // namespace voxl::platform::wayland
