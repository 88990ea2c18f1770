// The portal rig itself: the private bus, PipeWire and WirePlumber come up
// and go; voxl-test-portal serves ScreenCast and RemoteDesktop on them as
// xdg-desktop-portal documents, hands a consumer linked by WirePlumber the
// very pixels it drew, prints the input it is sent, and refuses what a
// real portal refuses.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "portal_rig.h"
#include "portal_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

constexpr const char* kScreenCast = "org.freedesktop.portal.ScreenCast";
constexpr const char* kRemoteDesktop = "org.freedesktop.portal.RemoteDesktop";
constexpr const char* kAccessDenied = "org.freedesktop.DBus.Error.AccessDenied";
constexpr const char* kInvalidArgs = "org.freedesktop.DBus.Error.InvalidArgs";
constexpr auto kLimit = 30s;

Writer session_arg(const std::string& session) {
  return [session](sd_bus_message* m) { sd_bus_message_append(m, "o", session.c_str()); };
}

struct Started {
  std::string session;
  PortalAnswer answer;  // Start's
};

// A session of `interface` through SelectDevices (remote desktop, with
// `device_options`) and SelectSources, started. Throws when refused.
Started start_session(PortalClient& client, const char* interface, const Writer& device_options = {}) {
  Started s;
  s.session = client.create_session(interface);
  if (s.session.empty()) throw std::runtime_error("CreateSession failed");
  if (interface == std::string(kRemoteDesktop)) {
    const PortalAnswer devices = client.request(kRemoteDesktop, "SelectDevices", session_arg(s.session),
                                                [&](sd_bus_message* m) {
                                                  sd_bus_message_append(m, "{sv}", "types", "u", 3u);
                                                  if (device_options) device_options(m);
                                                });
    if (devices.response != 0) throw std::runtime_error("SelectDevices failed: " + devices.error);
  }
  const PortalAnswer sources =
      client.request(kScreenCast, "SelectSources", session_arg(s.session), [](sd_bus_message* m) {
        sd_bus_message_append(m, "{sv}{sv}{sv}", "types", "u", 1u, "cursor_mode", "u", 2u, "multiple", "b", 0);
      });
  if (sources.response != 0) throw std::runtime_error("SelectSources failed: " + sources.error);
  s.answer = client.request(interface, "Start", [&](sd_bus_message* m) {
    sd_bus_message_append(m, "os", s.session.c_str(), "");
  });
  if (!s.answer.error.empty()) throw std::runtime_error("Start failed: " + s.answer.error);
  return s;
}

platform::OwnedFile open_remote(PortalClient& client, const std::string& session) {
  Message reply;
  const std::string error = client.call(kScreenCast, "OpenPipeWireRemote", [&](sd_bus_message* m) {
    sd_bus_message_append(m, "oa{sv}", session.c_str(), 0);
  }, &reply);
  int fd = -1;
  if (!error.empty() || sd_bus_message_read(reply.get(), "h", &fd) < 0)
    throw std::runtime_error("OpenPipeWireRemote failed: " + error);
  return platform::OwnedFile(fcntl(fd, F_DUPFD_CLOEXEC, 3));  // the message keeps its own
}

struct Paint {
  int x, y, w, h;
  uint32_t rgb;
};

// The bytes of a `width`x`height` picture: 0x202020 under `paints`, BGRx
// (or RGBx), rows of width * 4 bytes.
std::vector<uint8_t> picture(int width, int height, std::vector<Paint> paints, bool red_first = false) {
  paints.insert(paints.begin(), Paint{0, 0, width, height, 0x202020});
  std::vector<uint8_t> bytes(size_t(width) * size_t(height) * 4);
  for (const Paint& p : paints)
    for (int y = p.y; y < p.y + p.h; ++y)
      for (int x = p.x; x < p.x + p.w; ++x) {
        uint8_t* px = &bytes[(size_t(y) * size_t(width) + size_t(x)) * 4];
        const uint8_t r = uint8_t(p.rgb >> 16), g = uint8_t(p.rgb >> 8), b = uint8_t(p.rgb);
        px[0] = red_first ? r : b;
        px[1] = g;
        px[2] = red_first ? b : r;
        px[3] = 0xff;
      }
  return bytes;
}

std::function<bool(const Frame&)> shows(std::vector<uint8_t> expected) {
  return [expected = std::move(expected)](const Frame& f) { return f.bytes == expected; };
}

class PortalRigTest : public ::testing::Test {
 protected:
  PortalRig rig;
};

TEST(PortalRigAlone, StartsItsDaemonsInAPrivateFolderAndRemovesIt) {
  std::string folder;
  {
    PortalRig rig;
    folder = rig.runtime_dir();
    struct stat st {};
    ASSERT_EQ(stat(folder.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    EXPECT_EQ(stat((folder + "/pipewire-0").c_str(), &st), 0);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(rig.bus_address().rfind("unix:", 0), 0u) << rig.bus_address();
    const std::vector<std::string> expected = {"XDG_RUNTIME_DIR=" + folder, "PIPEWIRE_RUNTIME_DIR=" + folder,
                                               "DBUS_SESSION_BUS_ADDRESS=" + rig.bus_address()};
    EXPECT_EQ(rig.environment(), expected);
  }
  EXPECT_FALSE(std::filesystem::exists(folder));
}

TEST_F(PortalRigTest, TheTestPortalOwnsTheNameWithTheDocumentedProperties) {
  TestPortal portal(rig);
  PortalClient client(rig.bus_address());
  auto property = [&](const char* interface, const char* name) {
    Message reply;
    const std::string error = client.call("org.freedesktop.DBus.Properties", "Get", [&](sd_bus_message* m) {
      sd_bus_message_append(m, "ss", interface, name);
    }, &reply);
    uint32_t value = 0;
    if (!error.empty() || sd_bus_message_read(reply.get(), "v", "u", &value) < 0) return ~0u;
    return value;
  };
  EXPECT_EQ(property(kScreenCast, "AvailableSourceTypes"), 1u);
  EXPECT_EQ(property(kScreenCast, "AvailableCursorModes"), 3u);
  EXPECT_EQ(property(kScreenCast, "version"), 4u);
  EXPECT_EQ(property(kRemoteDesktop, "AvailableDeviceTypes"), 3u);
  EXPECT_EQ(property(kRemoteDesktop, "version"), 2u);
}

TEST_F(PortalRigTest, AConsumerLinkedByWirePlumberGetsThePixelsDrawn) {
  TestPortal portal(rig, {"--size", "320x180"});
  PortalClient client(rig.bus_address());
  const Started s = start_session(client, kScreenCast);
  ASSERT_EQ(s.answer.response, 0u);
  const auto stream = result_stream(s.answer.results.get());
  ASSERT_TRUE(stream);
  EXPECT_EQ(stream->width, 320);
  EXPECT_EQ(stream->height, 180);
  EXPECT_EQ(stream->source_type, 1u);
  EXPECT_EQ(portal.next_line("started"), "started " + std::to_string(stream->node) + " 320x180");

  FrameConsumer consumer(open_remote(client, s.session), stream->node);
  ASSERT_TRUE(consumer.wait_streaming(kLimit)) << "WirePlumber did not link the consumer to the portal's node";
  // What it linked to shows at once, without a draw.
  const auto first = consumer.wait_frame(shows(picture(320, 180, {})), kLimit);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->format, SPA_VIDEO_FORMAT_BGRx);
  EXPECT_EQ(first->stride, 320 * 4);

  portal.draw("rect 10 20 30 40 ff0000");
  const auto frame = consumer.wait_frame(shows(picture(320, 180, {{10, 20, 30, 40, 0xff0000}})), kLimit);
  ASSERT_TRUE(frame) << "no frame showed the rectangle";
  ASSERT_EQ(frame->damage.size(), 1u);
  EXPECT_EQ(frame->damage[0].x, 10);
  EXPECT_EQ(frame->damage[0].y, 20);
  EXPECT_EQ(frame->damage[0].w, 30);
  EXPECT_EQ(frame->damage[0].h, 40);
}

TEST_F(PortalRigTest, AConsumerThatLinksLaterGetsThePictureAsItIs) {
  TestPortal portal(rig, {"--size", "64x48", "--format", "RGBx"});
  PortalClient client(rig.bus_address());
  const Started s = start_session(client, kScreenCast);
  const auto stream = result_stream(s.answer.results.get());
  ASSERT_TRUE(stream);
  portal.draw("fill 0000ff");
  portal.draw("rect 60 40 10 10 00ff00");  // clipped to 4x8
  FrameConsumer consumer(open_remote(client, s.session), stream->node);
  const auto frame = consumer.wait_frame(
      shows(picture(64, 48, {{0, 0, 64, 48, 0x0000ff}, {60, 40, 4, 8, 0x00ff00}}, true)), kLimit);
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->format, SPA_VIDEO_FORMAT_RGBx);
}

TEST_F(PortalRigTest, NotifyCallsReachThePortalsStdout) {
  TestPortal portal(rig);
  PortalClient client(rig.bus_address());
  const Started s = start_session(client, kRemoteDesktop);
  ASSERT_EQ(s.answer.response, 0u);
  EXPECT_EQ(result_u(s.answer.results.get(), "devices"), 3u);
  const auto stream = result_stream(s.answer.results.get());
  ASSERT_TRUE(stream);
  auto notify = [&](const char* method, const char* signature, auto... values) {
    return client.call(kRemoteDesktop, method, [&](sd_bus_message* m) {
      sd_bus_message_append(m, "oa{sv}", s.session.c_str(), 0);
      sd_bus_message_append(m, signature, values...);
    });
  };
  EXPECT_EQ(notify("NotifyKeyboardKeysym", "iu", 0x61, 1u), "");
  EXPECT_EQ(portal.next_line("keysym"), "keysym 97 1");
  EXPECT_EQ(notify("NotifyKeyboardKeycode", "iu", 30, 0u), "");
  EXPECT_EQ(portal.next_line("keycode"), "keycode 30 0");
  EXPECT_EQ(notify("NotifyPointerMotionAbsolute", "udd", stream->node, 10.5, 20.0), "");
  EXPECT_EQ(portal.next_line("motion"), "motion " + std::to_string(stream->node) + " 10.5 20");
  EXPECT_EQ(notify("NotifyPointerMotion", "dd", -3.0, 4.25), "");
  EXPECT_EQ(portal.next_line("relmotion"), "relmotion -3 4.25");
  EXPECT_EQ(notify("NotifyPointerButton", "iu", 0x110, 1u), "");
  EXPECT_EQ(portal.next_line("button"), "button 272 1");
  EXPECT_EQ(notify("NotifyPointerAxisDiscrete", "ui", 0u, -2), "");
  EXPECT_EQ(portal.next_line("axis"), "axis 0 -2");
  EXPECT_EQ(notify("NotifyPointerAxis", "dd", 0.0, 7.5), "");
  EXPECT_EQ(portal.next_line("smoothaxis"), "smoothaxis 0 7.5");
}

TEST_F(PortalRigTest, AnotherCallersSessionIsRefused) {
  TestPortal portal(rig);
  PortalClient owner(rig.bus_address());
  PortalClient intruder(rig.bus_address());
  const Started s = start_session(owner, kRemoteDesktop);
  ASSERT_EQ(s.answer.response, 0u);
  auto keysym = [&](PortalClient& c) {
    return c.call(kRemoteDesktop, "NotifyKeyboardKeysym", [&](sd_bus_message* m) {
      sd_bus_message_append(m, "oa{sv}iu", s.session.c_str(), 0, 0x62, 1u);
    });
  };
  EXPECT_EQ(keysym(intruder), kAccessDenied);
  EXPECT_EQ(intruder.call(kScreenCast, "OpenPipeWireRemote", [&](sd_bus_message* m) {
    sd_bus_message_append(m, "oa{sv}", s.session.c_str(), 0);
  }), kAccessDenied);
  EXPECT_EQ(intruder.call_at(s.session, "org.freedesktop.portal.Session", "Close", {}), kAccessDenied);
  // The owner's session is whole after that.
  EXPECT_EQ(keysym(owner), "");
  EXPECT_EQ(portal.next_line("keysym"), "keysym 98 1");
  EXPECT_EQ(owner.call_at(s.session, "org.freedesktop.portal.Session", "Close", {}), "");
  EXPECT_EQ(portal.next_line("closed"), "closed");
  EXPECT_EQ(keysym(owner), kAccessDenied);
}

TEST_F(PortalRigTest, CallsOutOfOrderOrWithBadArgumentsAreRefused) {
  TestPortal portal(rig);
  PortalClient client(rig.bus_address());
  const std::string session = client.create_session(kRemoteDesktop);
  ASSERT_FALSE(session.empty());
  std::string message;
  EXPECT_EQ(client.call(kRemoteDesktop, "NotifyKeyboardKeysym", [&](sd_bus_message* m) {
    sd_bus_message_append(m, "oa{sv}iu", session.c_str(), 0, 0x61, 1u);
  }, nullptr, &message), kAccessDenied) << "before Start";
  EXPECT_EQ(client.call(kScreenCast, "OpenPipeWireRemote", [&](sd_bus_message* m) {
    sd_bus_message_append(m, "oa{sv}", session.c_str(), 0);
  }), kAccessDenied) << "before Start";
  EXPECT_EQ(client.request(kRemoteDesktop, "SelectDevices", session_arg(session), [](sd_bus_message* m) {
    sd_bus_message_append(m, "{sv}", "types", "s", "keyboard");
  }).error, kInvalidArgs);
  EXPECT_EQ(client.request(kRemoteDesktop, "SelectDevices", session_arg(session), [](sd_bus_message* m) {
    sd_bus_message_append(m, "{sv}", "types", "u", 8u);
  }).error, kInvalidArgs);
  EXPECT_EQ(client.request(kRemoteDesktop, "CreateSession", {}, [](sd_bus_message* m) {
    sd_bus_message_append(m, "{sv}", "session_handle_token", "s", "not/a/token");
  }).error, kInvalidArgs);
  EXPECT_EQ(client.request(kRemoteDesktop, "Start", [](sd_bus_message* m) {
    sd_bus_message_append(m, "os", "/org/freedesktop/portal/desktop/session/1_1/nobody", "");
  }).error, kAccessDenied);

  const Started s = start_session(client, kRemoteDesktop);
  auto notify = [&](const char* method, const char* signature, auto... values) {
    return client.call(kRemoteDesktop, method, [&](sd_bus_message* m) {
      sd_bus_message_append(m, "oa{sv}", s.session.c_str(), 0);
      sd_bus_message_append(m, signature, values...);
    });
  };
  EXPECT_EQ(notify("NotifyPointerButton", "iu", 0x110, 7u), kInvalidArgs);
  EXPECT_EQ(notify("NotifyPointerMotionAbsolute", "udd", 123456u, 1.0, 1.0), kInvalidArgs);
  EXPECT_EQ(notify("NotifyPointerAxisDiscrete", "ui", 5u, 1), kInvalidArgs);
  EXPECT_EQ(notify("NotifyPointerMotion", "dd", std::nan(""), 1.0), kInvalidArgs);
  EXPECT_EQ(client.request(kRemoteDesktop, "Start", [&](sd_bus_message* m) {
    sd_bus_message_append(m, "os", s.session.c_str(), "");
  }).error, kAccessDenied) << "a second Start";
  EXPECT_EQ(notify("NotifyPointerButton", "iu", 0x111, 0u), "") << "the portal survived";
  EXPECT_EQ(portal.next_line("button"), "button 273 0");
}

TEST_F(PortalRigTest, RestoreTokensComeAndGo) {
  TestPortal portal(rig);
  PortalClient client(rig.bus_address());
  const Started s = start_session(client, kRemoteDesktop, [](sd_bus_message* m) {
    sd_bus_message_append(m, "{sv}{sv}", "persist_mode", "u", 2u, "restore_token", "s", "earlier-token");
  });
  ASSERT_EQ(s.answer.response, 0u);
  EXPECT_EQ(portal.next_line("restore"), "restore earlier-token");
  const auto token = result_string(s.answer.results.get(), "restore_token");
  ASSERT_TRUE(token);
  EXPECT_FALSE(token->empty());
  EXPECT_NE(*token, "earlier-token");
}

TEST_F(PortalRigTest, TheFlagsBehaveAsTheirPortals) {
  {
    TestPortal portal(rig, {"--no-remote-desktop"});
    PortalClient client(rig.bus_address());
    EXPECT_TRUE(client.create_session(kRemoteDesktop).empty());
    EXPECT_EQ(start_session(client, kScreenCast).answer.response, 0u);
  }
  {
    TestPortal portal(rig, {"--refuse"});
    PortalClient client(rig.bus_address());
    const Started s = start_session(client, kRemoteDesktop);
    EXPECT_EQ(s.answer.response, 1u);
    EXPECT_EQ(portal.next_line("refused"), "refused");
  }
  {
    TestPortal portal(rig, {"--close-after-start"});
    PortalClient client(rig.bus_address());
    const std::string session = client.create_session(kScreenCast);
    client.watch_closed(session);
    const PortalAnswer sources = client.request(kScreenCast, "SelectSources", session_arg(session));
    ASSERT_EQ(sources.response, 0u);
    const PortalAnswer start = client.request(kScreenCast, "Start", [&](sd_bus_message* m) {
      sd_bus_message_append(m, "os", session.c_str(), "");
    });
    EXPECT_EQ(start.response, 0u);
    EXPECT_TRUE(client.wait_closed());
    EXPECT_EQ(portal.next_line("revoked"), "revoked");
  }
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
