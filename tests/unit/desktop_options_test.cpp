// The flags become the platform seam's options: which display, a private
// virtual display, the capture target and the sound devices.
#include <gtest/gtest.h>

#include "app/desktop_options.h"

namespace voxl::app {
namespace VOXL_TEST_FILE {

using Kind = platform::CaptureTarget::Kind;

TEST(DesktopOptions, ScreenByDefault) {
  const auto o = desktop_options(Config{});
  EXPECT_EQ(o.target.kind, Kind::kScreen);
  EXPECT_TRUE(o.display.empty());
  EXPECT_FALSE(o.virtual_display);
  EXPECT_EQ(o.audio_device, platform::kDefaultAudioDevice);
  EXPECT_FALSE(o.resize);
}

TEST(DesktopOptions, ResizeFollowsTheFlag) {
  Config c;
  c.resize = true;
  EXPECT_TRUE(desktop_options(c).resize);
}

TEST(DesktopOptions, RegionWinsOverWindow) {
  Config c;
  c.capture_region = Rect{10, 20, 300, 200};
  c.capture_window = 0x400001;
  const auto o = desktop_options(c);
  EXPECT_EQ(o.target.kind, Kind::kRegion);
  EXPECT_EQ(o.target.region, (Rect{10, 20, 300, 200}));
}

TEST(DesktopOptions, WindowDisplayAndProgram) {
  Config c;
  c.capture_window = 0x400001;
  c.display = ":7";
  c.xvfb = Size{1280, 720};
  c.exec = "xterm";
  const auto o = desktop_options(c);
  EXPECT_EQ(o.target.kind, Kind::kWindow);
  EXPECT_EQ(o.target.window, 0x400001u);
  EXPECT_EQ(o.display, ":7");
  ASSERT_TRUE(o.virtual_display);
  EXPECT_EQ(o.virtual_display->width, 1280);
  EXPECT_EQ(o.exec, "xterm");
}

TEST(DesktopOptions, WaylandFlags) {
  Config c;
  EXPECT_EQ(desktop_options(c).backend, platform::DesktopBackend::kAuto);
  c.backend = BackendName::kWayland;
  c.wayland = Size{800, 600};
  c.wayland_user = "desk";
  const auto o = desktop_options(c);
  EXPECT_EQ(o.backend, platform::DesktopBackend::kWayland);
  ASSERT_TRUE(o.wayland_compositor);
  EXPECT_EQ(*o.wayland_compositor, (Size{800, 600}));
  EXPECT_EQ(o.compositor_user, "desk");
  c.backend = BackendName::kX11;
  EXPECT_EQ(desktop_options(c).backend, platform::DesktopBackend::kX11);
}

TEST(DesktopOptions, MicrophoneDeviceByPlatform) {
  Config c;
  c.microphone_fifo = "/run/user/1000/mic.fifo";
  c.microphone_device = "CABLE Input";
  const auto o = desktop_options(c);
  // PulseAudio's pipe source reads the FIFO; Windows plays into a device.
  if constexpr (platform::kMicrophoneIsFifo) EXPECT_EQ(o.microphone_device, "/run/user/1000/mic.fifo");
  else EXPECT_EQ(o.microphone_device, "CABLE Input");
}

}  // namespace
}  // namespace voxl::app
