#include "platform/windows/win_error.h"

#include <windows.h>
#include <audioclient.h>

#include <cstdio>

#include "platform/windows/wide_string.h"

namespace voxl::platform::windows {

namespace {

std::string hex(uint32_t code) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(code));
  return buf;
}

// WASAPI's errors, which the system has no text for: their names say more
// than the number. Codes and names both come from audioclient.h.
struct NamedCode {
  uint32_t code;
  const char* name;
};
#define VOXL_NAMED(code) {static_cast<uint32_t>(code), #code}
constexpr NamedCode kAudioClientErrors[] = {
    VOXL_NAMED(AUDCLNT_E_NOT_INITIALIZED),          VOXL_NAMED(AUDCLNT_E_ALREADY_INITIALIZED),
    VOXL_NAMED(AUDCLNT_E_WRONG_ENDPOINT_TYPE),      VOXL_NAMED(AUDCLNT_E_DEVICE_INVALIDATED),
    VOXL_NAMED(AUDCLNT_E_NOT_STOPPED),              VOXL_NAMED(AUDCLNT_E_BUFFER_TOO_LARGE),
    VOXL_NAMED(AUDCLNT_E_OUT_OF_ORDER),             VOXL_NAMED(AUDCLNT_E_UNSUPPORTED_FORMAT),
    VOXL_NAMED(AUDCLNT_E_INVALID_SIZE),             VOXL_NAMED(AUDCLNT_E_DEVICE_IN_USE),
    VOXL_NAMED(AUDCLNT_E_BUFFER_OPERATION_PENDING), VOXL_NAMED(AUDCLNT_E_THREAD_NOT_REGISTERED),
    VOXL_NAMED(AUDCLNT_E_EXCLUSIVE_MODE_NOT_ALLOWED), VOXL_NAMED(AUDCLNT_E_ENDPOINT_CREATE_FAILED),
    VOXL_NAMED(AUDCLNT_E_SERVICE_NOT_RUNNING),      VOXL_NAMED(AUDCLNT_E_EVENTHANDLE_NOT_EXPECTED),
    VOXL_NAMED(AUDCLNT_E_EXCLUSIVE_MODE_ONLY),      VOXL_NAMED(AUDCLNT_E_BUFDURATION_PERIOD_NOT_EQUAL),
    VOXL_NAMED(AUDCLNT_E_EVENTHANDLE_NOT_SET),      VOXL_NAMED(AUDCLNT_E_INCORRECT_BUFFER_SIZE),
    VOXL_NAMED(AUDCLNT_E_BUFFER_SIZE_ERROR),        VOXL_NAMED(AUDCLNT_E_CPUUSAGE_EXCEEDED),
    VOXL_NAMED(AUDCLNT_E_BUFFER_ERROR),             VOXL_NAMED(AUDCLNT_E_BUFFER_SIZE_NOT_ALIGNED),
    VOXL_NAMED(AUDCLNT_E_INVALID_DEVICE_PERIOD),    VOXL_NAMED(AUDCLNT_E_INVALID_STREAM_FLAG),
    VOXL_NAMED(AUDCLNT_E_RESOURCES_INVALIDATED),
};
#undef VOXL_NAMED

}  // namespace

std::string system_message(uint32_t code) {
  for (const NamedCode& c : kAudioClientErrors)
    if (c.code == code) return c.name;
  wchar_t* text = nullptr;
  const DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                     FORMAT_MESSAGE_IGNORE_INSERTS,
                                 nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  if (n == 0 || !text) return "error " + hex(code);
  std::wstring w(text, n);
  LocalFree(text);
  while (!w.empty() && (w.back() == L'\n' || w.back() == L'\r' || w.back() == L' ' || w.back() == L'.'))
    w.pop_back();
  return to_utf8(w);
}

std::string describe_hresult(const std::string& what, long hr) {
  const auto code = static_cast<uint32_t>(hr);
  return what + ": " + system_message(code) + " (" + hex(code) + ")";
}

std::string describe_last_error(const std::string& what) {
  const DWORD e = GetLastError();
  return what + ": " + system_message(e) + " (" + hex(e) + ")";
}

}  // namespace voxl::platform::windows
