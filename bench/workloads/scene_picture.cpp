#include "scene_picture.h"

#include <algorithm>

#include "animation_helpers.h"

namespace voxl::bench {

ScenePicture::ScenePicture(int width, int height, bool fullscreen)
    : width_(width), height_(height),
      area_(fullscreen ? Box{0, 0, width, height}
                       : Box{width / 6, height / 6, width - 2 * (width / 6), height - 2 * (height / 6)}) {
  const int side = std::max(8, area_.h / 8);
  for (int i = 0; i < 10; ++i)
    start_.push_back({area_.x + (i * 97) % std::max(1, area_.w - side), area_.y + (i * 53) % std::max(1, area_.h - side),
                      (i % 2 ? 1 : -1) * (3 + i), (i % 3 ? 1 : -1) * (2 + i), side, hue(i * 150) ^ 0x404040});
  squares_ = start_;
}

std::vector<Fill> ScenePicture::still_fills() const {
  std::vector<Fill> f{{{{0, 0, width_, height_}}, kBackground}, {{}, kGrid}};
  for (int y = 0; y < height_; y += 64) f[1].boxes.push_back({0, y, width_, 1});
  for (int x = 0; x < width_; x += 64) f[1].boxes.push_back({x, 0, 1, height_});
  return f;
}

void ScenePicture::step_to(uint32_t counter) {
  if (counter < stepped_) {
    squares_ = start_;
    stepped_ = 0;
  }
  for (; stepped_ < counter; ++stepped_)
    for (Square& s : squares_) {
      s.x += s.dx;
      s.y += s.dy;
      if (s.x < area_.x || s.x + s.side > area_.x + area_.w) s.dx = -s.dx, s.x += 2 * s.dx;
      if (s.y < area_.y || s.y + s.side > area_.y + area_.h) s.dy = -s.dy, s.y += 2 * s.dy;
      s.x = std::clamp(s.x, area_.x, area_.x + area_.w - s.side);
      s.y = std::clamp(s.y, area_.y, area_.y + area_.h - s.side);
    }
}

std::vector<Fill> ScenePicture::frame_fills(uint32_t counter) {
  constexpr int kStripe = 4;
  // One fill per colour: stripes of the same phase share a hue.
  constexpr int kHues = 64;
  const int frame = int(counter);
  std::vector<Fill> fills(kHues);
  for (int h = 0; h < kHues; ++h) fills[size_t(h)].rgb = hue(h * 1536 / kHues + frame * 3) & 0x9f9f9f;
  for (int x = 0, i = 0; x < area_.w; x += kStripe, ++i)
    fills[size_t((i + frame) % kHues)].boxes.push_back({area_.x + x, area_.y, std::min(kStripe, area_.w - x), area_.h});
  step_to(counter);
  for (const Square& s : squares_) fills.push_back({{{s.x, s.y, s.side, s.side}}, s.rgb});
  return fills;
}

void ScenePicture::render(uint32_t counter, uint32_t* out) {
  for (const Fill& f : still_fills()) fill_pixels(out, width_, height_, f);
  for (const Fill& f : frame_fills(counter)) fill_pixels(out, width_, height_, f);
}

void fill_pixels(uint32_t* out, int width, int height, const Fill& fill) {
  for (const Box& b : fill.boxes) {
    const int x0 = std::max(0, b.x), x1 = std::min(width, b.x + b.w);
    const int y0 = std::max(0, b.y), y1 = std::min(height, b.y + b.h);
    if (x0 >= x1) continue;
    for (int y = y0; y < y1; ++y) std::fill(out + size_t(y) * size_t(width) + size_t(x0), out + size_t(y) * size_t(width) + size_t(x1), fill.rgb);
  }
}

}  // namespace voxl::bench
