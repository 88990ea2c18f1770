// Rounded windows through the platform seam (make_window_rounder) on a
// private Xvfb: the corners of a top-level window show the root behind
// them, the rest of it is the window; a title rule gives its own radius;
// a resize and a new title cut the shape again; a window shaped by its
// program is left alone; the rounder's end squares every window again.
// Each change is waited for as a ShapeNotify event, with a deadline.
#include <gtest/gtest.h>

#include <poll.h>
#include <unistd.h>
#include <xcb/shape.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "platform/child_process.h"
#include "platform/desktop_environment.h"
#include "platform/x11/rounded_shape.h"
#include "shape_watcher.h"
#include "x11_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
using namespace std::chrono_literals;

template <class T>
struct FreeReply {
  void operator()(T* p) const { std::free(p); }
};
template <class T>
using XcbReply = std::unique_ptr<T, FreeReply<T>>;

constexpr uint32_t kRootColour = 0x204060;
constexpr uint32_t kWindowColour = 0x00ff00;

// The rounder on a loop thread of its own, made and destroyed there.
class RunningRounder {
 public:
  RunningRounder(platform::DesktopEnvironment& env, platform::WindowRoundingOptions options) {
    std::promise<std::string> made;
    thread_ = std::thread([&] {
      std::string why;
      rounder_ = env.make_window_rounder(io_, options, why);
      made.set_value(rounder_ ? "" : why);
      io_.run();
    });
    const std::string why = made.get_future().get();
    if (!why.empty()) ADD_FAILURE() << why;
  }
  ~RunningRounder() { stop(); }
  // Destroys the rounder on its thread (squaring the windows), then stops.
  void stop() {
    if (!thread_.joinable()) return;
    asio::post(io_, [this] {
      rounder_.reset();
      work_.reset();
    });
    thread_.join();
  }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_ = asio::make_work_guard(io_);
  std::unique_ptr<platform::WindowRounder> rounder_;
  std::thread thread_;
};

platform::DesktopOptions private_xvfb() {
  platform::DesktopOptions o;
  o.virtual_display = Size{640, 480};
  return o;
}

// The inset of the top row of a window of `size` rounded to `radius`.
int top_inset(Size size, int radius) { return platform::x11::rounded_rectangles(size, radius).front().x; }

TEST(WindowRounding, CornersShowTheRootBehindAndTheRestIsTheWindow) {
  CapturedLog log = make_captured_log();
  auto env = platform::make_desktop_environment(private_xvfb(), log.log);
  ShapeWatcher shapes(env->display_name());
  shapes.root_background(kRootColour);
  Painter painter(env->display_name());
  // One window before the rounder starts, one after.
  const xcb_window_t before = painter.create_window({40, 40, 200, 150}, kWindowColour);
  shapes.watch(before);
  RunningRounder rounder(*env, {12, {}});
  ASSERT_TRUE(shapes.becomes_shaped(before));
  const xcb_window_t after = painter.create_window({300, 200, 160, 120}, 0xff0000);
  shapes.watch(after);
  ASSERT_TRUE(shapes.becomes_shaped(after));

  for (const auto& [x, y] : {std::pair{40, 40}, {239, 40}, {40, 189}, {239, 189}}) {
    EXPECT_EQ(shapes.pixel(x, y), kRootColour) << "corner " << x << "," << y;
  }
  for (const auto& [x, y] : {std::pair{140, 40}, {40, 115}, {140, 115}, {52, 52}}) {
    EXPECT_EQ(shapes.pixel(x, y), kWindowColour) << "inside " << x << "," << y;
  }
  EXPECT_EQ(shapes.pixel(300, 200), kRootColour);
  EXPECT_EQ(shapes.pixel(380, 260), 0xff0000u);
  EXPECT_EQ(shapes.bounding(before).front().x, top_inset({200, 150}, 12));
}

TEST(WindowRounding, TitlesPickTheirRadiusAndRenamingCutsAgain) {
  CapturedLog log = make_captured_log();
  auto env = platform::make_desktop_environment(private_xvfb(), log.log);
  ShapeWatcher shapes(env->display_name());
  Painter painter(env->display_name());
  const xcb_window_t dock = painter.create_window({0, 0, 640, 40}, kWindowColour);
  const xcb_window_t other = painter.create_window({100, 100, 200, 200}, kWindowColour);
  const xcb_window_t square = painter.create_window({320, 100, 200, 200}, kWindowColour);
  shapes.set_title(dock, "Panel");
  shapes.set_title(other, "Some editor");
  shapes.set_title(square, "Terminal");
  for (const auto w : {dock, other, square}) shapes.watch(w);
  RunningRounder rounder(*env, {6, {{"Panel", 16}, {"Terminal", 0}}});
  ASSERT_TRUE(shapes.becomes_shaped(dock));
  ASSERT_TRUE(shapes.becomes_shaped(other));
  EXPECT_EQ(shapes.bounding(dock).front().x, top_inset({640, 40}, 16)) << "the rule's radius";
  EXPECT_EQ(shapes.bounding(other).front().x, top_inset({200, 200}, 6)) << "no rule: --round-corners";
  EXPECT_FALSE(shapes.shaped(square)) << "a rule of 0 keeps it square";

  // Renamed to match a rule: cut again to its radius; renamed away from
  // the rule of 0: rounded to the default.
  shapes.set_title(other, "Panel");
  ASSERT_TRUE(shapes.wait_for(other, [&](const auto&) {
    const auto rects = shapes.bounding(other);
    return !rects.empty() && rects.front().x == top_inset({200, 200}, 16);
  }));
  shapes.set_title(square, "Terminal 2");
  ASSERT_TRUE(shapes.wait_for(square, [](const auto& e) { return e.shaped; }));
  EXPECT_EQ(shapes.bounding(square).front().x, top_inset({200, 200}, 6));
}

TEST(WindowRounding, AResizeCutsAgainAndTheEndSquaresEveryWindow) {
  CapturedLog log = make_captured_log();
  auto env = platform::make_desktop_environment(private_xvfb(), log.log);
  ShapeWatcher shapes(env->display_name());
  Painter painter(env->display_name());
  const xcb_window_t w = painter.create_window({50, 50, 100, 80}, kWindowColour);
  shapes.watch(w);
  auto rounder = std::make_unique<RunningRounder>(*env, platform::WindowRoundingOptions{10, {}});
  ASSERT_TRUE(shapes.becomes_shaped(w));

  painter.resize_window(w, {300, 220});
  ASSERT_TRUE(shapes.wait_for(w, [](const auto& e) { return e.extents_width == 300 && e.extents_height == 220; }));
  const auto rects = shapes.bounding(w);
  ASSERT_FALSE(rects.empty());
  EXPECT_EQ(rects.back().y + rects.back().height, 220) << "the new size's bottom corners";

  rounder->stop();
  EXPECT_FALSE(shapes.shaped(w)) << "the rounder's end leaves the window square";
}

TEST(WindowRounding, AWindowWithItsOwnShapeIsLeftAlone) {
  CapturedLog log = make_captured_log();
  auto env = platform::make_desktop_environment(private_xvfb(), log.log);
  ShapeWatcher shapes(env->display_name());
  Painter painter(env->display_name());
  const xcb_window_t own = painter.create_window({50, 50, 100, 100}, kWindowColour);
  const xcb_rectangle_t diamond[] = {{40, 0, 20, 40}, {0, 40, 100, 20}, {40, 60, 20, 40}};
  xcb_shape_rectangles(painter.conn(), XCB_SHAPE_SO_SET, XCB_SHAPE_SK_BOUNDING, XCB_CLIP_ORDERING_UNSORTED, own, 0, 0,
                       3, diamond);
  painter.sync();
  const auto before = shapes.bounding(own);
  const xcb_window_t plain = painter.create_window({300, 50, 100, 100}, kWindowColour);
  shapes.watch(plain);
  {
    RunningRounder rounder(*env, {12, {}});
    ASSERT_TRUE(shapes.becomes_shaped(plain));
    EXPECT_EQ(shapes.bounding(own), before);
  }
  EXPECT_EQ(shapes.bounding(own), before) << "and its end does not square it either";
  EXPECT_FALSE(shapes.shaped(plain));
}

// Under a window manager (twm) the rounded window is the manager's frame,
// and the title that picks its radius is the client's inside it.
TEST(WindowRounding, UnderAWindowManagerTheFrameIsRoundedByItsClientsTitle) {
  CapturedLog log = make_captured_log();
  auto env = platform::make_desktop_environment(private_xvfb(), log.log);
  // twm's default fonts are not on a bare Xvfb: "fixed" is.
  const std::string rc = ::testing::TempDir() + "voxl-twmrc-" + std::to_string(::getpid());
  std::ofstream(rc) << "TitleFont \"fixed\"\nResizeFont \"fixed\"\nMenuFont \"fixed\"\nIconFont \"fixed\"\n"
                       "IconManagerFont \"fixed\"\nRandomPlacement\n";
  platform::ChildOptions wm;
  wm.argv = {"twm", "-f", rc};
  wm.env = {"DISPLAY=" + env->display_name(), "LC_ALL=C"};
  platform::ChildProcess twm(wm);
  struct RemoveFile {
    std::string path;
    ~RemoveFile() { std::remove(path.c_str()); }
  } remove_rc{rc};
  std::unique_ptr<xcb_connection_t, void (*)(xcb_connection_t*)> conn(
      xcb_connect(env->display_name().c_str(), nullptr), &xcb_disconnect);
  xcb_connection_t* c = conn.get();
  ASSERT_FALSE(xcb_connection_has_error(c));
  const xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;

  RunningRounder rounder(*env, {6, {{"Editor", 14}}});
  // A managed window with a user-given position, so twm places it without
  // asking (or adopts it as it is, if it maps before twm is up). Its own
  // StructureNotify tells when twm puts it into a frame.
  const xcb_window_t w = xcb_generate_id(c);
  const uint32_t values[] = {kWindowColour, XCB_EVENT_MASK_STRUCTURE_NOTIFY};
  xcb_create_window(c, XCB_COPY_FROM_PARENT, w, root, 100, 100, 240, 160, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                    XCB_COPY_FROM_PARENT, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
  uint32_t hints[18] = {};
  hints[0] = 1 | 2;  // USPosition | USSize
  hints[1] = 100, hints[2] = 100, hints[3] = 240, hints[4] = 160;
  xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, XCB_ATOM_WM_NORMAL_HINTS, XCB_ATOM_WM_SIZE_HINTS, 32, 18, hints);
  xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, 6, "Editor");
  xcb_map_window(c, w);
  xcb_flush(c);

  xcb_window_t frame = XCB_NONE;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (frame == XCB_NONE) {
    while (xcb_generic_event_t* e = xcb_poll_for_event(c)) {
      if ((e->response_type & 0x7f) == XCB_REPARENT_NOTIFY) {
        const auto* r = reinterpret_cast<xcb_reparent_notify_event_t*>(e);
        if (r->window == w && r->parent != root) frame = r->parent;
      }
      std::free(e);
    }
    if (frame != XCB_NONE) break;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    ASSERT_GT(left.count(), 0) << "twm did not put the window into a frame";
    ASSERT_FALSE(twm.exited()) << "twm exited";
    pollfd p{xcb_get_file_descriptor(c), POLLIN, 0};
    ::poll(&p, 1, int(std::min<int64_t>(left.count(), 1000)));
  }
  // twm may nest the client a level deeper: the frame is the root's child.
  for (;;) {
    XcbReply<xcb_query_tree_reply_t> t(xcb_query_tree_reply(c, xcb_query_tree(c, frame), nullptr));
    const xcb_window_t parent = t ? t->parent : root;
    if (parent == root) break;
    frame = parent;
  }
  ShapeWatcher shapes(env->display_name());
  shapes.watch(frame);
  const auto logged = [&] {
    std::string all;
    for (const auto& m : log.messages()) all += m + "\n";
    return all;
  };
  ASSERT_TRUE(shapes.becomes_shaped(frame)) << logged();
  // The frame's shape follows its size (twm may still be sizing it): the
  // client's title rule, with shape coordinates starting inside the border.
  std::string seen;
  const auto cut_for_its_size = [&] {
    XcbReply<xcb_get_geometry_reply_t> g(xcb_get_geometry_reply(c, xcb_get_geometry(c, frame), nullptr));
    const auto rects = shapes.bounding(frame);
    if (!g || rects.empty()) return false;
    const int border = g->border_width;
    const Size outer{g->width + 2 * border, g->height + 2 * border};
    seen = std::to_string(rects.front().x) + " for " + std::to_string(outer.width) + "x" + std::to_string(outer.height);
    return rects.front().x == top_inset(outer, 14) - border;
  };
  EXPECT_TRUE(cut_for_its_size() || shapes.wait_for(frame, [&](const auto&) { return cut_for_its_size(); }))
      << seen << " on frame " << frame << "\n" << logged();
  EXPECT_FALSE(shapes.shaped(w)) << "the client itself is left as it is";
}

}  // namespace
}  // namespace voxl::testing
