// One viewer's input: reads its input and clipboard messages (see
// src/stream/viewer/wire_format.h), keeps track of the keys and buttons it holds
// so they are released when it loses focus or goes, keeps its modifier and
// lock keys in step with the page, turns smooth wheel deltas into notches,
// and refuses everything but watching to a view-only viewer. Its input
// and clipboard reach the desktop only while it holds control (the
// Interaction's ControlHandover, which its "control" messages go to);
// otherwise they are dropped and refused once per loss of control.
//
// Threads: loop thread only. Made by Interaction::join(); detach() or the
// destructor releases what the viewer holds and leaves the interaction.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/token_bucket.h"
#include "input/interaction.h"
#include "input/scroll_accumulator.h"
#include "input/viewer_permissions.h"

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
  ViewerInput(Interaction& owner, ViewerLink& link, ViewerPermissions permissions, uint64_t id);
  ~ViewerInput();
  ViewerInput(const ViewerInput&) = delete;
  ViewerInput& operator=(const ViewerInput&) = delete;

  // Handles a client message of `type`; false when it is not one of ours.
  // A message with an unusable field (wrong type, out of range, too long)
  // is ignored; bad_field() then names that field until the next message.
  bool handle(std::string_view type, const nlohmann::json& m);
  const char* bad_field() const { return bad_field_; }
  // Releases every key and button this viewer holds.
  void release_all();
  // Releases what it holds and leaves the interaction (the viewer went);
  // the object may outlive this, inert. The destructor does it too.
  void detach();
  // The last message handled was input that reached the desktop (this
  // viewer holds control).
  bool used_input() const { return used_input_; }

  uint64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  // Who signed in ("" when no one did by name); set once at join.
  const std::string& user() const { return user_; }
  // The name shown in the viewer list (checked by the caller). False when
  // this viewer renamed or acted on control too often (see Interaction::
  // kActionBurst): the name stays.
  bool rename(std::string name);
  // The last message handled was a control action over that limit (ignored).
  bool over_limit() const { return over_limit_; }

  void send_cursor(const CursorImage& image);
  void send_control(std::string json) { link_.send_control(std::move(json)); }
  void send_latest(std::string json, ControlKind kind) { link_.send_latest(std::move(json), kind); }
  // A cursor message queued for this viewer was replaced before it was
  // sent: the shapes remembered as delivered may not have been.
  void forget_cursors_sent() { cursors_sent_.clear(); }
  bool view_only() const { return !permissions_.control; }
  // Whether what the desktop copies is sent to this viewer.
  bool receives_clipboard() const { return permissions_.clipboard_out; }
  const ViewerPermissions& permissions() const { return permissions_; }
  const std::set<uint32_t>& held_keys() const { return keys_; }

 private:
  void on_key(const nlohmann::json& m);
  void on_text(const nlohmann::json& m);
  void mark_keys(size_t count);
  void on_pointer(std::string_view type, const nlohmann::json& m);
  void on_clipboard(const nlohmann::json& m);
  void sync_modifiers(int mods, uint32_t except);
  void sync_locks(int mods, uint32_t except);
  void press(uint32_t keysym, bool down);
  void refuse(std::string_view what, std::string_view reason);
  // Input while another viewer holds control: refused once per loss.
  void refuse_no_control();
  // A parsed input message is about to act: takes control (true) or
  // refuses it (false). Sets used_input().
  bool take_control();
  void on_control_message(const nlohmann::json& m);
  // Called by the Interaction.
  friend class Interaction;
  void set_name(std::string name) { name_ = std::move(name); }
  void lost_control();
  void gained_control();

  Interaction& owner_;
  ViewerLink& link_;
  ViewerPermissions permissions_;
  uint64_t id_;
  ScrollAccumulator scroll_;
  std::set<uint32_t> keys_;
  std::vector<int> buttons_;
  std::set<uint64_t> cursors_sent_;
  bool refused_input_ = false;
  bool refused_clipboard_ = false;
  bool refused_no_control_ = false;  // told since it last lost control
  bool refused_control_ = false;     // a view-only viewer told it cannot take control
  bool used_input_ = false;
  bool over_limit_ = false;
  TokenBucket actions_{Interaction::kActionBurst, Interaction::kActionRefill};  // renames, control actions
  bool detached_ = false;
  std::string name_;
  std::string user_;
  const char* bad_field_ = nullptr;
};

}  // namespace voxl::input
