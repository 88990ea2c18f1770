// POST /computer: one action in Anthropic's or OpenAI's computer-use
// schema, parsed against a picture of some size, played through a checking
// injector after mapping back from a scaled picture. The first byte picks
// the picture's size and the scroll step; the rest is the body.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "base/utf8.h"
#include "endpoints/computer_action.h"
#include "endpoints/picture_scale.h"
#include "fuzz_check.h"
#include "input/input_injector.h"
#include "input/key_mapping.h"
#include "net/endpoint.h"

namespace VOXL_TEST_FILE {

using namespace voxl;
using input::InputStatus;

// Everything played stays on the desktop; keys are released; a button is
// pressed at most once at a time.
struct CheckingInjector : input::InputInjector {
  Size size;
  std::map<uint32_t, int> keys_down;
  std::map<int, int> buttons_down;

  InputStatus key(uint32_t k, bool down) override {
    FUZZ_CHECK(k != 0);
    keys_down[k] += down ? 1 : -1;
    FUZZ_CHECK(keys_down[k] >= 0);
    return InputStatus::kOk;
  }
  InputStatus type_text(std::string_view t) override {
    FUZZ_CHECK(decode_utf8(t).has_value() && !t.empty());
    return InputStatus::kOk;
  }
  void move(int x, int y) override { FUZZ_CHECK(x >= 0 && y >= 0 && x < size.width && y < size.height); }
  void button(int n, bool down) override {
    FUZZ_CHECK(n == 1 || n == 2 || n == 3 || n == 8 || n == 9);
    buttons_down[n] += down ? 1 : -1;
    // left_mouse_up without a down is allowed (the press was an earlier
    // request's); never two presses at once.
    FUZZ_CHECK(buttons_down[n] <= 1);
  }
  void scroll_notches(int dx, int dy) override {
    FUZZ_CHECK(std::abs(dx) <= endpoints::kMaxScrollNotches && std::abs(dy) <= endpoints::kMaxScrollNotches);
  }
  Size desktop_size() const override { return size; }
  bool caps_lock() override { return false; }
  bool num_lock() override { return false; }
  std::optional<Point> pointer_position() override { return std::nullopt; }
  bool failed() const override { return false; }
};

}  // namespace

VOXL_FUZZ_TARGET(computer_action) {
  if (size < 1) return 0;
  const uint8_t shape = data[0];
  const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  // A desktop and the smaller picture an agent works in.
  const Size desktop{1 + (shape & 7) * 311, 1 + ((shape >> 3) & 7) * 203};
  endpoints::ScaleSpec spec;
  spec.max_width = 16 + (shape >> 6) * 400;
  const endpoints::Scaling scaling = endpoints::Scaling::fit(desktop, spec);
  const Size seen = scaling.scaled();
  FUZZ_CHECK(seen.width >= 1 && seen.height >= 1 && seen.width <= desktop.width && seen.height <= desktop.height);

  endpoints::ActionError e;
  auto action = endpoints::parse_computer_action(body, seen, 120.0, e);
  if (!action) {
    FUZZ_CHECK(!e.message.empty() && e.message.rfind(e.parameter + ": ", 0) == 0);
    const auto reply = net::json_error(400, e.parameter, e.message);
    FUZZ_CHECK(fuzz::parse_json_or_abort(reply.body)["error"].is_string());
    return 0;
  }
  FUZZ_CHECK(!action->name.empty());
  if (action->zoom) {
    FUZZ_CHECK(Rect::from_size(seen).contains(*action->zoom));
    const Rect full = scaling.to_full(*action->zoom);
    FUZZ_CHECK(!full.empty() && Rect::from_size(desktop).contains(full));
  }
  FUZZ_CHECK(action->hold <= endpoints::kMaxActionSeconds && action->wait_cap <= endpoints::kMaxActionSeconds);
  FUZZ_CHECK(action->hold_keys.empty() || action->hold.count() > 0);

  endpoints::remap_input_actions(action->input, [&scaling](int x, int y) { return scaling.to_full(x, y); });
  CheckingInjector inj;
  inj.size = desktop;
  const auto r = endpoints::run_input_actions(action->input, inj);
  FUZZ_CHECK(r.status == InputStatus::kOk && r.done == action->input.size());
  for (const auto& [k, n] : inj.keys_down) FUZZ_CHECK(n == 0);
  return 0;
}
