// The RandR resizer against a private Xvfb: it makes, uses and deletes
// modes (as the server lists them), keeps the DPI, restores the size on
// restore() and at destruction, refuses sizes the screen does not allow,
// cleans up modes an earlier run left, says up front when the server
// cannot follow, and survives the server going away and coming back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "display_number_hold.h"
#include "platform/x11/randr_resizer.h"
#include "platform/x11/virtual_display.h"
#include "randr_query.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using platform::x11::RandrResizer;
using platform::x11::VirtualDisplay;
using platform::x11::VirtualDisplayOptions;

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

class Resizer : public ::testing::Test {
 protected:
  void SetUp() override {
    VirtualDisplayOptions vo;
    vo.size = {1024, 768};
    vo.shmem_framebuffer = false;
    // FollowsTheServerGoingAwayAndComingBack restarts it on its number.
    vo.number = unsearched_display_number();
    xvfb_ = std::make_unique<VirtualDisplay>(vo);
  }

  std::unique_ptr<RandrResizer> open() {
    std::string why;
    auto r = RandrResizer::open(xvfb_->name(), log_.log, why);
    EXPECT_TRUE(r) << why;
    return r;
  }

  CapturedLog log_ = make_captured_log();
  std::unique_ptr<VirtualDisplay> xvfb_;
};

TEST_F(Resizer, MakesUsesAndDeletesModes) {
  auto r = open();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->current_size(), (Size{1024, 768}));
  EXPECT_EQ(r->max_size(), (Size{1024, 768}));  // Xvfb cannot grow past its start size
  const RandrSnapshot start = read_randr(xvfb_->name());
  EXPECT_TRUE(voxl_modes(start).empty()) << "the probe mode was deleted";

  std::string error;
  ASSERT_TRUE(r->resize({800, 600}, error)) << error;
  RandrSnapshot s = read_randr(xvfb_->name());
  EXPECT_EQ(s.screen, (Size{800, 600}));
  EXPECT_EQ(s.current, "voxl-800x600");
  EXPECT_TRUE(has(s.offered, "voxl-800x600"));
  EXPECT_EQ(r->current_size(), (Size{800, 600}));

  // Shrinking further: the new mode is used, the old one is gone.
  ASSERT_TRUE(r->resize({640, 480}, error)) << error;
  s = read_randr(xvfb_->name());
  EXPECT_EQ(s.screen, (Size{640, 480}));
  EXPECT_EQ(s.current, "voxl-640x480");
  EXPECT_EQ(voxl_modes(s), std::vector<std::string>{"voxl-640x480"});

  // Growing in one direction while shrinking in the other.
  ASSERT_TRUE(r->resize({1000, 400}, error)) << error;
  s = read_randr(xvfb_->name());
  EXPECT_EQ(s.screen, (Size{1000, 400}));
  EXPECT_EQ(s.current, "voxl-1000x400");
  EXPECT_EQ(voxl_modes(s), std::vector<std::string>{"voxl-1000x400"});

  // Growing back to a size the server has a mode for: its own mode, and no
  // voxl mode is left.
  ASSERT_TRUE(r->resize({1024, 768}, error)) << error;
  s = read_randr(xvfb_->name());
  EXPECT_EQ(s.screen, (Size{1024, 768}));
  EXPECT_EQ(s.current, start.current);
  EXPECT_TRUE(voxl_modes(s).empty());
  EXPECT_EQ(s.modes, start.modes);
}

TEST_F(Resizer, KeepsTheDpi) {
  const RandrSnapshot start = read_randr(xvfb_->name());
  ASSERT_GT(start.screen_mm.width, 0);
  auto r = open();
  ASSERT_TRUE(r);
  std::string error;
  ASSERT_TRUE(r->resize({512, 384}, error)) << error;
  const RandrSnapshot s = read_randr(xvfb_->name());
  EXPECT_NEAR(s.screen_mm.width, start.screen_mm.width / 2.0, 1.0);
  EXPECT_NEAR(s.screen_mm.height, start.screen_mm.height / 2.0, 1.0);
}

TEST_F(Resizer, RestoreAndDestructionPutTheSizeBack) {
  const RandrSnapshot start = read_randr(xvfb_->name());
  {
    auto r = open();
    ASSERT_TRUE(r);
    std::string error;
    ASSERT_TRUE(r->resize({640, 480}, error)) << error;
    ASSERT_TRUE(r->resize({720, 400}, error)) << error;
    r->restore();
    RandrSnapshot s = read_randr(xvfb_->name());
    EXPECT_EQ(s.screen, start.screen);
    EXPECT_EQ(s.screen_mm, start.screen_mm);
    EXPECT_EQ(s.current, start.current);
    EXPECT_TRUE(voxl_modes(s).empty());

    // It can still resize after a restore; the destructor restores again.
    ASSERT_TRUE(r->resize({800, 600}, error)) << error;
    EXPECT_EQ(read_randr(xvfb_->name()).screen, (Size{800, 600}));
  }
  const RandrSnapshot s = read_randr(xvfb_->name());
  EXPECT_EQ(s.screen, start.screen);
  EXPECT_EQ(s.screen_mm, start.screen_mm);
  EXPECT_EQ(s.current, start.current);
  EXPECT_TRUE(voxl_modes(s).empty());
  EXPECT_EQ(s.modes, start.modes);
}

TEST_F(Resizer, KeptSizeBecomesTheOriginal) {
  {
    auto r = open();
    ASSERT_TRUE(r);
    std::string error;
    ASSERT_TRUE(r->resize({800, 600}, error)) << error;
    r->keep_current_as_original();
  }
  // The mode stays while it is in use; a later resizer restores to it.
  EXPECT_EQ(read_randr(xvfb_->name()).current, "voxl-800x600");
  {
    auto r = open();
    ASSERT_TRUE(r);
    std::string error;
    ASSERT_TRUE(r->resize({640, 480}, error)) << error;
    EXPECT_EQ(voxl_modes(read_randr(xvfb_->name())), std::vector<std::string>{"voxl-640x480"});
  }
  const RandrSnapshot s = read_randr(xvfb_->name());
  EXPECT_EQ(s.screen, (Size{800, 600}));
  EXPECT_EQ(s.current, "voxl-800x600");
  EXPECT_EQ(voxl_modes(s), std::vector<std::string>{"voxl-800x600"});
}

TEST_F(Resizer, RefusesSizesOutOfRange) {
  auto r = open();
  ASSERT_TRUE(r);
  std::string error;
  EXPECT_FALSE(r->resize({1280, 720}, error));
  EXPECT_NE(error.find("larger than the X screen allows"), std::string::npos) << error;
  EXPECT_NE(error.find("1024x768"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(r->resize({0, 0}, error));
  EXPECT_NE(error.find("smaller"), std::string::npos) << error;
  const RandrSnapshot s = read_randr(xvfb_->name());
  EXPECT_EQ(s.screen, (Size{1024, 768}));
  EXPECT_TRUE(voxl_modes(s).empty());
}

TEST_F(Resizer, DeletesModesAnEarlierRunLeft) {
  add_stray_mode(xvfb_->name(), "voxl-700x500", {700, 500});
  add_stray_mode(xvfb_->name(), "voxl-probe", {1024, 768});
  add_stray_mode(xvfb_->name(), "someone-else", {700, 500});
  ASSERT_EQ(voxl_modes(read_randr(xvfb_->name())).size(), 2u);
  auto r = open();
  ASSERT_TRUE(r);
  const RandrSnapshot s = read_randr(xvfb_->name());
  EXPECT_TRUE(voxl_modes(s).empty());
  EXPECT_TRUE(has(s.modes, "someone-else")) << "only voxl's own modes are deleted";
  // A size the output already offers (someone else's mode) is used as is.
  std::string error;
  ASSERT_TRUE(r->resize({700, 500}, error)) << error;
  EXPECT_EQ(read_randr(xvfb_->name()).current, "someone-else");
}

TEST(ResizerWithoutRandr, SaysUpFrontItCannotResize) {
  CapturedLog log = make_captured_log();
  VirtualDisplayOptions vo;
  vo.size = {640, 480};
  vo.shmem_framebuffer = false;
  vo.extra_args = {"-extension", "RANDR"};
  VirtualDisplay xvfb(vo);
  std::string why;
  EXPECT_FALSE(RandrResizer::open(xvfb.name(), log.log, why));
  EXPECT_EQ(why.rfind("cannot resize the desktop: ", 0), 0u) << why;
  EXPECT_NE(why.find("no RANDR extension"), std::string::npos) << why;
}

TEST(ResizerWithoutServer, SaysWhy) {
  CapturedLog log = make_captured_log();
  std::string why;
  EXPECT_FALSE(RandrResizer::open(":65000", log.log, why));
  EXPECT_NE(why.find(":65000"), std::string::npos) << why;
}

TEST_F(Resizer, FollowsTheServerGoingAwayAndComingBack) {
  auto r = open();
  ASSERT_TRUE(r);
  std::string error;
  ASSERT_TRUE(r->resize({800, 600}, error)) << error;
  const int number = xvfb_->number();
  xvfb_.reset();
  // Kept from the Xvfb of a test running beside this one until ours is back.
  DisplayNumberHold hold;
  hold.hold(number);
  error.clear();
  EXPECT_FALSE(r->resize({640, 480}, error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(r->current_size(), (Size{800, 600})) << "the last size known";

  // A desktop restarting on the same display is followed.
  VirtualDisplayOptions vo;
  vo.size = {1024, 768};
  vo.shmem_framebuffer = false;
  vo.number = number;
  hold.release();
  xvfb_ = std::make_unique<VirtualDisplay>(vo);
  ASSERT_TRUE(r->resize({640, 480}, error)) << error;
  EXPECT_EQ(read_randr(xvfb_->name()).screen, (Size{640, 480}));
  // restore() goes back to the size before the first resize, by size.
  r->restore();
  const RandrSnapshot s = read_randr(xvfb_->name());
  EXPECT_EQ(s.screen, (Size{1024, 768}));
  EXPECT_TRUE(voxl_modes(s).empty());
}

}  // namespace
}  // namespace voxl::testing
