// Fakes for tests of the interaction (input/interaction.h): a clipboard
// that keeps what it is offered (refusing more than 10 bytes) and lets the
// test play the desktop's copies through its listener, a cursor source,
// and a viewer link that records every control message it is sent.
// Threads: the test's.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "input/interaction.h"

namespace voxl::testing {

struct FakeClipboard : input::Clipboard {
  Listener listener;
  std::vector<input::ClipboardContent> offered;
  void set_listener(Listener l) override { listener = std::move(l); }
  void set_lost_handler(std::function<void()>) override {}
  bool offer(input::ClipboardContent c, std::string& error) override {
    if (c.data.size() > 10) {
      error = "too large";
      return false;
    }
    offered.push_back(std::move(c));
    return true;
  }
};

struct FakeCursor : input::CursorSource {
  std::function<void(const input::CursorImagePtr&)> listener;
  input::CursorImagePtr now;
  void set_listener(std::function<void(const input::CursorImagePtr&)> l) override { listener = std::move(l); }
  input::CursorImagePtr current() const override { return now; }
  void set_lost_handler(std::function<void()>) override {}
};

struct RecordingLink : input::ViewerLink {
  std::vector<nlohmann::json> sent;
  void send_control(std::string text) override { sent.push_back(nlohmann::json::parse(text)); }
  std::vector<nlohmann::json> of(const std::string& type) const {
    std::vector<nlohmann::json> r;
    for (const auto& m : sent)
      if (m["type"] == type) r.push_back(m);
    return r;
  }
};

}  // namespace voxl::testing
