// A top-level Windows window for the platform tests, painted with known
// colors through GDI: a fill and optional rectangles over it. It runs on a
// thread of its own with its own message loop, so the test thread can block
// in a capturer while the window keeps painting.
//
// Threads: made, changed and destroyed from one test thread; calls reach the
// window's thread through SendMessage and return once it has repainted.
#pragma once

#include <windows.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "base/geometry.h"

namespace voxl::platform::windows::test {

// 0xRRGGBB, as Frame::pixel() reads them.
struct Paint {
  uint32_t fill = 0;
  struct Box {
    Rect rect;  // client coordinates
    uint32_t color = 0;
  };
  std::vector<Box> boxes;
};

class TestWindow {
 public:
  // A borderless, topmost window at `where` (virtual-desktop pixels).
  TestWindow(Rect where, Paint paint);
  ~TestWindow();
  TestWindow(const TestWindow&) = delete;
  TestWindow& operator=(const TestWindow&) = delete;

  HWND hwnd() const { return hwnd_; }
  // Repaints with `paint`; returns once the window has drawn it.
  void repaint(Paint paint);
  // Destroys the window now (the destructor does it otherwise).
  void destroy();

 private:
  void run(Rect where, Paint paint);

  HWND hwnd_ = nullptr;
  HANDLE created_ = nullptr;  // set by the window's thread once hwnd_ is known
  std::thread thread_;
};

}  // namespace voxl::platform::windows::test
