// A top-level window the tests send input to, recording the messages it
// gets, and the waits the tests use: pump this thread's messages (or run an
// io_context) until a condition holds or a generous deadline passes.
//
// Threads: the test's thread only (the window belongs to it).
#pragma once

#include <windows.h>
#include <windowsx.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <vector>

namespace voxl::platform::windows::test {

inline constexpr std::chrono::milliseconds kDeadline{15000};

struct Recorded {
  UINT message = 0;
  WPARAM wparam = 0;
  LPARAM lparam = 0;
};

class InputWindow {
 public:
  // A window of `width` x `height` client pixels at screen (x, y), shown,
  // in front and with the keyboard focus.
  InputWindow(int x, int y, int width, int height);
  ~InputWindow();
  InputWindow(const InputWindow&) = delete;
  InputWindow& operator=(const InputWindow&) = delete;

  HWND hwnd() const { return hwnd_; }
  const std::vector<Recorded>& messages() const { return messages_; }
  void clear() { messages_.clear(); }
  // The first recorded message of this kind, or null.
  const Recorded* find(UINT message, std::function<bool(const Recorded&)> match = {}) const;
  // Pumps until a message of this kind (matching) is recorded.
  const Recorded* wait_for(UINT message, std::function<bool(const Recorded&)> match = {});
  // The WM_CHAR characters recorded, in order.
  std::wstring chars() const;

 private:
  static LRESULT CALLBACK proc(HWND hwnd, UINT msg, WPARAM wparam, LPARAM lparam);

  HWND hwnd_ = nullptr;
  std::vector<Recorded> messages_;
};

// Dispatches this thread's messages until `done` or the deadline.
bool pump_until(const std::function<bool()>& done, std::chrono::milliseconds deadline = kDeadline);
// Runs `io` (kept from running out of work) until `done` or the deadline.
bool run_until(boost::asio::io_context& io, const std::function<bool()>& done,
               std::chrono::milliseconds deadline = kDeadline);

}  // namespace voxl::platform::windows::test
