#include "screenshot_checks.h"

#include <chrono>

#include "http_client.h"
#include "media_probe.h"

namespace voxl::testing {

std::string screen_becomes(uint16_t port, uint32_t colour, const Rect& except, std::optional<Size> size) {
  std::string why = "no screenshot";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    const HttpAnswer a = http_request(port, {"GET", "/screenshot", {}}, std::chrono::seconds(60));
    if (a.status != 200) return "status " + std::to_string(a.status) + ": " + a.body;
    const DecodedPng png = decode_png(a.body);
    if (!png.error.empty()) return png.error;
    if (size && png.size != *size)
      return "a screenshot of " + std::to_string(png.size.width) + "x" + std::to_string(png.size.height);
    why.clear();
    for (int y = 0; y < png.size.height && why.empty(); ++y)
      for (int x = 0; x < png.size.width && why.empty(); ++x)
        if (png.at(x, y) != colour && !except.contains({x, y, 1, 1}))
          why = "pixel " + std::to_string(x) + "," + std::to_string(y) + " is " + std::to_string(png.at(x, y));
    if (why.empty()) return {};
  }
  return why;
}

}  // namespace voxl::testing
