#include "encode/stripe_layout.h"

#include <algorithm>

namespace voxl::encode {

std::vector<Rect> stripe_bands(Size size, int stripes) {
  std::vector<Rect> out;
  if (size.width <= 0 || size.height <= 0) return out;
  const int rows = size.height / kMacroblock;  // whole macroblock rows
  const int n = std::clamp(std::min(stripes, rows / kMinBandRows), 1, kMaxStripes);
  if (n == 1) {
    out.push_back(Rect::from_size(size));
    return out;
  }
  // n - 1 bands of whole rows spread as evenly as they go; the last band
  // gets its share of rows and the rows' remainder in pixels.
  int y = 0;
  for (int i = 0; i < n - 1; ++i) {
    const int band_rows = rows / n + (i < rows % n ? 1 : 0);
    out.push_back({0, y, size.width, band_rows * kMacroblock});
    y += band_rows * kMacroblock;
  }
  out.push_back({0, y, size.width, size.height - y});
  return out;
}

std::vector<int> damaged_bands(const std::vector<Rect>& bands, const std::vector<Rect>& damage) {
  std::vector<int> out;
  for (int i = 0; i < int(bands.size()); ++i) {
    const Rect& b = bands[size_t(i)];
    const bool hit =
        std::any_of(damage.begin(), damage.end(), [&](const Rect& d) { return !b.intersect(d).empty(); });
    if (hit) out.push_back(i);
  }
  return out;
}

std::vector<int> stripe_kbps(int total_kbps, const std::vector<double>& demand, const std::vector<bool>& coded) {
  const size_t n = std::min(demand.size(), coded.size());
  std::vector<int> out(coded.size(), 0);
  double sum = 0;
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!coded[i]) continue;
    sum += std::max(0.0, demand[i]);
    ++count;
  }
  if (count == 0) return out;
  // The floor: a quarter of the coded stripes' mean demand, and something
  // when none has any yet (then they split evenly).
  const double floor = std::max(1.0, 0.25 * sum / double(count));
  double weights = 0;
  for (size_t i = 0; i < n; ++i)
    if (coded[i]) weights += std::max(0.0, demand[i]) + floor;
  for (size_t i = 0; i < n; ++i) {
    if (!coded[i]) continue;
    const double share = (std::max(0.0, demand[i]) + floor) / weights;
    out[i] = std::max(kMinStripeKbps, int(double(std::max(0, total_kbps)) * share));
  }
  return out;
}

}  // namespace voxl::encode
