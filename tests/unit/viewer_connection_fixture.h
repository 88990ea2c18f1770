// The fixture of the ViewerConnection unit tests: a recording fake
// transport, a fake pipeline behind a real hub, a fake clipboard and input,
// and a clock the test moves. One test thread.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_input_injector.h"
#include "input/interaction.h"
#include "input/viewer_input.h"
#include "stream/viewer/resize_controller.h"
#include "stream/viewer/viewer_connection.h"

namespace voxl::stream::viewer_testing {

using json = nlohmann::json;
using namespace std::chrono_literals;

struct FakeTransport : ViewerTransport {
  std::vector<std::string> texts;
  int binaries = 0;
  std::optional<CloseCode> closed;
  bool ticking = false;
  bool busy = false;

  void write_text(std::string_view t) override {
    EXPECT_FALSE(busy) << "one write at a time";
    texts.emplace_back(t);
    busy = true;
  }
  void write_binary(std::span<const uint8_t>, std::span<const uint8_t>) override {
    EXPECT_FALSE(busy) << "one write at a time";
    ++binaries;
    busy = true;
  }
  void close(CloseCode code, std::string_view) override { closed = code; }
  void set_ticking(bool on) override { ticking = on; }

  std::vector<json> of(const std::string& type) const {
    std::vector<json> r;
    for (const auto& t : texts) {
      const json m = json::parse(t);
      if (m["type"] == type) r.push_back(m);
    }
    return r;
  }
};

struct FakePipeline {
  int keyframe_requests = 0;
  std::vector<int> targets;
  bool throw_on_keyframe = false;
  std::optional<std::chrono::steady_clock::duration> armed;
  std::chrono::steady_clock::time_point* clock = nullptr;

  PipelineControls controls() {
    PipelineControls c;
    c.request_keyframe = [this](int) {
      if (throw_on_keyframe) throw std::runtime_error("encoder on fire");
      ++keyframe_requests;
    };
    c.set_target_kbps = [this](int rung, int k) {
      if (rung == 0) targets.push_back(k);
    };
    c.arm_key_timer = [this](std::chrono::steady_clock::duration d) { armed = d; };
    c.now = [this] { return *clock; };
    return c;
  }
};

struct FakeClipboard : input::Clipboard {
  std::vector<input::ClipboardContent> offered;
  void set_listener(Listener) override {}
  void set_lost_handler(std::function<void()>) override {}
  bool offer(input::ClipboardContent c, std::string&) override {
    offered.push_back(std::move(c));
    return true;
  }
};

inline encode::EncodedFramePtr frame(uint32_t id, bool key, size_t bytes = 100) {
  auto f = std::make_shared<encode::EncodedFrame>();
  f->id = id;
  f->key = key;
  f->codec = "avc1.42E028";
  f->size = {64, 48};
  f->data.assign(bytes, 0);
  return f;
}

class ViewerConnectionTest : public ::testing::Test {
 protected:
  std::chrono::steady_clock::time_point clock{std::chrono::hours(1)};
  FakePipeline pipeline;
  Hub hub{[this] {
    pipeline.clock = &clock;
    return pipeline.controls();
  }()};
  voxl::testing::FakeInputInjector inj;
  FakeClipboard clip;
  input::Interaction interaction{&inj, &clip, nullptr, {}, spdlog::default_logger()};

  ViewerServices services() {
    ViewerServices s{.hub = &hub, .log = spdlog::default_logger()};
    s.interaction = &interaction;
    s.bitrate = {2000, 30000};
    return s;
  }
  ViewerClocks clocks() {
    return {[this] { return clock; }, [] { return uint64_t(42); }};
  }
  // Completes writes until none is left to do.
  static void flush(ViewerConnection& c, FakeTransport& t) {
    while (t.busy) {
      t.busy = false;
      c.on_written();
    }
  }
};

}  // namespace voxl::stream::viewer_testing
