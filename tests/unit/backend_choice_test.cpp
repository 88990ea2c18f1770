// X11 or Wayland on Linux, and the reason the start line gives.
#include <gtest/gtest.h>

#include <stdexcept>

#include "platform/linux/backend_choice.h"

namespace voxl::platform::linux_desktop {
namespace VOXL_TEST_FILE {

const auto answers = [](const std::string&) { return true; };
const auto silent = [](const std::string&) { return false; };

TEST(BackendChoice, OwnCompositorAndOwnXvfbComeFirst) {
  DesktopOptions o;
  o.wayland_compositor = Size{800, 600};
  auto c = choose_backend(o, ":0", "wayland-0", answers);
  EXPECT_TRUE(c.wayland);
  EXPECT_TRUE(c.wayland_display.empty());
  EXPECT_NE(c.why.find("--wayland"), std::string::npos);
  o = {};
  o.virtual_display = Size{800, 600};
  c = choose_backend(o, "", "wayland-0", answers);
  EXPECT_FALSE(c.wayland);
}

TEST(BackendChoice, TheEnvironmentDecidesWhenNothingIsAsked) {
  const DesktopOptions o;
  auto c = choose_backend(o, "", "wayland-1", answers);
  EXPECT_TRUE(c.wayland);
  EXPECT_EQ(c.wayland_display, "wayland-1");
  EXPECT_EQ(c.why, "WAYLAND_DISPLAY is set and DISPLAY is not");
  c = choose_backend(o, ":0", "", silent);
  EXPECT_FALSE(c.wayland);
  EXPECT_EQ(c.why, "DISPLAY is set");
  c = choose_backend(o, "", "", answers);
  EXPECT_FALSE(c.wayland);
  EXPECT_NE(c.why.find("private Xvfb"), std::string::npos);
}

TEST(BackendChoice, PortalIsAskedForByName) {
  DesktopOptions o;
  o.backend = DesktopBackend::kPortal;
  for (const char* display : {"", ":0"}) {
    const auto c = choose_backend(o, display, "wayland-0", answers);
    EXPECT_TRUE(c.portal);
    EXPECT_TRUE(c.wayland);
    EXPECT_EQ(c.why, "--backend portal");
  }
  o.backend = DesktopBackend::kWayland;
  EXPECT_FALSE(choose_backend(o, "", "wayland-0", answers).portal);
}

TEST(BackendChoice, BothSetIsX11UnlessItsDisplayIsDead) {
  const DesktopOptions o;
  auto c = choose_backend(o, ":0", "wayland-0", answers);
  EXPECT_FALSE(c.wayland);
  EXPECT_NE(c.why.find("--backend wayland"), std::string::npos);
  c = choose_backend(o, ":0", "wayland-0", silent);
  EXPECT_TRUE(c.wayland);
  EXPECT_EQ(c.wayland_display, "wayland-0");
  EXPECT_NE(c.why.find("does not answer"), std::string::npos);
}

TEST(BackendChoice, TheBackendFlagWins) {
  DesktopOptions o;
  o.backend = DesktopBackend::kX11;
  EXPECT_FALSE(choose_backend(o, "", "wayland-0", answers).wayland);
  o.backend = DesktopBackend::kWayland;
  auto c = choose_backend(o, ":0", "wayland-2", answers);
  EXPECT_TRUE(c.wayland);
  EXPECT_EQ(c.wayland_display, "wayland-2");
  o.display = "/run/user/1000/wayland-3";
  EXPECT_EQ(choose_backend(o, ":0", "wayland-2", answers).wayland_display, "/run/user/1000/wayland-3");
  o.display.clear();
  EXPECT_THROW(choose_backend(o, ":0", "", answers), std::runtime_error);
}

TEST(BackendChoice, DisplayNamesEitherKind) {
  DesktopOptions o;
  o.display = "wayland-1";
  EXPECT_TRUE(choose_backend(o, ":0", "", answers).wayland);
  o.display = ":3";
  EXPECT_FALSE(choose_backend(o, "", "wayland-0", answers).wayland);
  EXPECT_TRUE(names_wayland_socket("/tmp/voxl-wayland-x/wayland-1"));
  EXPECT_FALSE(names_wayland_socket("host:0"));
  EXPECT_FALSE(names_wayland_socket(":1"));
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::platform::linux_desktop
