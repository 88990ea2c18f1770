// --round-corners and --round-windows through the real binary: a window on
// voxl's display gets rounded corners while voxl runs, the title rule's
// radius wins, and a clean exit leaves every window square. (What the
// shapes look like is tests/x11's WindowRounding.)
#include <gtest/gtest.h>

#include "platform/x11/rounded_shape.h"
#include "shape_watcher.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

class WindowRoundingFlagTest : public VoxlFixture {};

int top_inset(Size size, int radius) { return platform::x11::rounded_rectangles(size, radius).front().x; }

TEST_F(WindowRoundingFlagTest, WindowsAreRoundWhileVoxlRunsAndSquareAfter) {
  start_display(0x204060);
  ShapeWatcher shapes(display_->name());
  const xcb_window_t plain = painter_->create_window({20, 20, 200, 120}, 0x00ff00);
  const xcb_window_t panel = painter_->create_window({0, 400, 640, 40}, 0xff0000);
  shapes.set_title(panel, "Panel");
  shapes.watch(plain);
  shapes.watch(panel);
  start_voxl({"--round-corners=10", "--round-windows=Panel:18"});
  ASSERT_TRUE(shapes.becomes_shaped(plain));
  ASSERT_TRUE(shapes.becomes_shaped(panel));
  ASSERT_FALSE(shapes.bounding(plain).empty());
  ASSERT_FALSE(shapes.bounding(panel).empty());
  EXPECT_EQ(shapes.bounding(plain).front().x, top_inset({200, 120}, 10));
  EXPECT_EQ(shapes.bounding(panel).front().x, top_inset({640, 40}, 18));

  EXPECT_EQ(voxl_->stop(), 0) << "voxl did not exit cleanly after SIGTERM";
  EXPECT_FALSE(shapes.shaped(plain));
  EXPECT_FALSE(shapes.shaped(panel));
}

}  // namespace
}  // namespace voxl::testing
