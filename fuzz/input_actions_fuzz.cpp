// POST /input: action lists as JSON, played through a checking injector;
// and the key combos, key names, browser key events and UTF-8 text they
// (and the viewers' key messages) are made of. The first byte picks what
// the rest is.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "base/utf8.h"
#include "endpoints/input_actions.h"
#include "fuzz_check.h"
#include "input/input_injector.h"
#include "input/key_mapping.h"
#include "net/endpoint.h"

namespace VOXL_TEST_FILE {

using namespace voxl;
using input::InputStatus;

// Checks that everything played stays on the desktop and nothing stays held.
struct CheckingInjector : input::InputInjector {
  Size size;
  uint32_t failing_key = 0;
  std::map<uint32_t, int> keys_down;
  std::map<int, int> buttons_down;

  InputStatus key(uint32_t k, bool down) override {
    if (down && k == failing_key) return InputStatus::kNoSpareKeycode;
    keys_down[k] += down ? 1 : -1;
    FUZZ_CHECK(keys_down[k] >= 0);
    return InputStatus::kOk;
  }
  InputStatus type_text(std::string_view t) override {
    FUZZ_CHECK(decode_utf8(t).has_value());
    return InputStatus::kOk;
  }
  void move(int x, int y) override { FUZZ_CHECK(x >= 0 && y >= 0 && x < size.width && y < size.height); }
  void button(int n, bool down) override {
    FUZZ_CHECK(n == 1 || n == 2 || n == 3 || n == 8 || n == 9);
    buttons_down[n] += down ? 1 : -1;
    FUZZ_CHECK(buttons_down[n] >= 0 && buttons_down[n] <= 1);
  }
  void scroll_notches(int dx, int dy) override {
    FUZZ_CHECK(std::abs(dx) <= endpoints::kMaxScrollNotches && std::abs(dy) <= endpoints::kMaxScrollNotches);
  }
  Size desktop_size() const override { return size; }
  bool caps_lock() override { return false; }
  bool num_lock() override { return false; }
  std::optional<Point> pointer_position() override { return std::nullopt; }
  bool failed() const override { return false; }

  bool all_released() const {
    return std::all_of(keys_down.begin(), keys_down.end(), [](const auto& kv) { return kv.second == 0; }) &&
           std::all_of(buttons_down.begin(), buttons_down.end(), [](const auto& kv) { return kv.second == 0; });
  }
};

std::string encode_utf8(const std::u32string& cps) {
  std::string out;
  for (const char32_t c : cps) {
    if (c < 0x80) {
      out += char(c);
    } else if (c < 0x800) {
      out += char(0xc0 | (c >> 6));
      out += char(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      out += char(0xe0 | (c >> 12));
      out += char(0x80 | ((c >> 6) & 0x3f));
      out += char(0x80 | (c & 0x3f));
    } else {
      out += char(0xf0 | (c >> 18));
      out += char(0x80 | ((c >> 12) & 0x3f));
      out += char(0x80 | ((c >> 6) & 0x3f));
      out += char(0x80 | (c & 0x3f));
    }
  }
  return out;
}

void actions(std::string_view body, uint8_t shape) {
  // Desktops from 1x1 up; the scroll step as a viewer might set it.
  const Size desktop{1 + (shape & 7) * 300, 1 + ((shape >> 3) & 7) * 200};
  const double px_per_notch = (shape >> 6) == 0 ? 1.0 : 60.0 * (shape >> 6);
  endpoints::ActionError e;
  auto list = endpoints::parse_input_actions(body, desktop, px_per_notch, e);
  if (!list) {
    FUZZ_CHECK(!e.message.empty());
    const auto reply = net::json_error(400, e.parameter, e.message);
    const nlohmann::json j = fuzz::parse_json_or_abort(reply.body);
    FUZZ_CHECK(j["error"].is_string());
    return;
  }
  FUZZ_CHECK(!list->empty() && list->size() <= endpoints::kMaxInputActions);
  size_t typed = 0;
  for (const auto& a : *list) {
    FUZZ_CHECK(a.count >= 1 && a.count <= endpoints::kMaxClickCount);
    if (a.type == endpoints::InputAction::Type::kKey) FUZZ_CHECK(!a.keys.empty());
    if (a.type == endpoints::InputAction::Type::kType) {
      const auto cps = decode_utf8(a.text);
      FUZZ_CHECK(cps.has_value());
      typed += cps->size();
    }
  }
  FUZZ_CHECK(typed <= endpoints::kMaxTypedChars);

  CheckingInjector inj;
  inj.size = desktop;
  auto r = endpoints::run_input_actions(*list, inj);
  FUZZ_CHECK(r.status == InputStatus::kOk && r.done == list->size() && inj.all_released());

  // A failing key press part-way still releases everything held.
  for (const auto& a : *list)
    if (!a.keys.empty()) {
      CheckingInjector failing;
      failing.size = desktop;
      failing.failing_key = a.keys.back();
      r = endpoints::run_input_actions(*list, failing);
      FUZZ_CHECK(r.status == InputStatus::kNoSpareKeycode && r.done < list->size() && failing.all_released());
      break;
    }

  // The picture's coordinates moved onto a larger screen stay on it.
  endpoints::map_input_actions(*list, input::PictureMapping{{17, 5}, desktop});
  CheckingInjector offset;
  offset.size = {desktop.width + 17, desktop.height + 5};
  r = endpoints::run_input_actions(*list, offset);
  FUZZ_CHECK(r.status == InputStatus::kOk && offset.all_released());
}

void combo(std::string_view text) {
  // Not a possible part: a part holds at most one '+', at its start.
  const std::string unset = "<+unset+>";
  std::string bad = unset;
  const auto keys = input::parse_key_combo(text, &bad);
  if (!keys) {
    FUZZ_CHECK(bad != unset);
    FUZZ_CHECK(bad.empty() || text.find(bad) != std::string_view::npos);
    return;
  }
  FUZZ_CHECK(!keys->empty() && keys->size() <= text.size() / 1 + 1);
  for (const uint32_t k : *keys) FUZZ_CHECK(k != 0);
}

void utf8(std::string_view text) {
  const auto cps = decode_utf8(text);
  // The same verdict as nlohmann's validator, and a faithful decoding.
  FUZZ_CHECK(cps.has_value() == fuzz::valid_utf8(std::string(text)));
  if (!cps) return;
  FUZZ_CHECK(encode_utf8(*cps) == text);
  for (const char32_t c : *cps) {
    const auto k = input::keysym_for_char(c);
    if (k) FUZZ_CHECK(*k != 0);
  }
  if (cps->size() == 1 && input::keysym_for_char((*cps)[0]))
    FUZZ_CHECK(input::keysym_for_name(text).has_value());
}

void browser_key(std::string_view text) {
  const size_t sep = text.find('\0');
  const std::string_view code = text.substr(0, sep);
  const std::string_view key = sep == std::string_view::npos ? std::string_view() : text.substr(sep + 1);
  if (const auto k = input::keysym_for_browser_key(code, key)) FUZZ_CHECK(*k != 0);
  if (const auto k = input::keysym_for_name(key)) FUZZ_CHECK(*k != 0);
}

}  // namespace

VOXL_FUZZ_TARGET(input_actions) {
  if (size < 2) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  switch (data[0] & 3) {
    case 0: actions(rest, data[1]); break;
    case 1: combo(rest); break;
    case 2: utf8(rest); break;
    case 3: browser_key(rest); break;
  }
  return 0;
}
