// The Wayland clipboard through wlr-data-control, against wl-clipboard's
// wl-copy and wl-paste in headless sway: what a program copies reaches
// voxl (text and PNG), what voxl offers is pasted, voxl's own offer is not
// read back, and a copy over the limit is refused with its reason.
#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <optional>
#include <thread>

#include "platform/child_process.h"

#include "platform/wayland/data_control_clipboard.h"
#include "wayland_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using platform::wayland::DataControlClipboard;

struct Heard {
  std::optional<input::ClipboardContent> copied;
  std::optional<std::string> refused;
};

// Runs the loop until `done` or 30 s.
template <class Done>
void run_until(boost::asio::io_context& io, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done() && std::chrono::steady_clock::now() < deadline) io.run_one_for(std::chrono::milliseconds(100));
}

TEST(WaylandClipboard, WhatAProgramCopiesReachesVoxl) {
  auto sway = start_sway({160, 120});
  boost::asio::io_context io;
  DataControlClipboard clip(io, sway->socket_path(), quiet_log(), input::kMaxClipboardBytes, true);
  Heard heard;
  clip.set_listener({[&](const input::ClipboardContent& c) { heard.copied = c; },
                     [&](const std::string& why) { heard.refused = why; }});
  // wl-copy serves its copy until stopped (--foreground: no process of its
  // own to outlive the test).
  auto copier = start_in(*sway, {"wl-copy", "--foreground", "héllo, Wayland ✓"});
  run_until(io, [&] { return heard.copied.has_value(); });
  ASSERT_TRUE(heard.copied);
  EXPECT_EQ(heard.copied->mime, input::kMimeText);
  EXPECT_EQ(heard.copied->data, "héllo, Wayland ✓");

  // A PNG (its bytes only need to say image/png to the clipboard).
  heard = {};
  const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(300, 'x');
  copier = start_in(*sway, {"wl-copy", "--foreground", "--type", "image/png"}, png);
  run_until(io, [&] { return heard.copied.has_value(); });
  ASSERT_TRUE(heard.copied);
  EXPECT_EQ(heard.copied->mime, input::kMimePng);
  EXPECT_EQ(heard.copied->data, png);
}

TEST(WaylandClipboard, WhatVoxlOffersIsPastedAndNotReadBack) {
  auto sway = start_sway({160, 120});
  boost::asio::io_context io;
  DataControlClipboard clip(io, sway->socket_path(), quiet_log(), input::kMaxClipboardBytes, true);
  Heard heard;
  clip.set_listener({[&](const input::ClipboardContent& c) { heard.copied = c; },
                     [&](const std::string& why) { heard.refused = why; }});
  std::string error;
  ASSERT_TRUE(clip.offer({std::string(input::kMimeText), "from the viewer: Grüße ✓"}, error)) << error;
  // The loop serves the paste while the test waits for wl-paste.
  auto guard = boost::asio::make_work_guard(io);
  std::thread loop([&] { io.run_for(std::chrono::seconds(40)); });
  const std::string pasted = run_in(*sway, {"wl-paste", "--no-newline"});
  const std::string types = run_in(*sway, {"wl-paste", "--list-types"});
  guard.reset();
  io.stop();
  loop.join();
  EXPECT_EQ(pasted, "from the viewer: Grüße ✓");
  EXPECT_NE(types.find("text/plain;charset=utf-8"), std::string::npos) << types;
  EXPECT_FALSE(heard.copied) << "voxl read its own offer back";
}

TEST(WaylandClipboard, ACopyOverTheLimitIsRefused) {
  auto sway = start_sway({160, 120});
  boost::asio::io_context io;
  DataControlClipboard clip(io, sway->socket_path(), quiet_log(), 1000, true);
  Heard heard;
  clip.set_listener({[&](const input::ClipboardContent& c) { heard.copied = c; },
                     [&](const std::string& why) { heard.refused = why; }});
  auto copier = start_in(*sway, {"wl-copy", "--foreground"}, std::string(5000, 'a'));
  run_until(io, [&] { return heard.refused.has_value() || heard.copied.has_value(); });
  EXPECT_FALSE(heard.copied);
  ASSERT_TRUE(heard.refused);
  EXPECT_NE(heard.refused->find("more than"), std::string::npos) << *heard.refused;
  std::string error;
  EXPECT_FALSE(clip.offer({std::string(input::kMimeText), std::string(2000, 'b')}, error));
  EXPECT_FALSE(error.empty());
}

TEST(WaylandClipboard, OfferOnlyNeverReadsTheDesktop) {
  auto sway = start_sway({160, 120});
  boost::asio::io_context io;
  DataControlClipboard clip(io, sway->socket_path(), quiet_log(), input::kMaxClipboardBytes, false);
  Heard heard;
  clip.set_listener({[&](const input::ClipboardContent& c) { heard.copied = c; },
                     [&](const std::string& why) { heard.refused = why; }});
  // A watching clipboard beside it tells when the copies were announced.
  DataControlClipboard witness(io, sway->socket_path(), quiet_log(), input::kMaxClipboardBytes, true);
  std::optional<input::ClipboardContent> seen;
  witness.set_listener({[&](const input::ClipboardContent& c) { seen = c; }, nullptr});
  auto copier = start_in(*sway, {"wl-copy", "--foreground", "secret"});
  run_until(io, [&] { return seen && seen->data == "secret"; });
  ASSERT_TRUE(seen);
  io.poll();
  EXPECT_FALSE(heard.copied);
  EXPECT_FALSE(heard.refused);
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
