// An InputInjector for unit tests that records every call as a line of text
// ("key 0x61 down", "move 10 20", "button 3 up", "scroll 0 2", "text hi"),
// so a test compares what reached the desktop with one vector. It keeps a
// Caps Lock state that its Caps Lock key toggles, as a real keyboard does,
// and can be told to fail the press of one keysym.
//
// Threads: one test's thread. Pure logic: touches no display.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "input/input_injector.h"
#include "input/keysyms.h"

namespace voxl::testing {

struct FakeInputInjector : input::InputInjector {
  std::vector<std::string> log;
  uint32_t failing_key = 0;  // pressing this keysym fails (kNoSpareKeycode) and is not logged
  bool caps = false;
  bool num = false;

  input::InputStatus key(uint32_t k, bool down) override {
    if (k == failing_key && down) return input::InputStatus::kNoSpareKeycode;
    log.push_back(fmt::format("key {:#x} {}", k, down ? "down" : "up"));
    if (k == input::keysym::kCapsLock && down) caps = !caps;
    return input::InputStatus::kOk;
  }
  input::InputStatus type_text(std::string_view t) override {
    log.push_back("text " + std::string(t));
    return input::InputStatus::kOk;
  }
  void move(int x, int y) override { log.push_back(fmt::format("move {} {}", x, y)); }
  void button(int n, bool down) override { log.push_back(fmt::format("button {} {}", n, down ? "down" : "up")); }
  void scroll_notches(int dx, int dy) override { log.push_back(fmt::format("scroll {} {}", dx, dy)); }
  Size desktop_size() const override { return {640, 480}; }
  bool caps_lock() override { return caps; }
  bool num_lock() override { return num; }
  std::optional<Point> pointer_position() override { return pointer; }
  std::optional<Point> pointer{Point{0, 0}};  // what pointer_position() answers
  bool failed() const override { return broken; }
  bool broken = false;  // what failed() answers
};

}  // namespace voxl::testing
