// What a workload's screen shows for a marker counter, for the workloads
// whose drawing is a pure function of the counter (animation, fullscreen,
// texture; not the Chromium scroll page, not idle): the one function the
// benchmark client measures decoded pictures against. The marker itself is
// not drawn (a measurement leaves its cells out).
//
// Not thread-safe: one thread at a time. Owns its model (the texture's is
// tens of MB at 1080p).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace voxl::bench {

class ExpectedPicture {
 public:
  virtual ~ExpectedPicture() = default;
  // Frame `counter` as width x height 0x00RRGGBB pixels.
  virtual void render(uint32_t counter, uint32_t* out) = 0;
};

// nullptr for a workload whose picture cannot be predicted.
std::unique_ptr<ExpectedPicture> make_expected_picture(const std::string& workload, int width, int height);

}  // namespace voxl::bench
