// A compositor's 32-bit picture copied into frames: the whole of it or the
// part --capture-region names, top-down or bottom-up, with red and blue in
// either order, only the blocks asked for.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "base/block_map.h"
#include "capture/picture_copy.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using capture::PictureView;

// A picture whose pixel (x, y), counted top-down, is B=x G=y R=0x40 X=0,
// stored bottom-up when asked, with 8 bytes of padding a row.
struct Picture {
  Picture(Size s, bool bottom_up) : size(s), stride(s.width * 4 + 8), bytes(size_t(stride) * size_t(s.height), 0xee) {
    for (int y = 0; y < s.height; ++y) {
      const int row = bottom_up ? s.height - 1 - y : y;
      for (int x = 0; x < s.width; ++x) {
        uint8_t* p = bytes.data() + row * stride + x * 4;
        p[0] = uint8_t(x), p[1] = uint8_t(y), p[2] = 0x40, p[3] = 0;
      }
    }
    view = PictureView{bytes.data(), stride, s, false, bottom_up};
  }
  Size size;
  int stride;
  std::vector<uint8_t> bytes;
  PictureView view;
};

std::vector<uint8_t> copied(const PictureView& from, Size frame_size, const BlockMap& blocks) {
  std::vector<uint8_t> out(size_t(frame_size.width) * size_t(frame_size.height) * 4, 0);
  capture::Frame frame(out.data(), frame_size, frame_size.width * 4);
  capture::copy_into_frame(from, blocks, frame);
  return out;
}

BlockMap all_blocks(Size s) {
  BlockMap m(s);
  m.add_all();
  return m;
}

TEST(PictureCopy, ARegionOfATopDownOrBottomUpPictureIsThatRegion) {
  for (const bool bottom_up : {false, true}) {
    const Picture whole({200, 120}, bottom_up);
    const Rect region{30, 50, 64, 40};
    const PictureView part = capture::crop(whole.view, region);
    EXPECT_EQ(part.size, region.size());
    const auto out = copied(part, region.size(), all_blocks(region.size()));
    for (int y = 0; y < region.height; ++y)
      for (int x = 0; x < region.width; ++x) {
        const uint8_t* p = out.data() + (y * region.width + x) * 4;
        ASSERT_EQ(p[0], region.x + x) << "bottom_up " << bottom_up << " at " << x << "," << y;
        ASSERT_EQ(p[1], region.y + y) << "bottom_up " << bottom_up << " at " << x << "," << y;
        ASSERT_EQ(p[2], 0x40);
      }
  }
}

TEST(PictureCopy, RedFirstIsSwappedAndOnlyTheBlocksAskedForAreWritten) {
  Picture whole({128, 64}, false);
  whole.view.red_first = true;
  BlockMap blocks(whole.size);
  blocks.add(Rect{0, 0, 16, 16});
  const auto out = copied(whole.view, whole.size, blocks);
  const uint8_t* in_block = out.data() + (5 * 128 + 7) * 4;
  EXPECT_EQ(in_block[0], 0x40);  // red from byte 0 to byte 2
  EXPECT_EQ(in_block[1], 5);
  EXPECT_EQ(in_block[2], 7);
  const uint8_t* outside = out.data() + (40 * 128 + 100) * 4;
  EXPECT_EQ(outside[0] | outside[1] | outside[2] | outside[3], 0);
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
