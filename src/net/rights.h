// What a signed-in person may do: the rights a users file grants (view,
// control, clipboard in and out, files up and down, record, admin), as a
// small set, with their names in the file and in the logs. Pure; any
// thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace voxl::net {

enum class Right : uint16_t {
  kView = 1 << 0,          // see the desktop and hear it
  kControl = 1 << 1,       // keyboard, pointer, resize, agents' actions
  kClipboardIn = 1 << 2,   // put text into the desktop's clipboard
  kClipboardOut = 1 << 3,  // receive what the desktop copies
  kFilesUp = 1 << 4,       // upload into the files folder
  kFilesDown = 1 << 5,     // download from it
  kRecord = 1 << 6,        // /record and the recordings of the past
  kAdmin = 1 << 7,         // everything, and the operators' pages
};

class Rights {
 public:
  constexpr Rights() = default;
  static constexpr Rights all() { return Rights(0xff); }
  static constexpr Rights of(Right r) { return Rights(uint16_t(r)); }

  constexpr bool has(Right r) const { return (bits_ & uint16_t(r)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr Rights with(Right r) const { return Rights(uint16_t(bits_ | uint16_t(r))); }
  constexpr Rights with(Rights r) const { return Rights(uint16_t(bits_ | r.bits_)); }
  constexpr uint16_t bits() const { return bits_; }
  friend constexpr bool operator==(Rights, Rights) = default;

 private:
  constexpr explicit Rights(uint16_t bits) : bits_(bits) {}
  uint16_t bits_ = 0;
};

// "view,control,clipboard-in,...": every item one right's name, or
// "clipboard" (in and out), "files" (up and down) or "all"; spaces around
// items are allowed. "admin" grants every right. nullopt with `error`
// naming the item for anything else, or for an empty list.
std::optional<Rights> parse_rights(std::string_view list, std::string& error);
// The rights by name, comma-separated, in the order of Right ("" for none).
std::string rights_text(Rights rights);

}  // namespace voxl::net
