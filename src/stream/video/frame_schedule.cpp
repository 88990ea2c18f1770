#include "stream/video/frame_schedule.h"

#include <algorithm>

namespace voxl::stream {

FrameSchedule::FrameSchedule(int burst, Clock::duration delay)
    : burst_(std::max(0, burst)), delay_(std::max(Clock::duration::zero(), delay)) {}

void FrameSchedule::on_change(Clock::time_point at) {
  have_picture_ = true;
  left_ = burst_;
  nth_ = 0;
  changed_at_ = at;
}

std::optional<FrameSchedule::Clock::time_point> FrameSchedule::paintover_due() const {
  if (left_ <= 0 || !have_picture_) return std::nullopt;
  return still_from();
}

std::chrono::milliseconds FrameSchedule::damage_wait(Clock::time_point now, std::optional<Clock::time_point> other_due,
                                                     std::chrono::milliseconds longest) const {
  std::optional<Clock::time_point> due = paintover_due();
  if (other_due) due = due ? std::min(*due, *other_due) : *other_due;
  if (!due) return longest;
  return std::clamp(std::chrono::ceil<std::chrono::milliseconds>(*due - now), std::chrono::milliseconds(0), longest);
}

bool FrameSchedule::paintover_now(Clock::time_point now, std::optional<Clock::time_point> switch_due, bool paused) {
  const bool switching = switch_due && now >= *switch_due;
  const auto sharpen = paintover_due();
  const bool sharpening = sharpen && now >= *sharpen;
  if (!switching && !sharpening) return false;
  // It waits for a viewer that can take it: on a link whose window is full
  // when it falls due it would otherwise never come.
  if (paused) return false;
  if (left_ > 0) --left_;
  ++nth_;
  return true;
}

void FrameSchedule::extend_burst(int frames) {
  if (burst_ > 0) left_ = std::max(left_, frames - 1);
}

encode::VideoEncoder::GapBudget FrameSchedule::gap_budget() const {
  using GapBudget = encode::VideoEncoder::GapBudget;
  if (nth_ == 1 && left_ > 0) return GapBudget::kBank;
  if (nth_ == 2) return GapBudget::kSpend;
  return GapBudget::kNone;
}

}  // namespace voxl::stream
