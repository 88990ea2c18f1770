// One viewer's input: reads its input and clipboard messages (see
// src/stream/wire_format.h), keeps track of the keys and buttons it holds
// so they are released when it loses focus or goes, keeps its modifier and
// lock keys in step with the page, turns smooth wheel deltas into notches,
// and refuses everything but watching to a view-only viewer.
//
// Threads: loop thread only. Made by Interaction::join(); the destructor
// releases what the viewer holds.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "input/interaction.h"
#include "input/scroll_accumulator.h"

namespace voxl::input {

// Bits of a key, button or scroll message's "mods": what the page says is
// held or locked as the event happens.
inline constexpr int kModShift = 1;
inline constexpr int kModControl = 2;
inline constexpr int kModAlt = 4;
inline constexpr int kModMeta = 8;
inline constexpr int kModCapsLock = 16;
inline constexpr int kModNumLock = 32;
inline constexpr int kModAltGraph = 64;

class ViewerInput {
 public:
  ViewerInput(Interaction& owner, ViewerLink& link, bool view_only, uint64_t id);
  ~ViewerInput();
  ViewerInput(const ViewerInput&) = delete;
  ViewerInput& operator=(const ViewerInput&) = delete;

  // Handles a client message of `type`; false when it is not one of ours.
  bool handle(std::string_view type, const nlohmann::json& m);
  // Releases every key and button this viewer holds.
  void release_all();

  void send_cursor(const CursorImage& image);
  void send_control(std::string json) { link_.send_control(std::move(json)); }
  bool view_only() const { return view_only_; }
  const std::set<uint32_t>& held_keys() const { return keys_; }

 private:
  void on_key(const nlohmann::json& m);
  void on_text(const nlohmann::json& m);
  void on_pointer(std::string_view type, const nlohmann::json& m);
  void on_clipboard(const nlohmann::json& m);
  void sync_modifiers(int mods, uint32_t except);
  void sync_locks(int mods, uint32_t except);
  void press(uint32_t keysym, bool down);
  void move_to(const nlohmann::json& m);
  void refuse(std::string_view what, std::string_view reason);

  Interaction& owner_;
  ViewerLink& link_;
  bool view_only_;
  uint64_t id_;
  ScrollAccumulator scroll_;
  std::set<uint32_t> keys_;
  std::vector<int> buttons_;
  std::set<uint64_t> cursors_sent_;
  bool refused_input_ = false;
  bool refused_clipboard_ = false;
};

}  // namespace voxl::input
