#include "platform/windows/input/send_input_injector.h"

#include <windows.h>

#include <algorithm>
#include <cstdlib>

#include "base/utf8.h"
#include "input/key_mapping.h"
#include "input/keysyms.h"
#include "platform/windows/input/virtual_keys.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

using input::InputStatus;

constexpr unsigned kShift = 1;
constexpr unsigned kCtrl = 2;
constexpr unsigned kAlt = 4;

std::u16string utf16_units(char32_t cp) {
  if (cp < 0x10000) return std::u16string(1, char16_t(cp));
  const char32_t v = cp - 0x10000;
  return {char16_t(0xd800 + (v >> 10)), char16_t(0xdc00 + (v & 0x3ff))};
}

INPUT key_input(WORD vk, WORD scan, DWORD flags) {
  INPUT in{};
  in.type = INPUT_KEYBOARD;
  in.ki.wVk = vk;
  in.ki.wScan = scan;
  in.ki.dwFlags = flags;
  return in;
}

INPUT mouse_input(DWORD flags, LONG dx = 0, LONG dy = 0, DWORD data = 0) {
  INPUT in{};
  in.type = INPUT_MOUSE;
  in.mi.dx = dx;
  in.mi.dy = dy;
  in.mi.mouseData = data;
  in.mi.dwFlags = flags;
  return in;
}

struct VirtualDesktop {
  int left, top, width, height;
};

VirtualDesktop virtual_desktop() {
  VirtualDesktop d{GetSystemMetrics(SM_XVIRTUALSCREEN), GetSystemMetrics(SM_YVIRTUALSCREEN),
                   GetSystemMetrics(SM_CXVIRTUALSCREEN), GetSystemMetrics(SM_CYVIRTUALSCREEN)};
  if (d.width <= 0 || d.height <= 0) {
    d = {0, 0, GetSystemMetrics(SM_CXSCREEN), GetSystemMetrics(SM_CYSCREEN)};
  }
  return d;
}

// Desktop pixel `p` of `extent` pixels in the 0..65535 range SendInput
// wants: the middle of the pixel, so that both ways of scaling back
// (n * extent / 65536, truncated, and n * extent / 65535, rounded or not)
// land on `p` itself.
LONG normalise(int p, int extent) {
  if (extent <= 1) return 0;
  const long long n = ((2LL * p + 1) * 65536) / (2LL * extent);
  return LONG(std::clamp<long long>(n, 0, 65535));
}

}  // namespace

SendInputInjector::SendInputInjector(Logger log, std::optional<Rect> area) : log_(std::move(log)), area_(area) {
  const auto d = virtual_desktop();
  log_->debug("input: SendInput over a {}x{} virtual desktop at {},{}", d.width, d.height, d.left, d.top);
  if (area_)
    log_->debug("input: desktop pixel 0,0 is {},{} on the virtual screen ({}x{})", area_->x, area_->y, area_->width,
                area_->height);
}

SendInputInjector::~SendInputInjector() { release_all(); }

void SendInputInjector::release_all() {
  std::vector<INPUT> inputs;
  for (auto it = held_keys_.rbegin(); it != held_keys_.rend(); ++it) append(inputs, *it, false);
  held_keys_.clear();
  for (int b : held_buttons_) {
    const DWORD flag = b == input::kButtonLeft     ? MOUSEEVENTF_LEFTUP
                       : b == input::kButtonMiddle ? MOUSEEVENTF_MIDDLEUP
                       : b == input::kButtonRight  ? MOUSEEVENTF_RIGHTUP
                                                   : MOUSEEVENTF_XUP;
    const DWORD data = b == input::kButtonBack ? XBUTTON1 : b == input::kButtonForward ? XBUTTON2 : 0;
    inputs.push_back(mouse_input(flag, 0, 0, data));
  }
  held_buttons_.clear();
  if (!inputs.empty()) send(inputs);
}

bool SendInputInjector::send(std::vector<INPUT>& inputs) {
  if (inputs.empty()) return true;
  const UINT sent = SendInput(UINT(inputs.size()), inputs.data(), sizeof(INPUT));
  if (sent == inputs.size()) return true;
  // Blocked by UIPI (an elevated window in front) or a secure desktop.
  log_->debug("input: SendInput took {} of {} events: {}", sent, inputs.size(), describe_last_error("SendInput"));
  return false;
}

void SendInputInjector::append(std::vector<INPUT>& out, const Held& h, bool down) {
  const DWORD up = down ? 0 : KEYEVENTF_KEYUP;
  if (h.vk) {
    const WORD scan = WORD(MapVirtualKeyW(h.vk, MAPVK_VK_TO_VSC) & 0xff);
    out.push_back(key_input(h.vk, scan, up | (h.extended ? KEYEVENTF_EXTENDEDKEY : 0)));
    return;
  }
  for (char16_t u : h.units) out.push_back(key_input(0, WORD(u), up | KEYEVENTF_UNICODE));
}

unsigned SendInputInjector::held_modifiers() const {
  unsigned m = 0;
  for (const auto& h : held_keys_) {
    switch (h.vk) {
      case VK_LSHIFT:
      case VK_RSHIFT: m |= kShift; break;
      case VK_LCONTROL:
      case VK_RCONTROL: m |= kCtrl; break;
      case VK_LMENU: m |= kAlt; break;
      case VK_RMENU: m |= h.keysym == input::keysym::kIsoLevel3Shift ? (kCtrl | kAlt) : kAlt; break;
      default: break;
    }
  }
  return m;
}

bool SendInputInjector::layout_key(char32_t cp, uint16_t& vk, unsigned& modifiers) const {
  if (cp > 0xffff) return false;
  // The layout of the window that receives the keys, not this thread's.
  const HWND front = GetForegroundWindow();
  const DWORD thread = front ? GetWindowThreadProcessId(front, nullptr) : 0;
  const HKL layout = GetKeyboardLayout(thread);
  const SHORT r = VkKeyScanExW(wchar_t(cp), layout);
  if (r == -1) return false;
  vk = uint16_t(LOBYTE(r));
  modifiers = HIBYTE(r);
  // Kana, OEM-specific shift states: not something to reproduce.
  return vk != 0 && (modifiers & ~(kShift | kCtrl | kAlt)) == 0;
}

InputStatus SendInputInjector::key(uint32_t keysym, bool down) {
  const auto it = std::find_if(held_keys_.begin(), held_keys_.end(), [&](const Held& h) { return h.keysym == keysym; });
  std::vector<INPUT> inputs;
  if (!down) {
    if (it == held_keys_.end()) return InputStatus::kOk;  // never pressed, or released already
    append(inputs, *it, false);
    held_keys_.erase(it);
    return send(inputs) ? InputStatus::kOk : InputStatus::kFailed;
  }
  if (it != held_keys_.end()) {
    // A browser's repeat: Windows repeats only real keyboards.
    append(inputs, *it, true);
    return send(inputs) ? InputStatus::kOk : InputStatus::kFailed;
  }
  Held h;
  h.keysym = keysym;
  if (const auto named = named_virtual_key(keysym)) {
    h.vk = named->vk;
    h.extended = named->extended;
  } else if (const auto cp = keysym_code_point(keysym)) {
    uint16_t vk = 0;
    unsigned need = 0;
    const unsigned held = held_modifiers();
    // The layout's key when the modifiers held now select this character
    // (Shift as needed; Ctrl or Alt held for a shortcut do not matter).
    if (layout_key(*cp, vk, need) && (need & kShift) == (held & kShift) && (need & ~held) == 0) {
      h.vk = vk;
    } else {
      h.units = utf16_units(*cp);
    }
  } else {
    return InputStatus::kUnknownKey;
  }
  if (held_keys_.size() >= kMaxHeldKeys) {
    append(inputs, held_keys_.front(), false);
    held_keys_.erase(held_keys_.begin());
  }
  append(inputs, h, true);
  held_keys_.push_back(std::move(h));
  return send(inputs) ? InputStatus::kOk : InputStatus::kFailed;
}

InputStatus SendInputInjector::type_text(std::string_view utf8) {
  const auto cps = decode_utf8(utf8);
  if (!cps) return InputStatus::kUnknownKey;
  const unsigned held = held_modifiers();
  const bool caps = (GetKeyState(VK_CAPITAL) & 1) != 0;
  std::vector<INPUT> inputs;
  InputStatus status = InputStatus::kOk;
  for (char32_t cp : *cps) {
    const auto keysym = input::keysym_for_char(cp);
    if (!keysym) {
      status = InputStatus::kUnknownKey;
      break;
    }
    Held h;
    bool add_shift = false;
    if (const auto named = named_virtual_key(*keysym)) {  // \n, \t, \b
      h.vk = named->vk;
      h.extended = named->extended;
    } else {
      uint16_t vk = 0;
      unsigned need = 0;
      // The layout's key only when nothing held changes what it types:
      // no Ctrl or Alt (a shortcut), Shift only where the character needs
      // it, and no Caps Lock turning a letter's case.
      const bool plain = layout_key(cp, vk, need) && (need & ~kShift) == 0 && (held & ~kShift) == 0 &&
                         !((held & kShift) && !(need & kShift)) && !(caps && IsCharAlphaW(wchar_t(cp)));
      if (plain) {
        h.vk = vk;
        add_shift = (need & kShift) && !(held & kShift);
      } else {
        h.units = utf16_units(cp);
      }
    }
    const Held shift{0, VK_LSHIFT, false, {}};
    if (add_shift) append(inputs, shift, true);
    if (h.vk) {
      append(inputs, h, true);
      append(inputs, h, false);
    } else {
      // Each code unit pressed and released in turn.
      for (char16_t u : h.units) {
        const Held one{0, 0, false, std::u16string(1, u)};
        append(inputs, one, true);
        append(inputs, one, false);
      }
    }
    if (add_shift) append(inputs, shift, false);
  }
  if (!send(inputs)) return InputStatus::kFailed;
  return status;
}

void SendInputInjector::move(int x, int y) {
  const auto d = virtual_desktop();
  if (area_) {
    x = area_->x - d.left + std::clamp(x, 0, std::max(0, area_->width - 1));
    y = area_->y - d.top + std::clamp(y, 0, std::max(0, area_->height - 1));
  }
  x = std::clamp(x, 0, std::max(0, d.width - 1));
  y = std::clamp(y, 0, std::max(0, d.height - 1));
  std::vector<INPUT> inputs{mouse_input(MOUSEEVENTF_MOVE | MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK,
                                        normalise(x, d.width), normalise(y, d.height))};
  send(inputs);
}

void SendInputInjector::button(int n, bool down) {
  if (n == 4 || n == 5 || n == 6 || n == 7) {
    // Wheel "buttons": one notch per press, nothing on release.
    if (!down) return;
    scroll_notches(n == 6 ? -1 : n == 7 ? 1 : 0, n == 4 ? -1 : n == 5 ? 1 : 0);
    return;
  }
  DWORD flag = 0;
  DWORD data = 0;
  switch (n) {
    case input::kButtonLeft: flag = down ? MOUSEEVENTF_LEFTDOWN : MOUSEEVENTF_LEFTUP; break;
    case input::kButtonMiddle: flag = down ? MOUSEEVENTF_MIDDLEDOWN : MOUSEEVENTF_MIDDLEUP; break;
    case input::kButtonRight: flag = down ? MOUSEEVENTF_RIGHTDOWN : MOUSEEVENTF_RIGHTUP; break;
    case input::kButtonBack:
    case input::kButtonForward:
      flag = down ? MOUSEEVENTF_XDOWN : MOUSEEVENTF_XUP;
      data = n == input::kButtonBack ? XBUTTON1 : XBUTTON2;
      break;
    default: return;  // no such button on Windows
  }
  const auto it = std::find(held_buttons_.begin(), held_buttons_.end(), n);
  if (down == (it != held_buttons_.end())) return;
  if (down)
    held_buttons_.push_back(n);
  else
    held_buttons_.erase(it);
  std::vector<INPUT> inputs{mouse_input(flag, 0, 0, data)};
  send(inputs);
}

void SendInputInjector::scroll_notches(int dx, int dy) {
  std::vector<INPUT> inputs;
  // Positive wheel data scrolls up (away from the user) and tilts right.
  const int vertical = std::clamp(dy, -kMaxNotches, kMaxNotches);
  const int horizontal = std::clamp(dx, -kMaxNotches, kMaxNotches);
  for (int i = 0; i < std::abs(vertical); ++i)
    inputs.push_back(mouse_input(MOUSEEVENTF_WHEEL, 0, 0, DWORD(vertical < 0 ? WHEEL_DELTA : -WHEEL_DELTA)));
  for (int i = 0; i < std::abs(horizontal); ++i)
    inputs.push_back(mouse_input(MOUSEEVENTF_HWHEEL, 0, 0, DWORD(horizontal > 0 ? WHEEL_DELTA : -WHEEL_DELTA)));
  send(inputs);
}

Size SendInputInjector::desktop_size() const {
  if (area_) return Size{area_->width, area_->height};
  const auto d = virtual_desktop();
  return Size{d.width, d.height};
}

// The toggle bit of the keys' state as this thread sees it, which follows
// the system's while the thread has no keyboard focus of its own.
std::optional<Point> SendInputInjector::pointer_position() {
  POINT p;
  if (!GetCursorPos(&p)) return std::nullopt;
  // move() counts from the captured monitor's corner, or from the virtual
  // screen's.
  if (area_) return Point{int(p.x) - area_->x, int(p.y) - area_->y};
  const auto d = virtual_desktop();
  return Point{int(p.x) - d.left, int(p.y) - d.top};
}

bool SendInputInjector::caps_lock() { return (GetKeyState(VK_CAPITAL) & 1) != 0; }

bool SendInputInjector::num_lock() { return (GetKeyState(VK_NUMLOCK) & 1) != 0; }

}  // namespace voxl::platform::windows
