#include "input/keysym_typing.h"

#include "base/utf8.h"
#include "input/key_mapping.h"

namespace voxl::input {

InputStatus type_by_keysyms(InputInjector& injector, std::string_view utf8) {
  const auto text = decode_utf8(utf8);
  if (!text) return InputStatus::kUnknownKey;
  for (char32_t cp : *text) {
    const auto keysym = keysym_for_char(cp);
    if (!keysym) return InputStatus::kUnknownKey;
    if (const auto s = injector.key(*keysym, true); s != InputStatus::kOk) return s;
    if (const auto s = injector.key(*keysym, false); s != InputStatus::kOk) return s;
  }
  return InputStatus::kOk;
}

}  // namespace voxl::input
