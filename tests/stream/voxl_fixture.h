// A gtest fixture that gives each test its own Xvfb, a Painter on it and a
// voxl process streaming it. Members are destroyed in reverse order, so voxl
// stops before the display it captures, also when an assertion failed.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "platform/x11/virtual_display.h"
#include "stream_client.h"
#include "voxl_process.h"
#include "x11_test_support.h"

namespace voxl::testing {

class VoxlFixture : public ::testing::Test {
 protected:
  static constexpr Size kScreen{640, 480};  // small: encoding costs little CPU

  // Starts the display (kScreen unless told) and paints all of it `background`.
  void start_display(uint32_t background, Size size = kScreen);
  void start_voxl(const std::vector<std::string>& extra_args = {}, const std::vector<std::string>& env = {});
  void TearDown() override;

  ClientOptions client_options() const;
  void fill(const Rect& r, uint32_t rgb) { painter_->fill(painter_->root(), r, rgb); }

  // The address voxl listens on (its --addr); the default keeps it on
  // loopback. Set before start_voxl().
  std::string listen_address_ = "127.0.0.1";

  std::optional<platform::x11::VirtualDisplay> display_;
  std::optional<Painter> painter_;
  std::optional<VoxlProcess> voxl_;
};

}  // namespace voxl::testing
